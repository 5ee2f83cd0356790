"""Phase 0: put right what no macro can, with plain moves found by breadth-first search.

Conjugated macros preserve the parities (and twist sums) of every orbit and
piece orbit, and never move a group that has no macro of its own (a 3x3x3's
centres). So before them, the position is brought to a "quotient" that
matches the goal: the labels on those frozen cells, and — for exact
positions — the invariant vector of :mod:`hlavolamy.analysis.invariants`.
Both are images of homomorphisms, so a breadth-first search over the pairs
(frozen labels, vector) with single moves finds a shortest fix. When that
space is too big (a big cube has hundreds of parity bits), the frozen cells
are fixed first and the parities then by linear algebra over GF(p) on the
moves that leave frozen cells alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, pieces
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.invariants import CELL_PARITY, invariants, vectors
from hlavolamy.analysis.modular import is_prime
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, reduce_power
from hlavolamy.solve.caches import solve_cache
from hlavolamy.solve.problem import Problem

MAX_NODES = 300_000
"""Most quotient states one breadth-first search visits."""
_BFS_CHUNK = 2_000
"""States of a breadth-first level expanded in one numpy batch (their children are made together)."""


QUOTIENT_CHAIN_WORK = 5e9
"""Work units of shortening rounds for a quotient's chain (what 5 s allowed idle): it spells a small part of a solution."""


class QuotientTooBig(Exception):
    """The search space outgrew :data:`MAX_NODES`."""


def invariant_vector(puzzle: Puzzle, perm: np.ndarray) -> np.ndarray:
    inv = invariants(puzzle)
    return vectors(pieces(puzzle), inv.components, np.asarray(perm))[0] % moduli(puzzle)


def moduli(puzzle: Puzzle) -> np.ndarray:
    """The modulus of each invariant component (2 for a parity, 3 for a twist sum mod 3, ...)."""
    return np.array([c.modulus for c in invariants(puzzle).components], dtype=np.int64)


def turn_vectors(puzzle: Puzzle, gens: Sequence[Turn]) -> np.ndarray:
    """Per turn, how it changes each invariant component (reduced by the moduli)."""
    inv = invariants(puzzle)
    row = {name: k for k, name in enumerate(inv.move_names)}
    mod = moduli(puzzle)
    out = np.array([inv.move_vectors[row[g.move]] * g.power for g in gens], dtype=np.int64).reshape(len(gens), mod.size)
    return out % mod if mod.size else out


def bfs_quotient(problem: Problem, frozen: np.ndarray, use_vector: bool, *, gens: Sequence[Turn] | None = None,
                 care: np.ndarray | None = None, cancel: CancelToken | None = None, quick: bool = False) -> list[Turn]:
    """Shortest turns making the frozen cells' labels and (if ``use_vector``) the invariant vector match the goal.

    With ``care`` (cells) only the invariants of orbits inside ``care`` count.

    Raises :class:`QuotientTooBig` beyond :data:`MAX_NODES` states, and at
    once when the moves reach more than that many (exact positions: the
    quotient's group, :func:`quotient_too_big`; colours: the pieces' colour
    arrangements, :func:`colourings_lower_bound`; with ``quick``, a first
    answer's, also the group's order over what can keep the colouring) — a
    goal a few moves away is then left to the chain too — and ValueError when
    no word reaches the goal (the position is unreachable).
    """
    puzzle = problem.puzzle
    all_moves = gens is None
    gens = list(generators(puzzle)) if all_moves else list(gens)
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[frozen] = np.arange(frozen.size)
    local = [index[puzzle.turn_perm(g)[frozen]] for g in gens]
    if any(np.any(lp < 0) for lp in local):
        raise ValueError("frozen cells are not a union of orbits")
    keep = components_inside(puzzle, care) if use_vector else np.zeros(0, dtype=bool)
    mod = moduli(puzzle)[keep] if use_vector else np.zeros(0, dtype=np.int64)
    gvec = turn_vectors(puzzle, gens)[:, keep] if use_vector else np.zeros((len(gens), 0), dtype=np.int64)
    gens, local, gvec = _distinct_actions(gens, local, gvec)
    start_vec = (invariant_vector(puzzle, problem.exact_labels())[keep] if use_vector
                 else np.zeros(0, dtype=np.int64))
    # a state is one row: the frozen cells' labels, then the vector; its key the row's bytes
    start = np.concatenate([problem.labels[frozen].astype(np.int64), start_vec.astype(np.int64)])
    goal = np.concatenate([problem.goal[frozen].astype(np.int64), np.zeros(start_vec.size, dtype=np.int64)])
    start_key, goal_key = start.tobytes(), goal.tobytes()
    if start_key == goal_key:
        return []
    if all_moves and (quotient_too_big(puzzle, frozen, use_vector) if problem.exact
                      else colourings_lower_bound(puzzle, frozen, problem.goal, by_order=quick) > MAX_NODES):
        raise QuotientTooBig(f"the moves reach more than {MAX_NODES} quotient states")
    parent: dict[bytes, tuple[bytes | None, int]] = {start_key: (None, -1)}
    frontier, frontier_keys = start[None, :], [start_key]
    n_gens, row_bytes = len(gens), start.nbytes
    while frontier.shape[0]:
        kept_rows: list[np.ndarray] = []
        kept_keys: list[bytes] = []
        for at in range(0, frontier.shape[0], _BFS_CHUNK):
            if cancel is not None:
                cancel.check()
            # every child of a chunk at once, parent after parent, each parent's children in generator order
            rows = frontier[at:at + _BFS_CHUNK]
            labels, vec = rows[:, :frozen.size], rows[:, frozen.size:]
            kids = np.empty((rows.shape[0], n_gens, start.size), dtype=np.int64)
            for g, (lp, gv) in enumerate(zip(local, gvec)):
                kids[:, g, :frozen.size] = labels[:, lp]
                kids[:, g, frozen.size:] = (vec + gv) % mod if mod.size else vec
            kids = kids.reshape(-1, start.size)
            keys = kids.view(np.dtype((np.void, row_bytes))).ravel().tolist()
            new = []
            for i, k0 in enumerate(frontier_keys[at:at + rows.shape[0]]):
                for g in range(n_gens):
                    k1 = keys[i * n_gens + g]
                    if k1 in parent:
                        continue
                    parent[k1] = (k0, g)
                    if k1 == goal_key:
                        return _path(parent, k1, gens)
                    new.append(i * n_gens + g)
                    kept_keys.append(k1)
                if len(parent) > MAX_NODES:
                    raise QuotientTooBig(f"more than {MAX_NODES} quotient states")
            kept_rows.append(kids[new])
        frontier = np.concatenate(kept_rows)
        frontier_keys = kept_keys
    raise ValueError("no sequence of moves fixes the frozen cells and parities together")


def components_inside(puzzle: Puzzle, care: np.ndarray | None) -> np.ndarray:
    """Which invariant components belong to orbits lying inside the cells ``care`` (all if None)."""
    comps = invariants(puzzle).components
    if care is None:
        return np.ones(len(comps), dtype=bool)
    structure = pieces(puzzle)
    inside = np.zeros(puzzle.n_cells, dtype=bool)
    inside[care] = True

    def orbits_of(comp) -> list[int]:
        return [comp.index] if comp.kind == CELL_PARITY else list(structure.piece_orbits[comp.index].orbits)

    return np.array([all(inside[list(structure.orbits[i])].all() for i in orbits_of(c)) for c in comps], dtype=bool)


def _distinct_actions(gens: list[Turn], local: list[np.ndarray],
                      gvec: np.ndarray) -> tuple[list[Turn], list[np.ndarray], np.ndarray]:
    """The first of each set of turns acting alike on the quotient (the frozen cells and the vector).

    A later turn acting like an earlier one only finds the earlier one's child again, so the search keeps the
    same states, paths and order without it: on a 33x33x33 the 198 turns act in 17 ways on its 279
    invariant components (no frozen cells), and phase 0 took 49 s of searching duplicates.
    """
    seen: set[bytes] = set()
    kept = []
    for g, (lp, gv) in enumerate(zip(local, gvec)):
        key = lp.tobytes() + b"|" + gv.tobytes()
        if key not in seen:
            seen.add(key)
            kept.append(g)
    return [gens[g] for g in kept], [local[g] for g in kept], gvec[kept]


def _path(parent: dict[bytes, tuple[bytes | None, int]], k: bytes, gens: Sequence[Turn]) -> list[Turn]:
    out = []
    while True:
        prev, g = parent[k]
        if prev is None:
            return out[::-1]
        out.append(gens[g])
        k = prev


def fix_parities_linear(problem: Problem, frozen: np.ndarray) -> list[Turn]:
    """Moves leaving ``frozen`` alone that bring the invariant vector to zero, by elimination over GF(p).

    Components are grouped by modulus. A modulus no move changes must already
    be zero. Every other modulus must be a prime coprime to the rest: its
    components are solved over GF(p) with powers ``g^e`` of the moves, where
    ``e`` is 1 mod p and 0 mod every other modulus (Chinese remainders), so
    fixing one prime's parities leaves the others' alone. Raises ValueError
    when the moduli do not allow that or no combination exists.
    """
    puzzle = problem.puzzle
    mod = moduli(puzzle)
    target = invariant_vector(puzzle, problem.exact_labels())
    if not target.any():
        return []
    frozen_mask = np.zeros(puzzle.n_cells, dtype=bool)
    frozen_mask[frozen] = True
    names = [name for name in puzzle.moves
             if not np.any(frozen_mask & (puzzle.moves[name] != np.arange(puzzle.n_cells)))]
    vecs = turn_vectors(puzzle, [Turn(name, 1) for name in names])
    live = sorted({int(m) for m in mod[np.any(vecs % mod != 0, axis=0)]})
    if np.any(target[~np.isin(mod, live)]):
        raise ValueError("an invariant that no move changes is off its solved value")
    lcm = int(np.lcm.reduce(live)) if live else 1
    out: list[Turn] = []
    for p in live:
        rest = lcm // p
        if not is_prime(p) or rest % p == 0:
            raise ValueError(f"linear parity fixing needs prime, pairwise coprime moduli, got {live}")
        cols = mod == p
        choice = _gfp_solve(vecs[:, cols] % p, (-target[cols]) % p, p)
        if choice is None:
            raise ValueError("no combination of moves fixes the parities")
        e = rest * pow(rest, -1, p)
        for i, c in enumerate(choice):
            power = reduce_power(puzzle, names[i], e * int(c))
            if power:
                out.append(Turn(names[i], power))
    return out


def _gfp_solve(rows: np.ndarray, target: np.ndarray, p: int) -> np.ndarray | None:
    """Coefficients ``c`` (0..p-1, one per row) with ``c @ rows == target`` mod prime ``p``; None if none.

    Gaussian elimination on the transposed system ``rows.T c = target``.

    >>> _gfp_solve(np.array([[1, 0], [1, 1]]), np.array([0, 1]), 2).tolist()
    [1, 1]
    """
    a = np.concatenate([rows.T.astype(np.int64) % p, (target.astype(np.int64) % p)[:, None]], axis=1)
    nrow, nvar = a.shape[0], rows.shape[0]
    pivots: list[int] = []
    r = 0
    for c in range(nvar):
        hit = np.flatnonzero(a[r:, c]) + r
        if hit.size == 0:
            continue
        a[[r, hit[0]]] = a[[hit[0], r]]
        a[r] = (a[r] * pow(int(a[r, c]), -1, p)) % p
        others = np.flatnonzero(a[:, c])
        others = others[others != r]
        a[others] = (a[others] - np.outer(a[others, c], a[r])) % p
        pivots.append(c)
        r += 1
        if r == nrow:
            break
    if np.any(a[r:, -1]):
        return None
    coeff = np.zeros(nvar, dtype=np.int64)
    for row, c in enumerate(pivots):
        coeff[c] = a[row, -1]
    return coeff


def chain_quotient(problem: Problem, frozen: np.ndarray, *, cancel: CancelToken | None = None,
                   quick: bool = False) -> list[Turn]:
    """Turns fixing the frozen cells and the invariant vector together, from a stabiliser chain of their action.

    For when the quotient is too big to search (a 5x5x5 turned by faces and
    second layers only has no macro for its midges: 12 pieces moving like a
    3x3x3's edges). The moves act on the frozen cells and, through the
    invariant vector, on one cycle of ``m`` points per component mod ``m``;
    that permutation group (:func:`quotient_puzzle`) gets a stabiliser chain
    (:mod:`~hlavolamy.solve.tables.chain`) whose sift spells the fix. Exact positions
    only. Raises :class:`~hlavolamy.solve.tables.chain.ChainTooLarge` when even
    the quotient is too big for a chain.

    ``quick`` sifts through a quick chain (no shortening rounds: the first
    answer's route, where the full chain's rounds were most of its cost: 5 of
    8 s of CPU on a 5x5x5, 33 of 55 s on a gigaminx) instead.
    """
    from hlavolamy.solve.tables.chain import chain_solve, quick_chain, sift_solve

    quotient = quotient_puzzle(problem.puzzle, frozen)
    if quotient is None:
        return []
    position = _quotient_position(problem, frozen)
    if quick:
        return sift_solve(quick_chain(quotient, cancel=cancel), position, cancel=cancel)
    return chain_solve(quotient, position, cancel=cancel, improve=QUOTIENT_CHAIN_WORK)


def quotient_puzzle(puzzle: Puzzle, frozen: np.ndarray, vector: bool = True) -> Puzzle | None:
    """The moves' action on ``frozen`` (a union of orbits) and on the invariant vector, as a puzzle of its own.

    Without ``vector``, on the frozen cells only. None when that is nothing.
    Cached on ``puzzle``, so the chain built for it is found again.
    """
    key, held = (vector, frozen.tobytes()), solve_cache(puzzle).quotients
    if key not in held:
        vecs = turn_vectors(puzzle, [Turn(name, 1) for name in puzzle.moves])
        if not vector:
            vecs = vecs[:, :0]
        moves = {name: _on_quotient(puzzle, frozen, move, vec) for (name, move), vec in zip(puzzle.moves.items(), vecs)}
        n = frozen.size + (int(moduli(puzzle).sum()) if vector else 0)
        held[key] = Puzzle([str(i) for i in range(n)], moves, name=f"{puzzle.name} (quotient)") if n else None
    return held[key]


def quotient_too_big(puzzle: Puzzle, frozen: np.ndarray, vector: bool) -> bool:
    """Whether the moves' action on the frozen cells (and the vector) has more than :data:`MAX_NODES` elements.

    That order bounds the states a breadth-first search over distinct labels
    can meet, so a search bound to give up is not started (a 5x5x5 without
    middle slices would spend seconds on it at every solve).
    """
    from hlavolamy.analysis.membership import group_order

    if pieces_lower_bound(puzzle, frozen) > MAX_NODES:
        return True
    quotient = quotient_puzzle(puzzle, frozen, vector)
    return quotient is not None and group_order(quotient).value > MAX_NODES


def pieces_lower_bound(puzzle: Puzzle, frozen: np.ndarray) -> int:
    """A lower bound of the order of the moves' action on ``frozen``, without Schreier–Sims.

    Per piece orbit inside: its pieces' permutations form a transitive group,
    so at least as many elements as pieces, and n!/2 when Jordan's theorem
    shows it alternating or symmetric (a gigaminx's 20 corners, a 5x5x5's
    12 midges). The bound is what :func:`quotient_too_big` needs first: the
    two quotients' Schreier–Sims cost a gigaminx's first answer 4.5 s of CPU.
    """
    best = 1
    for po, alt_sym in _piece_orbits_inside(puzzle, frozen):
        best = max(best, alt_sym or po.n_pieces)
        if best > MAX_NODES:
            break
    return best


def _piece_orbits_in(puzzle: Puzzle, frozen: np.ndarray) -> Iterator[PieceOrbit]:
    """The piece orbits inside ``frozen`` (a union of them)."""
    inside = np.zeros(puzzle.n_cells, dtype=bool)
    inside[frozen] = True
    return (po for po in pieces(puzzle).piece_orbits if inside[po.cells[0, 0]])


def _piece_orbits_inside(puzzle: Puzzle, frozen: np.ndarray) -> Iterator[tuple[PieceOrbit, int | None]]:
    """The piece orbits inside ``frozen``, each with the order Jordan's theorem gives its pieces' group (None:
    not shown alternating or symmetric; :func:`~hlavolamy.analysis.membership.pieces_alt_sym_order`)."""
    from hlavolamy.analysis.membership import pieces_alt_sym_order

    for po in _piece_orbits_in(puzzle, frozen):
        yield po, pieces_alt_sym_order(po)


def _alike_pieces(colours: np.ndarray) -> list[int]:
    """How many pieces (rows of ``colours``) show each set of colours, whatever their turn."""
    return np.unique(np.sort(colours, axis=1), axis=0, return_counts=True)[1].tolist()


def colourings_lower_bound(puzzle: Puzzle, frozen: np.ndarray, goal: np.ndarray, *, by_order: bool = False) -> int:
    """A lower bound of the colourings of ``frozen`` the moves reach from ``goal`` (labels per cell).

    Per piece orbit inside whose pieces move as an alternating or symmetric
    group (Jordan's theorem, :func:`pieces_lower_bound`): the pieces told
    apart by their colours alone (orientation ignored) already take
    n! / (k1! k2! ...) arrangements, half of them at least under the
    alternating group. What the search by colours needs before it starts: a
    gigaminx by colours spent 4 s of its first answer in searches bound to
    give up (20 corners of distinct colours).

    ``by_order``: if that is not enough, the group's order over what can keep
    the colouring too (:func:`_colourings_by_order`), which sees orientation.
    For a first answer only: a search in such a space still finds a goal a few
    moves away, a shorter fix than the chain's (two Santa globe cases of four
    that it changed came out longer without their searches).
    """
    labels = np.asarray(goal)
    best = 1
    for po, alt_sym in _piece_orbits_inside(puzzle, frozen):
        if not alt_sym:
            continue
        arrangements = math.factorial(po.n_pieces)
        for k in _alike_pieces(labels[po.cells]):
            arrangements //= math.factorial(k)
        best = max(best, arrangements // 2)
        if best > MAX_NODES:
            return best
    return max(best, _colourings_by_order(puzzle, frozen, labels)) if by_order else best


def _colourings_by_order(puzzle: Puzzle, frozen: np.ndarray, labels: np.ndarray) -> int:
    """The colourings of ``frozen`` the moves reach, bounded below by the proven order of their group on it over
    the most elements that can keep a colouring (0 when the order is not proven).

    An element keeping the colouring maps each piece to a piece of the same
    colours and each cell to one of its colour: at most ``k!`` ways for
    ``k`` alike pieces and ``m!`` for ``m`` alike cells of a piece. What the
    piece count misses: orientation. A 6x6x6's corners by colours look like
    8!/2 arrangements, but the search meets 8! 3^7 of them (phase 0 spent 4 s
    of its first answer on two searches bound to give up).
    """
    from hlavolamy.analysis.membership import group_order

    quotient = quotient_puzzle(puzzle, frozen, vector=False)
    order = group_order(quotient) if quotient is not None else None
    if order is None or not order.exact:
        return 0
    keeping = 1
    for po in _piece_orbits_in(puzzle, frozen):  # no Jordan test here: only the cells' colours count
        colours = labels[po.cells]
        keeping *= math.prod(math.factorial(k) for k in _alike_pieces(colours))
        for piece in colours:
            keeping *= math.prod(math.factorial(m) for m in np.unique(piece, return_counts=True)[1].tolist())
    return order.value // keeping


def _quotient_position(problem: Problem, frozen: np.ndarray) -> np.ndarray:
    """An exact position (a colour problem's shadow) as a permutation of the quotient's points."""
    exact = problem.exact_labels()
    return _on_quotient(problem.puzzle, frozen, exact, invariant_vector(problem.puzzle, exact))


def _on_quotient(puzzle: Puzzle, frozen: np.ndarray, perm: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """``perm`` (with invariant vector ``vec``) on the quotient: frozen cells, then each component's cycle rotated."""
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[frozen] = np.arange(frozen.size)
    mod = moduli(puzzle)[:vec.size]
    offsets = frozen.size + np.concatenate([[0], np.cumsum(mod)[:-1]]).astype(np.int64)
    cycles = [o + (np.arange(m) + v) % m for o, m, v in zip(offsets, mod, vec)]
    return np.concatenate([index[np.asarray(perm)[frozen]]] + cycles)

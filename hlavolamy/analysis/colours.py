"""From colours to a position: a reachable permutation that shows given colours.

A position given by colours only (identical pieces, as in the Santa 2023
puzzles) has many permutations. Piece by piece: a slot's colour pattern,
read in its reference order, names the piece class (pieces whose solved
patterns agree up to a turn in the orientation group) and the turn; pieces
of one class are interchangeable, so they are matched in order. The result
may break an invariant (parity, twist sum); the freedom left — swapping two
slots that show the same pattern, turning a slot whose pattern is symmetric
— changes the invariant vector without changing any colour. How often to
apply each such change is found by :func:`~hlavolamy.analysis.modular.combination`
(a linear system over Z/p^A per prime, solved in echelon form). With
``wildcards`` > 0 one paid change (a swap or turn that alters at most that
many shown colours) may be added when the free ones cannot fix the
invariants. Where Schreier–Sims is affordable the result is verified, and
a breadth-first search over reachable colourings backs it up.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.invariants import CELL_PARITY, PIECE_PARITY, TWIST_SUM, Invariants, invariants, vectors
from hlavolamy.analysis.modular import combination
from hlavolamy.analysis.orbits import distinct_generators, format_cells, move_matrix, restrict
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import PuzzleError, UnreachableError, quoted


def _target_array(puzzle: Puzzle, colour_ids: Sequence[int] | np.ndarray) -> np.ndarray:
    target = np.asarray(colour_ids)
    if target.shape != (puzzle.n_cells,):
        raise PuzzleError(f"colours: expected {puzzle.n_cells} colour ids, got {target.size}")
    if not np.issubdtype(target.dtype, np.integer):
        raise PuzzleError("colours: colour ids must be integers")
    bad = np.flatnonzero((target < 0) | (target >= len(puzzle.colour_labels)))
    if bad.size:
        raise PuzzleError(f"colours: position {int(bad[0])} has colour id {int(target[bad[0]])}, "
                          f"not in 0..{len(puzzle.colour_labels) - 1}")
    return target.astype(np.int64)


def _names(puzzle: Puzzle, ids: Sequence[int]) -> str:
    return "(" + ", ".join(puzzle.colour_labels[i] for i in ids) + ")"


def _check_counts(puzzle: Puzzle, structure: PieceStructure, target: np.ndarray) -> None:
    """Fixed cells must show their own colour; every orbit its own colours, as often."""
    moved = np.zeros(puzzle.n_cells, dtype=bool)
    for i, orbit in enumerate(structure.orbits):
        moved[list(orbit)] = True
        want = Counter(puzzle.colour_ids[list(orbit)].tolist())
        got = Counter(target[list(orbit)].tolist())
        if want != got:
            diff = "; ".join(
                f"{puzzle.colour_labels[c]}: {got.get(c, 0)} shown, {want.get(c, 0)} in the puzzle"
                for c in sorted(set(want) | set(got)) if want.get(c, 0) != got.get(c, 0))
            raise UnreachableError(f"colour counts differ in orbit {i} {format_cells(orbit)}: {diff}")
    fixed_wrong = np.flatnonzero(~moved & (target != puzzle.colour_ids))
    if fixed_wrong.size:
        c = int(fixed_wrong[0])
        raise UnreachableError(f"cell {c} is moved by no move, so it must show "
                               f"{puzzle.colour_labels[puzzle.colour_ids[c]]}, not {puzzle.colour_labels[target[c]]}")


def _canonical(pattern: np.ndarray, group: np.ndarray) -> tuple[int, ...]:
    """The least reading of ``pattern`` over all turns in the orientation group."""
    return min(tuple(row) for row in pattern[group].tolist())


def colours_tell_pieces(structure: PieceStructure, goal: np.ndarray, cells: np.ndarray) -> bool:
    """Whether the colouring of ``cells`` shows one position only: every piece of their piece orbits, read
    in every turn of its orientation group, shows a colour pattern no other piece or turn shows.

    Then a colour position of these cells *is* an exact one (a 4x4x4's wings: 24 pieces, 24 ordered colour
    pairs), and searches may track the pieces themselves instead of each colour apart.

    >>> from hlavolamy.core.puzzle import Puzzle
    >>> ring = Puzzle(["a", "b", "c"], {"t": [1, 2, 0]})
    >>> colours_tell_pieces(pieces(ring), np.array([0, 1, 2]), np.arange(3))
    True
    >>> colours_tell_pieces(pieces(ring), np.array([0, 0, 1]), np.arange(3))
    False
    """
    for po in structure.piece_orbits_holding(cells):
        group = np.array(po.orientation_group, dtype=np.int64)
        readings = goal[po.cells][:, group].reshape(-1, po.piece_size)
        if np.unique(readings, axis=0).shape[0] != readings.shape[0]:
            return False
    return True


def _match_pieces(puzzle: Puzzle, j: int, po: PieceOrbit, target: np.ndarray,
                  perm: np.ndarray) -> dict[tuple[int, ...], list[int]]:
    """Fill ``perm`` on this piece orbit; return slots grouped by the pattern class they show."""
    group = np.array(po.orientation_group, dtype=np.int64)
    solved = puzzle.colour_ids[po.cells].astype(np.int64)
    shown = target[po.cells]
    pieces_of: dict[tuple[int, ...], list[int]] = defaultdict(list)
    slots_of: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for r in range(po.n_pieces):
        pieces_of[_canonical(solved[r], group)].append(r)
    for q in range(po.n_pieces):
        slots_of[_canonical(shown[q], group)].append(q)
    for key, slots in slots_of.items():
        have = pieces_of.get(key, [])
        if not have:
            raise UnreachableError(f"piece orbit {j}: the piece at cells {po.pieces[slots[0]]} shows "
                                   f"{_names(puzzle, shown[slots[0]])}; no piece has these colours")
        if len(have) != len(slots):
            raise UnreachableError(f"piece orbit {j}: {len(slots)} pieces show {_names(puzzle, shown[slots[0]])} "
                                   f"(up to turning), but the puzzle has {len(have)} such pieces")
        for q, r in zip(slots, have):
            turns = group[np.all(solved[r][group] == shown[q], axis=1)]
            perm[po.cells[q]] = po.cells[r][turns[0]]
    return slots_of


def _swap(po: PieceOrbit, q1: int, q2: int, turn: np.ndarray, n_cells: int) -> np.ndarray:
    """Exchange the pieces at slots ``q1`` and ``q2``, the one arriving at ``q1`` read through ``turn``."""
    t = np.arange(n_cells)
    t[po.cells[q1]] = po.cells[q2][turn]
    t[po.cells[q2]] = po.cells[q1][np.argsort(turn)]
    return t


def _rotate(po: PieceOrbit, q: int, turn: np.ndarray, n_cells: int) -> np.ndarray:
    """Turn the piece at slot ``q`` in place."""
    t = np.arange(n_cells)
    t[po.cells[q]] = po.cells[q][turn]
    return t


def _free_adjustments(po: PieceOrbit, target: np.ndarray, slots_of: dict[tuple[int, ...], list[int]],
                      n_cells: int) -> list[np.ndarray]:
    """Colour-preserving changes: swapping two slots that show the same pattern, turning a slot by a
    symmetry of its pattern. Each is a permutation ``t`` of positions: the new position is ``perm[t]``."""
    group = np.array(po.orientation_group, dtype=np.int64)
    shown = target[po.cells]
    out = []
    for slots in slots_of.values():
        if len(slots) > 1:
            q1, q2 = slots[:2]
            turn = group[np.all(shown[q2][group] == shown[q1], axis=1)][0]
            out.append(_swap(po, q1, q2, turn, n_cells))
    for q in range(po.n_pieces):
        for turn in group[1:][np.all(shown[q][group[1:]] == shown[q], axis=1)]:
            out.append(_rotate(po, q, turn, n_cells))
    return out


def _paid_adjustments(po: PieceOrbit, target: np.ndarray, slots_of: dict[tuple[int, ...], list[int]],
                      n_cells: int) -> list[tuple[np.ndarray, int]]:
    """Single changes that alter shown colours, with how many: the cheapest swap of two slots showing
    different patterns, and for each turn the cheapest slot to turn."""
    group = np.array(po.orientation_group, dtype=np.int64)

    def cheapest(candidates: list[np.ndarray]) -> tuple[np.ndarray, int]:
        costs = [int(np.count_nonzero(target[t] != target)) for t in candidates]
        k = int(np.argmin(costs))
        return candidates[k], costs[k]

    out = []
    firsts = [slots[0] for slots in slots_of.values()][:32]
    if len(firsts) > 1:
        out.append(cheapest([_swap(po, a, b, group[0], n_cells) for i, a in enumerate(firsts) for b in firsts[i + 1:]]))
    for turn in group[1:]:
        out.append(cheapest([_rotate(po, q, turn, n_cells) for q in range(po.n_pieces)]))
    return [(t, c) for t, c in out if c > 0]


def _delta(structure: PieceStructure, inv: Invariants, j: int, t: np.ndarray) -> np.ndarray:
    """Invariant vector of an adjustment ``t`` that moves cells of piece orbit ``j`` only."""
    po = structure.piece_orbits[j]
    slots, turns = po.locate(t)
    out = np.zeros(len(inv.components), dtype=np.int64)
    for c, comp in enumerate(inv.components):
        if comp.kind == CELL_PARITY and comp.index in po.orbits:
            out[c] = P.parity_on(t, structure.orbits[comp.index])
        elif comp.kind == PIECE_PARITY and comp.index == j:
            out[c] = P.parity(slots)
        elif comp.kind == TWIST_SUM and comp.index == j:
            out[c] = int(po.twist_exponents(turns).sum()) % comp.modulus
    return out


def _distinct_deltas(structure: PieceStructure, inv: Invariants, adjustments: list[tuple[np.ndarray, int]],
                     width: int) -> tuple[list[np.ndarray], np.ndarray]:
    """One adjustment per distinct invariant change, with the changes as rows."""
    seen: dict[bytes, np.ndarray] = {}
    perms = []
    for t, j in adjustments:
        d = _delta(structure, inv, j, t)
        if d.any() and d.tobytes() not in seen:
            seen[d.tobytes()] = d
            perms.append(t)
    return perms, (np.array(list(seen.values())) if seen else np.zeros((0, width), np.int64))


COLOUR_SEARCH_LIMIT = 200_000
"""Most colourings visited when Schreier–Sims rejects the structural answer (small puzzles only)."""


def _search_colourings(puzzle: Puzzle, target: np.ndarray, cancel: CancelToken | None) -> np.ndarray | bool:
    """Breadth-first search over the colourings the moves reach: a permutation showing ``target``,
    False when none does, True when the search gave up at :data:`COLOUR_SEARCH_LIMIT`."""
    moves = list(puzzle.moves.values())
    start = puzzle.colour_ids.astype(np.int32)
    goal = target.astype(np.int32).tobytes()
    parent: dict[bytes, tuple[bytes, int] | None] = {start.tobytes(): None}
    frontier = [start]
    found = start.tobytes() if start.tobytes() == goal else None
    while frontier and found is None:
        if cancel is not None:
            cancel.check()
        nxt = []
        for colours in frontier:
            key = colours.tobytes()
            for k, m in enumerate(moves):
                image = colours[m]
                image_key = image.tobytes()
                if image_key not in parent:
                    parent[image_key] = (key, k)
                    nxt.append(image)
                    if image_key == goal:
                        found = goal
        if len(parent) > COLOUR_SEARCH_LIMIT and found is None:
            return True
        frontier = nxt
    if found is None:
        return False
    path = []
    while parent[found] is not None:
        found, k = parent[found]
        path.append(k)
    perm = np.arange(puzzle.n_cells)
    for k in reversed(path):
        perm = perm[moves[k]]
    return perm


def assign_colours(puzzle: Puzzle, colour_ids: Sequence[int] | np.ndarray, *, wildcards: int = 0,
                   verify: bool = True, cancel: CancelToken | None = None) -> State:
    """A reachable position showing ``colour_ids`` (ids into ``puzzle.colour_labels``).

    With ``wildcards`` = k the position may show up to k colours other than
    the given ones when that is the only way to be reachable. Raises
    UnreachableError saying why no position fits. Where Schreier–Sims is
    affordable (and ``verify``) the answer is checked exactly; should the
    group be smaller than its orbits, pieces and invariants say, the
    colourings the moves reach are searched instead.
    """
    from hlavolamy.analysis.membership import in_group

    target = _target_array(puzzle, colour_ids)
    state = _structural_assignment(puzzle, target, wildcards)
    if not verify or in_group(puzzle, state.perm) is not False:
        return state
    found = _search_colourings(puzzle, target, cancel)
    if found is False:
        raise UnreachableError("no reachable position shows these colours (every colouring the moves reach "
                               "was searched)")
    if found is True:
        raise UnreachableError("every orbit, piece, parity and twist law allows these colours, but Schreier–Sims "
                               "rejects the position found and a search of the reachable colourings gave up")
    return State(puzzle, found)


LOCAL_ENUMERATION_LIMIT = 50_000
"""Largest group of one piece orbit whose elements are listed when it is not every arrangement its
invariants allow (a globe's flipped pieces): matching pieces freely could leave the group."""


def _enumerate_piece_orbit(puzzle: Puzzle, structure: PieceStructure, j: int, target: np.ndarray,
                           perm: np.ndarray) -> list[np.ndarray]:
    """Fill ``perm`` on piece orbit ``j`` with an arrangement its moves reach that shows ``target``.

    Returns the colour-preserving changes leading to the other such
    arrangements (``perm[h]`` shows the same colours and stays in the group).
    """
    cells = np.array(sorted(c for i in structure.piece_orbits[j].orbits for c in structure.orbits[i]))
    gens = distinct_generators(restrict(move_matrix(puzzle), cells, puzzle.n_cells))
    shown, want = puzzle.colour_ids[cells], target[cells]
    start = np.arange(cells.size)
    seen, frontier, matches = {start.tobytes()}, [start], []
    while frontier:
        nxt = []
        for g in frontier:
            if np.array_equal(shown[g], want):
                matches.append(g)
            for m in gens:
                image = g[m]
                if image.tobytes() not in seen:
                    seen.add(image.tobytes())
                    nxt.append(image)
        frontier = nxt
    if not matches:
        raise UnreachableError(f"piece orbit {j} {format_cells(cells.tolist())}: none of the {len(seen)} "
                               "arrangements its moves reach shows these colours")
    first = matches[0]
    perm[cells] = cells[first]
    inverse_first = np.argsort(first)
    changes = []
    for g in matches[1:MAX_LOCAL_CHANGES]:
        h = np.arange(puzzle.n_cells)
        h[cells] = cells[inverse_first[g]]
        changes.append(h)
    return changes


MAX_LOCAL_CHANGES = 256
"""Most alternative arrangements of one enumerated piece orbit offered to the invariant fix."""


def _structural_assignment(puzzle: Puzzle, target: np.ndarray, wildcards: int) -> State:
    """Match pieces by colour pattern, then fix parities and twists with colour-preserving changes."""
    from hlavolamy.analysis.membership import piece_orbit_orders

    structure = pieces(puzzle)
    _check_counts(puzzle, structure, target)
    perm = np.arange(puzzle.n_cells, dtype=np.int64)
    free: list[tuple[np.ndarray, int]] = []
    paid: list[tuple[np.ndarray, int]] = []
    for j, (po, order) in enumerate(zip(structure.piece_orbits, piece_orbit_orders(puzzle))):
        if not order.is_full and order.exact and order.order <= LOCAL_ENUMERATION_LIMIT:
            free += [(h, j) for h in _enumerate_piece_orbit(puzzle, structure, j, target, perm)]
            continue
        classes = _match_pieces(puzzle, j, po, target, perm)
        free += [(t, j) for t in _free_adjustments(po, target, classes, puzzle.n_cells)]
        if wildcards > 0:
            paid += [(t, c) for t, c in _paid_adjustments(po, target, classes, puzzle.n_cells) if c <= wildcards]
    inv = invariants(puzzle)
    x = vectors(structure, inv.components, perm)[0]
    if inv.span.contains(x):
        return State(puzzle, perm)
    free_perms, free_deltas = _distinct_deltas(structure, inv, free, len(x))
    options = [(None, 0)] + sorted(paid, key=lambda tc: tc[1])
    for extra, _ in options:
        start = perm if extra is None else perm[extra]
        x0 = vectors(structure, inv.components, start)[0]
        counts = combination([c.modulus for c in inv.components], inv.move_vectors, free_deltas, x0)
        if counts is not None:
            for t, k in zip(free_perms, counts.tolist()):
                if k:
                    start = start[P.power(t, k)]
            return State(puzzle, start)
    reasons = "; ".join(inv.violations(x))
    raise UnreachableError(f"no reachable position shows these colours: {reasons}, and no swap of identical "
                           "pieces or turn of a symmetric piece fixes it"
                           + (f" (nor one change of at most {wildcards} shown colours)" if wildcards else ""))


def state_from_colours(puzzle: Puzzle, labels: Sequence[str], *, wildcards: int = 0) -> State:
    """:func:`assign_colours` for colour labels (as the GUI paints them) instead of ids."""
    index = {label: i for i, label in enumerate(puzzle.colour_labels)}
    if len(labels) != puzzle.n_cells:
        raise PuzzleError(f"colours: expected {puzzle.n_cells} labels, got {len(labels)}")
    unknown = [(cell, label) for cell, label in enumerate(labels) if label not in index]
    if unknown:
        cell, label = unknown[0]
        raise PuzzleError(f"colours: position {cell} has {quoted(label)}, not a colour of the puzzle "
                          f"({', '.join(puzzle.colour_labels)})")
    return assign_colours(puzzle, [index[label] for label in labels], wildcards=wildcards)

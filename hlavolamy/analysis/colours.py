"""From colours to a position: a reachable permutation that shows given colours.

A position given by colours only (identical pieces, as in the Santa 2023
puzzles) has many permutations. Piece by piece: a slot's colour pattern,
read in its reference order, names the piece class (pieces whose solved
patterns agree up to a turn in the orientation group) and the turn; pieces
of one class are interchangeable, so they are matched in order. The result
may break an invariant (parity, twist sum); the freedom left — swapping two
slots that show the same pattern, turning a slot whose pattern is symmetric
— changes the invariant vector without changing any colour. Which of these
to apply is a linear system over GF(p) per prime (one equation per law the
reachable positions obey). With ``wildcards`` > 0 one paid change (a swap or
turn that alters at most that many shown colours) may be added when the
free ones cannot fix the invariants.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.invariants import CELL_PARITY, PIECE_PARITY, TWIST_SUM, Invariants, invariants, vectors
from hlavolamy.analysis.orbits import format_cells
from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import PuzzleError, UnreachableError


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


def _adjustments(po: PieceOrbit, target: np.ndarray, slots_of: dict[tuple[int, ...], list[int]],
                 n_cells: int, paid: bool) -> list[tuple[np.ndarray, int]]:
    """Colour-preserving changes (``paid=False``) or single changes with their colour cost.

    Each is a permutation ``t`` of positions: the new position is ``perm[t]``.
    Free: swapping two slots that show the same pattern, turning a slot by a
    symmetry of its pattern. Paid: the cheapest swap of two slots showing
    different patterns, and single-slot turns.
    """
    group = np.array(po.orientation_group, dtype=np.int64)
    shown = target[po.cells]
    out = []

    def swap(q1: int, q2: int, turn: np.ndarray) -> np.ndarray:
        t = np.arange(n_cells)
        t[po.cells[q1]] = po.cells[q2][turn]
        t[po.cells[q2]] = po.cells[q1][np.argsort(turn)]
        return t

    def rotate(q: int, turn: np.ndarray) -> np.ndarray:
        t = np.arange(n_cells)
        t[po.cells[q]] = po.cells[q][turn]
        return t

    def cost(t: np.ndarray) -> int:
        return int(np.count_nonzero(target[t] != target))

    if not paid:
        for slots in slots_of.values():
            if len(slots) > 1:
                q1, q2 = slots[:2]
                turn = group[np.all(shown[q2][group] == shown[q1], axis=1)][0]
                out.append((swap(q1, q2, turn), 0))
        for q in range(po.n_pieces):
            for turn in group[1:][np.all(shown[q][group[1:]] == shown[q], axis=1)]:
                out.append((rotate(q, turn), 0))
        return out
    classes = list(slots_of.values())
    if len(classes) > 1:
        out.append(min(((t := swap(a[0], b[0], group[0])), cost(t)) for a in classes for b in classes if a is not b)
                   if len(classes) <= 32 else ((t := swap(classes[0][0], classes[1][0], group[0])), cost(t)))
    for turn in group[1:]:
        out.append(min(((t := rotate(q, turn)), cost(t)) for q in range(po.n_pieces)))
    return [(t, c) for t, c in out if c > 0]


def _solve_mod_p(matrix: np.ndarray, rhs: np.ndarray, p: int) -> np.ndarray | None:
    """A solution ``c`` of ``matrix @ c = rhs (mod p)``, or None."""
    a = np.concatenate([matrix % p, (rhs % p)[:, None]], axis=1).astype(np.int64)
    rows, cols = matrix.shape
    pivots = []
    r = 0
    for col in range(cols):
        nz = np.flatnonzero(a[r:, col]) + r
        if not nz.size:
            continue
        a[[r, nz[0]]] = a[[nz[0], r]]
        a[r] = (a[r] * pow(int(a[r, col]), -1, p)) % p
        others = np.flatnonzero(a[:, col])
        others = others[others != r]
        a[others] = (a[others] - a[others, col:col + 1] * a[r]) % p
        pivots.append(col)
        r += 1
        if r == rows:
            break
    if np.any(a[r:, -1]):
        return None
    c = np.zeros(cols, dtype=np.int64)
    for i, col in enumerate(pivots):
        c[col] = a[i, -1]
    return c


def _fix(inv: Invariants, x: np.ndarray, deltas: np.ndarray) -> np.ndarray | None:
    """How many times to apply each adjustment (rows of ``deltas``) so ``x`` becomes reachable."""
    counts = np.zeros(len(deltas), dtype=np.int64)
    modulus = 1
    by_prime: dict[int, list[dict[int, int]]] = defaultdict(list)
    for coeffs, p in inv.relations:
        by_prime[p].append(coeffs)
    for p, rels in by_prime.items():
        r = np.zeros((len(rels), len(inv.components)), dtype=np.int64)
        for k, coeffs in enumerate(rels):
            r[k, list(coeffs)] = list(coeffs.values())
        c = _solve_mod_p(r @ deltas.T if len(deltas) else np.zeros((len(rels), 0), np.int64), -(r @ x), p)
        if c is None:
            return None
        # combine with earlier primes (Chinese remainder): counts = c (mod p), unchanged mod modulus
        while np.any(counts % p != c):
            counts = np.where(counts % p != c, counts + modulus, counts)
        modulus *= p
    moduli = np.array([comp.modulus for comp in inv.components])
    return counts if inv.span.contains((x + counts @ deltas) % moduli) else None


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


def assign_colours(puzzle: Puzzle, colour_ids: Sequence[int] | np.ndarray, *, wildcards: int = 0) -> State:
    """A reachable position showing ``colour_ids`` (ids into ``puzzle.colour_labels``).

    With ``wildcards`` = k the position may show up to k colours other than
    the given ones when that is the only way to be reachable. Raises
    UnreachableError saying why no position fits.
    """
    structure = pieces(puzzle)
    target = _target_array(puzzle, colour_ids)
    _check_counts(puzzle, structure, target)
    perm = np.arange(puzzle.n_cells, dtype=np.int64)
    classes = [_match_pieces(puzzle, j, po, target, perm) for j, po in enumerate(structure.piece_orbits)]
    inv = invariants(puzzle)
    x = vectors(structure, inv.components, perm)[0]
    if inv.span.contains(x):
        return State(puzzle, perm)
    free = [(t, j) for j, (po, cls) in enumerate(zip(structure.piece_orbits, classes))
            for t, _ in _adjustments(po, target, cls, puzzle.n_cells, paid=False)]
    free_perms, free_deltas = _distinct_deltas(structure, inv, free, len(x))
    options = [(None, 0)]
    if wildcards > 0:
        paid = [(t, c) for j, (po, cls) in enumerate(zip(structure.piece_orbits, classes))
                for t, c in _adjustments(po, target, cls, puzzle.n_cells, paid=True) if c <= wildcards]
        options += sorted(paid, key=lambda tc: tc[1])
    for extra, _ in options:
        start = perm if extra is None else perm[extra]
        x0 = vectors(structure, inv.components, start)[0]
        counts = _fix(inv, x0, free_deltas)
        if counts is not None:
            for t, k in zip(free_perms, counts.tolist()):
                if k:
                    start = start[P.power(t, k)]
            return State(puzzle, start)
    reasons = "; ".join(inv.violations(x))
    raise UnreachableError(f"no reachable position shows these colours: {reasons}, and no swap of identical "
                           "pieces or turn of a symmetric piece fixes it"
                           + (f" (nor one change of at most {wildcards} colours)" if wildcards else ""))


def state_from_colours(puzzle: Puzzle, labels: Sequence[str], *, wildcards: int = 0) -> State:
    """:func:`assign_colours` for colour labels (as the GUI paints them) instead of ids."""
    index = {label: i for i, label in enumerate(puzzle.colour_labels)}
    if len(labels) != puzzle.n_cells:
        raise PuzzleError(f"colours: expected {puzzle.n_cells} labels, got {len(labels)}")
    unknown = [(cell, label) for cell, label in enumerate(labels) if label not in index]
    if unknown:
        cell, label = unknown[0]
        raise PuzzleError(f"colours: position {cell} has {label!r}, not a colour of the puzzle "
                          f"({', '.join(puzzle.colour_labels)})")
    return assign_colours(puzzle, [index[label] for label in labels], wildcards=wildcards)

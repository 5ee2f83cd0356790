"""Group order and reachability: exact by Schreier–Sims where affordable, else from the structure.

Exact answers come from sympy's Schreier–Sims (``order``, ``contains``) on
the moved cells; that takes a tenth of a second on a 3x3x3, two seconds on a
4x4x4 and minutes beyond, so it is used up to :data:`EXACT_CELL_LIMIT` moved
cells. Bigger puzzles get a *structural* answer: the order of each piece
orbit's own group (exact, by Jordan's theorem when its action is alternating
or symmetric, else by Schreier–Sims on its few cells) combined under the
assumption that piece orbits are tied together only by the invariants
(parities, twist sums) — true for cubes and the usual puzzles, stated as an
assumption in the answer. Unreachability found from orbits, pieces or
invariants is always certain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import factorial, prod

import numpy as np
from sympy.combinatorics import Permutation, PermutationGroup

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.colours import state_from_colours
from hlavolamy.analysis.invariants import CELL_PARITY, Invariants, invariants, vectors
from hlavolamy.analysis.modular import Span
from hlavolamy.analysis.orbits import distinct_generators, format_cells, move_matrix, restrict
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State

__all__ = ["GroupOrder", "Reachability", "check_state", "group_order", "state_from_colours", "structure_violations",
           "whole_group"]  # state_from_colours lives in colours.py; re-exported for callers that check and set positions

EXACT_CELL_LIMIT = 100
"""Most moved cells for which Schreier–Sims on the whole group is run (a 4x4x4 has 96)."""

LOCAL_SCHREIER_SIMS_LIMIT = 64
"""Most cells of one piece orbit whose group order is found by Schreier–Sims."""


@dataclass(frozen=True)
class GroupOrder:
    """The number of reachable positions; ``exact`` False means a structural count (see ``method``)."""

    value: int
    exact: bool
    method: str

    @property
    def decimal(self) -> str:
        """The order in decimal, however long (str() of an int refuses past 4300 digits)."""
        return decimal_string(self.value)


def decimal_string(n: int, chunk: int = 4000) -> str:
    """Decimal digits of ``n`` by splitting at a power of ten, each part short enough for str()."""
    if n < 10**chunk:
        return str(n)
    half = chunk
    while n >= 10 ** (2 * half):
        half *= 2
    high, low = divmod(n, 10**half)
    return decimal_string(high, chunk) + decimal_string(low, chunk).zfill(half)


@dataclass(frozen=True)
class Reachability:
    """Whether a position can be reached; ``exact`` False means only necessary conditions were checked."""

    reachable: bool
    exact: bool
    reasons: list[str] = field(default_factory=list)


def _moved_cells(structure: PieceStructure) -> list[int]:
    return sorted(c for o in structure.orbits for c in o)


def _sympy_group(puzzle: Puzzle, cells: list[int]) -> PermutationGroup:
    """The moves restricted to ``cells`` (an orbit union) as a sympy group."""
    gens = distinct_generators(restrict(move_matrix(puzzle), cells, puzzle.n_cells))
    if not len(gens):
        return PermutationGroup([Permutation(list(range(len(cells))))])
    return PermutationGroup([Permutation(row.tolist()) for row in gens])


def whole_group(puzzle: Puzzle) -> PermutationGroup | None:
    """The group on the moved cells with its stabiliser chain built, or None when too big (cached)."""
    key = "analysis.schreier_sims"
    if key not in puzzle.cache:
        cells = _moved_cells(pieces(puzzle))
        group = None
        if cells and len(cells) <= EXACT_CELL_LIMIT:
            group = _sympy_group(puzzle, cells)
            group.schreier_sims()
        puzzle.cache[key] = group
    return puzzle.cache[key]


# -- order ---------------------------------------------------------------------


def _local_components(inv: Invariants, structure: PieceStructure, j: int) -> list[int]:
    orbits = set(structure.piece_orbits[j].orbits)
    return [c for c, comp in enumerate(inv.components)
            if (comp.index in orbits if comp.kind == CELL_PARITY else comp.index == j)]


def _wreath_generators(po: PieceOrbit, n_cells: int) -> np.ndarray:
    """Generators of the full group the pieces could have: a swap of two pieces and single-piece twists."""
    gens = []
    if po.n_pieces > 1:
        swap = np.arange(n_cells)
        swap[po.cells[0]], swap[po.cells[1]] = po.cells[1], po.cells[0]
        gens.append(swap)
    for h in po.orientation_group[1:]:
        twist = np.arange(n_cells)
        twist[po.cells[0]] = po.cells[0][list(h)]
        gens.append(twist)
    return np.array(gens or [np.arange(n_cells)])


def _alt_sym_order(group: PermutationGroup) -> int | None:
    """n! or n!/2 when ``group`` is provably symmetric or alternating (Jordan's theorem), else None."""
    if group.degree < 8 or not group.is_alt_sym():
        return None
    odd = any(g.is_odd for g in group.generators)
    return factorial(group.degree) // (1 if odd else 2)


def _piece_orbit_order(puzzle: Puzzle, structure: PieceStructure, inv: Invariants, j: int) -> tuple[int, str]:
    """Order of the group the moves induce on piece orbit ``j`` alone, and how it was found.

    Pieces without orientation (one cell, or lockstep cells that never turn)
    are the group's whole story: its order is that of the piece action.
    """
    po = structure.piece_orbits[j]
    if len(po.orientation_group) == 1:
        rows = distinct_generators(po.perms) if po.n_pieces > 1 else po.perms[:1]
        group = PermutationGroup([Permutation(r) for r in rows.tolist()] or [Permutation(po.n_pieces - 1)])
        order = _alt_sym_order(group)
        return (order, "alternating/symmetric") if order is not None else (int(group.order()), "schreier-sims")
    cells = sorted(c for i in po.orbits for c in structure.orbits[i])
    if len(cells) <= LOCAL_SCHREIER_SIMS_LIMIT:
        return int(_sympy_group(puzzle, cells).order()), "schreier-sims"
    comps = _local_components(inv, structure, j)
    moduli = [inv.components[c].modulus for c in comps]
    wreath = vectors(structure, inv.components, _wreath_generators(po, puzzle.n_cells))[:, comps]
    full = factorial(po.n_pieces) * len(po.orientation_group) ** po.n_pieces
    reached = Span(moduli, inv.move_vectors[:, comps]).order
    return full * reached // Span(moduli, np.vstack([wreath, inv.move_vectors[:, comps]])).order, "full pieces"


def group_order(puzzle: Puzzle, *, progress: ProgressCallback | None = None,
                cancel: CancelToken | None = None) -> GroupOrder:
    """The group order: Schreier–Sims when affordable, else structural (see the module text)."""
    structure = pieces(puzzle)
    if not structure.orbits:
        return GroupOrder(1, True, "no move moves a cell")
    group = whole_group(puzzle)
    if group is not None:
        return GroupOrder(int(group.order()), True, "schreier-sims")
    inv = invariants(puzzle)
    local_orders, local_spans = [], []
    for j in range(len(structure.piece_orbits)):
        if cancel is not None:
            cancel.check()
        report(progress, j / len(structure.piece_orbits), f"order of piece orbit {j}")
        order, _ = _piece_orbit_order(puzzle, structure, inv, j)
        local_orders.append(order)
        comps = _local_components(inv, structure, j)
        local_spans.append(Span([inv.components[c].modulus for c in comps], inv.move_vectors[:, comps]).order)
    value = prod(local_orders) * inv.span.order // prod(local_spans)
    return GroupOrder(value, False, "structural: piece orbits assumed tied only by the invariants")


# -- membership ----------------------------------------------------------------


def structure_violations(puzzle: Puzzle, perm: np.ndarray, structure: PieceStructure) -> list[str]:
    """Certain reasons why ``perm`` is unreachable: cells leaving their orbit, pieces torn or turned wrongly."""
    n = puzzle.n_cells
    orbit_of = np.full(n, -1, dtype=np.int64)
    for i, orbit in enumerate(structure.orbits):
        orbit_of[list(orbit)] = i
    reasons = []
    cells = np.arange(n)
    wrong = np.flatnonzero((orbit_of[perm] != orbit_of) | ((orbit_of < 0) & (perm != cells)))
    for pos in wrong[:5].tolist():
        cell = int(perm[pos])
        if orbit_of[cell] < 0:
            reasons.append(f"cell {cell} is moved by no move, but it is at position {pos}")
        elif orbit_of[pos] < 0:
            reasons.append(f"cell {cell} sits at position {pos}, which no move reaches; its orbit is "
                           f"{format_cells(structure.orbits[orbit_of[cell]])}")
        else:
            reasons.append(f"cell {cell} moved outside its orbit {format_cells(structure.orbits[orbit_of[cell]])} "
                           f"(it is at position {pos})")
    if len(wrong) > 5:
        reasons.append(f"... {len(wrong) - 5} more cells are outside their orbits")
    if reasons:
        return reasons
    for po in structure.piece_orbits:
        try:
            _, turns = po.locate(perm)
            if po.twist_order:
                po.twist_exponents(turns)
            elif any(tuple(t) not in set(po.orientation_group) for t in turns.tolist()):
                reasons.append(f"a piece of {format_cells(po.cells.ravel().tolist())} is turned in a way "
                               "no move sequence turns it")
        except ValueError as exc:
            reasons.append(str(exc))
    return reasons


def check_state(puzzle: Puzzle, state: State | np.ndarray, *, cancel: CancelToken | None = None) -> Reachability:
    """Is ``state`` reachable from the solved position? Says why not, and whether the answer is certain."""
    perm = state.perm if isinstance(state, State) else P.as_perm(state, "state", puzzle.n_cells)
    structure = pieces(puzzle)
    reasons = structure_violations(puzzle, np.asarray(perm), structure)
    if reasons:
        return Reachability(False, True, reasons)
    inv = invariants(puzzle)
    reasons = inv.violations(vectors(structure, inv.components, np.asarray(perm))[0])
    if reasons:
        return Reachability(False, True, reasons)
    if cancel is not None:
        cancel.check()
    cells = _moved_cells(structure)
    if not cells:
        return Reachability(True, True, [])
    group = whole_group(puzzle)
    if group is None:
        return Reachability(True, False, [
            "orbits, pieces, parities and twists all allow it; exact membership was not tested "
            f"(more than {EXACT_CELL_LIMIT} moved cells)"])
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[cells] = np.arange(len(cells))
    if group.contains(Permutation(index[np.asarray(perm)[cells]].tolist())):
        return Reachability(True, True, [])
    return Reachability(False, True, [
        "every orbit, piece, parity and twist law holds, yet the position is not in the group "
        "(Schreier–Sims membership test)"])

"""Group order and reachability: exact by Schreier–Sims where affordable, else from the structure.

The structure gives an upper bound of the group order: each piece orbit's
own group (exact by Jordan's theorem when its pieces move as an alternating
or symmetric group, by Schreier–Sims when small, else bounded by "every
arrangement and turn its invariants allow"), combined under the invariants.
Up to :data:`EXACT_CELL_LIMIT` moved cells (and an estimated chain size of
:data:`CHAIN_COST_LIMIT`) a randomized Schreier–Sims (on arrays,
:mod:`~hlavolamy.analysis.schreier_sims`) builds a stabiliser chain; its order never exceeds the group's, so
reaching the bound proves the chain complete — a 6x6x6 in about two
seconds, where deterministic Schreier–Sims takes minutes. The chain then
answers membership exactly by sifting. Bigger puzzles get the structural
answers, stated as such; unreachability found from orbits, pieces or
invariants is always certain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import factorial, prod
from typing import TYPE_CHECKING

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.colours import state_from_colours
from hlavolamy.analysis.invariants import CELL_PARITY, Invariants, invariants, vectors
from hlavolamy.analysis.memo import memo, on_disk
from hlavolamy.analysis.modular import Span
from hlavolamy.analysis.orbits import distinct_generators, format_cells, move_matrix, restrict
from hlavolamy.analysis.schreier_sims import Level, complete_chain, is_alt_sym, random_chain, sift, strong_chain
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, ProgressCallback, interruptible, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State

if TYPE_CHECKING:  # sympy is imported only where its deterministic algorithm runs: it takes a quarter of a second
    from sympy.combinatorics import Permutation, PermutationGroup

__all__ = ["GroupOrder", "PieceOrbitOrder", "Reachability", "StabiliserChain", "check_state", "group_order",
           "in_group", "piece_orbit_orders", "stabiliser_chain", "state_from_colours",
           "structural_order", "structure_violations",
           "whole_group"]  # state_from_colours lives in colours.py; re-exported for callers that check and set positions

EXACT_CELL_LIMIT = 220
"""Most moved cells for which a stabiliser chain of the whole group is built (a 6x6x6 has 216)."""

CHAIN_COST_LIMIT = 800_000
"""Most estimated transversal entries (sum over orbits of size^2/2, times the moved cells) of a chain:
a 6x6x6 needs about 560,000, a 100-cell wreath with one orbit of 198 cells 3.9 million (a minute)."""

DETERMINISTIC_CELL_LIMIT = 100
"""Most moved cells for deterministic Schreier–Sims when randomized chains fall short of the bound."""

RANDOM_ATTEMPTS = 3
"""Randomized Schreier–Sims runs (each more patient) before falling back to the deterministic one."""

LOCAL_SCHREIER_SIMS_LIMIT = 64
"""Most cells of one piece orbit whose group order is found by deterministic Schreier–Sims."""


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


def _local_generators(puzzle: Puzzle, cells: list[int]) -> np.ndarray:
    """The distinct moves restricted to ``cells`` (an orbit union), as rows of local indices."""
    return distinct_generators(restrict(move_matrix(puzzle), cells, puzzle.n_cells))


def _sympy_group(puzzle: Puzzle, cells: list[int]) -> PermutationGroup:
    """The moves restricted to ``cells`` (an orbit union) as a sympy group."""
    from sympy.combinatorics import Permutation, PermutationGroup

    gens = _local_generators(puzzle, cells)
    if not len(gens):
        return PermutationGroup([Permutation(list(range(len(cells))))])
    return PermutationGroup([Permutation(row.tolist()) for row in gens])


@dataclass(frozen=True)
class StabiliserChain:
    """A stabiliser chain of the group on the moved ``cells`` (local indices 0..len-1): per level of its base
    the basic orbit and a transversal element for each point (:class:`~hlavolamy.analysis.schreier_sims.Level`;
    levels whose orbit is the base point alone left out)."""

    cells: np.ndarray
    levels: list[Level]

    @property
    def base(self) -> list[int]:
        return [level.point for level in self.levels]

    @property
    def order(self) -> int:
        return prod(level.points.size for level in self.levels)

    def contains(self, perm: np.ndarray) -> bool:
        """Membership of a puzzle permutation that keeps the moved cells among themselves (sifting)."""
        index = np.full(perm.size, -1, dtype=np.int64)
        index[self.cells] = np.arange(self.cells.size)
        depth, rest = sift(self.levels, index[perm[self.cells]])
        return depth == len(self.levels) and bool(np.array_equal(rest, np.arange(rest.size)))

    def element(self, choose: Callable[[list[int]], int]) -> np.ndarray:
        """The group element (local images) made of one transversal element per level, the point of each picked
        by ``choose`` from the level's sorted orbit: every element is one such product, so picking uniformly
        draws a uniform element."""
        element = np.arange(self.cells.size)
        for level in reversed(self.levels):
            element = level.forward[level.where[choose(sorted(level.points.tolist()))]][element]
        return element


def _nontrivial(cells: list[int], levels: list[Level]) -> StabiliserChain:
    return StabiliserChain(np.array(cells, dtype=np.int64), [level for level in levels if level.points.size > 1])


def stabiliser_chain(cells: list[int], base: list[int], strong: list[Permutation]) -> StabiliserChain:
    """The chain of a base and strong generating set (sympy's) of the group on ``cells`` (local indices)."""
    rows = np.array([p.array_form for p in strong], dtype=np.intp).reshape(len(strong), len(cells))
    return _nontrivial(cells, strong_chain(rows, base))


def whole_group(puzzle: Puzzle, cancel: CancelToken | None = None) -> StabiliserChain | None:
    """A proven stabiliser chain of the group on the moved cells, or None when too big (cached per moves).

    Randomized Schreier–Sims gives a chain whose order is at most the
    group's; equal to the structural upper bound it proves itself complete.
    Short of it, deterministic Schreier–Sims settles small puzzles.
    """
    return memo(puzzle, "analysis.stabiliser_chain", lambda: _whole_group(puzzle, cancel))


def _whole_group(puzzle: Puzzle, cancel: CancelToken | None) -> StabiliserChain | None:
    structure = pieces(puzzle)
    cells = _moved_cells(structure)
    cost = sum(len(o) ** 2 // 2 for o in structure.orbits) * len(cells)
    if not cells or len(cells) > EXACT_CELL_LIMIT or cost > CHAIN_COST_LIMIT:
        return None
    bound, _ = structural_order(puzzle)
    gens = _local_generators(puzzle, cells)
    with interruptible(cancel):  # neither Schreier–Sims takes a token
        for attempt in range(1, RANDOM_ATTEMPTS + 1):
            chain = _nontrivial(cells, random_chain(gens, range(len(cells)), 10 * attempt, seed=attempt))
            if chain.order == bound:
                return chain
            if chain.order > bound:
                raise AssertionError(f"stabiliser chain of order {chain.order} exceeds the structural bound {bound}")
        if len(cells) > DETERMINISTIC_CELL_LIMIT:
            return None
        group = _sympy_group(puzzle, cells)
        group.schreier_sims()
    return stabiliser_chain(cells, group.base, group.strong_gens)


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


ALT_SYM_EPS = 1e-9
"""Chance that :func:`pieces_alt_sym_order` misses an alternating or symmetric group (sympy's default, 5 %, is
lowered so that a caller's fallback to Schreier–Sims is a rare cost, not one run in twenty)."""


def _full_pieces_order(puzzle: Puzzle, structure: PieceStructure, inv: Invariants, j: int) -> int:
    """Positions of piece orbit ``j`` if every arrangement and turn obeying its own invariants were reachable."""
    po = structure.piece_orbits[j]
    comps = _local_components(inv, structure, j)
    moduli = [inv.components[c].modulus for c in comps]
    wreath = vectors(structure, inv.components, _wreath_generators(po, puzzle.n_cells))[:, comps]
    full = factorial(po.n_pieces) * len(po.orientation_group) ** po.n_pieces
    reached = Span(moduli, inv.move_vectors[:, comps]).order
    return full * reached // Span(moduli, np.vstack([wreath, inv.move_vectors[:, comps]])).order


@dataclass(frozen=True)
class PieceOrbitOrder:
    """The order of the group the moves induce on one piece orbit (or an upper bound when not ``exact``),
    and ``full``: its order if every arrangement and turn obeying its own invariants were reachable."""

    order: int
    exact: bool
    full: int

    @property
    def is_full(self) -> bool:
        return self.exact and self.order == self.full


def pieces_alt_sym_order(po: PieceOrbit) -> int | None:
    """n! or n!/2 when the group the moves induce on the ``n`` pieces of ``po`` (their orientation ignored) is
    provably symmetric or alternating (Jordan's theorem, :func:`~hlavolamy.analysis.schreier_sims.is_alt_sym`),
    else None."""
    rows = distinct_generators(po.perms)
    if not rows.size or rows.shape[1] < 8 or not is_alt_sym(rows, ALT_SYM_EPS):
        return None
    odd = any(P.parity(row) for row in rows)
    return factorial(rows.shape[1]) // (1 if odd else 2)


def _piece_orbit_order(puzzle: Puzzle, structure: PieceStructure, inv: Invariants, j: int) -> PieceOrbitOrder:
    """Pieces without orientation that move as an alternating or symmetric group are settled by
    Jordan's theorem; otherwise a randomized chain (:func:`~hlavolamy.analysis.schreier_sims.random_chain`)
    that reaches the full-pieces bound proves it, and small orbits get it completed by the deterministic test
    (:func:`~hlavolamy.analysis.schreier_sims.complete_chain`: a rashkey's six pieces move as a group of 120,
    not 720)."""
    po = structure.piece_orbits[j]
    bound = _full_pieces_order(puzzle, structure, inv, j)
    if len(po.orientation_group) == 1:
        order = pieces_alt_sym_order(po)
        if order is not None:
            return PieceOrbitOrder(order, True, bound)
    cells = sorted(c for i in po.orbits for c in structure.orbits[i])
    if len(cells) ** 3 // 2 > CHAIN_COST_LIMIT:
        return PieceOrbitOrder(bound, False, bound)
    levels = random_chain(_local_generators(puzzle, cells), range(len(cells)))
    if prod(level.points.size for level in levels) == bound:
        return PieceOrbitOrder(bound, True, bound)
    if len(cells) <= LOCAL_SCHREIER_SIMS_LIMIT:
        return PieceOrbitOrder(prod(level.points.size for level in complete_chain(levels)), True, bound)
    return PieceOrbitOrder(bound, False, bound)


def piece_orbit_orders(puzzle: Puzzle, progress: ProgressCallback | None = None,
                       cancel: CancelToken | None = None) -> list[PieceOrbitOrder]:
    """The order of each piece orbit's own group (cached per moves)."""
    return memo(puzzle, "analysis.piece_orbit_orders", lambda: _piece_orbit_orders(puzzle, progress, cancel))


def _piece_orbit_orders(puzzle: Puzzle, progress: ProgressCallback | None,
                        cancel: CancelToken | None) -> list[PieceOrbitOrder]:
    structure = pieces(puzzle)
    inv = invariants(puzzle)
    out = []
    for j in range(len(structure.piece_orbits)):
        if cancel is not None:
            cancel.check()
        report(progress, j / len(structure.piece_orbits), f"order of piece orbit {j}")
        out.append(_piece_orbit_order(puzzle, structure, inv, j))
    return out


def structural_order(puzzle: Puzzle, progress: ProgressCallback | None = None,
                     cancel: CancelToken | None = None) -> tuple[int, bool]:
    """An upper bound of the group order from the piece orbits and invariants, and whether each piece
    orbit's own order is exact (then the bound is the order unless piece orbits are tied beyond the
    invariants)."""
    structure = pieces(puzzle)
    inv = invariants(puzzle)
    orders = piece_orbit_orders(puzzle, progress, cancel)
    local_spans = []
    for j in range(len(structure.piece_orbits)):
        comps = _local_components(inv, structure, j)
        local_spans.append(Span([inv.components[c].modulus for c in comps], inv.move_vectors[:, comps]).order)
    value = prod(o.order for o in orders) * inv.span.order // prod(local_spans)
    return value, all(o.exact for o in orders)


def group_order(puzzle: Puzzle, *, progress: ProgressCallback | None = None,
                cancel: CancelToken | None = None) -> GroupOrder:
    """The group order: proven by a stabiliser chain when affordable, else structural; cached per moves (and on disk)."""
    def compute() -> GroupOrder:
        return on_disk(puzzle, "analysis.order", lambda: _group_order(puzzle, progress, cancel),
                       allowed=(GroupOrder,), expect=GroupOrder)

    return memo(puzzle, "analysis.order", compute)


def _group_order(puzzle: Puzzle, progress: ProgressCallback | None, cancel: CancelToken | None) -> GroupOrder:
    if not pieces(puzzle).orbits:
        return GroupOrder(1, True, "no move moves a cell")
    bound, local_exact = structural_order(puzzle, progress, cancel)
    chain = whole_group(puzzle, cancel)
    if chain is not None:
        return GroupOrder(chain.order, True, "schreier-sims")
    if local_exact:
        return GroupOrder(bound, False, "structural: piece orbits assumed tied only by the invariants")
    return GroupOrder(bound, False, "structural upper bound: some piece orbits assumed to reach every "
                                    "arrangement their invariants allow")


# -- membership ----------------------------------------------------------------


def structure_violations(puzzle: Puzzle, perm: np.ndarray, structure: PieceStructure) -> list[str]:
    """Certain reasons why ``perm`` is unreachable: cells leaving their orbit, pieces torn or turned wrongly."""
    n = puzzle.n_cells
    orbit_of = structure.orbit_of(n)
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


def in_group(puzzle: Puzzle, perm: np.ndarray) -> bool | None:
    """Membership of a permutation that keeps every orbit; None when no stabiliser chain is affordable."""
    chain = whole_group(puzzle)
    return None if chain is None else chain.contains(np.asarray(perm))


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
    if not structure.orbits:
        return Reachability(True, True, [])
    member = in_group(puzzle, np.asarray(perm))
    if member is None:
        return Reachability(True, False, [
            "orbits, pieces, parities and twists all allow it; exact membership was not tested "
            "(the group is too big for a stabiliser chain, or smaller than its structure says)"])
    if member:
        return Reachability(True, True, [])
    return Reachability(False, True, [
        "every orbit, piece, parity and twist law holds, yet the position is not in the group "
        "(Schreier–Sims membership test)"])

"""What the solver computes once per puzzle, kept on the puzzle in one typed object.

``solve_cache(puzzle)`` is the solve layer's :meth:`~hlavolamy.core.puzzle.Puzzle.layer_cache`:
a field per table, each filled by the one function named in its note, None
until then. Tables that every puzzle with the same moves shares (chains,
pattern databases, phase tables) go through
:func:`hlavolamy.analysis.memo.memo` instead, which also keeps them across
puzzles and on disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.solve.macros.decompose import Plan
    from hlavolamy.solve.strategies.blocked import PositionTable
    from hlavolamy.solve.tables.steps import Steps


@dataclass
class SolveCache:
    """The solve layer's tables for one puzzle."""

    commuting: dict[str, frozenset[str]] | None = None
    """:func:`hlavolamy.solve.passes.simplify.commuting_moves`."""
    steps: Steps | None = None
    """:func:`hlavolamy.solve.tables.steps.step_automaton`."""
    quotients: dict[tuple[bool, bytes], Puzzle | None] = field(default_factory=dict)
    """(with the invariant vector, frozen cells) -> :func:`hlavolamy.solve.tables.quotient.quotient_puzzle`."""
    plan: Plan | None = None
    """:func:`hlavolamy.solve.macros.decompose.plan`."""
    quick_plan: Plan | None = None
    """:func:`hlavolamy.solve.macros.decompose.quick_plan` (a first answer's, from the quick library)."""
    paired_plan: Plan | None = None
    """:func:`hlavolamy.solve.macros.pairing.paired_plan`."""
    search_feasible: bool | None = None
    """:func:`hlavolamy.solve.strategies.search.search_feasible`."""
    macro_puzzle: Puzzle | None = None
    """:func:`hlavolamy.solve.strategies.blocked.macro_puzzle`."""
    position_table: PositionTable | None = None
    """:func:`hlavolamy.solve.strategies.blocked.position_table` (None also when too many positions)."""
    position_table_searched: bool = False
    """The position table was tried: :attr:`position_table` is its answer."""
    cell_distances: np.ndarray | None = None
    """:func:`hlavolamy.solve.strategies.blocked.cell_distances`."""


def solve_cache(puzzle: Puzzle) -> SolveCache:
    """The solve layer's cache on ``puzzle`` (made empty on first use)."""
    return puzzle.layer_cache(SolveCache)

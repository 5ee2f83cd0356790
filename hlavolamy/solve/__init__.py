"""Solving: from any reachable position back to solved, with the puzzle's own moves.

:func:`solve` is the one entry point for the GUI, the CLI and the Santa
runner. Whatever the strategy, the answer is simplified
(:mod:`~hlavolamy.solve.simplify`) and replayed from the start position
before it is returned; a strategy that cannot finish raises, it never
returns a wrong sequence.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, HlavolamyError, UnreachableError
from hlavolamy.solve import strategies as _strategies  # importing it registers every strategy
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import MODES, Context, names, passes
from hlavolamy.solve.simplify import simplify

STRATEGIES = names()


@dataclass(frozen=True)
class Solution:
    """A verified solving sequence; ``length`` counts single generator steps."""

    moves: list[Turn]
    length: int
    time: float
    strategy: str
    verified: bool


class _Linked(CancelToken):
    """A token that also fires when ``parent`` does (user cancel plus a time limit)."""

    def __init__(self, parent: CancelToken | None, deadline: float | None):
        super().__init__(deadline)
        self.parent = parent

    def check(self) -> None:
        if self.parent is not None:
            self.parent.check()
        super().check()

    @property
    def user_cancelled(self) -> bool:
        return super().user_cancelled or (self.parent is not None and self.parent.user_cancelled)


def solve(puzzle: Puzzle, state: State | Sequence[int] | np.ndarray, *, strategy: str = "auto", mode: str = "whole",
          orbit: int | None = None, wildcards: int = 0, time_limit: float | None = None,
          progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> Solution:
    """Solve ``state`` (a State, or colour ids per cell) on ``puzzle``.

    ``mode``: ``"whole"``; ``"orbit-keep"`` solves orbit ``orbit`` (an index
    into :func:`~hlavolamy.analysis.orbits.orbits`) and leaves every other
    cell as it was; ``"orbit-only"`` solves that orbit and ignores the rest.
    Raises :class:`UnreachableError` for an unreachable position,
    :class:`Cancelled` when cancelled or out of time, and
    :class:`HlavolamyError` when no strategy finishes.
    """
    if strategy not in names():
        raise HlavolamyError(f"unknown strategy {strategy!r}; choose one of {', '.join(names())}")
    if mode not in MODES:
        raise HlavolamyError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if puzzle.blockings:
        return _solve_blocked(puzzle, state, strategy, mode, time_limit, progress, cancel)
    started = time.perf_counter()
    token = _Linked(cancel, None if time_limit is None else time.monotonic() + time_limit)
    problem = Problem.from_input(puzzle, state, wildcards)
    group = _mode_group(puzzle, problem, mode, orbit)
    if problem.exact:
        _require_reachable(puzzle, problem.labels)
    context = Context(token, progress, mode, group)
    used = _strategies.run(problem, strategy, context)
    moves = _shortened(problem, simplify(puzzle, problem.turns), context)
    if not problem.replays_to_goal(moves) or (mode == "orbit-keep" and not _others_kept(problem, moves)):
        raise HlavolamyError(f"internal error: the {used} solution failed verification by replay; please report it")
    report(progress, 1.0, "solved")
    return Solution(moves, puzzle.length(moves), time.perf_counter() - started, used, True)


def _shortened(problem: Problem, moves: list[Turn], context: Context) -> list[Turn]:
    """Run every registered shortening pass; keep a result only if it is shorter and replays to the goal.

    Passes polish an answer that is already good: when the time limit runs
    out during one, the answer so far is returned (a user's cancel still
    cancels).
    """
    for shortening in passes():
        try:
            better = shortening.improve(problem.restarted(), list(moves), context)
        except Cancelled:
            if context.cancel.user_cancelled:
                raise
            return moves
        if problem.puzzle.length(better) < problem.puzzle.length(moves) and problem.replays_to_goal(better):
            moves = better
    return moves


def _solve_blocked(puzzle: Puzzle, state: State | Sequence[int] | np.ndarray, strategy: str, mode: str,
                   time_limit: float | None, progress: ProgressCallback | None, cancel: CancelToken | None) -> Solution:
    """Puzzles with blockings go to the shape-graph solver (:mod:`~hlavolamy.solve.blocked`), whole and exact."""
    from hlavolamy.solve.blocked import solve_blocked

    if strategy != "auto" or mode != "whole":
        raise HlavolamyError("a puzzle with blockings is solved whole by the blocking solver: "
                             "use strategy 'auto' and mode 'whole'")
    return solve_blocked(puzzle, state, time_limit=time_limit, progress=progress, cancel=cancel)


def _mode_group(puzzle: Puzzle, problem: Problem, mode: str, orbit: int | None) -> int | None:
    """The group index of ``orbit`` for the orbit modes (and its care mask); None for "whole"."""
    if mode == "whole":
        return None
    from hlavolamy.analysis.independent import cell_groups
    from hlavolamy.analysis.orbits import orbits

    all_orbits = orbits(puzzle)
    if orbit is None or not 0 <= orbit < len(all_orbits):
        raise HlavolamyError(f"mode {mode!r} needs an orbit index 0..{len(all_orbits) - 1}, got {orbit!r}")
    group_of, _ = cell_groups(puzzle)
    g = int(group_of[all_orbits[orbit][0]])
    problem.care = group_of == g
    return g


def _others_kept(problem: Problem, moves: Sequence[Turn]) -> bool:
    """Mode "orbit-keep": every cell outside the orbit's group ends where it started."""
    end = problem.start[problem.puzzle.perm_of(moves)]
    return bool(np.array_equal(end[~problem.care], problem.start[~problem.care]))


def _require_reachable(puzzle: Puzzle, perm: np.ndarray) -> None:
    """Reject an exact position that breaks an orbit, piece, parity or twist law (fast checks only)."""
    from hlavolamy.analysis.blocks import pieces
    from hlavolamy.analysis.invariants import invariants, vectors
    from hlavolamy.analysis.membership import structure_violations

    structure = pieces(puzzle)
    reasons = structure_violations(puzzle, perm, structure)
    if not reasons:
        inv = invariants(puzzle)
        reasons = inv.violations(vectors(structure, inv.components, perm)[0])
    if reasons:
        raise UnreachableError("unreachable position: " + "; ".join(reasons))


__all__ = ["MODES", "Cancelled", "Solution", "names", "solve"]

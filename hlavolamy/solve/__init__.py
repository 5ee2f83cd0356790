"""Solving: from any reachable position back to solved, with the puzzle's own moves.

:func:`solve` is the one entry point for the GUI, the CLI and the Santa
runner. Whatever the strategy, the answer is simplified
(:mod:`~hlavolamy.solve.passes.simplify`) and replayed from the start position
before it is returned; a strategy that cannot finish raises, it never
returns a wrong sequence. ``auto`` on a whole puzzle is *anytime*
(:mod:`~hlavolamy.solve.anytime`): a first answer at once, better ones until
the time limit, the best returned.
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
from hlavolamy.solve import auto as _auto  # noqa: F401  (the built-in strategies and auto)
from hlavolamy.solve.anytime import FIRST_ANSWER_GRACE, AnswerCallback, Improvement, solve_anytime
from hlavolamy.solve.pipeline import run_pipeline
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import MODES, Context, RaceRecords, names

STRATEGIES = names()


@dataclass(frozen=True)
class Solution:
    """A solving sequence, verified by replay before it was made; ``length`` counts single generator steps."""

    moves: list[Turn]
    length: int
    time: float
    strategy: str
    first_time: float | None = None
    """Seconds to the first verified answer (the anytime ``auto``; else the same as ``time``)."""
    first_length: int | None = None
    """Length of that first answer."""
    cut: bool = False
    """The time limit cut the improving: this is the best answer held then."""
    first_cpu: float | None = None
    """CPU seconds of the process to the first answer (anytime ``auto`` only): its cost whatever the load."""


def solve(puzzle: Puzzle, state: State | Sequence[int] | np.ndarray, *, strategy: str = "auto", mode: str = "whole",
          orbit: int | None = None, wildcards: int = 0, time_limit: float | None = None,
          progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
          records: RaceRecords | None = None, on_answer: AnswerCallback | None = None) -> Solution:
    """Solve ``state`` (a State, or colour ids per cell) on ``puzzle``.

    ``mode``: ``"whole"``; ``"orbit-keep"`` solves orbit ``orbit`` (an index
    into :func:`~hlavolamy.analysis.orbits.orbits`) and leaves every other
    cell as it was; ``"orbit-only"`` solves that orbit and ignores the rest.

    With ``strategy="auto"`` on a whole puzzle the solve is anytime: the
    time limit cuts the improving and the best verified answer held is
    returned (``cut`` set); ``on_answer`` is told of each new best
    (:class:`~hlavolamy.solve.anytime.Improvement`). Only when no answer is
    held at the limit does the first-answer route get up to
    :func:`~hlavolamy.solve.anytime.first_answer_cpu` CPU seconds in all (the limit, then the limit again, at
    least :data:`FIRST_ANSWER_GRACE` more): CPU, not wall, so a busy machine does not leave it without one.
    ``records`` are the caller's race records (a CLI run, a GUI session, a
    bench run); without them the solve learns nothing from earlier ones.

    Raises :class:`UnreachableError` for an unreachable position,
    :class:`Cancelled` when cancelled or out of time with no answer, and
    :class:`HlavolamyError` when no strategy finishes.
    """
    if strategy not in names():
        raise HlavolamyError(f"unknown strategy {strategy!r}; choose one of {', '.join(names())}")
    if mode not in MODES:
        raise HlavolamyError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    started = time.perf_counter()
    token = CancelToken.linked(cancel, None if time_limit is None else time.monotonic() + time_limit)
    problem = Problem.from_input(puzzle, state, wildcards)
    if puzzle.blockings and not problem.exact:
        raise HlavolamyError("positions given by colours are not solved on puzzles with blockings yet: "
                             "give the exact position")
    group = _mode_group(puzzle, problem, mode, orbit)
    if problem.exact and not puzzle.blockings:  # the blocked solver says why in terms of shapes
        _require_reachable(puzzle, problem.labels)
    context = Context(token, progress, mode, group, records if records is not None else RaceRecords())
    if strategy == "auto" and mode == "whole":
        outcome = solve_anytime(problem, context, cancel=cancel, time_limit=time_limit, started=started,
                                on_answer=on_answer)
        report(progress, 1.0, "solved")
        moves = outcome.moves
        return Solution(moves, puzzle.length(moves), time.perf_counter() - started, outcome.strategy,
                        outcome.first_time, outcome.first_length, outcome.cut, outcome.first_cpu)
    moves, used = run_pipeline(problem, strategy, context)
    report(progress, 1.0, "solved")
    spent = time.perf_counter() - started
    return Solution(moves, puzzle.length(moves), spent, used, spent, puzzle.length(moves))


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


__all__ = ["FIRST_ANSWER_GRACE", "MODES", "AnswerCallback", "Cancelled", "Improvement", "RaceRecords", "Solution",
           "names", "solve"]

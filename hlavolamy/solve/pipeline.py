"""The solving pipeline below the public API: a strategy, then simplification and shortening passes, then replay.

:func:`run_pipeline` is what :func:`hlavolamy.solve.solve` runs, and what a
strategy that solves a derived puzzle (the blocked solver's home-shape
group) runs on it, so every answer takes the same path whoever asks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, HlavolamyError
from hlavolamy.solve.passes.simplify import simplify
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, passes, run


def run_pipeline(problem: Problem, strategy: str, context: Context) -> tuple[list[Turn], str]:
    """Solve ``problem`` with ``strategy``, shorten the answer, verify it by replay; returns (moves, who did it).

    On a puzzle with blockings the answer is taken as the strategy played it
    (merging or reordering turns could pass through an illegal position) and
    every step's legality is checked on the replay.
    """
    used = run(problem, strategy, context)
    if problem.puzzle.blockings:
        moves = list(problem.turns)
    else:
        moves = _shortened(problem, simplify(problem.puzzle, problem.turns), context)
    if not verified(problem, moves, context.mode):
        raise HlavolamyError(f"internal error: the {used} solution failed verification by replay; please report it")
    return moves, used


def verified(problem: Problem, moves: Sequence[Turn], mode: str = "whole") -> bool:
    """``moves`` bring the start position to the goal (legally, with blockings; others kept, in "orbit-keep")."""
    if problem.puzzle.blockings:
        from hlavolamy.core.state import State

        try:
            end = State(problem.puzzle, problem.start).apply(list(moves), check_legal=True)
        except HlavolamyError:
            return False
        return problem.exact and end.is_solved()
    if not problem.replays_to_goal(moves):
        return False
    return mode != "orbit-keep" or _others_kept(problem, moves)


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


def _others_kept(problem: Problem, moves: Sequence[Turn]) -> bool:
    """Mode "orbit-keep": every cell outside the orbit's group ends where it started."""
    end = problem.start[problem.puzzle.perm_of(moves)]
    return bool(np.array_equal(end[~problem.care], problem.start[~problem.care]))

"""Which strategy solves a problem: any registered one by name, or ``auto``, their composition.

Every strategy is a record in :mod:`~hlavolamy.solve.registry`, registered by
its own module; importing this module imports them all (the list below), so a
new strategy is one module plus one line here.

* ``commutators`` — :mod:`~hlavolamy.solve.commutators` (phase 0, then
  conjugated macros group by group); the one strategy for the orbit modes.
* ``search`` — :mod:`~hlavolamy.solve.search`: bidirectional breadth-first
  search, shortest solutions, for small groups only.
* ``chain`` — :mod:`~hlavolamy.solve.chain`: a stabiliser chain whose
  entries carry words shortened by Minkwitz's algorithm. Complete for any
  group it can hold (up to ~1500 moved cells), so it is also the fall-back
  when conjugated macros get stuck.
* ``optimal`` — :mod:`~hlavolamy.solve.ida`: iterative deepening A* with
  pattern databases, shortest solutions for groups up to ~10^10 positions.
* ``auto`` — ``search`` when the puzzle is small enough for it to finish
  quickly; then ``optimal`` within a node and time budget where the group
  (or its colourings) is small enough; else for whole puzzles of at most
  :data:`CHAIN_AUTO_CELLS` moved cells the shorter of ``chain`` and
  ``commutators``; else ``commutators`` with ``chain`` behind it. For a
  position by colours where that answer is long for the puzzle (more than
  :data:`BEAM_RATIO` moves per moved cell: its macros are long, as on
  wreaths and globes) ``beam`` races it for :data:`BEAM_SECONDS`, and the
  shorter answer wins.
* ``beam`` — :mod:`~hlavolamy.solve.beam`: a wide beam scored by pattern
  databases, finished through a ball of positions around the goal.
"""

from __future__ import annotations

import time

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.memo import memo
from hlavolamy.errors import HlavolamyError, UnreachableError
from hlavolamy.solve import beam, chain, commutators, ida, search, shorten  # noqa: F401  (each registers itself)
from hlavolamy.solve.ida import AUTO_NODES, AUTO_SECONDS, optimal
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import MODES, Context, Strategy, StrategyFailed, register, strategy

CHAIN_AUTO_CELLS = 128
"""Whole puzzles moving at most this many cells also try the chain in ``auto`` (its build takes seconds)."""
BEAM_RATIO = 2
"""``auto`` races the beam when the answer has more than this many moves per moved cell..."""
BEAM_SECONDS = 20.0
"""...for at most this long..."""
BEAM_TRIALS = 2
"""...unless it lost this many times on the set of moves without ever winning..."""
BEAM_GAIN = 0.1
"""...where a win saves at least this share of the moves (less is not worth its time on every case)."""


def run(problem: Problem, name: str, context: Context) -> str:
    """Solve ``problem`` in place with the strategy ``name``; returns the name of the strategy that did it."""
    record = strategy(name)
    if context.mode not in record.modes:
        able = [s for s in ("auto", "commutators") if context.mode in strategy(s).modes]
        raise HlavolamyError(f"the {name} strategy solves whole puzzles only; use {' or '.join(able)} "
                             f"for mode {context.mode!r}")
    return record.solve(problem, context) or name


def _auto(problem: Problem, context: Context) -> str:
    """The cheapest strategy likely to give a short answer; rivals race where they are cheap enough."""
    if context.mode != "whole":
        return run(problem, "commutators", context)
    if _tried(problem, context, "search"):
        return "search"
    if strategy("optimal").applies(problem, context) and _optimal_within_budget(problem, context):
        return "optimal"
    start = problem.fork()
    name = _shortest(problem, context)
    if _beam_beats(start, problem, context):
        return "beam"
    return name


def _tried(problem: Problem, context: Context, name: str) -> bool:
    """Run ``name`` where it applies; False (the problem untouched) when it fails."""
    record = strategy(name)
    if not record.applies(problem, context):
        return False
    attempt = problem.fork()
    try:
        record.solve(attempt, context)
    except StrategyFailed:
        return False
    problem.adopt(attempt)
    return True


def _optimal_within_budget(problem: Problem, context: Context) -> bool:
    """A shortest solution if IDA* finds one within its budget (on a fork: a miss changes nothing).

    Under a time limit the search takes at most half of what is left, so the
    usual strategies still have time to answer.
    """
    cancel = context.cancel
    seconds = AUTO_SECONDS
    if cancel.deadline is not None:
        seconds = min(seconds, max(0.0, cancel.deadline - time.monotonic()) / 2)
    attempt = problem.fork()
    try:
        optimal(attempt, nodes=AUTO_NODES, seconds=seconds, cancel=cancel, progress=context.progress)
    except (StrategyFailed, UnreachableError):
        return False
    problem.adopt(attempt)
    return True


def _beam_beats(start: Problem, answer: Problem, context: Context) -> bool:
    """The beam from ``start``, where the answer is long for the puzzle (long macros); adopted if shorter.

    Positions by colours only: identical pieces make the colourings far
    fewer than the positions, which is where a beam finds short answers
    (on exact positions of ring puzzles it lost every time it was measured).

    Where the beam does not finish, the usual strategies finish from the
    position it came closest to (fewest wrong cells).

    Runs within :data:`BEAM_SECONDS` (at most half of what the time limit
    leaves), and no more on a set of moves where it lost :data:`BEAM_TRIALS`
    times without ever winning by :data:`BEAM_GAIN` (kept per set of moves,
    like the tables); a shorter answer is taken either way.
    """
    length = answer.answer_length()
    record = memo(start.puzzle, "solve.beam.record", lambda: {"won": 0, "lost": 0})
    if (start.exact or length <= BEAM_RATIO * _moved_cells(start) or not strategy("beam").applies(start, context)
            or (record["lost"] >= BEAM_TRIALS and not record["won"])):
        return False
    seconds = BEAM_SECONDS
    if context.cancel.deadline is not None:
        seconds = min(seconds, max(0.0, context.cancel.deadline - time.monotonic()) / 2)
    try:
        beam.beam(start, seconds=seconds, shorter_than=length, partial=True, cancel=context.cancel,
                  progress=context.progress)
        if not start.is_solved():
            _shortest(start, context)
    except StrategyFailed:
        record["lost"] += 1
        return False
    shorter = start.answer_length()
    record["won" if shorter <= (1 - BEAM_GAIN) * length else "lost"] += 1
    if shorter >= length:
        return False
    answer.adopt(start)
    return True


def _moved_cells(problem: Problem) -> int:
    return sum(len(o) for o in pieces(problem.puzzle).orbits)


def _shortest(problem: Problem, context: Context) -> str:
    """Small puzzles: the shorter of the chain and the commutators. Otherwise commutators, chain behind them.

    The chain never gets stuck where it fits, so it also rescues a stuck
    decomposition. Returns the name of the strategy whose answer won.
    """
    rivals = ["chain", "commutators"] if _moved_cells(problem) <= CHAIN_AUTO_CELLS else ["commutators"]
    attempts: list[tuple[Problem, str]] = []
    failure: HlavolamyError | None = None
    for name in rivals:
        attempt = problem.fork()
        try:
            run(attempt, name, context)
            attempts.append((attempt, name))
        except StrategyFailed as exc:
            failure = failure or exc
        except UnreachableError:
            if not attempts:
                raise
    if not attempts:
        attempt = problem.fork()
        try:
            run(attempt, "chain", context)
        except StrategyFailed:
            raise failure from None
        attempts.append((attempt, "chain"))
    best, name = min(attempts, key=lambda a: a[0].answer_length())
    problem.adopt(best)
    return name


register(Strategy("auto", "picks and races the strategies that fit the puzzle; the shortest answer wins",
                  _auto, modes=MODES))

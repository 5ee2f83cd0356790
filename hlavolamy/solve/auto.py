"""The ``auto`` strategy: which registered strategies race on a problem, and which answer wins.

``search`` when the puzzle is small enough for it to finish
quickly; then ``optimal`` within a node and time budget where the group
(or its colourings) is small enough; else for whole puzzles of at most
:data:`CHAIN_AUTO_CELLS` moved cells the shorter of ``chain`` and
``phases`` where a subgroup fits, else the shortest of ``handover``,
``chain``, ``insertion`` and ``search-first``; else the shorter of ``insertion``
and (where its beam takes the orbits) ``search-first``, ``chain`` behind them;
``rings`` races first among them where the moves are rings sharing cells.
For a position by colours where that answer is long for the puzzle (more
than :data:`BEAM_RATIO` moves per moved cell: its macros are long, as on
wreaths and globes) ``beam`` races it with :data:`BEAM_WORK` (up to four times
that against a very long answer of a rival: :func:`beam_work`), and the shorter
answer wins.

``search-first`` races first where it applies, and the answer it gives bounds the
rivals after it (branch and bound: :func:`_shortest`).

Every race spends a work budget (nodes, beam levels, heads), never seconds,
so the same position gets the same answer on an idle and on a busy machine;
the time limit only cuts, and :mod:`~hlavolamy.solve.anytime` then returns
the best answer it already holds. Whether the beam still races on a set of
moves is learnt in the caller's :class:`~hlavolamy.solve.registry.RaceRecords`
(``context.records``); every other rival races on every position.

A puzzle with blockings goes to ``blocked``; the orbit modes to ``commutators``.
"""

from __future__ import annotations

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.memo import moves_key
from hlavolamy.core.progress import Work
from hlavolamy.errors import HlavolamyError, UnreachableError
from hlavolamy.solve import strategies  # noqa: F401  (every built-in strategy module)
from hlavolamy.solve.problem import Problem, reach
from hlavolamy.solve.registry import (
    MODES,
    Context,
    Strategy,
    StrategyFailed,
    run,
    strategy,
)
from hlavolamy.solve.strategies import beam
from hlavolamy.solve.strategies.optimal import AUTO_NODES, optimal

CHAIN_AUTO_CELLS = 128
"""Whole puzzles moving at most this many cells also try the chain in ``auto`` (its build takes seconds)."""
BEAM_RATIO = 2
"""``auto`` races the beam when the answer has more than this many moves per moved cell..."""
BEAM_WORK = 1e10
"""...spending at most this much work (:class:`~hlavolamy.core.progress.Work` units: 2e10, what 20 s allowed on an
idle core, until the beam's levels got twice as fast and its units per child cell were halved)..."""
BEAM_STRETCH = 5
"""...times the answer's moves per moved cell over this, at most :data:`BEAM_MAX_STRETCH` times: the longer the
answer it must beat, the more levels the beam walks before the hand-over (Santa wreath_100: 4,020 moves with
the plain budget, 1,787 with four times it, about 20 s more CPU; wreath_33, globe_3/33 stay at the plain
budget)..."""
BEAM_MAX_STRETCH = 4
BEAM_TRIALS = 2
"""...once it has had this many races on the set of moves, only while it won at least half of them..."""
BEAM_GAIN = 0.1
"""...where a win saves at least this share of the moves (less is not worth its time on every case)."""

def _auto(problem: Problem, context: Context) -> str:
    """The cheapest strategy likely to give a short answer; rivals race where they are cheap enough."""
    if problem.puzzle.blockings:
        return run(problem, "blocked", context)
    if context.mode != "whole":
        return run(problem, "commutators", context)
    if _tried(problem, context, "search"):
        return "search"
    if strategy("optimal").applies(problem, context) and _optimal_within_budget(problem, context):
        return "optimal"
    start = problem.fork()
    name, longest = _shortest(problem, context)
    if _beam_beats(start, problem, context, longest):
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
    """A shortest solution if IDA* finds one within its node budget (on a fork: a miss changes nothing).

    Nodes, not seconds: whether ``auto`` answers optimally does not depend on
    the machine's load (the anytime runner already holds an answer if the
    time limit cuts it).
    """
    attempt = problem.fork()
    try:
        optimal(attempt, nodes=AUTO_NODES, cancel=context.cancel, progress=context.progress)
    except (StrategyFailed, UnreachableError):
        return False
    problem.adopt(attempt)
    return True


def _beam_beats(start: Problem, answer: Problem, context: Context, longest: int | None = None) -> bool:
    """The beam from ``start``, where the answer is long for the puzzle (long macros); adopted if shorter.

    Positions by colours only: identical pieces make the colourings far
    fewer than the positions, which is where a beam finds short answers
    (on exact positions of ring puzzles it lost every time it was measured).

    Where the beam does not finish, the usual strategies finish from the
    position it came closest to (fewest wrong cells).

    Spends :func:`beam_work` (:data:`BEAM_WORK`, more against a very long answer), and after
    :data:`BEAM_TRIALS` races on a set of moves only while
    it won (by :data:`BEAM_GAIN`) at least as often as it lost there: a rare
    lucky win does not buy a race on every later case (on the 5x5x5 one win
    in nine races cost 20 s a case). A shorter answer is taken either way.

    Whether it races follows the winner's length; its budget follows the longest
    of the rivals' answers (``longest``): how long the macros' answers are is
    what says the beam pays here, and a rival that wins by less must not cut it
    (Santa wreath_100, 8 wildcards: search-first's 2,548 moves beat insertion's
    longer answer and gave the beam 2.6 times the plain budget instead of 4:
    2,029 moves instead of 1,787).
    """
    length = answer.answer_length()
    record = context.records.of_beam(moves_key(start.puzzle))
    cells = max(1, pieces(start.puzzle).moved_cells)
    if _beam_ruled_out(start, length) or not strategy("beam").applies(start, context) or not _pays(record):
        return False
    try:
        budget = Work(beam_work(max(length, longest or 0) / cells))
        beam.beam(start, work=budget, shorter_than=length, partial=True, cancel=context.cancel,
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


def beam_work(per_cell: float) -> float:
    """The beam race's budget against an answer of ``per_cell`` moves per moved cell (see :data:`BEAM_STRETCH`)."""
    return BEAM_WORK * min(BEAM_MAX_STRETCH, max(1.0, per_cell / BEAM_STRETCH))


def _pays(record: dict[str, int]) -> bool:
    """Race again: too few races yet to tell, or it wins at least as often as it loses."""
    return record["won"] + record["lost"] < BEAM_TRIALS or record["won"] >= record["lost"]


def _shortest(problem: Problem, context: Context) -> tuple[str, int]:
    """Small puzzles: the shorter of the chain and the phases (else the shortest of handover, chain and
    insertion). Otherwise insertion and search-first where it applies, chain behind.

    Insertion is the commutators strategy with each macro placed where the
    solution so far sets it up best.

    The chain never gets stuck where it fits, so it also rescues a stuck
    decomposition. Returns the name of the strategy whose answer won, and the longest rival answer's length.

    Once an answer is held, each later rival gives up when its own answer so far, simplified, is longer than
    :func:`~hlavolamy.solve.problem.reach` of it, where that answer already keeps the beam out
    (:func:`_beam_ruled_out`): on Santa's cube_4/4/4 150-161 the same answers in a fifth less time.
    """
    rivals = _rivals(problem, context)
    attempts: list[tuple[Problem, str]] = []
    lengths: list[int] = []
    failure: HlavolamyError | None = None
    for name in rivals:
        attempt = problem.fork()
        if lengths and _beam_ruled_out(problem, min(lengths)):
            attempt.bound(reach(min(lengths)))
        try:
            run(attempt, name, context)
            attempts.append((attempt, name))
            lengths.append(attempt.answer_length())
            if context.offer is not None:
                context.offer(attempt, name)
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
        lengths.append(attempt.answer_length())
    best, name = attempts[lengths.index(min(lengths))]
    problem.adopt(best)
    return name, max(lengths)


def _beam_ruled_out(problem: Problem, shortest: int) -> bool:
    """Whether an answer of ``shortest`` moves keeps the beam out of the race (:func:`_beam_beats`): an exact
    position, or at most :data:`BEAM_RATIO` moves per moved cell.

    Only then may a later rival give up once its answer so far is longer than
    :func:`~hlavolamy.solve.problem.reach` of it: where the beam may still race, its budget follows the longest
    rival's whole answer.
    """
    return problem.exact or shortest <= BEAM_RATIO * max(1, pieces(problem.puzzle).moved_cells)


def _rivals(problem: Problem, context: Context) -> list[str]:
    """What races: the phases beat the macros wherever a subgroup fits (3x3x3: 33 moves against 70); else
    handover first (megaminx: 198 moves against the chain's 255), the chain, insertion and search-first beside it
    (4x4x4 by colours: 108 moves against insertion's 166).

    Every rival races on every position, whatever earlier solves saw: ``search-first`` used to stop on a set of
    moves once it had lost more races than it won there, so a case's answer depended on the cases solved before
    it (in a batch task, an app session). On Santa's 60 cube_4/4/4 cases it wins seldom but by much (case 180:
    90 moves against 142): racing it always gave 7,552 moves against 7,772, for 15 % more CPU.

    Bigger puzzles race ``search-first`` beside ``insertion`` where its beam takes their orbits (the chain's and
    handover's builds cost too much there), wildcards or not: on the Santa set cube_5/5/5 8,320 -> 8,082 moves,
    cube_6/6/6 4,208 -> 3,790, globe_6/10 1,395 -> 1,262 (and cube_4/4/4's wildcard cases 170 fewer).

    ``search-first`` races first where it applies: it gives the shortest answer most often (Santa cube_4/4/4
    cases: 64-123 moves, handover's and insertion's 105-162), and the answer held bounds the rivals
    after it (:func:`_shortest`), which then give up once their answers so far are a tenth longer.

    ``rings`` races before it where the moves are rings sharing cells (wreaths, by colours): its beam loads the
    shared cells with colours to exchange (Santa wreath_100: 272 moves, where the others' best was 2,548 and the
    beam's 1,725), and its answer bounds the rest the same way.
    """
    first = [name for name in ("rings", "search-first") if strategy(name).applies(problem, context)]
    if pieces(problem.puzzle).moved_cells > CHAIN_AUTO_CELLS:
        return first + ["insertion"]
    if strategy("phases").applies(problem, context):
        return ["chain", "phases"]
    return first + ["handover", "chain", "insertion"]


AUTO = Strategy("auto", "picks and races the strategies that fit the puzzle; the shortest answer wins",
                _auto, modes=MODES)

"""A worker's side of a batch: solve a task's jobs, keeping each puzzle (and its tables) for the next task.

The same functions run in this process (``--jobs 1``), in a process pool and
on Dask workers. A worker keeps the last :data:`KEEP` puzzles it solved on,
keyed by :attr:`PuzzleSource.key`, so a puzzle's tables are built or loaded
from the disk cache once per worker, not once per task. Every answer is
replayed here before it is returned (and again by the writer).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from hlavolamy.batch.model import Job, PuzzleSource, Result, Task
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import HlavolamyError

if TYPE_CHECKING:
    from hlavolamy.solve.registry import RaceRecords

KEEP = 32
"""Puzzles a worker keeps (with their in-memory tables); tasks come grouped by puzzle, so few are needed."""

_kept: OrderedDict[str, Puzzle] = OrderedDict()
_lock = threading.Lock()
"""A Dask worker may run several threads; they share the kept puzzles."""


def kept_puzzle(source: PuzzleSource) -> Puzzle:
    """This process's puzzle for ``source``: the one kept from an earlier task if any (its tables built)."""
    with _lock:
        puzzle = _kept.get(source.key)
        if puzzle is None:
            puzzle = _kept[source.key] = source.puzzle
            while len(_kept) > KEEP:
                _kept.popitem(last=False)
        _kept.move_to_end(source.key)
        return puzzle


def replays(puzzle: Puzzle, job: Job, turns: Sequence[Turn]) -> bool:
    """Whether ``turns`` take the job's start to solved but for at most its wildcards (exact: by legal moves)."""
    try:
        if job.exact:
            end = State(puzzle, job.start).apply(list(turns)).perm
            wrong = end != np.arange(puzzle.n_cells)
        else:
            wrong = np.asarray(job.start)[puzzle.perm_of(list(turns))] != puzzle.colour_ids
        return int(np.count_nonzero(wrong)) <= job.wildcards
    except HlavolamyError:  # an unknown move, a move that tears a fused set
        return False


def solve_task(task: Task, report: Callable[[Result], None] | None = None) -> list[Result]:
    """Solve the task's jobs in order; each result goes to ``report`` as soon as it is known.

    The task's jobs share one :class:`~hlavolamy.solve.registry.RaceRecords` (``auto`` learns whether its
    beam race pays on the puzzle), made for the task alone: records kept by the worker made a case's answer
    depend on which cases that worker happened to solve before (Santa cube_4/4/4: 7,552 moves in one
    whole-set run, 7,851 in a later one, from two commits that answer cases 150-159 alone the same), so
    ``--jobs 1``, ``--jobs 2`` and a cluster could differ. The tasks are the same whatever the engine, so
    now are the answers.
    """
    from hlavolamy.core.diskcache import version_tag
    from hlavolamy.solve.registry import RaceRecords

    out = []
    records = RaceRecords()
    mismatch = task.code and task.code != version_tag()
    for source, job in task.entries:
        if mismatch:
            result = Result.failed(job.id, f"this worker runs other hlavolamy code ({version_tag()}, the client "
                                           f"{task.code}): install the same version everywhere")
        else:
            result = solve_job(kept_puzzle(source), job, records)
        out.append(result)
        if report is not None:
            report(result)
    return out


def solve_job(puzzle: Puzzle, job: Job, records: RaceRecords | None = None) -> Result:
    """One job's verified answer, or the reason there is none (never raises for a bad position).

    ``records``: the race records of the job's task (None: the job's own).
    """
    from hlavolamy.solve import solve

    started = time.perf_counter()
    try:
        position = State(puzzle, job.start) if job.exact else np.asarray(job.start)
        solution = solve(puzzle, position, strategy=job.strategy, wildcards=job.wildcards, time_limit=job.time_limit,
                         records=records)
        turns = list(solution.moves)
        if not turns and job.nonempty:
            turns = harmless_turns(puzzle, job)
        if not replays(puzzle, job, turns):
            return Result.failed(job.id, "internal error: the answer failed verification by replay on the worker",
                                 time.perf_counter() - started)
        return Result(job.id, tuple(Turn(t.move, t.power) for t in turns), puzzle.length(turns), solution.time,
                      solution.strategy, first_answer_time=solution.first_time)
    except HlavolamyError as exc:
        return Result.failed(job.id, str(exc), time.perf_counter() - started)
    except Exception as exc:  # noqa: BLE001 - one job's bug must not take its task's other jobs with it
        return Result.failed(job.id, f"internal error: {type(exc).__name__}: {exc}", time.perf_counter() - started)


def harmless_turns(puzzle: Puzzle, job: Job) -> list[Turn]:
    """A non-empty answer for a solved start: one move that keeps it solved, else a move and its inverse."""
    for name in puzzle.moves:
        if replays(puzzle, job, [Turn(name, 1)]):
            return [Turn(name, 1)]
    name = next(iter(puzzle.moves))
    return [Turn(name, 1), Turn(name, -1)]

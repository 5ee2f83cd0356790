"""One batch run: earlier answers re-verified, the rest planned into tasks, solved by an engine, written.

Both front ends (``hlavolamy batch`` for JSON Lines, ``hlavolamy santa`` for
the competition's CSV files) read their input into ``(puzzle, job)`` pairs
and hand them here with a ``write`` for their output format.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from hlavolamy.batch import plan
from hlavolamy.batch.collect import WRITE_EVERY, Collector, Progress
from hlavolamy.batch.engines import Engine
from hlavolamy.batch.model import Job, PuzzleSource, Result
from hlavolamy.batch.work import replays
from hlavolamy.core.diskcache import version_tag
from hlavolamy.core.puzzle import Puzzle


def run(entries: Sequence[tuple[Puzzle, Job]], engine: Engine, write: Callable[[dict[str, Result]], None], *,
        earlier: Iterable[Result] = (), on_result: Callable[[Result, Progress], None] | None = None,
        on_note: Callable[[str], None] | None = None, write_every: float = WRITE_EVERY) -> dict[str, Result]:
    """Every job's result by id; ``earlier`` answers that still replay are kept, not solved again.

    Job ids must be unique. The output is written as results arrive and
    once more at the end, also when the engine stops with an error (a lost
    cluster), so the next ``--resume`` keeps everything answered.
    """
    jobs = {job.id: (puzzle, job) for puzzle, job in entries}
    kept = [r for r in earlier if r.ok and r.turns is not None and r.id in jobs and replays(*jobs[r.id], r.turns)]
    done = {r.id for r in kept}
    sources: dict[int, PuzzleSource] = {}
    todo = [(sources.setdefault(id(puzzle), PuzzleSource(puzzle)), job)
            for puzzle, job in entries if job.id not in done]
    collector = Collector(jobs, kept, write, on_result=on_result, on_note=on_note, write_every=write_every)
    try:
        if todo:
            engine.run(plan.tasks(todo, version_tag()), collector)
    finally:
        collector.flush()
    return collector.results

"""The writer's side: every result replayed again, the output rewritten atomically, progress with rate and ETA.

The output is written by the front end's ``write`` (JSON Lines, a Santa
submission) through an atomic save, at most every :data:`WRITE_EVERY`
seconds while results come and once at the end, so a killed run keeps what
it wrote and ``--resume`` continues it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from hlavolamy.batch.model import Job, Result
from hlavolamy.batch.work import replays
from hlavolamy.core.puzzle import Puzzle

WRITE_EVERY = 1.0
"""Seconds between rewrites of the output while results arrive."""


@dataclass(frozen=True)
class Progress:
    """How far a run is: ``done`` of ``total`` jobs, ``new`` of them answered by this run in ``elapsed`` seconds."""

    done: int
    total: int
    new: int
    elapsed: float

    @property
    def rate(self) -> float:
        """Jobs per second answered by this run."""
        return self.new / self.elapsed if self.elapsed > 0 else 0.0

    def text(self) -> str:
        """``37/50 done, 2.41/s, ETA 0:05`` (no ETA before the first answer)."""
        eta = f", ETA {_clock((self.total - self.done) / self.rate)}" if self.rate > 0 else ""
        return f"{self.done}/{self.total} done, {self.rate:.2f}/s{eta}"


def _clock(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class Collector:
    """Results by job id: each checked by replay on arrival, the output rewritten, progress reported."""

    def __init__(self, jobs: Mapping[str, tuple[Puzzle, Job]], kept: Iterable[Result],
                 write: Callable[[dict[str, Result]], None], *,
                 on_result: Callable[[Result, Progress], None] | None = None,
                 on_note: Callable[[str], None] | None = None, write_every: float = WRITE_EVERY):
        self.jobs = jobs
        self.results: dict[str, Result] = {r.id: r for r in kept}
        self.write = write
        self.on_result = on_result
        self.on_note = on_note
        self.write_every = write_every
        self.started = time.monotonic()
        self._kept = len(self.results)
        self._written = float("-inf")
        self._dirty = True

    def add(self, result: Result) -> None:
        """A worker's result, kept only if it replays here too (a wrong answer becomes that job's error)."""
        puzzle, job = self.jobs[result.id]
        if result.ok and not (result.turns is not None and replays(puzzle, job, result.turns)):
            result = Result.failed(result.id, "internal error: the answer failed verification by replay on the writer",
                                   result.time)
        self.results[result.id] = result
        self._dirty = True
        if self.on_result is not None:
            self.on_result(result, self.progress())
        self.tick()

    def tick(self) -> None:
        """Rewrite the output if results came since the last write and it is due."""
        if self._dirty and time.monotonic() - self._written >= self.write_every:
            self.flush()

    def note(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)

    def flush(self) -> None:
        self.write(self.results)
        self._written = time.monotonic()
        self._dirty = False

    def progress(self) -> Progress:
        return Progress(len(self.results), len(self.jobs), len(self.results) - self._kept,
                        time.monotonic() - self.started)

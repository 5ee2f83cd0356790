"""Solving many positions at once: one runner for ``hlavolamy batch`` and ``hlavolamy santa``.

The layers inside: :mod:`.model` (what goes to a worker and back),
:mod:`.work` (a worker: puzzles kept per process, every answer replayed),
:mod:`.plan` (jobs grouped by puzzle into tasks), :mod:`.engines` (in this
process or a local process pool) and :mod:`.cluster` (Dask distributed, an
optional extra), :mod:`.collect` (results verified again, written atomically,
progress), :mod:`.runner` (the whole run) and :mod:`.jsonl` (the JSON Lines
front end). The Santa front end lives in :mod:`hlavolamy.cli.santa`.
"""

from __future__ import annotations

from hlavolamy.batch.model import Job, PuzzleSource, Result, Task

__all__ = ["Job", "PuzzleSource", "Result", "Task"]

"""Jobs into tasks: grouped by puzzle so a worker builds a puzzle's tables once, biggest puzzles first.

A task is solved whole by one worker and reports its results as each job
ends (local engines) or when the task ends (Dask), so tasks are small: at
most :data:`CHUNK` jobs of one puzzle. Puzzles of more than
:data:`BIG_CELLS` cells are the exception: all jobs on the same moves (every
colouring) go to one worker together, so the macro library is found once,
not once per worker. The biggest puzzles start first, so the longest work
does not end the run alone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from hlavolamy.batch.model import Job, PuzzleSource, Task

BIG_CELLS = 1000
"""Jobs of puzzles with more cells than this (on the same moves) go to one worker together."""
CHUNK = 8
"""Jobs of a smaller puzzle per task."""


def tasks(entries: Iterable[tuple[PuzzleSource, Job]], code: str = "", chunk: int = CHUNK) -> list[Task]:
    """Tasks of one puzzle (one set of moves, when big) each, in order of decreasing puzzle size."""
    groups: dict[str, list[tuple[PuzzleSource, Job]]] = defaultdict(list)
    for source, job in entries:
        big = source.puzzle.n_cells > BIG_CELLS
        groups[source.moves_key if big else source.key].append((source, job))
    out: list[Task] = []
    for group in groups.values():
        size = len(group) if group[0][0].puzzle.n_cells > BIG_CELLS else chunk
        out += [Task(group[k:k + size], code) for k in range(0, len(group), size)]
    out.sort(key=lambda t: -t.entries[0][0].puzzle.n_cells)
    return out

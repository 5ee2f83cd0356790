"""What travels between the batch runner and its workers: puzzles, jobs, tasks, results.

Everything here pickles small. A :class:`PuzzleSource` carries a puzzle's
definition without its in-memory tables (:meth:`Puzzle.layer_cache`): each worker
builds them, or loads them from the disk cache, once per puzzle and keeps
them (:mod:`hlavolamy.batch.work`). A job carries only its start position,
a result only its turns.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from hlavolamy.core.puzzle import Puzzle, copy_puzzle
from hlavolamy.core.turns import Turn


@dataclass(frozen=True)
class Job:
    """One position to solve: ``start`` is a permutation (``exact``) or colour ids per cell."""

    id: str
    start: np.ndarray
    exact: bool
    wildcards: int = 0
    strategy: str = "auto"
    time_limit: float | None = None
    nonempty: bool = False
    """An empty answer is replaced by a harmless one (the Santa competition rejects empty rows)."""


@dataclass(frozen=True)
class Result:
    """A job's answer (``turns``) or its ``error``; ``time`` is the solver's seconds."""

    id: str
    turns: tuple[Turn, ...] | None
    length: int = 0
    time: float = 0.0
    strategy: str = ""
    error: str | None = None
    first_answer_time: float | None = None
    """Seconds to the solver's first answer (:attr:`hlavolamy.solve.Solution.first_time`; None where the strategy
    asked for was not ``auto``, which alone answers first and improves after)."""

    @property
    def ok(self) -> bool:
        return self.error is None

    @classmethod
    def failed(cls, job_id: str, reason: str, time: float = 0.0) -> Result:
        return cls(job_id, None, 0, time, "", reason)


class PuzzleSource:
    """A puzzle as sent to workers: its definition and a ``key`` naming it (tables never travel)."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.moves_key = moves_key(puzzle)
        self.key = hashlib.sha1((self.moves_key + "\0" + repr(puzzle.colours)).encode()).hexdigest()
        """Moves and solved colours: two puzzles with one key solve alike."""

    def __getstate__(self) -> dict[str, Any]:
        return {"key": self.key, "moves_key": self.moves_key, "puzzle": copy_puzzle(self.puzzle)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


@dataclass
class Task:
    """Jobs of one puzzle's moves, solved one after the other by one worker (which keeps the puzzle's tables).

    A source given for several jobs is pickled once with the task (pickle
    keeps one copy of an object met twice).
    """

    entries: list[tuple[PuzzleSource, Job]]
    code: str = ""
    """The client's code version (:func:`hlavolamy.core.diskcache.version_tag`); a worker running other code refuses."""


def moves_key(puzzle: Puzzle) -> str:
    """A hash of what the solver's tables depend on: moves, blockings and turned parts, not colours."""
    digest = hashlib.sha1()
    for name, move in puzzle.moves.items():
        digest.update(name.encode() + b"\0" + np.asarray(move, dtype=np.int64).tobytes())
    digest.update(repr(sorted(sorted(b) for b in puzzle.blockings)).encode())
    digest.update(repr(sorted((m, sorted(c)) for m, c in puzzle.turned_parts.items())).encode())
    return digest.hexdigest()

"""The JSON Lines front end: one position per input line, one result per output line.

An input line is an object: ``puzzle`` (a puzzle file's path, relative to
the current folder, or a puzzle object inline), the position as exactly one
of ``state`` (a permutation), ``colours`` (a label per cell) or ``scramble``
(turns, with ``seed``, default 0), and optionally ``id`` (default: the line
number), ``strategy``, ``time_limit`` and ``wildcards``. A line that cannot
be read (bad JSON, an unknown puzzle file, a colour the puzzle lacks...)
becomes that line's error result; it never stops the batch.

An output line is ``{"id", "line", "moves", "length", "time", "strategy",
"first_answer_time", "verified": true}`` or ``{"id", "line", "error"}``, in
input order.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hlavolamy.batch.model import Job, Result
from hlavolamy.core.fileformat import (
    load_puzzle,
    parse_json,
    puzzle_from_dict,
    read_text,
)
from hlavolamy.core.limits import MAX_SCRAMBLE
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError, quoted

KEYS = ("id", "puzzle", "state", "colours", "scramble", "seed", "strategy", "time_limit", "wildcards")
POSITIONS = ("state", "colours", "scramble")


class LineError(HlavolamyError):
    """What is wrong with one input line (its result's ``error``)."""


@dataclass(frozen=True)
class Defaults:
    """What a line that does not say gets (the command's options)."""

    strategy: str = "auto"
    time_limit: float | None = None
    wildcards: int = 0
    strategies: tuple[str, ...] = ("auto",)
    """The strategy names a line may ask for."""


@dataclass
class Batch:
    """An input file read: the jobs with their puzzles, each job's line, and the lines that failed."""

    entries: list[tuple[Puzzle, Job]] = field(default_factory=list)
    lines: dict[str, int] = field(default_factory=dict)
    errors: dict[int, tuple[str | None, str]] = field(default_factory=dict)
    """Line -> (its id if one could be read, the reason)."""


def read_batch(path: str | Path, defaults: Defaults) -> Batch:
    """Every line of ``path`` as a job or a line error; only an unreadable file raises."""
    batch = Batch()
    reader = _LineReader(defaults)
    for number, text in enumerate(read_text(path, "JSON Lines file").splitlines(), 1):
        if not text.strip():
            continue
        job_id = None
        try:
            value = parse_json(text, f"line {number}")
            if not isinstance(value, dict):
                raise LineError(f"line {number}: expected a JSON object, not {type(value).__name__}")
            job_id = _job_id(value.get("id", number), number)
            if job_id in batch.lines:
                raise LineError(f"line {number}: id {quoted(job_id)} is already used on line {batch.lines[job_id]}")
            puzzle, job = reader.read(value, job_id, number)
        except HlavolamyError as exc:
            reason = str(exc).replace("at line 1, column", "at column")  # the JSON text is one line
            prefix = f"line {number}: "
            batch.errors[number] = (job_id, reason if reason.startswith(prefix) else prefix + reason)
            continue
        batch.entries.append((puzzle, job))
        batch.lines[job_id] = number
    return batch


def _job_id(value: Any, number: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise LineError(f"line {number}: id must be a string or an integer, not {quoted(value)}")
    return str(value)


class _LineReader:
    """Reads lines into jobs; each puzzle file (or inline puzzle) is loaded once and shared by its jobs."""

    def __init__(self, defaults: Defaults):
        self.defaults = defaults
        self.puzzles: dict[str, Puzzle | HlavolamyError] = {}

    def read(self, value: dict[str, Any], job_id: str, number: int) -> tuple[Puzzle, Job]:
        unknown = [k for k in value if k not in KEYS]
        if unknown:
            raise LineError(f"line {number}: unknown key {quoted(unknown[0])}; a line has {', '.join(KEYS)}")
        if "puzzle" not in value:
            raise LineError(f"line {number}: no \"puzzle\" (a puzzle file's path or a puzzle object)")
        puzzle = self.puzzle(value["puzzle"], number)
        given = [k for k in POSITIONS if k in value]
        if len(given) != 1:
            raise LineError(f"line {number}: give the position as exactly one of {', '.join(POSITIONS)}"
                            + (f", not {' and '.join(given)}" if given else ""))
        if "seed" in value and given[0] != "scramble":
            raise LineError(f"line {number}: \"seed\" goes with \"scramble\"")
        start, exact = _position(puzzle, given[0], value, number)
        return puzzle, Job(job_id, start, exact, self.wildcards(value, number), self.strategy(value, number),
                           self.time_limit(value, number))

    def puzzle(self, spec: Any, number: int) -> Puzzle:
        if not isinstance(spec, (str, dict)):
            raise LineError(f"line {number}: \"puzzle\" is a file's path or a puzzle object, not {type(spec).__name__}")
        key = "file:" + spec if isinstance(spec, str) else "json:" + json.dumps(spec, sort_keys=True)
        if key not in self.puzzles:
            try:
                loaded = load_puzzle(spec) if isinstance(spec, str) else puzzle_from_dict(spec, "the inline puzzle")
                self.puzzles[key] = loaded.puzzle
            except HlavolamyError as exc:
                self.puzzles[key] = exc
        found = self.puzzles[key]
        if isinstance(found, HlavolamyError):
            raise LineError(f"line {number}: puzzle: {found}")
        return found

    def strategy(self, value: dict[str, Any], number: int) -> str:
        name = value.get("strategy", self.defaults.strategy)
        if name not in self.defaults.strategies:
            choices = ", ".join(self.defaults.strategies)
            raise LineError(f"line {number}: unknown strategy {quoted(name)}; choose one of {choices}")
        return name

    def time_limit(self, value: dict[str, Any], number: int) -> float | None:
        limit = value.get("time_limit", self.defaults.time_limit)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                                  or not math.isfinite(limit) or limit <= 0):
            raise LineError(f"line {number}: time_limit is a positive number of seconds, not {quoted(limit)}")
        return None if limit is None else float(limit)

    def wildcards(self, value: dict[str, Any], number: int) -> int:
        count = value.get("wildcards", self.defaults.wildcards)
        if type(count) is not int or count < 0:
            raise LineError(f"line {number}: wildcards is a whole number 0 or more, not {quoted(count)}")
        return count


def _position(puzzle: Puzzle, kind: str, value: dict[str, Any], number: int) -> tuple[np.ndarray, bool]:
    """The start as ``(permutation, True)`` or ``(colour ids, False)``."""
    given = value[kind]
    if kind == "scramble":
        seed = value.get("seed", 0)
        if type(given) is not int or not 0 <= given <= MAX_SCRAMBLE or type(seed) is not int:
            raise LineError(f"line {number}: scramble is a number of turns 0..{MAX_SCRAMBLE} and seed an integer")
        return scrambled(puzzle, given, seed).perm, True
    if not isinstance(given, list):
        raise LineError(f"line {number}: {kind} is a list, not {type(given).__name__}")
    if kind == "state":
        bad = next((k for k, v in enumerate(given) if type(v) is not int), None)
        if bad is not None:
            raise LineError(f"line {number}: state/{bad}: a cell index is an integer, not {quoted(given[bad])}")
        return State(puzzle, given).perm, True
    return colour_ids(puzzle, given, f"line {number}: colours"), False


def colour_ids(puzzle: Puzzle, labels: Any, what: str) -> np.ndarray:
    """Labels (one per cell, from the puzzle's colours) as colour ids; ``what`` names them in errors."""
    if len(labels) != puzzle.n_cells:
        raise LineError(f"{what}: {len(labels)} labels for {puzzle.n_cells} cells")
    index = {label: i for i, label in enumerate(puzzle.colour_labels)}
    unknown = next((k for k, label in enumerate(labels) if not isinstance(label, str) or label not in index), None)
    if unknown is not None:
        raise LineError(f"{what}: {quoted(labels[unknown])} (cell {unknown}) is not a colour of the puzzle")
    return np.array([index[label] for label in labels], dtype=np.int64)


def read_earlier(path: str | Path, batch: Batch) -> list[Result]:
    """The answers in an earlier output (``--resume``); a line that does not read is dropped (solved again)."""
    if not Path(path).exists():
        return []
    puzzles = {job.id: puzzle for puzzle, job in batch.entries}
    out = []
    for text in read_text(path, "earlier output").splitlines():
        try:
            value = json.loads(text)
            job_id, moves = str(value["id"]), value["moves"]
            turns = tuple(puzzles[job_id].parse(moves))
            out.append(Result(job_id, turns, int(value["length"]), float(value.get("time", 0.0)),
                              str(value.get("strategy", "")), None, value.get("first_answer_time")))
        except (ValueError, KeyError, TypeError, HlavolamyError):
            continue
    return out


def dumps_results(batch: Batch, results: dict[str, Result]) -> str:
    """The output file's text: one line per answered job and per failed line, in input order."""
    puzzles = {job.id: puzzle for puzzle, job in batch.entries}
    rows: list[tuple[int, dict[str, Any]]] = []
    for job_id, result in results.items():
        line = batch.lines[job_id]
        if result.ok and result.turns is not None:
            rows.append((line, {"id": job_id, "line": line, "moves": puzzles[job_id].format(result.turns),
                                "length": result.length, "time": round(result.time, 3), "strategy": result.strategy,
                                "first_answer_time": result.first_answer_time, "verified": True}))
        else:
            rows.append((line, {"id": job_id, "line": line, "error": result.error}))
    rows += [(line, {"id": job_id, "line": line, "error": reason}) for line, (job_id, reason) in batch.errors.items()]
    rows.sort(key=lambda row: row[0])
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for _, row in rows)

"""Inputs for the batch tests and a replay of their outputs independent of the runner's own checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from tests.conftest import PUZZLES

SMALL = ("rubik2.json", "four-disks.json", "rubik3.json", "square1.json")
"""Four shipped puzzles whose short scrambles solve in well under a second each once their tables are built."""

TOYS = {
    "tiny.json": {"colours": ["A", "A", "B", "B"], "moves": {"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]}},
    "ring6.json": {"colours": ["A", "B", "C", "D", "E", "F"],
                   "moves": {"r": [1, 2, 3, 4, 0, 5], "s": [0, 1, 2, 3, 5, 4], "c": [0, 1, 2, 4, 5, 3]}},
    "cross7.json": {"colours": list("ABCDEFG"), "moves": {"a": [1, 2, 3, 0, 4, 5, 6], "b": [0, 1, 2, 4, 5, 6, 3]}},
}
"""Puzzles whose tables take no time: a worker with an empty cache is ready at once."""


CHEAP_STRATEGIES = {str(PUZZLES / "rubik2.json"): "phases"}
"""The 2x2x2's phases build in a second or two (its optimal solver's tables take several)."""


def cheap_puzzles(folder: Path) -> tuple[str, ...]:
    """Four puzzle files of cheap tables: the 2x2x2 (use :data:`CHEAP_STRATEGIES`) and three toys in ``folder``."""
    for name, body in TOYS.items():
        cells = len(body["colours"])
        (folder / name).write_text(json.dumps({"format": "hlavolamy", "version": 1, "cells": cells, **body}))
    return (str(PUZZLES / "rubik2.json"), *(str(folder / name) for name in TOYS))


def write_positions(path: Path, count: int, puzzles: tuple[str, ...] = SMALL, turns: int = 6,
                    strategies: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """``count`` scrambles spread over ``puzzles`` (files in ``puzzles/`` or paths), one JSON object per line.

    ``strategies`` names a strategy for the lines of some puzzles (by the name given in ``puzzles``).
    """
    lines = [{"id": f"p{k}", "puzzle": str(PUZZLES / puzzles[k % len(puzzles)]), "scramble": turns, "seed": k}
             for k in range(count)]
    for k, line in enumerate(lines):
        if puzzles[k % len(puzzles)] in (strategies or {}):
            line["strategy"] = strategies[puzzles[k % len(puzzles)]]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return lines


def replayed(inputs: list[dict[str, Any]], out: Path) -> dict[str, dict[str, Any]]:
    """The output's lines by id, after checking that each answer takes its scramble back to solved.

    Lines of ``out`` whose id is not in ``inputs`` are returned unchecked.
    """
    by_id = {line["id"]: line for line in inputs}
    found = {}
    for text in out.read_text().splitlines():
        row = json.loads(text)
        assert row["id"] not in found, f"id {row['id']} answered twice"
        found[row["id"]] = row
        if "moves" in row and row["id"] in by_id:
            given = by_id[row["id"]]
            puzzle = load_puzzle(given["puzzle"]).puzzle
            start = scrambled(puzzle, given["scramble"], given["seed"])
            end = start.apply(row["moves"])
            assert end.is_solved(), f"{row['id']}: {row['moves']} does not solve it"
            assert row["length"] == puzzle.length(puzzle.parse(row["moves"])) and row["verified"] is True
    return found


def colour_labels_after(puzzle_file: str, moves: str) -> list[str]:
    """The colours shown after playing ``moves`` from solved (a position by colours)."""
    puzzle = load_puzzle(puzzle_file).puzzle
    return State.solved(puzzle).apply(moves).colours()

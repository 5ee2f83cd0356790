"""Helpers every command shares: the puzzle argument, state and colouring arguments, printing a state.

A state or colouring argument is JSON given inline (``'[0, 2, 3, 1]'``) or
read from a file (``@state.json``). Besides a plain list it accepts the object
``apply --json`` prints (its ``"perm"`` / ``"colours"``) and a puzzle file
(its ``"position"``), so commands chain.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import IO, Any

import numpy as np

from hlavolamy.core.fileformat import STDIN, PuzzleFile, load_puzzle, loads_puzzle, parse_json, read_text
from hlavolamy.core.perm import format_cycles
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import FileFormatError, HlavolamyError, cut, quoted


def check_wildcards(count: int) -> int:
    """``--wildcards K``: how many cells may show a wrong colour; never negative."""
    if count < 0:
        raise HlavolamyError(f"--wildcards must be 0 or more, not {count}")
    return count


def check_time_limit(seconds: float | None) -> float | None:
    """``--time-limit S``: a positive, finite number of seconds (argparse's float takes 'nan' and 'inf')."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise HlavolamyError(f"--time-limit must be a positive number of seconds, not {seconds}")
    return seconds


def add_puzzle_argument(parser: argparse.ArgumentParser) -> None:
    """The positional PUZZLE argument: a puzzle file, or ``-`` for standard input."""
    parser.add_argument("puzzle", metavar="PUZZLE", help="puzzle file (.json); '-' reads standard input")


def load_puzzle_arg(path: str) -> PuzzleFile:
    """Load the PUZZLE argument; errors name the file and the bad value."""
    if path == "-":
        return loads_puzzle(read_text(path, "puzzle file"), STDIN)
    return load_puzzle(path)


def read_json_arg(text_or_path: str, what: str) -> tuple[Any, str]:
    """Decode an inline JSON argument or ``@file``; returns the value and its source name for errors."""
    if text_or_path.startswith("@"):
        path = text_or_path[1:]
        return parse_json(read_text(path, what), path), path
    return parse_json(text_or_path, f"the {what} argument"), f"the {what} argument"


def parse_state_json(text_or_path: str, puzzle: Puzzle) -> State:
    """A state from a permutation list, ``{"perm": [...]}`` or a puzzle file's ``"position"``."""
    value, source = read_json_arg(text_or_path, "state")
    perm, where = _unwrap(value, ("perm", "position"))
    if not isinstance(perm, list):
        raise FileFormatError("a state is a list of cell indices (or an object with \"perm\")", source, where)
    bad = next((i for i, v in enumerate(perm) if type(v) is not int), None)
    if bad is not None:  # numpy would take 1.0 and true as cell indices
        raise FileFormatError(f"a cell index is an integer, not {cut(json.dumps(perm[bad]), 30)}", source, f"{where}/{bad}")
    try:
        return State(puzzle, perm)
    except HlavolamyError as exc:
        raise FileFormatError(str(exc), source, where) from None


def parse_colours_json(text_or_path: str, puzzle: Puzzle) -> np.ndarray:
    """A colouring (one label per cell, from the puzzle's labels) as colour ids of :attr:`Puzzle.colour_labels`."""
    value, source = read_json_arg(text_or_path, "colours")
    labels, where = _unwrap(value, ("colours",))
    if not isinstance(labels, list):
        raise FileFormatError("a colouring is a list of colour labels (or an object with \"colours\")", source, where)
    if len(labels) != puzzle.n_cells:
        raise FileFormatError(f"has {len(labels)} labels; the puzzle has {puzzle.n_cells} cells", source, where)
    index = {label: i for i, label in enumerate(puzzle.colour_labels)}
    for cell, label in enumerate(labels):
        if label not in index:
            known = ", ".join(repr(k) for k in puzzle.colour_labels)
            raise FileFormatError(f"{quoted(label)} is not a colour of the puzzle ({known})", source, f"{where}/{cell}")
    return np.array([index[label] for label in labels], dtype=np.int32)


def _unwrap(value: Any, keys: tuple[str, ...]) -> tuple[Any, str]:
    """The list itself, or the first of ``keys`` in an object; with its JSON pointer."""
    if isinstance(value, dict):
        for key in keys:
            if key in value:
                return value[key], f"/{key}"
    return value, ""


def state_summary(state: State) -> dict[str, Any]:
    """The machine-readable form of a state: what ``--json`` prints."""
    return {
        "solved": state.is_solved(),
        "colour_solved": state.is_colour_solved(),
        "perm": state.perm.tolist(),
        "colours": state.colours(),
    }


def print_state(state: State, *, as_json: bool = False, extra: dict[str, Any] | None = None, file: IO[str] | None = None) -> None:
    """Print a state; ``extra`` entries (the sequence, the seed...) come first.

    Text: one ``key: value`` line each; JSON: one object on one line.
    """
    out = file or sys.stdout
    extra = extra or {}
    if as_json:
        print(json.dumps({**extra, **state_summary(state)}, ensure_ascii=False), file=out)
        return
    for key, value in extra.items():
        print(f"{key}: {value}", file=out)
    moved = int(np.count_nonzero(state.perm != np.arange(state.perm.size)))
    print(f"solved: {_yes(state.is_solved())} ({moved} of {state.perm.size} cells moved); "
          f"colours solved: {_yes(state.is_colour_solved())}", file=out)
    print(f"cycles: {format_cycles(state.perm)}", file=out)
    print("perm: " + " ".join(map(str, state.perm.tolist())), file=out)
    print("colours: " + _labels_text(state.colours()), file=out)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _labels_text(labels: list[str]) -> str:
    """Space-separated when every label is one plain word, JSON otherwise (labels may be any strings)."""
    if all(label and not any(ch.isspace() or ch in '"[],' for ch in label) for label in labels):
        return " ".join(labels)
    return json.dumps(labels, ensure_ascii=False)


def load_plugins() -> None:
    """Load the plugins now, for a command whose options list the strategies or formats they may add."""
    from hlavolamy.plugins.manager import get_plugin_host

    get_plugin_host()

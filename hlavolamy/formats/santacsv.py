"""Santa 2023 files as interchange formats, on top of :mod:`hlavolamy.formats.santa`.

* ``puzzle_info.csv`` + a puzzle type -> a puzzle file (the type's moves;
  colours from the first case of that type in a ``puzzles.csv`` when given,
  else every cell its own colour). Export writes one ``puzzle_type,allowed_moves``
  row (added to or replaced in an existing file).
* ``puzzles.csv`` + an id (+ ``puzzle_info.csv``) -> a puzzle file whose
  colours are the case's ``solution_state`` and whose position shows its
  ``initial_state``; the id, wildcards and start colours are kept under the
  extra key ``"santa"``.
* a puzzle file's move history -> its row of a ``submission.csv`` (added to or
  replaced in an existing file), moves written as the competition wants.

A Santa start position is given by colours only. The position stored is a
reachable permutation showing those colours, found by the analysis
(:func:`hlavolamy.analysis.colours.state_from_colours`, wildcards honoured).
"""

from __future__ import annotations

import csv
from pathlib import Path

from hlavolamy.analysis.colours import state_from_colours
from hlavolamy.core.fileformat import PuzzleFile
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError, HlavolamyError, quoted
from hlavolamy.formats import santa

EXTRA_KEY = "santa"


def load_info(path: str | Path, *, type: str = "", puzzles: str = "") -> PuzzleFile:
    """One puzzle type of a ``puzzle_info.csv`` (``type`` may be left out when the file has one row)."""
    types = santa.read_puzzle_info(path)
    if not types:
        raise FileFormatError("no puzzle types: the file has no rows", str(path))
    if not type:
        if len(types) != 1:
            raise FileFormatError(f"name the puzzle type (--type); the file has {', '.join(map(repr, types))}", str(path))
        type = next(iter(types))
    if type not in types:
        raise FileFormatError(f"no puzzle type {quoted(type)}; the file has {', '.join(map(repr, types))}", str(path))
    if not puzzles:
        base = types[type]
        return PuzzleFile(Puzzle([str(i) for i in range(base.n_cells)], base.moves, name=type))
    case = next((c for c in santa.read_puzzles(puzzles) if c.puzzle_type == type), None)
    if case is None:
        raise FileFormatError(f"no case of type {quoted(type)}", puzzles)
    return PuzzleFile(santa.case_puzzle(types, case, puzzles))


def load_case(path: str | Path, *, id: str = "", info: str = "") -> PuzzleFile:
    """One case of a ``puzzles.csv``: the puzzle solved in its colours, positioned at its start."""
    if not id or not info:
        raise FileFormatError("a Santa case needs its id (--id) and the puzzle_info.csv (--info)", str(path))
    case = next((c for c in santa.read_puzzles(path) if c.id == id), None)
    if case is None:
        raise FileFormatError(f"no case with id {quoted(id)}", str(path))
    puzzle = santa.case_puzzle(santa.read_puzzle_info(info), case, path)
    try:
        state = state_from_colours(puzzle, case.initial, wildcards=case.wildcards)
    except HlavolamyError as exc:
        raise FileFormatError(f"case {id}: {exc}", str(path)) from None
    extra = {EXTRA_KEY: {"id": case.id, "puzzle_type": case.puzzle_type, "num_wildcards": case.wildcards,
                         "initial_state": ";".join(case.initial)}}
    return PuzzleFile(puzzle, state, [], extra)


def dump_submission(source: PuzzleFile, path: str | Path) -> None:
    """The file's move history as its case's row of a submission (other rows kept)."""
    record = source.extra.get(EXTRA_KEY)
    if not isinstance(record, dict) or "id" not in record:
        raise FileFormatError("this puzzle file is not a Santa case (import it from puzzles.csv first)")
    if not source.history:
        raise FileFormatError("the puzzle file has no moves in its history to submit")
    rows = _read_rows(path, ("id", "moves"))
    rows[str(record["id"])] = santa.format_moves(source.puzzle, source.history)
    santa.write_submission(path, sorted(rows.items(), key=lambda kv: _id_key(kv[0])))


def dump_info(puzzle: Puzzle, path: str | Path) -> None:
    """The puzzle's moves as a ``puzzle_type,allowed_moves`` row (other rows kept)."""
    rows = _read_rows(path, ("puzzle_type", "allowed_moves"))
    rows[puzzle.name or "puzzle"] = repr({name: m.tolist() for name, m in puzzle.moves.items()})
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["puzzle_type", "allowed_moves"])
        writer.writerows(rows.items())


def _read_rows(path: str | Path, header: tuple[str, str]) -> dict[str, str]:
    """An existing two-column CSV as a dict (empty when the file does not exist)."""
    if not Path(path).exists():
        return {}
    try:
        return {row[header[0]]: row[header[1]] for _, row in santa.read_rows(path, header)}
    except FileFormatError as exc:
        raise FileFormatError(f"exists but is not a {','.join(header)} file; choose another name", str(path),
                              exc.pointer) from None


def _id_key(value: str) -> tuple[int, int | str]:
    return (0, int(value)) if value.isdigit() else (1, value)

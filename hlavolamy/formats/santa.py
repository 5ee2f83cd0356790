"""The Santa 2023 competition format (Kaggle "The Polytope Permutation Puzzle").

``puzzle_info.csv`` has one row per puzzle type: ``puzzle_type,allowed_moves``
where ``allowed_moves`` is a Python dict literal ``{name: permutation}`` with
the same convention as ours (``new[i] = s[p[i]]``). ``puzzles.csv`` lists the
cases: ``id,puzzle_type,solution_state,initial_state,num_wildcards`` with
``;``-separated colour labels. A submission is ``id,moves`` with moves joined
by ``.`` and an inverse written ``-name``. The 33x33x33 row is ~5 MB, hence
the raised csv field limit.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hlavolamy.core.fileformat import read_text, write_atomic
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, expand
from hlavolamy.errors import FileFormatError, HlavolamyError, quoted
from hlavolamy.formats.limits import check_digits, check_size


@dataclass(frozen=True)
class SantaCase:
    """One row of ``puzzles.csv``: a start position given by colours and the target colours."""

    id: str
    puzzle_type: str
    solution: tuple[str, ...]
    initial: tuple[str, ...]
    wildcards: int
    line: int = 0
    """The row's line in its file (for error messages)."""


def read_rows(path: str | Path, header: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """``(line, {column: field})`` for each row of a CSV file that has at least the ``header`` columns.

    A row with another number of fields than the header, a non-UTF-8 byte or
    a CSV syntax error is a :class:`FileFormatError` naming the file and line.
    """
    text = read_text(path, "CSV file")
    csv.field_size_limit(sys.maxsize)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        names = next(reader, [])
        missing = [h for h in header if h not in names]
        if missing:
            raise FileFormatError(f"missing column(s) {', '.join(missing)}; expected {','.join(header)}",
                                  str(path), "line 1")
        line = reader.line_num + 1
        for fields in reader:
            if fields:
                if len(fields) != len(names):
                    raise FileFormatError(f"expected {len(names)} fields ({','.join(names)}), found {len(fields)}",
                                          str(path), f"line {line}")
                yield line, dict(zip(names, fields))
            line = reader.line_num + 1
    except csv.Error as exc:
        raise FileFormatError(f"not a CSV file ({exc})", str(path), f"line {reader.line_num}") from None


def read_puzzle_info(path: str | Path) -> dict[str, Puzzle]:
    """Puzzle type -> Puzzle with those moves; colours are placeholders (one per cell).

    The cases carry their own solved colours; :func:`case_puzzle` makes the
    puzzle a case is solved on.
    """
    out: dict[str, Puzzle] = {}
    for line, row in read_rows(path, ("puzzle_type", "allowed_moves")):
        kind = row["puzzle_type"]
        where = f"line {line}"
        if kind in out:
            raise FileFormatError(f"puzzle type {quoted(kind)} appears twice", str(path), where)
        moves = _allowed_moves(row["allowed_moves"], f"allowed_moves of {quoted(kind)}", str(path), where)
        try:
            out[kind] = Puzzle(["0"] * len(next(iter(moves.values()))), moves, name=kind)
        except HlavolamyError as exc:
            raise FileFormatError(f"puzzle type {quoted(kind)}: {exc}", str(path), where) from None
    return out


def _literal(text: str) -> object:
    """The Python literal ``text``: read as JSON once its single quotes are double ones where that is all it
    takes (Santa's file: names and lists of integers; 0.3 s instead of 5 s of ``ast.literal_eval`` for its 26
    types, paid by every ``santa`` command), else by ``ast.literal_eval``."""
    if '"' not in text and "\\" not in text:
        try:
            return json.loads(text.replace("'", '"'))
        except ValueError:
            pass
    return ast.literal_eval(text)


def _allowed_moves(text: str, what: str, source: str, where: str) -> dict[str, list[int]]:
    """A dict literal ``{name: [cell, ...]}``: equally long lists of cells ``0..n-1``, within the size limits."""
    try:
        moves = _literal(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        why = f" ({exc})" if isinstance(exc, TypeError) else (f" (syntax error at column {exc.offset})"
                                                               if isinstance(exc, SyntaxError) else "")
        raise FileFormatError(f"{what} is not a dict literal {{'name': [cells...], ...}}{why}", source, where) from None
    if not isinstance(moves, dict) or not moves:
        raise FileFormatError(f"{what} must be a non-empty dict, not {type(moves).__name__}", source, where)
    n = None
    for name, cells in moves.items():
        if not isinstance(name, str):
            raise FileFormatError(f"{what}: the move name {quoted(name)} is not a string", source, where)
        if not isinstance(cells, (list, tuple)) or not all(type(c) is int for c in cells):
            raise FileFormatError(f"{what}: move {quoted(name)} is not a list of integers", source, where)
        n = len(cells) if n is None else n
        if len(cells) != n:
            raise FileFormatError(f"{what}: move {quoted(name)} has {len(cells)} cells, the first move {n}", source, where)
        bad = next((c for c in cells if not 0 <= c < n), None)
        if bad is not None:
            raise FileFormatError(f"{what}: move {quoted(name)} has cell {bad}, not in 0..{n - 1}", source, where)
    check_size(n or 0, len(moves), source, where)
    return moves


def read_puzzles(path: str | Path) -> list[SantaCase]:
    """The cases of ``puzzles.csv`` in file order."""
    header = ("id", "puzzle_type", "solution_state", "initial_state", "num_wildcards")
    cases = []
    for line, row in read_rows(path, header):
        where = f"line {line}"
        solution = tuple(row["solution_state"].split(";"))
        initial = tuple(row["initial_state"].split(";"))
        check_size(len(solution), 0, str(path), where)
        if len(solution) != len(initial):
            raise FileFormatError(
                f"case {quoted(row['id'])}: solution_state has {len(solution)} cells, initial_state {len(initial)}", str(path), where
            )
        text = row["num_wildcards"].strip()
        if not text.isascii() or not text.isdigit():
            raise FileFormatError(f"case {quoted(row['id'])}: num_wildcards {quoted(text)} is not a whole number", str(path), where)
        wildcards = check_digits(text, len(solution), f"case {quoted(row['id'])}: num_wildcards", str(path), where)
        cases.append(SantaCase(row["id"], row["puzzle_type"], solution, initial, wildcards, line))
    return cases


def check_case(types: Mapping[str, Puzzle], case: SantaCase, source: str | Path | None = None) -> Puzzle:
    """The type of ``case``, which must be in ``types`` and have as many cells as the case's colours."""
    where = (str(source) if source else None, f"line {case.line}" if case.line else "")
    base = types.get(case.puzzle_type)
    if base is None:
        raise FileFormatError(f"case {quoted(case.id)}: unknown puzzle type {quoted(case.puzzle_type)}", *where)
    if base.n_cells != len(case.solution):
        raise FileFormatError(f"case {quoted(case.id)}: {len(case.solution)} cells, but {quoted(case.puzzle_type)} has {base.n_cells}",
                              *where)
    return base


def case_puzzle(types: Mapping[str, Puzzle], case: SantaCase, source: str | Path | None = None) -> Puzzle:
    """The puzzle of ``case``: its type's moves with the case's solution colours."""
    base = check_case(types, case, source)
    try:
        return Puzzle(case.solution, base.moves, name=case.puzzle_type)
    except HlavolamyError as exc:
        raise FileFormatError(f"case {quoted(case.id)}: {exc}", str(source) if source else None,
                              f"line {case.line}" if case.line else "") from None


def format_moves(puzzle: Puzzle, turns: Sequence[Turn]) -> str:
    """Single generator steps joined by ``.``; an inverse step is ``-name``.

    A power is written as the shorter way round the move's order, so ``R3``
    on an order-4 move is one ``-R``.
    """
    steps = []
    for t in turns:
        order = puzzle.move_order(t.move)
        k = t.power % order
        power = k if k <= order - k else k - order
        steps.extend(s.move if s.power > 0 else f"-{s.move}" for s in expand([Turn(t.move, power)]))
    return ".".join(steps)


def write_submission(path: str | Path, rows: Iterable[tuple[str, str]]) -> None:
    """Write ``id,moves`` rows (moves already formatted), atomically: a reader never sees half a file."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(["id", "moves"])
    writer.writerows(rows)
    write_atomic(Path(path), out.getvalue())


def read_submission(path: str | Path) -> dict[str, str]:
    """``id -> moves`` of an earlier submission (``--resume``); an absent file reads as empty."""
    if not Path(path).exists():
        return {}
    return {row["id"]: row["moves"] for _, row in read_rows(path, ("id", "moves"))}

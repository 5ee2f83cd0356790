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
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hlavolamy.core.fileformat import write_atomic
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, expand
from hlavolamy.errors import FileFormatError, HlavolamyError


@dataclass(frozen=True)
class SantaCase:
    """One row of ``puzzles.csv``: a start position given by colours and the target colours."""

    id: str
    puzzle_type: str
    solution: tuple[str, ...]
    initial: tuple[str, ...]
    wildcards: int


def _rows(path: str | Path, header: Sequence[str]) -> Iterable[tuple[int, dict[str, str]]]:
    csv.field_size_limit(sys.maxsize)
    try:
        handle = open(path, newline="", encoding="utf-8")
    except OSError as exc:
        raise FileFormatError(f"cannot open: {exc.strerror}", str(path)) from None
    with handle:
        reader = csv.DictReader(handle)
        missing = [h for h in header if h not in (reader.fieldnames or [])]
        if missing:
            raise FileFormatError(f"missing column(s) {', '.join(missing)}; expected {','.join(header)}", str(path), "line 1")
        for line, row in enumerate(reader, start=2):
            yield line, row


def read_puzzle_info(path: str | Path) -> dict[str, Puzzle]:
    """Puzzle type -> Puzzle with those moves; colours are placeholders (one per cell).

    The cases carry their own solved colours; :func:`case_puzzle` makes the
    puzzle a case is solved on.
    """
    out: dict[str, Puzzle] = {}
    for line, row in _rows(path, ("puzzle_type", "allowed_moves")):
        kind = row["puzzle_type"]
        try:
            moves = ast.literal_eval(row["allowed_moves"])
        except (ValueError, SyntaxError) as exc:
            raise FileFormatError(f"allowed_moves of {kind!r} is not a dict literal ({exc})", str(path), f"line {line}") from None
        if not isinstance(moves, dict) or not moves:
            raise FileFormatError(f"allowed_moves of {kind!r} must be a non-empty dict", str(path), f"line {line}")
        n = len(next(iter(moves.values())))
        try:
            out[kind] = Puzzle(["0"] * n, moves, name=kind)
        except HlavolamyError as exc:
            raise FileFormatError(f"puzzle type {kind!r}: {exc}", str(path), f"line {line}") from None
    return out


def read_puzzles(path: str | Path) -> list[SantaCase]:
    """The cases of ``puzzles.csv`` in file order."""
    header = ("id", "puzzle_type", "solution_state", "initial_state", "num_wildcards")
    cases = []
    for line, row in _rows(path, header):
        solution = tuple(row["solution_state"].split(";"))
        initial = tuple(row["initial_state"].split(";"))
        if len(solution) != len(initial):
            raise FileFormatError(
                f"case {row['id']}: solution_state has {len(solution)} cells, initial_state {len(initial)}", str(path), f"line {line}"
            )
        try:
            wildcards = int(row["num_wildcards"])
        except ValueError:
            raise FileFormatError(f"case {row['id']}: num_wildcards {row['num_wildcards']!r} is not an integer", str(path), f"line {line}") from None
        cases.append(SantaCase(row["id"], row["puzzle_type"], solution, initial, wildcards))
    return cases


def case_puzzle(types: Mapping[str, Puzzle], case: SantaCase) -> Puzzle:
    """The puzzle of ``case``: its type's moves with the case's solution colours."""
    try:
        base = types[case.puzzle_type]
    except KeyError:
        raise FileFormatError(f"case {case.id}: unknown puzzle type {case.puzzle_type!r}") from None
    if base.n_cells != len(case.solution):
        raise FileFormatError(f"case {case.id}: {len(case.solution)} cells, but {case.puzzle_type} has {base.n_cells}")
    return Puzzle(case.solution, base.moves, name=case.puzzle_type)


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
    path = Path(path)
    if not path.exists():
        return {}
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if not rows or rows[0] != ["id", "moves"]:
        raise FileFormatError("expected the header 'id,moves'", str(path), "line 1")
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != 2:
            raise FileFormatError(f"expected 2 fields (id,moves), got {len(row)}", str(path), f"line {line}")
    return {row[0]: row[1] for row in rows[1:]}

"""Other tools' puzzle formats: one registry the CLI and the GUI share.

API (everything a File -> Import/Export menu needs)::

    from hlavolamy import formats
    for f in formats.FORMATS.values():        # name, description, suffixes, options
        ...
    fmt = formats.guess("cube.tws")            # by suffix, or None
    loaded = formats.import_file("ksolve", "cube.tws")            # -> PuzzleFile
    loaded = formats.import_file("santa", "puzzles.csv", id="7", info="puzzle_info.csv")
    formats.export_file("kpuzzle", loaded, "cube.kpuzzle.json")  # PuzzleFile or Puzzle

``import_file`` always returns a :class:`~hlavolamy.core.fileformat.PuzzleFile`
(``.puzzle``, ``.state``, ``.history``, ``.extra``) ready to save with
``save_puzzle``. Options are keyword arguments; each format lists its own in
:attr:`Format.options` (name, help, kind) so a dialog can ask for them.
Every failure is a :class:`~hlavolamy.errors.HlavolamyError` whose message
names the file and the line or JSON path. ``docs/formats.md`` says what maps
to what and what is lost.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hlavolamy.core.fileformat import PuzzleFile
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError, quoted


@dataclass(frozen=True)
class Option:
    """A keyword option of a format: ``kind`` is ``str``, ``bool`` or ``"path"`` (a file to pick)."""

    name: str
    help: str
    kind: Any = str


@dataclass(frozen=True)
class Format:
    """One interchange format. ``load``/``dump`` name ``module:function`` (imported on first use)."""

    name: str
    description: str
    suffixes: tuple[str, ...]
    load: str | None
    dump: str | None
    options: tuple[Option, ...] = ()
    whole_file: bool = False
    """``dump`` takes the whole :class:`PuzzleFile` (it writes the history), not just the puzzle."""

    @property
    def can_import(self) -> bool:
        return self.load is not None

    @property
    def can_export(self) -> bool:
        return self.dump is not None


_ROTATIONS = Option("rotations", "also read whole-puzzle rotations (x, y, z, Uv...) as moves", bool)

FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("kpuzzle", "cubing.js KPuzzle definition (JSON): orbits of pieces with orientation",
               (".kpuzzle.json", ".kpuzzle"), "kpuzzle:load", "kpuzzle:dump", (_ROTATIONS,)),
        Format("ksolve", "ksolve / twsearch puzzle definition (Set, Solved, Move blocks)",
               (".tws", ".def", ".ksolve"), "ksolve:load", "ksolve:dump", (_ROTATIONS,)),
        Format("gap", "GAP permutation group: generators in cycle notation", (".g", ".gap"), "gap:load", "gap:dump"),
        Format("santa-info", "Santa 2023 puzzle_info.csv: one puzzle type's moves", (), "santacsv:load_info",
               "santacsv:dump_info",
               (Option("type", "puzzle type, e.g. cube_3/3/3 (needed when the file has several)"),
                Option("puzzles", "puzzles.csv to take the solved colours from", "path"))),
        Format("santa", "Santa 2023 case from puzzles.csv (import); the solution as a submission.csv row (export)",
               (), "santacsv:load_case", "santacsv:dump_submission",
               (Option("id", "the case's id"), Option("info", "the puzzle_info.csv with its moves", "path")),
               whole_file=True),
        Format("sign", "a move sequence in SiGN cube notation (R U' Rw 2R x) for a cube puzzle",
               (".sign", ".txt"), "sign:load_file", "sign:dump_file",
               (Option("puzzle", "the cube puzzle file the sequence is played on", "path"),), whole_file=True),
    )
}
"""Every format by name, in menu order."""


def get(name: str) -> Format:
    """The format called ``name``; the error lists the known ones."""
    try:
        return FORMATS[name]
    except KeyError:
        raise FileFormatError(f"unknown format {quoted(name)}; known: {', '.join(FORMATS)}") from None


def guess(path: str | Path) -> Format | None:
    """The format whose suffix ends the file name (longest suffix first), if any."""
    name = Path(path).name.lower()
    matches = [(len(s), f) for f in FORMATS.values() for s in f.suffixes if name.endswith(s) and f.can_import]
    return max(matches, key=lambda m: m[0])[1] if matches else None


def _function(spec: str) -> Callable[..., Any]:
    module, function = spec.split(":")
    return getattr(importlib.import_module(f"hlavolamy.formats.{module}"), function)


def _check_options(fmt: Format, options: dict[str, Any]) -> None:
    unknown = sorted(set(options) - {o.name for o in fmt.options})
    if unknown:
        known = ", ".join(o.name for o in fmt.options) or "none"
        raise FileFormatError(f"format {quoted(fmt.name)} has no option {quoted(unknown[0])} (options: {known})")


def import_file(name: str, path: str | Path, **options: Any) -> PuzzleFile:
    """Read ``path`` in format ``name`` as a puzzle file."""
    fmt = get(name)
    if fmt.load is None:
        raise FileFormatError(f"format {quoted(name)} can only be exported")
    _check_options(fmt, options)
    given = {k: v for k, v in options.items() if v not in (None, "")}
    try:
        result = _function(fmt.load)(path, **given)
    except RecursionError:
        raise FileFormatError("too deeply nested", str(path)) from None
    return result if isinstance(result, PuzzleFile) else PuzzleFile(result)


def export_file(name: str, source: PuzzleFile | Puzzle, path: str | Path) -> None:
    """Write ``source`` (a puzzle or a puzzle file) to ``path`` in format ``name``."""
    fmt = get(name)
    if fmt.dump is None:
        raise FileFormatError(f"format {quoted(name)} can only be imported")
    if isinstance(source, Puzzle):
        source = PuzzleFile(source)
    try:
        _function(fmt.dump)(source if fmt.whole_file else source.puzzle, path)
    except OSError as exc:
        raise FileFormatError(f"cannot write: {exc.strerror or exc}", str(path)) from None


__all__ = ["FORMATS", "Format", "Option", "export_file", "get", "guess", "import_file"]

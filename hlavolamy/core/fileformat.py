"""Puzzle files, format version 1: JSON holding everything needed to play and solve.

The file carries the permutation of every move, so it opens, plays and solves
where its geometry plugin is missing. Loading checks every value and reports
the file, the JSON pointer (``/moves/R/3``) and what is wrong; it never lets a
bad file surface as a traceback. Saving is atomic: a temporary file in the same
folder, flushed to disk, then renamed over the original.

Reference with examples: ``docs/file-format.md``.

>>> pf = loads_puzzle('{"format": "hlavolamy", "version": 1, "cells": 4, '
...                   '"colours": ["A", "A", "B", "B"], "moves": {"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]}}')
>>> pf.puzzle
<Puzzle: 4 cells, 2 moves>
>>> print(dumps_puzzle(pf.puzzle), end="")
{
  "format": "hlavolamy",
  "version": 1,
  "cells": 4,
  "colours": ["A", "A", "B", "B"],
  "moves": {
    "L": [1, 0, 2, 3],
    "R": [0, 2, 3, 1]
  }
}
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from hlavolamy.core.limits import MAX_CELLS, MAX_FILE_BYTES, MAX_INT_DIGITS, MAX_JSON_DEPTH, json_too_deep
from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import FileFormatError, HlavolamyError, PuzzleError, cut, quoted

FORMAT = "hlavolamy"
VERSION = 1
KNOWN_KEYS = (
    "format", "version", "name", "description", "cells", "colours", "palette", "moves", "aliases",
    "blockings", "turned_parts", "plugin", "cell_data", "position", "history",
)  # fmt: skip
"""Top-level keys in the order they are written; any other key is kept in :attr:`PuzzleFile.extra`."""

_HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass
class PuzzleFile:
    """What a file holds: the puzzle, an optional saved position and move history, unknown keys."""

    puzzle: Puzzle
    state: State | None = None
    history: list[Turn] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Top-level keys this version does not know, written back unchanged on save."""


# -- writing -------------------------------------------------------------------
def puzzle_to_dict(
    puzzle: Puzzle,
    state: State | None = None,
    history: Sequence[Turn] = (),
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON object of a puzzle file; empty optional keys are left out."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    optional: dict[str, Any] = {
        "name": puzzle.name,
        "description": puzzle.description,
        "cells": puzzle.n_cells,
        "colours": list(puzzle.colours),
        "palette": dict(puzzle.palette),
        "moves": {name: m.tolist() for name, m in puzzle.moves.items()},
        "aliases": dict(puzzle.aliases),
        "blockings": [sorted(b) for b in puzzle.blockings],
        "turned_parts": {name: sorted(cells) for name, cells in puzzle.turned_parts.items()},
        "plugin": {"name": puzzle.plugin.name, "data": dict(puzzle.plugin.data)} if puzzle.plugin else None,
        "cell_data": [dict(d) for d in puzzle.cell_data] if puzzle.cell_data is not None else None,
        "position": _position(puzzle, state),
        "history": puzzle.format(history) if history else None,
    }
    data.update((key, value) for key, value in optional.items() if value not in (None, "", [], {}))
    for key, value in (extra or {}).items():
        if key in KNOWN_KEYS:
            raise ValueError(f"extra key {quoted(key)} is a key of the format itself")
        data[key] = value
    return data


def _position(puzzle: Puzzle, state: State | None) -> list[int] | None:
    if state is None:
        return None
    if state.puzzle.n_cells != puzzle.n_cells:
        raise ValueError(f"the state has {state.puzzle.n_cells} cells, the puzzle {puzzle.n_cells}")
    return state.perm.tolist()


def dumps_puzzle(
    puzzle: Puzzle,
    state: State | None = None,
    history: Sequence[Turn] = (),
    extra: Mapping[str, Any] | None = None,
) -> str:
    """The file text: indented, but every list or object of plain values on one line (one line per move)."""
    return _dumps(puzzle_to_dict(puzzle, state, history, extra), "") + "\n"


def _dumps(value: Any, indent: str) -> str:
    if not _is_nested(value):
        return json.dumps(value, ensure_ascii=False)
    inner = indent + "  "
    if isinstance(value, dict):
        rows = [f"{inner}{json.dumps(str(k), ensure_ascii=False)}: {_dumps(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(rows) + "\n" + indent + "}"
    rows = [inner + _dumps(v, inner) for v in value]
    return "[\n" + ",\n".join(rows) + "\n" + indent + "]"


def _is_nested(value: Any) -> bool:
    """A non-empty list or object holding a list or object (written one entry per line)."""
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, (list, tuple)):
        items = value
    else:
        return False
    return bool({list, tuple, dict} & set(map(type, items)))


def save_puzzle(
    path: str | os.PathLike[str],
    puzzle: Puzzle,
    state: State | None = None,
    history: Sequence[Turn] = (),
    extra: Mapping[str, Any] | None = None,
) -> None:
    """Write the file atomically: a failed save leaves the previous file as it was."""
    write_atomic(Path(path), dumps_puzzle(puzzle, state, history, extra))


def write_atomic(path: Path, text: str) -> None:
    """Temporary file in the same folder, fsync, then ``os.replace`` (atomic on POSIX and Windows).

    A symbolic link is followed, so the file it points to is replaced, not the link.
    The temporary file is named ``.NAME.PID.XXXXXXXX.tmp``; those a killed save
    left in the folder are removed by the next save there (see
    :func:`remove_stale_temporaries`). A failure is a :class:`FileFormatError`
    naming ``path``, never the temporary file.
    """
    given = str(path)
    path = Path(os.path.realpath(path))
    if path.is_dir():
        raise FileFormatError("is a folder; give the name of the file to write", given)
    if not path.parent.is_dir():
        raise FileFormatError(f"cannot write: the folder {quoted(str(path.parent))} does not exist", given)
    remove_stale_temporaries(path.parent)
    tmp = None
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else _default_mode()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise FileFormatError(f"cannot write: {exc.strerror or exc}", given) from None
        raise


STALE_TEMPORARY_SECONDS = 60.0
"""A temporary file of a save untouched this long is left over from a killed save."""

_TEMPORARY = re.compile(r"\..+?\.(?:(\d+)\.)?[a-z0-9_]{8}\.tmp")
"""Our temporary files: ``.NAME.PID.XXXXXXXX.tmp`` (earlier versions wrote no ``PID.``)."""


def remove_stale_temporaries(folder: Path) -> int:
    """Delete the temporary files of saves into ``folder`` that were killed; how many.

    Only files of our naming are touched, and only when their writer process
    is gone or they have not changed for :data:`STALE_TEMPORARY_SECONDS`
    (a save in progress writes on); a file that cannot be examined is left.
    """
    removed = 0
    now = time.time()
    try:
        names = [e for e in os.scandir(folder) if e.name.endswith(".tmp") and e.name.startswith(".")]
    except OSError:
        return 0
    for entry in names:
        match = _TEMPORARY.fullmatch(entry.name)
        try:
            if not match or not entry.is_file(follow_symlinks=False):
                continue
            pid = int(match.group(1)) if match.group(1) else None
            if (pid is not None and not _process_alive(pid)) or now - entry.stat().st_mtime > STALE_TEMPORARY_SECONDS:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def _process_alive(pid: int) -> bool:
    """Whether a process of this id runs (one of another user counts as running)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def _default_mode() -> int:
    """Permissions of a newly created file (mkstemp makes it private; a puzzle file is not)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# -- reading -------------------------------------------------------------------
def load_puzzle(path: str | os.PathLike[str]) -> PuzzleFile:
    """Read and check a puzzle file; every problem is a :class:`FileFormatError` naming the file."""
    return loads_puzzle(read_text(path), str(path))


def read_text(path: str | os.PathLike[str], what: str = "file") -> str:
    """A UTF-8 text file, or standard input for ``-``, read through :func:`read_stream`.

    A missing, undecodable, binary or too large file is a :class:`FileFormatError`
    naming it (``what`` says what the file was meant to be).
    """
    if os.fspath(path) == "-":
        return read_stream(sys.stdin, STDIN)
    try:
        with open(path, "rb") as stream:
            return read_stream(stream, str(path), what)
    except OSError as exc:
        raise FileFormatError(f"cannot read the {what}: {exc.strerror or exc}", str(path)) from None


STDIN = "<stdin>"
"""How errors name standard input."""
_CHUNK = 1 << 20


def read_stream(stream: IO[bytes] | IO[str] | None, source: str, what: str = "file", limit: int | None = None) -> str:
    """The text of ``stream``, refused the moment it passes ``limit`` bytes, holds a NUL byte or stops being UTF-8.

    The one bounded reader of every text input: it reads in chunks, so
    ``/dev/zero`` or an endless pipe costs one chunk, never the memory. A
    text stream is read through its bytes (``sys.stdin.buffer``), so the
    terminal's encoding settings cannot raise a ``UnicodeDecodeError``; a
    byte-order mark is dropped. ``limit`` defaults to :data:`MAX_FILE_BYTES`.
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    if stream is None:
        raise FileFormatError(f"no {what} to read: standard input is closed", source)
    raw = getattr(stream, "buffer", stream)
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts: list[str] = []
    size = 0
    while True:
        chunk = raw.read(_CHUNK)
        if not chunk:
            break
        nul = chunk.find("\0" if isinstance(chunk, str) else b"\0")
        if nul >= 0:
            raise FileFormatError(f"binary data, not a text {what} (a NUL byte at byte {size + nul})", source)
        if isinstance(chunk, str):  # an already decoded stream (a StringIO)
            parts.append(chunk)
        else:
            pending = len(decoder.getstate()[0])
            try:
                parts.append(decoder.decode(chunk))
            except UnicodeDecodeError as exc:
                raise FileFormatError(f"not UTF-8 text (byte {size - pending + exc.start})", source) from None
        size += len(chunk)
        if size > limit:
            raise FileFormatError(f"larger than the {limit / 2**20:g} MiB a {what} may have (docs/limits.md)", source)
    try:
        parts.append(decoder.decode(b"", final=True))
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not UTF-8 text (byte {size - len(decoder.getstate()[0]) + exc.start})", source) from None
    return "".join(parts)


def loads_puzzle(text: str, source: str = "<data>") -> PuzzleFile:
    """Parse the text of a puzzle file; ``source`` names it in error messages."""
    return puzzle_from_dict(parse_json(text, source), source)


def parse_json(text: str, source: str) -> Any:
    """JSON within the limits of :mod:`hlavolamy.core.limits`, and only what survives a round trip.

    Refused: duplicate keys and NaN/Infinity (both lose or corrupt data
    silently), numbers too big to be finite, integers of more than
    :data:`MAX_INT_DIGITS` digits, nesting deeper than :data:`MAX_JSON_DEPTH`
    and lone surrogates in strings (text that cannot be printed or saved).
    """
    deep = json_too_deep(text)
    if deep is not None:
        raise FileFormatError(f"invalid JSON at {_line_column(text, deep)}: lists and objects nested "
                              f"more than {MAX_JSON_DEPTH} deep", source)
    huge_ints = _LONG_DIGITS.search(text) is not None
    try:
        value = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant,
                           parse_float=_finite_float, parse_int=_bounded_int if huge_ints else None)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", source) from None
    except _JsonValueError as exc:
        offset = text.find(exc.token) if exc.token else -1
        where = f" at {_line_column(text, offset)}" if offset >= 0 else ""
        raise FileFormatError(f"invalid JSON{where}: {exc}", source) from None
    if ("\\u" in text or not text.isascii()) and _SURROGATE_HINT.search(text):
        where = _lone_surrogate(value)
        if where is not None:
            raise FileFormatError("a lone surrogate (half of a UTF-16 pair) in a string: not text that can be "
                                  "printed or saved", source, where)
    return value


_LONG_DIGITS = re.compile("[0-9]{%d}" % (MAX_INT_DIGITS + 1))
"""Digits enough for an integer over the limit; only then is every integer checked (a hook costs time)."""
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
"""A surrogate character or escape: only then are the decoded strings searched for a lone one."""


def _line_column(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"line {line}, column {offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


class _JsonValueError(ValueError):
    def __init__(self, message: str, token: str = ""):
        super().__init__(message)
        self.token = token
        """The offending text, to find its line and column."""


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _JsonValueError(f"the integer {cut(digits, 30, 'digits')} has {len(digits.lstrip('-'))} digits; "
                              f"at most {MAX_INT_DIGITS} are allowed", digits)
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _JsonValueError(f"the number {cut(text, 30)} is too large", text)
    return value


def _lone_surrogate(value: Any) -> str | None:
    """The JSON pointer of the first string (or key) holding a lone surrogate, or None; no recursion."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return pointer(*where)
        elif isinstance(item, dict):
            for key, inner in item.items():
                if _SURROGATE.search(key):
                    return pointer(*where, key)
                stack.append((inner, (*where, key)))
        elif isinstance(item, list):
            stack.extend((inner, (*where, i)) for i, inner in enumerate(item) if isinstance(inner, (str, list, dict)))
    return None


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JsonValueError(f"the key {quoted(key)} appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise _JsonValueError(f"{name} is not a number JSON allows")


def puzzle_from_dict(data: Any, source: str = "<data>") -> PuzzleFile:
    """Check a decoded file and build the puzzle, position and history from it."""
    return _Reader(data, source).read()


def pointer(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901): ``pointer("moves", "R", 3)`` is ``/moves/R/3``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class _Reader:
    """Checks one decoded file section by section; errors carry the pointer of the bad value."""

    def __init__(self, data: Any, source: str):
        self.data = data
        self.source = source

    def fail(self, message: str, *where: str | int) -> FileFormatError:
        return FileFormatError(message, self.source, pointer(*where))

    def read(self) -> PuzzleFile:
        data = self.data
        if not isinstance(data, dict):
            raise self.fail(f"a puzzle file is a JSON object, not {_kind(data)}")
        self.header()
        n = self.typed("cells", int)
        if n < 1:
            raise self.fail(f"must be at least 1, not {n}", "cells")
        if n > MAX_CELLS:
            raise self.fail(f"{n} cells is over the limit of {MAX_CELLS}", "cells")
        colours = self.colours(n)
        moves = self.moves(n)
        puzzle = self.puzzle(colours, moves)
        state = self.position(puzzle)
        history = self.history(puzzle)
        extra = {k: v for k, v in data.items() if k not in KNOWN_KEYS}
        return PuzzleFile(puzzle, state, history, extra)

    def header(self) -> None:
        if "format" not in self.data:
            raise self.fail(f'missing key "format": not a Hlavolamy puzzle file (expected "format": "{FORMAT}")')
        if self.data["format"] != FORMAT:
            raise self.fail(f"expected {FORMAT!r}, found {quoted(self.data['format'])}: not a Hlavolamy puzzle file", "format")
        version = self.typed("version", int)
        if version > VERSION:
            raise self.fail(
                f"the file has format version {version}, written by a newer Hlavolamy; this one reads version {VERSION}",
                "version",
            )
        if version < 1:
            raise self.fail(f"unknown format version {version}; versions start at 1", "version")

    def typed(self, key: str, kind: type, default: Any = ..., container: Any = None, *where: str | int) -> Any:
        """``container[key]`` (the file by default), checked to be of ``kind``; missing: ``default`` or an error."""
        container = self.data if container is None else container
        if key not in container:
            if default is ...:
                raise self.fail(f"missing key {quoted(key)}", *where)
            return default
        value = container[key]
        if not _is_kind(value, kind):
            raise self.fail(f"must be {_KIND_NAMES[kind]}, not {_kind(value)}", *where, key)
        return value

    def colours(self, n: int) -> list[str]:
        colours = self.typed("colours", list)
        if len(colours) != n:
            raise self.fail(f'has {len(colours)} labels but "cells" is {n}; give one colour per cell', "colours")
        bad = _first_not(colours, str)
        if bad is not None:
            raise self.fail(f"a colour label must be a string, not {_kind(colours[bad])}", "colours", bad)
        return colours

    def moves(self, n: int) -> dict[str, np.ndarray]:
        raw = self.typed("moves", dict)
        if not raw:
            raise self.fail("a puzzle needs at least one move", "moves")
        return {name: self.perm(values, n, "moves", name) for name, values in raw.items()}

    def perm(self, values: Any, n: int, *where: str | int) -> np.ndarray:
        """A permutation of ``0..n-1`` as a list of integers; the error points at the bad entry."""
        if not isinstance(values, list):
            raise self.fail(f"must be a list of {n} cell indices, not {_kind(values)}", *where)
        bad = _first_not(values, int)
        if bad is not None:
            raise self.fail(f"must be a cell index (an integer), not {_kind(values[bad])}", *where, bad)
        if len(values) != n:
            raise self.fail(f"has {len(values)} entries; a permutation of the {n} cells has {n}", *where)
        try:
            arr = np.array(values, dtype=np.int64)
            out_of_range = np.flatnonzero((arr < 0) | (arr >= n))
        except OverflowError:  # beyond 64 bits: surely out of range
            out_of_range = np.flatnonzero([not 0 <= v < n for v in values])
        if out_of_range.size:
            i = int(out_of_range[0])
            raise self.fail(f"{values[i]} is out of range: cells are 0..{n - 1}", *where, i)
        _, first = np.unique(arr, return_index=True)
        if first.size != n:
            seen_earlier = np.ones(n, dtype=bool)
            seen_earlier[first] = False
            i = int(np.flatnonzero(seen_earlier)[0])
            earlier = values.index(values[i])
            raise self.fail(
                f"{values[i]} appears twice (also at entry {earlier}): not a permutation, "
                f"each cell must appear exactly once",
                *where,
                i,
            )
        return arr

    def cells(self, values: Any, *where: str | int) -> list[int]:
        """A JSON list of integers (blockings, turned parts); :class:`Puzzle` checks them as cells."""
        if not isinstance(values, list):
            raise self.fail(f"must be a list of cell indices, not {_kind(values)}", *where)
        for i, c in enumerate(values):
            if not _is_kind(c, int):
                raise self.fail(f"must be a cell index (an integer), not {_kind(c)}", *where, i)
        return values

    def puzzle(self, colours: list[str], moves: dict[str, np.ndarray]) -> Puzzle:
        n = len(colours)
        kwargs = {
            "name": self.typed("name", str, ""),
            "description": self.typed("description", str, ""),
            "palette": self.palette(),
            "aliases": self.aliases(),
            "blockings": self.blockings(),
            "turned_parts": self.turned_parts(),
            "plugin": self.plugin(),
            "cell_data": self.cell_data(n),
        }
        try:
            return Puzzle(colours, moves, **kwargs)
        except PuzzleError as exc:  # the model's own rules, with the place they point at
            raise self.fail(exc.detail if exc.location else str(exc), *exc.location) from None
        except HlavolamyError as exc:
            raise self.fail(str(exc)) from None

    def palette(self) -> dict[str, str]:
        palette = self.typed("palette", dict, {})
        for label, colour in palette.items():
            if not isinstance(colour, str) or not _HEX_COLOUR.fullmatch(colour):
                raise self.fail(f'must be a colour "#rrggbb", not {quoted(colour)}', "palette", label)
        return palette

    def aliases(self) -> dict[str, str]:
        aliases = self.typed("aliases", dict, {})
        for name, text in aliases.items():
            if not isinstance(text, str):
                raise self.fail(f"an alias is notation text, not {_kind(text)}", "aliases", name)
        return aliases

    def blockings(self) -> list[list[int]]:
        blockings = self.typed("blockings", list, [])
        for k, fused in enumerate(blockings):
            self.cells(fused, "blockings", k)
        return blockings

    def turned_parts(self) -> dict[str, list[int]]:
        parts = self.typed("turned_parts", dict, {})
        for name, cells in parts.items():
            self.cells(cells, "turned_parts", name)
        return parts

    def plugin(self) -> PluginRecord | None:
        record = self.typed("plugin", dict, None)
        if record is None:
            return None
        name = self.typed("name", str, ..., record, "plugin")
        data = self.typed("data", dict, {}, record, "plugin")
        return PluginRecord(name, data)

    def cell_data(self, n: int) -> list[dict[str, Any]] | None:
        cell_data = self.typed("cell_data", list, None)
        if cell_data is None:
            return None
        if len(cell_data) != n:
            raise self.fail(f'has {len(cell_data)} entries but "cells" is {n}; give one object per cell', "cell_data")
        bad = _first_not(cell_data, dict)
        if bad is not None:
            raise self.fail(f"must be an object, not {_kind(cell_data[bad])}", "cell_data", bad)
        return cell_data

    def position(self, puzzle: Puzzle) -> State | None:
        if "position" not in self.data:
            return None
        return State(puzzle, self.perm(self.data["position"], puzzle.n_cells, "position"))

    def history(self, puzzle: Puzzle) -> list[Turn]:
        text = self.typed("history", str, "")
        try:
            return puzzle.parse(text)
        except HlavolamyError as exc:
            raise self.fail(str(exc), "history") from None


_KIND_NAMES = {int: "an integer", str: "a string", list: "a list", dict: "an object"}


def _is_kind(value: Any, kind: type) -> bool:
    """JSON type check; ``true`` is not an integer."""
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


def _first_not(values: list[Any], kind: type) -> int | None:
    """Index of the first entry not of ``kind``, or None; one fast pass for the common all-good case."""
    if set(map(type, values)) <= {kind}:
        return None
    return next(i for i, v in enumerate(values) if type(v) is not kind)


def _kind(value: Any) -> str:
    """How a JSON value reads in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {quoted(value)}"
    if isinstance(value, str):
        return f"the string {quoted(value)}" if len(value) < 40 else "a string"
    return {list: "a list", dict: "an object"}.get(type(value), type(value).__name__)

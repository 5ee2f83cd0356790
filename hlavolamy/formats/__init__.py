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

Formats are records a plugin returns from its ``hlavolamy_formats`` hook; the
built-in ones too (:mod:`~hlavolamy.formats.builtin`, loaded here first, so they
keep their names). The plugin host adds each plugin's with :func:`add_plugin`;
:func:`provider` says which plugin gave a format (``docs/plugins.md``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pluggy

from hlavolamy.core.fileformat import PuzzleFile
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.records import Records, Rejected
from hlavolamy.errors import FileFormatError, quoted


@dataclass(frozen=True)
class Option:
    """A keyword option of a format: ``kind`` is ``str``, ``bool`` or ``"path"`` (a file to pick)."""

    name: str
    help: str
    kind: Any = str


@dataclass(frozen=True)
class Format:
    """One interchange format. ``load``/``dump`` are functions, or name one as ``module:function``
    (imported on first use; a bare module name is one of this package)."""

    name: str
    description: str
    suffixes: tuple[str, ...]
    load: str | Callable[..., Any] | None
    dump: str | Callable[..., Any] | None
    options: tuple[Option, ...] = ()
    whole_file: bool = False
    """``dump`` takes the whole :class:`PuzzleFile` (it writes the history), not just the puzzle."""

    @property
    def can_import(self) -> bool:
        return self.load is not None

    @property
    def can_export(self) -> bool:
        return self.dump is not None


hookimpl = pluggy.HookimplMarker("hlavolamy")
"""Marks a plugin's ``hlavolamy_formats`` (the same project as :data:`hlavolamy.plugins.hookimpl`)."""
BUILTIN = "hlavolamy.formats.builtin"
"""The module of the built-in formats, a plugin like any other."""


def _check(record: Format) -> str | None:
    """What is wrong with a format beyond its type and name, or None."""
    if record.load is None and record.dump is None:
        return f"format {record.name!r} can neither import nor export (load and dump are both None)"
    for role in ("load", "dump"):
        spec = getattr(record, role)
        if spec is not None and not callable(spec) and not (isinstance(spec, str) and spec.count(":") == 1):
            return f"format {record.name!r}: {role} must be a function or 'module:function', not {spec!r:.80}"
    if not isinstance(record.suffixes, tuple) or not all(isinstance(x, str) for x in record.suffixes):
        return f"format {record.name!r}: suffixes must be a tuple of strings"
    if not isinstance(record.options, tuple) or not all(isinstance(o, Option) for o in record.options):
        return f"format {record.name!r}: options must be a tuple of Option"
    for option in record.options:
        if option.name in ("name", "path"):
            return f"format {record.name!r}: option name {option.name!r} is taken by import_file itself"
    return None


_FORMATS = Records("format", "hlavolamy_formats", Format, _check)
FORMATS: dict[str, Format] = _FORMATS.records
"""Every format by name, in menu order: the built-in ones (:mod:`~hlavolamy.formats.builtin`), then plugins'."""


def add_plugin(plugin: object, name: str, source: str) -> list[Rejected]:
    """Register the formats ``plugin.hlavolamy_formats()`` returns; what was refused comes back (never raises).

    A name already taken is refused (the first format keeps it); formats of an
    earlier plugin of the same ``name`` (a reload) are dropped first.
    """
    return _FORMATS.add_plugin(plugin, name, source)


def forget_plugins() -> None:
    """Drop every plugin's formats but the built-in ones (a new plugin host starts from these)."""
    _FORMATS.forget_plugins_but(BUILTIN)


def provider(name: str) -> str:
    """The plugin that provided the format ``name``."""
    return _FORMATS.provider(name)


def rejected() -> tuple[Rejected, ...]:
    """Every format refused so far (name clashes, hooks that raised or returned something else)."""
    return tuple(_FORMATS.rejected)


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


def _function(spec: str | Callable[..., Any]) -> Callable[..., Any]:
    """A plugin's function as it is; ``"module:function"`` imported (a bare module name is one of this package)."""
    if callable(spec):
        return spec
    module, function = spec.split(":")
    return getattr(importlib.import_module(module if "." in module else f"hlavolamy.formats.{module}"), function)


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


for _refused in add_plugin(importlib.import_module(BUILTIN), BUILTIN, "built-in"):
    raise ImportError(f"built-in formats: {_refused.error}")

__all__ = ["FORMATS", "Format", "Option", "Rejected", "add_plugin", "export_file", "forget_plugins",
           "get", "guess", "hookimpl", "import_file", "provider", "rejected"]

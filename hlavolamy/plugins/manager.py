"""The plugin host: finds geometry plugins, loads them, and keeps the ones that work.

Plugins come from two places, searched in this order (the first plugin of a
name wins; a later one of the same name is reported as shadowed):

1. plugin folders, each holding modules (``name.py``) or packages
   (``name/__init__.py``): the folders in ``$HLAVOLAMY_PLUGIN_PATH``
   (``os.pathsep`` separated), the per-user folder
   ``$XDG_DATA_HOME/hlavolamy/plugins`` (default
   ``~/.local/share/hlavolamy/plugins``) and the repository's ``plugins/``
   folder next to the ``hlavolamy`` package;
2. installed distributions that declare an entry point in the group
   ``hlavolamy.plugins``.

Folder plugins are imported under a private module name
(``hlavolamy_plugin_<name>``) so they never clash with installed packages,
and packages keep working relative imports.

A plugin that fails (import error, a hook that raises, a record that is not
a :class:`Geometry`, a geometry name already taken, parameters the host
cannot offer) is logged, recorded in :attr:`PluginHost.failures` and
skipped: one broken plugin never takes the program down. A geometry that
fails later, while building a puzzle, is contained by :func:`build_puzzle`.

A plugin that takes :data:`SLOW_LOAD_SECONDS` or more to load is named with
its time (:attr:`PluginHost.slow`, a warning, ``hlavolamy plugins``), and a
user can skip any plugin by name without removing it:
``HLAVOLAMY_DISABLE_PLUGINS=name,other`` (docs/plugins.md).
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import importlib.util
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pluggy

import hlavolamy
from hlavolamy.core.fileformat import PuzzleFile
from hlavolamy.core.puzzle import PluginRecord, Puzzle, copy_puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError, PuzzleError, quoted
from hlavolamy.plugins import hookspecs
from hlavolamy.plugins.hookspecs import Geometry, Parameter
from hlavolamy.plugins.recognise import borrowed_palette, move_correspondence

if TYPE_CHECKING:
    from hlavolamy.formats import Format
    from hlavolamy.solve.registry import Strategy

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "hlavolamy.plugins"
PATH_VARIABLE = "HLAVOLAMY_PLUGIN_PATH"
MODULE_PREFIX = "hlavolamy_plugin_"
DISABLE_VARIABLE = "HLAVOLAMY_DISABLE_PLUGINS"
"""Plugins named here (comma or space separated) are not imported at all."""
SLOW_LOAD_SECONDS = 1.0
"""A plugin whose import and geometry hook take this long is reported as slow: every command that
needs the plugins waits for it (the host loads in well under a second without it)."""


PARAMETER_KINDS = (int, float, str, bool)
"""The types a :class:`Parameter` may have (a form field and a command-line option exist for each)."""
RESERVED_PARAMETERS = frozenset({"output", "help"})
"""Names the host's own options take (``hlavolamy new GEOMETRY -o FILE``, ``--help``)."""


class UnknownGeometryError(HlavolamyError):
    """A geometry was asked for that no loaded plugin provides."""


class PluginError(HlavolamyError):
    """A loaded plugin failed at work: its geometry raised or returned something that is not a puzzle."""


def build_puzzle(geometry: Geometry, params: Mapping[str, Any]) -> Puzzle:
    """``geometry.build`` with ``params`` coerced, its failures contained.

    A ``ValueError`` is the plugin refusing a value (it names the parameter)
    and becomes a :class:`PuzzleError`; any other exception, or a result that
    is not a :class:`Puzzle`, is a :class:`PluginError` naming the geometry.
    """
    try:
        puzzle = geometry.build(**geometry.coerce(params))
    except HlavolamyError:
        raise
    except ValueError as exc:
        raise PuzzleError(f"{geometry.name}: {exc}") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - foreign code's errors are reported, not raised
        log.info("geometry %s failed to build", geometry.name, exc_info=exc)
        raise PluginError(f"geometry {quoted(geometry.name)} failed to build a puzzle: {_describe(exc)}") from None
    if not isinstance(puzzle, Puzzle):
        raise PluginError(f"geometry {quoted(geometry.name)} returned {type(puzzle).__name__} {quoted(puzzle)} "
                          "from build, not a Puzzle")
    return puzzle


@dataclass(frozen=True)
class PluginFailure:
    """A plugin (or one of its records) that was skipped, and why."""

    name: str
    source: str
    error: str


@dataclass(frozen=True)
class LoadedPlugin:
    """A plugin that loaded, where it came from and what it provides."""

    name: str
    source: str
    geometries: tuple[str, ...]
    strategies: tuple[str, ...] = ()
    """Solving strategies (and shortening passes, as ``pass NAME``) it added to :mod:`hlavolamy.solve.registry`."""
    formats: tuple[str, ...] = ()
    """File formats it added to :mod:`hlavolamy.formats`."""


@dataclass(frozen=True)
class SlowPlugin:
    """A plugin (loaded or failed) that took :data:`SLOW_LOAD_SECONDS` or more to load."""

    name: str
    source: str
    seconds: float


@dataclass(frozen=True)
class _Candidate:
    """A plugin found but not yet imported: ``load`` imports it (and may raise)."""

    name: str
    source: str
    load: Callable[[], object]


class PluginHost:
    """Loaded plugins, the geometries they provide and the plugins that failed.

    ``folders`` defaults to :func:`default_folders`; ``entry_points=False``
    skips installed distributions (tests, or a locked-down run).
    ``disabled`` names plugins not to import (default: :func:`disabled_names`);
    ``clock`` times each load (tests pass a fake one).
    """

    def __init__(self, folders: Sequence[Path] | None = None, *, entry_points: bool = True,
                 disabled: Iterable[str] | None = None, clock: Callable[[], float] = time.perf_counter):
        self.manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.manager.add_hookspecs(hookspecs)
        self.geometries: dict[str, Geometry] = {}
        self.failures: list[PluginFailure] = []
        self.plugins: list[LoadedPlugin] = []
        self.slow: list[SlowPlugin] = []
        self.disabled: list[PluginFailure] = []
        """Plugins found but not imported, because :data:`DISABLE_VARIABLE` (or ``disabled``) names them."""
        self._skip = frozenset(disabled_names() if disabled is None else disabled)
        self._clock = clock
        self._geometry_owner: dict[str, str] = {}
        self._plugin_source: dict[str, str] = {}
        _forget_earlier_records()
        candidates = folder_candidates(default_folders() if folders is None else folders)
        if entry_points:
            candidates += entry_point_candidates()
        for candidate in candidates:
            self._load(candidate)

    # -- queries -------------------------------------------------------------
    def strategies(self) -> tuple[Strategy, ...]:
        """Every solving strategy, ``auto`` first: the built-in plugin's and those of the plugins this host loaded.

        What a list of strategies offers (the app's Solve page): asked of the
        host, it cannot be built before the plugins have added theirs. (The
        registries hold the newest host's plugins: a new host replaces them.)
        """
        from hlavolamy.solve import registry

        return tuple(registry.strategy(name) for name in registry.names())

    def formats(self) -> tuple[Format, ...]:
        """Every file format in menu order: the built-in ones, then those of the plugins this host loaded."""
        from hlavolamy import formats

        return tuple(formats.FORMATS.values())

    def geometry(self, name: str) -> Geometry:
        """The geometry called ``name``; the error lists the known names."""
        try:
            return self.geometries[name]
        except KeyError:
            known = ", ".join(sorted(self.geometries)) or "none (no plugin loaded)"
            raise UnknownGeometryError(f"unknown geometry {quoted(name)}; the known geometries are: {known}") from None

    def recognise(self, puzzle: Puzzle) -> PluginRecord | None:
        """The record of the first proposed geometry whose moves are the puzzle's (names and inverses aside).

        Plugins are asked in load order; a plugin whose hook raises is logged and
        passed over, and so is a proposal naming a geometry of another plugin (or
        none) or data its geometry refuses.
        """
        for impl in self.manager.hook.hlavolamy_recognise.get_hookimpls():
            try:
                proposals = _as_records(impl.function(puzzle=puzzle))
            except Exception as exc:  # noqa: BLE001 - foreign code's errors are reported, not raised
                log.warning("plugin %s: hlavolamy_recognise raised %s; skipped", impl.plugin_name, _describe(exc))
                continue
            for record in proposals:
                if self._geometry_owner.get(record.name) == impl.plugin_name and self._fits(record, puzzle):
                    return record
        return None

    def _fits(self, record: PluginRecord, puzzle: Puzzle) -> bool:
        """The record's geometry rebuilds the puzzle's moves (names and directions aside)."""
        geometry = self.geometries[record.name]
        try:
            native = geometry.moves(geometry.load_data(record.data))
        except (ValueError, HlavolamyError) as exc:
            log.warning("geometry %s refused its own proposal %r: %s", record.name, dict(record.data), exc)
            return False
        return move_correspondence(native, puzzle) is not None

    # -- loading -------------------------------------------------------------
    def _load(self, candidate: _Candidate) -> None:
        """Load one candidate (unless disabled), timing it: a slow plugin is named whether it loads or fails."""
        if candidate.name in self._skip:
            self.disabled.append(PluginFailure(candidate.name, candidate.source, f"disabled by {DISABLE_VARIABLE}"))
            return
        started = self._clock()
        try:
            self._load_timed(candidate)
        finally:
            seconds = self._clock() - started
            if seconds >= SLOW_LOAD_SECONDS:
                self.slow.append(SlowPlugin(candidate.name, candidate.source, seconds))
                log.warning("plugin %s (%s) took %.1f s to load; every command that loads plugins waits for it "
                            "(%s=%s skips it)", candidate.name, candidate.source, seconds, DISABLE_VARIABLE,
                            candidate.name)

    def load_seconds(self, name: str) -> float | None:
        """How long the plugin ``name`` took to load, if it was slow (see :data:`SLOW_LOAD_SECONDS`)."""
        return next((s.seconds for s in self.slow if s.name == name), None)

    def _load_timed(self, candidate: _Candidate) -> None:
        if candidate.name in self._plugin_source:
            first = self._plugin_source[candidate.name]
            self._fail(candidate.name, candidate.source, f"shadowed by the plugin of the same name from {first}")
            return
        try:
            plugin = candidate.load()
            self._register(candidate.name, plugin)
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - foreign code's errors are reported, not raised
            self._fail(candidate.name, candidate.source, _describe(exc))
            return
        try:
            records = self._call_hook(plugin)
        except (Exception, SystemExit) as exc:  # noqa: BLE001
            self.manager.unregister(plugin)
            message = str(exc) if isinstance(exc, _BadResult) else f"hlavolamy_geometries raised {_describe(exc)}"
            self._fail(candidate.name, candidate.source, message)
            return
        self._plugin_source[candidate.name] = candidate.source
        names = []
        for record in records:
            error = self._check_record(record)
            if error:
                self._fail(candidate.name, candidate.source, error)
                continue
            self.geometries[record.name] = record
            self._geometry_owner[record.name] = candidate.name
            names.append(record.name)
        strategies, formats = self._add_records(candidate, plugin)
        self.plugins.append(LoadedPlugin(candidate.name, candidate.source, tuple(names), strategies, formats))

    def _add_records(self, candidate: _Candidate, plugin: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Feed the plugin's strategies, passes and formats to their registries; what they refuse is a failure.

        The solver is imported only for a plugin that has strategies or passes.
        """
        strategies: list[str] = []
        formats: list[str] = []
        refused = []
        if hasattr(plugin, "hlavolamy_formats"):
            from hlavolamy import formats as registry

            refused += registry.add_plugin(plugin, candidate.name, candidate.source)
            formats = [f for f in registry.FORMATS if registry.provider(f) == candidate.name]
        if hasattr(plugin, "hlavolamy_strategies") or hasattr(plugin, "hlavolamy_passes"):
            from hlavolamy.solve import registry as solvers

            refused += solvers.add_plugin(plugin, candidate.name, candidate.source)
            strategies = [n for n in solvers.names() if solvers.provider(n) == candidate.name]
            strategies += [f"pass {p.name}" for p in solvers.passes() if solvers.provider(p.name, "pass") == candidate.name]
        for r in refused:
            self.failures.append(PluginFailure(r.plugin, r.source, r.error))
        return tuple(strategies), tuple(formats)

    def _register(self, name: str, plugin: object) -> None:
        """Register with pluggy, refusing hooks the contract does not know (a typo)."""
        self.manager.register(plugin, name=name)
        callers = self.manager.get_hookcallers(plugin) or []
        unknown = [caller.name for caller in callers if caller.spec is None]
        if unknown or not callers:
            self.manager.unregister(plugin)
            problem = f"implements unknown hook(s) {', '.join(unknown)}" if unknown else "has no @hookimpl function"
            raise pluggy.PluginValidationError(plugin, f"{problem}; expected one of {', '.join(HOOKS)}")

    def _call_hook(self, plugin: object) -> list[object]:
        """Call this plugin's geometry hook alone, so its failure cannot hide the others."""
        records: list[object] = []
        for impl in self.manager.hook.hlavolamy_geometries.get_hookimpls():
            if impl.plugin is plugin:
                records.extend(_as_iterable(impl.function()))
        return records

    def _check_record(self, record: object) -> str | None:
        if not isinstance(record, Geometry):
            return f"hlavolamy_geometries returned {type(record).__name__} {quoted(record)}, not a Geometry"
        if not isinstance(record.name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", record.name):
            return f"geometry name {quoted(record.name)} is not a word (letters, digits, '_', '-')"
        if record.name in self.geometries:
            return f"geometry {quoted(record.name)} is already provided by plugin {quoted(self._geometry_owner[record.name])}"
        return _parameters_problem(record)

    def _fail(self, name: str, source: str, error: str) -> None:
        log.warning("plugin %s (%s): %s; skipped", name, source, error)
        self.failures.append(PluginFailure(name, source, error))


HOOKS = ("hlavolamy_geometries", "hlavolamy_recognise", "hlavolamy_strategies", "hlavolamy_passes", "hlavolamy_formats")
"""Every hook a plugin may implement (:mod:`hlavolamy.plugins.hookspecs`)."""


def _forget_earlier_records() -> None:
    """Drop the strategies, passes and formats an earlier host took from plugins: this host loads them again."""
    if "hlavolamy.formats" in sys.modules:
        sys.modules["hlavolamy.formats"].forget_plugins()
    if "hlavolamy.solve.registry" in sys.modules:
        sys.modules["hlavolamy.solve.registry"].forget_plugins()


def _parameters_problem(record: Geometry) -> str | None:
    """Why the geometry's parameters cannot become a form and command-line options, or None."""
    parameters = record.parameters
    if not isinstance(parameters, (tuple, list)):
        return f"geometry {quoted(record.name)}: parameters must be a tuple of Parameter, not {type(parameters).__name__}"
    options: set[str] = set()
    for p in parameters:
        if not isinstance(p, Parameter):
            return f"geometry {quoted(record.name)}: parameter {quoted(p)} is not a Parameter"
        if not isinstance(p.name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", p.name):
            return f"geometry {quoted(record.name)}: parameter name {quoted(p.name)} is not a word (letters, digits, '_')"
        if p.name in RESERVED_PARAMETERS:
            return f"geometry {quoted(record.name)}: parameter name {quoted(p.name)} is taken by the host's own --{p.name}"
        option = p.name.replace("_", "-")
        if option in options:
            return f"geometry {quoted(record.name)}: two parameters are both --{option}"
        options.add(option)
        if p.kind not in PARAMETER_KINDS:
            return f"geometry {quoted(record.name)}: parameter {quoted(p.name)} has kind {quoted(p.kind)}; use int, float, str or bool"
    return None


# -- discovery -------------------------------------------------------------------
def disabled_names() -> frozenset[str]:
    """The plugins ``$HLAVOLAMY_DISABLE_PLUGINS`` names (comma or space separated)."""
    return frozenset(re.split(r"[,\s]+", os.environ.get(DISABLE_VARIABLE, "").strip())) - {""}


def default_folders() -> list[Path]:
    """Plugin folders in search order: ``$HLAVOLAMY_PLUGIN_PATH``, the user's, the repository's."""
    folders = [Path(p).expanduser() for p in os.environ.get(PATH_VARIABLE, "").split(os.pathsep) if p]
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    folders.append(Path(data_home) / "hlavolamy" / "plugins")
    folders.append(Path(hlavolamy.__file__).resolve().parents[1] / "plugins")
    return folders


def folder_candidates(folders: Iterable[Path]) -> list[_Candidate]:
    """Modules and packages in the folders (names starting with ``_`` or ``.`` are private)."""
    out: list[_Candidate] = []
    seen: set[Path] = set()
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir() or folder.resolve() in seen:
            continue
        seen.add(folder.resolve())
        for entry in sorted(folder.iterdir()):
            if entry.name.startswith(("_", ".")):
                continue
            if entry.is_dir() and (entry / "__init__.py").is_file():
                out.append(_Candidate(entry.name, str(entry), _folder_loader(entry.name, entry / "__init__.py", entry)))
            elif entry.is_file() and entry.suffix == ".py":
                out.append(_Candidate(entry.stem, str(entry), _folder_loader(entry.stem, entry, None)))
    return out


def _folder_loader(name: str, file: Path, package_dir: Path | None) -> Callable[[], ModuleType]:
    return lambda: import_from_path(name, file, package_dir)


def import_from_path(name: str, file: Path, package_dir: Path | None = None) -> ModuleType:
    """Import a plugin file (or package ``__init__.py``) as ``hlavolamy_plugin_<name>``.

    Any earlier module of that name (and its submodules) is dropped first, so
    reloading the host reads the files again.
    """
    module_name = MODULE_PREFIX + re.sub(r"\W", "_", name)
    for loaded in [m for m in sys.modules if m == module_name or m.startswith(module_name + ".")]:
        del sys.modules[loaded]
    locations = [str(package_dir)] if package_dir is not None else None
    spec = importlib.util.spec_from_file_location(module_name, file, submodule_search_locations=locations)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {file}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def entry_point_candidates() -> list[_Candidate]:
    """Entry points in the group ``hlavolamy.plugins`` (each name once)."""
    out: list[_Candidate] = []
    seen: set[str] = set()
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in seen:
            continue
        seen.add(ep.name)
        dist = getattr(ep, "dist", None)
        where = f" in {dist.name} {dist.version}" if dist is not None else ""
        out.append(_Candidate(ep.name, f"entry point {ep.value}{where}", ep.load))
    return out


# -- helpers ---------------------------------------------------------------------
class _BadResult(TypeError):
    """The hook returned something that is not a collection of geometries."""


def _as_iterable(result: object) -> Iterable[object]:
    if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
        what = f"{type(result).__name__} {quoted(result)}"
        raise _BadResult(f"hlavolamy_geometries returned {what}, not a list of Geometry")
    return result


def _as_records(result: object) -> list[PluginRecord]:
    """A recognise hook's answer as a list of records (one record, several, or None)."""
    if result is None:
        return []
    if isinstance(result, PluginRecord):
        return [result]
    if isinstance(result, (str, bytes)) or not isinstance(result, Iterable):
        raise TypeError(f"returned {type(result).__name__} {quoted(result)}, not plugin records")
    records = list(result)
    return [r for r in records if isinstance(r, PluginRecord)]


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


_host: PluginHost | None = None


def get_plugin_host(reload: bool = False) -> PluginHost:
    """The process-wide plugin host, loaded on first use (``reload=True`` reads the plugins again)."""
    global _host
    if _host is None or reload:
        _host = PluginHost()
    return _host


def puzzle_geometry(puzzle: Puzzle, host: PluginHost | None = None) -> Geometry | None:
    """The geometry that made ``puzzle``, or None (no plugin record, or the plugin is missing).

    The puzzle still plays and solves from its permutations; only drawing and
    the designer need the geometry.
    """
    if puzzle.plugin is None:
        return None
    return (host or get_plugin_host()).geometries.get(puzzle.plugin.name)


def attach_geometry(loaded: PuzzleFile, host: PluginHost | None = None) -> PuzzleFile:
    """``loaded`` with the plugin record of the geometry that draws its puzzle, when a plugin recognises it.

    The puzzle also borrows the geometry's screen colours where its colouring
    matches the geometry's own cell for cell (:func:`borrowed_palette`). A
    puzzle that has a record already, or that no plugin recognises, comes back as it is.
    """
    puzzle = loaded.puzzle
    if puzzle.plugin is not None:
        return loaded
    record = (host or get_plugin_host()).recognise(puzzle)
    if record is None:
        return loaded
    puzzle = copy_puzzle(puzzle, plugin=record, palette={**puzzle.palette, **_native_palette(puzzle, record, host)})
    state = None if loaded.state is None else State(puzzle, loaded.state.perm)
    return dataclasses.replace(loaded, puzzle=puzzle, state=state)


def _native_palette(puzzle: Puzzle, record: PluginRecord, host: PluginHost | None) -> dict[str, str]:
    """The colours :func:`borrowed_palette` finds, from the geometry built with the record's data as parameters."""
    geometry = (host or get_plugin_host()).geometries[record.name]
    try:
        native = geometry.build(**record.data)
    except Exception:  # noqa: BLE001 - data that are not parameters (or a failing plugin): no colours borrowed
        return {}
    return borrowed_palette(puzzle, native)

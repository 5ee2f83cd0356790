"""The plugin contract: every hook the host calls, and the records they return.

A geometry plugin is a module (or package) with functions marked
``@hookimpl``. It registers geometries by returning :class:`Geometry` objects
from :func:`hlavolamy_geometries`; everything else (building a puzzle from
parameters, emitting move permutations, reading and writing its data, drawing
a state, hit-testing the mouse, the designer tools) is a method of that
object. The host never imports Qt for the core: only the objects returned by
:meth:`Geometry.view` and :meth:`Geometry.designer` touch Qt, and a plugin
imports Qt inside them.

A second, optional hook, :func:`hlavolamy_recognise`, lets a plugin claim a
puzzle made elsewhere (an import): it proposes geometry data, the host
checks the proposal against the puzzle's moves and attaches the record.

Three more optional hooks add to the program's other registries, which
register their built-in records through the very same hooks
(:mod:`hlavolamy.solve.builtin`, :mod:`hlavolamy.formats.builtin`):
:func:`hlavolamy_strategies` and :func:`hlavolamy_passes` return solver
records (:class:`hlavolamy.solve.registry.Strategy`, ``Pass``),
:func:`hlavolamy_formats` file formats
(:class:`hlavolamy.formats.Format`). A name already taken is refused and the
first record keeps it; a hook that raises or returns something else is
skipped; both are listed by ``hlavolamy plugins``.

See ``docs/plugins.md`` for a worked example.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pluggy

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.errors import quoted

if TYPE_CHECKING:  # Qt types only for annotations: the core never imports Qt.
    from PyQt6.QtCore import QRectF
    from PyQt6.QtGui import QPainter

    from hlavolamy.core.progress import CancelToken, ProgressCallback
    from hlavolamy.core.state import State
    from hlavolamy.formats import Format
    from hlavolamy.solve.registry import Pass, Strategy

PROJECT = "hlavolamy"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True)
class Parameter:
    """One parameter of a geometry's "New puzzle" form (``hlavolamy new cubes --size 4``)."""

    name: str
    kind: type = int
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""
    choices: tuple[Any, ...] = ()

    def coerce(self, value: Any) -> Any:
        """Convert and range-check a value (from the CLI or a form); ValueError names the parameter."""
        try:
            out = self.kind(value) if not isinstance(value, self.kind) else value
        except (TypeError, ValueError):
            raise ValueError(f"parameter {quoted(self.name)}: {quoted(value)} is not a {self.kind.__name__}") from None
        if self.minimum is not None and out < self.minimum:
            raise ValueError(f"parameter {quoted(self.name)}: {out} is below the minimum {self.minimum}")
        if self.maximum is not None and out > self.maximum:
            raise ValueError(f"parameter {quoted(self.name)}: {out} is above the maximum {self.maximum}")
        if self.choices and out not in self.choices:
            raise ValueError(f"parameter {quoted(self.name)}: {quoted(out)} is not one of {list(self.choices)}")
        return out


@dataclass
class DrawOptions:
    """What the host asks a view to show besides the state's colours."""

    show_numbers: bool = False
    highlight: frozenset[int] = frozenset()
    """Positions to emphasise (an orbit or block selected in the Info panel)."""
    hover: tuple[float, float] | None = None
    """Mouse position in widget coordinates, to highlight the move handle under it."""
    colours: Mapping[str, str] = field(default_factory=dict)
    """Colour label -> ``#rrggbb``; labels not here get the view's own choice."""
    dark: bool = False
    """The application palette is dark; draw outlines accordingly."""


@dataclass(frozen=True)
class MoveHit:
    """A move handle under the mouse: play ``move`` to ``power`` (``-1`` for the inverse)."""

    move: str
    power: int = 1


class View(ABC):
    """Draws states of one puzzle and maps mouse points back to cells and moves.

    Coordinates are widget coordinates of the last :meth:`paint` call's ``rect``.
    """

    @abstractmethod
    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        """Draw ``state`` into ``rect`` with an antialiased painter."""

    @abstractmethod
    def cell_at(self, x: float, y: float) -> int | None:
        """The position (cell index) under the point, or None."""

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """The move a click at the point plays (``button`` is ``"left"`` or ``"right"``), or None."""
        return None

    def drag(self, dx: float, dy: float) -> bool:
        """Mouse drag on empty space (a 3D view turns); True when the view changed."""
        return False


@dataclass(frozen=True)
class Tool:
    """A designer tool shown in the Fields tab's tool bar."""

    id: str
    label: str
    tooltip: str = ""
    instant: bool = False
    """Acts on the whole design (no point): the host runs it when its button is pressed,
    as ``press(id, 0, 0)`` then ``release(id, 0, 0)``, instead of waiting for a click on the drawing."""


@dataclass(frozen=True)
class DesignWork:
    """Long work a design needs before :meth:`Designer.build` answers at once (a jumbling closure).

    A host with a GUI runs ``job(progress, cancel)`` in a worker thread and
    asks :meth:`Designer.build` again once it succeeded: the designer keeps
    the result itself, keyed by ``key``, so a result can only ever serve the
    design it was computed for. Without such a host, :meth:`Designer.build`
    does the work itself.
    """

    name: str
    """What runs, for the progress bar ("Closing the cuts")."""
    key: Hashable
    """What the work depends on: a later edit with the same key needs no new run."""
    job: Callable[[ProgressCallback, CancelToken], None]
    """Runs in a worker thread: reads only frozen inputs, never the designer's live objects."""
    cancelled: Callable[[], str]
    """Called on the GUI thread when the user cancelled the job: the designer stops asking for it
    (until the design changes) and :meth:`Designer.build` says so; returns the message for the user."""


class Designer(ABC):
    """Interactive editing of a geometry's data (the Fields and Moves tabs).

    Events carry widget coordinates of the last :meth:`paint`; the designer
    holds its own editable copy of the data and reports changes by returning
    True, so the host can push an undo step (it snapshots :meth:`data`).
    """

    tools: tuple[Tool, ...] = ()

    @abstractmethod
    def paint(self, painter: QPainter, rect: QRectF, options: DrawOptions) -> None: ...

    @abstractmethod
    def press(self, tool: str, x: float, y: float, modifiers: frozenset[str] = frozenset()) -> bool: ...

    def drag(self, tool: str, x: float, y: float) -> bool:
        return False

    def release(self, tool: str, x: float, y: float) -> bool:
        return False

    @abstractmethod
    def data(self) -> dict[str, Any]:
        """The current geometry data (JSON-able); also the undo snapshot."""

    @abstractmethod
    def set_data(self, data: Mapping[str, Any]) -> None:
        """Restore a snapshot (undo/redo)."""

    @abstractmethod
    def build(self) -> Puzzle:
        """The puzzle the design describes now; PuzzleError says what is missing."""

    def pending_work(self) -> DesignWork | None:
        """Long work the current design still needs (see :class:`DesignWork`); None when :meth:`build` is quick."""
        return None


class Geometry(ABC):
    """A kind of puzzle a plugin can make (``cubes``, ``circles``, ...)."""

    name: str = ""
    """Unique key, a word (``cubes``); also the name in the :class:`PluginRecord` of puzzles it builds."""
    title: str = ""
    description: str = ""
    parameters: tuple[Parameter, ...] = ()
    defines_moves: bool = True
    """True when the geometry fixes the moves itself (cubes): the GUI hides the Moves tab."""

    @abstractmethod
    def build(self, **params: Any) -> Puzzle:
        """A new puzzle from parameters (already coerced by :class:`Parameter`)."""

    @abstractmethod
    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Move permutations (name -> list) emitted from the geometry data alone."""

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and normalise geometry data read from a file; ValueError says what is wrong."""
        return dict(data)

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """JSON-able geometry data for a file."""
        return dict(data)

    def view(self, puzzle: Puzzle) -> View | None:
        """A drawing of the puzzle for the Play tab; None when the plugin cannot draw it."""
        return None

    def designer(self, puzzle: Puzzle | None) -> Designer | None:
        """An editor for the Fields/Moves tabs, starting from ``puzzle`` (None: empty design)."""
        return None

    def coerce(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults filled in and every value checked against :attr:`parameters`."""
        known = {p.name: p for p in self.parameters}
        unknown = set(params) - set(known)
        if unknown:
            raise ValueError(f"geometry {quoted(self.name)} has no parameter {quoted(sorted(unknown)[0])}; it has {sorted(known)}")
        out = {}
        for p in self.parameters:
            out[p.name] = p.coerce(params[p.name]) if p.name in params else p.default
        return out


@hookspec
def hlavolamy_geometries() -> Iterable[Geometry]:
    """Return the geometries this plugin provides.

    Called once when plugins load. A plugin may return several; names must be
    unique across plugins (a clash is reported and the later one skipped).
    """


@hookspec
def hlavolamy_recognise(puzzle: Puzzle) -> PluginRecord | Iterable[PluginRecord] | None:
    """Offer a drawing for a puzzle no plugin made (an import): a record of one of this plugin's geometries.

    Optional. Return ``PluginRecord(geometry_name, data)`` when one of this
    plugin's geometries has the puzzle's moves on the puzzle's cells (names and
    directions may differ: the host plays the puzzle's own moves from the
    drawing), else None; several candidates may be returned as a list. The host
    keeps the first candidate whose :meth:`Geometry.moves` match the puzzle's
    moves up to names and inverses, so a wrong guess costs only the time to
    check it.
    """


@hookspec
def hlavolamy_strategies() -> Iterable[Strategy]:
    """Return solving strategies (:class:`hlavolamy.solve.registry.Strategy` records).

    Optional. Each is offered by name to ``solve(strategy=...)``, ``hlavolamy
    solve --strategy`` and the app; ``auto`` keeps racing the built-in ones.
    Import the solver inside this function, not at the top of the plugin, so
    commands that never solve do not import it.
    """


@hookspec
def hlavolamy_passes() -> Iterable[Pass]:
    """Return shortening passes (:class:`hlavolamy.solve.registry.Pass`), run after the built-in ones on every answer."""


@hookspec
def hlavolamy_formats() -> Iterable[Format]:
    """Return file formats (:class:`hlavolamy.formats.Format`) for ``hlavolamy import``/``export`` and the app's menus.

    Optional. A plugin's ``load``/``dump`` are functions (or ``"package.module:function"``
    strings): ``load(path, **options)`` returns a :class:`~hlavolamy.core.fileformat.PuzzleFile`
    or a :class:`~hlavolamy.core.puzzle.Puzzle`, ``dump(puzzle, path)`` writes one.
    """

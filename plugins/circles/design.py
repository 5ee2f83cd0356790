"""A circle-puzzle design: the geometry data, its checks, and the puzzle it defines.

The data (JSON, stored in the puzzle's plugin record)::

    {"circles": [{"id": "c1", "x": 0, "y": 0, "r": 4, "kind": "turn", "steps": 4, "name": "A"},
                 {"id": "c2", "x": 4, "y": 0, "r": 4, "kind": "cut"}],
     "colours": {"+c1-c2": "red", ...},          # region id -> colour label; order = cell order
     "palette": {"red": "#d03030"},
     "grid": 1}

Turning circles give moves (``steps`` turns make a full turn; missing or null
picks the finest symmetric turn; ``name`` defaults to A, B, ... in order;
an optional ``inner`` radius makes a hole, so the turn carries only the
ring); cut circles only cut. Coloured regions are the cells, in the order
of ``colours``.
"""

from __future__ import annotations

import itertools
import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.errors import PuzzleError

from .arrangement import Arrangement, Circle, Region
from .jumble import JumbleLimit
from .jumbled import JUMBLE_MODES, Jumbled, closed, without_steps
from .symmetry import MAX_ORDER, JamError, symmetry_order, turn_map

PLUGIN = "circles"
TURN, CUT = "turn", "cut"
_KEYS = {"circles", "colours", "palette", "grid", "jumble"}
_CIRCLE_KEYS = {"id", "x", "y", "r", "kind", "steps", "turns", "name", "inner"}
HOLE = "/hole"
"""Suffix of the id of a ring's hole circle (user ids cannot contain '/')."""
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_MOVE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class DesignCircle:
    """One circle of the design: where it is, and whether and how it turns."""

    id: str
    x: float
    y: float
    r: float
    kind: str = TURN
    steps: int | None = None
    name: str | None = None
    inner: float | None = None
    """Radius of a hole: the turn then carries only the ring between ``inner`` and ``r``."""
    turns: int | None = None
    """One move turns by ``turns``/``steps`` of a full turn (144° is 2/5); None means 1."""

    @property
    def angle(self) -> float | None:
        """The turn in degrees, or None while the steps are automatic."""
        return None if self.steps is None else 360.0 * (self.turns or 1) / self.steps

    @property
    def shape(self) -> Circle:
        return Circle(self.id, self.x, self.y, self.r)

    @property
    def hole(self) -> Circle | None:
        """The hole's circle (it cuts like any circle), or None for a full disk."""
        return None if self.inner is None else Circle(self.id + HOLE, self.x, self.y, self.inner)

    def carries(self, x: float, y: float) -> bool:
        """Whether a turn of this circle carries the point (inside it, outside its hole)."""
        d = math.hypot(x - self.x, y - self.y)
        return d < self.r and (self.inner is None or d > self.inner)

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "x": _plain(self.x), "y": _plain(self.y), "r": _plain(self.r), "kind": self.kind}
        if self.kind == TURN:
            if self.steps is not None:
                out["steps"] = self.steps
            if self.turns is not None and self.turns != 1:
                out["turns"] = self.turns
            if self.name is not None:
                out["name"] = self.name
            if self.inner is not None:
                out["inner"] = _plain(self.inner)
        return out


@dataclass(frozen=True)
class CircleMove:
    """A turning circle's move: its name, steps per full turn, permutation and turned cells."""

    name: str
    circle: str
    steps: int
    perm: list[int]
    turned: frozenset[int]


@dataclass
class Design:
    """Circles, colours and palette; computes regions, cells and moves on demand."""

    circles: list[DesignCircle] = field(default_factory=list)
    colours: dict[str, str] = field(default_factory=dict)
    palette: dict[str, str] = field(default_factory=dict)
    grid: float | None = 1.0
    jumble: str | None = None
    """None: turns must fit the drawn pattern; "cut" or "block": a jumbling design (:mod:`.jumbled`)."""

    # -- data ----------------------------------------------------------------
    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Design:
        """Read and check geometry data; PuzzleError names the key at fault."""
        if not isinstance(data, Mapping):
            raise PuzzleError(f"circles data: expected an object, got {type(data).__name__}")
        unknown = set(data) - _KEYS
        if unknown:
            raise PuzzleError(f"circles data: unknown key {sorted(unknown)[0]!r}; the keys are {sorted(_KEYS)}")
        raw = data.get("circles", [])
        if not isinstance(raw, list):
            raise PuzzleError("circles data: 'circles' must be a list")
        circles = [_read_circle(c, i) for i, c in enumerate(raw)]
        colours = _read_labels(data.get("colours", {}), "colours")
        palette = _read_labels(data.get("palette", {}), "palette")
        jumble = data.get("jumble")
        if jumble is not None and jumble not in JUMBLE_MODES:
            raise PuzzleError(f"circles data: jumble {jumble!r} must be one of {list(JUMBLE_MODES)} or null")
        design = cls(circles, colours, palette, _read_grid(data.get("grid", 1.0)), jumble)
        design._check_names()
        for label, colour in design.palette.items():
            if not _HEX.match(colour):
                raise PuzzleError(f"circles data: palette[{label!r}] is {colour!r}, not #rrggbb")
        return design

    def to_data(self) -> dict[str, Any]:
        out = {
            "circles": [c.to_data() for c in self.circles],
            "colours": dict(self.colours),
            "palette": dict(self.palette),
            "grid": None if self.grid is None else _plain(self.grid),
        }
        if self.jumble is not None:
            out["jumble"] = self.jumble
        return out

    def _check_names(self) -> None:
        ids = [c.id for c in self.circles]
        for cid in ids:
            if ids.count(cid) > 1:
                raise PuzzleError(f"circles data: circle id {cid!r} is used twice")
        names = [c.name for c in self.circles if c.kind == TURN and c.name]
        for name in names:
            if names.count(name) > 1:
                raise PuzzleError(f"circles data: move name {name!r} is given to two circles")

    # -- geometry ------------------------------------------------------------
    @cached_property
    def arrangement(self) -> Arrangement:
        return Arrangement([c.shape for c in self.circles] + [c.hole for c in self.circles if c.hole is not None])

    def turned_regions(self, circle: DesignCircle) -> list[Region]:
        """The regions a turn of ``circle`` carries: inside it and outside its hole."""
        hole = circle.hole
        return [r for r in self.arrangement.regions_inside(circle.id) if hole is None or hole.id not in r.inside]

    def circle(self, circle_id: str) -> DesignCircle:
        for c in self.circles:
            if c.id == circle_id:
                return c
        raise PuzzleError(f"no circle {circle_id!r} in the design")

    @cached_property
    def cells(self) -> list[Region]:
        """The coloured regions, in cell order; PuzzleError for a colour on a region that does not exist."""
        out = []
        for region_id in self.colours:
            region = self.arrangement.by_id.get(region_id)
            if region is None:
                raise PuzzleError(f"circles data: colours names region {region_id!r}, which the circles do not form")
            out.append(region)
        return out

    @cached_property
    def cell_index(self) -> dict[str, int]:
        return {r.id: i for i, r in enumerate(self.cells)}

    @cached_property
    def _jumble_result(self) -> Jumbled | JumbleLimit:
        try:
            return Jumbled.of(self)
        except JumbleLimit as exc:  # kept: a design past the limit is not closed again at every look
            return exc

    @property
    def closure_pending(self) -> bool:
        """A jumbling design whose closure is not computed yet: asking for :attr:`jumbled` would take a while."""
        if self.jumble is None or "_jumble_result" in self.__dict__:
            return False
        if without_steps(self.circles) is not None:
            return False  # refused at once: no closure to wait for
        return closed(self.circles) is None

    @property
    def jumbled(self) -> Jumbled | None:
        """The jumbling closure and its cells (None for a design whose turns must fit); JumbleLimit past the limit."""
        if self.jumble is None:
            return None
        result = self._jumble_result
        if isinstance(result, JumbleLimit):
            raise result
        return result

    @property
    def cell_arrangement(self) -> Arrangement:
        """The regions the puzzle's cells come from: the closure's for a jumbling design, else the drawn ones."""
        return self.arrangement if self.jumbled is None else self.jumbled.arrangement

    @property
    def puzzle_cells(self) -> list[Region]:
        """The puzzle's cells in order (closure regions for a jumbling design, else the coloured regions)."""
        return self.cells if self.jumbled is None else self.jumbled.cells

    @property
    def puzzle_cell_index(self) -> dict[str, int]:
        return self.cell_index if self.jumbled is None else self.jumbled.cell_index

    def jumbles(self, circle: DesignCircle) -> bool:
        """Whether the circle's turn does not fit the drawn pattern (the design must jumble for it to turn)."""
        if circle.kind != TURN or circle.steps is None:
            return False
        names = self.move_names()
        try:
            turn_map(self.arrangement, circle.shape, self.turned_regions(circle), circle.steps, self.cell_index or
                     {r.id: i for i, r in enumerate(self.turned_regions(circle))}, names[circle.id], turns=circle.turns or 1)
        except JamError:
            return True
        return False

    def move_names(self) -> dict[str, str]:
        """Turning circle id -> move name: its own name, else its letter (A for the first turning circle, ...).

        A letter someone else already took moves on to the next free one.
        """
        turning = [c for c in self.circles if c.kind == TURN]
        taken = {c.name for c in turning if c.name}
        letters = list(itertools.islice(_letters(), len(turning) + len(taken)))
        out = {}
        for i, c in enumerate(turning):
            name = c.name or next(n for n in letters[i:] + letters[:i] if n not in taken)
            taken.add(name)
            out[c.id] = name
        return out

    def steps(self, circle: DesignCircle) -> int:
        """Turns per full turn: the circle's own, else the finest turn its cells allow."""
        if circle.steps is not None:
            return circle.steps
        return symmetry_order(self.arrangement, circle.shape, self.turned_regions(circle), self.cell_index)

    def moves(self) -> list[CircleMove]:
        """Every turning circle's move; JamError (a PuzzleError) when a turn does not fit."""
        names = self.move_names()
        if self.jumbled is not None:
            return self.jumbled.moves(names)
        out = []
        for c in self.circles:
            if c.kind != TURN:
                continue
            k = self.steps(c)
            turned_regions = self.turned_regions(c)
            mapping = turn_map(self.arrangement, c.shape, turned_regions, k, self.cell_index, names[c.id], turns=c.turns or 1)
            perm = list(range(len(self.cells)))
            for source, dest in mapping.items():
                perm[dest] = source
            turned = frozenset(self.cell_index[r.id] for r in turned_regions if r.id in self.cell_index)
            out.append(CircleMove(names[c.id], c.id, k, perm, turned))
        return out

    def puzzle(self, name: str = "", description: str = "") -> Puzzle:
        """The puzzle this design describes; PuzzleError says what is missing."""
        if not self.cells:
            raise PuzzleError("the design has no cells yet: colour some regions")
        moves = self.moves()
        if not moves:
            raise PuzzleError("the design has no turning circle, so no moves")
        jumbled = self.jumbled
        labels = [self.colours[r.id] for r in self.cells] if jumbled is None else jumbled.labels
        blockings = [] if jumbled is None else [piece for piece in jumbled.pieces if len(piece) > 1]
        return Puzzle(
            labels,
            {m.name: m.perm for m in moves},
            name=name,
            description=description,
            palette={label: colour for label, colour in self.palette.items() if label in set(labels)},
            blockings=blockings,
            turned_parts={m.name: m.turned for m in moves if blockings or m.turned != _moved(m.perm)},
            plugin=PluginRecord(PLUGIN, self.to_data()),
        )


def parse_angle(text: str) -> tuple[int, int]:
    """(steps, turns) of a turn angle given in degrees: "144", "72°", "360/2.5" (= 144°) or "360/7".

    The angle must be a rational fraction of a full turn whose denominator is
    at most :data:`MAX_ORDER`, so the turn comes back after that many steps;
    PuzzleError otherwise (a decimal like 51.43 is not 360/7: write 360/7).
    """
    raw = text.strip().rstrip("°").strip()
    try:
        top, _, bottom = raw.partition("/")
        degrees = Fraction(top.strip()) / (Fraction(bottom.strip()) if bottom else 1)
    except (ValueError, ZeroDivisionError):
        raise PuzzleError(f"angle {text!r}: write degrees, like 72, 144 or 360/2.5") from None
    turn = (degrees / 360) % 1
    if turn == 0:
        raise PuzzleError(f"angle {text!r} is a whole number of full turns: the circle would not move")
    if turn.denominator > MAX_ORDER:
        raise PuzzleError(f"angle {text!r} comes back only after {turn.denominator} steps (at most {MAX_ORDER}); "
                          "for 360/k degrees write it so, e.g. 360/7")
    return turn.denominator, turn.numerator


def _plain(v: float) -> float | int:
    """Whole numbers as ints, so files read ``"x": 4`` rather than ``4.0``."""
    return int(v) if float(v).is_integer() else v


def _moved(perm: list[int]) -> frozenset[int]:
    return frozenset(i for i, j in enumerate(perm) if i != j)


def carry_colours(old: Design, new: Design) -> None:
    """After an edit, give ``new`` the colours of ``old``: kept by region id, else inherited.

    A region whose id vanished (an edit split or reshaped it) passes its
    colour to the new regions whose interior points lie inside it, so
    cutting a coloured region keeps both parts coloured. Cell order follows
    the old order.
    """
    arr = new.arrangement
    colours: dict[str, str] = {}
    for region_id, label in old.colours.items():
        if region_id in arr.by_id:
            colours.setdefault(region_id, label)
            continue
        region = old.arrangement.by_id.get(region_id)
        if region is None:
            continue
        for child in arr.regions:
            if child.id not in old.colours and region.contains(*child.point):
                colours.setdefault(child.id, label)
    new.colours = colours


def _letters():
    """A, B, ..., Z, A1, B1, ... : move names for unnamed circles."""
    k = 0
    while True:
        for ch in string.ascii_uppercase:
            yield ch + (str(k) if k else "")
        k += 1


def _read_circle(raw: Any, i: int) -> DesignCircle:
    where = f"circles data: circles[{i}]"
    if not isinstance(raw, Mapping):
        raise PuzzleError(f"{where}: expected an object")
    unknown = set(raw) - _CIRCLE_KEYS
    if unknown:
        raise PuzzleError(f"{where}: unknown key {sorted(unknown)[0]!r}; the keys are {sorted(_CIRCLE_KEYS)}")
    cid = raw.get("id")
    if not isinstance(cid, str) or not cid or not cid.replace("_", "").isalnum():
        raise PuzzleError(f"{where}.id: {cid!r} is not a name of letters, digits and '_'")
    x, y, r = (_number(raw.get(k), f"{where}.{k}") for k in ("x", "y", "r"))
    if r <= 0:
        raise PuzzleError(f"{where}.r: {r} must be positive")
    kind = raw.get("kind", TURN)
    if kind not in (TURN, CUT):
        raise PuzzleError(f"{where}.kind: {kind!r} must be {TURN!r} or {CUT!r}")
    steps = raw.get("steps")
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_ORDER):
        raise PuzzleError(f"{where}.steps: {steps!r} must be a whole number from 1 to {MAX_ORDER}, or null for automatic")
    name = raw.get("name")
    if name is not None and (not isinstance(name, str) or not _MOVE_NAME.match(name)):
        raise PuzzleError(f"{where}.name: {name!r} must be a move name (a letter, then letters, digits or '_')")
    turns = raw.get("turns")
    if turns is not None and (steps is None or isinstance(turns, bool) or not isinstance(turns, int)
                              or not 1 <= turns < max(steps, 2) or math.gcd(turns, steps) != 1):
        raise PuzzleError(f"{where}.turns: {turns!r} must be a whole number from 1 to steps - 1 with no factor in common "
                              "with steps (the turn is turns/steps of a full turn)")
    inner = raw.get("inner")
    if inner is not None:
        inner = _number(inner, f"{where}.inner")
        if kind != TURN or not 0 < inner < r:
            raise PuzzleError(f"{where}.inner: a hole needs a turning circle and a radius between 0 and r ({r:g}), got {inner:g}")
    return DesignCircle(cid, x, y, r, kind, steps, name, inner, turns)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise PuzzleError(f"{where}: {value!r} is not a finite number")
    return float(value)


def _read_labels(raw: Any, key: str) -> dict[str, str]:
    if not isinstance(raw, Mapping):
        raise PuzzleError(f"circles data: {key!r} must be an object")
    for k, v in raw.items():
        if not isinstance(k, str) or not isinstance(v, str) or not v:
            raise PuzzleError(f"circles data: {key}[{k!r}] must map a name to a non-empty string, got {v!r}")
    return dict(raw)


def _read_grid(raw: Any) -> float | None:
    if raw is None:
        return None
    grid = _number(raw, "circles data: grid")
    if grid <= 0:
        raise PuzzleError(f"circles data: grid {grid} must be positive (or null for free placement)")
    return grid


def complete_cuts(design: Design, limit: int = 400) -> Design:
    """The design with the cut circles added that make every turning circle's pattern symmetric.

    Each circle that reaches inside a turning circle is copied at the turning
    circle's other step angles, repeatedly, until nothing new appears (the
    Rashkey's cuts come out this way). Turning circles need explicit steps.
    PuzzleError when more than ``limit`` circles would be needed (the turns
    generate a dense set, as for most angles other than 60, 90 and 180
    degrees).
    """
    circles = list(design.circles)
    tol = 1e-7 * max((max(abs(c.x), abs(c.y)) + c.r for c in circles), default=1.0)
    turning = [c for c in circles if c.kind == TURN]
    for t in turning:
        if t.steps is None:
            raise PuzzleError(f"circle {t.id!r}: give its steps before completing the cuts")
    count = 0
    changed = True
    while changed:
        changed = False
        for t in turning:
            for c in list(circles):
                if not _reaches_inside(c, t, tol):
                    continue
                for j in range(1, t.steps):
                    a = 2 * math.pi * j / t.steps
                    dx, dy = c.x - t.x, c.y - t.y
                    x = t.x + dx * math.cos(a) - dy * math.sin(a)
                    y = t.y + dx * math.sin(a) + dy * math.cos(a)
                    if any(abs(o.x - x) <= tol and abs(o.y - y) <= tol and abs(o.r - c.r) <= tol for o in circles):
                        continue
                    if len(circles) >= limit:
                        raise PuzzleError(f"completing the cuts needs more than {limit} circles; the turns do not close up")
                    count += 1
                    while any(o.id == f"cut{count}" for o in circles):
                        count += 1
                    circles.append(DesignCircle(f"cut{count}", _tidy(x), _tidy(y), c.r, CUT))
                    changed = True
    return Design(circles, dict(design.colours), dict(design.palette), design.grid, design.jumble)


def _reaches_inside(c: DesignCircle, t: DesignCircle, tol: float) -> bool:
    """Whether circle ``c`` has an arc where ``t`` turns (inside it, outside its hole), not concentric."""
    d = math.hypot(c.x - t.x, c.y - t.y)
    in_hole = t.inner is not None and d + c.r <= t.inner + tol
    return tol < d < c.r + t.r - tol and d + t.r > c.r + tol and not in_hole


def _tidy(v: float) -> float:
    """Round off float noise so turned lattice points stay whole numbers."""
    r = round(v, 9)
    return float(round(r)) if abs(r - round(r)) < 1e-9 else r

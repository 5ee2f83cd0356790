"""Qt drawing and editing of circle puzzles (the only module of the plugin that imports Qt).

:class:`CirclesView` draws a state (each cell's region filled with the colour
of the cell now there) and maps clicks to cells and turns; :class:`CirclesDesigner`
edits the design with tools. Both fit the design into the paint rectangle
keeping its aspect and keep that :class:`Frame` for hit-testing.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.errors import PuzzleError
from hlavolamy.plugins.hookspecs import (
    Designer,
    DesignWork,
    DrawOptions,
    MoveHit,
    Tool,
    View,
)

from .arrangement import Arrangement, Region
from .design import (
    CUT,
    TURN,
    Design,
    DesignCircle,
    carry_colours,
    complete_cuts,
    parse_angle,
)
from .jumble import Closure, JumbleLimit
from .jumbled import JUMBLE_MODES, ClosureKey, Jumbled, close, closure_key
from .symmetry import MAX_ORDER, JamError

HIT_PIXELS = 8.0
"""How close (in pixels) to a circle's rim a press grabs the circle."""
STEP_CHOICES = (2, 3, 4, 5, 6, 8, 10, 12)
"""Turns per full turn the Turn angle tool steps through (plus the pattern's own finest turn)."""
CLOSING = "Closing the cuts"
CLOSING_CANCELLED = (
    "closing the cuts was cancelled, so this jumbling design has no cells or moves yet (its pieces are the "
    "regions of the closed cuts); any edit, or Undo then Redo, closes them again"
)


class Frame:
    """The design box fitted into a widget rectangle, centred, aspect kept (y grows down in both)."""

    def __init__(self, box: tuple[float, float, float, float], rect: QRectF):
        x0, y0, x1, y1 = box
        width, height = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
        self.scale = min(rect.width() / width, rect.height() / height)
        self.dx = rect.center().x() - self.scale * (x0 + x1) / 2
        self.dy = rect.center().y() - self.scale * (y0 + y1) / 2

    def to_widget(self, x: float, y: float) -> QPointF:
        return QPointF(self.dx + self.scale * x, self.dy + self.scale * y)

    def to_design(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.dx) / self.scale, (y - self.dy) / self.scale)

    def apply(self, painter: QPainter) -> None:
        """Make the painter draw in design coordinates (use cosmetic pens)."""
        painter.translate(self.dx, self.dy)
        painter.scale(self.scale, self.scale)


def region_path(region: Region, step: float) -> QPainterPath:
    """The region's outline (outer loop and holes) in design coordinates."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    for polygon in region.polygons(step):
        path.moveTo(*polygon[0])
        for x, y in polygon[1:]:
            path.lineTo(x, y)
        path.closeSubpath()
    return path


def label_colour(label: str, *palettes: Mapping[str, str]) -> QColor:
    """The label's colour from the first palette that has it, else a steady colour made from the label."""
    for palette in palettes:
        if label in palette:
            return QColor(palette[label])
    if QColor.isValidColorName(label):
        return QColor(label)
    hue = int(hashlib.sha1(label.encode()).hexdigest()[:6], 16) % 360
    return QColor.fromHsv(hue, 150, 225)


def pen(colour: QColor | str, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    out = QPen(QColor(colour), width, style)
    out.setCosmetic(True)
    return out


def text_colour(fill: QColor) -> QColor:
    return QColor("#000000") if fill.lightnessF() > 0.55 else QColor("#ffffff")


def circle_under(design: Design, x: float, y: float, kinds: Iterable[str] = (TURN,), holes: bool = False) -> DesignCircle | None:
    """The smallest circle of the given kinds whose turn carries the point (``holes``: or whose hole holds it).

    Nearest centre first on ties.
    """
    kinds = set(kinds)
    inside = [
        c for c in design.circles
        if c.kind in kinds and (c.carries(x, y) or (holes and math.hypot(x - c.x, y - c.y) < c.r))
    ]
    return min(inside, key=lambda c: (c.r, math.hypot(x - c.x, y - c.y)), default=None)


class _Painter:
    """Shared drawing of regions, circles and labels in one frame."""

    def __init__(self, design: Design, arrangement: Arrangement | None = None):
        self.design = design
        self.arrangement = arrangement or design.arrangement
        """Whose regions are filled and labelled: the drawn ones, or a jumbling closure's."""
        self._paths: dict[str, QPainterPath] = {}

    def path(self, region: Region) -> QPainterPath:
        if region.id not in self._paths:
            self._paths[region.id] = region_path(region, self.arrangement.scale / 200)
        return self._paths[region.id]

    def fill(self, painter: QPainter, frame: Frame, fills: Mapping[str, QColor], outline: QColor) -> None:
        painter.save()
        frame.apply(painter)
        painter.setPen(pen(outline, 1.2))
        for region in self.arrangement.regions:
            colour = fills.get(region.id)
            if colour is not None:
                painter.setBrush(QBrush(colour))
                painter.drawPath(self.path(region))
        painter.restore()

    def outline(self, painter: QPainter, frame: Frame, regions: Iterable[Region], colour: QColor, width: float) -> None:
        painter.save()
        frame.apply(painter)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen(colour, width))
        for region in regions:
            painter.drawPath(self.path(region))
        painter.restore()

    def circles(
        self, painter: QPainter, frame: Frame, circles: Iterable[DesignCircle], qpen: QPen, brush: QBrush | None = None
    ) -> None:
        painter.save()
        painter.setPen(qpen)
        painter.setBrush(brush or Qt.BrushStyle.NoBrush)
        for c in circles:
            path = QPainterPath()
            path.setFillRule(Qt.FillRule.OddEvenFill)
            centre = frame.to_widget(c.x, c.y)
            for radius in (c.r, c.inner):
                if radius is not None:
                    path.addEllipse(centre, radius * frame.scale, radius * frame.scale)
            painter.drawPath(path)
        painter.restore()

    def labels(self, painter: QPainter, frame: Frame, texts: Mapping[str, tuple[str, QColor]]) -> None:
        painter.save()
        for region in self.arrangement.regions:
            if region.id not in texts:
                continue
            text, colour = texts[region.id]
            size = max(7.0, min(16.0, 0.45 * frame.scale * math.sqrt(max(region.area, 0.0))))
            font = QFont()
            font.setPixelSize(int(size))
            painter.setFont(font)
            painter.setPen(colour)
            centre = frame.to_widget(*region.point)
            box = QRectF(centre.x() - 3 * size, centre.y() - size, 6 * size, 2 * size)
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), text)
        painter.restore()


def _box(circles: Iterable[DesignCircle], regions: Iterable[Region], margin: float) -> tuple[float, float, float, float]:
    """Bounding box of some circles and regions, with a margin (a fraction of its size)."""
    boxes = [(c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r) for c in circles]
    boxes += [arc.bounds() for r in regions for arc in r.loops[0]]
    if not boxes:
        return (-12.0, -12.0, 12.0, 12.0)
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    pad = margin * max(x1 - x0, y1 - y0)
    return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)


class CirclesView(View):
    """The Play tab's drawing: cells filled with the state's colours; clicks turn circles."""

    def __init__(self, design: Design):
        self.design = design
        self._painter = _Painter(design, design.cell_arrangement)
        turning = [c for c in design.circles if c.kind == TURN]
        self.box = _box(turning, design.puzzle_cells, 0.04)
        self.frame = Frame(self.box, QRectF(0, 0, 400, 400))
        self._names = design.move_names()

    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self.frame = frame = Frame(self.box, rect)
        labels = state.colours()
        cells = self.design.puzzle_cells
        fills = {region.id: label_colour(labels[i], options.colours, self.design.palette) for i, region in enumerate(cells)}
        ink = QColor("#dddddd") if options.dark else QColor("#222222")
        turning = [c for c in self.design.circles if c.kind == TURN]
        self._painter.circles(painter, frame, turning, pen(QColor(ink.red(), ink.green(), ink.blue(), 90), 1.0))
        self._painter.fill(painter, frame, fills, ink)
        self._paint_blocked(painter, frame, state, turning, cells)
        if options.highlight:
            chosen = [cells[i] for i in sorted(options.highlight) if 0 <= i < len(cells)]
            self._painter.outline(painter, frame, chosen, QColor("#ff2bd6"), 3.0)
        if options.hover is not None:
            hovered = circle_under(self.design, *frame.to_design(*options.hover))
            if hovered is not None:
                # an outline with a soft halo, never a fill: a tint would change the cells' colours
                glow = QColor("#ffd400" if options.dark else "#0a84ff")
                halo = QColor(glow)
                halo.setAlpha(70)
                self._painter.circles(painter, frame, [hovered], pen(halo, 9.0))
                self._painter.circles(painter, frame, [hovered], pen(glow, 3.0))
        if options.show_numbers:
            self._painter.labels(painter, frame, {r.id: (str(i), text_colour(fills[r.id])) for i, r in enumerate(cells)})

    def _paint_blocked(self, painter: QPainter, frame: Frame, state: State, turning: list[DesignCircle],
                       cells: list[Region]) -> None:
        """A disk whose turn a straddling piece blocks: a grey dashed rim, "blocked", and those pieces outlined."""
        if not state.puzzle.blockings:
            return
        for c in turning:
            torn = fused_sets_torn(state.puzzle, state.perm, self._names[c.id])
            if not torn:
                continue
            grey = QColor(128, 128, 128, 200)
            self._painter.circles(painter, frame, [c], pen(grey, 5.0, Qt.PenStyle.DashLine))
            straddling = [cells[i] for piece in torn for i in piece if 0 <= i < len(cells)]
            self._painter.outline(painter, frame, straddling, QColor("#ff7f00"), 2.5)
            at = frame.to_widget(c.x, c.y)
            painter.save()
            box = painter.fontMetrics().boundingRect("blocked").toRectF().adjusted(-5, -3, 5, 3)
            box.moveCenter(at)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 255, 255, 215))  # legible on any piece colour
            painter.drawRoundedRect(box, 4, 4)
            painter.setPen(QColor("#333333"))
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), "blocked")
            painter.restore()

    def cell_at(self, x: float, y: float) -> int | None:
        region = self.design.cell_arrangement.region_at(*self.frame.to_design(x, y))
        return None if region is None else self.design.puzzle_cell_index.get(region.id)

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """Left click turns the circle under the mouse clockwise, right click anticlockwise."""
        circle = circle_under(self.design, *self.frame.to_design(x, y))
        if circle is None:
            return None
        return MoveHit(self._names[circle.id], -1 if button == "right" else 1)


def paint_closure(painter: QPainter, frame: Frame, closure: Closure, generations: bool = True) -> None:
    """The closure's cut arcs; with ``generations`` the newest ones red and thick: where the cuts keep multiplying."""
    top = max((c.generation for c in closure.circles), default=0)
    painter.save()
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for circle in sorted(closure.circles, key=lambda c: c.generation):
        age = (top - circle.generation) if generations else top
        colour = QColor(220, 30, 30) if age < 3 else QColor(60, 60, 60, 150)
        painter.setPen(pen(colour, 1.6 if age < 3 else 0.8))
        centre = frame.to_widget(circle.x, circle.y)
        r = circle.r * frame.scale
        box = QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)
        for a, b in circle.arcs:
            # Qt angles: sixteenths of a degree, anticlockwise on screen; design angles grow clockwise on screen
            painter.drawArc(box, round(-math.degrees(a) * 16), round(-math.degrees(b - a) * 16))
    painter.restore()


TOOLS = (
    Tool("turn", "Add turning circle", "Press at the centre and drag out the radius; Shift places off the grid"),
    Tool("cut", "Add cut circle", "A circle that only cuts regions: press at the centre and drag out the radius"),
    Tool("drag", "Drag circle", "Drag a circle to a new centre (Shift: off the grid)"),
    Tool("resize", "Resize circle", "Drag a circle's rim to change its radius"),
    Tool("delete", "Delete circle", "Click a circle's rim or inside to delete the smallest circle there"),
    Tool(
        "hole",
        "Ring hole",
        "Drag out from a turning circle's centre to cut a hole: the turn then carries only the ring; drag back to remove it",
    ),
    Tool("steps", "Turn angle", "Click a turning circle: the next turn angle (180°, 120°, 90°, ...); Shift-click: automatic"),
    Tool("complete", "Complete cuts", "Add the cut circles every turning circle needs to turn by its angle", instant=True),
    Tool(
        "jumble",
        "Jumbling",
        "Turns need not fit the pattern: off, then pieces cut by every turn, then pieces as drawn (blocked while they straddle)",
        instant=True,
    ),
    Tool("paint", "Paint region", "Click a region to give it the current colour: it becomes a cell"),
    Tool("erase", "Erase colour", "Click a region to take its colour away: it is no longer a cell"),
)


class CirclesDesigner(Designer):
    """Edits a circle design with the tools in :data:`TOOLS`.

    Besides the Designer contract the host may call :meth:`set_current_colour`
    (the colour the paint tool uses), :meth:`circle_at`, :meth:`move_name`,
    :meth:`rename_move` and :meth:`set_steps` (the Moves tab's name and angle
    fields), and :meth:`gesture_text` (what a drag shapes, for the status bar).
    """

    tools = TOOLS

    def __init__(self, design: Design, name: str = ""):
        self.name = name
        self.current_colour: str | None = None
        self._cancelled: ClosureKey | None = None
        """The circles whose closure the user cancelled: not offered as work again until an edit."""
        self._screen_colours: dict[str, str] = {}
        self._set(design)
        self.frame = Frame(self.box, QRectF(0, 0, 400, 400))
        self._active: str | None = None
        self._grab = (0.0, 0.0)
        self._modifiers: frozenset[str] = frozenset()

    # -- data ----------------------------------------------------------------
    def _set(self, design: Design) -> None:
        self.design = design
        self._cancelled = None  # an edit, undo or redo: its closure is wanted again
        self._painter = _Painter(design)
        self.box = _box(design.circles, (), 0.08)
        self._jam = self._find_jam()
        self._auto_steps = {c.id: self._auto(c) for c in design.circles if c.kind == TURN and c.steps is None}

    def _auto(self, circle: DesignCircle) -> int | None:
        """The turn the automatic steps give now (None while the design is not a puzzle yet)."""
        try:
            return self.design.steps(circle)
        except PuzzleError:
            return None

    def _find_jam(self) -> JamError | None:
        if self.design.jumble is not None:  # turns need not fit: the closure makes the cells, no jam
            return None
        try:
            self.design.moves()
        except JamError as exc:
            return exc
        except PuzzleError:
            return None
        return None

    def _closure(self) -> Jumbled | JumbleLimit | None:
        """The jumbling closure, or its refusal past the limit, once known; never computes (None meanwhile)."""
        if self.design.jumble is None or self.design.closure_pending:
            return None
        try:
            return self.design.jumbled
        except JumbleLimit as exc:
            return exc
        except PuzzleError:
            return None

    @property
    def limit(self) -> JumbleLimit | None:
        """The closure stopped at its limit (the cuts keep multiplying), once known."""
        closure = self._closure()
        return closure if isinstance(closure, JumbleLimit) else None

    def pending_work(self) -> DesignWork | None:
        """The jumbling closure while it is not computed (nor cancelled): the host runs it off the GUI thread."""
        if not self.design.closure_pending:
            return None
        circles = tuple(self.design.circles)
        key = closure_key(circles)
        if key == self._cancelled:
            return None

        def job(progress: ProgressCallback, cancel: CancelToken) -> None:
            close(circles, progress=progress, cancel=cancel)  # kept by the plugin: build() then finds it

        def cancelled() -> str:
            self._cancelled = key
            return CLOSING_CANCELLED

        return DesignWork(CLOSING, key, job, cancelled)

    def data(self) -> dict[str, Any]:
        return self.design.to_data()

    def set_data(self, data: Mapping[str, Any]) -> None:
        self._set(Design.from_data(data))
        self._active = None

    def build(self) -> Puzzle:
        """The puzzle; a jam is told briefly (the drawing outlines the clashing regions, ids mean nothing there)."""
        if self._cancelled is not None and self._cancelled == closure_key(self.design.circles):
            raise PuzzleError(CLOSING_CANCELLED)
        try:
            return self.design.puzzle(name=self.name or "Circle puzzle")
        except JamError as exc:
            head = str(exc).partition(": ")[0]  # "move A (circle c1) jams at 90 degrees"
            n = len(exc.clashes)
            raise JamError(
                f"{head}: {n} coloured region{'s' if n != 1 else ''} would not land on a cell (outlined in red). "
                "Colour every region the turn carries, add the missing cuts (Complete cuts) or change the angle.",
                exc.circle, exc.clashes,
            ) from exc

    def _edit(self, circles: list[DesignCircle]) -> None:
        """Replace the circles, carrying colours over to the regions the edit reshaped.

        The view box only grows, so the canvas does not jump while the user drags.
        """
        new = Design(circles, dict(self.design.colours), dict(self.design.palette), self.design.grid, self.design.jumble)
        carry_colours(self.design, new)
        box = self.box
        self._set(new)
        self.box = (min(box[0], self.box[0]), min(box[1], self.box[1]), max(box[2], self.box[2]), max(box[3], self.box[3]))

    # -- host extras -----------------------------------------------------------
    def set_current_colour(self, label: str, colour: str | None = None) -> None:
        """The colour label the paint tool gives, and its screen colour (#rrggbb).

        Choosing a colour is no edit of the design (undo would not see it): a new
        label enters the design's palette with the first region painted in it; only
        a label already in the palette takes a changed colour at once (Edit colour).
        """
        self.current_colour = label
        if colour is None:
            return
        self._screen_colours[label] = QColor(colour).name()
        if label in self.design.palette:
            self.design.palette[label] = self._screen_colours[label]

    def circle_at(self, x: float, y: float) -> str | None:
        """Id of the circle a press at the widget point would pick (rim first, then the smallest around it)."""
        px, py = self.frame.to_design(x, y)
        reach = HIT_PIXELS / self.frame.scale
        rims = [(abs(math.hypot(px - c.x, py - c.y) - c.r), c) for c in self.design.circles]
        near = [item for item in rims if item[0] <= reach]
        if near:
            return min(near, key=lambda item: item[0])[1].id
        inside = circle_under(self.design, px, py, (TURN, CUT))
        return None if inside is None else inside.id

    def move_name(self, circle_id: str) -> str | None:
        """The move a turning circle gives (its own name or its automatic letter); None for a cut circle."""
        return self.design.move_names().get(circle_id)

    def gesture_text(self) -> str:
        """The circle the current gesture shapes, in design units (the host shows it while the mouse drags)."""
        if self._active is None:
            return ""
        c = self.design.circle(self._active)
        name = self.move_name(c.id)
        hole = f", hole {c.inner:g}" if c.inner is not None else ""
        return f"{name or c.id}: centre ({c.x:g}, {c.y:g}), radius {c.r:g}{hole}"

    def rename_move(self, circle_id: str, name: str | None) -> None:
        """Give a turning circle's move a name (None: the automatic letter); PuzzleError for a bad or taken name."""
        if self.design.circle(circle_id).kind != TURN:
            raise PuzzleError(f"circle {circle_id} is a cut circle: only turning circles have moves")
        data = self.design.to_data()
        for c in data["circles"]:
            if c["id"] == circle_id:
                c.pop("name", None)
                if name is not None:
                    c["name"] = name
        box = self.box
        self.set_data(data)
        self.box = box

    def set_steps(self, circle_id: str, steps: int | None) -> None:
        """Turns per full turn of a turning circle (None: the finest its pattern allows)."""
        circle = self.design.circle(circle_id)
        if circle.kind != TURN:
            raise PuzzleError(f"circle {circle_id} is a cut circle: only turning circles turn")
        if steps is not None and not 1 <= steps <= MAX_ORDER:
            raise PuzzleError(f"circle {circle_id}: steps {steps} must be from 1 to {MAX_ORDER}")
        self._replace(circle, steps=steps, turns=None)

    def set_angle(self, circle_id: str, text: str) -> None:
        """A turning circle's angle in degrees, any rational one ("144", "360/2.5", "360/7"); see :func:`parse_angle`."""
        circle = self.design.circle(circle_id)
        if circle.kind != TURN:
            raise PuzzleError(f"circle {circle_id} is a cut circle: only turning circles turn")
        steps, turns = parse_angle(text)
        self._replace(circle, steps=steps, turns=None if turns == 1 else turns)

    def set_jumble(self, mode: str | None) -> None:
        """Whether turns must fit the pattern (None) or the design jumbles ("cut" or "block", see :mod:`.jumbled`)."""
        if mode is not None and mode not in JUMBLE_MODES:
            raise PuzzleError(f"jumbling {mode!r} must be one of {list(JUMBLE_MODES)} or None")
        self._edit_jumble(mode)

    def _edit_jumble(self, mode: str | None) -> None:
        self._set(Design(list(self.design.circles), dict(self.design.colours), dict(self.design.palette), self.design.grid, mode))

    def _replace(self, circle: DesignCircle, **changes: Any) -> None:
        changed = replace(circle, **changes)
        if changed.inner is not None and not 0 < changed.inner < changed.r:
            raise PuzzleError(f"circle {circle.id}: its hole must stay smaller than the circle")
        self._edit([changed if c.id == circle.id else c for c in self.design.circles])

    # -- painting ----------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, options: DrawOptions) -> None:
        self.frame = frame = Frame(self.box, rect)
        ink = QColor("#dddddd") if options.dark else QColor("#222222")
        self._paint_grid(painter, frame, rect, ink)
        fills = {rid: label_colour(label, options.colours, self.design.palette) for rid, label in self.design.colours.items()}
        self._painter.fill(painter, frame, fills, ink)
        turning = [c for c in self.design.circles if c.kind == TURN]
        cuts = [c for c in self.design.circles if c.kind == CUT]
        self._painter.circles(painter, frame, cuts, pen(ink, 1.0, Qt.PenStyle.DashLine))
        self._painter.circles(painter, frame, turning, pen(ink, 2.0))
        if self._jam is not None:
            clashing = [self.design.arrangement.by_id[rid] for rid, _ in self._jam.clashes]
            self._painter.outline(painter, frame, clashing, QColor("#e00000"), 3.0)
        closure = self._closure()
        if closure is not None:
            paint_closure(painter, frame, closure.closure, generations=isinstance(closure, JumbleLimit))
        if options.hover is not None:
            hovered = self.circle_at(*options.hover)
            if hovered is not None:
                self._painter.circles(painter, frame, [self.design.circle(hovered)], pen(QColor("#0a84ff"), 3.0))
        if options.show_numbers:
            numbers = {r.id: (str(i), text_colour(fills[r.id])) for i, r in enumerate(self.design.cells)}
            self._painter.labels(painter, frame, numbers)
        self._paint_names(painter, frame, turning, ink)

    def _paint_grid(self, painter: QPainter, frame: Frame, rect: QRectF, ink: QColor) -> None:
        grid = self.design.grid
        if not grid or grid * frame.scale < 6:
            return
        dot = QColor(ink)
        dot.setAlpha(60)
        painter.save()
        painter.setPen(pen(dot, 2.0))
        x0, y0 = frame.to_design(rect.left(), rect.top())
        x1, y1 = frame.to_design(rect.right(), rect.bottom())
        for i in range(math.ceil(x0 / grid), math.floor(x1 / grid) + 1):
            for j in range(math.ceil(y0 / grid), math.floor(y1 / grid) + 1):
                painter.drawPoint(frame.to_widget(i * grid, j * grid))
        painter.restore()

    def _paint_names(self, painter: QPainter, frame: Frame, turning: list[DesignCircle], ink: QColor) -> None:
        names = self.design.move_names()
        painter.save()
        painter.setPen(ink)
        for c in turning:
            at = frame.to_widget(c.x, c.y - c.r)
            auto = self._auto_steps.get(c.id)
            steps = f"{c.angle:.4g}°" if c.angle else (f"auto {360 / auto:g}°" if auto else "auto")
            jumbles = ", jumbles" if self.design.jumbles(c) else ""
            painter.drawText(QPointF(at.x() + 4, at.y() - 4), f"{names[c.id]} ({steps}{jumbles})")
        if self.design.jumble is not None:
            text = {"cut": "Jumbling: every turn cuts", "block": "Jumbling: pieces as drawn, blocked while they straddle"}
            limit = self.limit
            state = (f" — the cuts do not close up ({len(limit.closure.circles)} circles)" if limit else
                     " — closing the cuts was cancelled" if self._cancelled is not None else
                     " — closing the cuts…" if self.design.closure_pending else "")
            painter.drawText(QPointF(8, 16), text[self.design.jumble] + state)
        painter.restore()

    # -- tools -------------------------------------------------------------------
    def _snap(self, x: float, y: float) -> tuple[float, float]:
        """To the grid, unless there is none or the gesture started with Shift held."""
        grid = self.design.grid
        if not grid or "shift" in self._modifiers:
            return (x, y)
        return (round(x / grid) * grid, round(y / grid) * grid)

    def _snap_length(self, r: float) -> float:
        grid = self.design.grid
        if not grid or "shift" in self._modifiers:
            return max(r, 1e-3)
        return max(grid, round(r / grid) * grid)

    def press(self, tool: str, x: float, y: float, modifiers: frozenset[str] = frozenset()) -> bool:
        self._modifiers = frozenset(m.lower() for m in modifiers)
        px, py = self.frame.to_design(x, y)
        self._active = None
        if tool in (TURN, CUT):
            return self._add_circle(tool, *self._snap(px, py))
        if tool == "hole":
            target = circle_under(self.design, px, py, (TURN,), holes=True)
            self._active = None if target is None else target.id
            return False
        if tool in ("drag", "resize"):
            self._active = self.circle_at(x, y)
            if self._active is not None:
                c = self.design.circle(self._active)
                self._grab = (c.x - px, c.y - py)
            return False
        if tool == "delete":
            target = self.circle_at(x, y)
            if target is None:
                return False
            self._edit([c for c in self.design.circles if c.id != target])
            return True
        if tool == "steps":
            return self._cycle_steps(px, py, "shift" in self._modifiers)
        if tool == "complete":
            return self._complete()
        if tool == "jumble":
            modes = (None, *JUMBLE_MODES)
            self._edit_jumble(modes[(modes.index(self.design.jumble) + 1) % len(modes)])
            return True
        if tool in ("paint", "erase"):
            return self._colour(px, py, tool == "paint")
        return False

    def drag(self, tool: str, x: float, y: float) -> bool:
        if self._active is None:
            return False
        px, py = self.frame.to_design(x, y)
        c = self.design.circle(self._active)
        if tool == "drag":
            nx, ny = self._snap(px + self._grab[0], py + self._grab[1])
            if (nx, ny) == (c.x, c.y):
                return False
            return self._try_replace(c, x=nx, y=ny)
        r = self._snap_length(math.hypot(px - c.x, py - c.y))
        if tool == "hole":
            inner = None if math.hypot(px - c.x, py - c.y) < (self.design.grid or c.r / 10) / 2 else r
            return inner != c.inner and self._try_replace(c, inner=inner)
        return r != c.r and self._try_replace(c, r=r)

    def release(self, tool: str, x: float, y: float) -> bool:
        self._active = None
        return False

    def _try_replace(self, circle: DesignCircle, **changes: Any) -> bool:
        """Apply an edit unless it makes two circles coincide (then keep the last good design)."""
        try:
            self._replace(circle, **changes)
        except PuzzleError:
            return False
        return True

    def _add_circle(self, kind: str, x: float, y: float) -> bool:
        taken = {c.id for c in self.design.circles}
        number = len(taken) + 1
        while f"c{number}" in taken:
            number += 1
        radius = self._snap_length((self.box[2] - self.box[0]) / 6)
        circle = DesignCircle(f"c{number}", x, y, radius, kind)
        try:
            self._edit([*self.design.circles, circle])
        except PuzzleError:
            return False
        self._active = circle.id
        self._grab = (0.0, 0.0)
        return True

    def _cycle_steps(self, x: float, y: float, automatic: bool) -> bool:
        circle = circle_under(self.design, x, y)
        if circle is None:
            return False
        if automatic:
            if circle.steps is None:
                return False
            self._replace(circle, steps=None, turns=None)
            return True
        finest = self._auto_steps.get(circle.id) or self.design.steps(replace(circle, steps=None))
        options = sorted(set(STEP_CHOICES) | ({finest} if finest > 1 else set()))
        if circle.steps is None:
            steps = finest if finest > 1 else options[0]
        else:
            steps = next((k for k in options if k > circle.steps), options[0])
        self._replace(circle, steps=steps, turns=None)
        return True

    def _complete(self) -> bool:
        missing = [c.id for c in self.design.circles if c.kind == TURN and c.steps is None]
        if missing:
            raise PuzzleError(f"give circle {missing[0]} a turn angle first (Turn angle tool): the cuts depend on it")
        before = len(self.design.circles)
        self._edit(complete_cuts(self.design).circles)
        return len(self.design.circles) != before

    def _colour(self, x: float, y: float, paint: bool) -> bool:
        region = self.design.arrangement.region_at(x, y)
        if region is None:
            return False
        colours = dict(self.design.colours)
        palette = dict(self.design.palette)
        if paint:
            label = self.current_colour or next(iter(self.design.palette), "red")
            if colours.get(region.id) == label:
                return False
            colours[region.id] = label
            if label not in palette and label in self._screen_colours:
                palette[label] = self._screen_colours[label]
        elif colours.pop(region.id, None) is None:
            return False
        box = self.box  # colours do not move the geometry: keep the frame, so the next click lands where aimed
        self._set(Design(list(self.design.circles), colours, palette, self.design.grid, self.design.jumble))
        self.box = box
        return True

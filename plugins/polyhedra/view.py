"""Drawing a cut polyhedron: a turnable 3D picture beside its flat net (Qt).

The 3D picture is an orthographic projection of the solid turned by two
angles (a mouse drag changes them); only faces whose normal points at the
viewer are drawn, and a convex solid's visible faces never overlap. A click
on a sticker turns the grip whose axis points closest to that sticker among
the grips that hold it: clockwise seen from that axis end with the left
button, back with the right.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPen, QPolygonF

from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit, View

from .model import Polyhedron
from .net import sticker_polygons
from .turns import lines
from .turns import rotation as axis_rotation

STICKER = 0.86
"""Drawn fraction of a sticker; the rest shows the dark body."""
BODY = "#1a1a1a"
HIGHLIGHT = "#ff00aa"
HOVER = "#00c8ff"
DRAG_RADIANS_PER_PIXEL = 0.01
MAX_PITCH = math.radians(85)


def view_rotation(yaw: float, pitch: float) -> np.ndarray:
    """Turn by ``yaw`` about the vertical axis, then tilt by ``pitch`` towards the viewer."""
    return axis_rotation(np.array([1.0, 0.0, 0.0]), pitch) @ axis_rotation(np.array([0.0, 1.0, 0.0]), -yaw)


def padded(polygons: list[np.ndarray]) -> np.ndarray:
    """``(k, m, 2)`` polygons padded to ``m`` corners by repeating their last corner (degenerate edges)."""
    m = max((len(p) for p in polygons), default=3)
    out = np.empty((len(polygons), m, 2))
    for i, p in enumerate(polygons):
        out[i, :len(p)] = p
        out[i, len(p):] = p[-1]
    return out


def containing(polygons: np.ndarray, x: float, y: float) -> np.ndarray:
    """Indices of the convex (padded) polygons that contain the point."""
    if not len(polygons):
        return np.zeros(0, dtype=int)
    edges = np.roll(polygons, -1, axis=1) - polygons
    to_point = np.array([x, y]) - polygons
    cross = edges[..., 0] * to_point[..., 1] - edges[..., 1] * to_point[..., 0]
    inside = (cross >= -1e-9).all(axis=1) | (cross <= 1e-9).all(axis=1)
    return np.flatnonzero(inside)


@dataclass(frozen=True)
class Handle:
    """A move a click can play: the stickers it turns and the axis ends it turns about (end, power)."""

    move: str
    stickers: frozenset[int]
    ends: tuple[tuple[np.ndarray, int], ...]


def handles(model: Polyhedron) -> list[Handle]:
    """Our grips with their move names, or an imported puzzle's moves as the block turns they are."""
    if model.specs is None:
        return [Handle(name, frozenset(g.cells.tolist()),
                       tuple((end, power) for end, power in ((g.end, 1), (g.other_end, -1)) if end is not None))
                for name, g in zip(model.move_names, model.grips)]
    by_axis = {(line.kind, line.index): line for line in lines(model.cutting)}
    out = []
    for name, (kind, axis, first, last, _steps) in model.specs.items():
        line = by_axis[(kind, axis)]
        stickers = frozenset(np.concatenate(line.layers[first:last + 1]).tolist())
        out.append(Handle(name, stickers, ((line.direction, 1), (-line.direction, -1))))
    return out


class PolyhedronView(View):
    """A polyhedron's state in 3D (turned by dragging) and as a net; a click turns the nearest grip.

    The puzzle's cell ``c`` shows on sticker ``cells[c]`` (all stickers in order for
    our own puzzles; an imported puzzle's own map); a sticker no cell shows never
    moves and keeps its face's colour.
    """

    def __init__(self, model: Polyhedron):
        self.model = model
        n = len(model.cutting.stickers)
        self.cells = np.array(model.cells if model.cells is not None else range(n), dtype=int)
        self.cell_of = np.full(n, -1)
        self.cell_of[self.cells] = np.arange(len(self.cells))
        self.handles = handles(model)
        self.yaw = math.radians(30)
        self.pitch = math.radians(25)
        cutting = model.cutting
        self._corners3 = [s.corners for s in cutting.stickers]
        self._faces = np.array([s.face for s in cutting.stickers])
        self._net_unit = padded(sticker_polygons(cutting))
        self._radius = float(np.max(np.linalg.norm(cutting.solid.vertices, axis=1)))
        self._net = np.zeros((0, 3, 2))
        self._solid = np.zeros((0, 3, 2))
        self._solid_cells = np.zeros(0, dtype=int)
        self._net_body: list[np.ndarray] = []
        self._solid_body: list[np.ndarray] = []

    # -- placing -------------------------------------------------------------------------
    @staticmethod
    def _layout(rect: QRectF) -> tuple[QRectF, QRectF]:
        """The 3D area and the net area: side by side, or stacked when the rectangle is tall."""
        w, h = rect.width(), rect.height()
        if h > w:
            side = min(w, h * 0.45)
            return QRectF(rect.left(), rect.top(), w, side), QRectF(rect.left(), rect.top() + side, w, h - side)
        side = min(h, w * 0.4)
        return QRectF(rect.left(), rect.top(), side, h), QRectF(rect.left() + side, rect.top(), w - side, h)

    def _place(self, rect: QRectF) -> None:
        solid_area, net_area = self._layout(rect)
        shape = self.model.cutting.solid
        lo = self._net_unit.reshape(-1, 2).min(axis=0)
        hi = self._net_unit.reshape(-1, 2).max(axis=0)
        margin = 0.04 * min(net_area.width(), net_area.height())
        scale = max(0.0, min((net_area.width() - 2 * margin) / (hi[0] - lo[0]),
                             (net_area.height() - 2 * margin) / (hi[1] - lo[1])))
        centre = np.array([net_area.center().x(), net_area.center().y()])
        flip = np.array([1.0, -1.0])
        self._net = ((self._net_unit - (lo + hi) / 2) * flip) * scale + centre
        self._net_body = self._face_outlines(self._net, np.arange(len(self._faces)))

        turn = view_rotation(self.yaw, self.pitch)
        visible = np.flatnonzero((shape.normals @ turn.T)[:, 2] > 1e-6)
        cells = np.flatnonzero(np.isin(self._faces, visible))
        scale3 = 0.95 * min(solid_area.width(), solid_area.height()) / (2 * self._radius)
        middle = np.array([solid_area.center().x(), solid_area.center().y()])
        projected = [(self._corners3[c] @ turn.T)[:, :2] * flip * scale3 + middle for c in cells.tolist()]
        self._solid = padded(projected) if projected else np.zeros((0, 3, 2))
        self._solid_cells = cells
        self._solid_body = [(shape.face_polygon(f) @ turn.T)[:, :2] * flip * scale3 + middle for f in visible]

    def _face_outlines(self, polygons: np.ndarray, cells: np.ndarray) -> list[np.ndarray]:
        """The outline of each face in the net: the hull of its stickers' corners."""
        out = []
        for f in np.unique(self._faces[cells]):
            points = polygons[self._faces[cells] == f].reshape(-1, 2)
            out.append(_hull(points))
        return out

    # -- painting ------------------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self._place(rect)
        palette, shown = self._sticker_colours(state, options)
        hover = self._handle_at(*options.hover) if options.hover else None
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for body, polygons, cells in ((self._net_body, self._net, np.arange(len(self._net))),
                                      (self._solid_body, self._solid, self._solid_cells)):
            painter.setPen(QPen(QColor(BODY), 1.5))
            painter.setBrush(QColor(BODY))
            for outline in body:
                painter.drawPolygon(_polygon(outline))
            self._paint_stickers(painter, polygons, cells, shown, palette, options, hover)

    def _sticker_colours(self, state: State, options: DrawOptions) -> tuple[list[QColor], np.ndarray]:
        """A palette and the palette index every sticker shows now.

        A colour label takes the puzzle's own colour (the user's edits land there),
        else the colour of the face its cells lie on when they all lie on one (an
        import's labels are often one per cell: its picture then shows faces, not
        the host's generated colours), else the host's colour, else grey.
        Stickers without a cell show their face.
        """
        puzzle = state.puzzle
        faces = np.array([s.face for s in self.model.cutting.stickers])
        face_colours = list(self.model.face_palette.values())
        labels = puzzle.colour_labels
        solved = puzzle.colour_ids
        palette = []
        for k, label in enumerate(labels):
            on = set(faces[self.cells[solved == k]].tolist())
            colour = (puzzle.palette.get(label) or (face_colours[on.pop()] if len(on) == 1 else None)
                      or options.colours.get(label) or self.model.palette.get(label) or "#888888")
            palette.append(QColor(colour))
        palette += [QColor(c) for c in face_colours]
        shown = len(labels) + faces  # stickers without a cell: their face
        shown[self.cells] = state.colour_ids()
        return palette, shown

    def _paint_stickers(self, painter: QPainter, polygons: np.ndarray, cells: np.ndarray, shown: np.ndarray,
                        palette: list[QColor], options: DrawOptions, hover: int | None) -> None:
        """Stickers (``cells`` here are sticker numbers), highlights by puzzle cell, numbers of puzzle cells."""
        hovered = self.handles[hover].stickers if hover is not None else frozenset()
        highlight = {int(self.cells[c]) for c in options.highlight if 0 <= c < len(self.cells)}
        for polygon, sticker in zip(polygons, cells.tolist()):
            cell = sticker
            centre = polygon.mean(axis=0)
            sticker = centre + STICKER * (polygon - centre)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette[shown[cell]])
            painter.drawPolygon(_polygon(sticker))
            if cell in highlight or cell in hovered:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(QColor(HIGHLIGHT if cell in highlight else HOVER), 2.5))
                painter.drawPolygon(_polygon(sticker))
            if options.show_numbers and self.cell_of[cell] >= 0:
                side = math.sqrt(max(_area(polygon), 0.0))
                if side >= 12:
                    font = painter.font()
                    font.setPixelSize(max(6, min(16, int(side * 0.35))))
                    painter.setFont(font)
                    colour = palette[shown[cell]]
                    dark = 0.299 * colour.redF() + 0.587 * colour.greenF() + 0.114 * colour.blueF() > 0.5
                    painter.setPen(QColor("black") if dark else QColor("white"))
                    painter.drawText(QRectF(centre[0] - side, centre[1] - side / 2, 2 * side, side),
                                     Qt.AlignmentFlag.AlignCenter, str(self.cell_of[cell]))

    # -- hit-testing ---------------------------------------------------------------------
    def sticker_at(self, x: float, y: float) -> int | None:
        """The sticker under the point, on the net or on the 3D picture."""
        hits = containing(self._net, x, y)
        if len(hits):
            return int(hits[0])
        hits = containing(self._solid, x, y)
        return int(self._solid_cells[hits[0]]) if len(hits) else None

    def cell_at(self, x: float, y: float) -> int | None:
        sticker = self.sticker_at(x, y)
        if sticker is None or self.cell_of[sticker] < 0:
            return None
        return int(self.cell_of[sticker])

    def _handle_at(self, x: float, y: float, with_power: bool = False) -> int | tuple[int, int] | None:
        """The handle a click at the point plays (with the power that is clockwise seen from the sticker's side)."""
        sticker = self.sticker_at(x, y)
        if sticker is None:
            return None
        direction = self.model.cutting.centres[sticker]
        direction = direction / np.linalg.norm(direction)
        best: tuple[float, int, int] | None = None
        for k, handle in enumerate(self.handles):
            if sticker not in handle.stickers:
                continue
            for end, power in handle.ends:
                if best is None or float(direction @ end) > best[0] + 1e-9:
                    best = (float(direction @ end), k, power)
        if best is None:
            return None
        return (best[1], best[2]) if with_power else best[1]

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """Turn the grip nearest to the sticker: clockwise seen from its side with the left button."""
        hit = self._handle_at(x, y, with_power=True)
        if hit is None:
            return None
        k, power = hit
        return MoveHit(self.handles[k].move, -power if button == "right" else power)

    def drag(self, dx: float, dy: float) -> bool:
        """Turn the 3D picture: sideways about the vertical axis, up and down tilting it."""
        self.yaw = (self.yaw + dx * DRAG_RADIANS_PER_PIXEL) % (2 * math.pi)
        self.pitch = min(MAX_PITCH, max(-MAX_PITCH, self.pitch + dy * DRAG_RADIANS_PER_PIXEL))
        return dx != 0 or dy != 0


def _polygon(points: np.ndarray) -> QPolygonF:
    return QPolygonF([QPointF(px, py) for px, py in points.tolist()])


def _area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * abs(float((x * np.roll(y, -1) - y * np.roll(x, -1)).sum()))


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2D points (monotone chain), counter-clockwise."""
    pts = sorted(set(map(tuple, np.round(points, 9).tolist())))
    if len(pts) < 3:
        return np.array(pts)

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])

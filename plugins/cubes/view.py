"""Drawing a cube: a turnable 3D picture beside the unfolded net (the only module importing Qt).

The 3D picture is an orthographic projection of the cube turned by two
angles (yaw about the vertical axis, pitch about the horizontal one); a mouse
drag changes them, so every face can be brought to the front. Only faces
whose normal points at the viewer are drawn; a cube is convex, so they never
overlap. The net is the usual cross (U above F; L F R B; D below F), each
face drawn in the row/column order of the cell layout.

All geometry is numpy arrays of quadrilaterals (cells x 4 corners x 2);
the same quads serve painting and hit-testing.
"""

from __future__ import annotations

import math

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit, View

from .geometry import FACE_NORMALS, FACES

NET_ORIGIN = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
"""Top-left corner of each face in the cross, in face widths."""

# Each face's top-left corner (cube units, 0..1 scaled by N), the direction of its
# columns and of its rows, matching the cell layout of geometry.py.
_FACE_FRAMES = {
    "U": ((0, 1, 0), (1, 0, 0), (0, 0, 1)),
    "F": ((0, 1, 1), (1, 0, 0), (0, -1, 0)),
    "R": ((1, 1, 1), (0, 0, -1), (0, -1, 0)),
    "B": ((1, 1, 0), (-1, 0, 0), (0, -1, 0)),
    "L": ((0, 1, 0), (0, 0, 1), (0, -1, 0)),
    "D": ((0, 0, 1), (1, 0, 0), (0, 0, -1)),
}

STICKER = 0.88
"""Drawn fraction of a facelet; the rest shows the cube's dark body."""
BRIDGE = 0.8
"""Width of the band joining fused facelets, as a fraction of a facelet (under STICKER: it stays inside on skewed 3D faces)."""
HIGHLIGHT = "#ff00aa"
HOVER = "#00c8ff"
BODY = "#1a1a1a"
SMALL_STICKER_AREA = 64.0
"""Square pixels below which stickers are drawn without antialiasing."""
DRAG_RADIANS_PER_PIXEL = 0.01
MAX_PITCH = math.radians(85)


def _unit_corners() -> np.ndarray:
    """Corners of a facelet in (column, row) offsets, counter-clockwise on screen."""
    return np.array([(0, 0), (1, 0), (1, 1), (0, 1)], dtype=float)


def net_quads(n: int) -> np.ndarray:
    """``(6 n^2, 4, 2)`` corners of every facelet in the net, in facelet units (y down)."""
    quads = np.empty((6, n, n, 4, 2))
    rows, cols = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    for f, face in enumerate(FACES):
        ox, oy = NET_ORIGIN[face]
        quads[f, :, :, :, 0] = ox * n + cols[..., None] + _unit_corners()[:, 0]
        quads[f, :, :, :, 1] = oy * n + rows[..., None] + _unit_corners()[:, 1]
    return quads.reshape(6 * n * n, 4, 2)


def cube_corners(n: int) -> np.ndarray:
    """``(6 n^2, 4, 3)`` corners of every facelet on the cube, centred at the origin, edge ``n``."""
    out = np.empty((6, n, n, 4, 3))
    rows, cols = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    for f, face in enumerate(FACES):
        origin, col_dir, row_dir = (np.array(v, dtype=float) for v in _FACE_FRAMES[face])
        c = cols[..., None] + _unit_corners()[:, 0]
        r = rows[..., None] + _unit_corners()[:, 1]
        out[f] = origin * n + c[..., None] * col_dir + r[..., None] * row_dir
    return out.reshape(6 * n * n, 4, 3) - n / 2


def rotation(yaw: float, pitch: float) -> np.ndarray:
    """Turn by ``yaw`` about the vertical axis, then tilt by ``pitch`` towards the viewer."""
    cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
    about_y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    about_x = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    return about_x @ about_y


def quads_containing(quads: np.ndarray, x: float, y: float) -> np.ndarray:
    """Indices of the convex quads that contain the point (edges shared by neighbours count for both)."""
    if not len(quads):
        return np.zeros(0, dtype=int)
    edges = np.roll(quads, -1, axis=1) - quads
    to_point = np.array([x, y]) - quads
    cross = edges[..., 0] * to_point[..., 1] - edges[..., 1] * to_point[..., 0]
    inside = (cross >= -1e-9).all(axis=1) | (cross <= 1e-9).all(axis=1)
    return np.flatnonzero(inside)


class CubeView(View):
    """A cube's state in 3D (turned by dragging) and as a net; clicks on a facelet turn its face."""

    def __init__(self, puzzle: Puzzle, size: int):
        self.puzzle = puzzle
        self.size = size
        self.yaw = math.radians(-35)
        self.pitch = math.radians(25)
        self._net_unit = net_quads(size)
        self._cube_unit = cube_corners(size)
        self._net = np.zeros((0, 4, 2))
        self._solid = np.zeros((0, 4, 2))
        self._solid_cells = np.zeros(0, dtype=int)

    # -- geometry of the last paint ------------------------------------------------
    def _layout(self, rect: QRectF) -> tuple[QRectF, QRectF]:
        """Split ``rect`` into the 3D area and the net area (side by side, or stacked when tall)."""
        w, h = rect.width(), rect.height()
        if h > w:
            side = min(w, h * 0.45)
            return QRectF(rect.left(), rect.top(), w, side), QRectF(rect.left(), rect.top() + side, w, h - side)
        side = min(h, w * 0.4)
        return QRectF(rect.left(), rect.top(), side, h), QRectF(rect.left() + side, rect.top(), w - side, h)

    def _place(self, rect: QRectF) -> None:
        """Compute the screen quads of the net and of the visible 3D faces for ``rect``."""
        solid_area, net_area = self._layout(rect)
        n = self.size
        margin = 0.04 * min(net_area.width(), net_area.height())
        scale = max(0.0, min((net_area.width() - 2 * margin) / (4 * n), (net_area.height() - 2 * margin) / (3 * n)))
        offset = np.array([net_area.center().x() - 2 * n * scale, net_area.center().y() - 1.5 * n * scale])
        self._net = self._net_unit * scale + offset

        turn = rotation(self.yaw, self.pitch)
        visible_faces = np.flatnonzero((FACE_NORMALS @ turn.T)[:, 2] > 1e-6)
        cells = (visible_faces[:, None] * n * n + np.arange(n * n)).ravel()
        points = self._cube_unit[cells] @ turn.T
        radius = n * math.sqrt(3) / 2
        scale3 = 0.95 * min(solid_area.width(), solid_area.height()) / (2 * radius)
        centre = np.array([solid_area.center().x(), solid_area.center().y()])
        self._solid = np.stack([points[..., 0], -points[..., 1]], axis=-1) * scale3 + centre
        self._solid_cells = cells

    # -- View ------------------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self._place(rect)
        palette = [QColor(options.colours.get(c) or self.puzzle.palette.get(c) or "#888888")
                   for c in self.puzzle.colour_labels]
        shown = state.colour_ids()
        hover_face = self._face_at(*options.hover) if options.hover else None
        bridges = self._bridges(state)
        for quads, cells in ((self._net, np.arange(len(self._net))), (self._solid, self._solid_cells)):
            if len(quads):
                self._paint_part(painter, quads, cells, shown, palette, options)
                self._paint_bridges(painter, quads, cells, bridges, shown, palette)
                self._paint_hover_face(painter, quads, cells, hover_face)

    def _bridges(self, state: State) -> np.ndarray:
        """``(k, 2)`` positions of fused facelets side by side on one face (a bandaged cube's visible glue)."""
        if not self.puzzle.blockings:
            return np.zeros((0, 2), dtype=int)
        n = self.size
        position_of = np.argsort(state.perm)  # original cell -> where it is now
        pairs = []
        for fused in self.puzzle.blockings:
            where = position_of[sorted(fused)]
            face, row, col = where // (n * n), where % (n * n) // n, where % n
            apart = np.abs(row[:, None] - row[None, :]) + np.abs(col[:, None] - col[None, :])
            i, j = np.nonzero((face[:, None] == face[None, :]) & (apart == 1))
            pairs += [(where[a], where[b]) for a, b in zip(i.tolist(), j.tolist()) if a < b]
        return np.array(pairs, dtype=int).reshape(-1, 2)

    @staticmethod
    def _paint_bridges(painter: QPainter, quads: np.ndarray, cells: np.ndarray, bridges: np.ndarray,
                       shown: np.ndarray, palette: list[QColor]) -> None:
        """Fill the gap between fused facelets with their colour, so a bandaged block reads as one piece."""
        if not len(bridges):
            return
        index = {int(c): k for k, c in enumerate(cells)}
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for a, b in bridges.tolist():
            if a not in index or b not in index:  # a face the 3D picture does not show
                continue
            qa, qb = quads[index[a]], quads[index[b]]
            ca, cb = qa.mean(axis=0), qb.mean(axis=0)
            width = BRIDGE * math.sqrt(min(_areas(qa[None])[0], _areas(qb[None])[0]))
            pen = QPen(palette[shown[a]], width)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            painter.drawLine(QPointF(*ca), QPointF(*cb))

    def _paint_part(self, painter: QPainter, quads: np.ndarray, cells: np.ndarray, shown: np.ndarray,
                    palette: list[QColor], options: DrawOptions) -> None:
        """The net, or the visible faces of the 3D picture: body, stickers, highlights, numbers."""
        self._paint_body(painter, quads, cells)
        areas = _areas(quads)
        centres = quads.mean(axis=1)
        # tiny stickers (a 33x33x33 net has 4-pixel cells) are drawn whole and without antialiasing:
        # gaps and smoothing would only blur them into a moire, and cost much time
        large = float(np.median(areas)) >= SMALL_STICKER_AREA
        stickers = centres[:, None, :] + (STICKER if large else 1.0) * (quads - centres[:, None, :])
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, large)
        self._paint_stickers(painter, stickers, shown[cells], palette)
        if options.highlight:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(QColor(HIGHLIGHT), 3.0))
            for sticker, cell in zip(stickers, cells):
                if int(cell) in options.highlight:
                    painter.drawPolygon(_polygon(sticker))
        if options.show_numbers:
            self._paint_numbers(painter, np.sqrt(areas), centres, cells, [palette[k] for k in shown[cells]])

    def _paint_body(self, painter: QPainter, quads: np.ndarray, cells: np.ndarray) -> None:
        """The dark plastic under the stickers: one polygon per face shown."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        n2 = self.size * self.size
        painter.setPen(QPen(QColor(BODY), 1.5))
        painter.setBrush(QColor(BODY))
        for face in np.unique(cells // n2):
            painter.drawPolygon(_polygon(_face_outline(quads[cells // n2 == face], self.size)))

    @staticmethod
    def _paint_stickers(painter: QPainter, stickers: np.ndarray, shown: np.ndarray, palette: list[QColor]) -> None:
        """One filled path per colour: far fewer paint calls than one per sticker on big cubes."""
        for colour in np.unique(shown):
            path = QPainterPath()
            for sticker in stickers[shown == colour]:
                path.addPolygon(_polygon(sticker))
                path.closeSubpath()
            painter.fillPath(path, palette[colour])

    @staticmethod
    def _paint_numbers(painter: QPainter, sides: np.ndarray, centres: np.ndarray, cells: np.ndarray,
                       fills: list[QColor]) -> None:
        font = painter.font()
        for side, (x, y), cell, fill in zip(sides.tolist(), centres.tolist(), cells.tolist(), fills):
            if side < 9:
                continue  # too small to read; the number would only smear the colour
            font.setPixelSize(max(6, int(side * (0.45 if cell < 100 else 0.32))))
            painter.setFont(font)
            painter.setPen(QColor("black") if _luminance(fill) > 0.5 else QColor("white"))
            painter.drawText(QRectF(x - side, y - side / 2, 2 * side, side), Qt.AlignmentFlag.AlignCenter, str(cell))

    def _paint_hover_face(self, painter: QPainter, quads: np.ndarray, cells: np.ndarray,
                             hover_face: int | None) -> None:
        """Outline the face under the mouse: the face a click turns."""
        if hover_face is None:
            return
        n2 = self.size * self.size
        corners = quads[cells // n2 == hover_face]
        if not len(corners):
            return
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(HOVER), 3.0))
        outline = _face_outline(corners, self.size)
        painter.drawPolygon(_polygon(outline))

    def cell_at(self, x: float, y: float) -> int | None:
        hits = quads_containing(self._net, x, y)
        if len(hits):
            return int(hits[0])
        hits = quads_containing(self._solid, x, y)
        return int(self._solid_cells[hits[0]]) if len(hits) else None

    def _face_at(self, x: float, y: float) -> int | None:
        cell = self.cell_at(x, y)
        return None if cell is None else cell // (self.size * self.size)

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """A click on a facelet turns its face: clockwise with the left button, back with the right."""
        face = self._face_at(x, y)
        if face is None:
            return None
        return MoveHit(FACES[face], -1 if button == "right" else 1)

    def drag(self, dx: float, dy: float) -> bool:
        """Turn the 3D picture: horizontal drags about the vertical axis, vertical drags tilt it."""
        self.yaw = (self.yaw + dx * DRAG_RADIANS_PER_PIXEL) % (2 * math.pi)
        self.pitch = min(MAX_PITCH, max(-MAX_PITCH, self.pitch + dy * DRAG_RADIANS_PER_PIXEL))
        return dx != 0 or dy != 0


def _polygon(points: np.ndarray) -> QPolygonF:
    return QPolygonF([QPointF(px, py) for px, py in points.tolist()])


def _luminance(colour: QColor) -> float:
    """Perceived brightness 0..1: picks black or white text that stays readable on the colour."""
    return 0.299 * colour.redF() + 0.587 * colour.greenF() + 0.114 * colour.blueF()


def _areas(quads: np.ndarray) -> np.ndarray:
    """Screen area of every quad (shoelace formula), in square pixels."""
    x, y = quads[..., 0], quads[..., 1]
    return 0.5 * np.abs((x * np.roll(y, -1, axis=1) - y * np.roll(x, -1, axis=1)).sum(axis=1))


def _face_outline(corners: np.ndarray, n: int) -> np.ndarray:
    """The four outer corners of a face from its facelet quads in row-major order."""
    return np.array([corners[0, 0], corners[n - 1, 1], corners[n * n - 1, 2], corners[n * (n - 1), 3]])

"""Drawing a globe: a turnable sphere beside its flat map (Qt).

The sphere is an orthographic picture turned by two angles (yaw about the
polar axis, pitch towards the viewer; a mouse drag changes them). Cell
``(row, column)`` is the patch between two latitudes (row 0 at the north pole)
and two longitudes (columns eastwards), drawn as a polygon sampled along its
four edges; a patch that crosses the rim has its hidden corners pressed onto
the rim. The map is the same grid unrolled (equirectangular, twice as wide as
tall), with a strip of flip handles under it.

Clicks: a cell turns its row (``r_i``: left button, the colours go west;
right button back); a flip handle (a dot on the equator of the sphere, or in
the strip under the map, at the middle of the half it turns) plays ``f_j``.
Hovering a handle or a cell outlines the cells the click would move.
"""

from __future__ import annotations

import math

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPen

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit, View

from . import geometry as G
from .drawing import BODY, HIGHLIGHT, HOVER, area, fill_by_colour, number, outline, shown_colours, split

INSET = 0.035
"""Fraction of a cell's latitude and longitude span left as a gap on each side."""
DRAG_RADIANS_PER_PIXEL = 0.01
MAX_PITCH = math.radians(85)
VISIBLE = 0.2
"""A flip handle on the sphere is shown (and clickable) when it faces the viewer this much (cosine)."""


def rotation(yaw: float, pitch: float) -> np.ndarray:
    """Turn by ``yaw`` about the polar (vertical) axis, then tilt by ``pitch`` towards the viewer."""
    cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
    about_y = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    about_x = np.array([[1, 0, 0], [0, cp, -sp], [0, sp, cp]])
    return about_x @ about_y


def on_sphere(latitude: np.ndarray, longitude: np.ndarray) -> np.ndarray:
    """Unit vectors (x east at longitude 0, y north, z towards longitude 0) of latitude/longitude in radians."""
    c = np.cos(latitude)
    return np.stack([c * np.sin(longitude), np.sin(latitude), c * np.cos(longitude)], axis=-1)


def cell_outlines(rows: int, columns: int) -> list[np.ndarray]:
    """Every cell's outline on the unit sphere, ``(k, 3)`` points anticlockwise seen from outside, in cell order."""
    d_lat, d_lon = math.pi / rows, 2 * math.pi / columns
    samples_lat = max(2, math.ceil(math.degrees(d_lat) / 6))
    samples_lon = max(2, math.ceil(math.degrees(d_lon) / 6))
    out = []
    for row in range(rows):
        top = math.pi / 2 - (row + INSET) * d_lat
        bottom = math.pi / 2 - (row + 1 - INSET) * d_lat
        lat = np.linspace(top, bottom, samples_lat)
        for column in range(columns):
            west, east = (column + INSET) * d_lon, (column + 1 - INSET) * d_lon
            lon = np.linspace(west, east, samples_lon)
            edge_lat = np.concatenate([np.full(samples_lon, top), lat, np.full(samples_lon, bottom), lat[::-1]])
            edge_lon = np.concatenate([lon, np.full(samples_lat, east), lon[::-1], np.full(samples_lat, west)])
            out.append(on_sphere(edge_lat, edge_lon))
    return out


class GlobeView(View):
    """A globe's state on a sphere (turned by dragging) and on its map; clicks turn rows and flip halves."""

    def __init__(self, puzzle: Puzzle, rows: int, columns: int):
        self.puzzle = puzzle
        self.rows, self.columns = rows, columns
        self.yaw = math.radians(-15)
        self.pitch = math.radians(20)
        self._outlines = cell_outlines(rows, columns)
        half = columns // 2
        axes = 2 * math.pi * (np.arange(columns) + half / 2) / columns
        self._axes = on_sphere(np.zeros(columns), axes)
        """Where each flip's axis leaves the sphere: the middle of the half it turns."""
        self._moved = {name: np.flatnonzero(perm != np.arange(rows * columns))
                       for name, perm in G.globe_moves(rows, columns).items()}
        # geometry of the last paint
        self._centre = np.zeros(2)
        self._radius = 0.0
        self._turn = rotation(self.yaw, self.pitch)
        self._map = QRectF()
        self._strip = QRectF()
        self._handle_radius = 0.0

    # -- placing -------------------------------------------------------------------------------
    def _place(self, rect: QRectF) -> None:
        """Sphere in the first part of ``rect``, the map and its handle strip centred in the rest."""
        sphere, rest = split(rect, 0.42)
        self._radius = 0.46 * min(sphere.width(), sphere.height())
        self._centre = np.array([sphere.center().x(), sphere.center().y()])
        self._turn = rotation(self.yaw, self.pitch)
        width = max(0.0, min(0.94 * rest.width(), 2 * 0.8 * rest.height()))
        self._handle_radius = max(2.0, min(0.42 * width / self.columns, 12.0))
        strip = 2 * self._handle_radius + 8
        width = max(0.0, min(width, 2 * (0.94 * rest.height() - strip)))
        height = width / 2
        left = rest.center().x() - width / 2
        top = rest.center().y() - (height + strip) / 2
        self._map = QRectF(left, top, width, height)
        self._strip = QRectF(left, top + height, width, strip)

    def _sphere_shapes(self) -> tuple[list[np.ndarray], list[int]]:
        """Screen polygons of the cells facing the viewer (hidden corners pressed onto the rim)."""
        shapes, cells = [], []
        for cell, points in enumerate(self._outlines):
            turned = points @ self._turn.T
            front = turned[:, 2] >= 0
            if not front.any():
                continue
            xy = turned[:, :2].copy()
            behind = ~front
            xy[behind] /= np.linalg.norm(xy[behind], axis=1, keepdims=True).clip(1e-9)
            shapes.append(self._centre + self._radius * np.stack([xy[:, 0], -xy[:, 1]], axis=1))
            cells.append(cell)
        return shapes, cells

    def _map_shapes(self) -> list[np.ndarray]:
        w, h = self._map.width() / self.columns, self._map.height() / self.rows
        shapes = []
        for row in range(self.rows):
            for column in range(self.columns):
                x0 = self._map.left() + (column + INSET) * w
                y0 = self._map.top() + (row + INSET) * h
                x1, y1 = x0 + (1 - 2 * INSET) * w, y0 + (1 - 2 * INSET) * h
                shapes.append(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))
        return shapes

    def _sphere_handles(self) -> tuple[np.ndarray, np.ndarray]:
        """Screen points and flip indices of the handles on the visible side of the equator."""
        turned = self._axes @ self._turn.T
        visible = np.flatnonzero(turned[:, 2] > VISIBLE)
        points = self._centre + self._radius * np.stack([turned[visible, 0], -turned[visible, 1]], axis=1)
        return points, visible

    def _strip_handles(self) -> np.ndarray:
        """Screen points of the map's flip handles, flip ``j`` under the middle of the half it turns."""
        middle = (np.arange(self.columns) + self.columns / 4) % self.columns
        x = self._map.left() + middle * self._map.width() / self.columns
        return np.stack([x, np.full(self.columns, self._strip.center().y())], axis=1)

    # -- View ----------------------------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self._place(rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colours = shown_colours(self.puzzle, state, options)
        hover = self.move_at(*options.hover) if options.hover else None
        moved = set(self._moved[hover.move].tolist()) if hover else set()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(BODY))
        painter.drawEllipse(QPointF(*self._centre), self._radius, self._radius)
        painter.drawRect(self._map)
        sphere_shapes, sphere_cells = self._sphere_shapes()
        map_shapes = self._map_shapes()
        for shapes, cells in ((sphere_shapes, sphere_cells), (map_shapes, list(range(len(map_shapes))))):
            fill_by_colour(painter, shapes, cells, colours)
            outline(painter, [s for s, c in zip(shapes, cells) if c in options.highlight], HIGHLIGHT, 3.0)
            outline(painter, [s for s, c in zip(shapes, cells) if c in moved], HOVER, 2.0)
            if options.show_numbers:
                for shape, cell in zip(shapes, cells):
                    number(painter, tuple(shape.mean(axis=0)), 0.8 * math.sqrt(area(shape)), cell, colours[cell])
        self._paint_handles(painter, hover)

    def _paint_handles(self, painter: QPainter, hover: MoveHit | None) -> None:
        """Flip handles: white dots, the one under the mouse (or of the hovered flip) in the hover colour."""
        r = self._handle_radius
        sphere_points, sphere_flips = self._sphere_handles()
        points = np.concatenate([sphere_points, self._strip_handles()])
        flips = np.concatenate([sphere_flips, np.arange(self.columns)])
        for (x, y), flip in zip(points.tolist(), flips.tolist()):
            lit = hover is not None and hover.move == f"f{flip}"
            painter.setPen(QPen(QColor(BODY), 1.5))
            painter.setBrush(QColor(HOVER if lit else "#f4f4f4"))
            painter.drawEllipse(QPointF(x, y), r, r)

    def cell_at(self, x: float, y: float) -> int | None:
        if self._map.contains(QPointF(x, y)):
            column = min(self.columns - 1, int((x - self._map.left()) / self._map.width() * self.columns))
            row = min(self.rows - 1, int((y - self._map.top()) / self._map.height() * self.rows))
            return row * self.columns + column
        if self._radius <= 0:
            return None
        u, v = (x - self._centre[0]) / self._radius, -(y - self._centre[1]) / self._radius
        if u * u + v * v > 1:
            return None
        world = self._turn.T @ np.array([u, v, math.sqrt(1 - u * u - v * v)])
        latitude = math.asin(max(-1.0, min(1.0, world[1])))
        longitude = math.atan2(world[0], world[2]) % (2 * math.pi)
        row = min(self.rows - 1, int((math.pi / 2 - latitude) / math.pi * self.rows))
        column = min(self.columns - 1, int(longitude / (2 * math.pi) * self.columns))
        return row * self.columns + column

    def _flip_at(self, x: float, y: float) -> int | None:
        if self._radius <= 0:
            return None
        sphere_points, sphere_flips = self._sphere_handles()
        points = np.concatenate([sphere_points, self._strip_handles()])
        flips = np.concatenate([sphere_flips, np.arange(self.columns)])
        distance = np.hypot(points[:, 0] - x, points[:, 1] - y)
        k = int(distance.argmin())
        return int(flips[k]) if distance[k] <= self._handle_radius + 2 else None

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """A flip handle flips its half; a cell turns its row (left: colours go west, right: back east)."""
        flip = self._flip_at(x, y)
        if flip is not None:
            return MoveHit(f"f{flip}", 1)
        cell = self.cell_at(x, y)
        if cell is None:
            return None
        return MoveHit(f"r{cell // self.columns}", -1 if button == "right" else 1)

    def drag(self, dx: float, dy: float) -> bool:
        """Turn the sphere: sideways about the polar axis, up and down tilting it (short of the poles)."""
        self.yaw = (self.yaw + dx * DRAG_RADIANS_PER_PIXEL) % (2 * math.pi)
        self.pitch = min(MAX_PITCH, max(-MAX_PITCH, self.pitch + dy * DRAG_RADIANS_PER_PIXEL))
        return dx != 0 or dy != 0

"""Drawing a wreath: two crossing rings of cells (Qt).

Both rings are circles of one radius; they cross at two points, where the
two shared cells sit (cell 0 at the lower crossing, the left ring's cell
``k`` at the upper one). Each ring's cells are spread evenly over its part
inside the other ring and over its outer part, in the order its move shifts
them, going anticlockwise on screen; so a move carries the colours one cell
clockwise. The crossings are placed so that both rings' inner parts get the
same arc, which keeps the spacing nearly even (exactly even for large rings).

Clicks: on or inside a ring, the ring turns (left button clockwise, right
button back); a point in the overlap belongs to the nearer ring's line.
"""

from __future__ import annotations

import math

import numpy as np
from PyQt6.QtCore import QPointF, QRectF
from PyQt6.QtGui import QColor, QPainter, QPen, QPolygonF

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit, View

from . import geometry as G
from .drawing import BODY, HIGHLIGHT, HOVER, number, shown_colours

TRACK = "#9a9a9a"
MAX_HALF = 0.4 * math.pi
REACH = 1.8
"""A click this many cell radii off a ring's line still turns that ring."""


def arc_angles(count: int, start: float, first_span: float, first_steps: int) -> np.ndarray:
    """Screen angles (y down) of ``count`` cells going anticlockwise from ``start``: ``first_steps``
    equal steps over ``first_span``, then equal steps over the rest of the circle."""
    t = np.arange(count)
    rest = (2 * math.pi - first_span) / (count - first_steps)
    return np.where(t <= first_steps, start - t * first_span / first_steps,
                    start - first_span - (t - first_steps) * rest)


def ring_layout(size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(cells, 2)`` centres of the unit-radius layout (y down) and the two ring centres ``(2, 2)``.

    The left ring runs from cell 0 (lower crossing) up its inner arc in ``k`` steps to cell ``k``
    (upper crossing), then round the outside; the right ring runs from cell 0 round its outside in
    ``size - k - 1`` steps to cell ``k``, then down its inner arc in ``k + 1`` steps.
    """
    k = G.second_shared_cell(size)
    left, right = G.wreath_rings(size)
    half = min(math.pi * (k + 0.5) / size, MAX_HALF)
    """Half the arc of either ring inside the other, between the k and k + 1 steps the two rings have there
    (at most :data:`MAX_HALF`: small rings would otherwise nearly coincide)."""
    centres = np.array([(-math.cos(half), 0.0), (math.cos(half), 0.0)])
    points = np.zeros((2 * size - 2, 2))
    for ring, centre, angles in (
        (left, centres[0], arc_angles(size, half, 2 * half, k)),
        (right, centres[1], arc_angles(size, math.pi - half, 2 * math.pi - 2 * half, size - k - 1)),
    ):
        points[ring] = centre + np.stack([np.cos(angles), np.sin(angles)], axis=1)
    return points, centres


class WreathView(View):
    """A wreath's state as two crossing rings of discs; a click turns the ring under it."""

    MOVES = ("l", "r")

    def __init__(self, puzzle: Puzzle, size: int):
        self.puzzle = puzzle
        self.size = size
        self._unit, self._unit_centres = ring_layout(size)
        self._rings = [np.array(ring) for ring in G.wreath_rings(size)]
        gaps = np.hypot(*(self._unit[:, None, :] - self._unit[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(gaps, np.inf)
        self._unit_spacing = float(gaps.min())
        # geometry of the last paint
        self._points = np.zeros_like(self._unit)
        self._centres = np.zeros((2, 2))
        self._radius = 0.0
        self._cell_radius = 0.0

    def _place(self, rect: QRectF) -> None:
        """Fit the layout (rings plus a cell's margin) into ``rect``, aspect kept."""
        margin = 2.5 * min(0.45 * self._unit_spacing, 0.12)  # room for a cell and the arrow outside it
        lo = np.array([self._unit_centres[0, 0] - 1 - margin, -1 - margin])
        hi = np.array([self._unit_centres[1, 0] + 1 + margin, 1 + margin])
        scale = min(rect.width() / (hi[0] - lo[0]), rect.height() / (hi[1] - lo[1]))
        origin = np.array([rect.center().x(), rect.center().y()]) - scale * (lo + hi) / 2
        self._points = origin + scale * self._unit
        self._centres = origin + scale * self._unit_centres
        self._radius = scale
        self._cell_radius = min(0.45 * scale * self._unit_spacing, 0.12 * scale)

    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self._place(rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colours = shown_colours(self.puzzle, state, options)
        hover = self._ring_at(*options.hover) if options.hover else None
        track = max(1.5, 0.35 * self._cell_radius)
        for ring, centre in enumerate(self._centres):
            painter.setPen(QPen(QColor(HOVER if ring == hover else TRACK), track))
            painter.setBrush(QColor(0, 0, 0, 0))
            painter.drawEllipse(QPointF(*centre), self._radius, self._radius)
            self._paint_arrow(painter, ring, QColor(HOVER if ring == hover else TRACK))
        moved = set(self._rings[hover].tolist()) if hover is not None else set()
        r = self._cell_radius
        outline = QColor("#e8e8e8") if options.dark else QColor(BODY)
        for cell, (x, y) in enumerate(self._points.tolist()):
            if cell in options.highlight:
                painter.setPen(QPen(QColor(HIGHLIGHT), 3.0))
            elif cell in moved:
                painter.setPen(QPen(QColor(HOVER), 2.5))
            else:
                painter.setPen(QPen(outline, 1.0))
            painter.setBrush(colours[cell])
            painter.drawEllipse(QPointF(x, y), r, r)
            if options.show_numbers:
                number(painter, (x, y), 1.6 * r, cell, colours[cell])

    def _paint_arrow(self, painter: QPainter, ring: int, colour: QColor) -> None:
        """An arrowhead on the ring's far side, between two cells, showing where a left click carries the colours."""
        cx, cy = self._centres[ring]
        cells = self._rings[ring]
        angles = np.arctan2(self._points[cells, 1] - cy, self._points[cells, 0] - cx)
        following = np.roll(angles, -1)
        middle = np.arctan2(np.sin(angles) + np.sin(following), np.cos(angles) + np.cos(following))
        far = math.pi if ring == 0 else 0.0
        angle = float(middle[np.argmin(np.abs(np.angle(np.exp(1j * (middle - far)))))])
        size = max(6.0, 1.1 * self._cell_radius)
        out = self._radius + self._cell_radius + 0.8 * size  # just outside the cells
        x, y = cx + out * math.cos(angle), cy + out * math.sin(angle)
        tx, ty = -math.sin(angle), math.cos(angle)  # clockwise on screen (y down)
        tip = QPointF(x + tx * size / 2, y + ty * size / 2)
        base = [QPointF(x - tx * size / 2 + nx * 0.6 * size, y - ty * size / 2 + ny * 0.6 * size)
                for nx, ny in ((ty, -tx), (-ty, tx))]
        painter.setPen(QPen(colour, 1.0))
        painter.setBrush(colour)
        painter.drawPolygon(QPolygonF([tip, *base]))

    def cell_at(self, x: float, y: float) -> int | None:
        if self._cell_radius <= 0:
            return None
        d = np.hypot(self._points[:, 0] - x, self._points[:, 1] - y)
        i = int(d.argmin())
        return i if d[i] <= self._cell_radius else None

    def _ring_at(self, x: float, y: float) -> int | None:
        """Of the rings holding the point, the one whose line is nearer; else a ring whose line is within reach."""
        if self._radius <= 0:
            return None
        to_centre = np.hypot(self._centres[:, 0] - x, self._centres[:, 1] - y)
        off_line = np.abs(to_centre - self._radius)
        inside = to_centre <= self._radius
        candidates = np.flatnonzero(inside) if inside.any() else np.flatnonzero(off_line <= REACH * self._cell_radius)
        return int(candidates[np.argmin(off_line[candidates])]) if len(candidates) else None

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """The ring under the point turns: left button clockwise, right button back."""
        ring = self._ring_at(x, y)
        if ring is None:
            return None
        return MoveHit(self.MOVES[ring], -1 if button == "right" else 1)

"""Qt drawing of a Square-1: both layers from their own side, the middle layer, and the cut.

The top layer is drawn as seen from above, the bottom layer as seen from
below (mirrored), the middle layer's halves as a bar beneath them. The cut
line is solid red when the slash ``T`` is legal and dashed grey when a corner
straddles it. Clicking a layer turns it (left: ``U``/``D``, right: inverse);
clicking the middle bar plays the slash.
"""

from __future__ import annotations

import math

from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit, View

from . import geometry as G

FACE_PART = 0.74
"""Fraction of a wedge's radius painted with its top/bottom colour; the rest shows its side sticker."""


class Square1View(View):
    """Top view of both layers; remembers the last layout for hit-testing."""

    def __init__(self, puzzle: Puzzle, middle: bool):
        self.puzzle = puzzle
        self.middle = middle
        self.faces = G.cell_faces(middle)
        self._layers: list[tuple[QPointF, float, bool]] = []
        self._bar = QRectF()

    # -- layout -----------------------------------------------------------------------
    def _layout(self, rect: QRectF) -> None:
        half = min(rect.width() / 4.6, rect.height() / 2.8)
        cy = rect.top() + 1.12 * half
        self._layers = [
            (QPointF(rect.center().x() - 1.15 * half, cy), half, False),
            (QPointF(rect.center().x() + 1.15 * half, cy), half, True),
        ]
        self._bar = QRectF(rect.center().x() - 1.4 * half, cy + 1.22 * half, 2.8 * half, 0.35 * half)

    @staticmethod
    def _direction(phi_deg: float, mirrored: bool) -> tuple[float, float]:
        phi = math.radians(phi_deg)
        return (-math.sin(phi) if mirrored else math.sin(phi)), -math.cos(phi)

    def _boundary(self, centre: QPointF, half: float, phi: float, mirrored: bool, scale: float) -> QPointF:
        """The point of the layer's square outline at physical angle ``phi`` (0 = back, clockwise)."""
        dx, dy = self._direction(phi, mirrored)
        r = half * scale / max(abs(dx), abs(dy))
        return QPointF(centre.x() + r * dx, centre.y() + r * dy)

    def _wedge(self, centre: QPointF, half: float, k: int, mirrored: bool, inner: float, outer: float) -> QPolygonF:
        """The part of wedge ``k`` between two fractions of the radius (square corners kept)."""
        start = 30 * k + 15
        angles = [start] + [a for a in (45, 135, 225, 315, 405) if start < a < start + 30] + [start + 30]
        outline = [self._boundary(centre, half, a, mirrored, outer) for a in angles]
        if inner <= 0:
            return QPolygonF([centre, *outline])
        back = [self._boundary(centre, half, a, mirrored, inner) for a in reversed(angles)]
        return QPolygonF(outline + back)

    # -- drawing ------------------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self._layout(rect)
        outline = QColor("#dddddd" if options.dark else "#222222")
        for layer, (centre, half, mirrored) in enumerate(self._layers):
            for k in range(G.WEDGES):
                face, side = self.faces[int(state.perm[12 * layer + k])]
                self._fill(painter, self._wedge(centre, half, k, mirrored, 0.0, FACE_PART), self._colour(face, options))
                self._fill(painter, self._wedge(centre, half, k, mirrored, FACE_PART, 1.0), self._colour(side, options))
            self._outlines(painter, centre, half, mirrored, layer, state, options, outline)
            if options.show_numbers:
                for k in range(G.WEDGES):
                    self._number(painter, centre, half, k, mirrored, 12 * layer + k, outline)
            self._cut(painter, centre, half, mirrored, state)
        if self.middle:
            self._paint_middle(painter, state, options, outline)

    def _outlines(self, painter: QPainter, centre: QPointF, half: float, mirrored: bool, layer: int, state: State,
                  options: DrawOptions, pen: QColor) -> None:
        """Piece borders: no line between the two wedges of one corner; highlighted wedges drawn bold."""
        piece_of = self._piece_of()
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(pen, 1.0))
        for k in range(G.WEDGES):
            here, before = 12 * layer + k, 12 * layer + (k - 1) % G.WEDGES
            a, b = piece_of.get(int(state.perm[here])), piece_of.get(int(state.perm[before]))
            if a is None or a != b:
                phi = 30 * k + 15
                painter.drawLine(centre, self._boundary(centre, half, phi, mirrored, 1.0))
        painter.drawPolygon(QPolygonF([self._boundary(centre, half, a, mirrored, 1.0) for a in (45, 135, 225, 315)]))
        painter.drawPolygon(QPolygonF([self._boundary(centre, half, a, mirrored, FACE_PART) for a in (45, 135, 225, 315)]))
        painter.setPen(QPen(pen, 3.0))
        for k in range(G.WEDGES):
            if 12 * layer + k in options.highlight:
                painter.drawPolygon(self._wedge(centre, half, k, mirrored, 0.0, 1.0))

    def _piece_of(self) -> dict[int, int]:
        """Cell -> index of its fused set (the corners' wedge pairs)."""
        return {c: k for k, fused in enumerate(self.puzzle.blockings) for c in fused}

    @staticmethod
    def _fill(painter: QPainter, polygon: QPolygonF, colour: QColor) -> None:
        """Fill with a hairline of the same colour, so neighbouring wedges of one piece show no seam."""
        painter.setPen(QPen(colour, 1.0))
        painter.setBrush(QBrush(colour))
        painter.drawPolygon(polygon)

    def _colour(self, face: str, options: DrawOptions) -> QColor:
        return QColor(options.colours.get(face, G.PALETTE[face]))

    def _number(self, painter: QPainter, centre: QPointF, half: float, k: int, mirrored: bool, position: int,
                pen: QColor) -> None:
        at = self._boundary(centre, half, 30 * k + 30, mirrored, 0.5)
        painter.setPen(QPen(pen))
        painter.setFont(QFont("sans", max(6, int(half / 9))))
        painter.drawText(QRectF(at.x() - 20, at.y() - 10, 40, 20), Qt.AlignmentFlag.AlignCenter, str(position))

    def _cut(self, painter: QPainter, centre: QPointF, half: float, mirrored: bool, state: State) -> None:
        """The slash's cut line: red when the slash is legal here, dashed grey when blocked."""
        blocked = bool(fused_sets_torn(self.puzzle, state.perm, "T"))
        pen = QPen(QColor("#888888" if blocked else "#d01010"), 2.5)
        if blocked:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(self._boundary(centre, half, 15, mirrored, 1.08), self._boundary(centre, half, 195, mirrored, 1.08))

    def _middle_cells(self) -> list[tuple[int, QRectF]]:
        """Bar slices left to right as seen from the front: left half (26, 27), right half (25, 24)."""
        w = self._bar.width() / 4
        order = (27, 26, 25, 24)
        return [(c, QRectF(self._bar.left() + i * w, self._bar.top(), w, self._bar.height())) for i, c in enumerate(order)]

    def _paint_middle(self, painter: QPainter, state: State, options: DrawOptions, outline: QColor) -> None:
        for position, box in self._middle_cells():
            face, _ = self.faces[int(state.perm[position])]
            painter.setPen(QPen(outline, 3.0 if position in options.highlight else 1.0))
            painter.setBrush(QBrush(self._colour(face, options)))
            painter.drawRect(box)
        path = QPainterPath()
        path.addRect(self._bar)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)

    # -- hit-testing ------------------------------------------------------------------
    def _layer_at(self, x: float, y: float) -> tuple[int, int] | None:
        """``(layer, wedge)`` under the point, or None."""
        for layer, (centre, half, mirrored) in enumerate(self._layers):
            dx, dy = x - centre.x(), y - centre.y()
            if max(abs(dx), abs(dy)) > half or (dx == 0 and dy == 0):
                continue
            if mirrored:
                dx = -dx
            phi = math.degrees(math.atan2(dx, -dy)) % 360
            return layer, int(((phi - 15) % 360) // 30)
        return None

    def cell_at(self, x: float, y: float) -> int | None:
        hit = self._layer_at(x, y)
        if hit is not None:
            return 12 * hit[0] + hit[1]
        if self.middle:
            for position, box in self._middle_cells():
                if box.contains(QPointF(x, y)):
                    return position
        return None

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        power = -1 if button == "right" else 1
        hit = self._layer_at(x, y)
        if hit is not None:
            return MoveHit("UD"[hit[0]], power)
        if self._bar.contains(QPointF(x, y)):
            return MoveHit("T", 1)
        return None

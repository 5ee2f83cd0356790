"""What the globe and the wreath views draw alike: cell colours, polygons by colour, outlines, numbers (Qt)."""

from __future__ import annotations

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions

HIGHLIGHT = "#ff00aa"
HOVER = "#00c8ff"
BODY = "#1a1a1a"


def shown_colours(puzzle: Puzzle, state: State, options: DrawOptions) -> list[QColor]:
    """The colour of the cell now at every position (the host's colours first, then the puzzle's palette)."""
    palette = [QColor(options.colours.get(label) or puzzle.palette.get(label) or "#888888")
               for label in puzzle.colour_labels]
    return [palette[k] for k in state.colour_ids().tolist()]


def polygon(points: np.ndarray) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in points.tolist()])


def fill_by_colour(painter: QPainter, shapes: list[np.ndarray], cells: list[int], colours: list[QColor]) -> None:
    """One path per colour: a few fills instead of one per cell."""
    paths: dict[int, tuple[QColor, QPainterPath]] = {}
    for shape, cell in zip(shapes, cells):
        colour = colours[cell]
        _, path = paths.setdefault(colour.rgba(), (colour, QPainterPath()))
        path.addPolygon(polygon(shape))
        path.closeSubpath()
    for colour, path in paths.values():
        painter.fillPath(path, colour)


def outline(painter: QPainter, shapes: list[np.ndarray], colour: str, width: float) -> None:
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(QColor(colour), width))
    for shape in shapes:
        painter.drawPolygon(polygon(shape))


def area(shape: np.ndarray) -> float:
    """Area of a polygon (shoelace formula), in square pixels."""
    x, y = shape[:, 0], shape[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def number(painter: QPainter, centre: tuple[float, float], size: float, cell: int, fill: QColor) -> None:
    """The cell's index in black or white, whichever reads on ``fill``; nothing when too small to read."""
    if size < 10:
        return
    font = painter.font()
    font.setPixelSize(max(6, int(size * (0.42 if cell < 100 else 0.3))))
    painter.setFont(font)
    light = 0.299 * fill.redF() + 0.587 * fill.greenF() + 0.114 * fill.blueF() > 0.5
    painter.setPen(QColor("black") if light else QColor("white"))
    x, y = centre
    painter.drawText(QRectF(x - size, y - size / 2, 2 * size, size), Qt.AlignmentFlag.AlignCenter, str(cell))


def split(rect: QRectF, share: float) -> tuple[QRectF, QRectF]:
    """A square-ish first part (``share`` of the long side at most) and the rest: side by side, or stacked when tall."""
    w, h = rect.width(), rect.height()
    if h > w:
        side = min(w, h * share)
        return QRectF(rect.left(), rect.top(), w, side), QRectF(rect.left(), rect.top() + side, w, h - side)
    side = min(h, w * share)
    return QRectF(rect.left(), rect.top(), side, h), QRectF(rect.left() + side, rect.top(), w - side, h)

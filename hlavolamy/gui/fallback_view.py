"""A drawing for puzzles no plugin draws, so every puzzle file plays.

Cells are discs. With ``x``/``y`` in :attr:`Puzzle.cell_data` for every cell
they sit there (scaled to fit); otherwise on a near-square grid in index
order. Each disc shows the colour of the cell now at that position.
"""

from __future__ import annotations

import math

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPen

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions, View


def cell_layout(puzzle: Puzzle) -> np.ndarray:
    """Unit-free ``(n, 2)`` coordinates (y down) from cell data, or a grid."""
    data = puzzle.cell_data
    if data and all("x" in d and "y" in d for d in data):
        try:
            return np.array([[float(d["x"]), float(d["y"])] for d in data])
        except (TypeError, ValueError):
            pass  # malformed hints: the grid still shows the puzzle
    n = puzzle.n_cells
    columns = max(1, math.ceil(math.sqrt(n)))
    index = np.arange(n)
    return np.stack([index % columns, index // columns], axis=1).astype(float)


def nearest_spacing(points: np.ndarray) -> float:
    """The smallest distance between two distinct points (1.0 for a single point)."""
    if len(points) < 2:
        return 1.0
    best = math.inf
    for start in range(0, len(points), 512):  # blocks keep memory small for thousands of cells
        block = points[start:start + 512]
        d = np.hypot(block[:, None, 0] - points[None, :, 0], block[:, None, 1] - points[None, :, 1])
        d[d == 0] = math.inf
        best = min(best, float(d.min()))
    return best if math.isfinite(best) else 1.0


class DiscView(View):
    """Discs coloured by state; hit-testing finds the disc under the mouse."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self._layout = cell_layout(puzzle)
        self._spacing = nearest_spacing(self._layout)
        self._centres = np.zeros_like(self._layout)
        self._radius = 0.0

    def _fit(self, rect: QRectF) -> None:
        """Scale the layout into ``rect`` keeping its aspect ratio, with a disc-sized margin."""
        lo = self._layout.min(axis=0) - self._spacing / 2
        hi = self._layout.max(axis=0) + self._spacing / 2
        span = np.maximum(hi - lo, 1e-9)
        scale = min(rect.width() / span[0], rect.height() / span[1])
        offset = np.array([rect.left(), rect.top()]) + (np.array([rect.width(), rect.height()]) - span * scale) / 2
        self._centres = (self._layout - lo) * scale + offset
        self._radius = 0.42 * self._spacing * scale

    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self._fit(rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        labels = state.colours()
        outline = QColor("#e8e8e8") if options.dark else QColor("#303030")
        r = self._radius
        font = painter.font()
        font.setPixelSize(min(28, max(6, int(r * 0.8))))
        painter.setFont(font)
        for i, (x, y) in enumerate(self._centres):
            fill = QColor(options.colours.get(labels[i], "#888888"))
            highlighted = i in options.highlight
            painter.setPen(QPen(QColor("#ff00aa") if highlighted else outline, 3.0 if highlighted else 1.0))
            painter.setBrush(fill)
            painter.drawEllipse(QPointF(x, y), r, r)
            if options.show_numbers:
                painter.setPen(QColor("black") if fill.lightnessF() > 0.55 else QColor("white"))
                painter.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, str(i))

    def cell_at(self, x: float, y: float) -> int | None:
        if not len(self._centres) or self._radius <= 0:
            return None
        d = np.hypot(self._centres[:, 0] - x, self._centres[:, 1] - y)
        i = int(d.argmin())
        return i if d[i] <= self._radius else None

"""A drawing for puzzles no plugin draws, so every puzzle file plays.

Cells are discs. With ``x``/``y`` in :attr:`Puzzle.cell_data` for every cell
they sit there (scaled to fit); otherwise they are grouped by the analysis:
one ring (or block) per kind of piece, a piece's cells side by side
(:mod:`hlavolamy.gui.orbit_layout`). Each disc shows the colour of the cell
now at that position. Under the drawing, a chip per move plays it (left
button forwards, right button back); hovering a chip outlines the cells the
move carries.
"""

from __future__ import annotations

import logging
import math

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetricsF, QPainter, QPen

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError
from hlavolamy.gui.orbit_layout import Caption, orbit_layout
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit, View

log = logging.getLogger(__name__)

HOVER = "#00c8ff"
HIGHLIGHT = "#ff00aa"
CHIP_HEIGHT = 24.0
CHIP_SHARE = 0.3
"""At most this part of the view's height goes to the move chips."""


def hinted_layout(puzzle: Puzzle) -> np.ndarray | None:
    """``(n, 2)`` coordinates (y down) from the cells' ``x``/``y`` hints, or None without complete hints."""
    data = puzzle.cell_data
    if data and all("x" in d and "y" in d for d in data):
        try:
            return np.array([[float(d["x"]), float(d["y"])] for d in data])
        except (TypeError, ValueError):
            pass  # malformed hints: the analysis layout still shows the puzzle
    return None


def grid_layout(n: int) -> np.ndarray:
    """Cells on a near-square grid in index order (when the analysis cannot group them)."""
    columns = max(1, math.ceil(math.sqrt(n)))
    index = np.arange(n)
    return np.stack([index % columns, index // columns], axis=1).astype(float)


def cell_layout(puzzle: Puzzle) -> tuple[np.ndarray, list[Caption]]:
    """Cell coordinates and group captions: the hints, else the orbit layout, else a grid."""
    hinted = hinted_layout(puzzle)
    if hinted is not None:
        return hinted, []
    try:
        return orbit_layout(puzzle)
    except (HlavolamyError, ValueError, MemoryError) as exc:
        log.warning("cells of %s drawn on a grid: %s", puzzle.name or "the puzzle", exc)
        return grid_layout(puzzle.n_cells), []


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
    """Discs coloured by state, grouped by piece orbit; chips under them play the moves."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self._layout, self._captions = cell_layout(puzzle)
        self._spacing = nearest_spacing(self._layout)
        self._moved = {name: np.flatnonzero(perm != np.arange(puzzle.n_cells)) for name, perm in puzzle.moves.items()}
        self._centres = np.zeros_like(self._layout)
        self._radius = 0.0
        self._scale = 1.0
        self._origin = np.zeros(2)
        self._chips: list[tuple[QRectF, str]] = []

    # -- placing -------------------------------------------------------------------------------
    def _place_chips(self, painter: QPainter, rect: QRectF) -> QRectF:
        """Lay the move chips out in rows at the bottom of ``rect``; the rest of ``rect`` is for the discs."""
        metrics = QFontMetricsF(painter.font())
        widths = [metrics.horizontalAdvance(name) + 14 for name in self.puzzle.moves]
        height = min(CHIP_HEIGHT, max(12.0, metrics.height() + 6))
        rows: list[list[int]] = [[]]
        used = 0.0
        for k, w in enumerate(widths):
            if rows[-1] and used + w > rect.width():
                rows.append([])
                used = 0.0
            rows[-1].append(k)
            used += w + 4
        room = min(len(rows) * (height + 4), CHIP_SHARE * rect.height())
        shown = max(1, int(room // (height + 4)))
        names = list(self.puzzle.moves)
        self._chips = []
        top = rect.bottom() - shown * (height + 4)
        for r, row in enumerate(rows[:shown]):
            x = rect.left() + (rect.width() - sum(widths[k] + 4 for k in row) + 4) / 2  # rows centred
            for k in row:
                self._chips.append((QRectF(x, top + r * (height + 4), widths[k], height), names[k]))
                x += widths[k] + 4
        return QRectF(rect.left(), rect.top(), rect.width(), max(0.0, top - 6 - rect.top()))

    def _fit(self, rect: QRectF) -> None:
        """Scale the layout into ``rect`` keeping its aspect ratio, with a disc-sized margin."""
        lo = self._layout.min(axis=0) - self._spacing / 2
        hi = self._layout.max(axis=0) + self._spacing / 2
        if self._captions:  # the captions sit above their groups: keep them inside too
            lo = np.minimum(lo, np.min([(x, y) for x, y, _, _ in self._captions], axis=0))
        span = np.maximum(hi - lo, 1e-9)
        self._scale = min(rect.width() / span[0], rect.height() / span[1])
        self._origin = np.array([rect.left(), rect.top()]) + (np.array([rect.width(), rect.height()]) - span * self._scale) / 2 - lo * self._scale
        self._centres = self._layout * self._scale + self._origin
        self._radius = 0.42 * self._spacing * self._scale

    # -- View ----------------------------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._fit(self._place_chips(painter, rect))
        hover = self.move_at(*options.hover) if options.hover else None
        moved = set(self._moved[hover.move].tolist()) if hover is not None else set()
        self._paint_captions(painter, options)
        self._paint_discs(painter, state, options, moved)
        self._paint_chips(painter, options, hover)

    def _paint_captions(self, painter: QPainter, options: DrawOptions) -> None:
        font = painter.font()
        font.setPixelSize(max(7, min(14, int(0.7 * self._scale))))
        painter.setFont(font)
        painter.setPen(QColor("#a0a0a0") if options.dark else QColor("#606060"))
        metrics = QFontMetricsF(font)
        for x, y, width, text in self._captions:
            if metrics.horizontalAdvance(text) > (width + 1) * self._scale:
                continue  # wider than its group: it would run into the next one
            px, py = np.array([x, y]) * self._scale + self._origin
            painter.drawText(QPointF(px, py + 0.8 * self._scale), text)

    def _paint_discs(self, painter: QPainter, state: State, options: DrawOptions, moved: set[int]) -> None:
        labels = state.colours()
        outline = QColor("#e8e8e8") if options.dark else QColor("#303030")
        r = self._radius
        font = painter.font()
        font.setPixelSize(min(28, max(6, int(r * 0.8))))
        painter.setFont(font)
        for i, (x, y) in enumerate(self._centres):
            fill = QColor(options.colours.get(labels[i], "#888888"))
            if i in options.highlight:
                painter.setPen(QPen(QColor(HIGHLIGHT), 3.0))
            elif i in moved:
                painter.setPen(QPen(QColor(HOVER), 2.5))
            else:
                painter.setPen(QPen(outline, 1.0))
            painter.setBrush(fill)
            painter.drawEllipse(QPointF(x, y), r, r)
            if options.show_numbers:
                painter.setPen(QColor("black") if fill.lightnessF() > 0.55 else QColor("white"))
                painter.drawText(QRectF(x - r, y - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter, str(i))

    def _paint_chips(self, painter: QPainter, options: DrawOptions, hover: MoveHit | None) -> None:
        font = painter.font()
        font.setPixelSize(12)
        painter.setFont(font)
        text = QColor("#e8e8e8") if options.dark else QColor("#202020")
        for box, name in self._chips:
            lit = hover is not None and hover.move == name
            painter.setPen(QPen(QColor(HOVER) if lit else QColor("#808080"), 1.5 if lit else 1.0))
            painter.setBrush(QColor(HOVER).lighter(160) if lit else QColor(0, 0, 0, 0))
            painter.drawRoundedRect(box, 6, 6)
            painter.setPen(QColor("#202020") if lit else text)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, name)

    def cell_at(self, x: float, y: float) -> int | None:
        if not len(self._centres) or self._radius <= 0:
            return None
        d = np.hypot(self._centres[:, 0] - x, self._centres[:, 1] - y)
        i = int(d.argmin())
        return i if d[i] <= self._radius else None

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        """A move chip plays its move: forwards with the left button, backwards with the right."""
        point = QPointF(x, y)
        for box, name in self._chips:
            if box.contains(point):
                return MoveHit(name, -1 if button == "right" else 1)
        return None

"""The polyhedron designer (Qt): pick a solid, add and remove cuts, set each cut's depth on a slider, name moves.

The left of the drawing lists the cuts, each with a depth slider (the
``depth`` tool: press on a slider to pick that cut and set its depth, drag to
change it); the right shows the puzzle the design makes now, in 3D and as a
net, or why it is not a puzzle yet. The solid and the cut commands are
instant tools. The ``name`` tool renames the move of the grip under the
click; :meth:`PolyhedronDesigner.rename_move` does the same from code. The
``paint`` tools (the Colouring tab's) paint the clicked sticker, or its whole
face, with the colour the host chose through :meth:`set_current_colour`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QColor, QPainter, QPen

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import PuzzleError
from hlavolamy.plugins.hookspecs import Designer, DrawOptions, Tool

from .cutting import axes
from .description import CUT_KINDS, Cut, Description, parse
from .model import Polyhedron
from .solids import SHAPES, solid
from .view import PolyhedronView

ROW = 34.0
"""Height of one cut's row in the list, in pixels."""
PANEL = 0.3
"""Share of the width the cut list takes."""
DEFAULT_DEPTH = {"f": 1 / 3, "v": 0.0, "e": 0.0}


def reach(shape: str, kind: str) -> float:
    """How far from the centre a cut of this kind still cuts the solid."""
    body = solid(SHAPES[shape])
    return float(np.max(body.vertices @ axes(body, kind)[0]))


class PolyhedronDesigner(Designer):
    """Edits ``{"description": ..., "names": {...}}``; the selected cut is the one the slider row shows picked."""

    tools = (
        *(Tool(f"solid-{letter}", name.capitalize(), f"Start from a {name} (keeps the cuts)", instant=True)
          for letter, name in SHAPES.items()),
        Tool("add-f", "+ face cut", "Add planes parallel to every face", instant=True),
        Tool("add-v", "+ corner cut", "Add planes across every corner axis", instant=True),
        Tool("add-e", "+ edge cut", "Add planes across every edge axis", instant=True),
        Tool("remove", "Remove cut", "Remove the selected cut", instant=True),
        Tool("depth", "Depth", "Press on a cut's slider to select it and set its depth; drag to change it"),
        Tool("name", "Name move", "Click a sticker to rename the move of the grip it turns"),
        Tool("paint", "Paint sticker", "Click a sticker to give it the current colour"),
        Tool("paint-face", "Paint face", "Click a sticker to give its whole face the current colour"),
    )

    def __init__(self, data: Mapping[str, Any], name: str = ""):
        self.name = name
        self._data: dict[str, Any] = {}
        self.selected = 0
        self._rect = QRectF()
        self._view: PolyhedronView | None = None
        self._view_key: str | None = None
        self._dragging = False
        self._turning: tuple[float, float] | None = None
        self.current_colour: tuple[str, str] | None = None
        self.set_data(data)

    # -- data --------------------------------------------------------------------------
    def data(self) -> dict[str, Any]:
        return copy.deepcopy(self._data)

    def set_data(self, data: Mapping[str, Any]) -> None:
        self._data = {"description": str(data.get("description", "c"))}
        for key in ("names", "palette", "paint"):
            if data.get(key):
                self._data[key] = dict(data[key])
        self.selected = min(self.selected, max(0, len(self.description.cuts) - 1))

    @property
    def description(self) -> Description:
        return parse(self._data["description"])

    def _set_description(self, description: Description) -> None:
        self._data["description"] = description.text()
        self._data.pop("names", None)  # grips and stickers change with the cuts: generated names, face colours
        self._data.pop("paint", None)

    def build(self) -> Puzzle:
        return Polyhedron.from_data(self._data).puzzle(name=self.name)

    def rename_move(self, move: str, new_name: str | None) -> None:
        """Rename the move now called ``move`` to ``new_name``; None or empty restores its generated name."""
        model = Polyhedron.from_data(self._data)
        generated = [g.name for g in model.grips]
        current = model.move_names
        if move not in current:
            raise PuzzleError(f"no move {move!r}; the moves are {', '.join(current)}")
        original = generated[current.index(move)]
        names = dict(self._data.get("names", {}))
        names.pop(original, None)
        if new_name and new_name != original:
            names[original] = new_name
        trial = {k: v for k, v in self._data.items() if k != "names"}
        if names:
            trial["names"] = names
        Polyhedron.from_data(trial).move_names  # noqa: B018 - raises on a clash or a bad name
        self._data = trial

    def set_current_colour(self, label: str, colour: str | None = None) -> None:
        """The colour the paint tools use; a new or changed colour enters the design's palette."""
        palette = Polyhedron.from_data(self._data).palette
        colour = colour or palette.get(label) or "#888888"
        self.current_colour = (label, colour)
        if palette.get(label) != colour:
            self._data["palette"] = {**self._data.get("palette", {}), label: colour}

    def _paint(self, x: float, y: float, whole_face: bool) -> bool:
        """Give the clicked sticker (or its face) the current colour; a face label on its own face is no paint."""
        sticker = self._view.sticker_at(x, y) if self._view is not None else None
        if sticker is None or self.current_colour is None:
            return False
        label = self.current_colour[0]
        stickers = self._view.model.cutting.stickers
        targets = [i for i, s in enumerate(stickers) if s.face == stickers[sticker].face] if whole_face else [sticker]
        faces = self._view.model.cutting.solid.face_names
        paint = dict(self._data.get("paint", {}))
        for i in targets:
            if faces[stickers[i].face] == label:
                paint.pop(str(i), None)
            else:
                paint[str(i)] = label
        changed = paint != self._data.get("paint", {})
        if paint:
            self._data["paint"] = paint
        else:
            self._data.pop("paint", None)
        return changed

    # -- gestures ----------------------------------------------------------------------
    def press(self, tool: str, x: float, y: float, modifiers: frozenset[str] = frozenset()) -> bool:
        description = self.description
        if tool.startswith("solid-"):
            shape = tool[len("solid-"):]
            cuts = tuple(Cut(c.kind, max(-reach(shape, c.kind) * 0.95, min(reach(shape, c.kind) * 0.95, c.depth)))
                         for c in description.cuts)
            self._set_description(Description(shape, cuts))
            return shape != description.shape or cuts != description.cuts
        if tool.startswith("add-"):
            kind = tool[len("add-"):]
            self._set_description(Description(description.shape, (*description.cuts, Cut(kind, DEFAULT_DEPTH[kind]))))
            self.selected = len(description.cuts)
            return True
        if tool == "remove":
            if not description.cuts:
                return False
            cuts = list(description.cuts)
            del cuts[self.selected]
            self._set_description(Description(description.shape, tuple(cuts)))
            self.selected = max(0, min(self.selected, len(cuts) - 1))
            return True
        if tool == "depth":
            row = self._row_at(y)
            if row is None or x > self._rect.left() + self._rect.width() * PANEL:
                self._turning = (x, y)  # on the preview: a drag turns the 3D picture
                return False
            self.selected = row
            self._dragging = True
            return self._set_depth(x)
        if tool == "name":
            return self._ask_name(x, y)
        if tool in ("paint", "paint-face"):
            return self._paint(x, y, tool == "paint-face")
        return False

    def drag(self, tool: str, x: float, y: float) -> bool:
        if tool == "depth" and self._dragging:
            return self._set_depth(x)
        if self._turning is not None and self._view is not None:
            self._view.drag(x - self._turning[0], y - self._turning[1])
            self._turning = (x, y)
        return False

    def release(self, tool: str, x: float, y: float) -> bool:
        self._dragging = False
        self._turning = None
        return False

    def _row_at(self, y: float) -> int | None:
        row = int((y - self._rect.top() - ROW) // ROW)
        return row if 0 <= row < len(self.description.cuts) else None

    def _slider(self) -> tuple[float, float]:
        left = self._rect.left() + 12
        return left, left + self._rect.width() * PANEL - 24

    def _set_depth(self, x: float) -> bool:
        description = self.description
        cut = description.cuts[self.selected]
        limit = reach(description.shape, cut.kind) * 0.99
        left, right = self._slider()
        fraction = min(1.0, max(0.0, (x - left) / max(1.0, right - left)))
        depth = round(-limit + 2 * limit * fraction, 3)
        if depth == cut.depth:
            return False
        cuts = list(description.cuts)
        cuts[self.selected] = Cut(cut.kind, depth)
        self._set_description(Description(description.shape, tuple(cuts)))
        return True

    def _ask_name(self, x: float, y: float) -> bool:
        """Rename the move a click at the point would play, asking for the name in a dialog."""
        hit = self._view.move_at(x, y) if self._view is not None else None
        if hit is None:
            return False
        from PyQt6.QtWidgets import QInputDialog

        text, ok = QInputDialog.getText(None, "Name move", f"New name for {hit.move} (empty: the generated name)")
        if not ok:
            return False
        self.rename_move(hit.move, text.strip() or None)
        return True

    # -- painting ----------------------------------------------------------------------
    def paint(self, painter: QPainter, rect: QRectF, options: DrawOptions) -> None:
        self._rect = QRectF(rect)
        panel = QRectF(rect.left(), rect.top(), rect.width() * PANEL, rect.height())
        preview = QRectF(panel.right(), rect.top(), rect.width() - panel.width(), rect.height())
        ink = QColor("white" if options.dark else "black")
        description = self.description
        painter.setPen(ink)
        painter.drawText(QRectF(panel.left() + 8, panel.top(), panel.width() - 16, ROW),
                         Qt.AlignmentFlag.AlignVCenter, f"{description.solid_name}: {description.text()}")
        left, right = self._slider()
        for i, cut in enumerate(description.cuts):
            top = panel.top() + ROW * (i + 1)
            limit = reach(description.shape, cut.kind) * 0.99
            painter.setPen(QColor("#00c8ff") if i == self.selected else ink)
            painter.drawText(QRectF(left, top, right - left, ROW / 2), Qt.AlignmentFlag.AlignVCenter,
                             f"{CUT_KINDS[cut.kind]} cut at {cut.depth:g}")
            y = top + ROW * 0.72
            painter.setPen(QPen(ink, 2))
            painter.drawLine(int(left), int(y), int(right), int(y))
            knob = left + (right - left) * (cut.depth + limit) / (2 * limit)
            painter.setBrush(QColor("#00c8ff") if i == self.selected else ink)
            painter.drawEllipse(QRectF(knob - 5, y - 5, 10, 10))
        self._paint_preview(painter, preview, options, ink)

    def _paint_preview(self, painter: QPainter, rect: QRectF, options: DrawOptions, ink: QColor) -> None:
        try:
            puzzle = self.build()
            key = repr(self._data)
            if self._view is None or self._view_key != key:
                old = self._view
                self._view = PolyhedronView(Polyhedron.from_data(self._data))
                if old is not None:
                    self._view.yaw, self._view.pitch = old.yaw, old.pitch
                self._view_key = key
            model = self._view.model
            summary = (f"{len(model.cutting.stickers)} stickers, {len(model.cutting.pieces)} pieces, "
                       f"moves: {' '.join(puzzle.moves)}")
            self._view.paint(painter, QRectF(rect.left(), rect.top() + ROW, rect.width(), rect.height() - ROW),
                             State.solved(puzzle), DrawOptions(hover=options.hover, dark=options.dark))
        except PuzzleError as exc:
            self._view = None
            summary = f"not a puzzle yet: {exc}"
        painter.setPen(ink)
        painter.drawText(QRectF(rect.left() + 8, rect.top(), rect.width() - 16, ROW),
                         Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap, summary)

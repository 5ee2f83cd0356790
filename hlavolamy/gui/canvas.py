"""Canvases: the puzzle drawn by its View (play, colouring, blockings) or by its Designer.

Both paint with an antialiased QPainter into the widget's full, resizable
area (Qt scales for high-DPI screens) and turn mouse events into the plugin
calls of the contract in :mod:`hlavolamy.plugins.hookspecs`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PyQt6.QtCore import QEasingCurve, QPointF, QRectF, QSize, Qt, QVariantAnimation, pyqtSignal
from PyQt6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap, QResizeEvent
from PyQt6.QtWidgets import QSizePolicy, QWidget

from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError
from hlavolamy.gui.palette import colour_map
from hlavolamy.plugins.hookspecs import Designer, DrawOptions, View

MARGIN = 10.0
DRAG_THRESHOLD = 4.0
ANIMATION_MS = 180
"""A turn cross-fades from the old drawing to the new one this long: short enough never to feel like a wait."""
HATCH_STEP = 6
"""Pixels between the hatch strokes over marked cells (the view is sampled with ``cell_at`` on this grid)."""


def is_dark(widget: QWidget) -> bool:
    """The widget's palette is a dark one (outlines and text must be light)."""
    return widget.palette().window().color().lightnessF() < 0.5


def modifier_names(event: QMouseEvent) -> frozenset[str]:
    """Mouse modifiers as the plain words the plugin contract uses."""
    mods = event.modifiers()
    names = {name for flag, name in ((Qt.KeyboardModifier.ShiftModifier, "shift"),
                                     (Qt.KeyboardModifier.ControlModifier, "ctrl"),
                                     (Qt.KeyboardModifier.AltModifier, "alt")) if mods & flag}
    if event.button() == Qt.MouseButton.RightButton or event.buttons() & Qt.MouseButton.RightButton:
        names.add("right")
    return frozenset(names)


class _Canvas(QWidget):
    """Shared set-up: expanding, mouse tracking, a drawing rect with a margin."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setMinimumSize(160, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.message = ""
        """Shown instead of a drawing (why there is nothing to draw)."""
        self._press: QPointF | None = None
        self._dragged = False

    def sizeHint(self) -> QSize:
        return QSize(640, 560)

    def drawing_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)

    def begin(self, device: QWidget | QPixmap | None = None) -> QPainter:
        painter = QPainter(device if device is not None else self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(self.rect(), self.palette().base())
        return painter

    def paint_message(self, painter: QPainter) -> None:
        painter.setPen(self.palette().placeholderText().color())
        painter.drawText(self.drawing_rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)


class StateCanvas(_Canvas):
    """A state drawn by a View; clicks play moves or pick cells, drags turn 3D views."""

    move_requested = pyqtSignal(str, int)
    """A move handle was clicked: (move, power); Shift or the right button inverts it."""
    cell_clicked = pyqtSignal(int, bool)
    """In cell mode: (position, right button or Shift)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.view: View | None = None
        self.state: State | None = None
        self.show_numbers = False
        self.highlight: frozenset[int] = frozenset()
        self.cell_mode = False
        """True: clicks pick cells (colouring, blockings, painting a position) instead of moves."""
        self._colours: dict[str, str] = {}
        self._hover: tuple[float, float] | None = None
        self.animate = False
        """Cross-fade from the old drawing when :meth:`set_state` is asked to animate (View → Animate moves)."""
        self._before: QPixmap | None = None
        """The drawing of the previous state while a turn animates, else None."""
        self._fade = QVariantAnimation(self)
        self._fade.setStartValue(0.0)
        self._fade.setEndValue(1.0)
        self._fade.setDuration(ANIMATION_MS)
        self._fade.setEasingCurve(QEasingCurve.Type.InOutQuad)
        self._fade.valueChanged.connect(self.update)
        self._fade.finished.connect(self.finish_animation)
        self.marked: frozenset[int] = frozenset()
        """Cells hatched over the view's drawing (the Blockings tab marks every fused cell)."""
        self._hatch: tuple[tuple[object, ...], QPixmap] | None = None
        """The hatch overlay and what it was drawn for (size, cells, view): sampling the view is not free."""

    @property
    def animating(self) -> bool:
        return self._before is not None

    def set_view(self, view: View | None, state: State | None) -> None:
        self.view = view
        self._hatch = None
        self.set_state(state)

    def set_state(self, state: State | None, animate: bool = False) -> None:
        """Show ``state``; with ``animate`` (and :attr:`animate` on) the old drawing fades into the new one.

        Works for any View (it only blends two paintings). A running fade is
        finished at once first, so a quick series of turns never lags behind
        the position or blocks input.
        """
        self.finish_animation()
        old = self.state
        if (animate and self.animate and old is not None and state is not None and old.puzzle is state.puzzle
                and self.view is not None and self.isVisible() and not np.array_equal(old.perm, state.perm)):
            self._before = self._render(old)
            self._fade.start()
        self.state = state
        self._colours = colour_map(state.puzzle) if state is not None else {}
        self.update()

    def finish_animation(self) -> None:
        """Jump to the end of a running turn animation."""
        if self._fade.state() != QVariantAnimation.State.Stopped:
            self._fade.stop()
        if self._before is not None:
            self._before = None
            self.update()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.finish_animation()  # the old drawing has the old size
        super().resizeEvent(event)

    def _hatch_overlay(self) -> QPixmap:
        """Diagonal strokes wherever the view draws a marked cell; works for any View through ``cell_at``."""
        key = (self.width(), self.height(), self.marked, id(self.view))
        if self._hatch is not None and self._hatch[0] == key:
            return self._hatch[1]
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(self.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        ink = QColor("#ffffff" if is_dark(self) else "#000000")
        ink.setAlpha(150)
        painter.setPen(QPen(ink, 1.4))
        half = HATCH_STEP / 2
        view = self.view
        assert view is not None
        for y in range(HATCH_STEP // 2, self.height(), HATCH_STEP):
            for x in range(HATCH_STEP // 2, self.width(), HATCH_STEP):
                if view.cell_at(x, y) in self.marked:
                    painter.drawLine(QPointF(x - half, y + half), QPointF(x + half, y - half))
        painter.end()
        self._hatch = (key, pixmap)
        return pixmap

    def _render(self, state: State) -> QPixmap:
        """``state`` drawn as it is on screen now, at the screen's pixel density."""
        ratio = self.devicePixelRatioF()
        pixmap = QPixmap(self.size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        painter = self.begin(pixmap)
        try:
            assert self.view is not None
            self.view.paint(painter, self.drawing_rect(), state, self.options())
        finally:
            painter.end()
        return pixmap

    def options(self) -> DrawOptions:
        """In cell mode a click picks a cell, not a move: no hover highlight of the circle a click would turn."""
        hover = None if self.cell_mode else self._hover
        return DrawOptions(show_numbers=self.show_numbers, highlight=self.highlight, hover=hover,
                           colours=self._colours, dark=is_dark(self))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = self.begin()
        try:
            if self.view is None or self.state is None:
                self.paint_message(painter)
            else:
                self.view.paint(painter, self.drawing_rect(), self.state, self.options())
                if self.marked:
                    painter.drawPixmap(0, 0, self._hatch_overlay())
                if self._before is not None:  # the old drawing fades out over the new one
                    painter.setOpacity(1.0 - float(self._fade.currentValue() or 0.0))
                    painter.drawPixmap(0, 0, self._before)
        finally:
            painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position()
        self._dragged = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        if self._press is not None:  # a button is down (press recorded, no release yet)
            delta = pos - self._press
            if self._dragged or abs(delta.x()) + abs(delta.y()) >= DRAG_THRESHOLD:
                self._dragged = True
                self._press = pos
                if self.view is not None and self.view.drag(delta.x(), delta.y()):
                    self._hatch = None  # a 3D view turned: its cells moved on screen
                    self.finish_animation()  # the old drawing shows the old orientation
                    self.update()
            return
        self._hover = (pos.x(), pos.y())
        self.update()

    def leaveEvent(self, event: object) -> None:
        self._hover = None
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pressed, self._press = self._press, None
        if pressed is None or self._dragged or self.view is None:
            return
        x, y = event.position().x(), event.position().y()
        mods = modifier_names(event)
        inverse = "right" in mods or "shift" in mods
        if self.cell_mode:
            cell = self.view.cell_at(x, y)
            if cell is not None:
                self.cell_clicked.emit(cell, inverse)
            return
        hit = self.view.move_at(x, y, "right" if "right" in mods else "left")
        if hit is not None:
            power = -hit.power if "shift" in mods else hit.power
            self.move_requested.emit(hit.move, power)


class DesignCanvas(_Canvas):
    """The Designer's drawing; the current tool gets presses, drags and releases.

    ``edited`` fires once per gesture that changed the design (press ... release),
    so one gesture is one undo step.
    """

    edited = pyqtSignal(str)
    failed = pyqtSignal(str)
    """A tool refused the gesture (PuzzleError message: e.g. a turn angle is missing)."""
    host_clicked = pyqtSignal(str, float, float)
    """A click with a host tool (id in :attr:`host_tools`): the host handles it, not the designer."""
    hint = pyqtSignal(str)
    """What the gesture under way shapes (a designer's optional ``gesture_text()``: a circle's centre and radius)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.host_tools: set[str] = set()
        self.designer: Designer | None = None
        self.tool = ""
        self.tool_label = ""
        self.show_numbers = False
        self._changed = False
        self._hover: tuple[float, float] | None = None

    def set_designer(self, designer: Designer | None) -> None:
        self.designer = designer
        self.update()

    def set_tool(self, tool: str, label: str) -> None:
        self.tool, self.tool_label = tool, label

    def run_instant(self, tool: str, label: str) -> None:
        """An instant tool (:attr:`Tool.instant`): press and release at once, one undo step if it changed the design."""
        designer = self.designer
        if designer is None:
            return
        changed = self._call(lambda: designer.press(tool, 0.0, 0.0))
        changed = self._call(lambda: designer.release(tool, 0.0, 0.0)) or changed
        self.update()
        if changed:
            self.edited.emit(label)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = self.begin()
        try:
            if self.designer is None:
                self.paint_message(painter)
            else:
                options = DrawOptions(show_numbers=self.show_numbers, hover=self._hover, dark=is_dark(self))
                self.designer.paint(painter, self.drawing_rect(), options)
        finally:
            painter.end()

    def _call(self, step: Callable[[], bool]) -> bool:
        """A designer call; a refusal (HlavolamyError) is reported, and the gesture ends."""
        try:
            return bool(step())
        except HlavolamyError as exc:
            self._press = None
            self.failed.emit(str(exc))
            return False

    def mousePressEvent(self, event: QMouseEvent) -> None:
        designer = self.designer
        if designer is None:
            return
        pos = event.position()
        if self.tool in self.host_tools:
            self.host_clicked.emit(self.tool, pos.x(), pos.y())
            return
        self._press = pos
        mods = modifier_names(event)
        self._changed = self._call(lambda: designer.press(self.tool, pos.x(), pos.y(), mods))
        self._hint()
        self.update()

    def _hint(self) -> None:
        text = getattr(self.designer, "gesture_text", lambda: "")()
        if text:
            self.hint.emit(text)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        self._hover = (pos.x(), pos.y())
        designer = self.designer
        if designer is not None and self._press is not None:
            self._changed = self._call(lambda: designer.drag(self.tool, pos.x(), pos.y())) or self._changed
            self._hint()
        self.update()

    def leaveEvent(self, event: object) -> None:
        self._hover = None
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        designer = self.designer
        if designer is None or self._press is None:
            if self._changed:  # a press that changed the design, then a refused drag
                self._changed = False
                self.edited.emit(self.tool_label or self.tool)
            return
        pos = event.position()
        self._press = None
        changed = self._call(lambda: designer.release(self.tool, pos.x(), pos.y())) or self._changed
        self._changed = False
        self.update()
        if changed:
            self.edited.emit(self.tool_label or self.tool)

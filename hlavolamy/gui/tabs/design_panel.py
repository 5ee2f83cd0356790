"""The Designer's tool bar and canvas, shared by the Fields, Colouring and Moves tabs.

Each tab shows the designer tools that belong to it (a filter on tool ids);
a gesture that changes the design becomes one undo step via
:meth:`Document.design_edited`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PyQt6.QtGui import QAction, QActionGroup
from PyQt6.QtWidgets import QToolBar, QVBoxLayout, QWidget

from hlavolamy.gui.canvas import DesignCanvas
from hlavolamy.gui.errors import show_error
from hlavolamy.plugins.hookspecs import Designer, Tool

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow

NOT_A_PUZZLE = "Not a puzzle yet: "
COLOUR_TOOL_WORDS = ("colour", "color", "paint", "fill")
MOVE_TOOL_WORDS = ("angle", "step", "move", "name")


def _mentions(tool: Tool, words: tuple[str, ...]) -> bool:
    return any(word in f"{tool.id} {tool.label}".lower() for word in words)


def is_colour_tool(tool: Tool) -> bool:
    """Designer tools that paint cells: the Colouring tab's."""
    return _mentions(tool, COLOUR_TOOL_WORDS)


def is_move_tool(tool: Tool) -> bool:
    """Designer tools that set a move's angle or name: also in the Moves tab."""
    return _mentions(tool, MOVE_TOOL_WORDS) and not is_colour_tool(tool)


def is_field_tool(tool: Tool) -> bool:
    """Everything that shapes the geometry: the Fields tab's."""
    return not is_colour_tool(tool)


class DesignPanel(QWidget):
    """Exclusive tool buttons above a :class:`DesignCanvas`."""

    def __init__(self, app: MainWindow, wanted: Callable[[Tool], bool] = lambda tool: True, *,
                 says_why_not_a_puzzle: bool = True):
        super().__init__()
        self.app = app
        self.wanted = wanted
        self.says_why_not_a_puzzle = says_why_not_a_puzzle
        """Post "Not a puzzle yet: ..." in the status bar; False where the tab shows it under the drawing."""
        self.toolbar = QToolBar()
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        self.canvas = DesignCanvas()
        self.canvas.edited.connect(self._edited)
        self.canvas.failed.connect(self._refused)
        self.canvas.hint.connect(app.status)
        self.tool_actions: dict[str, QAction] = {}
        self._host_tools: list[tuple[Tool, Callable[[float, float], None]]] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.canvas, 1)

    def add_host_tool(self, tool: Tool, handler: Callable[[float, float], None]) -> None:
        """A tool the host handles itself (the Moves tab's "Pick circle"); survives designer changes."""
        self._host_tools.append((tool, handler))
        self.canvas.host_tools.add(tool.id)
        self.canvas.host_clicked.connect(lambda tool_id, x, y: handler(x, y) if tool_id == tool.id else None)

    def set_designer(self, designer: Designer | None) -> None:
        """New document: rebuild the tool bar from the designer's tools."""
        self.toolbar.clear()
        for action in self.tool_actions.values():
            self.group.removeAction(action)
        self.tool_actions = {}
        self.canvas.set_designer(designer)
        if designer is None:
            return
        # host tools first: the Moves tab then starts on "Pick circle", which only selects
        for tool in [t for t, _ in self._host_tools] + [t for t in designer.tools if self.wanted(t)]:
            action = QAction(tool.label, self)
            action.setToolTip(tool.tooltip or tool.label)
            action.setStatusTip(tool.tooltip)
            if tool.instant:  # a command, not a mode: it runs on the button and leaves the current tool selected
                action.triggered.connect(lambda _c=False, t=tool: self.canvas.run_instant(t.id, t.label))
            else:
                action.setCheckable(True)
                action.triggered.connect(lambda _c=False, t=tool: self.canvas.set_tool(t.id, t.label))
                self.group.addAction(action)
            self.toolbar.addAction(action)
            self.tool_actions[tool.id] = action
        first = next((a for a in self.tool_actions.values() if a.isCheckable()), None)
        if first is not None:
            first.trigger()

    def select_tool(self, tool_id: str) -> None:
        self.tool_actions[tool_id].trigger()

    def _refused(self, message: str) -> None:
        self.app.document.design_edited("Edit design")  # keep what the gesture already changed
        show_error(self, "Design", message)

    def _edited(self, text: str) -> None:
        self.app.document.design_edited(text)
        error = self.app.document.snap.design_error
        if error and self.says_why_not_a_puzzle:
            self.app.status(f"{NOT_A_PUZZLE}{error}")
        elif not error and self.app.statusBar().currentMessage().startswith(NOT_A_PUZZLE):
            self.app.statusBar().clearMessage()  # it is a puzzle now: the old reason would mislead

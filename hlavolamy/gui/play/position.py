"""Side-panel page "Position": type a permutation, or paint colours on the drawing.

Every position is checked by the analysis before it is accepted; an
unreachable one is refused with the reasons the check gives.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PyQt6.QtGui import QColor, QIcon, QPainter, QPixmap
from PyQt6.QtWidgets import (
    QCheckBox, QComboBox, QGroupBox, QHBoxLayout, QLabel, QMessageBox, QPlainTextEdit, QPushButton, QVBoxLayout,
    QWidget,
)

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.core.puzzle import Puzzle, copy_puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import PermutationError
from hlavolamy.gui.palette import colour_map

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow


def swatch(colour: str, size: int = 14) -> QIcon:
    """A colour square with a grey rim, so white shows on a white list and black on a dark one."""
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(colour))
    painter = QPainter(pixmap)
    painter.setPen(QColor(128, 128, 128))
    painter.drawRect(0, 0, size - 1, size - 1)
    painter.end()
    return QIcon(pixmap)


def parse_permutation(text: str, puzzle: Puzzle) -> State:
    """A JSON list of cell indices as a State; PermutationError says what is wrong."""
    try:
        values = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PermutationError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    if not isinstance(values, list):
        raise PermutationError(f"expected a JSON list of {puzzle.n_cells} cell indices, got {type(values).__name__}")
    return State(puzzle, values)


class PositionPage(QWidget):
    """Type a permutation or paint colours; reachability decides."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.painted: list[str] | None = None

        self.perm_text = QPlainTextEdit()
        self.perm_text.setPlaceholderText("JSON list: entry i is the cell now at position i, e.g. [0, 2, 1, 3]")
        self.perm_text.setToolTip("State convention: position i shows the original cell perm[i]")
        copy = QPushButton("Current")
        copy.setToolTip("Fill in the current position")
        copy.clicked.connect(self.copy_current)
        set_button = QPushButton("Set position")
        set_button.setToolTip("Check that the position is reachable, then jump to it (undoable)")
        set_button.clicked.connect(self.set_permutation)
        row = QHBoxLayout()
        row.addWidget(copy)
        row.addStretch(1)
        row.addWidget(set_button)
        perm_group = QGroupBox("Permutation")
        perm_layout = QVBoxLayout(perm_group)
        perm_layout.addWidget(self.perm_text, 1)
        perm_layout.addLayout(row)

        self.paint_toggle = QCheckBox("Paint colours on the drawing")
        self.paint_toggle.setToolTip("Click a cell to give it the chosen colour; right-click picks up a cell's colour")
        self.paint_toggle.toggled.connect(self.toggle_painting)
        self.colour = QComboBox()
        self.apply_colours_button = QPushButton("Find position")
        self.apply_colours_button.setToolTip("Find a reachable position showing the painted colours")
        self.apply_colours_button.clicked.connect(self.apply_colours)
        paint_row = QHBoxLayout()
        paint_row.addWidget(self.colour, 1)
        paint_row.addWidget(self.apply_colours_button)
        paint_group = QGroupBox("Colours")
        paint_layout = QVBoxLayout(paint_group)
        paint_layout.addWidget(self.paint_toggle)
        paint_layout.addLayout(paint_row)

        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(perm_group, 1)
        layout.addWidget(paint_group)
        layout.addWidget(self.verdict)
        layout.addStretch(1)
        self._enable_painting_controls()

    def puzzle_changed(self) -> None:
        self.paint_toggle.setChecked(False)
        self.colour.clear()
        puzzle = self.app.document.puzzle
        if puzzle is not None:
            for label, colour in colour_map(puzzle).items():
                self.colour.addItem(swatch(colour), label)
        self.verdict.clear()

    def copy_current(self) -> None:
        state = self.app.document.state
        if state is not None:
            self.perm_text.setPlainText(json.dumps(state.perm.tolist()))

    # -- typed permutation ---------------------------------------------------------
    def set_permutation(self) -> None:
        puzzle = self.app.document.require_puzzle()
        state = parse_permutation(self.perm_text.toPlainText(), puzzle)
        self._check_and_set(state, "Set position")

    def _check_and_set(self, state: State, text: str) -> None:
        from hlavolamy.analysis.membership import check_state

        self.verdict.setText("Checking…")

        def job(progress: ProgressCallback, cancel: CancelToken) -> Any:
            return check_state(state.puzzle, state, cancel=cancel)

        self.app.run_task("Checking reachability", job, lambda verdict: self._verdict(state, verdict, text))

    def _verdict(self, state: State, verdict: Any, text: str) -> None:
        reasons = "; ".join(map(str, verdict.reasons))
        if not verdict.reachable:
            self.verdict.setText(f"Unreachable: {reasons}")
            QMessageBox.warning(self, "Position refused", f"This position cannot be reached: {reasons}")
            return
        kind = "reachable" if verdict.exact else f"passes every invariant (not proven exactly{': ' + reasons if reasons else ''})"
        self.verdict.setText(f"Position set: {kind}.")
        if state.puzzle is self.app.document.puzzle:
            self.app.document.set_state(state, text)

    # -- painted colours -------------------------------------------------------------
    def toggle_painting(self, on: bool) -> None:
        state = self.app.document.state
        self.painted = state.colours() if on and state is not None else None
        self._enable_painting_controls()
        self.app.set_paint_mode(self if on else None)
        self._show_painted()

    def _enable_painting_controls(self) -> None:
        painting = self.painted is not None
        self.colour.setEnabled(painting)
        self.apply_colours_button.setEnabled(painting)

    def cell_clicked(self, cell: int, pick: bool) -> None:
        """Paint (or with right-click pick up) one cell's colour."""
        if self.painted is None:
            return
        if pick:
            self.colour.setCurrentIndex(max(0, self.colour.findText(self.painted[cell])))
            return
        self.painted[cell] = self.colour.currentText()
        self._show_painted()

    def _show_painted(self) -> None:
        """Draw the painted colours: a copy of the puzzle whose solved colouring is the paint."""
        puzzle = self.app.document.puzzle
        if self.painted is None or puzzle is None:
            self.app.show_override(None)
            return
        palette = colour_map(puzzle)
        shown = copy_puzzle(puzzle, colours=self.painted, palette=palette, blockings=(), turned_parts={})
        self.app.show_override(State.solved(shown))

    def apply_colours(self) -> None:
        from hlavolamy.analysis.colours import state_from_colours

        puzzle = self.app.document.require_puzzle()
        colours = list(self.painted or [])

        def job(progress: ProgressCallback, cancel: CancelToken) -> State:
            return state_from_colours(puzzle, colours)

        def done(state: State) -> None:
            self.paint_toggle.setChecked(False)
            self.verdict.setText("Found a reachable position showing the painted colours.")
            self.app.document.set_state(state, "Set position by colours")

        self.app.run_task("Finding a position for the colours", job, done,
                          on_failure=lambda message: self.verdict.setText(f"No reachable position: {message}"))

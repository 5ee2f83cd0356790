"""Side-panel page "Moves": a button per move, sequence entry and the move history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QContextMenuEvent, QGuiApplication
from PyQt6.QtWidgets import (
    QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QScrollArea, QSizePolicy,
    QToolButton, QVBoxLayout, QWidget,
)

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.core.turns import Turn
from hlavolamy.errors import HlavolamyError, NotationError

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow

BUTTON_COLUMNS = 6
MAX_BUTTON_ROWS = 6
"""More rows than this scroll (a 33x33x33 cube has 99 moves)."""
MAX_HISTORY_ROWS = 500
"""The history list shows the last turns only; the label still counts them all."""


def cycle_summary(perm: P.Perm) -> str:
    """``4-cycles x5`` style text of a move's cycle type."""
    return ", ".join(f"{length}-cycle{'s' if count > 1 else ''} ×{count}" for length, count in P.cycle_type(perm).items())


def blocked_reason(state: State, move: str) -> str | None:
    """Why a blocking forbids ``move`` in this position (the fused cells it would tear), or None if legal."""
    torn = fused_sets_torn(state.puzzle, state.perm, move)
    if not torn:
        return None
    return f"{move} is blocked: it would tear fused cells {', '.join(str(sorted(b)) for b in torn)}"


def count(n: int, noun: str) -> str:
    """``1 turn``, ``2 turns``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


class MoveButton(QToolButton):
    """Plays its move on click; Shift-click or right-click plays the inverse."""

    play = pyqtSignal(str, int)

    def __init__(self, puzzle: Puzzle, move: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.move = move
        self.setText(move)
        self.setMinimumWidth(36)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.base_tooltip = (f"{move}: order {puzzle.move_order(move)}, {cycle_summary(puzzle.move(move))}\n"
                             f"Click: {move}   Shift-click or right-click: {move}'")
        self.setToolTip(self.base_tooltip)
        self.clicked.connect(self._clicked)

    def _clicked(self) -> None:
        shift = QGuiApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier
        self.play.emit(self.move, -1 if shift else 1)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if self.isEnabled():
            self.play.emit(self.move, -1)
        event.accept()


class MovesPage(QWidget):
    """Buttons for every move, "Execute sequence" and the history of played turns."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.buttons: dict[str, MoveButton] = {}

        self.button_box = QWidget()
        self.button_grid = QGridLayout(self.button_box)
        self.button_grid.setContentsMargins(0, 0, 0, 0)
        self.button_grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.button_box)
        self.scroll = scroll
        moves_group = QGroupBox("Moves")
        QVBoxLayout(moves_group).addWidget(scroll)

        self.sequence = QLineEdit()
        self.sequence.setPlaceholderText("e.g. (R U R' U')6  or  [R, U]  or  [F: R U]")
        self.sequence.setToolTip("Move notation: R' inverse, R2 power, (…)n repeat, [A, B] commutator, [A: B] conjugate")
        self.sequence.returnPressed.connect(self.execute)
        self.execute_button = QPushButton("Execute")
        self.execute_button.setToolTip("Play the sequence as one undo step")
        self.execute_button.clicked.connect(self.execute)
        self.sequence_error = QLabel()
        self.sequence_error.setWordWrap(True)
        self.sequence_error.setStyleSheet("color: #d33;")
        row = QHBoxLayout()
        row.addWidget(self.sequence, 1)
        row.addWidget(self.execute_button)
        seq_group = QGroupBox("Execute sequence")
        seq_layout = QVBoxLayout(seq_group)
        seq_layout.addLayout(row)
        seq_layout.addWidget(self.sequence_error)

        self.history = QListWidget()
        self.history.setToolTip("Turns played since the last jump (scramble, set position); Undo takes them back")
        self.history_label = QLabel()
        reset = QPushButton("Reset to solved")
        reset.setToolTip("Put the puzzle back in its solved position (undoable)")
        reset.clicked.connect(self.reset_solved)
        history_group = QGroupBox("History")
        history_layout = QVBoxLayout(history_group)
        history_layout.addWidget(self.history, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.history_label, 1)
        bottom.addWidget(reset)
        history_layout.addLayout(bottom)

        layout = QVBoxLayout(self)
        layout.addWidget(moves_group)
        layout.addWidget(seq_group)
        layout.addWidget(history_group, 3)

    # -- updates from the document ----------------------------------------
    def rebuild(self, puzzle: Puzzle | None) -> None:
        """New puzzle: one button per generator."""
        for button in self.buttons.values():
            button.deleteLater()
        self.buttons = {}
        if puzzle is None:
            return
        for k, move in enumerate(puzzle.moves):
            button = MoveButton(puzzle, move)
            button.play.connect(lambda m, power: self.app.play([Turn(m, power)]))
            self.button_grid.addWidget(button, k // BUTTON_COLUMNS, k % BUTTON_COLUMNS)
            self.buttons[move] = button
        rows = min(MAX_BUTTON_ROWS, -(-len(puzzle.moves) // BUTTON_COLUMNS))
        button_height = next(iter(self.buttons.values())).sizeHint().height()
        spacing = max(0, self.button_grid.spacing())
        self.scroll.setFixedHeight(rows * button_height + (rows - 1) * spacing + 2 * self.scroll.frameWidth() + 2)

    def refresh(self, state: State | None, history: tuple[Turn, ...]) -> None:
        """Position changed: history list and which moves a blocking forbids."""
        self.history.clear()
        if state is None:
            self.history_label.setText("")
            return
        puzzle = state.puzzle
        first = max(0, len(history) - MAX_HISTORY_ROWS)  # a list of 100 000 rows would freeze the window
        if first:
            self.history.addItem(f"… {first} earlier turns")
        self.history.addItems([f"{k + 1}. {puzzle.format([t])}" for k, t in enumerate(history[first:], first)])
        self.history.scrollToBottom()
        counts = f"{count(len(history), 'turn')}, {count(puzzle.length(history), 'move')}" if history else "no moves yet"
        self.history_label.setText(counts + (" — solved" if state.is_solved() else ""))
        self.history_label.setToolTip("Moves count single generator steps: R2 is two moves")
        for move, button in self.buttons.items():
            reason = blocked_reason(state, move)
            button.setEnabled(reason is None)
            button.setToolTip(reason or button.base_tooltip)

    # -- actions -------------------------------------------------------------
    def execute(self) -> None:
        text = self.sequence.text().strip()
        self.sequence_error.clear()
        if not text:
            return
        try:
            puzzle = self.app.document.require_puzzle()
            turns = puzzle.parse(text)
        except NotationError as exc:
            self.sequence_error.setText(str(exc))
            if exc.column is not None:
                self.sequence.setCursorPosition(max(0, exc.column - 1))
            self.sequence.setFocus()
            return
        except HlavolamyError as exc:
            self.sequence_error.setText(str(exc))
            return
        if self.app.play(turns, f"Execute {text}"):
            self.app.status(f"Played {text} ({puzzle.length(turns)} moves)")

    def reset_solved(self) -> None:
        state = self.app.document.state
        if state is not None:
            self.app.document.set_state(State.solved(state.puzzle), "Reset to solved")

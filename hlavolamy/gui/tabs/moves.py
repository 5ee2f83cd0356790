"""The Moves tab: every move with its order and cycles; add, rename and delete moves.

Designed puzzles (circles) define moves with the Designer's move tools (pick
a circle, an angle, a name); plain puzzles take a move typed as cycles of
cell numbers. Geometries that fix their own moves (cubes) hide this tab.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import (
    QFormLayout, QGroupBox, QHBoxLayout, QInputDialog, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QSpinBox, 
    QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle, copy_puzzle
from hlavolamy.errors import PermutationError, PuzzleError
from hlavolamy.gui.tabs import side_by_side
from hlavolamy.gui.tabs.design_panel import DesignPanel, is_move_tool
from hlavolamy.plugins.hookspecs import Tool

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow

CYCLE = re.compile(r"\(([^()]*)\)")
PICK = Tool("pick-circle", "Pick circle", "Click a turning circle to name its move and choose its angle")


def parse_cycles(text: str, n: int) -> P.Perm:
    """``(0 1 2)(3 4)`` (commas allowed) as a permutation of ``n`` cells; errors name the problem."""
    stripped = CYCLE.sub("", text).strip()
    if stripped:
        raise PermutationError(f"cycles: unexpected {stripped[:20]!r}; write cycles like (0 1 2)(3 4)")
    cycles = []
    seen: set[int] = set()
    for match in CYCLE.finditer(text):
        try:
            cells = [int(tok) for tok in match.group(1).replace(",", " ").split()]
        except ValueError:
            raise PermutationError(f"cycles: {match.group(0)!r} holds something that is not a cell number") from None
        for c in cells:
            if not 0 <= c < n:
                raise PermutationError(f"cycles: cell {c} is not in 0..{n - 1}")
            if c in seen:
                raise PermutationError(f"cycles: cell {c} appears twice; cycles must be disjoint")
            seen.add(c)
        cycles.append(cells)
    if not seen:
        raise PermutationError("cycles: no cycle given; write cycles like (0 1 2)(3 4)")
    return P.from_cycles(n, cycles)


def renamed(puzzle: Puzzle, old: str, new: str) -> Puzzle:
    """The puzzle with move ``old`` called ``new`` (order kept)."""
    if new in puzzle.moves:
        raise PuzzleError(f"there is already a move called {new!r}")
    moves = {(new if name == old else name): m for name, m in puzzle.moves.items()}
    parts = {(new if name == old else name): c for name, c in puzzle.turned_parts.items()}
    return copy_puzzle(puzzle, moves=moves, turned_parts=parts)


class MovesTab(QWidget):
    """Move list with cycles; editing for plain puzzles, Designer tools for designed ones."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Move", "Order", "Cycles"])
        self.tree.setToolTip("Each move's permutation as cycles: (a b c) sends the piece at b to a, c to b, a to c")
        self.tree.itemSelectionChanged.connect(self._show_selected)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setMaximumHeight(110)
        self.detail.setPlaceholderText("Select a move to see all its cycles")
        self.rename_button = QPushButton("Rename…")
        self.rename_button.clicked.connect(lambda: app.guarded(self.rename))
        self.delete_button = QPushButton("Delete")
        self.delete_button.clicked.connect(lambda: app.guarded(self.delete))
        row = QHBoxLayout()
        row.addWidget(self.rename_button)
        row.addWidget(self.delete_button)
        row.addStretch(1)

        self.new_name = QLineEdit()
        self.new_name.setPlaceholderText("name, e.g. X")
        self.new_cycles = QLineEdit()
        self.new_cycles.setPlaceholderText("cycles, e.g. (0 1 2)(3 4)")
        add = QPushButton("Add move")
        add.clicked.connect(lambda: app.guarded(self.add_move))
        self.add_group = QGroupBox("New move")
        form = QFormLayout(self.add_group)
        form.addRow("Name", self.new_name)
        form.addRow("Cycles", self.new_cycles)
        form.addRow(add)

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.tree, 1)
        left_layout.addWidget(self.detail)
        left_layout.addLayout(row)
        left_layout.addWidget(self.add_group)
        self.circle_id: str | None = None
        self.circle_label = QLabel("Pick a circle on the drawing.")
        self.move_name = QLineEdit()
        self.move_name.setPlaceholderText("automatic (A, B, …)")
        self.steps = QSpinBox()
        self.steps.setRange(0, 360)
        self.steps.setSpecialValueText("automatic (finest symmetric turn)")
        self.steps.setToolTip("Turns per full turn: the move turns by 360/k degrees")
        apply = QPushButton("Apply")
        apply.clicked.connect(lambda: app.guarded(self.apply_circle_move))
        self.circle_group = QGroupBox("Move of the picked circle")
        circle_form = QFormLayout(self.circle_group)
        circle_form.addRow(self.circle_label)
        circle_form.addRow("Name", self.move_name)
        circle_form.addRow("Steps k", self.steps)
        self.angle = QLineEdit()
        self.angle.setPlaceholderText("or an angle: 144, 360/2.5, 360/7")
        self.angle.setToolTip("Any angle in degrees (a rational part of a full turn); it replaces the steps when given")
        circle_form.addRow("Angle °", self.angle)
        circle_form.addRow(apply)
        left_layout.addWidget(self.circle_group)

        self.design = DesignPanel(app, is_move_tool)
        self.design.add_host_tool(PICK, lambda x, y: app.guarded(lambda: self.pick_circle(x, y)))
        side_by_side(self, left, self.design)

    def puzzle_changed(self) -> None:
        document = self.app.document
        designed = document.designer is not None
        if designed and self.design.canvas.designer is not document.designer:
            self.design.set_designer(document.designer)
        self.design.setVisible(designed)
        self.circle_group.setVisible(designed and hasattr(document.designer, "circle_at"))
        for widget in (self.add_group, self.rename_button, self.delete_button):
            widget.setVisible(not designed)
        self.tree.clear()
        puzzle = document.puzzle
        if puzzle is None:
            return
        for name, perm in puzzle.moves.items():
            item = QTreeWidgetItem([name, str(puzzle.move_order(name)), P.format_cycles(perm)])
            item.setData(0, Qt.ItemDataRole.UserRole, name)
            item.setToolTip(2, P.format_cycles(perm))
            self.tree.addTopLevelItem(item)
        self.tree.resizeColumnToContents(0)
        self.tree.setCurrentItem(self.tree.topLevelItem(0))

    def design_changed(self) -> None:
        self.design.canvas.update()

    # -- designed puzzles: a circle's move ---------------------------------------------
    def _circle_data(self, circle_id: str) -> dict:
        designer = self.app.document.designer
        circles = designer.data().get("circles", []) if designer is not None else []
        return next((c for c in circles if c.get("id") == circle_id), {})

    def pick_circle(self, x: float, y: float) -> None:
        """Select the turning circle under the point for the name/angle form."""
        designer = self.app.document.designer
        circle_id = designer.circle_at(x, y) if designer is not None else None
        if circle_id is None:
            self.app.status("No circle there")
            return
        data = self._circle_data(circle_id)
        if data.get("kind", "turn") != "turn":
            raise PuzzleError(f"circle {circle_id} is a cut circle: only turning circles have moves")
        self.circle_id = circle_id
        name = getattr(designer, "move_name", lambda _id: None)(circle_id)
        self.circle_label.setText(f"Circle {circle_id}: move {name}" if name else f"Circle {circle_id}")
        self.app.status(f"Picked circle {circle_id}" + (f" (move {name})" if name else ""))
        self.move_name.setText(data.get("name") or "")
        self.steps.setValue(int(data.get("steps") or 0))
        steps, turns = data.get("steps"), data.get("turns") or 1
        self.angle.setText(f"{360 * turns / steps:.6g}" if steps and turns != 1 else "")

    def apply_circle_move(self) -> None:
        """Name and angle of the picked circle's move, as one undo step."""
        designer = self.app.document.designer
        if designer is None or self.circle_id is None:
            raise PuzzleError("pick a turning circle first (Pick circle tool)")
        before = designer.data()
        try:
            designer.rename_move(self.circle_id, self.move_name.text().strip() or None)
            angle = self.angle.text().strip()
            if angle and hasattr(designer, "set_angle"):
                designer.set_angle(self.circle_id, angle)
            else:
                designer.set_steps(self.circle_id, self.steps.value() or None)
        except PuzzleError:
            designer.set_data(before)
            raise
        self.app.document.design_edited(f"Move of circle {self.circle_id}")

    def selected_move(self) -> str | None:
        items = self.tree.selectedItems()
        return items[0].data(0, Qt.ItemDataRole.UserRole) if items else None

    def _show_selected(self) -> None:
        """The selected move's full cycles (the list cuts long ones short)."""
        move = self.selected_move()
        puzzle = self.app.document.puzzle
        if move is None or puzzle is None:
            self.detail.clear()
            return
        perm = puzzle.move(move)
        self.detail.setPlainText(f"{move}: order {puzzle.move_order(move)}, moves {P.support(perm).size} cells\n"
                                 f"{P.format_cycles(perm)}")

    def add_move(self) -> None:
        puzzle = self.app.document.require_puzzle()
        name = self.new_name.text().strip()
        if name in puzzle.moves:
            raise PuzzleError(f"there is already a move called {name!r}")
        perm = parse_cycles(self.new_cycles.text(), puzzle.n_cells)
        self.app.document.replace_puzzle(copy_puzzle(puzzle, moves={**puzzle.moves, name: perm}), f"Add move {name}")
        self.new_name.clear()
        self.new_cycles.clear()

    def rename(self) -> None:
        puzzle = self.app.document.require_puzzle()
        old = self.selected_move()
        if old is None:
            return
        new, ok = QInputDialog.getText(self, "Rename move", f"New name for {old}:", text=old)
        if ok and new.strip() and new.strip() != old:
            self.app.document.replace_puzzle(renamed(puzzle, old, new.strip()), f"Rename move {old} to {new.strip()}")

    def delete(self) -> None:
        puzzle = self.app.document.require_puzzle()
        move = self.selected_move()
        if move is None:
            return
        moves = {name: m for name, m in puzzle.moves.items() if name != move}
        self.app.document.replace_puzzle(copy_puzzle(puzzle, moves=moves), f"Delete move {move}")

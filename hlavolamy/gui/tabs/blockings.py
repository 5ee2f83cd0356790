"""The Blockings tab: select cells on the drawing and fuse them into one piece.

A new blocking is validated by building the puzzle again
(``Puzzle(blockings=...)``), so overlaps and bad cells are refused with the
puzzle's own message. Fusing works on the solved position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import (
    QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget,
)

from hlavolamy.core.puzzle import copy_puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import PuzzleError
from hlavolamy.gui.canvas import StateCanvas
from hlavolamy.gui.document import make_view
from hlavolamy.gui.tabs import side_by_side

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow


class BlockingsTab(QWidget):
    """Click cells to select; Fuse makes them a blocking; the list shows and removes blockings."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.selection: set[int] = set()
        self.canvas = StateCanvas()
        self.canvas.cell_mode = True
        self.canvas.show_numbers = True
        self.canvas.setToolTip("Click cells to select or unselect them; hatched cells are already fused")
        self.canvas.cell_clicked.connect(self.toggle)
        self.list = QListWidget()
        self.list.setToolTip("Fused sets (hatched on the drawing); select one to outline its cells")
        self.list.itemSelectionChanged.connect(self._show_selected_blocking)
        self.selection_label = QLabel()
        self.selection_label.setWordWrap(True)
        fuse = QPushButton("Fuse selected")
        fuse.setToolTip("Make the selected cells one piece that no move may tear apart (undoable)")
        fuse.clicked.connect(lambda: app.guarded(self.fuse))
        clear = QPushButton("Clear selection")
        clear.clicked.connect(self.clear_selection)
        remove = QPushButton("Remove blocking")
        remove.clicked.connect(lambda: app.guarded(self.remove))
        buttons = QHBoxLayout()
        buttons.addWidget(fuse)
        buttons.addWidget(clear)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(QLabel("Blockings"))
        left_layout.addWidget(self.list, 1)
        left_layout.addWidget(remove)
        left_layout.addWidget(self.selection_label)
        left_layout.addLayout(buttons)
        side_by_side(self, left, self.canvas)

    def puzzle_changed(self) -> None:
        document = self.app.document
        puzzle = document.puzzle
        self.selection.clear()
        self.canvas.message = document.snap.design_error or "No puzzle"
        self.canvas.set_view(make_view(document.geometry, puzzle) if puzzle else None,
                             State.solved(puzzle) if puzzle else None)
        self.list.clear()
        self.canvas.marked = frozenset().union(*puzzle.blockings) if puzzle is not None else frozenset()
        if puzzle is not None:
            for k, fused in enumerate(puzzle.blockings):
                item = QListWidgetItem(f"{k}: cells {', '.join(map(str, sorted(fused)))}")
                item.setData(Qt.ItemDataRole.UserRole, k)
                self.list.addItem(item)
        self.refresh()

    def refresh(self) -> None:
        self.canvas.highlight = frozenset(self.selection)
        self.canvas.update()
        self.selection_label.setText(f"Selected: {', '.join(map(str, sorted(self.selection)))}" if self.selection
                                     else "Click cells on the drawing to select them.")

    def toggle(self, cell: int, _alternate: bool = False) -> None:
        self.selection.symmetric_difference_update({cell})
        self.refresh()

    def clear_selection(self) -> None:
        self.selection.clear()
        self.refresh()

    def _show_selected_blocking(self) -> None:
        puzzle = self.app.document.puzzle
        items = self.list.selectedItems()
        if puzzle is not None and items:
            self.selection = set(puzzle.blockings[items[0].data(Qt.ItemDataRole.UserRole)])
            self.refresh()

    def fuse(self) -> None:
        puzzle = self.app.document.require_puzzle()
        if len(self.selection) < 2:
            raise PuzzleError("select at least two cells to fuse")
        cells = sorted(self.selection)
        fused = copy_puzzle(puzzle, blockings=[*map(sorted, puzzle.blockings), cells])
        self.app.document.replace_puzzle(fused, f"Fuse cells {cells}")
        self.app.status(f"Fused cells {cells}")

    def remove(self) -> None:
        puzzle = self.app.document.require_puzzle()
        items = self.list.selectedItems()
        if not items:
            return
        k = items[0].data(Qt.ItemDataRole.UserRole)
        kept = [sorted(b) for j, b in enumerate(puzzle.blockings) if j != k]
        self.app.document.replace_puzzle(copy_puzzle(puzzle, blockings=kept), f"Remove blocking {k}")

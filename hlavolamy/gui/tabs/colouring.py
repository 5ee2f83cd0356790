"""The Colouring tab: a palette (add, edit) and painting the solved colours of cells.

Plain and parameter-built puzzles are painted here directly (click a cell, or
fill every cell of the clicked colour); designed puzzles (circles) are painted
through their Designer, which turns coloured regions into cells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtGui import QColor
from PyQt6.QtWidgets import (
    QColorDialog, QHBoxLayout, QInputDialog, QLabel, QListWidget, QListWidgetItem, QPushButton, QRadioButton,
    QStackedWidget, QVBoxLayout, QWidget,
)

from hlavolamy.core.puzzle import Puzzle, copy_puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import PuzzleError
from hlavolamy.gui.canvas import StateCanvas
from hlavolamy.gui.document import make_view
from hlavolamy.gui.palette import colour_map, spread_colour
from hlavolamy.gui.play.position import swatch
from hlavolamy.gui.tabs import side_by_side
from hlavolamy.gui.tabs.design_panel import DesignPanel, is_colour_tool

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow

DEFAULT_PALETTE = {  # offered to designs (their regions need colours to become cells)
    "red": "#d03030", "orange": "#f08020", "yellow": "#f0d020", "green": "#30a050",
    "blue": "#3060d0", "cyan": "#30c0d0", "white": "#f4f4f4", "purple": "#8040b0",
}


def repaint(puzzle: Puzzle, cells: list[int], label: str, palette: dict[str, str]) -> Puzzle:
    """``puzzle`` with ``cells`` showing ``label`` when solved."""
    colours = list(puzzle.colours)
    for c in cells:
        colours[c] = label
    return copy_puzzle(puzzle, colours=colours, palette=palette)


class ColouringTab(QWidget):
    """Palette on the left; the solved puzzle (or the designer) to paint on the right."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.palette: dict[str, str] = {}
        self.added: dict[str, str] = {}
        """Colours the user added or edited in this document (labels no cell shows yet stay here)."""
        app.document.opened.connect(self.added.clear)
        self.palette_list = QListWidget()
        self.palette_list.setToolTip("The colour to paint with")
        self.palette_list.currentItemChanged.connect(self._colour_chosen)
        add = QPushButton("Add colour…")
        add.setToolTip("A new colour label and its screen colour")
        add.clicked.connect(lambda: app.guarded(self.add_colour))
        edit = QPushButton("Edit colour…")
        edit.setToolTip("Change the screen colour of the selected label")
        edit.clicked.connect(lambda: app.guarded(self.edit_colour))
        self.paint_mode = QRadioButton("Paint one cell")
        self.paint_mode.setChecked(True)
        self.fill_mode = QRadioButton("Fill: every cell of the clicked colour")
        self.fill_mode.setToolTip("Cells have no neighbours in general, so the fill recolours every cell "
                                  "that shows the clicked colour")
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(QLabel("Palette"))
        left_layout.addWidget(self.palette_list, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(edit)
        left_layout.addLayout(buttons)
        left_layout.addWidget(self.paint_mode)
        left_layout.addWidget(self.fill_mode)

        self.canvas = StateCanvas()
        self.canvas.cell_mode = True
        self.canvas.setToolTip("Click a cell to paint it with the selected colour")
        self.canvas.cell_clicked.connect(lambda cell, _alt: app.guarded(lambda: self.paint(cell)))
        self.design = DesignPanel(app, is_colour_tool)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.canvas)
        self.stack.addWidget(self.design)

        side_by_side(self, left, self.stack)

    # -- document updates ----------------------------------------------------------
    def puzzle_changed(self) -> None:
        document = self.app.document
        puzzle = document.puzzle
        if document.designer is not None:
            if self.design.canvas.designer is not document.designer:
                self.design.set_designer(document.designer)
            self.stack.setCurrentWidget(self.design)
        else:
            self.stack.setCurrentWidget(self.canvas)
            self.canvas.set_view(make_view(document.geometry, puzzle) if puzzle else None,
                                 State.solved(puzzle) if puzzle else None)
        for mode in (self.paint_mode, self.fill_mode):  # a designer paints with its own tools
            mode.setVisible(document.designer is None)
        offered = DEFAULT_PALETTE if document.designer is not None else {}
        design = document.designer.data().get("palette", {}) if document.designer is not None else {}
        # the design's own colours win over ones added here, so undoing an edited colour shows the old one again
        self.palette = {**offered, **self.added, **design, **(colour_map(puzzle) if puzzle is not None else {})}
        self._fill_palette()
        self._colour_chosen()

    def refresh(self) -> None:
        self.canvas.update()

    def design_changed(self) -> None:
        self.design.canvas.update()

    def _fill_palette(self) -> None:
        current = self.current_label()
        self.palette_list.clear()
        for label, colour in self.palette.items():
            item = QListWidgetItem(swatch(colour, 18), label)
            self.palette_list.addItem(item)
            if label == current:
                self.palette_list.setCurrentItem(item)
        if self.palette_list.currentItem() is None and self.palette_list.count():
            self.palette_list.setCurrentRow(0)

    def current_label(self) -> str | None:
        item = self.palette_list.currentItem()
        return item.text() if item is not None else None

    def _colour_chosen(self) -> None:
        label = self.current_label()
        designer = self.app.document.designer
        if label is not None and designer is not None and hasattr(designer, "set_current_colour"):
            designer.set_current_colour(label, self.palette[label])

    # -- palette edits ------------------------------------------------------------------
    def add_colour(self) -> None:
        label, ok = QInputDialog.getText(self, "Add colour", "Label (any text, e.g. red, W, 1):")
        label = label.strip()
        if not ok or not label:
            return
        if label in self.palette:
            raise PuzzleError(f"the palette already has a colour labelled {label!r}")
        colour = QColorDialog.getColor(spread_colour(len(self.palette)), self, f"Colour for {label}")
        if not colour.isValid():
            return
        self.set_colour(label, colour)

    def edit_colour(self) -> None:
        label = self.current_label()
        if label is None:
            return
        colour = QColorDialog.getColor(QColor(self.palette[label]), self, f"Colour for {label}")
        if colour.isValid():
            self.set_colour(label, colour)

    def set_colour(self, label: str, colour: QColor) -> None:
        """Add or change a palette entry; on a puzzle it is an undoable edit of its palette."""
        self.palette[label] = self.added[label] = colour.name()
        puzzle = self.app.document.puzzle
        if puzzle is not None and self.app.document.designer is None:
            self.app.document.replace_puzzle(copy_puzzle(puzzle, palette={**puzzle.palette, label: colour.name()}),
                                             f"Colour {label}")
        designer = self.app.document.designer
        if designer is not None and hasattr(designer, "set_current_colour"):
            designer.set_current_colour(label, colour.name())  # enters the design's palette
            self.app.document.design_edited(f"Colour {label}")
        self._fill_palette()
        self.palette_list.setCurrentRow(list(self.palette).index(label))

    # -- painting cells -------------------------------------------------------------------
    def paint(self, cell: int) -> None:
        puzzle = self.app.document.puzzle
        label = self.current_label()
        if puzzle is None or label is None:
            return
        cells = ([c for c, shown in enumerate(puzzle.colours) if shown == puzzle.colours[cell]]
                 if self.fill_mode.isChecked() else [cell])
        if all(puzzle.colours[c] == label for c in cells):
            return
        palette = {k: v for k, v in self.palette.items() if k in set(puzzle.colours) | {label}}
        self.app.document.replace_puzzle(repaint(puzzle, cells, label, palette), f"Paint {len(cells)} cell(s) {label}")

"""The Play tab: the puzzle drawn in the middle (optionally the solved one beside it) and the side panel."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.gui.canvas import StateCanvas
from hlavolamy.gui.document import make_view
from hlavolamy.gui.play.analysis import AnalysisPage
from hlavolamy.gui.play.moves import MovesPage
from hlavolamy.gui.play.position import PositionPage
from hlavolamy.gui.play.solve import SolvePage

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow


class PlayTab(QWidget):
    """Canvas, solved-view canvas and the side panel pages."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.override: State | None = None
        self.canvas = StateCanvas()
        self.canvas.setToolTip("Click a move handle to turn (Shift or right button: inverse); drag to rotate 3D views")
        self.canvas.move_requested.connect(lambda move, power: app.play([Turn(move, power)]))
        self.canvas.cell_clicked.connect(self._cell_clicked)
        self.solved_canvas = StateCanvas()
        self.solved_canvas.setToolTip("The solved puzzle, for comparison")
        self.solved_canvas.setVisible(False)
        self.paint_target: PositionPage | None = None

        self.show_numbers = QCheckBox("Cell numbers")
        self.show_numbers.setToolTip("Show each position's index on the drawing")
        self.show_numbers.toggled.connect(self._numbers_toggled)
        self.show_solved = QCheckBox("Show solved")
        self.show_solved.setToolTip("Draw the solved puzzle beside the current one")
        self.show_solved.toggled.connect(self.solved_canvas.setVisible)
        self.position_label = QLabel()
        options = QHBoxLayout()
        options.addWidget(self.position_label, 1)
        options.addWidget(self.show_numbers)
        options.addWidget(self.show_solved)

        canvases = QSplitter(Qt.Orientation.Horizontal)
        canvases.addWidget(self.canvas)
        canvases.addWidget(self.solved_canvas)
        canvases.setStretchFactor(0, 3)
        canvases.setStretchFactor(1, 2)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addLayout(options)
        centre_layout.addWidget(canvases, 1)

        self.moves_page = MovesPage(app)
        self.solve_page = SolvePage(app)
        self.analysis_page = AnalysisPage(app)
        self.position_page = PositionPage(app)
        self.analysis_page.orbits_found.connect(self.solve_page.set_orbits)
        self.solve_page.solved.connect(self.analysis_page.show_cached)
        self.side = QTabWidget()
        for page, title, tip in (
            (self.moves_page, "Moves", "Move buttons, sequences and the move history"),
            (self.solve_page, "Solve", "Scramble and solve; step through the solution"),
            (self.analysis_page, "Analysis", "Orbits, blocks, invariants, 3-cycles and independent moves"),
            (self.position_page, "Position", "Set a position by permutation or by painting colours"),
        ):
            self.side.setTabToolTip(self.side.addTab(page, title), tip)
        self.side.setMinimumWidth(340)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(centre)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    # -- document updates --------------------------------------------------------
    def puzzle_changed(self) -> None:
        document = self.app.document
        puzzle = document.puzzle
        self.override = None
        if puzzle is None:
            self.canvas.message = document.snap.design_error or "No puzzle: File → New or Open."
            self.canvas.set_view(None, None)
            self.solved_canvas.set_view(None, None)
        else:
            self.canvas.set_view(make_view(document.geometry, puzzle), document.state)
            self.solved_canvas.set_view(make_view(document.geometry, puzzle), State.solved(puzzle))
        self.canvas.highlight = frozenset()
        self.moves_page.rebuild(puzzle)
        self.solve_page.puzzle_changed()
        self.analysis_page.puzzle_changed()
        self.position_page.puzzle_changed()

    def state_changed(self) -> None:
        document = self.app.document
        state = document.state
        self.canvas.set_state(self.override or state, animate=self.override is None)
        self.moves_page.refresh(state, document.history)
        self.solve_page.state_changed()
        if state is None:
            self.position_label.setText("")
        else:
            solved = "solved" if state.is_solved() else ("colours solved" if state.is_colour_solved() else "scrambled")
            self.position_label.setText(f"{state.puzzle.n_cells} cells, {len(state.puzzle.moves)} moves — {solved}")

    # -- helpers for the pages -------------------------------------------------------
    def _numbers_toggled(self, on: bool) -> None:
        for canvas in (self.canvas, self.solved_canvas):
            canvas.show_numbers = on
            canvas.update()

    def set_busy(self, busy: bool) -> None:
        """A background job runs: the buttons that start another one are off until it ends (Cancel stays on)."""
        self.solve_page.set_busy(busy)
        self.analysis_page.analyse_button.setEnabled(not busy)

    def set_highlight(self, cells: frozenset[int]) -> None:
        self.canvas.highlight = cells
        self.canvas.update()

    def set_paint_mode(self, target: PositionPage | None) -> None:
        self.paint_target = target
        self.canvas.cell_mode = target is not None

    def show_override(self, state: State | None) -> None:
        """Draw ``state`` instead of the document's (painted colours being edited)."""
        self.override = state
        self.canvas.set_state(state or self.app.document.state)

    def _cell_clicked(self, cell: int, pick: bool) -> None:
        if self.paint_target is not None:
            self.paint_target.cell_clicked(cell, pick)

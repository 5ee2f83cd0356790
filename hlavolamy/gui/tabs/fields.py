"""The Fields tab: the geometry, drawn with the plugin's Designer or rebuilt from its parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PyQt6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from hlavolamy.core.state import State
from hlavolamy.gui.canvas import StateCanvas
from hlavolamy.gui.document import make_view
from hlavolamy.gui.params import ParameterForm
from hlavolamy.gui.tabs.design_panel import DesignPanel, is_field_tool

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow


class FieldsTab(QWidget):
    """Designer tools and canvas; or a parameter form (a cube's size) with Rebuild; or a note."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.design = DesignPanel(app, is_field_tool, says_why_not_a_puzzle=False)  # design_status says it
        self.design_status = QLabel()
        self.design_status.setWordWrap(True)
        design_page = QWidget()
        design_layout = QVBoxLayout(design_page)
        design_layout.addWidget(self.design, 1)
        design_layout.addWidget(self.design_status)

        self.params_group = QGroupBox("Parameters")
        self.params_layout = QVBoxLayout(self.params_group)
        self.form: ParameterForm | None = None
        self.rebuild_button = QPushButton("Rebuild")
        self.rebuild_button.setToolTip("Make a new puzzle from these parameters (undoable)")
        self.rebuild_button.clicked.connect(lambda: app.guarded(self.rebuild))
        self.description = QLabel()
        self.description.setWordWrap(True)
        params_column = QWidget()
        params_column.setMaximumWidth(380)
        params_layout = QVBoxLayout(params_column)
        params_layout.addWidget(self.params_group)
        params_layout.addWidget(self.rebuild_button)
        params_layout.addWidget(self.description)
        params_layout.addStretch(1)
        self.preview = StateCanvas()
        self.preview.setToolTip("The puzzle these parameters made")
        params_page = QWidget()
        params_row = QHBoxLayout(params_page)
        params_row.addWidget(params_column)
        params_row.addWidget(self.preview, 1)

        self.note = QLabel()
        self.note.setWordWrap(True)
        note_page = QWidget()
        QVBoxLayout(note_page).addWidget(self.note)

        self.stack = QStackedWidget()
        for page in (design_page, params_page, note_page):
            self.stack.addWidget(page)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stack)

    def puzzle_changed(self) -> None:
        document = self.app.document
        geometry = document.geometry
        if document.designer is not None:
            if self.design.canvas.designer is not document.designer:
                self.design.set_designer(document.designer)
            self.stack.setCurrentIndex(0)
            self.design_changed()
        elif geometry is not None and geometry.parameters:
            self._show_parameters()
            self.stack.setCurrentIndex(1)
        else:
            puzzle = document.puzzle
            plugin = puzzle.plugin.name if puzzle is not None and puzzle.plugin else None
            why = (f"The plugin {plugin!r} that made this puzzle is not installed." if plugin else
                   "This puzzle has no geometry plugin: it is given by its moves alone.")
            self.note.setText(f"{why} Its cells are drawn as discs. Paint colours, define moves and fuse cells "
                              "in the other tabs; File → New makes a puzzle from a plugin.")
            self.stack.setCurrentIndex(2)

    def design_changed(self) -> None:
        self.design.canvas.update()
        snap = self.app.document.snap
        self.design_status.setText(f"Not a puzzle yet: {snap.design_error}" if snap.design_error else
                                   f"{snap.puzzle.n_cells} cells, {len(snap.puzzle.moves)} moves" if snap.puzzle else "")

    def _show_parameters(self) -> None:
        geometry = self.app.document.geometry
        puzzle = self.app.document.puzzle
        if geometry is None:
            return
        values = dict(puzzle.plugin.data) if puzzle is not None and puzzle.plugin is not None else {}
        if self.form is not None:
            self.form.deleteLater()
        self.form = ParameterForm(geometry.parameters, {k: v for k, v in values.items()
                                                        if k in {p.name for p in geometry.parameters}})
        self.params_layout.addWidget(self.form)
        self.params_group.setTitle(f"{geometry.title or geometry.name} parameters")
        self.description.setText(puzzle.description if puzzle is not None and puzzle.description
                                 else geometry.description)
        self.preview.set_view(make_view(geometry, puzzle) if puzzle else None, State.solved(puzzle) if puzzle else None)

    def rebuild(self) -> None:
        geometry = self.app.document.geometry
        if geometry is None or self.form is None:
            return
        from hlavolamy.plugins.manager import build_puzzle

        puzzle = build_puzzle(geometry, self.form.values())
        self.app.document.replace_puzzle(puzzle, f"Rebuild {puzzle.name or geometry.name}")
        self.app.status(f"Rebuilt: {puzzle.n_cells} cells, {len(puzzle.moves)} moves")

"""File → Import and Export: other tools' puzzle formats (KPuzzle, ksolve, GAP, Santa CSV, SiGN).

The loaded plugin host lists the formats (the built-in ones and every
plugin's, :meth:`~hlavolamy.plugins.manager.PluginHost.formats`) with their options;
a small dialog asks for them (a file for ``"path"`` options, a check box for
``bool``, text otherwise) before reading or writing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PyQt6.QtWidgets import (
    QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QMenu,
    QPushButton, QWidget,
)

from hlavolamy import formats
from hlavolamy.core.fileformat import PuzzleFile

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow


def file_filter(fmt: formats.Format) -> str:
    patterns = " ".join(f"*{suffix}" for suffix in fmt.suffixes) or "*"
    return f"{fmt.name} ({patterns});;All files (*)"


class OptionsDialog(QDialog):
    """One row per format option; :meth:`values` returns the filled-in ones."""

    def __init__(self, fmt: formats.Format, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"{fmt.name} options")
        self._getters: dict[str, Any] = {}
        form = QFormLayout(self)
        description = QLabel(fmt.description)
        description.setWordWrap(True)
        form.addRow(description)
        for option in fmt.options:
            if option.kind is bool:
                box = QCheckBox()
                box.setToolTip(option.help)
                form.addRow(option.name, box)
                self._getters[option.name] = box.isChecked
                continue
            line = QLineEdit()
            line.setPlaceholderText(option.help)
            line.setToolTip(option.help)
            row: QWidget = line
            if option.kind == "path":
                browse = QPushButton("Browse…")
                browse.clicked.connect(lambda _c=False, target=line: self._browse(target))
                row = QWidget()
                layout = QHBoxLayout(row)
                layout.setContentsMargins(0, 0, 0, 0)
                layout.addWidget(line, 1)
                layout.addWidget(browse)
            form.addRow(option.name, row)
            self._getters[option.name] = lambda target=line: target.text().strip()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self, target: QLineEdit) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a file", target.text())
        if path:
            target.setText(path)

    def values(self) -> dict[str, Any]:
        return {name: getter() for name, getter in self._getters.items()}


def ask_options(app: MainWindow, fmt: formats.Format) -> dict[str, Any] | None:
    """The format's options from a dialog (None: cancelled); no dialog when it has none."""
    if not fmt.options:
        return {}
    dialog = OptionsDialog(fmt, app)
    return dialog.values() if dialog.exec() else None


def build_menus(app: MainWindow, import_menu: QMenu, export_menu: QMenu) -> None:
    """One entry per format that can be read (Import) or written (Export), a plugin's too (the window's host)."""
    for fmt in app.plugins.formats():
        if fmt.can_import:
            action = import_menu.addAction(f"{fmt.name}…")
            action.setStatusTip(fmt.description)
            action.triggered.connect(lambda _c=False, f=fmt: app.guarded(lambda: import_puzzle(app, f)))
        if fmt.can_export:
            action = export_menu.addAction(f"{fmt.name}…")
            action.setStatusTip(fmt.description)
            action.triggered.connect(lambda _c=False, f=fmt: app.guarded(lambda: export_puzzle(app, f)))


def import_puzzle(app: MainWindow, fmt: formats.Format) -> None:
    """Read a file in ``fmt`` as a new, unsaved document."""
    if not app.maybe_save():
        return
    path, _ = QFileDialog.getOpenFileName(app, f"Import {fmt.name}", "", file_filter(fmt))
    if not path:
        return
    options = ask_options(app, fmt)
    if options is None:
        return
    app.document.load(formats.import_file(fmt.name, path, **options), path=None)
    app.tabs.setCurrentWidget(app.play_tab)
    app.status(f"Imported {path} ({fmt.name}); File → Save As keeps it as a Hlavolamy puzzle")


def export_puzzle(app: MainWindow, fmt: formats.Format) -> None:
    """Write the puzzle (and position/history where the format holds them) in ``fmt``."""
    document = app.document
    puzzle = document.require_puzzle()
    path, _ = QFileDialog.getSaveFileName(app, f"Export {fmt.name}", "", file_filter(fmt))
    if not path:
        return
    formats.export_file(fmt.name, PuzzleFile(puzzle, document.state, list(document.history)), path)
    app.status(f"Exported {path} ({fmt.name})")

"""The main window: tabs, menus, file handling, undo, shortcuts and background tasks."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PyQt6.QtCore import QSettings, QSize, Qt
from PyQt6.QtGui import QAction, QCloseEvent, QKeySequence
from PyQt6.QtWidgets import QDockWidget, QFileDialog, QMainWindow, QMessageBox, QTabWidget, QUndoView, QWidget

from hlavolamy.core.turns import Turn
from hlavolamy.errors import HlavolamyError
from hlavolamy.gui.design_work import DesignWorkRunner
from hlavolamy.gui.dialogs import NewPuzzleDialog
from hlavolamy.gui.document import Document
from hlavolamy.gui.errors import show_error
from hlavolamy.gui.interchange import build_menus
from hlavolamy.gui.play.moves import blocked_reason
from hlavolamy.gui.play.tab import PlayTab
from hlavolamy.gui.tabs.blockings import BlockingsTab
from hlavolamy.gui.tabs.colouring import ColouringTab
from hlavolamy.gui.tabs.fields import FieldsTab
from hlavolamy.gui.tabs.moves import MovesTab
from hlavolamy.gui.workers import Job, TaskBar
from hlavolamy.plugins.manager import get_plugin_host

log = logging.getLogger(__name__)

FILE_FILTER = "Hlavolamy puzzles (*.json);;All files (*)"
MAX_RECENT = 8
STATUS_TIMEOUT_MS = 6000


class MainWindow(QMainWindow):
    """Fields, Colouring, Moves, Blockings and Play, around one :class:`Document`."""

    def __init__(self, settings: QSettings | None = None):
        super().__init__()
        self.settings = settings or QSettings("Hlavolamy", "Hlavolamy")
        self.plugins = get_plugin_host()
        """The loaded plugins, before anything lists what they add (strategies, formats, geometries)."""
        self.document = Document(self)
        self.tasks = TaskBar()
        self.statusBar().addPermanentWidget(self.tasks, 1)
        self.tasks.idle.connect(self._task_idle)
        self.move_actions: list[QAction] = []

        self.fields_tab = FieldsTab(self)
        self.colouring_tab = ColouringTab(self)
        self.moves_tab = MovesTab(self)
        self.blockings_tab = BlockingsTab(self)
        self.play_tab = PlayTab(self)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        for widget, title, tip in (
            (self.fields_tab, "Fields", "Draw the geometry with the plugin's tools"),
            (self.colouring_tab, "Colouring", "Paint the solved colours of the cells"),
            (self.moves_tab, "Moves", "Define moves and see their cycles"),
            (self.blockings_tab, "Blockings", "Fuse cells into pieces that must move together"),
            (self.play_tab, "Play", "Play, scramble, analyse and solve"),
        ):
            self.tabs.setTabToolTip(self.tabs.addTab(widget, title), tip)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.setCentralWidget(self.tabs)

        self._build_menus()
        self.tasks.busy_changed.connect(self.play_tab.set_busy)
        self.document.puzzle_changed.connect(self._puzzle_changed)
        self.document.state_changed.connect(self.play_tab.state_changed)
        self.document.state_changed.connect(self._update_move_actions)
        self.document.state_changed.connect(self.blockings_tab.refresh)
        self.document.state_changed.connect(self.colouring_tab.refresh)
        self.document.design_changed.connect(self.fields_tab.design_changed)
        self.document.design_changed.connect(self.colouring_tab.design_changed)
        self.document.design_changed.connect(self.moves_tab.design_changed)
        self.document.file_changed.connect(self._update_title)
        self.design_work = DesignWorkRunner(self)
        self.resize(QSize(1200, 800))
        self._puzzle_changed()
        self._update_title()
        self.tabs.setCurrentWidget(self.play_tab)

    # -- menus ---------------------------------------------------------------------
    def _action(self, menu: Any, text: str, slot: Callable[[], Any], shortcut: QKeySequence | str | None = None,
                tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: self.guarded(slot))
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        self._action(file_menu, "&New…", self.new_puzzle, QKeySequence.StandardKey.New,
                     "Create a puzzle from a plugin geometry")
        self._action(file_menu, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open, "Open a puzzle file")
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self._action(file_menu, "&Save", self.save, QKeySequence.StandardKey.Save, "Save the puzzle and position")
        self._action(file_menu, "Save &As…", self.save_as, QKeySequence.StandardKey.SaveAs,
                     "Save under a new name")
        file_menu.addSeparator()
        build_menus(self, file_menu.addMenu("&Import"), file_menu.addMenu("&Export"))
        file_menu.addSeparator()
        self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        edit_menu = bar.addMenu("&Edit")
        undo = self.document.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.document.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit_menu.addAction(undo)
        edit_menu.addAction(redo)
        self.undo_action, self.redo_action = undo, redo
        edit_menu.addSeparator()
        self._action(edit_menu, "&Cancel running job", self.tasks.cancel, "Esc",
                     "Stop the analysis or solve running in the background")

        view_menu = bar.addMenu("&View")
        numbers = view_menu.addAction("Cell &numbers")
        numbers.setCheckable(True)
        numbers.setShortcut(QKeySequence("Ctrl+Shift+N"))
        numbers.toggled.connect(self.play_tab.show_numbers.setChecked)
        self.play_tab.show_numbers.toggled.connect(numbers.setChecked)
        solved = view_menu.addAction("Show &solved puzzle")
        solved.setCheckable(True)
        solved.setShortcut(QKeySequence("Ctrl+Shift+D"))
        solved.toggled.connect(self.play_tab.show_solved.setChecked)
        self.play_tab.show_solved.toggled.connect(solved.setChecked)
        self.animate_action = view_menu.addAction("&Animate moves")
        self.animate_action.setCheckable(True)
        self.animate_action.setStatusTip("Turns and solution steps fade from the old position to the new one")
        self.animate_action.toggled.connect(self._animate_toggled)
        self.animate_action.setChecked(self.settings.value("animate_moves", True, type=bool))
        self._animate_toggled(self.animate_action.isChecked())

        view_menu.addSeparator()
        self.undo_dock = QDockWidget("Undo history", self)
        self.undo_dock.setObjectName("undo-history")
        self.undo_dock.setWidget(QUndoView(self.document.undo_stack))
        self.undo_dock.setToolTip("Every edit and move; click an entry to go back to it")
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.undo_dock)
        self.undo_dock.hide()
        view_menu.addAction(self.undo_dock.toggleViewAction())

        self.moves_menu = bar.addMenu("&Moves")
        self.moves_menu.setToolTipsVisible(True)
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&About Hlavolamy", self.about)
        self._update_recent_menu()

    def _build_move_shortcuts(self) -> None:
        """Single-letter moves get their key (Shift: inverse), active on the Play tab."""
        self.moves_menu.clear()
        for action in self.move_actions:
            self.removeAction(action)
        self.move_actions = []
        puzzle = self.document.puzzle
        if puzzle is None:
            return
        for name in puzzle.moves:
            if len(name) != 1 or not name.isalpha() or (name.islower() and name.upper() in puzzle.moves):
                continue
            key = name.upper()
            for power, sequence, text in ((1, key, name), (-1, f"Shift+{key}", f"{name}'")):
                action = QAction(text, self)
                action.setData(name)
                action.setShortcut(QKeySequence(sequence))
                action.triggered.connect(lambda _c=False, m=name, p=power: self.play([Turn(m, p)]))
                self.moves_menu.addAction(action)
                self.addAction(action)
                self.move_actions.append(action)
        self.moves_menu.setEnabled(bool(self.move_actions))
        self._tab_changed()

    # -- document reactions ---------------------------------------------------------
    def _puzzle_changed(self) -> None:
        document = self.document
        geometry = document.geometry
        self.tabs.setTabVisible(self.tabs.indexOf(self.moves_tab), not (geometry is not None and geometry.defines_moves))
        for tab in (self.fields_tab, self.colouring_tab, self.moves_tab, self.blockings_tab, self.play_tab):
            tab.puzzle_changed()
        self._build_move_shortcuts()

    def _animate_toggled(self, on: bool) -> None:
        self.settings.setValue("animate_moves", on)
        self.play_tab.canvas.animate = on
        if not on:
            self.play_tab.canvas.finish_animation()

    def _update_title(self) -> None:
        self.setWindowModified(self.document.modified)
        read_only = " (read-only)" if self.document.read_only else ""
        self.setWindowTitle(f"{self.document.title()}{read_only}[*] — Hlavolamy")

    def _tab_changed(self) -> None:
        self._update_move_actions()

    def _update_move_actions(self) -> None:
        """Move keys work on the Play tab only, and not for a move a blocking forbids (its tip says why)."""
        on_play = self.tabs.currentWidget() is self.play_tab
        state = self.document.state
        for action in self.move_actions:
            reason = blocked_reason(state, action.data()) if state is not None else None
            action.setEnabled(on_play and reason is None)
            action.setToolTip(reason or f"Play {action.text()}")

    def _task_idle(self) -> None:
        """Drop a stale "Busy: ..." note; a task's own outcome message (solved, failed, what to try) stays."""
        if self.statusBar().currentMessage().startswith("Busy: "):
            self.statusBar().clearMessage()

    # -- services for tabs and pages ----------------------------------------------------
    def status(self, text: str) -> None:
        self.statusBar().showMessage(text, STATUS_TIMEOUT_MS)

    def guarded(self, action: Callable[[], Any], title: str = "Hlavolamy") -> Any:
        """Run a UI action; a user error becomes a message box, never a traceback.

        ``ValueError`` counts as a user error because plugins report bad
        parameters and designs with it; its traceback is still logged (level
        INFO) so a bug that raises one can be traced.
        """
        try:
            return action()
        except (HlavolamyError, OSError, ValueError) as exc:
            if not isinstance(exc, (HlavolamyError, OSError)):
                log.info("%s: %s", title, exc, exc_info=exc)
            show_error(self, title, exc)
            return None

    def play(self, turns: Sequence[Turn], text: str | None = None) -> bool:
        """Play turns as one undo step; a blocked move is refused with the reason."""
        puzzle = self.document.puzzle
        if puzzle is None or not turns:
            return False
        label = text or f"Move {puzzle.format(turns)}"
        try:
            self.document.play(turns, label)
        except HlavolamyError as exc:
            show_error(self, "Move refused", exc)
            return False
        return True

    def run_task(self, name: str, job: Job, on_success: Callable[[Any], None], *,
                 on_failure: Callable[[str], None] | None = None, on_cancel: Callable[[], None] | None = None) -> bool:
        """Run ``job(progress, cancel)`` in the background; results come back on the GUI thread."""
        if self.tasks.busy:
            self.status(f"Busy: {self.tasks.task.name if self.tasks.task else ''} is still running")
            return False

        def failed(message: str) -> None:
            if on_failure is not None:
                on_failure(message)
            show_error(self, f"{name} failed", message)

        def cancelled() -> None:
            self.status(f"{name} cancelled")
            if on_cancel is not None:
                on_cancel()  # after: its own status message (what happened, what to try) wins

        self.tasks.start(name, job, lambda result: self.guarded(lambda: on_success(result)), failed, cancelled)
        return True

    def set_highlight(self, cells: frozenset[int]) -> None:
        self.play_tab.set_highlight(cells)

    def set_paint_mode(self, target: Any) -> None:
        self.play_tab.set_paint_mode(target)

    def show_override(self, state: Any) -> None:
        self.play_tab.show_override(state)

    # -- file handling --------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask before unsaved work is lost; False when the user cancels."""
        if not self.document.modified:
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(self, "Unsaved changes", self.unsaved_question(),
                                      buttons.Save | buttons.Discard | buttons.Cancel, buttons.Cancel)
        if answer == buttons.Save:
            return bool(self.guarded(self.save))
        return answer == buttons.Discard

    def unsaved_question(self) -> str:
        """What changed — the puzzle, or only its position — and where Save would write it.

        Enter means Cancel (the default button): nothing is overwritten by a reflex.
        """
        document = self.document
        name = document.title()
        where = (f"{name} is read-only, so Save asks for a new file" if document.read_only else
                 f"Save writes to {name}" if document.path is not None else "Save asks for a file name")
        if document.definition_modified:
            return f"The puzzle {name} was changed (its cells, colours, moves or design). {where}. Save the puzzle?"
        return (f"Only the position of {name} changed (moves, a scramble or a solve); the puzzle itself is "
                f"unchanged. {where}, with the position in it. Save the position?")

    def new_puzzle(self) -> None:
        if not self.maybe_save():
            return
        dialog = NewPuzzleDialog(self)
        if dialog.exec():
            geometry, params, empty = dialog.choice()
            if empty:
                self.document.new_design(geometry)
                self.tabs.setCurrentWidget(self.fields_tab)
            else:
                self.document.new(geometry, params)
                self.tabs.setCurrentWidget(self.play_tab)
            self.status(f"New {geometry.title or geometry.name}")

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.document.path.parent) if self.document.path else str(self.settings.value("last_dir", ""))
        path, _ = QFileDialog.getOpenFileName(self, "Open puzzle", start, FILE_FILTER)
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path) -> None:
        """Open without asking (command line, recent files after :meth:`maybe_save`)."""
        self.document.open(path)
        self._remember(Path(path))
        self.tabs.setCurrentWidget(self.play_tab)
        puzzle = self.document.puzzle
        plugin = puzzle.plugin.name if puzzle is not None and puzzle.plugin else None
        missing = f" (plugin {plugin!r} not installed: drawn as discs)" if plugin and self.document.geometry is None else ""
        self.status(f"Opened {path}{missing}")

    def save(self) -> bool:
        if self.document.path is None or self.document.read_only:
            return self.save_as()
        self.document.save(self.document.path)
        self._remember(self.document.path)
        self.status(f"Saved {self.document.path}")
        return True

    def save_as(self) -> bool:
        path = self.document.path
        folder = Path(str(self.settings.value("last_dir", "") or Path.home()))
        if path is not None and self.document.read_only and folder.resolve() == path.resolve().parent:
            folder = Path.home()  # not back into the shipped puzzles
        start = str(path if path is not None and not self.document.read_only else
                    folder / (path.name if path is not None else f"{self.document.title()}.json"))
        path, _ = QFileDialog.getSaveFileName(self, "Save puzzle", start, FILE_FILTER)
        if not path:
            return False
        if not Path(path).suffix:  # "mine" becomes mine.json, or Open's *.json filter would hide it
            path = str(Path(path).with_suffix(".json"))
            if Path(path).exists() and QMessageBox.question(
                self, "Replace file", f"{path} already exists. Replace it?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
            ) != QMessageBox.StandardButton.Yes:  # No is the default: Enter never overwrites
                return False
        self.document.save(path)
        self._remember(Path(path))
        self.status(f"Saved {path}")
        return True

    def _remember(self, path: Path) -> None:
        recent = [str(path.resolve())] + [p for p in self.recent_files() if p != str(path.resolve())]
        self.settings.setValue("recent_files", recent[:MAX_RECENT])
        self.settings.setValue("last_dir", str(path.resolve().parent))
        self._update_recent_menu()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        if isinstance(value, str):  # QSettings returns a lone string for one-element lists on some back ends
            value = [value]
        return [str(v) for v in value or []]

    def _update_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.recent_files():
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _c=False, p=path: self.maybe_save() and self.guarded(lambda: self.open_file(p)))
        self.recent_menu.setEnabled(bool(self.recent_files()))

    def about(self) -> None:
        QMessageBox.about(self, "About Hlavolamy",
                          "<b>Hlavolamy</b><br>Design, play and solve permutation puzzles.<br>"
                          "Any puzzle given by its moves: the program finds its structure and solves it.")

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            self.tasks.shutdown()
            event.accept()
        else:
            event.ignore()

    def current_tab(self) -> QWidget:
        return self.tabs.currentWidget()

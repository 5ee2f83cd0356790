"""File handling, the New dialog, unsaved-work prompts and error dialogs of the main window."""

from __future__ import annotations

import sys

import pytest
from PyQt6.QtWidgets import QMessageBox

from hlavolamy.errors import NotationError
from hlavolamy.gui.dialogs import NewPuzzleDialog
from hlavolamy.gui.errors import install_excepthook

pytestmark = pytest.mark.gui


def choose_in_new_dialog(monkeypatch, geometry: str, values: dict, empty: bool = False) -> None:
    """Make the (modal) New dialog pick ``geometry`` with ``values`` and accept."""

    def exec_(dialog: NewPuzzleDialog) -> int:
        dialog.combo.setCurrentIndex(dialog.combo.findData(geometry))
        for name, value in values.items():
            editor = dialog.form.editors[name]
            editor.setValue(value) if hasattr(editor, "setValue") else editor.setCurrentIndex(editor.findData(value))
        dialog.empty.setChecked(empty)
        return 1

    monkeypatch.setattr(NewPuzzleDialog, "exec", exec_)


def test_new_cube_from_the_dialog(window, monkeypatch):
    choose_in_new_dialog(monkeypatch, "cubes", {"size": 4})
    window.new_puzzle()
    assert window.document.puzzle.n_cells == 96 and window.current_tab() is window.play_tab
    assert "R" in window.play_tab.moves_page.buttons


def test_new_empty_circle_design_opens_the_fields_tab(window, monkeypatch):
    choose_in_new_dialog(monkeypatch, "circles", {}, empty=True)
    window.new_puzzle()
    assert window.document.designer is not None and window.document.puzzle is None
    assert window.current_tab() is window.fields_tab
    assert "Not a puzzle yet" in window.fields_tab.design_status.text()
    assert window.play_tab.canvas.message  # Play says why there is nothing to play


def test_unsaved_work_prompt_can_cancel(window, monkeypatch, tmp_path):
    choose_in_new_dialog(monkeypatch, "cubes", {"size": 2})
    window.new_puzzle()
    window.play_tab.moves_page.buttons["R"].click()
    assert window.document.modified and window.isWindowModified()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Cancel)
    choose_in_new_dialog(monkeypatch, "cubes", {"size": 3})
    window.new_puzzle()
    assert window.document.puzzle.n_cells == 24  # kept: the user cancelled
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    window.new_puzzle()
    assert window.document.puzzle.n_cells == 54


def test_a_bad_file_is_a_message_not_a_traceback(window, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hlavolamy", "version": 1, "cells": 2, "colours": ["A"], "moves": {}}')
    window.guarded(lambda: window.open_file(bad))
    assert len(window.messages) == 1 and "bad.json" in window.messages[0]
    assert window.document.puzzle is None


def test_recent_files_menu_lists_opened_files(window, tmp_path):
    from hlavolamy.plugins.manager import get_plugin_host

    window.document.new(get_plugin_host().geometry("cubes"), {"size": 2})
    path = tmp_path / "two.json"
    window.document.save(path)
    window.open_file(path)
    actions = window.recent_menu.actions()
    assert actions and actions[0].toolTip() == str(path.resolve())


def test_save_keeps_the_unknown_keys_of_the_opened_file(window, tmp_path):
    from hlavolamy.core.fileformat import load_puzzle, save_puzzle
    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.plugins.manager import get_plugin_host

    path = tmp_path / "plain.json"
    extra = {"x-author": "Jana", "x-notes": {"tags": ["plain"]}}
    save_puzzle(path, Puzzle("AABB", {"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]}), extra=extra)
    window.open_file(path)
    window.play_tab.moves_page.buttons["R"].click()
    window.document.save(path)
    saved = load_puzzle(path)
    assert saved.extra == extra and saved.state.perm.tolist() == [0, 2, 3, 1]
    window.document.new(get_plugin_host().geometry("cubes"), {"size": 2})
    assert window.document.extra == {}  # a new document does not inherit the old file's keys


def test_excepthook_shows_user_errors_as_dialogs(window, monkeypatch):
    old = sys.excepthook
    try:
        install_excepthook()
        sys.excepthook(NotationError, NotationError("unknown move 'X'", "R X", 3), None)
    finally:
        sys.excepthook = old
    assert any("column 3" in m for m in window.messages)


def test_export_and_import_through_the_format_menus(window, monkeypatch, tmp_path):
    from PyQt6.QtWidgets import QFileDialog

    from hlavolamy.plugins.manager import get_plugin_host

    window.document.new(get_plugin_host().geometry("cubes"), {"size": 2})
    target = tmp_path / "two.g"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    export_menu = next(a.menu() for a in window.menuBar().actions()[0].menu().actions() if a.text() == "&Export")
    next(a for a in export_menu.actions() if a.text() == "gap…").trigger()
    assert target.exists(), window.messages
    import_menu = next(a.menu() for a in window.menuBar().actions()[0].menu().actions() if a.text() == "&Import")
    next(a for a in import_menu.actions() if a.text() == "gap…").trigger()
    assert window.messages == []
    assert window.document.path is None and len(window.document.puzzle.moves) == 6


def test_closing_with_unsaved_work_asks_and_can_be_refused(window, monkeypatch):
    from hlavolamy.plugins.manager import get_plugin_host

    window.document.new(get_plugin_host().geometry("cubes"), {"size": 2})
    window.play_tab.moves_page.buttons["U"].click()
    asked: list[str] = []

    def refuse(*args, **kwargs):
        asked.append(args[2])
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", refuse)
    window.close()
    assert asked and window.isVisible()

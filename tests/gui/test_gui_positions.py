"""Positions are not definitions: the unsaved-changes prompt tells them apart, and shipped puzzles open read-only."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from conftest import REPO
from PyQt6.QtWidgets import QFileDialog, QMessageBox

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.plugins.manager import get_plugin_host

pytestmark = pytest.mark.gui

RASHKEY = REPO / "puzzles" / "rashkey.json"


def record_questions(monkeypatch, answer=QMessageBox.StandardButton.Cancel) -> list[tuple]:
    """Every unsaved-changes question asked (text, buttons, default button); each answered ``answer``."""
    asked: list[tuple] = []

    def question(parent, title, text, buttons=None, default=None):
        asked.append((text, buttons, default))
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_a_scrambled_shipped_puzzle_asks_about_the_position_and_defaults_to_cancel(window, monkeypatch):
    window.open_file(RASHKEY)
    assert window.document.read_only and "(read-only)" in window.windowTitle()
    window.play_tab.solve_page.scramble_moves.setValue(5)
    window.play_tab.solve_page.scramble()
    assert window.document.modified and not window.document.definition_modified
    asked = record_questions(monkeypatch)
    assert not window.maybe_save()  # Cancel: nothing happens
    text, buttons, default = asked[0]
    assert "Only the position of rashkey.json changed" in text and "read-only" in text
    assert default == QMessageBox.StandardButton.Cancel  # Enter never overwrites
    assert buttons & QMessageBox.StandardButton.Save and buttons & QMessageBox.StandardButton.Discard


def test_save_on_a_shipped_puzzle_asks_for_a_new_file_and_keeps_the_position_there(window, monkeypatch, tmp_path):
    before = RASHKEY.read_bytes()
    window.open_file(RASHKEY)
    window.play_tab.solve_page.scramble_moves.setValue(5)
    window.play_tab.solve_page.scramble()
    target = tmp_path / "my-rashkey.json"
    offered: list[str] = []

    def save_dialog(parent, caption, start, *rest):
        offered.append(start)
        return str(target), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    assert window.save()
    assert RASHKEY.read_bytes() == before
    assert offered and not offered[0].startswith(str(RASHKEY.parent))  # not offered back into puzzles/
    saved = load_puzzle(target)
    assert np.array_equal(saved.state.perm, window.document.state.perm)  # the position, in the file's "position"
    assert saved.puzzle.moves.keys() == window.document.puzzle.moves.keys()
    assert window.document.path == target and not window.document.read_only and not window.document.modified


def test_a_changed_definition_is_named_as_such(window, monkeypatch, tmp_path):
    mine = tmp_path / "mine.json"
    shutil.copy(RASHKEY, mine)
    window.open_file(mine)
    assert not window.document.read_only
    window.play_tab.moves_page.buttons[next(iter(window.document.puzzle.moves))].click()
    asked = record_questions(monkeypatch)
    window.maybe_save()
    assert "Only the position of mine.json changed" in asked[-1][0] and "Save writes to mine.json" in asked[-1][0]

    puzzle = window.document.puzzle
    recoloured = type(puzzle)(colours=["X", *puzzle.colours[1:]], moves=puzzle.moves, name=puzzle.name)
    window.document.replace_puzzle(recoloured, "Paint")
    assert window.document.definition_modified
    window.maybe_save()
    assert asked[-1][0].startswith("The puzzle mine.json was changed")
    assert asked[-1][2] == QMessageBox.StandardButton.Cancel

    window.document.save(mine)  # after a save, only what changed since then counts
    window.play_tab.moves_page.buttons[next(iter(puzzle.moves))].click()
    assert window.document.modified and not window.document.definition_modified
    window.undo_action.trigger()
    assert not window.document.modified


def test_the_empty_designer_says_not_a_puzzle_yet_once(qtbot, window):
    from test_gui_design import gesture

    window.document.new_design(get_plugin_host().geometry("circles"))
    window.tabs.setCurrentWidget(window.fields_tab)
    gesture(qtbot, window.fields_tab.design, "turn", (-3, 0), (1, 0))  # one circle: not a puzzle yet
    assert window.document.puzzle is None
    assert "Not a puzzle yet" in window.fields_tab.design_status.text()
    assert "Not a puzzle yet" not in window.statusBar().currentMessage()


def test_replacing_a_file_by_save_as_defaults_to_no(window, monkeypatch, tmp_path):
    (tmp_path / "mine.json").write_text("keep me")
    window.open_file(RASHKEY)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "mine"), ""))
    asked = record_questions(monkeypatch, QMessageBox.StandardButton.No)
    assert not window.save_as()
    assert "already exists" in asked[0][0] and asked[0][2] == QMessageBox.StandardButton.No
    assert (tmp_path / "mine.json").read_text() == "keep me"

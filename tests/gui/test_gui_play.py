"""Playing in the real window: move buttons, shortcuts, undo/redo, sequences, files, screenshots."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import click_cell, cube, point_of_cell
from PyQt6.QtCore import QPoint, Qt

from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.gui.fallback_view import DiscView

pytestmark = pytest.mark.gui

PLAIN = {"format": "hlavolamy", "version": 1, "cells": 4, "colours": ["A", "A", "B", "B"],
         "moves": {"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]}}


@pytest.fixture
def plain_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(PLAIN))
    return path


def test_plain_file_plays_with_the_disc_view(qtbot, window, plain_file):
    window.open_file(plain_file)
    play = window.play_tab
    assert isinstance(play.canvas.view, DiscView)
    assert set(play.moves_page.buttons) == {"L", "R"}
    qtbot.mouseClick(play.moves_page.buttons["R"], Qt.MouseButton.LeftButton)
    assert window.document.state.perm.tolist() == [0, 2, 3, 1]
    qtbot.mouseClick(play.moves_page.buttons["R"], Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier)
    assert window.document.state.is_solved()
    assert [t for t in window.document.history] == [Turn("R", 1), Turn("R", -1)]
    assert window.document.modified


def test_cube_moves_undo_redo(qtbot, window):
    cube(window)
    buttons = window.play_tab.moves_page.buttons
    qtbot.mouseClick(buttons["R"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(buttons["U"], Qt.MouseButton.LeftButton)
    puzzle = window.document.puzzle
    after_ru = State.solved(puzzle).apply("R U")
    assert np.array_equal(window.document.state.perm, after_ru.perm)
    assert window.play_tab.moves_page.history.count() == 2
    window.undo_action.trigger()
    assert np.array_equal(window.document.state.perm, State.solved(puzzle).apply("R").perm)
    assert window.play_tab.moves_page.history.count() == 1
    window.undo_action.trigger()
    assert window.document.state.is_solved() and not window.document.modified
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert np.array_equal(window.document.state.perm, after_ru.perm)
    window.undo_dock.widget().setCurrentIndex(window.undo_dock.widget().model().index(1, 0))  # the history panel
    assert np.array_equal(window.document.state.perm, State.solved(puzzle).apply("R").perm)


def test_keyboard_shortcuts_play_moves_shift_inverts(qtbot, window):
    cube(window)
    qtbot.keyClick(window, Qt.Key.Key_F)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ShiftModifier)
    assert window.document.history == (Turn("F", 1), Turn("F", -1))
    assert window.document.state.is_solved()


def test_right_click_on_a_move_button_plays_the_inverse(qtbot, window):
    cube(window)
    button = window.play_tab.moves_page.buttons["L"]
    button.contextMenuEvent(_context_event(button))
    assert window.document.history == (Turn("L", -1),)


def _context_event(widget):
    from PyQt6.QtCore import QPoint
    from PyQt6.QtGui import QContextMenuEvent

    return QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(2, 2))


def test_execute_sequence_and_parse_error_with_column(qtbot, window):
    cube(window)
    page = window.play_tab.moves_page
    page.sequence.setText("(R U R' U')6")
    qtbot.mouseClick(page.execute_button, Qt.MouseButton.LeftButton)
    assert window.document.state.is_solved() and len(window.document.history) == 24
    window.undo_action.trigger()  # the whole sequence is one undo step
    assert window.document.history == ()
    page.sequence.setText("R U X")
    qtbot.mouseClick(page.execute_button, Qt.MouseButton.LeftButton)
    assert "column 5" in page.sequence_error.text()
    assert window.document.history == ()


def test_save_and_reopen_keeps_the_position(qtbot, window, tmp_path):
    cube(window)
    window.play([Turn("R", 1), Turn("F", 2)])
    path = tmp_path / "saved.json"
    window.document.save(path)
    assert not window.document.modified and window.windowTitle().startswith("saved.json")
    window.document.reset(None)
    window.open_file(path)
    expected = State.solved(window.document.puzzle).apply("R F2")
    assert np.array_equal(window.document.state.perm, expected.perm)
    assert window.recent_files()[0] == str(path.resolve())


def test_cell_numbers_and_solved_view_toggle(qtbot, window, plain_file):
    window.open_file(plain_file)
    play = window.play_tab
    play.show_numbers.setChecked(True)
    play.show_solved.setChecked(True)
    assert play.canvas.show_numbers and play.solved_canvas.isVisible()
    assert play.solved_canvas.state.is_solved()


def test_blocked_move_is_disabled_with_the_reason(qtbot, window, plain_file):
    window.open_file(plain_file)
    tab = window.blockings_tab
    window.tabs.setCurrentWidget(tab)
    click_cell(qtbot, tab.canvas, 0)
    click_cell(qtbot, tab.canvas, 2)
    assert tab.selection == {0, 2}
    tab.fuse()
    assert window.document.puzzle.blockings == (frozenset({0, 2}),)
    buttons = window.play_tab.moves_page.buttons
    assert not buttons["L"].isEnabled() and "fused" in buttons["L"].toolTip()
    assert not buttons["R"].isEnabled()
    window.undo_action.trigger()
    assert window.document.puzzle.blockings == ()
    assert window.play_tab.moves_page.buttons["L"].isEnabled()  # rebuilt for the unfused puzzle


def test_overlapping_blocking_is_refused(qtbot, window, plain_file):
    window.open_file(plain_file)
    tab = window.blockings_tab
    tab.selection = {0, 1}
    tab.fuse()
    tab.selection = {1, 2}
    window.guarded(tab.fuse)
    assert any("already fused" in m for m in window.messages)
    assert len(window.document.puzzle.blockings) == 1


def test_colouring_paints_a_cell_and_undo_restores(qtbot, window, plain_file):
    window.open_file(plain_file)
    tab = window.colouring_tab
    window.tabs.setCurrentWidget(tab)
    tab.palette_list.setCurrentRow(list(tab.palette).index("B"))
    click_cell(qtbot, tab.canvas, 0)
    assert window.document.puzzle.colours == ("B", "A", "B", "B")
    tab.fill_mode.setChecked(True)
    tab.palette_list.setCurrentRow(list(tab.palette).index("A"))
    click_cell(qtbot, tab.canvas, 3)
    assert window.document.puzzle.colours == ("A", "A", "A", "A")
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.document.puzzle.colours == ("A", "A", "B", "B")


def test_moves_tab_adds_a_move_from_cycles(qtbot, window, plain_file):
    window.open_file(plain_file)
    tab = window.moves_tab
    assert window.tabs.isTabVisible(window.tabs.indexOf(tab))
    tab.new_name.setText("X")
    tab.new_cycles.setText("(0 3)(1 2)")
    tab.add_move()
    assert window.document.puzzle.move("X").tolist() == [3, 2, 1, 0]
    assert "X" in window.play_tab.moves_page.buttons
    tab.new_name.setText("Y")
    tab.new_cycles.setText("(0 1)(1 2)")
    window.guarded(tab.add_move)
    assert any("appears twice" in m for m in window.messages)


def test_moves_tab_is_hidden_for_cubes(qtbot, window):
    cube(window)
    assert not window.tabs.isTabVisible(window.tabs.indexOf(window.moves_tab))


def test_cube_size_rebuild_from_the_fields_tab(qtbot, window):
    cube(window)
    form = window.fields_tab.form
    form.editors["size"].setValue(2)
    qtbot.mouseClick(window.fields_tab.rebuild_button, Qt.MouseButton.LeftButton)
    assert window.document.puzzle.n_cells == 24
    window.undo_action.trigger()
    assert window.document.puzzle.n_cells == 54


def test_screenshot_command_writes_an_image(tmp_path, plain_file, qapp):
    from hlavolamy.cli import main

    out = tmp_path / "shot.png"
    assert main(["gui", str(plain_file), "--screenshot", str(out), "--numbers"]) == 0
    from PyQt6.QtGui import QImage

    image = QImage(str(out))
    assert image.width() == 1200 and image.height() == 800


def test_screenshot_of_a_bad_file_fails_with_one_line(tmp_path, capsys, qapp):
    from hlavolamy.cli import main

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hlavolamy"}')
    assert main(["gui", str(bad), "--screenshot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hlavolamy gui: error:") and "bad.json" in err and "\n" not in err
    assert not (tmp_path / "x.png").exists()


def test_disc_view_places_cells_at_their_cell_data_points(qapp):
    from PyQt6.QtCore import QRectF
    from PyQt6.QtGui import QImage, QPainter

    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.plugins.hookspecs import DrawOptions

    puzzle = Puzzle(["A", "B", "C"], {"X": [1, 2, 0]}, cell_data=[{"x": 0, "y": 0}, {"x": 10, "y": 0}, {"x": 5, "y": 8}])
    view = DiscView(puzzle)
    image = QImage(300, 300, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    view.paint(painter, QRectF(0, 0, 300, 300), State.solved(puzzle), DrawOptions(show_numbers=True))
    painter.end()
    left, right, bottom = (view.cell_at(x, y) for x, y in ((75, 110), (225, 110), (150, 230)))
    assert (left, right, bottom) == (0, 1, 2)
    assert view.cell_at(150, 5) is None


def test_add_colour_and_rename_a_move_are_undoable(qtbot, window, plain_file, monkeypatch):
    from PyQt6.QtGui import QColor
    from PyQt6.QtWidgets import QColorDialog, QInputDialog

    window.open_file(plain_file)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("C", True))
    monkeypatch.setattr(QColorDialog, "getColor", lambda *a, **k: QColor("#123456"))
    tab = window.colouring_tab
    tab.add_colour()
    assert window.document.puzzle.palette["C"] == "#123456" and tab.current_label() == "C"
    click_cell(qtbot, tab.canvas, 1)
    assert window.document.puzzle.colours == ("A", "C", "B", "B")
    window.undo_action.trigger()
    assert window.document.puzzle.colours == ("A", "A", "B", "B")

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Swap", True))
    moves = window.moves_tab
    moves.tree.setCurrentItem(moves.tree.topLevelItem(0))
    assert "(0 1)" in moves.detail.toPlainText()
    moves.rename()
    assert list(window.document.puzzle.moves) == ["Swap", "R"]
    window.undo_action.trigger()
    assert list(window.document.puzzle.moves) == ["L", "R"]


def test_clicks_on_the_cube_drawing_turn_faces_and_drags_turn_the_view(qtbot, window):
    cube(window)
    canvas = window.play_tab.canvas
    centre = point_of_cell(canvas, 4).toPoint()  # the U face's centre facelet
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=centre)
    assert [t.move for t in window.document.history] == ["U"]
    qtbot.mouseClick(canvas, Qt.MouseButton.RightButton, pos=point_of_cell(canvas, 4).toPoint())
    assert window.document.state.is_solved() and len(window.document.history) == 2
    start = point_of_cell(canvas, 4).toPoint()
    before = canvas.grab().toImage()
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(canvas, start + QPoint(12 * step, 0))
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=start + QPoint(60, 0))
    assert len(window.document.history) == 2  # a drag turns the picture, not the puzzle
    assert canvas.grab().toImage() != before

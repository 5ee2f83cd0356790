"""The whole path through the app in a real X window (run by test_real_window.py inside Xvfb, not collected alone).

Design a circle puzzle from an empty design, save, close, reopen, turn; scramble,
solve and step through the answer; New → Polyhedron megaminx, scramble, solve;
import a Santa globe and a twsearch file; undo and redo at each stage. Then a
jumbling puzzle: a turn that blocks two disks, and a refused click on one. The
window is grabbed from the X server into the user guide's pictures.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, click_cell, wait_idle
from PyQt6.QtCore import QSettings, Qt
from PyQt6.QtGui import QGuiApplication, QImage
from PyQt6.QtWidgets import QApplication, QFileDialog, QMessageBox
from test_gui_design import draw_two_disks
from test_gui_window import choose_in_new_dialog

from hlavolamy.gui.canvas import StateCanvas
from hlavolamy.gui.interchange import OptionsDialog
from hlavolamy.gui.window import MainWindow

pytestmark = pytest.mark.gui

SHOTS = Path(os.environ.get("HLAVOLAMY_SHOTS", REPO / "docs" / "images"))
"""Where the pictures go: the user guide's folder unless the caller says otherwise."""
DATA = REPO / "tests" / "data"


def shoot(qtbot, window: MainWindow, name: str, *, on_top: bool = False) -> None:
    """Grab the mapped window from the X server (what a user sees), after any turn's fade has ended.

    ``on_top``: the screen where the window is, with the dialogs that lie over it (its own grab leaves them out).
    """
    for canvas in window.findChildren(StateCanvas):
        canvas.finish_animation()
    window.repaint()
    QApplication.processEvents()
    if on_top:
        where = window.geometry()
        pixmap = window.screen().grabWindow(0, where.x(), where.y(), where.width(), where.height())
    else:
        pixmap = window.screen().grabWindow(int(window.winId()))
    assert pixmap.width() >= 1000 and pixmap.height() >= 700, "the X server gave no picture of the window"
    image = pixmap.toImage()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37) for y in range(0, image.height(), 41)}
    assert len(colours) > 8, f"{name}: the grabbed window is blank"
    target = SHOTS / name
    if target.exists() and changed_pixels(QImage(str(target)), image) <= SAME_PICTURE:
        return  # only a timing in the text differs: the guide's picture stays, and the checkout stays clean
    assert pixmap.save(str(target)), f"cannot write {target}"


SAME_PICTURE = 0.002
"""At most this share of pixels changed is still the same picture (a solve's "0.86 s" becoming "1.08 s")."""


def changed_pixels(old: QImage, new: QImage) -> float:
    """The share of pixels that differ between two pictures (1.0 when their sizes differ)."""
    if old.size() != new.size():
        return 1.0
    arrays = []
    for image in (old, new):
        image = image.convertToFormat(QImage.Format.Format_RGB32)
        bits = image.constBits()
        bits.setsize(image.sizeInBytes())
        arrays.append(np.frombuffer(bits, np.uint32).copy())
    return float(np.count_nonzero(arrays[0] != arrays[1])) / arrays[0].size


def importing(monkeypatch, path: Path, **options: object) -> None:
    """File → Import's file dialog picks ``path`` and its options dialog answers ``options``."""
    shown = path.relative_to(REPO) if path.is_relative_to(REPO) else path  # the status bar's words in the guide
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(shown), ""))
    monkeypatch.setattr(OptionsDialog, "exec", lambda dialog: 1)
    monkeypatch.setattr(OptionsDialog, "values", lambda dialog: dict(options))


def import_action(window: MainWindow, name: str):
    file_menu = window.menuBar().actions()[0].menu()
    menu = next(a.menu() for a in file_menu.actions() if a.text() == "&Import")
    return next(a for a in menu.actions() if a.text() == f"{name}…")


def scramble_and_solve(qtbot, window: MainWindow, moves: int, seed: int) -> list:
    """Scramble with ``moves`` turns, solve with the Solve button, wait for the answer; its turns."""
    page = window.play_tab.solve_page
    window.play_tab.side.setCurrentWidget(page)
    page.scramble_moves.setValue(moves)
    page.seed.setValue(seed)
    qtbot.mouseClick(page.scramble_button, Qt.MouseButton.LeftButton)
    assert not window.document.state.is_solved()
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.player is not None, getattr(window, "messages", [])
    return list(page.player.turns)


def test_the_whole_path_in_a_real_window(qtbot, window, monkeypatch, tmp_path):
    assert QGuiApplication.platformName() == "xcb", "this scenario is for a real X server"
    window.move(0, 0)
    window.resize(1200, 800)
    qtbot.waitExposed(window)

    # 1. A circle puzzle from an empty design: two circles, their angles, Complete cuts, colours.
    choose_in_new_dialog(monkeypatch, "circles", {}, empty=True)
    window.new_puzzle()
    assert window.current_tab() is window.fields_tab and window.document.puzzle is None
    draw_two_disks(qtbot, window)
    puzzle = window.document.puzzle
    assert puzzle is not None, window.document.snap.design_error
    assert "Not a puzzle yet" not in window.statusBar().currentMessage()  # no stale reason once it is one
    window.undo_action.trigger()  # the last paint undone: not a puzzle; redone: the same puzzle again
    assert window.document.puzzle is None
    window.redo_action.trigger()
    assert window.document.puzzle is puzzle
    shoot(qtbot, window, "x11-design.png")

    # 2. Save, close, reopen, turn.
    path = tmp_path / "two-disks.json"
    window.document.save(path)
    assert window.close() and not window.isVisible()
    again = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    again.messages = window.messages  # type: ignore[attr-defined]
    again.play_tab.solve_page.time_limit.setValue(0)
    qtbot.addWidget(again)
    again.move(0, 0)
    again.resize(1200, 800)
    again.show()
    qtbot.waitExposed(again)
    again.open_file(path)
    assert again.document.puzzle.colours == puzzle.colours and not again.document.modified
    canvas = again.play_tab.canvas
    click_cell(qtbot, canvas, 0)
    assert not again.document.state.is_solved() and len(again.document.history) == 1
    assert again.document.modified and not again.document.definition_modified  # a turn changes the position only
    again.undo_action.trigger()
    assert again.document.state.is_solved()
    again.redo_action.trigger()
    assert len(again.document.history) == 1

    # 3. Scramble, solve, step through the answer with the playback buttons.
    page = again.play_tab.solve_page
    turns = scramble_and_solve(qtbot, again, 8, 3)  # (L R)^4 = L R: two turns to step through
    assert len(turns) >= 2
    scrambled = again.document.state
    while page.forward_button.isEnabled():
        qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton)
    assert again.document.state.is_colour_solved() and page.player.index == len(turns)
    qtbot.mouseClick(page.back_button, Qt.MouseButton.LeftButton)
    one_back = scrambled.apply(turns[:-1])
    assert page.player.index == len(turns) - 1 and np.array_equal(again.document.state.perm, one_back.perm)
    shoot(qtbot, again, "x11-solve.png")
    qtbot.mouseClick(page.first_button, Qt.MouseButton.LeftButton)
    assert page.player.index == 0 and np.array_equal(again.document.state.perm, scrambled.perm)
    again.undo_action.trigger()  # undo "back to the start": one turn before the end again
    assert np.array_equal(again.document.state.perm, one_back.perm)
    again.redo_action.trigger()
    assert np.array_equal(again.document.state.perm, scrambled.perm)

    # 4. New → Polyhedron, the megaminx preset; scramble a little and solve by search.
    choose_in_new_dialog(monkeypatch, "polyhedra", {"preset": "megaminx"})
    again.new_puzzle()
    megaminx = again.document.puzzle
    assert megaminx.n_cells == 132 and len(megaminx.moves) == 12
    page.strategy.setCurrentText("search")
    turns = scramble_and_solve(qtbot, again, 3, 5)
    assert 0 < len(turns) <= 6
    page.apply_all()
    assert again.document.state.is_solved()
    shoot(qtbot, again, "x11-megaminx.png")
    again.undo_action.trigger()  # back to the scrambled position, and forward again
    assert not again.document.state.is_solved()
    again.redo_action.trigger()
    assert again.document.state.is_solved()

    # 5. Import a Santa 2023 globe and a twsearch puzzle.
    importing(monkeypatch, DATA / "santa" / "puzzles.csv", id="338", info=str(DATA / "santa" / "puzzle_info.csv"))
    import_action(again, "santa").trigger()
    globe = again.document.puzzle
    assert again.messages == [] and globe.n_cells == 32 and again.document.path is None
    assert not again.document.state.is_solved()  # the case's own scrambled position
    shoot(qtbot, again, "x11-globe.png")
    start = again.document.state
    again.play([globe.parse("r0")[0]])
    again.undo_action.trigger()
    assert np.array_equal(again.document.state.perm, start.perm)
    again.redo_action.trigger()
    assert not np.array_equal(again.document.state.perm, start.perm)

    importing(monkeypatch, DATA / "twsearch" / "skewb.tws", rotations=False)
    import_action(again, "ksolve").trigger()
    skewb = again.document.puzzle
    assert again.messages == [] and skewb is not globe and skewb.n_cells == 30
    first = next(iter(skewb.moves))
    again.play(skewb.parse(f"{first} {first}"))
    again.undo_action.trigger()
    assert again.document.state.is_solved()
    again.redo_action.trigger()
    assert not again.document.state.is_solved()
    shoot(qtbot, again, "x11-twsearch.png")
    again.document.undo_stack.setClean()


def test_a_jumbling_puzzle_refuses_a_blocked_disk_in_a_real_window(qtbot, window):
    """four-disks-45: A turns by 45°, so the pieces it carried straddle B's and C's rims; a click on B is refused."""
    assert QGuiApplication.platformName() == "xcb", "this scenario is for a real X server"
    window.move(0, 0)
    window.resize(1200, 800)
    qtbot.waitExposed(window)
    window.open_file((REPO / "puzzles" / "four-disks-45.json").relative_to(REPO))  # the status bar's words in the guide
    buttons = window.play_tab.moves_page.buttons
    assert all(button.isEnabled() for button in buttons.values())
    qtbot.mouseClick(buttons["A"], Qt.MouseButton.LeftButton)
    assert len(window.document.history) == 1
    blocked = sorted(move for move, button in buttons.items() if not button.isEnabled())
    assert blocked == ["B", "C"] and "B is blocked" in buttons["B"].toolTip()

    canvas = window.play_tab.canvas
    canvas.grab()  # paints, so the view knows its frame
    qtbot.mouseClick(canvas, Qt.MouseButton.LeftButton, pos=canvas.view.frame.to_widget(9, 0).toPoint())  # B only
    assert len(window.document.history) == 1, "the blocked turn was played"
    refusal = window.messages[-1]
    assert refusal.startswith("Move refused: ") and "B" in refusal, window.messages
    # the refusal's message box (recorded by the fixture: a modal one would wait for a click) as the user sees it
    title, _, text = refusal.partition(": ")
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, window)
    box.setModal(False)
    box.show()
    box.move(window.x() + window.width() - box.width() - 40, window.y() + window.height() - box.height() - 80)
    qtbot.waitExposed(box)
    shoot(qtbot, window, "x11-jumble-blocked.png", on_top=True)
    box.close()
    window.undo_action.trigger()  # A back home: nothing straddles, every disk turns again
    assert all(button.isEnabled() for button in buttons.values())

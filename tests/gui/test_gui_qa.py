"""Regressions found by driving the real window as a user would (tool bars, progress, keys, labels)."""

from __future__ import annotations

import threading

import pytest
from conftest import PATIENCE_MS, REPO, cube, wait_idle
from PyQt6.QtCore import QPoint, Qt
from test_gui_design import gesture

from hlavolamy.core.state import State
from hlavolamy.gui.workers import PROGRESS_STEPS, TaskBar
from hlavolamy.plugins.manager import get_plugin_host

pytestmark = pytest.mark.gui


def two_quarter_turn_disks(qtbot, window) -> None:
    """The user guide's start: two radius-4 turning disks one radius apart, quarter turns (no cuts yet)."""
    window.document.new_design(get_plugin_host().geometry("circles"))
    window.tabs.setCurrentWidget(window.fields_tab)
    gesture(qtbot, window.fields_tab.design, "turn", (0, 0), (4, 0))
    gesture(qtbot, window.fields_tab.design, "turn", (4, 0), (8, 0))
    moves = window.moves_tab
    window.tabs.setCurrentWidget(moves)
    for inside in ((-2, 0), (6, 0)):
        gesture(qtbot, moves.design, "pick-circle", inside)
        moves.steps.setValue(4)
        moves.apply_circle_move()


def test_complete_cuts_acts_on_its_button_without_a_click_on_the_drawing(qtbot, window):
    two_quarter_turn_disks(qtbot, window)
    fields = window.fields_tab.design
    window.tabs.setCurrentWidget(window.fields_tab)
    fields.select_tool("turn")
    steps_before = window.document.undo_stack.count()
    qtbot.mouseClick(fields.toolbar.widgetForAction(fields.tool_actions["complete"]), Qt.MouseButton.LeftButton)
    circles = window.document.designer.data()["circles"]
    assert sum(c["kind"] == "cut" for c in circles) > 0
    assert window.document.undo_stack.count() == steps_before + 1  # one undo step
    assert fields.canvas.tool == "turn" and fields.tool_actions["turn"].isChecked()  # the mode is kept
    window.undo_action.trigger()
    assert all(c["kind"] == "turn" for c in window.document.designer.data()["circles"])


def test_complete_cuts_without_angles_explains_why(qtbot, window, monkeypatch):
    shown: list[str] = []
    monkeypatch.setattr("hlavolamy.gui.tabs.design_panel.show_error", lambda parent, title, message: shown.append(message))
    window.document.new_design(get_plugin_host().geometry("circles"))
    fields = window.fields_tab.design
    gesture(qtbot, fields, "turn", (0, 0), (4, 0))
    fields.tool_actions["complete"].trigger()
    assert shown and "turn angle" in shown[0]


def test_moves_tab_starts_on_pick_circle_so_a_click_does_not_change_an_angle(qtbot, window):
    window.document.new_design(get_plugin_host().geometry("circles"))
    gesture(qtbot, window.fields_tab.design, "turn", (0, 0), (4, 0))
    moves = window.moves_tab
    window.tabs.setCurrentWidget(moves)
    assert moves.design.canvas.tool == "pick-circle"
    moves.design.canvas.grab()
    point = moves.design.canvas.designer.frame.to_widget(1, 0).toPoint()
    qtbot.mouseClick(moves.design.canvas, Qt.MouseButton.LeftButton, pos=point)
    assert moves.circle_id == "c1" and moves.circle_label.text() == "Circle c1: move A"
    assert "steps" not in window.document.designer.data()["circles"][0]


def test_progress_bar_is_busy_until_the_job_reports(qtbot):
    bar = TaskBar()
    qtbot.addWidget(bar)
    go_on = threading.Event()
    finish = threading.Event()

    def job(progress, cancel):
        go_on.wait(PATIENCE_MS / 1000)
        progress(0.5, "half")
        finish.wait(PATIENCE_MS / 1000)  # the job ends only once the test saw the half-full bar
        return 1

    bar.start("Working", job, lambda result: None, lambda message: None)
    assert bar.bar.maximum() == 0  # Qt's busy indicator, not an empty bar
    go_on.set()
    qtbot.waitUntil(lambda: bar.bar.maximum() == PROGRESS_STEPS and bar.bar.value() == PROGRESS_STEPS // 2,
                    timeout=PATIENCE_MS)
    finish.set()
    qtbot.waitUntil(lambda: not bar.busy, timeout=PATIENCE_MS)


def test_keys_of_blocked_moves_are_disabled_with_the_reason(qtbot, window):
    window.open_file(REPO / "puzzles" / "bandaged3.json")
    window.play([window.document.puzzle.parse("R")[0]])
    actions = {a.text(): a for a in window.move_actions}
    for text, button in (("L", "L"), ("F'", "F")):
        assert not actions[text].isEnabled()
        assert "blocked" in actions[text].toolTip()
        assert not window.play_tab.moves_page.buttons[button].isEnabled()
    assert actions["R"].isEnabled() and actions["U'"].isEnabled()
    window.undo_action.trigger()  # solved again: F is legal, L still not
    assert actions["F'"].isEnabled() and not actions["L"].isEnabled()
    window.tabs.setCurrentWidget(window.fields_tab)
    assert not any(a.isEnabled() for a in window.move_actions)  # keys belong to the Play tab


def test_history_counts_are_singular_for_one(qtbot, window):
    cube(window)
    window.play_tab.moves_page.buttons["R"].click()
    assert window.play_tab.moves_page.history_label.text() == "1 turn, 1 move"
    window.play_tab.moves_page.buttons["U"].click()
    assert window.play_tab.moves_page.history_label.text().startswith("2 turns, 2 moves")


def test_solution_info_shows_the_step(qtbot, window):
    cube(window)
    window.document.set_state(State.solved(window.document.puzzle).apply("R U"), "Set position")
    page = window.play_tab.solve_page
    page.solve()
    wait_idle(qtbot, window)
    total = len(page.player.turns)
    assert page.solution_info.text().startswith(f"Turn 0 of {total}")
    qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert page.solution_info.text().startswith(f"Turn 1 of {total}") and "verified" in page.solution_info.text()


def test_colouring_hides_the_cell_fill_modes_for_a_designer(qtbot, window):
    window.document.new_design(get_plugin_host().geometry("circles"))
    colouring = window.colouring_tab
    assert colouring.paint_mode.isHidden() and colouring.fill_mode.isHidden()  # the designer's tools paint
    cube(window)
    assert not colouring.paint_mode.isHidden() and not colouring.fill_mode.isHidden()


def test_palette_swatches_have_a_rim(qtbot, window):
    window.document.new_design(get_plugin_host().geometry("circles"))
    colouring = window.colouring_tab
    row = list(colouring.palette).index("white")
    image = colouring.palette_list.item(row).icon().pixmap(18, 18).toImage()
    assert image.pixelColor(0, 0).name() != colouring.palette["white"]
    assert image.pixelColor(9, 9).name() == colouring.palette["white"]


def test_painting_a_region_keeps_the_drawing_where_it_is(qtbot, window):
    """The first paint used to re-fit the view, so the next click landed on another region."""
    two_quarter_turn_disks(qtbot, window)
    window.fields_tab.design.select_tool("complete")
    colouring = window.colouring_tab
    window.tabs.setCurrentWidget(colouring)
    designer = window.document.designer
    colouring.design.canvas.grab()
    before = designer.frame.to_widget(0, 0)
    gesture(qtbot, colouring.design, "paint", (-2, 0.5))
    colouring.design.canvas.grab()
    assert designer.frame.to_widget(0, 0) == before
    assert len(designer.data()["colours"]) == 1


def test_a_jam_is_told_briefly_without_region_ids(qtbot, window):
    two_quarter_turn_disks(qtbot, window)
    window.fields_tab.design.select_tool("complete")
    gesture(qtbot, window.colouring_tab.design, "paint", (-2, 0.5))
    error = window.document.snap.design_error
    assert error.startswith("move A (circle c1) jams at 90 degrees: ") and "outlined in red" in error
    assert "+c1" not in error and len(error) < 250


def test_save_as_adds_the_json_suffix_and_reopens(qtbot, window, tmp_path, monkeypatch):
    from PyQt6.QtWidgets import QFileDialog

    cube(window)
    window.play_tab.moves_page.buttons["R"].click()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "mine"), ""))
    assert window.save_as()
    assert (tmp_path / "mine.json").exists() and not (tmp_path / "mine").exists()
    assert window.document.path == tmp_path / "mine.json" and not window.document.modified
    window.open_file(tmp_path / "mine.json")
    assert window.document.state.perm.tolist() == State.solved(window.document.puzzle).apply("R").perm.tolist()


def test_a_long_history_lists_only_its_last_turns(qtbot, window):
    from hlavolamy.gui.play.moves import MAX_HISTORY_ROWS

    cube(window)
    page = window.play_tab.moves_page
    page.sequence.setText(f"(R U){MAX_HISTORY_ROWS}")
    page.execute()
    total = 2 * MAX_HISTORY_ROWS
    assert page.history.count() == MAX_HISTORY_ROWS + 1
    assert page.history.item(0).text() == f"… {total - MAX_HISTORY_ROWS} earlier turns"
    assert page.history.item(page.history.count() - 1).text() == f"{total}. U"
    assert page.history_label.text().startswith(f"{total} turns")


def test_a_long_scramble_runs_in_the_background(qtbot, window):
    from hlavolamy.core.scramble import random_scramble
    from hlavolamy.gui.play.solve import SYNC_SCRAMBLE_MOVES

    cube(window)
    page = window.play_tab.solve_page
    page.scramble_moves.setValue(SYNC_SCRAMBLE_MOVES + 1)
    page.seed.setValue(7)
    page.scramble()
    assert window.tasks.busy
    wait_idle(qtbot, window)
    expected = State.solved(window.document.puzzle).apply(random_scramble(window.document.puzzle, SYNC_SCRAMBLE_MOVES + 1, 7))
    assert window.document.state.perm.tolist() == expected.perm.tolist()
    window.undo_action.trigger()
    assert window.document.state.is_solved()


def test_cell_picking_canvases_do_not_highlight_the_circle_a_click_would_turn(qtbot, window):
    window.open_file(REPO / "puzzles" / "rashkey.json")
    for tab, canvas, picks_cells in ((window.blockings_tab, window.blockings_tab.canvas, True),
                                     (window.play_tab, window.play_tab.canvas, False)):
        window.tabs.setCurrentWidget(tab)
        qtbot.mouseMove(canvas, QPoint(canvas.width() // 3, canvas.height() // 2))
        qtbot.waitUntil(lambda: canvas._hover is not None, timeout=PATIENCE_MS)
        assert (canvas.options().hover is None) == picks_cells


def test_dragging_out_a_circle_shows_its_centre_and_radius(qtbot, window):
    window.document.new_design(get_plugin_host().geometry("circles"))
    fields = window.fields_tab.design
    fields.select_tool("turn")
    fields.canvas.grab()
    frame = window.document.designer.frame
    qtbot.mousePress(fields.canvas, Qt.MouseButton.LeftButton, pos=frame.to_widget(-2, 0).toPoint())
    qtbot.mouseMove(fields.canvas, frame.to_widget(2, 0).toPoint())
    assert window.statusBar().currentMessage() == "A: centre (-2, 0), radius 4"
    qtbot.mouseRelease(fields.canvas, Qt.MouseButton.LeftButton, pos=frame.to_widget(2, 0).toPoint())
    assert window.document.designer.data()["circles"][0]["r"] == 4


def test_choosing_colours_is_no_hidden_edit_and_colour_edits_undo(qtbot, window):
    from PyQt6.QtGui import QColor

    window.open_file(REPO / "puzzles" / "rashkey.json")
    document, colouring = window.document, window.colouring_tab
    saved = document.designer.data()
    for row in range(colouring.palette_list.count()):  # picking a colour to paint with changes nothing
        colouring.palette_list.setCurrentRow(row)
    assert document.designer.data() == saved and not document.modified

    colouring.set_colour("red", QColor("#ff0000"))
    assert document.puzzle.palette["red"] == "#ff0000"
    window.undo_action.trigger()
    assert document.designer.data() == saved and colouring.palette["red"] == saved["palette"]["red"]

    colouring.set_colour("mint", QColor("#99ffcc"))  # a new label: offered, not yet in the design
    assert document.designer.data() == saved and not document.modified
    window.tabs.setCurrentWidget(colouring)
    gesture(qtbot, colouring.design, "paint", (-3.5, 0.2))
    assert document.designer.data()["palette"]["mint"] == "#99ffcc"
    assert "mint" in document.puzzle.colours
    window.undo_action.trigger()
    assert document.designer.data() == saved


def test_bad_plugin_data_in_a_file_names_the_file(qtbot, window, tmp_path):
    import json

    data = json.loads((REPO / "puzzles" / "rashkey.json").read_text())
    data["plugin"]["data"]["circles"][0]["r"] = "big"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    window.guarded(lambda: window.open_file(bad), "Cannot open the puzzle")
    assert len(window.messages) == 1
    assert str(bad) in window.messages[0] and "/plugin/data" in window.messages[0] and "'big'" in window.messages[0]
    assert window.document.puzzle is None  # nothing half-opened


def test_bandaged_cube_draws_fused_facelets_as_one_piece(qtbot, window):
    """The gap between fused facelets takes their colour; between free ones it stays the dark body."""
    window.open_file(REPO / "puzzles" / "bandaged3.json")
    canvas = window.play_tab.canvas
    image = canvas.grab().toImage()
    net = canvas.view._net
    puzzle = window.document.puzzle
    fused = next(b for b in puzzle.blockings if {14, 17} <= b)  # two facelets of F, one above the other

    def gap(a: int, b: int) -> str:
        x, y = (net[a].mean(axis=0) + net[b].mean(axis=0)) / 2
        return image.pixelColor(int(round(x)), int(round(y))).name()

    colour = puzzle.palette[puzzle.colours[14]].lower()
    assert 17 in fused and gap(14, 17) == colour
    assert gap(13, 16) != colour  # F's middle column is not fused

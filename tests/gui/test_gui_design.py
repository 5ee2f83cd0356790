"""Designing a circle puzzle through the real window's Designer tools, then saving, scrambling and solving it."""

from __future__ import annotations

import pytest
from conftest import wait_idle
from PyQt6.QtCore import QPoint, Qt

from hlavolamy.core.state import State
from hlavolamy.plugins.manager import get_plugin_host

pytestmark = pytest.mark.gui


def widget_point(panel, x: float, y: float) -> QPoint:
    """Widget coordinates of a design point (the designer's frame after a paint)."""
    panel.canvas.grab()
    return panel.canvas.designer.frame.to_widget(x, y).toPoint()


def gesture(qtbot, panel, tool: str, start: tuple[float, float], end: tuple[float, float] | None = None) -> None:
    """Press at ``start`` with ``tool``, drag to ``end`` (design coordinates), release."""
    panel.select_tool(tool)
    a = widget_point(panel, *start)
    qtbot.mousePress(panel.canvas, Qt.MouseButton.LeftButton, pos=a)
    b = widget_point(panel, *(end or start))
    qtbot.mouseMove(panel.canvas, b)
    qtbot.mouseRelease(panel.canvas, Qt.MouseButton.LeftButton, pos=b)


def design_two_disks(qtbot, window) -> None:
    """Two turning disks (radius 4, centres 6 apart), half turns, cuts completed, five regions coloured."""
    window.document.new_design(get_plugin_host().geometry("circles"))
    draw_two_disks(qtbot, window)


def draw_two_disks(qtbot, window) -> None:
    """:func:`design_two_disks` on the empty circle design already open."""
    fields = window.fields_tab.design
    window.tabs.setCurrentWidget(window.fields_tab)
    gesture(qtbot, fields, "turn", (-3, 0), (1, 0))
    gesture(qtbot, fields, "turn", (3, 0), (7, 0))
    assert len(window.document.designer.data()["circles"]) == 2
    assert window.document.puzzle is None and "colour" in window.document.snap.design_error

    moves = window.moves_tab
    window.tabs.setCurrentWidget(moves)
    for inside, name in (((-5, 0), "L"), ((5, 0), "R")):  # points inside one disk only
        gesture(qtbot, moves.design, "pick-circle", inside)
        moves.move_name.setText(name)
        moves.steps.setValue(2)
        moves.apply_circle_move()
    fields.select_tool("complete")  # an instant tool: the button itself adds the cuts

    colouring = window.colouring_tab
    window.tabs.setCurrentWidget(colouring)
    for label, points in (("red", [(-6, 0), (-3, 0)]), ("blue", [(6, 0), (3, 0)]), ("white", [(0, 0)])):
        colouring.palette_list.setCurrentRow(list(colouring.palette).index(label))
        for point in points:
            gesture(qtbot, colouring.design, "paint", point)


def test_design_save_reopen_scramble_solve(qtbot, window, tmp_path):
    design_two_disks(qtbot, window)
    puzzle = window.document.puzzle
    assert puzzle is not None, window.document.snap.design_error
    assert set(puzzle.moves) == {"L", "R"} and all(puzzle.move_order(m) == 2 for m in puzzle.moves)
    assert set(puzzle.colours) == {"red", "blue", "white"}

    steps = window.document.undo_stack.count()
    window.undo_action.trigger()  # the last painted region is a cell no more: the design jams
    assert len(window.document.designer.data()["colours"]) == puzzle.n_cells - 1
    assert window.document.puzzle is None and "jams" in window.document.snap.design_error
    assert not window.play_tab.moves_page.buttons
    window.redo_action.trigger()
    assert window.document.puzzle is puzzle and window.document.undo_stack.count() == steps

    path = tmp_path / "two-disks.json"
    window.document.save(path)
    window.document.reset(None)
    window.open_file(path)
    reopened = window.document.puzzle
    assert reopened.colours == puzzle.colours and window.document.designer is not None

    solve_page = window.play_tab.solve_page
    solve_page.scramble_moves.setValue(10)
    qtbot.mouseClick(solve_page.scramble_button, Qt.MouseButton.LeftButton)
    assert not window.document.state.is_solved()
    qtbot.mouseClick(solve_page.solve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert solve_page.player is not None, window.messages
    qtbot.mouseClick(solve_page.apply_button, Qt.MouseButton.LeftButton)
    assert window.document.state.is_colour_solved()
    assert State.solved(reopened).is_solved()

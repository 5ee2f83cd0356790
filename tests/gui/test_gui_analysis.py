"""Analysis in the background: results, highlighting, 3-cycles, cancel; position checks."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import cube, wait_idle
from PyQt6.QtCore import Qt

from hlavolamy.core.state import State
from hlavolamy.plugins.manager import get_plugin_host

pytestmark = pytest.mark.gui


def test_analysis_fills_the_info_highlights_an_orbit_and_plays_a_three_cycle(qtbot, window):
    cube(window, 2)
    page = window.play_tab.analysis_page
    qtbot.mouseClick(page.analyse_button, Qt.MouseButton.LeftButton)
    assert window.tasks.isVisible()
    wait_idle(qtbot, window)
    assert page.result is not None and "orbit" in page.report.toPlainText().lower()
    assert page.structure.topLevelItemCount() == len(page.result.summary["orbits"])
    page.structure.setCurrentItem(page.structure.topLevelItem(0))
    assert window.play_tab.canvas.highlight == set(page.result.summary["orbits"][0])
    assert window.play_tab.solve_page.orbit.count() == len(page.result.summary["orbits"])

    assert page.cycles.topLevelItemCount() > 0, "the analysis lists 3-cycles"
    item = page.cycles.topLevelItem(0)
    qtbot.mouseClick(page.cycles.itemWidget(item, 0), Qt.MouseButton.LeftButton)
    moved = np.flatnonzero(window.document.state.perm != np.arange(window.document.puzzle.n_cells))
    assert 0 < len(moved) and set(moved.tolist()) <= set(item.data(0, Qt.ItemDataRole.UserRole))


def test_cancel_button_stops_a_long_analysis_and_returns_to_idle(qtbot, window):
    big = get_plugin_host().geometry("cubes").build(size=24)  # a fresh puzzle: nothing cached
    window.document.reset(big, geometry=get_plugin_host().geometry("cubes"))
    page = window.play_tab.analysis_page
    qtbot.mouseClick(page.analyse_button, Qt.MouseButton.LeftButton)
    task = window.tasks.task
    assert task is not None and window.tasks.isVisible()
    qtbot.mouseClick(window.tasks.cancel_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert task.token.cancelled
    assert not window.tasks.isVisible() and page.result is None
    assert "cancelled" in page.summary.text().lower()
    assert window.messages == []  # a cancel is not an error


def test_set_position_refuses_an_unreachable_permutation_with_the_reason(qtbot, window):
    cube(window)
    page = window.play_tab.position_page
    perm = list(range(54))
    corner_a, corner_b = 0, 2  # two facelets of the U face corners: swapping them breaks the pieces
    perm[corner_a], perm[corner_b] = perm[corner_b], perm[corner_a]
    page.perm_text.setPlainText(json.dumps(perm))
    page.set_permutation()
    wait_idle(qtbot, window)
    assert window.document.state.is_solved()
    assert page.verdict.text().startswith("Unreachable")
    assert any("cannot be reached" in m for m in window.messages)


def test_set_position_accepts_a_reachable_permutation(qtbot, window):
    cube(window)
    target = State.solved(window.document.puzzle).apply("R U R' F")
    page = window.play_tab.position_page
    page.perm_text.setPlainText(json.dumps(target.perm.tolist()))
    page.set_permutation()
    wait_idle(qtbot, window)
    assert np.array_equal(window.document.state.perm, target.perm)
    window.undo_action.trigger()
    assert window.document.state.is_solved()


def test_bad_permutation_text_is_an_error_message(qtbot, window):
    cube(window)
    window.play_tab.position_page.perm_text.setPlainText("[0, 1, 1]")
    window.guarded(window.play_tab.position_page.set_permutation)
    assert any("54" in m for m in window.messages)


def test_painted_colours_become_a_reachable_position(qtbot, window):
    cube(window, 2)
    target = State.solved(window.document.puzzle).apply("R U")
    page = window.play_tab.position_page
    page.paint_toggle.setChecked(True)
    assert window.play_tab.canvas.cell_mode
    labels = target.colours()
    for cell, label in enumerate(labels):
        if page.painted[cell] != label:
            page.colour.setCurrentIndex(page.colour.findText(label))
            page.cell_clicked(cell, False)
    assert page.painted == labels
    qtbot.mouseClick(page.apply_colours_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert window.document.state.colours() == labels, window.messages
    assert not window.play_tab.canvas.cell_mode

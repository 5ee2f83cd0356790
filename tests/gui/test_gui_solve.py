"""Scramble and solve in the real window, then step through the solution to solved."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import PATIENCE_MS, cube, wait_idle
from PyQt6.QtCore import Qt

from hlavolamy.core.state import State

pytestmark = pytest.mark.gui


def solve_now(qtbot, window) -> None:
    page = window.play_tab.solve_page
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.player is not None, window.messages


def test_cube_scramble_solve_and_step_to_solved(qtbot, window):
    cube(window)
    page = window.play_tab.solve_page
    page.scramble_moves.setValue(20)
    page.seed.setValue(7)
    qtbot.mouseClick(page.scramble_button, Qt.MouseButton.LeftButton)
    scrambled = window.document.state
    assert not scrambled.is_solved() and window.document.history == ()
    solve_now(qtbot, window)
    turns = page.player.turns
    assert "verified" in page.solution_info.text()

    qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(page.back_button, Qt.MouseButton.LeftButton)
    assert page.player.index == 1
    assert np.array_equal(window.document.state.perm, scrambled.apply(turns[:1]).perm)
    while page.forward_button.isEnabled():
        qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton)
    assert window.document.state.is_solved() and page.player.index == len(turns)

    qtbot.mouseClick(page.first_button, Qt.MouseButton.LeftButton)
    assert np.array_equal(window.document.state.perm, scrambled.perm)
    window.undo_action.trigger()  # undo "back to start": at the end again, and the player follows
    assert window.document.state.is_solved() and page.player.index == len(turns)


def test_apply_all_and_the_animation(qtbot, window):
    cube(window)
    start = State.solved(window.document.puzzle).apply("R U F' L2 D")
    window.document.set_state(start, "Set position")
    solve_now(qtbot, window)
    page = window.play_tab.solve_page
    page.timer.setInterval(1)
    qtbot.mouseClick(page.animate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not page.timer.isActive(), timeout=PATIENCE_MS)
    assert window.document.state.is_solved()
    window.document.set_state(start, "Set position again")
    assert page.player is not None and page.player.index == 0  # the start of the path: stepping resumes
    qtbot.mouseClick(page.apply_button, Qt.MouseButton.LeftButton)
    assert window.document.state.is_solved()


def test_a_move_off_the_path_pauses_the_solution_until_undo(qtbot, window):
    cube(window)
    window.document.set_state(State.solved(window.document.puzzle).apply("R U"), "Set position")
    solve_now(qtbot, window)
    page = window.play_tab.solve_page
    summary = page.solution_info.text()
    window.play_tab.moves_page.buttons["F"].click()
    assert page.off_path and "solve again" in page.solution_info.text()
    assert not page.forward_button.isEnabled()
    window.undo_action.trigger()
    assert not page.off_path and page.solution_info.text() == summary
    page.apply_all()
    assert window.document.state.is_solved()


def test_random_position_is_reachable_and_seeded(qtbot, window):
    cube(window, 2)
    page = window.play_tab.solve_page
    page.seed.setValue(11)
    qtbot.mouseClick(page.random_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    first = window.document.state
    assert not first.is_solved()
    qtbot.mouseClick(page.random_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert np.array_equal(window.document.state.perm, first.perm)
    from hlavolamy.analysis.membership import check_state

    assert check_state(first.puzzle, first).reachable


def test_orbit_modes_need_an_analysed_orbit(qtbot, window):
    cube(window, 2)
    page = window.play_tab.solve_page
    page.mode.setCurrentIndex(page.mode.findData("orbit-only"))
    assert not page.solve_button.isEnabled()
    page.set_orbits([list(range(24))])
    assert page.solve_button.isEnabled()


def test_random_positions_are_uniform_on_a_small_group():
    from collections import Counter

    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.gui.play.solve import random_position

    puzzle = Puzzle(list("ABCDE"), {"s": [1, 0, 2, 3, 4], "t": [1, 2, 3, 0, 4]})  # S4 on cells 0..3
    counts = Counter(tuple(random_position(puzzle, seed)[0].perm.tolist()) for seed in range(2400))
    assert len(counts) == 24 and all(p[4] == 4 for p in counts)
    assert max(counts.values()) < 2 * min(counts.values())  # 100 expected each; far from any bias

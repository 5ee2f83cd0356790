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


# -- the anytime solve in the app: "Use this answer", and what a solve without an answer says ---------------------

def _endless_improving(monkeypatch) -> None:
    """The improving phase runs until it is cut or cancelled (the first answer still comes for real)."""
    import time

    from hlavolamy.solve import anytime

    def endless(problem, name, context):
        while True:
            context.cancel.check()
            time.sleep(0.01)

    monkeypatch.setattr(anytime, "run_pipeline", endless)
    # the quick chain's first answer (a 2x2x2's capped search would be final: nothing left to improve)
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-chain"])


def test_use_this_answer_takes_the_best_so_far_while_the_search_goes_on(qtbot, window, monkeypatch):
    _endless_improving(monkeypatch)
    cube(window, 2)
    page = window.play_tab.solve_page
    start = State.solved(window.document.puzzle).apply("R U F' R2 U' F")
    window.document.set_state(start, "Set position")
    assert not page.use_button.isEnabled()
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(page.use_button.isEnabled, timeout=PATIENCE_MS)
    assert "best so far" in page.solution_info.text() and window.tasks.busy
    qtbot.mouseClick(page.use_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.player is not None and "taken while the search went on" in page.solution_info.text()
    assert start.apply(page.player.turns).is_solved()
    assert not page.use_button.isEnabled() and "Using the answer" in window.statusBar().currentMessage()
    page.apply_all()
    assert window.document.state.is_solved()


def test_a_solve_cut_by_its_time_limit_shows_the_best_answer_and_says_so(qtbot, window, monkeypatch):
    _endless_improving(monkeypatch)
    cube(window, 2)
    page = window.play_tab.solve_page
    page.time_limit.setValue(1)
    start = State.solved(window.document.puzzle).apply("R U F'")
    window.document.set_state(start, "Set position")
    solve_now(qtbot, window)
    assert "best found within the time limit" in page.solution_info.text()
    assert "time limit reached" in window.statusBar().currentMessage()
    assert start.apply(page.player.turns).is_solved()


def test_a_failed_solve_says_what_happened_and_what_to_try(qtbot, window):
    cube(window, 2)
    page = window.play_tab.solve_page
    perm = np.arange(window.document.puzzle.n_cells)
    perm[[0, 1]] = perm[[1, 0]]  # two stickers of one corner swapped: no turn does that
    window.document.set_state(State(window.document.puzzle, perm), "Set position")
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.player is None
    text = page.solution_text.toPlainText()
    assert text.startswith("No solution: ") and "cannot be reached" in text
    assert window.statusBar().currentMessage().startswith("Solve failed")


def test_cancel_says_so_and_a_cancelled_schreier_sims_stops_within_a_second(qtbot, window):
    """The chain of a big random group (sympy's Schreier–Sims: minutes) is cancelled from the task bar."""
    import random
    import time

    from hlavolamy.core.fileformat import PuzzleFile
    from hlavolamy.core.puzzle import Puzzle

    rng = random.Random(5)
    points = list(range(600))
    moves = {}
    for name in "ab":
        rng.shuffle(points)
        moves[name] = list(points)
    puzzle = Puzzle(colours=[str(i) for i in range(600)], moves=moves, name="random group")
    window.document.load(PuzzleFile(puzzle), path=None)
    window.document.set_state(State.solved(puzzle).apply("a b a"), "Set position")
    page = window.play_tab.solve_page
    page.strategy.setCurrentText("chain")
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Schreier" in window.tasks.label.text(), timeout=PATIENCE_MS)
    time.sleep(0.3)  # well inside sympy now
    started = time.monotonic()
    window.tasks.cancel()
    wait_idle(qtbot, window)
    stopped = time.monotonic() - started
    assert stopped < 3.0, stopped  # 1 s on an idle machine; generous for a loaded test machine
    assert page.player is None and page.solution_text.toPlainText().startswith("Solving cancelled")
    assert window.statusBar().currentMessage().startswith("Solve cancelled")

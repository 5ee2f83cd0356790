"""Regressions from the issue and QA: turn animation, busy buttons, cached analysis, hover outline,
blockings drawn, compact macro text."""

from __future__ import annotations

import threading

import pytest
from conftest import PATIENCE_MS, REPO, cube, cube_file, wait_idle
from PyQt6.QtCore import QPoint, QSettings, Qt
from PyQt6.QtGui import QImage

from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.gui.canvas import ANIMATION_MS, HATCH_STEP
from hlavolamy.gui.sequences import compact_text, smallest_period
from hlavolamy.gui.window import MainWindow
from hlavolamy.solve import Solution

pytestmark = pytest.mark.gui


def image(widget) -> QImage:
    return widget.grab().toImage()


# -- 1. turn animation -----------------------------------------------------------------
def test_a_move_cross_fades_from_the_old_drawing_to_the_new(qtbot, window):
    cube(window, 2)
    canvas = window.play_tab.canvas
    assert window.animate_action.isChecked() and canvas.animate  # on by default
    before = image(canvas)
    window.play([Turn("R", 1)])
    assert canvas.animating
    canvas._fade.pause()
    canvas._fade.setCurrentTime(ANIMATION_MS // 2)
    middle = image(canvas)
    canvas.finish_animation()
    assert not canvas.animating
    after = image(canvas)
    assert middle != before and middle != after and before != after


def test_a_new_step_finishes_the_running_animation_at_once(qtbot, window):
    cube(window, 2)
    canvas = window.play_tab.canvas
    window.play([Turn("R", 1)])
    first = canvas._before
    canvas._fade.pause()
    canvas._fade.setCurrentTime(ANIMATION_MS // 2)
    window.play([Turn("U", 1)])  # the R fade ends; the U fade starts from the finished R drawing
    assert canvas.animating and canvas._before is not first and canvas._fade.currentTime() < ANIMATION_MS // 2
    assert canvas.state is window.document.state
    qtbot.waitUntil(lambda: not canvas.animating, timeout=PATIENCE_MS)


def test_animate_moves_setting_turns_it_off_and_is_remembered(qtbot, window, tmp_path):
    cube(window, 2)
    window.animate_action.setChecked(False)
    window.play([Turn("R", 1)])
    assert not window.play_tab.canvas.animating
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    again = MainWindow(settings)
    qtbot.addWidget(again)
    assert not again.animate_action.isChecked() and not again.play_tab.canvas.animate


def test_stepping_a_solution_animates_each_step(qtbot, window):
    cube(window, 2)
    page = window.play_tab.solve_page
    start = State.solved(window.document.puzzle).apply("R U")
    window.document.set_state(start, "Set position")
    window.play_tab.canvas.finish_animation()
    page.show_solution(start, Solution([Turn("U", -1), Turn("R", -1)], 2, 0.0, "test"))
    qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton)
    assert window.play_tab.canvas.animating
    qtbot.mouseClick(page.forward_button, Qt.MouseButton.LeftButton)  # never blocked by the running fade
    assert window.document.state.is_solved()
    qtbot.waitUntil(lambda: not window.play_tab.canvas.animating, timeout=PATIENCE_MS)


# -- 2. buttons that start jobs wait while one runs ----------------------------------------
def test_job_buttons_are_disabled_while_a_job_runs_and_cancel_is_not(qtbot, window):
    cube(window, 2)
    release = threading.Event()

    def job(progress, cancel):
        while not release.wait(0.01):
            cancel.check()

    play = window.play_tab
    buttons = (play.solve_page.solve_button, play.solve_page.scramble_button, play.solve_page.random_button,
               play.analysis_page.analyse_button)
    assert all(b.isEnabled() for b in buttons)
    window.run_task("Waiting", job, lambda _result: None)
    assert not any(b.isEnabled() for b in buttons)
    assert window.tasks.cancel_button.isEnabled()
    qtbot.mouseClick(window.tasks.cancel_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert all(b.isEnabled() for b in buttons)

    window.run_task("Waiting", job, lambda _result: None)
    release.set()
    wait_idle(qtbot, window)
    assert all(b.isEnabled() for b in buttons)


# -- 3. an analysis the solver already computed is shown without a press ----------------------
def test_analysis_page_shows_what_a_solve_already_computed(qtbot, window):
    from hlavolamy.solve import solve

    cube(window, 2)
    puzzle = window.document.puzzle
    page = window.play_tab.analysis_page
    solve(puzzle, State.solved(puzzle).apply("R U"))  # leaves the analysis parts on the puzzle
    window.play_tab.side.setCurrentWidget(page)
    assert page.result is not None
    assert page.structure.topLevelItemCount() == len(page.result.summary["orbits"])
    assert "orbit" in page.summary.text() and "Not analysed" not in page.summary.text()


def test_a_finished_solve_fills_the_analysis_page(qtbot, window):
    cube(window, 2)
    window.document.set_state(State.solved(window.document.puzzle).apply("R U F"), "Set position")
    page = window.play_tab.solve_page
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.player is not None, window.messages
    assert window.play_tab.analysis_page.result is not None


def test_nothing_cached_means_not_analysed(qtbot, window):
    from hlavolamy.plugins.manager import get_plugin_host

    cubes = get_plugin_host().geometry("cubes")
    window.document.reset(cubes.build(size=7), geometry=cubes)  # a fresh puzzle: nothing cached
    page = window.play_tab.analysis_page
    window.play_tab.side.setCurrentWidget(page)
    assert page.result is None and page.summary.text() == "Not analysed yet."


# -- 4. hovering a disk outlines it without tinting its colours -------------------------------
def test_hovering_a_disk_outlines_it_and_keeps_its_colours(qtbot, window):
    window.open_file(REPO / "puzzles" / "rashkey.json")
    canvas = window.play_tab.canvas
    canvas.grab()
    view = canvas.view
    disk = next(c for c in view.design.circles if c.kind == "turn")
    centre = view.frame.to_widget(disk.x, disk.y).toPoint()
    ring = view.frame.to_widget(disk.x + disk.r, disk.y).toPoint()
    plain = image(canvas)
    qtbot.mouseMove(canvas, centre)
    qtbot.waitUntil(lambda: canvas._hover is not None, timeout=PATIENCE_MS)
    hovered = image(canvas)
    ratio = canvas.devicePixelRatioF()

    def pixel(img: QImage, p: QPoint) -> int:
        return img.pixel(int(p.x() * ratio), int(p.y() * ratio))

    assert pixel(hovered, centre) == pixel(plain, centre), "the disk's colours are not tinted"
    assert pixel(hovered, ring) != pixel(plain, ring), "the disk's rim is outlined"


# -- 5. every fused set is drawn on the Blockings tab, the selected one outlined -----------------
def test_blockings_tab_hatches_every_fused_cell_and_outlines_the_selected_set(qtbot, window):
    window.open_file(REPO / "puzzles" / "rashkey-fused.json")
    tab = window.blockings_tab
    window.tabs.setCurrentWidget(tab)
    canvas = tab.canvas
    fused = frozenset().union(*window.document.puzzle.blockings)
    assert fused and canvas.marked == fused
    hatched = image(canvas)
    overlay = canvas._hatch_overlay().toImage()
    ratio = canvas.devicePixelRatioF()
    inside = outside = 0
    for y in range(HATCH_STEP // 2, canvas.height(), HATCH_STEP):
        for x in range(HATCH_STEP // 2, canvas.width(), HATCH_STEP):
            near = {canvas.view.cell_at(x + dx, y + dy) for dx in (-HATCH_STEP, 0, HATCH_STEP)
                    for dy in (-HATCH_STEP, 0, HATCH_STEP)}
            alpha = overlay.pixelColor(int(x * ratio), int(y * ratio)).alpha()
            if canvas.view.cell_at(x, y) in fused:
                inside += 1
                assert alpha > 0
            elif not near & fused:
                outside += 1
                assert alpha == 0
    assert inside and outside
    canvas.marked = frozenset()
    assert image(canvas) != hatched

    canvas.marked = fused
    tab.list.setCurrentRow(0)
    assert canvas.highlight == window.document.puzzle.blockings[0]
    assert image(canvas) != hatched  # the selected set is outlined on top of the hatching


# -- 6. the analysis fits the narrow side panel; repeated macros print compactly -----------------
def test_compact_text_prints_a_repeated_block_once_with_its_count():
    puzzle = cube_file(3).puzzle
    forty = puzzle.parse("R U' R' U " * 10)
    assert len(forty) == 40 and smallest_period(forty) == 4
    assert compact_text(puzzle, forty) == "(R U' R' U)10"
    assert compact_text(puzzle, puzzle.parse("R U R' U' F")) == "R U R' U' F"  # no repetition: flat
    assert compact_text(puzzle, puzzle.parse("R R")) == "R R"  # "(R)2" would be no shorter


@pytest.mark.parametrize("text", ["(R U)3 R", "(F2 D')7", "R", "(L U L' U')2 (L U L' U')2", "(R U F)2 (R U)"])
def test_compact_text_parses_back_to_the_same_turns(text):
    puzzle = cube_file(3).puzzle
    turns = puzzle.parse(text)
    assert puzzle.parse(compact_text(puzzle, turns)) == turns


def test_analysis_report_and_macro_list_need_no_sideways_scrolling(qtbot, window):
    cube(window, 2)
    page = window.play_tab.analysis_page
    window.play_tab.side.setCurrentWidget(page)
    qtbot.mouseClick(page.analyse_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.result is not None
    assert page.report.horizontalScrollBar().maximum() == 0
    assert page.cycles.horizontalScrollBar().maximum() == 0 or not page.cycles.horizontalScrollBar().isVisible()
    header = page.cycles.header()
    assert header.sectionPosition(4) < page.cycles.viewport().width(), "the Sequence column is on screen"
    assert page.result.macros, "the analysis found no 3-cycles to list"  # a clear failure, not an IndexError
    item = page.cycles.topLevelItem(0)
    macro = page.result.macros[0]
    assert macro["moves"] in item.toolTip(4)  # the full sequence, however narrow the column
    puzzle = window.document.puzzle
    assert puzzle.parse(item.text(4)) == puzzle.parse(macro["moves"])


def test_turning_a_3d_view_ends_the_fade_of_the_old_picture(qtbot, window):
    cube(window, 2)
    canvas = window.play_tab.canvas
    window.play([Turn("R", 1)])
    assert canvas.animating
    start = QPoint(canvas.width() // 2, 20)
    qtbot.mousePress(canvas, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(canvas, start + QPoint(30, 0))
    qtbot.mouseRelease(canvas, Qt.MouseButton.LeftButton, pos=start + QPoint(30, 0))
    assert not canvas.animating

"""Start the desktop app, or render its window to an image (``--screenshot``)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hlavolamy.errors import HlavolamyError

if TYPE_CHECKING:
    from PyQt6.QtWidgets import QApplication

    from hlavolamy.gui.window import MainWindow

TAB_NAMES = ("fields", "colouring", "moves", "blockings", "play")
SIDE_PAGES = ("moves", "solve", "analysis", "position")


def application() -> QApplication:
    """The QApplication (created once), following the system's light or dark palette."""
    from PyQt6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("Hlavolamy")
        app.setOrganizationName("Hlavolamy")
        app.setStyle("Fusion")  # Fusion follows the platform colour scheme (light/dark) in Qt 6
    assert isinstance(app, QApplication)
    return app


@dataclass(frozen=True)
class Staging:
    """What a screenshot shows: tab, side page, and work done first (moves, scramble, analysis, solve)."""

    tab: str = "play"
    side: str = "moves"
    sequence: str | None = None
    size: tuple[int, int] = (1200, 800)
    numbers: bool = False
    solved: bool = False
    analyse: bool = False
    scramble: int = 0
    seed: int = 1
    solve: bool = False
    steps: int = 0
    orbit: int | None = None
    """Select this orbit in the analysis (its cells highlighted); needs ``analyse``."""


def run(puzzle: str | None = None, *, screenshot: str | None = None, staging: Staging = Staging()) -> int:
    """Open the main window (optionally with a puzzle); with ``screenshot`` save an image and exit.

    A screenshot uses throw-away settings (no recent files of the user's) and
    lets a bad puzzle file fail the command; the interactive app shows it in a dialog.
    """
    if screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from hlavolamy.gui.preflight import window_problem

    problem = window_problem()  # before Qt: its own failure is an abort after many lines
    if problem:
        raise HlavolamyError(problem)
    from PyQt6.QtCore import QSettings

    app = application()
    from hlavolamy.gui.errors import install_excepthook
    from hlavolamy.gui.window import MainWindow

    if screenshot:
        with tempfile.TemporaryDirectory() as folder:
            window = MainWindow(QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat))
            try:
                if puzzle:
                    window.open_file(puzzle)
                return _screenshot(window, screenshot, staging)
            finally:  # a bad file's error must not leave the window to Python's collector (or a thread running)
                window.tasks.shutdown()
                window.deleteLater()
    install_excepthook()
    window = MainWindow(QSettings())
    window.show()
    if puzzle:
        window.guarded(lambda: window.open_file(puzzle), "Cannot open the puzzle")
    return app.exec()


def _screenshot(window: MainWindow, path: str, staging: Staging) -> int:
    """Stage the window (see :class:`Staging`) and grab it into ``path``."""
    from PyQt6.QtWidgets import QApplication

    if staging.tab not in TAB_NAMES:
        raise HlavolamyError(f"--tab must be one of {', '.join(TAB_NAMES)}, not {staging.tab!r}")
    if staging.side not in SIDE_PAGES:
        raise HlavolamyError(f"--side must be one of {', '.join(SIDE_PAGES)}, not {staging.side!r}")
    window.resize(*staging.size)
    window.tabs.setCurrentIndex(TAB_NAMES.index(staging.tab))
    play = window.play_tab
    play.side.setCurrentIndex(SIDE_PAGES.index(staging.side))
    play.show_numbers.setChecked(staging.numbers)
    play.show_solved.setChecked(staging.solved)
    window.show()
    if staging.scramble:
        box = play.solve_page.scramble_moves
        if not box.minimum() <= staging.scramble <= box.maximum():  # the box would clamp it silently
            raise HlavolamyError(f"--scramble must be from {box.minimum()} to {box.maximum()}, not {staging.scramble}")
        box.setValue(staging.scramble)
        play.solve_page.seed.setValue(staging.seed)
        play.solve_page.scramble()
    if staging.sequence:
        puzzle = window.document.require_puzzle()
        window.document.play(puzzle.parse(staging.sequence), f"Execute {staging.sequence}")
    if staging.analyse:
        _wait(window, play.analysis_page.analyse)
        if staging.orbit is not None:
            play.analysis_page.select_orbit(staging.orbit)
    if staging.solve:
        _wait(window, play.solve_page.solve)
        for _ in range(staging.steps):
            play.solve_page.step_forward()
    from hlavolamy.gui.canvas import StateCanvas

    for canvas in window.findChildren(StateCanvas):  # a turn's fade would show the position before it
        canvas.finish_animation()
    QApplication.processEvents()
    if not window.grab().save(path):
        raise HlavolamyError(f"cannot write the screenshot {path!r} (is the folder there, the suffix .png?)")
    window.document.undo_stack.setClean()
    window.close()
    return 0


def _wait(window: MainWindow, start: Callable[[], None]) -> None:
    """Start background work and wait for it; its failure is an error (a screenshot must not lie)."""
    from PyQt6.QtCore import QEventLoop

    failures: list[str] = []
    window.tasks.task_failed.connect(failures.append)
    loop = QEventLoop()
    window.tasks.idle.connect(loop.quit)
    start()
    if window.tasks.busy:
        loop.exec()
    window.tasks.idle.disconnect(loop.quit)
    if failures:
        raise HlavolamyError(failures[0])

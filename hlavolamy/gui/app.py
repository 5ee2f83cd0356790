"""Start the desktop app, or render its window to an image (``--screenshot``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from hlavolamy.errors import HlavolamyError

TAB_NAMES = ("fields", "colouring", "moves", "blockings", "play")
SIDE_PAGES = ("moves", "solve", "analysis", "position")


def application() -> object:
    """The QApplication (created once), following the system's light or dark palette."""
    from PyQt6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("Hlavolamy")
        app.setOrganizationName("Hlavolamy")
        app.setStyle("Fusion")  # Fusion follows the platform colour scheme (light/dark) in Qt 6
    return app


def run(puzzle: str | None = None, *, screenshot: str | None = None, tab: str = "play", side: str = "moves",
        sequence: str | None = None, size: Sequence[int] = (1200, 800), numbers: bool = False,
        solved: bool = False, analyse: bool = False) -> int:
    """Open the main window (optionally with a puzzle); with ``screenshot`` save an image and exit."""
    if screenshot and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PyQt6.QtCore import QSettings

    app = application()
    from hlavolamy.gui.errors import install_excepthook
    from hlavolamy.gui.window import MainWindow

    settings = QSettings() if not screenshot else QSettings(str(Path(screenshot).with_suffix(".ini")),
                                                            QSettings.Format.IniFormat)
    window = MainWindow(settings)
    if puzzle:
        window.open_file(puzzle)
    if screenshot:
        try:
            return _screenshot(window, screenshot, tab, side, sequence, size, numbers, solved, analyse)
        finally:
            Path(screenshot).with_suffix(".ini").unlink(missing_ok=True)
    install_excepthook()
    window.show()
    return app.exec()


def _screenshot(window: object, path: str, tab: str, side: str, sequence: str | None, size: Sequence[int],
                numbers: bool, solved: bool, analyse: bool) -> int:
    """Stage the window (tab, side page, moves, analysis) and grab it into ``path``."""
    from PyQt6.QtCore import QEventLoop, QTimer
    from PyQt6.QtWidgets import QApplication

    from hlavolamy.gui.window import MainWindow

    assert isinstance(window, MainWindow)
    if tab not in TAB_NAMES:
        raise HlavolamyError(f"--tab must be one of {', '.join(TAB_NAMES)}, not {tab!r}")
    if side not in SIDE_PAGES:
        raise HlavolamyError(f"--side must be one of {', '.join(SIDE_PAGES)}, not {side!r}")
    window.resize(*size)
    window.tabs.setCurrentIndex(TAB_NAMES.index(tab))
    window.play_tab.side.setCurrentIndex(SIDE_PAGES.index(side))
    window.play_tab.show_numbers.setChecked(numbers)
    window.play_tab.show_solved.setChecked(solved)
    if sequence:
        puzzle = window.document.require_puzzle()
        window.document.play(puzzle.parse(sequence), f"Execute {sequence}")
    window.show()
    if analyse:
        loop = QEventLoop()
        window.tasks.idle.connect(loop.quit)
        window.play_tab.analysis_page.analyse()
        if window.tasks.busy:
            loop.exec()
    for _ in range(3):  # let layouts settle before grabbing
        QApplication.processEvents()
        QTimer.singleShot(10, lambda: None)
    if not window.grab().save(path):
        raise HlavolamyError(f"cannot write the screenshot {path!r} (is the folder there, the suffix .png?)")
    window.document.undo_stack.setClean()
    window.close()
    return 0

"""Fixtures for driving the real main window offscreen with pytest-qt."""

from __future__ import annotations

import os

if os.environ.get("HLAVOLAMY_REAL_WINDOW") != "1":  # set only by test_real_window.py for its run in Xvfb
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before any Qt import

import functools  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PyQt6.QtCore import QPointF, QSettings, Qt  # noqa: E402
from PyQt6.QtWidgets import QMessageBox  # noqa: E402

from hlavolamy.core.fileformat import PuzzleFile, load_puzzle  # noqa: E402
from hlavolamy.gui.canvas import StateCanvas  # noqa: E402
from hlavolamy.gui.window import MainWindow  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    """A main window with its own settings file; message boxes are recorded, not shown."""
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a: shown.append(f"{title}: {text}"))
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    win.messages = shown  # type: ignore[attr-defined]
    # No solve time limit: a first solve builds tables, and on a loaded test machine that may pass the
    # app's default 30 s (tests that are about the limit set it themselves).
    win.play_tab.solve_page.time_limit.setValue(0)
    qtbot.addWidget(win)
    win.show()
    yield win
    win.tasks.shutdown()
    win.document.undo_stack.setClean()


@functools.cache
def cube_file(size: int) -> PuzzleFile:
    """The shipped cube file, loaded once per session so the puzzle's cached analysis and solver
    tables are shared between tests (as they are between documents in one app session)."""
    return load_puzzle(REPO / "puzzles" / f"rubik{size}.json")


def cube(win: MainWindow, size: int = 3) -> None:
    """Open an NxNxN cube in the window (an untitled document)."""
    win.document.load(cube_file(size), path=None)


def point_of_cell(canvas: StateCanvas, cell: int) -> QPointF:
    """A widget point the canvas's view maps to ``cell`` (scans a grid after a paint)."""
    canvas.grab()  # paints, so the view knows its layout
    assert canvas.view is not None
    w, h = canvas.width(), canvas.height()
    for y in range(2, h, 3):
        for x in range(2, w, 3):
            if canvas.view.cell_at(x, y) == cell:
                return QPointF(x, y)
    raise AssertionError(f"cell {cell} is not drawn")


def click_cell(qtbot, canvas: StateCanvas, cell: int, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    point = point_of_cell(canvas, cell).toPoint()
    qtbot.mouseClick(canvas, button, pos=point)


PATIENCE_MS = 20 * 60_000
"""How long a wait on a condition may last: a guard against a hang, never a budget the work must meet
(a first solve builds tables, and a test machine may be shared by many jobs)."""


def wait_idle(qtbot, win: MainWindow) -> None:
    """Wait until the background job (analysis, solve, long scramble) has ended, however long it takes."""
    qtbot.waitUntil(lambda: not win.tasks.busy, timeout=PATIENCE_MS)

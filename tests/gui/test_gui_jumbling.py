"""A jumbling circle design's closure in the real window: off the GUI thread, with progress, Cancel and undo.

The closure runs in the task bar's worker. A gate holds it in the worker
until the test opens it (checking the token all the while, as the closure
does), so "still running" is a state the test sets up, never a race
against the machine's speed.
"""

from __future__ import annotations

import importlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import PATIENCE_MS, wait_idle
from PyQt6.QtCore import Qt, QTimer

from hlavolamy.core.progress import CancelToken
from hlavolamy.plugins.manager import get_plugin_host

pytestmark = pytest.mark.gui



@pytest.fixture
def circles() -> SimpleNamespace:
    """The circles plugin as the current host loaded it: a new host reads the plugin files again (another test
    may have made one), so modules looked up when this file was collected may no longer be the ones in use."""
    geometry = get_plugin_host().geometry("circles")
    package = type(geometry).__module__
    return SimpleNamespace(geometry=geometry, **{name: importlib.import_module(f"{package}.{name}")
                                                 for name in ("design", "jumble", "jumbled", "presets")})


class Gate:
    """Stands in for the closure: waits until opened, then closes the cuts for real; Cancel stops it meanwhile."""

    def __init__(self, real: Callable[..., Any]):
        self.real = real
        self.opened = threading.Event()

    def __call__(self, *args: Any, cancel: CancelToken | None = None, **kwargs: Any) -> Any:
        while not self.opened.wait(0.01):
            if cancel is not None:
                cancel.check()
        return self.real(*args, cancel=cancel, **kwargs)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch, circles: SimpleNamespace) -> Iterator[Gate]:
    """A closed gate in front of every closure, and no closure kept from earlier tests."""
    monkeypatch.setattr(circles.jumbled, "_kept", OrderedDict())
    held = Gate(circles.jumble.close_cuts)
    monkeypatch.setattr(circles.jumble, "close_cuts", held)
    yield held
    held.opened.set()  # a run still waiting ends (the window fixture then waits for it)


def fractal_data(circles: SimpleNamespace) -> dict[str, Any]:
    """Two equal disks above the critical radius, coloured: the closure runs to its limit (1200 cut circles)."""
    design_mod = circles.design
    design = design_mod.Design([design_mod.DesignCircle("A", 0, 0, 3, "turn", 12),
                                design_mod.DesignCircle("B", 4, 0, 3, "turn", 12)], grid=None, jumble="cut")
    design.colours = {r.id: "red" for r in design.arrangement.regions if r.inside}
    return design.to_data()


def edit(window, data: dict[str, Any], text: str) -> None:
    """What a designer gesture does: new data in the designer, then one undo step."""
    window.document.designer.set_data(data)
    window.document.design_edited(text)


def gears45_data(circles: SimpleNamespace) -> dict[str, Any]:
    return circles.presets.preset("gears45")[1].to_data()


def status_messages(window) -> list[str]:
    """Every status bar message from now on (a message times out: the current one may be gone when looked at)."""
    said: list[str] = []
    window.statusBar().messageChanged.connect(said.append)
    return said


def open_empty_design(window, circles: SimpleNamespace) -> None:
    window.document.new_design(circles.geometry)
    window.tabs.setCurrentWidget(window.fields_tab)


def test_the_event_loop_runs_while_the_cuts_close_and_the_limit_is_told(qtbot, window, gate, circles):
    open_empty_design(window, circles)
    edit(window, fractal_data(circles), "Fractal disks")
    assert window.tasks.busy and window.tasks.task.name == "Closing the cuts"
    assert window.document.puzzle is None and "closing the cuts" in window.document.snap.design_error
    assert "closing the cuts" in window.fields_tab.design_status.text()
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(5)
    qtbot.waitUntil(lambda: len(ticks) >= 5, timeout=PATIENCE_MS)  # the GUI thread is free: timers fire
    window.fields_tab.design.canvas.grab()  # and paints (the drawn disks, no closure yet)
    assert window.tasks.busy  # the closure still waits at the gate
    timer.stop()

    said: list[str] = []
    window.tasks.task.progressed.connect(lambda _fraction, message: said.append(message))
    gate.opened.set()
    wait_idle(qtbot, window)
    assert any("cut circles of at most 1200" in message for message in said), said
    snap = window.document.snap
    assert snap.puzzle is None and "do not close up" in snap.design_error
    assert window.document.designer.limit is not None
    assert not window.messages


def test_cancel_stops_the_closure_and_says_what_it_means(qtbot, window, gate, circles):
    open_empty_design(window, circles)
    edit(window, fractal_data(circles), "Fractal disks")
    assert window.tasks.busy
    said = status_messages(window)
    qtbot.mouseClick(window.tasks.cancel_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    snap = window.document.snap
    assert snap.puzzle is None and "closing the cuts was cancelled" in snap.design_error
    assert any("Closing the cuts cancelled: closing the cuts was cancelled" in message for message in said), said
    assert "cancelled" in window.fields_tab.design_status.text()
    assert window.document.designer.pending_work() is None  # not started again by itself
    assert not window.messages

    gate.opened.set()
    edit(window, gears45_data(circles), "Gears 45")  # the design stays editable: the next edit closes its cuts
    qtbot.waitUntil(lambda: window.document.puzzle is not None, timeout=PATIENCE_MS)
    assert window.document.puzzle.n_cells == 21
    window.undo_action.trigger()  # back to the cancelled design: Undo is an edit too, its closure runs again
    wait_idle(qtbot, window)
    assert "do not close up" in window.document.snap.design_error


def test_a_later_edit_supersedes_the_running_closure_and_undo_keeps_both(qtbot, window, gate, circles):
    open_empty_design(window, circles)
    edit(window, fractal_data(circles), "Fractal disks")
    running = window.tasks.task
    said = status_messages(window)
    edit(window, gears45_data(circles), "Gears 45")  # while the fractal one still runs
    assert running.token.cancelled  # the outdated run is stopped, not waited for
    gate.opened.set()
    qtbot.waitUntil(lambda: window.document.puzzle is not None, timeout=PATIENCE_MS)
    wait_idle(qtbot, window)
    gears = window.document.puzzle
    assert gears.n_cells == 21 and window.document.designer.data() == gears45_data(circles)
    assert not any("cancelled" in message for message in said), said  # superseded is no news
    assert not window.messages

    window.undo_action.trigger()  # the fractal design again: its closure runs now, to the limit
    assert window.document.designer.data()["circles"][0]["r"] == 3
    wait_idle(qtbot, window)
    assert window.document.puzzle is None and "do not close up" in window.document.snap.design_error
    window.redo_action.trigger()  # the puzzle the finished closure made, at once
    assert window.document.puzzle is gears and not window.tasks.busy

"""The app lists what installed plugins add: a strategy on the Solve page, a format in File → Import/Export.

The plugins come as an installed distribution (entry points, the way a
third-party package ships them), faked in memory; the window is made after
they are installed, as the app starts after ``pip install``.
"""

from __future__ import annotations

import logging

import pytest
from conftest import cube, wait_idle
from PyQt6.QtCore import Qt

from hlavolamy import formats
from hlavolamy.core.state import State
from hlavolamy.plugins import manager
from hlavolamy.solve import registry

pytestmark = pytest.mark.gui

PLUGINS = {"bfs": "hlavolamy_test_gui_bfs", "moves": "hlavolamy_test_gui_moves",
           "broken_records": "hlavolamy_test_gui_records_broken", "broken_geometry": "hlavolamy_test_gui_hook_raises"}
FILES = {"hlavolamy_test_gui_bfs": "bfs_strategy.py", "hlavolamy_test_gui_moves": "moves_format.py",
         "hlavolamy_test_gui_records_broken": "records_broken.py",
         "hlavolamy_test_gui_hook_raises": "hook_raises.py"}


@pytest.fixture
def installed(fake_distribution, monkeypatch, tmp_path, caplog):
    """A distribution with a strategy plugin, a format plugin and two whose hooks raise; a fresh plugin host."""
    monkeypatch.setattr(manager, "_host", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(manager.PATH_VARIABLE, raising=False)
    fake_distribution("hlavolamy-extras", PLUGINS, FILES)
    caplog.set_level(logging.WARNING, logger="hlavolamy")
    yield
    registry.forget_plugins()
    formats.forget_plugins()


@pytest.fixture
def window(installed, window):
    """The conftest's window, made only once the plugins are installed."""
    return window


def test_the_solve_page_offers_a_plugin_strategy_and_runs_it(qtbot, window):
    page = window.play_tab.solve_page
    offered = [page.strategy.itemText(i) for i in range(page.strategy.count())]
    assert offered[0] == "auto" and "bfs" in offered and "chain" in offered
    cube(window, 2)
    start = State.solved(window.document.puzzle).apply("R U")
    window.document.set_state(start, "Set position")
    page.strategy.setCurrentText("bfs")
    qtbot.mouseClick(page.solve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert page.player is not None, window.messages
    assert "strategy bfs" in page.solution_info.text()
    assert len(page.player.turns) == 2 and start.apply(page.player.turns).is_solved()


def test_the_import_and_export_menus_list_a_plugin_format(window):
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    submenus = {a.text(): a.menu() for a in file_menu.actions() if a.menu() is not None}
    for title in ("&Import", "&Export"):
        entries = [a.text() for a in submenus[title].actions()]
        assert "moves…" in entries and "kpuzzle…" in entries, (title, entries)
        assert entries.index("moves…") > entries.index("kpuzzle…")  # the built-in formats first


def test_a_plugin_whose_hook_raises_is_logged_and_skipped_and_the_app_starts(window, caplog):
    failed = [(f.name, f.error) for f in window.plugins.failures]
    assert ("broken_records", "hlavolamy_strategies raised RuntimeError: strategy table is corrupt") in failed
    assert ("broken_geometry", "hlavolamy_geometries raised RuntimeError: geometry table is corrupt") in failed
    logged = [r.getMessage() for r in caplog.get_records("setup") if r.levelno >= logging.WARNING]  # at start
    assert any("broken_geometry" in m and "geometry table is corrupt" in m for m in logged), logged
    assert any("strategy table is corrupt" in m for m in logged), logged
    assert window.isVisible() and {"bfs", "moves"} <= {p.name for p in window.plugins.plugins}

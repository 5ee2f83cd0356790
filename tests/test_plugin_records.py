"""Strategies, passes and file formats come through plugin hooks, the built-in ones too (issue 19, item 3).

The pattern of conda's ``conda_solvers``: a hook returns small typed records,
the program's own are a plugin loaded first through the same hook, a second
record of a taken name is refused (the first kept), and a hook that raises or
returns something else is skipped; both are plugin failures ``hlavolamy
plugins`` lists.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

import pytest

from hlavolamy import cli, formats
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.records import Records
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError
from hlavolamy.formats import builtin as builtin_formats
from hlavolamy.plugins import manager
from hlavolamy.plugins.manager import PluginHost
from hlavolamy.solve import builtin as builtin_solvers
from hlavolamy.solve import registry, solve
from tests.conftest import PUZZLES
from tests.test_plugins import REPO, plugin_folder


@pytest.fixture(autouse=True)
def only_these_plugins(monkeypatch, tmp_path):
    """No installed entry points, no user folder, a fresh host; the plugins' records gone afterwards."""
    monkeypatch.setattr(importlib.metadata, "distributions", lambda **kw: iter(()))
    monkeypatch.setattr(manager, "_host", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv(manager.PATH_VARIABLE, raising=False)
    yield
    registry.forget_plugins()
    formats.forget_plugins()


@pytest.fixture(scope="module")
def rubik2():
    return load_puzzle(PUZZLES / "rubik2.json").puzzle


def host_with(tmp_path, *names: str) -> PluginHost:
    return PluginHost([plugin_folder(tmp_path, *names)], entry_points=False)


def failures_of(host: PluginHost, name: str) -> list[str]:
    return [f.error for f in host.failures if f.name == name]


# -- the built-in records are a plugin ------------------------------------------------------------
def test_built_in_strategies_passes_and_formats_come_through_the_hooks():
    assert registry.names() == tuple(sorted((s.name for s in builtin_solvers.hlavolamy_strategies()),
                                            key=lambda n: (n != "auto", n)))
    assert [p.name for p in registry.passes()] == [p.name for p in builtin_solvers.hlavolamy_passes()]
    assert {registry.provider(n) for n in registry.names()} == {registry.BUILTIN}
    assert list(formats.FORMATS) == [f.name for f in builtin_formats.hlavolamy_formats()]
    assert {formats.provider(n) for n in formats.FORMATS} == {formats.BUILTIN}
    assert registry.rejected() == () and formats.rejected() == ()


def test_solve_as_a_library_has_every_built_in_strategy_without_a_plugin_host():
    code = ("import sys; from hlavolamy.solve import names; "
            "print(len(names()), 'hlavolamy.plugins' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True,
                         timeout=300).stdout.split()
    assert out == [str(len(registry.names())), "False"]


def test_records_refuse_a_taken_name_and_junk_and_keep_the_first():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Thing:
        name: str

    class First:
        @staticmethod
        def hook():
            return [Thing("a"), Thing("b c"), "junk"]

    class Second:
        @staticmethod
        def hook():
            return (Thing("a"), Thing("d"))

    table = Records("thing", "hook", Thing)
    assert [r.error for r in table.add_plugin(First, "first", "here")] == [
        "thing name 'b c' is not a word", "returned str 'junk', not a Thing"]
    assert [r.error for r in table.add_plugin(Second, "second", "there")] == ["thing 'a' is already provided by first"]
    assert {n: table.provider(n) for n in table.records} == {"a": "first", "d": "second"}
    table.forget_plugin("first")
    assert list(table.records) == ["d"] and [r.plugin for r in table.rejected] == ["second"]
    with pytest.raises(ValueError, match="twice"):
        table.add(Thing("d"))


# -- a plugin strategy -----------------------------------------------------------------------------
def test_a_plugin_strategy_is_used_by_solve(tmp_path, rubik2):
    host = host_with(tmp_path, "bfs_strategy.py")
    assert host.failures == []
    assert [(p.name, p.strategies) for p in host.plugins] == [("bfs_strategy", ("bfs",))]
    assert "bfs" in registry.names() and registry.provider("bfs") == "bfs_strategy"
    scramble = random_scramble(rubik2, 3, 4)
    start = State.solved(rubik2).apply(scramble)
    solution = solve(rubik2, start, strategy="bfs")
    assert solution.strategy == "bfs"
    assert start.apply(solution.moves).is_solved()
    assert solution.length <= rubik2.length(scramble)


def test_hlavolamy_solve_takes_a_plugin_strategy(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(manager.PATH_VARIABLE, str(plugin_folder(tmp_path, "bfs_strategy.py")))
    code = cli.main(["solve", str(PUZZLES / "rubik2.json"), "--scramble", "3", "--seed", "4", "--strategy", "bfs",
                     "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert json.loads(out)["strategy"] == "bfs"


def test_a_new_host_forgets_the_records_of_the_plugins_it_no_longer_has(tmp_path):
    host_with(tmp_path / "one", "bfs_strategy.py", "moves_format.py", "records_broken.py")
    assert "bfs" in registry.names() and "moves" in formats.FORMATS and registry.rejected() and formats.rejected()
    host_with(tmp_path / "two", "toy.py")
    assert "bfs" not in registry.names() and "moves" not in formats.FORMATS
    assert registry.rejected() == () and formats.rejected() == ()  # a plugin all of whose records were refused too
    with pytest.raises(HlavolamyError, match="unknown strategy 'bfs'"):
        registry.strategy("bfs")


# -- clashes and broken hooks ----------------------------------------------------------------------
def test_a_taken_strategy_or_format_name_is_refused_and_the_first_kept(tmp_path):
    chain = registry.strategy("chain")
    host = host_with(tmp_path, "record_clash.py")
    assert failures_of(host, "record_clash") == [
        "format 'gap' is already provided by hlavolamy.formats.builtin",
        "strategy 'chain' is already provided by hlavolamy.solve.builtin",
    ]
    assert registry.strategy("chain") is chain and formats.provider("gap") == formats.BUILTIN
    assert [(p.name, p.strategies, p.formats) for p in host.plugins] == [("record_clash", ("idle",), ())]


def test_a_raising_or_garbage_hook_is_skipped_and_the_others_load(tmp_path, rubik2):
    host = host_with(tmp_path, "bfs_strategy.py", "records_broken.py")
    errors = failures_of(host, "records_broken")
    assert "hlavolamy_strategies raised RuntimeError: strategy table is corrupt" in errors
    assert "hlavolamy_passes returned str 'shorter please', not a list of Pass" in errors
    assert "returned int 42, not a Format" in errors
    assert "format 'halfway' can neither import nor export (load and dump are both None)" in errors
    assert failures_of(host, "bfs_strategy") == []
    assert [p.name for p in registry.passes()] == ["windows", "shortcuts"]
    start = State.solved(rubik2).apply("R U")
    assert solve(rubik2, start, strategy="bfs").length == 2


def test_plugins_command_lists_strategies_and_formats_with_their_source(tmp_path, monkeypatch, capsys):
    folder = plugin_folder(tmp_path, "bfs_strategy.py", "moves_format.py", "records_broken.py")
    monkeypatch.setenv(manager.PATH_VARIABLE, str(folder))
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "  bfs_strategy: bfs\n" in out and "  moves_format: moves\n" in out
    assert "  chain  (built-in): " in out and "  bfs  (plugin bfs_strategy): plain breadth-first" in out
    assert "  gap  (built-in, import/export): " in out
    assert "  moves  (plugin moves_format, import/export): colours and move permutations" in out
    assert "shortening passes: windows (built-in), shortcuts (built-in)" in out
    assert "  records_broken: hlavolamy_strategies raised RuntimeError: strategy table is corrupt" in out


# -- a plugin format -------------------------------------------------------------------------------
TINY = "# a ring of three and a swap\ncolours: A B B\nr: 1 2 0\ns: 1 0 2\n"


def test_a_plugin_format_imports_and_exports_a_file(tmp_path):
    host_with(tmp_path, "moves_format.py")
    source = tmp_path / "ring.moves"
    source.write_text(TINY, encoding="utf-8")
    assert formats.guess(source).name == "moves"
    loaded = formats.import_file("moves", source, title="tiny ring")
    assert loaded.puzzle.name == "tiny ring" and loaded.puzzle.moves["r"].tolist() == [1, 2, 0]
    formats.export_file("moves", loaded, tmp_path / "again.moves")
    assert (tmp_path / "again.moves").read_text(encoding="utf-8") == "colours: A B B\nr: 1 2 0\ns: 1 0 2\n"
    with pytest.raises(HlavolamyError, match="no 'colours:' line"):
        (tmp_path / "bad.moves").write_text("r: 0\n", encoding="utf-8")
        formats.import_file("moves", tmp_path / "bad.moves")


def test_a_format_option_may_not_take_the_name_of_an_import_file_argument():
    class Plugin:
        @staticmethod
        def hlavolamy_formats():
            return [formats.Format("odd", "", (), lambda path, name: None, None, (formats.Option("name", ""),))]

    refused = formats.add_plugin(Plugin, "odd_plugin", "here")
    assert [r.error for r in refused] == ["format 'odd': option name 'name' is taken by import_file itself"]


def test_hlavolamy_import_reads_a_plugin_format(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(manager.PATH_VARIABLE, str(plugin_folder(tmp_path, "moves_format.py")))
    (tmp_path / "ring.moves").write_text(TINY, encoding="utf-8")
    out_file = tmp_path / "ring.json"
    assert cli.main(["import", "moves", str(tmp_path / "ring.moves"), "-o", str(out_file), "--title", "tiny"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert load_puzzle(out_file).puzzle.name == "tiny"

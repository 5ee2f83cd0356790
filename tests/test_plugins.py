"""The plugin host: discovery from folders and entry points, failures, and the CLI commands."""

from __future__ import annotations

import importlib.metadata
import json
import logging
import re
import shutil
import sys
from pathlib import Path

import pytest

from hlavolamy import cli
from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.errors import HlavolamyError
from hlavolamy.plugins import manager
from hlavolamy.plugins.hookspecs import Geometry, Parameter
from hlavolamy.plugins.manager import PluginHost, get_plugin_host, puzzle_geometry

FAKES = Path(__file__).parent / "fake_plugins"
REPO = Path(__file__).resolve().parents[1]


def plugin_folder(tmp_path: Path, *names: str) -> Path:
    """A fresh plugin folder holding copies of the named fake plugins."""
    folder = tmp_path / "plugins"
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        src = FAKES / name
        if src.is_dir():
            shutil.copytree(src, folder / name)
        else:
            shutil.copy(src, folder / name)
    return folder


@pytest.fixture(autouse=True)
def no_installed_plugins(monkeypatch):
    """Only what a test puts in place: no real entry points, no user folder, a fresh cached host."""
    monkeypatch.setattr(importlib.metadata, "distributions", lambda **kw: iter(()))
    monkeypatch.setattr(manager, "_host", None)
    monkeypatch.setattr(cli, "COMMANDS", ("new", "plugins"))  # the commands under test, whatever else exists


def test_module_and_package_plugins_load(tmp_path):
    host = PluginHost([plugin_folder(tmp_path, "toy.py", "ring_package")], entry_points=False)
    assert host.failures == []
    assert sorted(host.geometries) == ["ring", "toy"]
    assert {p.name: p.geometries for p in host.plugins} == {"toy": ("toy",), "ring_package": ("ring",)}
    assert all(Path(p.source).parent == tmp_path / "plugins" for p in host.plugins)
    toy = host.geometry("toy").build(n=5)
    assert toy.n_cells == 5 and toy.plugin == PluginRecord("toy", {"n": 5, "mirror": False})
    assert host.geometry("ring").build().moves["r"].tolist() == [1, 2, 0]
    # the package's submodule was imported under the private name, relative import intact
    assert "hlavolamy_plugin_ring_package.shapes" in sys.modules


def test_broken_plugins_are_reported_and_skipped(tmp_path, caplog):
    broken = ["broken_import.py", "exits_on_import.py", "hook_raises.py", "with_junk.py", "returns_none.py",
              "typo_hook.py", "no_hooks.py"]
    folder = plugin_folder(tmp_path, "toy.py", "ring_package", *broken)
    with caplog.at_level(logging.WARNING, logger="hlavolamy.plugins.manager"):
        host = PluginHost([folder], entry_points=False)
    assert sorted(host.geometries) == ["ring", "spare", "toy"]
    reasons = {}
    for f in host.failures:
        reasons.setdefault(f.name, []).append(f.error)
    assert set(reasons) == {"broken_import", "exits_on_import", "hook_raises", "with_junk", "returns_none",
                            "typo_hook", "no_hooks"}
    assert reasons["exits_on_import"] == ["SystemExit: plugin gave up"]
    assert "ModuleNotFoundError" in reasons["broken_import"][0]
    assert "hlavolamy_module_that_does_not_exist" in reasons["broken_import"][0]
    assert "raised RuntimeError: geometry table is corrupt" in reasons["hook_raises"][0]
    assert any("int 42, not a Geometry" in r for r in reasons["with_junk"])
    assert any("'toy' is already provided by plugin 'toy'" in r for r in reasons["with_junk"])
    assert "NoneType" in reasons["returns_none"][0]
    assert "unknown hook(s) hlavolamy_geometry" in reasons["typo_hook"][0]
    assert "no @hookimpl" in reasons["no_hooks"][0]
    assert all(f.source.startswith(str(folder)) for f in host.failures)
    # loaded plugins are those that gave something; the half-broken one keeps its valid geometry
    assert sorted(p.name for p in host.plugins) == ["ring_package", "toy", "with_junk"]
    assert host.geometries["toy"].__class__.__name__ == "Toy"
    assert len([r for r in caplog.records if "skipped" in r.getMessage()]) == len(host.failures)


def test_hook_of_a_failed_plugin_is_not_called_again(tmp_path):
    host = PluginHost([plugin_folder(tmp_path, "toy.py", "hook_raises.py")], entry_points=False)
    results = host.manager.hook.hlavolamy_geometries()
    assert [[type(g).__name__ for g in records] for records in results] == [["Toy"]]


def test_private_files_and_plain_folders_are_ignored(tmp_path):
    folder = plugin_folder(tmp_path, "toy.py")
    (folder / "_helper.py").write_text("raise SystemExit('must not be imported')\n")
    (folder / "notes").mkdir()
    (folder / "notes" / "x.py").write_text("raise SystemExit('must not be imported')\n")
    (folder / "README.md").write_text("not a plugin\n")
    host = PluginHost([folder, tmp_path / "missing"], entry_points=False)
    assert list(host.geometries) == ["toy"] and host.failures == []


def test_first_plugin_of_a_name_wins(tmp_path):
    first = plugin_folder(tmp_path / "a", "toy.py")
    second = plugin_folder(tmp_path / "b", "toy.py")
    host = PluginHost([first, second], entry_points=False)
    assert [p.source for p in host.plugins] == [str(first / "toy.py")]
    (failure,) = host.failures
    assert failure.source == str(second / "toy.py") and "shadowed" in failure.error and str(first) in failure.error


def test_unknown_geometry_lists_the_known_ones(tmp_path):
    host = PluginHost([plugin_folder(tmp_path, "toy.py", "ring_package")], entry_points=False)
    with pytest.raises(HlavolamyError, match="unknown geometry 'cube'.*ring, toy"):
        host.geometry("cube")


def test_entry_point_plugins_load_and_fail_cleanly(tmp_path, fake_distribution):
    fake_distribution(
        "hlavolamy-toys",
        {"toys": "hlavolamy_test_ep_toy", "broken": "hlavolamy_test_ep_broken", "absent": "hlavolamy_test_ep_nowhere"},
        {"hlavolamy_test_ep_toy": "toy.py", "hlavolamy_test_ep_broken": "hook_raises.py"},
    )
    host = PluginHost([], entry_points=True)
    assert list(host.geometries) == ["toy"]
    (loaded,) = host.plugins
    assert loaded.name == "toys" and loaded.source == "entry point hlavolamy_test_ep_toy in hlavolamy-toys 1.2"
    assert {f.name: f.error.split(":")[0] for f in host.failures} == {
        "broken": "hlavolamy_geometries raised RuntimeError",
        "absent": "ModuleNotFoundError",
    }


def test_folder_plugin_shadows_an_installed_one(tmp_path, fake_distribution):
    fake_distribution("toy-dist", {"toy": "hlavolamy_test_ep_toy2"}, {"hlavolamy_test_ep_toy2": "toy.py"})
    host = PluginHost([plugin_folder(tmp_path, "toy.py")], entry_points=True)
    assert [p.source for p in host.plugins] == [str(tmp_path / "plugins" / "toy.py")]
    assert [f.source for f in host.failures] == ["entry point hlavolamy_test_ep_toy2 in toy-dist 1.2"]


def test_default_folders_follow_the_environment(tmp_path, monkeypatch):
    extra = [tmp_path / "x", tmp_path / "y"]
    monkeypatch.setenv("HLAVOLAMY_PLUGIN_PATH", f"{extra[0]}{__import__('os').pathsep}{extra[1]}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert manager.default_folders() == [*extra, tmp_path / "data" / "hlavolamy" / "plugins", REPO / "plugins"]
    monkeypatch.delenv("HLAVOLAMY_PLUGIN_PATH")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert manager.default_folders()[0] == tmp_path / "home" / ".local" / "share" / "hlavolamy" / "plugins"


def isolated_env(monkeypatch, tmp_path, *fakes: str) -> Path:
    """Point the default discovery at a user folder holding ``fakes`` (plus the repository's plugins)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("HLAVOLAMY_PLUGIN_PATH", raising=False)
    return plugin_folder(tmp_path / "data" / "hlavolamy", *fakes)


def test_cached_host_and_reload(tmp_path, monkeypatch):
    user = isolated_env(monkeypatch, tmp_path, "toy.py")
    host = get_plugin_host()
    assert get_plugin_host() is host
    assert {"toy", "cubes"} <= set(host.geometries)
    shutil.copy(FAKES / "returns_none.py", user / "late.py")
    assert get_plugin_host() is host
    fresh = get_plugin_host(reload=True)
    assert fresh is not host and [f.name for f in fresh.failures] == ["late"]


def test_puzzle_geometry(tmp_path, monkeypatch):
    isolated_env(monkeypatch, tmp_path, "toy.py")
    toy = get_plugin_host().geometry("toy")
    assert puzzle_geometry(toy.build(n=3)) is toy
    plain = Puzzle(["A", "B"], {"s": [1, 0]})
    assert puzzle_geometry(plain) is None
    orphan = Puzzle(["A", "B"], {"s": [1, 0]}, plugin=PluginRecord("uninstalled", {"k": 1}))
    assert puzzle_geometry(orphan) is None


# -- CLI -------------------------------------------------------------------------
def test_cli_plugins_lists_loaded_and_failed(tmp_path, monkeypatch, capsys):
    isolated_env(monkeypatch, tmp_path, "toy.py", "hook_raises.py")
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "toy" in out and "cubes" in out and str(tmp_path) in out
    assert "hook_raises" in out and "RuntimeError: geometry table is corrupt" in out


def test_cli_new_list(tmp_path, monkeypatch, capsys):
    isolated_env(monkeypatch, tmp_path, "toy.py")
    assert cli.main(["new", "--list"]) == 0
    out = capsys.readouterr().out
    assert "cubes" in out and "--size" in out and "--centre-slices" in out
    assert "toy" in out and "--n" in out and "--mirror" in out


def test_cli_new_writes_a_puzzle(tmp_path, monkeypatch, capsys):
    pytest.importorskip("hlavolamy.core.fileformat")
    from hlavolamy.core.fileformat import load_puzzle

    isolated_env(monkeypatch, tmp_path, "toy.py")
    out = tmp_path / "toy.json"
    assert cli.main(["new", "toy", "--n", "6", "--mirror", "-o", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    puzzle = load_puzzle(out).puzzle
    assert puzzle.n_cells == 6 and sorted(puzzle.moves) == ["m", "r", "s"]
    assert puzzle.plugin.name == "toy" and dict(puzzle.plugin.data) == {"n": 6, "mirror": True}
    cube = tmp_path / "cube.json"
    assert cli.main(["new", "cubes", "--size", "4", "--output", str(cube)]) == 0
    assert json.loads(cube.read_text())["cells"] == 96


@pytest.mark.parametrize(
    "argv, message",
    [
        (["new", "nosuch", "-o", "x.json"], "unknown geometry 'nosuch'"),
        (["new", "toy", "--n", "1", "-o", "x.json"], "parameter 'n': 1 is below the minimum 2"),
        (["new"], "name a geometry"),
    ],
)
def test_cli_new_errors(tmp_path, monkeypatch, capsys, argv, message):
    isolated_env(monkeypatch, tmp_path, "toy.py")
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_cli_new_usage_errors_exit_2(tmp_path, monkeypatch, capsys):
    isolated_env(monkeypatch, tmp_path, "toy.py")
    with pytest.raises(SystemExit) as exc:
        cli.main(["new", "toy", "--n", "six", "-o", "x.json"])
    assert exc.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_geometry_base_class_is_the_contract():
    assert issubclass(type(PluginHost([REPO / "plugins"], entry_points=False).geometry("cubes")), Geometry)


def test_reserved_or_unusable_parameters_are_refused_at_load(tmp_path):
    host = PluginHost([plugin_folder(tmp_path, "toy.py", "reserved_parameter.py")], entry_points=False)
    assert sorted(host.geometries) == ["toy"]
    errors = sorted(f.error for f in host.failures)
    assert errors == ["geometry 'clash_help': parameter name 'help' is taken by the host's own --help",
                      "geometry 'clash_output': parameter name 'output' is taken by the host's own --output"]


@pytest.mark.parametrize(
    "parameters, message",
    [
        ("n", "parameters must be a tuple of Parameter, not str"),
        ((42,), "parameter 42 is not a Parameter"),
        ((Parameter("two words"),), "parameter name 'two words' is not a word"),
        ((Parameter("a_b"), Parameter("a_b")), "two parameters are both --a-b"),
        ((Parameter("n", list),), "parameter 'n' has kind <class 'list'>"),
    ],
)
def test_parameters_the_host_cannot_offer_are_named(parameters, message):
    class Odd(Geometry):
        name = "odd"

        def build(self, **params):
            raise AssertionError("not built")

        def moves(self, data):
            return {}

    odd = Odd()
    odd.parameters = parameters
    assert message in manager._parameters_problem(odd)


@pytest.mark.parametrize(
    "plugin, geometry, message",
    [
        ("build_raises.py", "build_raises", "geometry 'build_raises' failed to build a puzzle: KeyError: 'no such key'"),
        ("build_garbage.py", "build_garbage", "geometry 'build_garbage' returned dict {'colours': 'AB'} from build, "
                                              "not a Puzzle"),
    ],
)
def test_a_geometry_failing_to_build_is_one_line_exit_2(tmp_path, monkeypatch, capsys, plugin, geometry, message):
    isolated_env(monkeypatch, tmp_path, "toy.py", plugin)
    host = get_plugin_host()
    with pytest.raises(manager.PluginError, match=re.escape(message)):
        manager.build_puzzle(host.geometry(geometry), {})
    assert cli.main(["new", geometry, "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err == f"hlavolamy new: error: {message}\n"
    assert not (tmp_path / "x.json").exists()
    assert cli.main(["new", "toy", "-o", str(tmp_path / "toy.json")]) == 0  # the others keep working


def test_the_app_contains_a_geometry_failing_to_build(tmp_path, monkeypatch, qtbot):
    from hlavolamy.gui.document import Document

    isolated_env(monkeypatch, tmp_path, "build_raises.py")
    document = Document()
    with pytest.raises(manager.PluginError, match="failed to build a puzzle: KeyError"):
        document.new(get_plugin_host().geometry("build_raises"), {})
    assert document.puzzle is None


# -- slow plugins and disabling by name -------------------------------------------------------------

class FakeClock:
    """A clock a plugin "sleeps" on by advancing it (tests/fake_plugins/slow_import.py)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setitem(sys.modules, "hlavolamy_test_clock", fake)
    monkeypatch.delitem(sys.modules, "hlavolamy_plugin_slow_import", raising=False)  # imported by an earlier test
    monkeypatch.delenv(manager.DISABLE_VARIABLE, raising=False)
    return fake


def test_a_slow_plugin_is_named_with_its_load_time(tmp_path, clock, caplog):
    folder = plugin_folder(tmp_path, "toy.py", "slow_import.py")
    with caplog.at_level(logging.WARNING, logger="hlavolamy.plugins.manager"):
        host = PluginHost([folder], entry_points=False, clock=clock)
    assert host.slow == [manager.SlowPlugin("slow_import", str(folder / "slow_import.py"), 60.0)]
    assert host.load_seconds("slow_import") == 60.0 and host.load_seconds("toy") is None
    assert [f.name for f in host.failures] == ["slow_import"]  # and it still says why it failed
    warning = next(r.getMessage() for r in caplog.records if "took" in r.getMessage())
    assert "slow_import" in warning and "60.0 s" in warning and "HLAVOLAMY_DISABLE_PLUGINS=slow_import" in warning


def test_plugins_command_lists_the_slow_plugin_and_how_to_skip_it(tmp_path, clock, monkeypatch, capsys):
    folder = plugin_folder(tmp_path, "toy.py", "slow_import.py")
    monkeypatch.setattr(manager, "_host", PluginHost([folder], entry_points=False, clock=clock))
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"slow_import: .*no @hookimpl.*\(slow: 60\.0 s to load\)", out)
    assert "slow to load (over 1 s): slow_import" in out and "HLAVOLAMY_DISABLE_PLUGINS=slow_import" in out


def test_a_disabled_plugin_is_not_imported_and_is_listed(tmp_path, clock, monkeypatch, capsys):
    folder = plugin_folder(tmp_path, "toy.py", "slow_import.py", "ring_package")
    monkeypatch.setenv(manager.DISABLE_VARIABLE, "slow_import, ring_package")
    host = PluginHost([folder], entry_points=False, clock=clock)
    assert clock.now == 1000.0 and "hlavolamy_plugin_slow_import" not in sys.modules
    assert [p.name for p in host.plugins] == ["toy"] and host.failures == [] and host.slow == []
    assert [p.name for p in host.disabled] == ["ring_package", "slow_import"]
    monkeypatch.setattr(manager, "_host", host)
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "disabled by HLAVOLAMY_DISABLE_PLUGINS (not imported):\n  ring_package\n" in out and "  slow_import\n" in out


def test_disabled_names_are_split_on_commas_and_spaces(monkeypatch):
    monkeypatch.setenv(manager.DISABLE_VARIABLE, " a,b  c,, ")
    assert manager.disabled_names() == {"a", "b", "c"}
    monkeypatch.delenv(manager.DISABLE_VARIABLE)
    assert manager.disabled_names() == frozenset()

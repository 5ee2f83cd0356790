"""The disk cache of solver tables: round trips, shared entries, and every bad file read as a miss."""

from __future__ import annotations

import io
import os
import pickle
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hlavolamy.analysis import commutators, memo
from hlavolamy.cli import main
from hlavolamy.core import diskcache
from hlavolamy.core.perm import from_cycles
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.solve import solve
from hlavolamy.solve.macros import decompose
from hlavolamy.solve.tables import chain as chain_module

KEY = "0123abcd"


def two_cycles(colours: list[str] | None = None) -> Puzzle:
    """Two 6-cycles meeting in two cells: one group of 10 cells with a real conjugate table, built in seconds."""
    n = 10
    moves = {"a": from_cycles(n, [[0, 1, 2, 3, 4, 5]]), "b": from_cycles(n, [[4, 5, 6, 7, 8, 9]])}
    return Puzzle(colours or [str(i) for i in range(n)], moves)


def positions(puzzle: Puzzle) -> list[State]:
    return [scrambled(puzzle, 30, seed) for seed in range(3)]


def solutions(puzzle: Puzzle) -> list[list[Turn]]:
    return [solve(puzzle, s, strategy=strategy).moves for s in positions(puzzle) for strategy in ("commutators", "chain")]


def forget_in_process(patch: pytest.MonkeyPatch) -> None:
    """What a new process starts with: no table in memory (the disk is left alone)."""
    patch.setattr(memo, "_shared", OrderedDict())
    patch.setattr(commutators, "_BY_MOVES", {})
    patch.setattr(decompose, "_BY_MOVES", {})


def refuse_building(patch: pytest.MonkeyPatch) -> None:
    """Make every table builder fail, so a solve can only succeed with tables from the disk."""
    def fail(*args, **kwargs):
        raise AssertionError("a table was rebuilt instead of loaded from the disk cache")

    patch.setattr(chain_module, "_build_chain", fail)
    patch.setattr(decompose, "build_table", fail)
    patch.setattr(commutators, "_Pool", fail)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[list[Turn]]]]:
    """A cache directory holding the two-cycles puzzle's tables, and the solutions found while building them."""
    folder = tmp_path_factory.mktemp("built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HLAVOLAMY_CACHE_DIR", str(folder))
        forget_in_process(patch)
        puzzle = two_cycles()
        chain_module.build_chain(puzzle, improve=2e8)
        yield folder, solutions(puzzle)


@pytest.fixture
def fresh(built: tuple[Path, list[list[Turn]]], monkeypatch: pytest.MonkeyPatch) -> list[list[Turn]]:
    """A "new process" on the built cache directory; returns the solutions of the building one."""
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(built[0]))
    forget_in_process(monkeypatch)
    refuse_building(monkeypatch)
    return built[1]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(folder))
    monkeypatch.delenv("HLAVOLAMY_CACHE_MAX_MB", raising=False)
    return folder


# -- solver tables ----------------------------------------------------------------------------------

def test_tables_loaded_from_disk_give_identical_solutions(fresh):
    puzzle = two_cycles()
    assert solutions(puzzle) == fresh
    assert chain_module.build_chain(puzzle).puzzle is puzzle


def test_puzzles_with_the_same_moves_and_other_colours_share_the_tables(fresh, built):
    recoloured = two_cycles(["x"] * 5 + ["y"] * 5)
    position = scrambled(recoloured, 30, 7)
    by_colours = solve(recoloured, position.colour_ids(), strategy="commutators")
    assert list(position.apply(by_colours.moves).colour_ids()) == list(recoloured.colour_ids)
    assert position.apply(solve(recoloured, position, strategy="chain").moves).is_solved()
    assert len(list(built[0].glob("solve.plan-*"))) == 1


def test_macro_library_round_trips(fresh):
    puzzle = two_cycles()
    library = commutators.small_support_macros(puzzle, complete=True)
    assert library and all(isinstance(m, commutators.Macro) and isinstance(m.turns[0], Turn) for m in library)
    assert commutators.small_support_macros(two_cycles()) == library


# -- bad files --------------------------------------------------------------------------------------

def stored_file(folder: Path, name: str = "table") -> Path:
    return folder / f"{name}-{KEY}{diskcache.SUFFIX}"


def test_value_round_trips_with_its_dtypes(cache):
    value = {"turns": [Turn("R", 1), Turn("U", -2)], "big": np.arange(5000, dtype=np.int64) - 7,
             "small": np.array([3, 1, 2], dtype=np.intp)}
    diskcache.save(KEY, "table", value, label="a puzzle")
    back = diskcache.load(KEY, "table", [Turn], dict)
    assert back["turns"] == value["turns"] and isinstance(back["turns"][0], Turn)
    for k in ("big", "small"):
        assert back[k].dtype == value[k].dtype and np.array_equal(back[k], value[k])
    [entry] = diskcache.entries()
    assert entry.name == "table" and entry.label == "a puzzle" and entry.current


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(st.sampled_from([np.int16, np.int32, np.int64, np.uint32]), st.integers(0, 3000)))
def test_integer_arrays_come_back_with_their_values_and_dtype(tmp_path_factory, array):
    folder = tmp_path_factory.mktemp("arrays")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HLAVOLAMY_CACHE_DIR", str(folder))
        diskcache.save(KEY, "array", [array])
        [back] = diskcache.load(KEY, "array", [], list)
    assert back.dtype == array.dtype and np.array_equal(back, array)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_a_corrupt_file_is_ignored_and_rebuilt(cache, damage):
    puzzle = two_cycles()
    calls = []

    def compute() -> list[int]:
        calls.append(1)
        return [1, 2, 3]

    assert memo.on_disk(puzzle, "table", compute, allowed=[], expect=list) == [1, 2, 3]
    [path] = cache.glob("table-*")
    data = path.read_bytes()
    path.write_bytes({"truncate": data[:-5], "flip": data[:-3] + bytes([data[-3] ^ 0xFF]) + data[-2:],
                      "garbage": b"\x00not a cache file"}[damage])
    assert memo.from_disk(puzzle, "table", allowed=[], expect=list) is None
    assert memo.on_disk(puzzle, "table", compute, allowed=[], expect=list) == [1, 2, 3]
    assert len(calls) == 2
    assert memo.from_disk(puzzle, "table", allowed=[], expect=list) == [1, 2, 3]


def test_a_file_of_another_version_is_ignored(cache, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(diskcache, "version_tag", lambda: "0-old-code")
        diskcache.save(KEY, "table", [1])
        assert diskcache.load(KEY, "table", [], list) == [1]
    assert diskcache.load(KEY, "table", [], list) is None
    assert not diskcache.entries()[0].current


def test_forgetting_hides_earlier_entries_from_this_process_only(cache, monkeypatch):
    monkeypatch.setattr(diskcache, "_written_after", diskcache._written_after)
    diskcache.save(KEY, "table", [1])
    memo.forget_shared()
    assert diskcache.load(KEY, "table", [], list) is None
    assert stored_file(cache).is_file()
    diskcache.save(KEY, "table", [2])
    assert diskcache.load(KEY, "table", [], list) == [2]


def test_an_unexpected_type_is_a_miss(cache):
    diskcache.save(KEY, "table", {"not": "a list"})
    assert diskcache.load(KEY, "table", [], list) is None


class _RunsACommand:
    """What an attacker would plant: unpickling it calls os.system."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_malicious_pickle_is_refused(cache, tmp_path):
    marker = tmp_path / "pwned"
    diskcache.save(KEY, "table", [_RunsACommand(marker)])
    assert stored_file(cache).is_file()
    assert diskcache.load(KEY, "table", [Turn], list) is None
    assert not marker.exists()
    payload = pickle.dumps(_RunsACommand(marker))
    with pytest.raises(pickle.UnpicklingError, match="refusing to load"):
        diskcache.SafeUnpickler(io.BytesIO(payload), [Turn]).load()
    assert not marker.exists()


def test_a_class_the_caller_did_not_allow_is_refused(cache):
    diskcache.save(KEY, "table", [Turn("R", 1)])
    assert diskcache.load(KEY, "table", [], list) is None
    assert diskcache.load(KEY, "table", [Turn], list) == [Turn("R", 1)]


# -- location, limits, writers ---------------------------------------------------------------------------

def test_disabled_cache_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    calls = []
    value = memo.on_disk(two_cycles(), "table", lambda: calls.append(1) or [7], allowed=[], expect=list)
    memo.on_disk(two_cycles(), "table", lambda: calls.append(1) or [7], allowed=[], expect=list)
    assert value == [7] and len(calls) == 2
    assert diskcache.cache_dir() is None and diskcache.entries() == [] and diskcache.clear() == 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG locations are for other systems")
def test_default_location_is_the_xdg_user_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("HLAVOLAMY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_dir() == tmp_path / "hlavolamy"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert diskcache.cache_dir() == tmp_path / ".cache" / "hlavolamy"


def test_size_limit_drops_the_least_recently_used(cache, monkeypatch):
    wide = np.arange(40_000, dtype=np.int64) << 33  # 320 kB: values too large to store narrower
    for i, name in enumerate(["old", "used", "new"]):
        diskcache.save(KEY, name, wide)
        os.utime(stored_file(cache, name), (1000.0 + i, 1000.0 + i))
    assert diskcache.load(KEY, "old", [], np.ndarray) is not None  # a hit makes "old" the most recent
    monkeypatch.setenv("HLAVOLAMY_CACHE_MAX_MB", "0.7")
    diskcache.save(KEY, "newest", wide)
    assert sorted(e.name for e in diskcache.entries()) == ["newest", "old"]


def test_concurrent_writers_leave_one_whole_file(cache):
    value = list(range(20_000))
    errors: list[object] = []

    def write() -> None:
        for _ in range(15):
            diskcache.save(KEY, "table", value)

    def read() -> None:
        for _ in range(60):
            found = diskcache.load(KEY, "table", [], list)
            if found is not None and found != value:
                errors.append(found)

    threads = [threading.Thread(target=f) for f in (write, write, read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert diskcache.load(KEY, "table", [], list) == value
    assert [p.name for p in cache.iterdir()] == [stored_file(cache).name]


def test_cli_lists_and_clears_the_cache(cache, capsys):
    diskcache.save(KEY, "solve.plan", [1], label="two cycles")
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert str(cache) in out and "solve.plan" in out and "two cycles" in out and "1 tables" in out
    assert main(["cache", "--clear"]) == 0
    assert "removed 1 tables" in capsys.readouterr().out
    assert diskcache.entries() == []


def test_cli_says_when_the_cache_is_off(monkeypatch, capsys):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", "off")
    assert main(["cache", "--info"]) == 0
    assert "off" in capsys.readouterr().out


def test_cli_builds_tables_ahead(cache, tmp_path, capsys):
    from hlavolamy.core.fileformat import save_puzzle
    from hlavolamy.core.puzzle import Puzzle

    cycle = [1, 2, 3, 4, 5, 6, 7, 0] + list(range(8, 12))
    swap = [0, 1, 2, 3, 4, 5, 7, 6, 9, 8, 11, 10]  # odd on 6..11, so the group is not tiny
    turn = [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 6, 7]
    path = tmp_path / "p.json"
    save_puzzle(path, Puzzle([str(i) for i in range(12)], {"a": cycle, "b": swap, "c": turn}))
    assert main(["cache", "--build", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: solved in ") and "tables written" in out
    assert any(e.current for e in diskcache.entries())


# -- a cache folder that cannot be used ------------------------------------------------------------

def test_a_cache_dir_that_is_a_file_is_reported_by_the_cli_and_warned_once_by_solves(tmp_path, monkeypatch, capsys,
                                                                                     caplog):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(blocker / "sub"))
    monkeypatch.setattr(diskcache, "_warned", set())
    assert main(["cache"]) == 2
    out = capsys.readouterr().out
    assert f"unusable: {blocker} is not a folder" in out and "HLAVOLAMY_CACHE_DIR" in out
    with caplog.at_level("WARNING", logger=diskcache.__name__):
        diskcache.save(KEY, "solve.plan", [1])
        diskcache.save(KEY, "solve.other", [2])
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "is not a folder" in warnings[0] and "rebuilt by every run" in warnings[0]
    assert diskcache.load(KEY, "solve.plan", (), list) is None  # solves carry on without it


def test_a_cache_dir_that_cannot_be_written_is_reported(cache, monkeypatch, capsys):
    cache.mkdir()

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(diskcache.tempfile, "mkstemp", refuse)
    assert diskcache.unusable() == f"{cache} cannot be written: Permission denied"
    assert main(["cache"]) == 2
    assert "unusable" in capsys.readouterr().out


@pytest.mark.skipif(not Path("/proc/1").is_dir(), reason="needs Linux's /proc")
def test_proc_as_the_cache_dir_is_unusable(monkeypatch):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", "/proc/1")
    assert diskcache.unusable() is not None


def test_a_usable_cache_dir_is_not_created_by_asking(cache):
    assert diskcache.unusable() is None and not cache.exists()


def test_an_edit_anywhere_in_the_solver_makes_the_tables_stale(tmp_path):
    """The solver lives in subfolders (strategies/, tables/, ...): their sources count for the tag too."""
    for package in diskcache._SOURCE_PACKAGES:
        (tmp_path / package).mkdir(parents=True)
        (tmp_path / package / "a.py").write_text("x = 1\n")
    deep = tmp_path / "solve" / "tables" / "pdb.py"
    deep.parent.mkdir()
    deep.write_text("y = 1\n")
    before = diskcache.version_tag(tmp_path)
    assert diskcache.version_tag(tmp_path) == before
    deep.write_text("y = 2\n")
    diskcache.version_tag.cache_clear()  # computed once per process: the code does not change under a run
    assert diskcache.version_tag(tmp_path) != before

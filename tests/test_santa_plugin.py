"""The santa plugin's globes and wreaths: moves equal to the benchmark's tables, recognition of imports."""

from __future__ import annotations

import ast
import csv
import functools
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from hlavolamy.cli import main
from hlavolamy.core import perm as P
from hlavolamy.core.fileformat import PuzzleFile, load_puzzle
from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.manager import PluginHost, attach_geometry
from hlavolamy.plugins.recognise import move_correspondence
from tests.conftest import REPO, SANTA

HOST = PluginHost([REPO / "plugins"], entry_points=False)
GLOBE = HOST.geometry("globe")
WREATH = HOST.geometry("wreath")
needs_santa = pytest.mark.skipif(not (SANTA / "puzzle_info.csv").exists(), reason="shared Santa 2023 data absent")


@functools.cache
def santa_rows() -> dict[str, str]:
    """Puzzle type -> its ``allowed_moves`` text (parsed only when asked: the big cubes take seconds)."""
    csv.field_size_limit(sys.maxsize)
    with open(SANTA / "puzzle_info.csv", newline="") as handle:
        return {row["puzzle_type"]: row["allowed_moves"] for row in csv.DictReader(handle)}


def santa_table(kind: str) -> dict[str, list[int]]:
    return ast.literal_eval(santa_rows()[kind])


@pytest.fixture(scope="module")
def small_info(tmp_path_factory) -> Path:
    """A ``puzzle_info.csv`` of the types the import tests use (the whole file takes seconds to read)."""
    path = tmp_path_factory.mktemp("santa") / "puzzle_info.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["puzzle_type", "allowed_moves"])
        writer.writerows((kind, santa_rows()[kind]) for kind in ("cube_3/3/3", "wreath_6/6", "globe_3/4"))
    return path


@needs_santa
@pytest.mark.parametrize("a, b", [(1, 8), (2, 6), (3, 4), (6, 4), (6, 10), (3, 33), (8, 25)])
def test_globe_moves_are_the_benchmarks_name_for_name(a, b):
    ours = GLOBE.moves({"rows": a + 1, "columns": 2 * b})
    assert ours == santa_table(f"globe_{a}/{b}")  # same names, same order, same permutations


@needs_santa
@pytest.mark.parametrize("size", [6, 7, 12, 21, 33, 100])
def test_wreath_moves_are_the_benchmarks_name_for_name(size):
    assert WREATH.moves({"size": size}) == santa_table(f"wreath_{size}/{size}")


def test_globe_moves_have_the_shape_of_a_globe():
    puzzle = GLOBE.build(rows=5, columns=6)
    assert puzzle.name == "globe_4/3" and puzzle.n_cells == 30 and list(puzzle.moves)[:5] == ["r0", "r1", "r2", "r3", "r4"]
    for i in range(5):
        assert puzzle.move_order(f"r{i}") == 6
        assert sorted(P.support(puzzle.moves[f"r{i}"]).tolist()) == list(range(6 * i, 6 * i + 6))
    for j in range(6):
        flip = puzzle.moves[f"f{j}"]
        assert P.order(flip) == 2
        assert not set(P.support(flip).tolist()) & set(range(12, 18))  # the equator row never flips
    # opposite half-globes: f0 and f3 flip complementary halves, together every cell off the equator
    halves = [set(P.support(puzzle.moves[f]).tolist()) for f in ("f0", "f3")]
    assert not halves[0] & halves[1] and halves[0] | halves[1] == set(range(30)) - set(range(12, 18))


def test_wreath_rings_share_two_cells():
    puzzle = WREATH.build(size=12)
    left, right = (set(P.support(puzzle.moves[m]).tolist()) for m in "lr")
    assert len(left) == len(right) == 12 and left & right == {0, 3} and puzzle.n_cells == 22
    assert puzzle.colours.count("C") == 2 and puzzle.colours[0] == puzzle.colours[3] == "C"


@pytest.mark.parametrize("data, message", [
    ({"rows": 3, "columns": 7}, "must be even"),
    ({"rows": 1, "columns": 8}, "outside 2..100"),
    ({"rows": "3", "columns": 8}, "must be an integer"),
    ({"columns": 8}, "rows must be an integer"),
])
def test_globe_data_errors_name_the_value(data, message):
    with pytest.raises(ValueError, match=message):
        GLOBE.load_data(data)


def test_wreath_data_errors_name_the_value():
    with pytest.raises(ValueError, match="size 3 is outside"):
        WREATH.load_data({"size": 3})
    with pytest.raises(ValueError, match="parameter 'size'"):
        WREATH.build(size=2)


def test_new_globe_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "globe.json"
    assert main(["new", "globe", "--rows", "3", "--columns", "4", "-o", str(out)]) == 0
    puzzle = load_puzzle(out).puzzle
    assert puzzle.plugin == PluginRecord("globe", {"rows": 3, "columns": 4})
    assert puzzle.n_cells == 12 and list(puzzle.moves) == ["r0", "r1", "r2", "f0", "f1", "f2", "f3"]


SANTA_TYPES = [f"cube_{n}/{n}/{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10)] + [
    pytest.param(f"cube_{n}/{n}/{n}", marks=pytest.mark.slow) for n in (19, 33)] + [
    f"wreath_{n}/{n}" for n in (6, 7, 12, 21, 33, 100)] + [
    f"globe_{s}" for s in ("1/8", "1/16", "2/6", "3/4", "6/4", "6/8", "6/10", "3/33", "8/25")]


@needs_santa
def test_the_list_holds_every_santa_type():
    assert len(SANTA_TYPES) == len(santa_rows()) == 26


@needs_santa
@pytest.mark.parametrize("kind", SANTA_TYPES)
def test_every_santa_type_is_recognised(kind):
    moves = santa_table(kind)
    puzzle = Puzzle(["0"] * len(next(iter(moves.values()))), moves, name=kind)
    record = HOST.recognise(puzzle)
    family, shape = kind.split("_")
    assert record is not None and record.name == {"cube": "cubes"}.get(family, family)
    sizes = [int(v) for v in shape.split("/")]
    expected = {"cube": {"size": sizes[0], "centre_slices": True}, "wreath": {"size": sizes[0]},
                "globe": {"rows": sizes[0] + 1, "columns": 2 * sizes[-1]}}[family]
    assert dict(record.data) == expected


def test_recognition_checks_the_permutations_not_just_the_counts():
    puzzle = WREATH.build(size=8)
    scrambled = Puzzle(puzzle.colours, {"l": puzzle.moves["l"], "r": P.inverse(puzzle.moves["l"])})
    assert HOST.recognise(scrambled) is None  # 14 cells and two moves, but not two rings
    renamed = Puzzle(puzzle.colours, {"a": P.inverse(puzzle.moves["l"]), "b": puzzle.moves["r"]})
    assert HOST.recognise(renamed) == PluginRecord("wreath", {"size": 8})
    assert move_correspondence(WREATH.moves({"size": 8}), renamed) == {"l": ("a", -1), "r": ("b", 1)}


def test_a_broken_recogniser_is_passed_over(tmp_path, caplog):
    (tmp_path / "aaa_broken.py").write_text(
        "from hlavolamy.plugins.hookspecs import hookimpl\n"
        "@hookimpl\ndef hlavolamy_recognise(puzzle):\n    raise RuntimeError('boom')\n"
    )
    host = PluginHost([tmp_path, REPO / "plugins"], entry_points=False)
    assert host.failures == []
    assert host.recognise(WREATH.build(size=6)) == PluginRecord("wreath", {"size": 6})
    assert "boom" in caplog.text


def test_a_plugin_may_only_propose_its_own_geometries(tmp_path):
    (tmp_path / "aaa_thief.py").write_text(
        "from hlavolamy.core.puzzle import PluginRecord\n"
        "from hlavolamy.plugins.hookspecs import hookimpl\n"
        "@hookimpl\ndef hlavolamy_recognise(puzzle):\n    return PluginRecord('wreath', {'size': 6})\n"
    )
    only_thief = PluginHost([tmp_path], entry_points=False)
    assert only_thief.recognise(WREATH.build(size=6)) is None  # no such geometry here
    both = PluginHost([tmp_path, REPO / "plugins"], entry_points=False)
    assert both.recognise(WREATH.build(size=6)) == PluginRecord("wreath", {"size": 6})  # the santa plugin's answer
    assert both.recognise(GLOBE.build(rows=2, columns=4)) == PluginRecord("globe", {"rows": 2, "columns": 4})


def test_a_recognised_puzzle_borrows_the_geometrys_colours():
    cube = HOST.geometry("cubes").build(size=2)
    letters = dict(zip("UFRBLD", "ABCDEF"))
    santa_like = Puzzle([letters[c] for c in cube.colours], cube.moves)  # Santa's cube_2/2/2 colours A .. F
    attached = attach_geometry(PuzzleFile(santa_like), HOST).puzzle
    assert attached.palette == {letters[face]: colour for face, colour in cube.palette.items()}
    own = Puzzle(santa_like.colours, cube.moves, palette={"A": "#123456"})
    assert attach_geometry(PuzzleFile(own), HOST).puzzle.palette["A"] == "#123456"  # its own colour stays
    wreath = WREATH.build(size=6)
    one_colour = Puzzle(["x"] * wreath.n_cells, wreath.moves)
    attached = attach_geometry(PuzzleFile(one_colour), HOST).puzzle
    assert attached.plugin.name == "wreath" and attached.palette == {}  # x covers A, B and C: nothing to borrow


def test_a_puzzle_with_a_record_keeps_it():
    puzzle = GLOBE.build(rows=2, columns=4)
    loaded = PuzzleFile(puzzle)
    assert attach_geometry(loaded, HOST) is loaded


@needs_santa
@pytest.mark.parametrize("case, geometry", [("284", "wreath"), ("358", "globe"), ("30", "cubes")])
def test_import_santa_attaches_the_plugin_record(tmp_path, capsys, small_info, case, geometry):
    out = tmp_path / "case.json"
    code = main(["import", "santa", str(SANTA / "puzzles.csv"), "--id", case, "--info", str(small_info),
                 "-o", str(out)])
    assert code == 0 and f"drawn as {geometry}" in capsys.readouterr().out
    loaded = load_puzzle(out)
    assert loaded.puzzle.plugin is not None and loaded.puzzle.plugin.name == geometry
    assert json.loads(out.read_text())["santa"]["id"] == case  # the case's record is kept beside it
    assert not loaded.state.is_solved()
    assert np.array_equal(np.sort(loaded.state.perm), np.arange(loaded.puzzle.n_cells))

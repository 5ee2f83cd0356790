"""``hlavolamy bench latency``: its rows, "held", --json and --compare (fake rows: no solve, no timing)."""

from __future__ import annotations

import json

import pytest

from hlavolamy import cli
from hlavolamy.cli import bench
from hlavolamy.cli.bench import compare_runs, finished, held
from hlavolamy.errors import HlavolamyError
from hlavolamy.plugins.manager import get_plugin_host
from tests.conftest import PUZZLES


def row(puzzle: str, moves: str | None, *, cut: bool = False, by: str = "exact") -> dict:
    """A latency row as ``--json`` writes it, with only what the comparison reads filled in."""
    return {"puzzle": puzzle, "by": by, "moves": moves, "cut": cut, "error": None if moves else "no answer"}


def test_rows_compared_only_where_both_runs_finished_within_the_limit():
    idle = [row("a", "R U"), row("b", "R"), row("c", "U", cut=True), row("d", None), row("e", "F"), row("old", "L")]
    busy = [row("a", "R U"), row("b", "R'"), row("c", "U"), row("d", "D"), row("e", "F", by="colours"),
            row("new", "B")]
    comparison = compare_runs(idle, busy)
    assert comparison.identical == ("a",) and comparison.differing == ("b",)
    assert comparison.unfinished == ("c", "d")  # cut by the limit in one run, or no answer in one
    assert comparison.summary() == "moves identical in 1 of 2 rows finished within the limit in both"
    assert compare_runs([], busy).summary() == "moves identical in 0 of 0 rows finished within the limit in both"


def test_finished_means_an_answer_the_limit_did_not_cut():
    assert finished(row("a", "R")) and not finished(row("a", "R", cut=True)) and not finished(row("a", None))


@pytest.mark.parametrize(("seconds", "limit", "hogs", "expected"), [
    (11.0, 10, 0, True), (11.01, 10, 0, False),  # idle: the limit + 1 s
    (12.0, 10, 4, True), (12.01, 10, 4, False),  # beside hogs: the limit + 20 %
    (2.5, 2, 4, False), (2.4, 2, 4, True),
])
def test_held_is_the_limit_plus_a_second_idle_or_twenty_percent_beside_hogs(seconds, limit, hogs, expected):
    assert held(seconds, limit, hogs) is expected


def test_every_shipped_puzzle_polyhedra_preset_and_cube_2_to_7_is_a_row():
    names = [name for name, _, _ in bench.latency_puzzles(PUZZLES)]
    presets = next(p for p in get_plugin_host().geometry("polyhedra").parameters if p.name == "preset").choices
    expected = ([p.stem for p in sorted(PUZZLES.glob("*.json"))] + [f"{p} (polyhedra)" for p in presets]
                + [f"cube{n} (cubes)" for n in range(2, 8)])
    assert names == expected


def fake_run(monkeypatch, moves: dict[str, str | None]) -> None:
    """``bench latency`` over rows named by ``moves``, each "solved" at once with those moves (None: no answer)."""
    monkeypatch.setattr(bench, "latency_puzzles", lambda folder: [(name, None, False) for name in moves])

    def solved(name, puzzle, by_colours, folder, args):
        base = {**row(name, moves[name]), "cells": 4, "wall": 0.5, "cpu": 0.4, "held": True}
        if moves[name] is None:
            return base
        return {**base, "length": len(moves[name].split()), "first_length": 9, "first_time": 0.1, "first_cpu": 0.1,
                "time": 0.3, "strategy": "fake"}

    monkeypatch.setattr(bench, "_latency_row", solved)


def test_json_keeps_the_rows_and_compare_reports_the_moves(tmp_path, monkeypatch, capsys):
    first = tmp_path / "idle.json"
    fake_run(monkeypatch, {"a": "R U", "b": "R", "c": None})
    assert cli.main(["bench", "latency", "--json", str(first), "--hogs", "0"]) == 0
    kept = json.loads(first.read_text(encoding="utf-8"))
    assert [(r["puzzle"], r["moves"], r["held"]) for r in kept["rows"]] == [("a", "R U", True), ("b", "R", True),
                                                                            ("c", None, True)]
    assert (kept["limit"], kept["hogs"], kept["scramble"], kept["seed"]) == (10.0, 0, 200, 1)
    capsys.readouterr()
    fake_run(monkeypatch, {"a": "R U", "b": "R'", "c": "U"})
    assert cli.main(["bench", "latency", "--compare", str(first)]) == 0
    out = capsys.readouterr().out
    assert f"  other moves than in {first}: b\n" in out
    assert "not compared (cut by the limit or no answer in a run): c\n" in out
    assert out.endswith("moves identical in 1 of 2 rows finished within the limit in both\n")


def test_compare_refuses_another_position_or_a_file_that_is_no_run(tmp_path, monkeypatch):
    fake_run(monkeypatch, {"a": "R"})
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"scramble": 30, "seed": 1, "rows": []}), encoding="utf-8")
    with pytest.raises(HlavolamyError, match="other positions"):
        bench.bench_latency(cli.build_parser("bench").parse_args(["bench", "latency", "--compare", str(other)]))
    other.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(HlavolamyError, match="not a 'bench latency --json' file"):
        bench.read_run(other)
    with pytest.raises(HlavolamyError, match="cannot read"):
        bench.read_run(tmp_path / "missing.json")


def test_only_keeps_the_rows_named_with_or_without_their_plugin_and_refuses_a_name_matching_none():
    rows = [("rubik3", None, False), ("cube 4x4x4 (cubes)", None, True), ("megaminx", None, False)]
    assert bench._only(rows, None) == rows
    assert [r[0] for r in bench._only(rows, "megaminx,cube")] == ["cube 4x4x4 (cubes)", "megaminx"]
    with pytest.raises(HlavolamyError, match=r"--only: no row named 'rubik33'.*rows: cube 4x4x4 \(cubes\), megaminx"):
        bench._only(rows, "rubik3,rubik33")

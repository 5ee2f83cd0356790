"""``hlavolamy info``, ``check`` and ``bench analysis``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hlavolamy.cli import main
from hlavolamy.cli.bench import TARGETS

REPO = Path(__file__).resolve().parents[1]
RUBIK2 = str(REPO / "puzzles" / "rubik2.json")
RUBIK3 = str(REPO / "puzzles" / "rubik3.json")


def test_info_json_has_the_stable_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", RUBIK3, "--json", "--no-three-cycles"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("cells", "moves", "orbits", "blocks", "order", "order_exact", "invariants", "pieces", "dependent"):
        assert key in data
    assert data["cells"] == 54
    assert data["order"] == "43252003274489856000" and data["order_exact"] is True
    assert sorted(len(o) for o in data["orbits"]) == [24, 24]
    assert sorted(len(system[0]) for system in data["blocks"]) == [2, 3]
    assert {m["name"]: m["cycle_type"] for m in data["moves"]}["U"] == {"4": 5}
    assert data["invariants"]["reachable_combinations"] == 2


def test_info_text_report_with_three_cycles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["info", RUBIK2]) == 0
    out = capsys.readouterr().out
    assert "orbit 0: 24 cells" in out and "blocks: 8 of 3 cells" in out
    assert "twist sum of piece orbit 0 (8 pieces of 3 cells) is always 0 (mod 3)" in out
    assert "Group order: 88179840 (exact" in out
    assert "3-cycle library:" in out


def test_check_state_reachable_and_unreachable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["check", RUBIK3, "--state", json.dumps(list(range(54)))]) == 0
    assert capsys.readouterr().out.startswith("reachable")
    perm = list(range(54))
    perm[0], perm[2] = perm[2], perm[0]
    (tmp_path / "s.json").write_text(json.dumps(perm))
    assert main(["check", RUBIK3, "--state", f"@{tmp_path / 's.json'}", "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["reachable"] is False and verdict["exact"] is True and verdict["reasons"]


def test_check_colours(capsys: pytest.CaptureFixture[str]) -> None:
    from hlavolamy.analysis.blocks import pieces
    from hlavolamy.core.fileformat import load_puzzle
    from hlavolamy.core.state import State

    p = load_puzzle(RUBIK3).puzzle
    colours = State.solved(p).apply("R U F'").colours()
    assert main(["check", RUBIK3, "--colours", json.dumps(colours), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reachable"] and State(p, out["perm"]).colours() == colours
    a, b = pieces(p).piece_orbits[0].cells[0][:2]  # two stickers of one corner: a mirrored corner
    colours[a], colours[b] = colours[b], colours[a]
    assert main(["check", RUBIK3, "--colours", json.dumps(colours)]) == 1
    assert "no piece has these colours" in capsys.readouterr().out


def test_check_bad_input_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", RUBIK3, "--state", "[0, 1]"]) == 2
    assert "check: error" in capsys.readouterr().err


def test_bench_analysis_on_a_small_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "rubik2.json").write_text(Path(RUBIK2).read_text())
    assert "analysis" in TARGETS
    assert main(["bench", "analysis", "--puzzles", str(tmp_path), "--size", "3", "--no-three-cycles"]) == 0
    out = capsys.readouterr().out
    assert "rubik2" in out and "cube3 (plugin)" in out and "43252003274489856000 (exact)" in out


def test_info_on_a_blocking_puzzle_adds_the_blocking_analysis(capsys):
    from tests.conftest import PUZZLES

    assert main(["info", str(PUZZLES / "rashkey-fused.json"), "--no-three-cycles", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    blocking = data["blocking"]
    assert blocking["fused_sets"] == [[10, 11]]
    assert "B" not in blocking["legal_at_solved"] and "A" in blocking["legal_at_solved"]


def test_cached_analysis_never_computes(tiny_puzzle):
    from hlavolamy.analysis import analyse, cached_analysis

    assert cached_analysis(tiny_puzzle) is None
    done = analyse(tiny_puzzle, three_cycles=False)
    assert cached_analysis(tiny_puzzle) is done


def test_bench_solve_rows_for_shipped_and_plugin_made_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "solve", "--only", "rubik2,skewb", "--positions", "2"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["rubik2"][1] == "exact" and rows["rubik2"][2] == "2/2"
    assert rows["skewb"][2] == "colours" and rows["skewb"][3] == "2/2"  # "skewb (polyhedra)" made by the plugin


def test_bench_solve_gives_a_folder_by_colours(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "rubik2.json").write_text(Path(RUBIK2).read_text())
    args = ["bench", "solve", "--puzzles", str(tmp_path), "--no-generated", "--positions", "2"]
    assert main(args + ["--by-colours"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [row[:3] for row in rows] == [["rubik2", "colours", "2/2"]]


def test_bench_solve_refuses_no_positions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "solve", "--positions", "0"]) == 2
    assert "--positions" in capsys.readouterr().err


def test_bench_phases_lengths_of_replayed_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "phases", "--only", "rubik2", "--positions", "2", "--scramble", "30",
                 "--more-nodes", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in out[:2]] == [["position", "0"], ["position", "1"]]
    assert out[-1].startswith("rubik2: 2 positions, mean ")
    lengths = [int(line.split()[2]) for line in out[:2]]
    assert 0 < max(lengths) <= 20  # a 2x2x2 in two phases: never near the 30 scrambling turns' worst


def test_bench_phases_names_a_missing_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "phases", "--only", "no-such-puzzle"]) == 2
    assert "no-such-puzzle" in capsys.readouterr().err


def test_bench_work_measures_the_beams_units_per_nanosecond(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from hlavolamy.cli import bench

    monkeypatch.setattr(bench, "WORK_UNITS", 5e7)  # a few levels: the rate, not the answer, is measured
    assert main(["bench", "work", "--only", "rashkey,hungarian-rings,rubik2"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in out[1:-1]}
    assert set(rows) == {"rashkey", "hungarian-rings", "rubik2"}
    assert all(float(row[2]) > 0 for row in rows.values())
    assert out[-1].startswith("beam: 3 puzzles, units per CPU ns ")


def test_bench_work_names_a_position_the_ball_answers_instead_of_dividing_by_nothing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from hlavolamy.cli import bench

    monkeypatch.setattr(bench, "_beam_spent", lambda problem, units: 0)  # found in the ball at once: no level
    assert main(["bench", "work", "--only", "rubik2"]) == 0
    out = capsys.readouterr().out
    assert "answered by the ball" in out and "beam:" not in out

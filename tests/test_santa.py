"""Santa 2023 format (read puzzle_info.csv / puzzles.csv, write submissions) and the ``santa`` command."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hlavolamy.cli import main
from hlavolamy.core.turns import Turn
from hlavolamy.errors import FileFormatError
from hlavolamy.formats import santa
from tests.conftest import SANTA

RING = [1, 2, 3, 4, 0, 5]
SWAP = [0, 1, 2, 3, 5, 4]
CYCLE = [0, 1, 2, 4, 5, 3]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    info = tmp_path / "puzzle_info.csv"
    info.write_text(
        "puzzle_type,allowed_moves\n"
        f"\"toy_6\",\"{{'r': {RING}, 's': {SWAP}, 'c': {CYCLE}}}\"\n"
    )
    cases = tmp_path / "puzzles.csv"
    cases.write_text(
        "id,puzzle_type,solution_state,initial_state,num_wildcards\n"
        "0,toy_6,A;B;C;D;E;F,B;C;D;E;A;F,0\n"
        "1,toy_6,A;A;B;B;C;C,B;A;A;B;C;C,0\n"
        "2,toy_6,A;B;C;D;E;F,A;B;C;D;F;E,2\n"
    )
    return info, cases


def test_read_info_and_cases(files):
    info, cases = files
    types = santa.read_puzzle_info(info)
    assert list(types) == ["toy_6"]
    assert list(types["toy_6"].moves) == ["r", "s", "c"]
    read = santa.read_puzzles(cases)
    assert [c.id for c in read] == ["0", "1", "2"]
    assert read[1].solution == ("A", "A", "B", "B", "C", "C") and read[2].wildcards == 2
    puzzle = santa.case_puzzle(types, read[1])
    assert puzzle.colour_labels == ("A", "B", "C")


def test_format_moves_writes_single_steps_and_inverses(files):
    puzzle = santa.read_puzzle_info(files[0])["toy_6"]
    assert santa.format_moves(puzzle, [Turn("r", 2), Turn("s", -1), Turn("r", -1), Turn("r", 4)]) == "r.r.s.-r.-r"


def test_bad_files_are_named(tmp_path):
    bad = tmp_path / "info.csv"
    bad.write_text("puzzle_type,allowed_moves\nx,\"{'a': [0, 0]}\"\n")
    with pytest.raises(FileFormatError, match="line 2"):
        santa.read_puzzle_info(bad)
    wrong = tmp_path / "p.csv"
    wrong.write_text("id,puzzle_type\n1,x\n")
    with pytest.raises(FileFormatError, match="missing column"):
        santa.read_puzzles(wrong)


def test_santa_command_writes_a_verified_submission(files, tmp_path, capsys):
    info, cases = files
    out = tmp_path / "submission.csv"
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    assert [r["id"] for r in rows] == ["0", "1", "2"]
    types = santa.read_puzzle_info(info)
    for row, case in zip(rows, santa.read_puzzles(cases)):
        puzzle = types[case.puzzle_type]
        state = np.array(case.initial)
        for step in filter(None, row["moves"].split(".")):
            move = puzzle.moves[step.lstrip("-")]
            state = state[np.argsort(move)] if step.startswith("-") else state[move]
        assert int((state != np.array(case.solution)).sum()) <= case.wildcards
    assert "total: 3 of 3 solved" in capsys.readouterr().out
    scorer = SANTA / "score.py"
    if scorer.exists():
        done = subprocess.run([sys.executable, str(scorer), str(out), "--puzzles", str(cases), "--info", str(info),
                               "--reference", str(tmp_path / "none.csv")], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_santa_on_worker_processes_writes_the_same_cases(files, tmp_path):
    info, cases = files
    out = tmp_path / "submission.csv"
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--jobs", "2"]) == 0
    assert list(santa.read_submission(out)) == ["0", "1", "2"]


def test_a_case_showing_a_colour_its_goal_lacks_fails_alone(files, tmp_path, capsys):
    info, cases = files
    with cases.open("a") as f:
        f.write("3,toy_6,A;B;C;D;E;F,A;B;C;D;E;Z,0\n")
    out = tmp_path / "submission.csv"
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out)]) == 1
    assert "Z" in capsys.readouterr().err
    assert list(santa.read_submission(out)) == ["0", "1", "2"]


@pytest.mark.slow
@pytest.mark.skipif(not (SANTA / "puzzles.csv").exists(), reason="Santa benchmark data not present")
def test_real_benchmark_subset(tmp_path):
    out = tmp_path / "sub.csv"
    code = main(["santa", "--info", str(SANTA / "puzzle_info.csv"), "--puzzles", str(SANTA / "puzzles.csv"),
                 "--out", str(out), "--ids", "284,285,304"])
    assert code == 0
    assert len(list(csv.DictReader(out.open()))) == 3


def test_resume_keeps_answers_that_replay_and_solves_the_rest(files, tmp_path, capsys):
    info, cases = files
    out = tmp_path / "submission.csv"
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out)]) == 0
    rows = dict(santa.read_submission(out))
    rows["1"] = "r"  # a wrong answer: must be solved again
    del rows["2"]  # a missing one: solved
    santa.write_submission(out, rows.items())
    capsys.readouterr()
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--resume"]) == 0
    err = capsys.readouterr().err
    assert "case 1 " in err and "case 2 " in err and "case 0 " not in err  # one log line per case solved now
    again = santa.read_submission(out)
    assert again["0"] == rows["0"] and again["1"] != "r" and set(again) == {"0", "1", "2"}


def test_a_malformed_earlier_submission_is_named(files, tmp_path):
    info, cases = files
    out = tmp_path / "submission.csv"
    out.write_text("id,moves\n0,r,extra\n")
    with pytest.raises(FileFormatError, match="line 2"):
        santa.read_submission(out)
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--resume"]) == 2


def test_tasks_put_big_types_first_and_whole():
    from hlavolamy.batch.model import Job, PuzzleSource
    from hlavolamy.batch.plan import BIG_CELLS, CHUNK, tasks
    from hlavolamy.core.puzzle import Puzzle

    small = PuzzleSource(Puzzle(list("AB"), {"s": [1, 0]}))
    moves = {"b": [1, 0] + list(range(2, BIG_CELLS + 2))}
    big = [PuzzleSource(Puzzle(["A", "B"] * (BIG_CELLS // 2 + 1), moves)),
           PuzzleSource(Puzzle(["A"] * (BIG_CELLS + 2), moves))]  # two colourings of one big type
    entries = [(small if k % 2 else big[k % 4 // 2], Job(str(k), np.arange(2), True)) for k in range(4 * CHUNK)]
    made = tasks(entries)
    assert [s.puzzle.n_cells for s, _ in made[0].entries] == [BIG_CELLS + 2] * (2 * CHUNK)
    assert all(len(t.entries) <= CHUNK and t.entries[0][0] is small for t in made[1:])
    assert sorted(j.id for t in made for _, j in t.entries) == sorted(j.id for _, j in entries)


def test_santa_command_refuses_an_unknown_type_before_solving(files, tmp_path, capsys):
    info, _ = files
    cases = tmp_path / "cases.csv"
    cases.write_text("id,puzzle_type,solution_state,initial_state,num_wildcards\n0,nope,A;B,B;A,0\n")
    code = main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(tmp_path / "s.csv")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.count("\n") == 0
    assert "line 2: case '0': unknown puzzle type 'nope'" in err and str(cases) in err


def test_ids_take_ranges_and_an_unknown_id_or_type_is_an_error(files, tmp_path, capsys):
    info, cases = files
    out = tmp_path / "submission.csv"
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--ids", "0-1"]) == 0
    assert list(santa.read_submission(out)) == ["0", "1"]
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--ids", "1,7"]) != 0
    assert "--ids: no case has 7" in capsys.readouterr().err
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--ids", "2-x"]) != 0
    assert "'2-x' is not a range" in capsys.readouterr().err
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--types", "toy_7"]) != 0
    assert "--types: no case has toy_7" in capsys.readouterr().err

"""``hlavolamy batch`` with the engines that need nothing extra: input lines, results, resume, the writer's check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from hlavolamy.batch import jsonl, work
from hlavolamy.batch.collect import Collector, Progress
from hlavolamy.batch.model import Job, PuzzleSource, Result, Task
from hlavolamy.batch.work import kept_puzzle, solve_task
from hlavolamy.cli import main
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.turns import Turn
from tests.batch_helpers import colour_labels_after, replayed, write_positions
from tests.conftest import PUZZLES

RUBIK2 = str(PUZZLES / "rubik2.json")
TINY = {"format": "hlavolamy", "version": 1, "cells": 4, "colours": ["A", "A", "B", "B"],
        "moves": {"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]}}


def test_every_bad_line_is_its_own_error_naming_the_line(tmp_path):
    source = tmp_path / "in.jsonl"
    lines = [
        {"id": "ok", "puzzle": RUBIK2, "scramble": 3},
        "not json",
        [1, 2],
        {"puzzle": str(tmp_path / "missing.json"), "scramble": 3},
        {"puzzle": RUBIK2, "state": [1, 0]},
        {"puzzle": RUBIK2, "scramble": 3, "colour": 1},
        {"id": "ok", "puzzle": RUBIK2, "scramble": 4},
        {"puzzle": RUBIK2, "colours": ["nope"] * 24},
        {"puzzle": RUBIK2, "scramble": 3, "strategy": "bogus"},
        {"puzzle": RUBIK2, "scramble": 3, "time_limit": -1},
        {"puzzle": RUBIK2},
        {"puzzle": RUBIK2, "state": list(range(24)), "scramble": 2},
        {"puzzle": RUBIK2, "seed": 3, "state": list(range(24))},
        {"puzzle": TINY, "colours": ["B", "A", "A", "B"], "wildcards": True},
    ]
    source.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n\n")
    batch = jsonl.read_batch(source, jsonl.Defaults(strategies=("auto", "optimal")))
    assert [job.id for _, job in batch.entries] == ["ok"]
    reasons = {line: reason for line, (_, reason) in batch.errors.items()}
    assert sorted(reasons) == list(range(2, len(lines) + 1))
    for line, fragment in {2: "invalid JSON at column 1", 3: "expected a JSON object", 4: "cannot read",
                           5: "has 2 entries", 6: "unknown key 'colour'", 7: "id 'ok' is already used on line 1",
                           8: "'nope' (cell 0) is not a colour", 9: "unknown strategy 'bogus'", 10: "time_limit",
                           11: "exactly one of", 12: "not state and scramble", 13: "\"seed\" goes with",
                           14: "wildcards"}.items():
        assert reasons[line].startswith(f"line {line}: ") and fragment in reasons[line], reasons[line]


def test_a_batch_is_answered_line_by_line_and_verified(tmp_path, capsys):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 6, ("rubik2.json", "four-disks.json"))
    extra = [{"id": "colours", "puzzle": RUBIK2, "colours": colour_labels_after(RUBIK2, "R U F'")},
             {"id": "inline", "puzzle": TINY, "state": [1, 0, 2, 3], "strategy": "search"},
             {"id": "bad", "puzzle": RUBIK2, "state": [1, 0] + list(range(2, 24))}]
    with source.open("a") as f:
        f.write("".join(json.dumps(line) + "\n" for line in extra))
    assert main(["batch", str(source), "-o", str(out)]) == 1  # one position is unreachable
    rows = replayed(inputs, out)
    assert [r["line"] for r in rows.values()] == list(range(1, 10))
    assert all("moves" in rows[line["id"]] for line in inputs)
    assert rows["inline"]["moves"] == "L" and rows["inline"]["strategy"] == "search"
    assert "moves" in rows["colours"] and "first_answer_time" in rows["colours"]
    assert "unreachable" in rows["bad"]["error"]
    assert "8 of 9 positions solved" in capsys.readouterr().err


def test_resume_keeps_lines_that_replay_and_solves_the_rest(tmp_path, capsys):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 5, ("rubik2.json",))
    assert main(["batch", str(source), "-o", str(out)]) == 0
    rows = out.read_text().splitlines()
    wrong = json.loads(rows[1]) | {"moves": "R"}  # an answer that does not solve: solved again
    out.write_text("\n".join([rows[0], json.dumps(wrong), "{truncated", rows[3]]) + "\n")  # p2 and p4 missing
    capsys.readouterr()
    assert main(["batch", str(source), "-o", str(out), "--resume"]) == 0
    again = out.read_text().splitlines()
    assert again[0] == rows[0] and again[3] == rows[3]  # kept as they were, time included
    assert json.loads(again[1])["moves"] != "R"
    assert set(replayed(inputs, out)) == {line["id"] for line in inputs}
    assert "5 of 5 positions solved" in capsys.readouterr().err


def test_the_pool_engine_answers_every_position(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 10, ("rubik2.json", "four-disks.json"))
    assert main(["batch", str(source), "-o", str(out), "--jobs", "2"]) == 0
    rows = replayed(inputs, out)
    assert set(rows) == {line["id"] for line in inputs} and all("moves" in r for r in rows.values())


def test_the_writer_refuses_an_answer_that_does_not_replay():
    puzzle = load_puzzle(RUBIK2).puzzle
    job = Job("x", np.asarray(puzzle.move("R")), True)
    written: list[dict[str, Result]] = []
    seen: list[Progress] = []
    collector = Collector({"x": (puzzle, job)}, [], lambda found: written.append(dict(found)),
                          on_result=lambda result, progress: seen.append(progress), write_every=0.0)
    collector.add(Result("x", (Turn("U", 1),), 1, 0.1, "forged"))
    assert "failed verification by replay on the writer" in written[-1]["x"].error
    collector.add(Result("x", (Turn("R", -1),), 1, 0.1, "honest"))
    assert written[-1]["x"].ok and seen[-1].done == 1 == seen[-1].total


def test_a_worker_keeps_each_puzzle_and_its_tables_between_tasks(monkeypatch):
    monkeypatch.setattr(work, "_kept", type(work._kept)())  # this process may keep a rubik2 from another test
    puzzle = load_puzzle(RUBIK2).puzzle
    first, second = PuzzleSource(puzzle), PuzzleSource(load_puzzle(RUBIK2).puzzle)
    assert first.key == second.key
    job = Job("a", np.asarray(puzzle.move("F")), True)
    assert solve_task(Task([(first, job)]))[0].ok
    assert kept_puzzle(second) is puzzle and puzzle.keeps_tables  # the tables built for the first task are reused
    shipped = PuzzleSource.__new__(PuzzleSource)
    shipped.__setstate__(first.__getstate__())
    assert shipped.key == first.key and not shipped.puzzle.keeps_tables  # tables never travel with a task


def test_race_records_belong_to_a_task_so_answers_do_not_depend_on_the_worker(monkeypatch):
    """A task's jobs share one RaceRecords; another task (on this worker or any other) starts afresh, whatever
    the worker solved before: one worker-wide record made Santa's cube_4 answers depend on the scheduling."""
    import hlavolamy.solve as solve_module
    from hlavolamy.solve.registry import RaceRecords

    seen: list[RaceRecords] = []
    real = solve_module.solve

    def spy(*args, records=None, **kwargs):
        seen.append(records)
        records.of_beam("moves")["lost"] += 1  # what a lost race leaves behind
        return real(*args, records=records, **kwargs)

    monkeypatch.setattr(solve_module, "solve", spy)
    puzzle = load_puzzle(RUBIK2).puzzle
    source = PuzzleSource(puzzle)
    jobs = [Job(name, np.asarray(puzzle.move(name)), True) for name in ("F", "R", "U")]
    assert all(r.ok for r in solve_task(Task([(source, jobs[0]), (source, jobs[1])])))
    assert all(r.ok for r in solve_task(Task([(source, jobs[2])])))
    assert seen[0] is seen[1] and seen[2] is not seen[0]
    assert seen[1].of_beam("moves")["lost"] == 2  # the task's second job saw the first's
    assert seen[2].of_beam("moves")["lost"] == 1  # a new task saw nothing earlier


def test_a_task_from_other_code_is_refused():
    puzzle = load_puzzle(RUBIK2).puzzle
    result = solve_task(Task([(PuzzleSource(puzzle), Job("a", np.asarray(puzzle.move("F")), True))], code="other"))
    assert not result[0].ok and "other hlavolamy code" in result[0].error


def test_cluster_options_without_dask_say_how_to_install_it(tmp_path, monkeypatch, capsys):
    source = tmp_path / "in.jsonl"
    write_positions(source, 1)
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    assert main(["batch", str(source), "-o", str(tmp_path / "out.jsonl"), "--cluster", "local:2"]) == 2
    err = capsys.readouterr().err
    assert "need Dask distributed" in err and "pip install 'hlavolamy[cluster]'" in err
    assert not (tmp_path / "out.jsonl").exists()


def test_bad_engine_options_are_refused(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    write_positions(source, 1)
    assert main(["batch", str(source), "-o", str(tmp_path / "o"), "--cluster", "remote"]) == 2
    assert "local or local:N" in capsys.readouterr().err
    assert main(["batch", str(source), "-o", str(tmp_path / "o"), "--jobs", "0"]) == 2
    with pytest.raises(SystemExit):
        main(["batch", str(source), "-o", str(tmp_path / "o"), "--jobs", "2", "--cluster", "local"])
    assert not Path(tmp_path / "o").exists()

"""The apply and scramble commands and the shared CLI helpers, through ``hlavolamy.cli.main``."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from helpers import MINIMAL_FILE, bandaged_puzzle, ring_puzzle, write_json

from hlavolamy.cli import main
from hlavolamy.cli.common import parse_colours_json, parse_state_json, print_state
from hlavolamy.core.fileformat import load_puzzle, save_puzzle
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import FileFormatError


@pytest.fixture
def minimal_file(tmp_path):
    return str(write_json(tmp_path / "min.json", MINIMAL_FILE))


@pytest.fixture
def ring_file(tmp_path):
    path = tmp_path / "ring.json"
    save_puzzle(path, ring_puzzle())
    return str(path)


def run_json(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_apply_prints_state_as_text(capsys, minimal_file):
    assert main(["apply", minimal_file, "R L'"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "sequence: R L'" in out  # printed as typed, though L' is L on an order-2 move
    assert "perm: 2 0 3 1" in out
    assert "colours: B A B A" in out
    assert "cycles: (0 2 3 1)" in out
    assert any(line.startswith("solved: no (4 of 4 cells moved); colours solved: no") for line in out)


def test_apply_json_is_machine_readable(capsys, ring_file):
    data = run_json(capsys, "apply", ring_file, "[L, R]2", "--json")
    assert data["perm"] == list(range(8)) and data["solved"] is True and data["colour_solved"] is True
    assert data["turns"] == 8 and data["sequence"] == "L R L' R' L R L' R'"
    assert data["colours"] == ["W", "W", "Y", "Y", "R", "R", "G", "G"]


def test_apply_accepts_aliases_and_santa_dots(capsys, ring_file):
    by_alias = run_json(capsys, "apply", ring_file, "LR.M", "--json")
    by_moves = run_json(capsys, "apply", ring_file, "L R M", "--json")
    assert by_alias["perm"] == by_moves["perm"] and by_alias["sequence"] == "L R M"


def test_apply_chains_through_from_state(capsys, ring_file, tmp_path):
    first = run_json(capsys, "apply", ring_file, "L R'", "--json")
    (tmp_path / "s.json").write_text(json.dumps(first))
    second = run_json(capsys, "apply", ring_file, "R L'", "--from-state", f"@{tmp_path / 's.json'}", "--json")
    assert second["solved"] is True
    inline = run_json(capsys, "apply", ring_file, "R L'", "--from-state", json.dumps(first["perm"]), "--json")
    assert inline["perm"] == second["perm"]


def test_apply_errors_are_one_line_with_exit_code_2(capsys, minimal_file, tmp_path):
    cases = [
        (["apply", minimal_file, "R Q"], "unknown move 'Q'"),
        (["apply", minimal_file, "(R"], "never closed at column 1"),
        (["apply", minimal_file, "R", "--from-state", "[0, 1]"], "has 2 entries, expected 4"),
        (["apply", minimal_file, "R", "--from-state", "[0, 1"], "the state argument: invalid JSON"),
        (["apply", str(tmp_path / "nope.json"), "R"], "cannot read the file"),
        (["apply", str(write_json(tmp_path / "bad.json", {"format": "hlavolamy", "version": 1, "cells": 4})), "R"],
         "missing key 'colours'"),
    ]
    for argv, message in cases:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("hlavolamy apply: error: ") and message in err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_apply_reports_a_blocked_move(capsys, tmp_path):
    path = tmp_path / "band.json"
    save_puzzle(path, bandaged_puzzle())
    assert main(["apply", str(path), "L X X L' X"]) == 2
    assert "move 'X' is blocked here" in capsys.readouterr().err


def test_apply_reads_the_puzzle_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(MINIMAL_FILE)))
    assert run_json(capsys, "apply", "-", "R", "--json")["perm"] == [0, 2, 3, 1]


def test_scramble_is_reproducible_and_matches_its_state(capsys, ring_file):
    a = run_json(capsys, "scramble", ring_file, "--moves", "25", "--seed", "7", "--json")
    b = run_json(capsys, "scramble", ring_file, "--moves", "25", "--seed", "7", "--json")
    assert a == b and a["seed"] == 7 and a["turns"] == 25
    replay = run_json(capsys, "apply", ring_file, a["scramble"], "--json")
    assert replay["perm"] == a["perm"]


def test_scramble_without_seed_prints_the_seed_it_used(capsys, ring_file):
    first = run_json(capsys, "scramble", ring_file, "--moves", "10", "--json")
    again = run_json(capsys, "scramble", ring_file, "--moves", "10", "--seed", str(first["seed"]), "--json")
    assert again["scramble"] == first["scramble"]


def test_scramble_text_output(capsys, minimal_file):
    assert main(["scramble", minimal_file, "--moves", "6", "--seed", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("scramble: ") and len(out[0].split()) == 7
    assert out[1:4] == ["seed: 1", "turns: 6", out[3]] and out[3].startswith("length: ")
    assert any(line.startswith("perm: ") for line in out)


def test_scramble_saves_position_and_history(capsys, ring_file, tmp_path):
    out = tmp_path / "scrambled.json"
    data = run_json(capsys, "scramble", ring_file, "--moves", "12", "--seed", "3", "-o", str(out), "--json")
    pf = load_puzzle(out)
    assert pf.state.perm.tolist() == data["perm"]
    assert pf.puzzle.format(pf.history) == data["scramble"]


def test_scramble_of_a_bandaged_puzzle_is_playable(capsys, tmp_path):
    path = tmp_path / "band.json"
    save_puzzle(path, bandaged_puzzle())
    for seed in range(5):
        data = run_json(capsys, "scramble", str(path), "--moves", "12", "--seed", str(seed), "--json")
        assert run_json(capsys, "apply", str(path), data["scramble"], "--json")["perm"] == data["perm"]


def test_scramble_errors(capsys, tmp_path):
    one = write_json(tmp_path / "one.json", {**MINIMAL_FILE, "moves": {"S": [1, 0, 2, 3]}})
    assert main(["scramble", str(one), "--moves", "3", "--seed", "1"]) == 2
    assert "cannot scramble 3 moves" in capsys.readouterr().err


# -- shared helpers -----------------------------------------------------------------
def test_parse_state_json_forms(tmp_path):
    p = ring_puzzle()
    perm = State.solved(p).apply("L").perm.tolist()
    assert parse_state_json(json.dumps(perm), p).perm.tolist() == perm
    assert parse_state_json(json.dumps({"perm": perm}), p).perm.tolist() == perm
    saved = tmp_path / "saved.json"
    save_puzzle(saved, p, State(p, perm))
    assert parse_state_json(f"@{saved}", p).perm.tolist() == perm
    with pytest.raises(FileFormatError, match="a state is a list of cell indices"):
        parse_state_json('"L R"', p)
    with pytest.raises(FileFormatError, match=r"the state argument, /perm: state: value 0 appears"):
        parse_state_json(json.dumps({"perm": [0] * 8}), p)
    with pytest.raises(FileFormatError, match="cannot read the state"):
        parse_state_json(f"@{tmp_path / 'missing.json'}", p)


def test_parse_colours_json(tmp_path):
    p = ring_puzzle()
    labels = ["Y", "W", "W", "Y", "R", "G", "R", "G"]
    ids = parse_colours_json(json.dumps(labels), p)
    assert [p.colour_labels[i] for i in ids] == labels
    (tmp_path / "c.json").write_text(json.dumps({"colours": labels}))
    assert np.array_equal(parse_colours_json(f"@{tmp_path / 'c.json'}", p), ids)
    with pytest.raises(FileFormatError, match=r"/3: 'Blue' is not a colour of the puzzle \('W', 'Y', 'R', 'G'\)"):
        parse_colours_json(json.dumps(labels[:3] + ["Blue"] + labels[4:]), p)
    with pytest.raises(FileFormatError, match="has 2 labels; the puzzle has 8 cells"):
        parse_colours_json('["W", "W"]', p)
    with pytest.raises(FileFormatError, match="a colouring is a list of colour labels"):
        parse_colours_json('{"perm": []}', p)


def test_print_state_quotes_labels_that_are_not_plain_words():
    p = Puzzle(["dark red", "blue"], {"s": [1, 0]})
    out = io.StringIO()
    print_state(State.solved(p), file=out, extra={"note": "x"})
    lines = out.getvalue().splitlines()
    assert lines[0] == "note: x"
    assert 'colours: ["dark red", "blue"]' in lines

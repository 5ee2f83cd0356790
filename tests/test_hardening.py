"""Regression tests of issue 13: each bad input found by fuzzing is one clear line (exit 2), in bounded time.

Plugins that fail at work are in ``tests/test_plugins.py``; the fuzz tests
themselves in ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from helpers import MINIMAL_FILE, ring_puzzle, write_json

from hlavolamy import cli
from hlavolamy.core import diskcache, fileformat
from hlavolamy.core.fileformat import load_puzzle, loads_puzzle, puzzle_from_dict, save_puzzle
from hlavolamy.core.limits import MAX_JSON_DEPTH, MAX_NESTING, MAX_TURNS, int_within, json_too_deep
from hlavolamy.core.perm import as_perm
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble
from hlavolamy.errors import Cancelled, FileFormatError, NotationError, PermutationError

REPO = Path(__file__).resolve().parents[1]
RUBIK3 = str(REPO / "puzzles" / "rubik3.json")


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(capsys, *argv: str) -> str:
    """Run a command that must fail cleanly: exit 2 and exactly one ``hlavolamy CMD: error:`` line."""
    code, _, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"hlavolamy {argv[0]}: error: ")
    return err


# -- 2. huge integers ---------------------------------------------------------------------
def test_limits_helpers():
    assert int_within("000123", 200) == 123 and int_within("201", 200) is None
    assert int_within("9" * 5000, MAX_TURNS) is None and int_within("٣", 9) is None
    assert json_too_deep('["[[[[", [[1]]]', 3) is None  # brackets inside a string do not nest
    assert json_too_deep("[[[[1]]]]", 3) == 3


@pytest.mark.parametrize("entry", ["99999999999999999999", "9" * 5000])
def test_a_huge_integer_in_a_state_is_one_line(capsys, entry):
    err = one_error_line(capsys, "check", RUBIK3, "--state", f"[{entry}, 1, 2]")
    assert f"has {len(entry)} digits; at most 18 are allowed" in err and "line 1, column 2" in err


def test_as_perm_names_integers_beyond_64_bits():
    with pytest.raises(PermutationError, match="entry 1 is 99999999999999999999, out of range 0..1"):
        as_perm([0, 99999999999999999999])
    with pytest.raises(PermutationError, match="entry 0 is an integer of 16610 bits"):
        as_perm([10**5000, 0])


def test_a_huge_integer_in_a_puzzle_file_or_notation_is_refused(tmp_path):
    text = json.dumps(MINIMAL_FILE).replace('"cells": 4', '"cells": ' + "4" * 5000)
    with pytest.raises(FileFormatError, match="has 5000 digits"):
        loads_puzzle(text, "big.json")
    with pytest.raises(FileFormatError, match="/moves/L/0: 100000000000000000000 is out of range"):
        puzzle_from_dict({**MINIMAL_FILE, "moves": {"L": [10**20, 0, 1, 2]}})  # the API, past JSON
    with pytest.raises(NotationError, match=r"bad power 11111111\.\.\. \(5000 digits\)"):
        ring_puzzle().parse("L" + "1" * 5000)


# -- 3. deep nesting ----------------------------------------------------------------------------
def test_deeply_nested_notation_is_one_line(capsys):
    err = one_error_line(capsys, "apply", RUBIK3, "(" * 1000 + "R" + ")" * 1000)
    assert f"brackets nested more than {MAX_NESTING} deep at column {MAX_NESTING + 1}" in err
    assert len(err) < 300  # the text is shown as an excerpt
    code, out, _ = run_cli(capsys, "apply", RUBIK3, "(" * MAX_NESTING + "R" + ")" * MAX_NESTING)
    assert code == 0 and out.startswith("sequence: R\n")


@pytest.mark.parametrize("key, value, where", [
    ("history", "(" * 500 + "L" + ")" * 500, "/history"),
    ("aliases", {"W": "[L, " * 500 + "R" + "]" * 500}, "/aliases/W"),
])
def test_a_puzzle_file_nesting_notation_deep_is_refused(tmp_path, key, value, where):
    path = write_json(tmp_path / "deep.json", {**MINIMAL_FILE, key: value})
    with pytest.raises(FileFormatError, match="brackets nested more than 100 deep") as info:
        load_puzzle(path)
    assert info.value.pointer == where


@pytest.mark.parametrize("command", [["info"], ["gui", "--screenshot", "x.png"]])
def test_json_nested_100000_deep_is_one_line(tmp_path, capsys, monkeypatch, command):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    monkeypatch.chdir(tmp_path)
    err = one_error_line(capsys, command[0], str(path), *command[1:])
    assert f"line 1, column {MAX_JSON_DEPTH + 1}: lists and objects nested more than {MAX_JSON_DEPTH} deep" in err


# -- 4. sizes -------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["scramble", RUBIK3, "--moves", "1000001"],
    ["solve", RUBIK3, "--scramble", "100000000"],
    ["scramble", RUBIK3, "--moves", "-1"],
])
def test_scrambles_over_the_limit_are_refused_at_once(capsys, argv):
    assert "a scramble has 0 to 1000000 moves" in one_error_line(capsys, *argv)


def test_a_scramble_stops_when_its_time_is_up(tiny_puzzle):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        random_scramble(ring_puzzle(), 5000, 1, cancel=token)
    assert len(random_scramble(ring_puzzle(), 5000, 1, cancel=CancelToken())) == 5000


# -- 5. temporary files of saves ------------------------------------------------------------------
def _age(path: Path, seconds: float) -> Path:
    then = time.time() - seconds
    os.utime(path, (then, then))
    return path


def test_a_save_removes_stale_temporaries_of_killed_saves_only(tmp_path):
    dead = 2**22 + 12345  # above the default pid_max: no such process
    stale = [tmp_path / f".p.json.{dead}.abcd_123.tmp", tmp_path / ".p.json.k2j4h5g6.tmp",
             tmp_path / ".q.json.k2j4h5g6.tmp"]
    kept = [tmp_path / f".p.json.{os.getpid()}.abcdefgh.tmp", tmp_path / ".p.json.k2j4h5g7.tmp",
            tmp_path / ".notes.tmp", tmp_path / "p.json.1.abcdefgh.tmp"]
    for path in stale + kept:
        path.write_text("partial")
    _age(stale[1], 3600)
    _age(stale[2], 120)
    _age(kept[2], 3600)  # not our naming, however old
    save_puzzle(tmp_path / "p.json", ring_puzzle())
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["p.json"] + [p.name for p in kept])


def test_saving_onto_a_folder_names_the_folder_and_leaves_nothing(tmp_path, capsys):
    target = tmp_path / "out"
    target.mkdir()
    err = one_error_line(capsys, "scramble", RUBIK3, "-o", str(target))
    assert err == f"hlavolamy scramble: error: {target}: is a folder; give the name of the file to write\n"
    err = one_error_line(capsys, "scramble", RUBIK3, "-o", str(tmp_path / "no" / "x.json"))
    assert "does not exist" in err and ".tmp" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and not any(target.iterdir())


# -- 7. smaller ones -----------------------------------------------------------------------------------
def test_a_lone_surrogate_is_refused_at_load_naming_the_place(tmp_path):
    text = json.dumps({**MINIMAL_FILE, "colours": ["A", "\ud800", "B", "B"]})  # written as the escape \ud800
    with pytest.raises(FileFormatError, match="lone surrogate") as info:
        loads_puzzle(text, "s.json")
    assert info.value.pointer == "/colours/1"
    with pytest.raises(FileFormatError) as info:
        loads_puzzle(json.dumps({**MINIMAL_FILE, "x-notes": {"\udc80": 1}}), "s.json")
    assert info.value.pointer == "/x-notes/\udc80"
    loads_puzzle(json.dumps({**MINIMAL_FILE, "name": "\U0001f9e9"}), "emoji.json")  # a whole pair is fine


@pytest.mark.parametrize("state, where", [("[0.0, 1, 2]", "/0"), ('{"perm": [0, true, 2]}', "/perm/1"),
                                          ("[1e400]", "the number 1e400 is too large")])
def test_a_state_of_floats_or_booleans_is_refused(capsys, state, where):
    assert where in one_error_line(capsys, "apply", RUBIK3, "R", "--from-state", state)


@pytest.mark.parametrize("argv, message", [
    (["check", RUBIK3, "--colours", "[]", "--wildcards", "-1"], "--wildcards must be 0 or more, not -1"),
    (["solve", RUBIK3, "--scramble", "3", "--time-limit", "nan"], "--time-limit must be a positive number"),
    (["solve", RUBIK3, "--scramble", "3", "--time-limit", "inf"], "--time-limit must be a positive number"),
    (["solve", RUBIK3, "--scramble", "3", "--wildcards", "-2"], "--wildcards must be 0 or more, not -2"),
])
def test_negative_wildcards_and_non_finite_time_limits_are_refused(capsys, argv, message):
    assert message in one_error_line(capsys, *argv)


def test_cache_command_survives_bad_environment_and_bad_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("HLAVOLAMY_CACHE_MAX_MB", "inf")
    (tmp_path / "deep-1.pickle").write_bytes(b"hlavolamy-cache\n" + b"[" * 4000 + b"\n")
    (tmp_path / "odd-2.pickle").write_bytes(b"hlavolamy-cache\n" + b'{"label": "\\ud800 x"}\n')
    (tmp_path / "folder-3.pickle").mkdir()
    (tmp_path / "folder-3.pickle" / "inside").write_text("x")
    code, out, err = run_cli(capsys, "cache")
    assert code == 0 and "2 tables" in out and "limit 1024.0 MiB" in out
    assert "HLAVOLAMY_CACHE_MAX_MB='inf' is not a number of megabytes" in err
    assert "folder-3.pickle is not a cache file" in err


def test_a_folder_in_place_of_a_cache_entry_is_replaced_or_reported(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(tmp_path))
    (tmp_path / "t-empty.pickle").mkdir()
    diskcache.save("empty", "t", [1, 2])
    assert diskcache.load("empty", "t", (), list) == [1, 2]
    (tmp_path / "t-full.pickle" / "inside").mkdir(parents=True)
    diskcache.save("full", "t", [1, 2])
    assert "t-full.pickle is a folder, not a cache entry" in caplog.text
    assert diskcache.intruders() == [tmp_path / "t-full.pickle"]


def test_apply_takes_a_leading_dash_move_without_double_dash(capsys):
    code, out, _ = run_cli(capsys, "apply", RUBIK3, "-R", "--json")
    assert code == 0 and json.loads(out)["sequence"] == "R'"
    code, out, _ = run_cli(capsys, "apply", "--json", RUBIK3, "-(R U)")
    assert code == 0 and json.loads(out)["sequence"] == "U' R'"
    code, out, _ = run_cli(capsys, "apply", RUBIK3, "--", "-R")
    assert code == 0 and out.startswith("sequence: R'\n")
    assert "unknown move 'X'" in one_error_line(capsys, "apply", RUBIK3, "-X")


def test_remove_stale_temporaries_ignores_a_missing_folder(tmp_path):
    assert fileformat.remove_stale_temporaries(tmp_path / "nowhere") == 0


def test_a_move_commuting_with_everything_costs_no_walk_through_the_scramble():
    """The separate swap M of the ring commutes with L and R: once turned it may never come back, and
    checking that no longer walks the whole scramble (was quadratic: 2,000 turns took a second)."""
    turns = random_scramble(ring_puzzle(), 20_000, 3)
    assert [t.move for t in turns].count("M") == 1
    assert all(a.move != b.move for a, b in zip(turns, turns[1:]))


def test_import_onto_a_folder_names_the_folder_not_a_temporary_file(tmp_path, capsys):
    source = tmp_path / "rubik2.kpuzzle.json"
    assert run_cli(capsys, "export", "kpuzzle", str(REPO / "puzzles" / "rubik2.json"), "-o", str(source))[0] == 0
    target = tmp_path / "out"
    target.mkdir()
    err = one_error_line(capsys, "import", "kpuzzle", str(source), "-o", str(target))
    assert err == f"hlavolamy import: error: {target}: is a folder; give the name of the file to write\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "rubik2.kpuzzle.json"]


def test_an_error_naming_a_key_with_control_characters_stays_one_line(tmp_path, capsys):
    """Found by the long fuzz run: a JSON pointer holding a vertical tab broke the error line."""
    path = write_json(tmp_path / "p.json", {**MINIMAL_FILE, "aliases": {"a\x0bb\u2028": ["L"]}})
    err = one_error_line(capsys, "info", str(path))
    assert "/aliases/a\\x0bb\\u2028: an alias is notation text, not a list" in err
    assert len(err.splitlines()) == 1


def test_a_power_on_a_bandaged_puzzle_is_checked_once_and_played_whole():
    """``L^1000000`` was a million legality checks; a move keeps its turned part, so one check decides."""
    from helpers import bandaged_puzzle

    from hlavolamy.core.state import State
    from hlavolamy.errors import IllegalMoveError

    puzzle = bandaged_puzzle()
    solved = State.solved(puzzle)
    assert solved.apply("L^1000000") == solved.apply("L")  # 1000000 = 1 (mod 3)
    with pytest.raises(IllegalMoveError, match="move 'X' is blocked"):
        solved.apply("X^999999")
    assert solved.apply("L X^999999") == solved.apply("L X")

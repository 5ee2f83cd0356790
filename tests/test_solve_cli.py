"""``hlavolamy solve``: scrambles, exact states and colourings from the command line."""

from __future__ import annotations

import json

from hlavolamy.cli import main
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.state import State
from tests.conftest import PUZZLES

RUBIK2 = str(PUZZLES / "rubik2.json")


def test_solve_scramble_json(capsys):
    assert main(["solve", RUBIK2, "--scramble", "12", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    puzzle = load_puzzle(RUBIK2).puzzle
    state = State(puzzle, out["start"]["perm"])
    assert state.apply(out["moves"]).is_solved()
    assert out["length"] == puzzle.length(puzzle.parse(out["moves"]))


def test_solve_state_text(capsys):
    puzzle = load_puzzle(RUBIK2).puzzle
    names = list(puzzle.moves)
    state = State.solved(puzzle).apply(f"{names[0]} {names[1]}")
    assert main(["solve", RUBIK2, "--state", json.dumps(state.perm.tolist())]) == 0
    text = capsys.readouterr().out
    assert "solution:" in text and "length:" in text


def test_solve_colours(capsys):
    puzzle = load_puzzle(RUBIK2).puzzle
    state = State.solved(puzzle).apply(list(puzzle.moves)[0])
    assert main(["solve", RUBIK2, "--colours", json.dumps(state.colours()), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert state.apply(out["moves"]).is_colour_solved()


def test_unreachable_state_is_an_error(capsys):
    puzzle = load_puzzle(RUBIK2).puzzle
    perm = list(range(puzzle.n_cells))
    perm[0], perm[1] = perm[1], perm[0]
    assert main(["solve", RUBIK2, "--state", json.dumps(perm)]) == 2
    assert "unreachable" in capsys.readouterr().err


def test_unknown_strategy_is_refused(capsys):
    try:
        main(["solve", RUBIK2, "--scramble", "3", "--strategy", "magic"])
    except SystemExit as exc:
        assert exc.code == 2

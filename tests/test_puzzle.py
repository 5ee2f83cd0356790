"""Puzzle: construction checks, derived data, sequences and their costs."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import minimal_puzzle, ring_puzzle

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, expand, invert, reduce_power
from hlavolamy.errors import PermutationError, PuzzleError

SWAP = [1, 0, 2, 3]


def test_minimal_puzzle_basics():
    p = minimal_puzzle()
    assert p.n_cells == 4
    assert list(p.moves) == ["L", "R"]
    assert p.move_order("L") == 2 and p.move_order("R") == 3
    assert p.colour_labels == ("A", "B")
    assert p.colour_ids.tolist() == [0, 0, 1, 1]
    assert "4 cells, 2 moves" in repr(p)


def test_colour_labels_keep_first_appearance_order_and_any_string():
    p = Puzzle(colours=["zelená", "", "#1", "zelená"], moves={"a": [3, 1, 2, 0]})
    assert p.colour_labels == ("zelená", "", "#1")
    assert p.colour_ids.tolist() == [0, 1, 2, 0]


def test_perm_of_plays_left_to_right():
    p = ring_puzzle()
    turns = [Turn("L"), Turn("R", -1), Turn("M", 2)]
    expected = P.compose(p.move("L"), P.inverse(p.move("R")), P.power(p.move("M"), 2))
    assert np.array_equal(p.perm_of(turns), expected)
    assert P.is_identity(p.perm_of([]))


def test_parse_expands_aliases_and_format_avoids_alias_names():
    p = ring_puzzle()
    assert p.parse("LR R2 R3") == [Turn("L"), Turn("R"), Turn("R"), Turn("R"), Turn("R", 3)]
    # "R2" is an alias here, so R squared must print as R^2 to read back the same.
    assert p.format([Turn("R", 2), Turn("R", -2), Turn("L", 2)]) == "R^2 R^-2 L2"
    assert p.parse(p.format([Turn("R", 2), Turn("R", -2)])) == [Turn("R", 2), Turn("R", -2)]


def test_turn_cost_and_length_use_the_shortest_direction():
    p = ring_puzzle()
    assert [p.turn_cost(Turn("L", k)) for k in (1, 2, 3, -1, -3, 4, 5)] == [1, 2, 1, 1, 1, 0, 1]
    assert p.length(p.parse("L2 R' M3")) == 4


def test_turn_helpers():
    turns = [Turn("R", 2), Turn("U", -1)]
    assert invert(turns) == [Turn("U", 1), Turn("R", -2)]
    assert expand(turns) == [Turn("R"), Turn("R"), Turn("U", -1)]


def test_reduce_power_picks_the_fewest_steps_and_agrees_with_turn_cost():
    p = ring_puzzle()  # L has order 4, M order 2
    assert [reduce_power(p, "L", k) for k in (0, 1, 2, 3, -1, -2, 4, 5, -7)] == [0, 1, 2, -1, -1, 2, 0, 1, 1]
    assert [reduce_power(p, "M", k) for k in (1, 2, 3, -1)] == [1, 0, 1, 1]
    for k in range(-9, 10):
        assert abs(reduce_power(p, "L", k)) == p.turn_cost(Turn("L", k))


def test_fingerprint_depends_on_moves_colours_and_blockings():
    base = minimal_puzzle()
    same = Puzzle(colours="AABB", moves={"L": SWAP, "R": [0, 2, 3, 1]}, name="another name")
    assert base.fingerprint == same.fingerprint
    others = [
        Puzzle(colours="AABB", moves={"L": SWAP, "R": [0, 3, 1, 2]}),
        Puzzle(colours="ABAB", moves={"L": SWAP, "R": [0, 2, 3, 1]}),
        Puzzle(colours="AABB", moves={"L": SWAP, "R": [0, 2, 3, 1]}, blockings=[[2, 3]]),
    ]
    assert len({base.fingerprint, *(o.fingerprint for o in others)}) == 4


def test_move_lookup_error_lists_the_moves():
    with pytest.raises(PuzzleError, match="unknown move 'U'; the moves are L, R"):
        minimal_puzzle().move("U")


def test_turned_part_defaults_to_the_moved_cells():
    p = Puzzle(colours="AABB", moves={"L": SWAP, "R": [0, 2, 3, 1]}, turned_parts={"L": [0, 1, 2]})
    assert p.turned_part("L") == frozenset({0, 1, 2})
    assert p.turned_part("R") == frozenset({1, 2, 3})


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"colours": []}, PuzzleError, "at least one cell"),
        ({"moves": {}}, PuzzleError, "at least one move"),
        ({"moves": {"R-": SWAP}}, PuzzleError, "move name 'R-'"),
        ({"moves": {"12": SWAP}}, PuzzleError, "must contain a letter"),
        ({"moves": {"L": [0, 0, 1, 2]}}, PermutationError, "move 'L': value 0 appears"),
        ({"moves": {"L": [0, 1, 2]}}, PermutationError, "move 'L': has 3 entries, expected 4"),
        ({"cell_data": [{}]}, PuzzleError, "cell_data has 1 entries for 4 cells"),
        ({"blockings": [[1]]}, PuzzleError, "blocking 0: fuses 1 cell"),
        ({"blockings": [[1, 4]]}, PuzzleError, "blocking 0: cell 4 is not in 0..3"),
        ({"blockings": [[0, 1], [1, 2]]}, PuzzleError, "cell 1 is already fused in blocking 0"),
        ({"turned_parts": {"U": [0, 1]}}, PuzzleError, "unknown move 'U'"),
        ({"turned_parts": {"L": [0, 9]}}, PuzzleError, "cells must be in 0..3"),
        ({"turned_parts": {"L": [0]}}, PuzzleError, r"leaves out cells the move moves: \[1\]"),
        ({"aliases": {"L": "L L"}}, PuzzleError, "alias 'L' has the name of a move"),
        ({"aliases": {"x": "L Q"}}, PuzzleError, "alias 'x': unknown move 'Q'"),
        ({"aliases": {"x": "L", "y": "x"}}, PuzzleError, "alias 'y': unknown move 'x'"),
        ({"aliases": {"x": ["L"]}}, PuzzleError, "alias 'x': an alias is notation text, not list"),
    ],
)
def test_bad_definitions_are_refused_with_a_reason(kwargs, error, message):
    args = {"colours": "AABB", "moves": {"L": SWAP}, **kwargs}
    with pytest.raises(error, match=message):
        Puzzle(**args)


@pytest.mark.parametrize(
    ("kwargs", "location", "detail"),
    [
        ({"moves": {"L": SWAP, "12": SWAP}}, ("moves", "12"), "bad name '12': must contain a letter"),
        ({"aliases": {"a b": "L"}}, ("aliases", "a b"), "bad name 'a b'"),
        ({"aliases": {"x": "L Q"}}, ("aliases", "x"), "unknown move 'Q'"),
        ({"blockings": [[0, 1], [2, 1]]}, ("blockings", 1, 1), "cell 1 is already fused in blocking 0"),
        ({"blockings": [[2, 2]]}, ("blockings", 0, 1), "cell 2 is listed twice"),
        ({"turned_parts": {"L": [0, 1, 7]}}, ("turned_parts", "L", 2), "7 is out of range: cells are 0..3"),
        ({"cell_data": [{}]}, (), "cell_data has 1 entries for 4 cells"),
    ],
)
def test_errors_carry_their_location_for_the_file_loader(kwargs, location, detail):
    args = {"colours": "AABB", "moves": {"L": SWAP}, **kwargs}
    with pytest.raises(PuzzleError) as info:
        Puzzle(**args)
    assert info.value.location == location
    assert info.value.detail.startswith(detail)

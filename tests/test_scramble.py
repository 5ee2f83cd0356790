"""Random scrambles: reproducible, no wasted turns, only legal turns on bandaged puzzles."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import bandaged_puzzle, random_puzzles, ring_puzzle
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import random_scramble, shortest_powers
from hlavolamy.core.state import State
from hlavolamy.errors import PuzzleError


def test_shortest_powers():
    assert shortest_powers(2) == [1]
    assert shortest_powers(3) == [1, -1]
    assert shortest_powers(4) == [1, 2, -1]
    assert shortest_powers(5) == [1, 2, -2, -1]


def test_a_seed_gives_the_same_scramble_and_seeds_differ():
    p = ring_puzzle()
    assert random_scramble(p, 30, 1) == random_scramble(p, 30, 1)
    assert random_scramble(p, 30, 1) != random_scramble(p, 30, 2)
    assert random_scramble(p, 30, random.Random(5)) == random_scramble(p, 30, 5)
    from_numpy = random_scramble(p, 30, np.random.default_rng(3))
    assert from_numpy == random_scramble(p, 30, np.random.default_rng(3))


def commutes(puzzle: Puzzle, a: str, b: str) -> bool:
    pa, pb = puzzle.move(a), puzzle.move(b)
    return bool(np.array_equal(P.compose(pa, pb), P.compose(pb, pa)))


def assert_no_turn_merges(puzzle: Puzzle, turns) -> None:
    for i, t in enumerate(turns):
        for earlier in reversed(turns[:i]):
            assert earlier.move != t.move, f"turn {i} {t} merges with an earlier one in {turns}"
            if not commutes(puzzle, earlier.move, t.move):
                break


@settings(max_examples=40, deadline=None)
@given(random_puzzles(max_moves=5), st.integers(0, 2**32))
def test_no_turn_undoes_or_merges_with_an_earlier_one(puzzle, seed):
    n_moves = 1 if len(puzzle.moves) == 1 else 12
    try:
        turns = random_scramble(puzzle, n_moves, seed)
    except PuzzleError:
        # Only when every pair of moves commutes can the moves run out.
        assert all(commutes(puzzle, a, b) for a in puzzle.moves for b in puzzle.moves)
        return
    assert len(turns) == n_moves
    assert_no_turn_merges(puzzle, turns)
    for t in turns:
        assert t.power in shortest_powers(puzzle.move_order(t.move))


def test_commuting_moves_do_not_sandwich_a_repeat():
    p = ring_puzzle()  # M commutes with L and R
    for seed in range(20):
        assert_no_turn_merges(p, random_scramble(p, 40, seed))


def test_scrambles_of_a_bandaged_puzzle_are_legal():
    p = bandaged_puzzle()
    used = set()
    for seed in range(30):
        turns = random_scramble(p, 15, seed)
        State.solved(p).apply(turns)  # checks every step, raises IllegalMoveError otherwise
        used.update(t.move for t in turns)
    assert used == {"L", "R", "X"}


def test_a_scramble_can_start_from_a_position():
    p = bandaged_puzzle()
    start = State.solved(p).apply("L")
    turns = random_scramble(p, 10, 4, start=start)
    start.apply(turns)


def test_too_long_a_scramble_for_the_moves_is_an_error():
    one_move = Puzzle("AB", {"S": [1, 0]})
    assert random_scramble(one_move, 1, 0) == random_scramble(one_move, 1, 9)
    with pytest.raises(PuzzleError, match="cannot scramble 2 moves: found no sequence longer than 1"):
        random_scramble(one_move, 2, 0)
    two_disjoint = Puzzle("AABB", {"a": [1, 0, 2, 3], "b": [0, 1, 3, 2]})
    assert len(random_scramble(two_disjoint, 2, 0)) == 2
    with pytest.raises(PuzzleError):
        random_scramble(two_disjoint, 3, 0)


def test_a_move_that_does_nothing_is_never_used():
    p = Puzzle("AABB", {"a": [1, 0, 2, 3], "idle": [0, 1, 2, 3], "b": [0, 2, 1, 3]})
    assert "idle" not in {t.move for t in random_scramble(p, 20, 1)}


def test_zero_and_negative_lengths():
    assert random_scramble(ring_puzzle(), 0, 1) == []
    with pytest.raises(PuzzleError, match="a scramble has 0 to 1000000 moves, not -1"):
        random_scramble(ring_puzzle(), -1, 1)

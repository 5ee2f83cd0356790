"""The "rings" strategy: a beam over ring powers for wreaths by colours, and where ``auto`` races it."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hlavolamy.solve.strategies.rings as rings_module
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.solve import auto, solve
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from hlavolamy.solve.strategies.rings import SearchFailed, rings_beam, rings_feasible, rings_of
from tests.conftest import PUZZLES
from tests.test_solve_beam import cycle, globe, scrambled, wreath


def test_a_wreath_is_two_rings_whose_windows_are_the_cells_they_share():
    puzzle = wreath(9)  # the rings meet in cells 0 and 3
    left, right = rings_of(puzzle, np.asarray(puzzle.colour_ids))
    assert (left.move, right.move) == ("l", "r")
    assert sorted(left.cells[left.window].tolist()) == sorted(right.cells[right.window].tolist()) == [0, 3]
    a, b, c = (puzzle.colour_labels.index(name) for name in "ABC")
    assert (left.foreign[[a, b, c]].tolist(), right.foreign[[a, b, c]].tolist()) == ([False, True, True],
                                                                                     [True, False, True])


def test_a_loaded_window_counts_each_turn_of_the_ring_that_fills_it_with_foreign_colours():
    puzzle = wreath(9)
    left, _ = rings_of(puzzle, np.asarray(puzzle.colour_ids))
    solved = np.asarray(puzzle.colour_ids)[None, :]
    assert left.loaded(solved).tolist() == [1]  # the window itself holds C C: a turn of 0
    b = puzzle.colour_labels.index("B")
    row = solved.copy()
    row[0, left.cells[[5, 8]]] = b  # 3 apart, as the window's cells: a turn of the left ring brings both in
    assert left.loaded(row).tolist() == [2]
    row[0, left.cells[8]] = puzzle.colour_labels.index("A")
    row[0, left.cells[7]] = b  # 2 apart, and neither 3 from a C: no turn loads both
    assert left.loaded(row).tolist() == [1]


def test_puzzles_that_are_not_rings_sorted_by_colour_are_left_to_the_others():
    hungarian = load_puzzle(PUZZLES / "hungarian-rings.json").puzzle  # each ring wants two colours in order
    assert rings_of(hungarian, np.asarray(hungarian.colour_ids)) is None
    flips = globe(3, 6)  # a flip turns many 2-cycles
    assert rings_of(flips, np.asarray(flips.colour_ids)) is None
    one_ring = Puzzle(list("aab"), {"t": cycle(3, [0, 1, 2])})
    assert rings_of(one_ring, np.asarray(one_ring.colour_ids)) is None
    rashkey = load_puzzle(PUZZLES / "rashkey.json").puzzle  # a circle turns five cycles of four cells
    assert rings_of(rashkey, np.asarray(rashkey.colour_ids)) is None
    puzzle = wreath(9)
    start = scrambled(puzzle, 50, seed=1)
    assert rings_feasible(Problem.from_input(puzzle, start.colour_ids()))
    assert not rings_feasible(Problem.from_input(puzzle, start))  # exact positions: no colours to exchange
    with pytest.raises(SearchFailed, match="by colours"):
        rings_beam(Problem.from_input(puzzle, start))


def test_a_move_that_is_a_power_of_another_is_the_same_ring():
    puzzle = wreath(9)
    moves = dict(puzzle.moves)
    moves["l2"] = np.asarray(moves["l"])[moves["l"]]
    doubled = Puzzle(list(puzzle.colours), moves)
    assert [r.move for r in rings_of(doubled, np.asarray(doubled.colour_ids))] == ["l", "r"]


@settings(max_examples=12, deadline=None)
@given(k=st.sampled_from([7, 12, 21]), seed=st.integers(0, 10**6), wildcards=st.sampled_from([0, 2]))
def test_the_rings_beam_solves_scrambled_wreaths_and_replays(k, seed, wildcards):
    puzzle = wreath(k)
    start = scrambled(puzzle, 300, seed=seed)
    found = solve(puzzle, start.colour_ids(), strategy="rings", wildcards=wildcards)
    assert found.strategy == "rings"
    wrong = np.count_nonzero(start.apply(found.moves).colour_ids() != puzzle.colour_ids)
    assert wrong <= wildcards


def test_the_same_position_gets_the_same_answer():
    puzzle = wreath(21)
    colours = scrambled(puzzle, 300, seed=7).colour_ids()
    answers = []
    for _ in range(2):
        problem = Problem.from_input(puzzle, colours)
        rings_beam(problem)
        answers.append(problem.turns)
    assert answers[0] == answers[1] and answers[0]


def test_out_of_patience_it_fails_or_plays_the_way_to_the_closest_position():
    puzzle = wreath(21)
    colours = scrambled(puzzle, 300, seed=3).colour_ids()
    with patch.object(rings_module, "PATIENCE", 3):
        problem = Problem.from_input(puzzle, colours)
        with pytest.raises(SearchFailed, match="no solution"):
            rings_beam(problem)
        assert problem.turns == []
        closer = Problem.from_input(puzzle, colours)
        before = closer.wrong()
        rings_beam(closer, partial=True)
    assert closer.turns and closer.wrong() < before
    assert closer.replays_to_goal(closer.turns) == closer.is_solved()


def test_it_gives_up_when_it_cannot_beat_a_rival():
    puzzle = wreath(12)
    problem = Problem.from_input(puzzle, scrambled(puzzle, 200, seed=2).colour_ids())
    with pytest.raises(SearchFailed, match="shorter than 1"):
        rings_beam(problem, shorter_than=1)
    assert problem.turns == []


def test_auto_races_rings_first_on_wreaths_by_colours_only():
    puzzle = wreath(21)
    context = Context(CancelToken())
    start = scrambled(puzzle, 300, seed=5)
    assert auto._rivals(Problem.from_input(puzzle, start.colour_ids()), context)[0] == "rings"
    assert "rings" not in auto._rivals(Problem.from_input(puzzle, start), context)

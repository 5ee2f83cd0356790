"""The insertion beam and the cheap-commutator opening: answers replay, the beam never loses to the greedy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import StrategyFailed, UnreachableError
from hlavolamy.solve import solve
from hlavolamy.solve.macros.decompose import phase0, plan
from hlavolamy.solve.macros.insert import insert_group
from hlavolamy.solve.macros.opening import MAX_SUPPORT, cheap_commutators
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.strategies.insertion import beam_group, remaining
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik3():
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def _biggest_table(puzzle):
    return max((t for t in plan(puzzle).tables if t is not None), key=lambda t: t.cells.size)


def _after_phase0(puzzle, seed):
    problem = Problem.from_input(puzzle, scrambled(puzzle, 40, seed))
    phase0(problem, plan(puzzle).frozen)
    return problem


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_random_small_groups_solve_and_replay_or_fail_clearly(data):
    n = data.draw(st.integers(6, 9), label="cells")
    moves = {f"m{i}": data.draw(st.permutations(range(n)), label=f"m{i}") for i in range(data.draw(st.integers(2, 3)))}
    puzzle = Puzzle([str(i) for i in range(n)], moves)
    names = list(puzzle.moves)
    scramble = data.draw(st.lists(st.sampled_from(names), max_size=30), label="scramble")
    state = State.solved(puzzle).apply([Turn(m, 1) for m in scramble])
    try:
        solution = solve(puzzle, state, strategy="insertion")
    except (StrategyFailed, UnreachableError):
        return  # no macros of their own, or an unreachable colouring: the strategy says so (auto takes the chain)
    assert state.apply(solution.moves).is_solved()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_beam_solves_its_group_tracks_the_position_and_leaves_the_rest(rubik3, seed):
    table = _biggest_table(rubik3)
    problem = _after_phase0(rubik3, seed)
    outside = np.delete(problem.labels, table.cells)
    assert beam_group(problem, table)
    assert np.array_equal(problem.labels[table.cells], problem.goal[table.cells])
    assert np.array_equal(np.delete(problem.labels, table.cells), outside)
    assert np.array_equal(problem.labels, problem.start[rubik3.perm_of(problem.turns)])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_beam_is_never_longer_than_the_greedy(rubik3, seed):
    table = _biggest_table(rubik3)
    greedy, beamed = _after_phase0(rubik3, seed), _after_phase0(rubik3, seed)
    assert insert_group(greedy, table) and beam_group(beamed, table)
    assert len(beamed.turns) <= len(greedy.turns)


def test_remaining_counts_wrong_cells_and_colour_matched_swaps():
    goal = np.array([0, 1, 2, 3, 4, 5])
    care = np.ones(6, dtype=bool)
    assert remaining(goal, goal, care) == 0
    assert remaining(np.array([1, 0, 2, 3, 4, 5]), goal, care) == 3  # a swap costs a 3-cycle's worth
    assert remaining(np.array([1, 2, 0, 3, 4, 5]), goal, care) == 3  # a 3-cycle: its three cells
    colours = np.array([0, 0, 1, 1, 2, 2])
    # identical pieces: two cells showing 1 where 0 is wanted and two showing 0 where 1 is: two swaps
    assert remaining(np.array([1, 1, 0, 0, 2, 2]), colours, care) == 6
    assert remaining(np.array([1, 1, 0, 0, 2, 2]), colours, np.array([1, 1, 0, 0, 1, 1], dtype=bool)) == 2


def test_cheap_commutators_are_short_small_and_stay_inside():
    rubik4 = load_puzzle(PUZZLES / "rubik4.json").puzzle
    every = np.arange(rubik4.n_cells)
    words = cheap_commutators(rubik4, every)
    assert words  # a 4x4x4's inner slices commute into small cycles of centres
    for w in words:
        moved = np.count_nonzero(rubik4.perm_of(w) != every)
        assert len(w) in (4, 6) and 0 < moved <= min(MAX_SUPPORT, rubik4.n_cells // 3)
    big = max(words, key=lambda w: np.count_nonzero(rubik4.perm_of(w) != every))
    outside = np.flatnonzero(rubik4.perm_of(big) != every)[:1]  # a cell the roomiest one moves is now off limits
    for w in cheap_commutators(rubik4, np.setdiff1d(every, outside)):
        assert rubik4.perm_of(w)[outside[0]] == outside[0]

"""The phases strategy: a subgroup found from the moves, phase 1 to its coset, phase 2 inside it."""

from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis import memo
from hlavolamy.analysis.membership import group_order
from hlavolamy.analysis.orbits import orbit_labels
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.solve import solve
from hlavolamy.solve.strategies import phases
from hlavolamy.solve.strategies.phases import PhasesFailed, phases_feasible, solve_phases, subgroup
from hlavolamy.solve.problem import Problem
from tests.conftest import scrambled_by_steps

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


@pytest.fixture(scope="module")
def rubik2() -> Puzzle:
    return load_puzzle(PUZZLES / "rubik2.json").puzzle


@pytest.fixture(scope="module")
def rubik3() -> Puzzle:
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def _inside(puzzle: Puzzle) -> Puzzle:
    """The puzzle turned by the subgroup's generators only."""
    group = subgroup(puzzle)
    moves = {m: puzzle.moves[m] for m in group.kept}
    moves.update({m + "x": puzzle.moves[m][puzzle.moves[m]] for m in group.squared})
    return Puzzle(puzzle.colours, moves)


def test_the_3x3x3_subgroup_is_found_from_the_moves(rubik3):
    group = subgroup(rubik3)
    assert group is not None
    assert group.order * group.index == group_order(rubik3).value
    # some faces kept whole, the others squared; the group is Kociemba's G1 = <U, D, R2, L2, F2, B2>
    assert 1 <= len(group.kept) <= 2 and len(group.kept) + len(group.squared) == 6
    assert group.order == 19_508_428_800 and group.index == 2_217_093_120


def test_a_puzzle_whose_moves_have_no_square_has_no_phases():
    puzzle = Puzzle(["A", "B", "C"], {"R": [1, 2, 0]})
    assert subgroup(puzzle) is None
    assert not phases_feasible(puzzle)
    problem = Problem.from_input(puzzle, State(puzzle, np.array([1, 2, 0])))
    with pytest.raises(PhasesFailed):
        solve_phases(problem)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6))
def test_2x2x2_positions_are_solved_in_two_phases(rubik2, seed):
    state = scrambled_by_steps(rubik2, seed)
    problem = Problem.from_input(rubik2, state)
    solve_phases(problem)
    assert problem.is_solved() and problem.replays_to_goal(problem.turns)
    # phase 1 ends where the contents first all lie in the subgroup's orbits; from there on only its moves
    colouring = orbit_labels(_inside(rubik2))
    group = subgroup(rubik2)
    turns = problem.turns
    first = next(i for i in range(len(turns) + 1)
                 if np.array_equal(colouring[state.perm[rubik2.perm_of(turns[:i])]], colouring))
    assert all(t.move in group.kept or t.power % 2 == 0 for t in turns[first:])


@pytest.mark.slow
def test_3x3x3_random_positions_replay_and_are_short(rubik3):
    lengths = []
    for seed in range(5):
        solution = solve(rubik3, scrambled_by_steps(rubik3, seed, 200), strategy="phases")
        assert solution.strategy == "phases"
        lengths.append(solution.length)
    assert max(lengths) <= 45  # the chain alone gives about 58


@pytest.mark.slow
def test_auto_takes_the_phases_on_the_3x3x3(rubik3):
    colours = np.asarray(rubik3.colour_ids)[scrambled_by_steps(rubik3, 11, 200).perm]
    solution = solve(rubik3, colours)
    assert solution.strategy == "phases" and solution.length <= 45


def test_tables_come_back_from_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(memo, "_shared", OrderedDict())
    built = load_puzzle(PUZZLES / "rubik2.json").puzzle
    state = scrambled_by_steps(built, 3)
    first = Problem.from_input(built, state)
    solve_phases(first)
    # a "new process": nothing in memory, and building is refused, so the tables must come from the disk
    monkeypatch.setattr(memo, "_shared", OrderedDict())
    monkeypatch.setattr(phases, "_colouring_patterns", _refuse)
    monkeypatch.setattr(phases, "_choose", _refuse)
    loaded = load_puzzle(PUZZLES / "rubik2.json").puzzle
    again = Problem.from_input(loaded, state)
    solve_phases(again)
    assert again.turns == first.turns and again.replays_to_goal(again.turns)


def _refuse(*args, **kwargs):
    raise AssertionError("rebuilt instead of loaded from the disk cache")

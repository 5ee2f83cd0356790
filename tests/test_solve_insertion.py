"""Insertion: macros placed anywhere in the solution so far still solve, and the tracked end position is the real one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.scramble import random_scramble, scrambled
from hlavolamy.core.turns import invert
from hlavolamy.solve import solve
from hlavolamy.solve.macros.decompose import phase0, plan
from hlavolamy.solve.macros.insert import (
    GroupMoves,
    GroupSequence,
    TurnCodes,
    best_insertions,
    candidates,
    insert_group,
    insert_word,
)
from hlavolamy.solve.problem import Problem
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik3():
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def _biggest_table(puzzle):
    p = plan(puzzle)
    return max((t for t in p.tables if t is not None), key=lambda t: t.cells.size)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), length=st.integers(1, 40))
def test_random_scrambles_are_solved_and_replay(rubik3, seed, length):
    state = scrambled(rubik3, length, seed)
    solution = solve(rubik3, state, strategy="insertion")
    assert solution.strategy == "insertion"
    assert state.apply(solution.moves).is_solved()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_positions_by_colours_are_solved_and_replay(rubik3, seed):
    position = scrambled(rubik3, 30, seed)
    colours = np.asarray(rubik3.colour_ids)[position.perm]
    solution = solve(rubik3, colours, strategy="insertion")
    end = colours[rubik3.perm_of(solution.moves)]
    assert np.array_equal(end, rubik3.colour_ids)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), place=st.floats(0, 1), row=st.integers(0, 500))
def test_an_insertion_changes_the_end_as_predicted(rubik3, seed, place, row):
    """Labels and shadow tracked through ``insert_word`` equal a replay of the new sequence from the start."""
    table = _biggest_table(rubik3)
    problem = Problem.from_input(rubik3, scrambled(rubik3, 25, seed))
    problem.play(random_scramble(rubik3, 30, seed + 1))
    problem.shadow = problem.labels.copy()
    sequence = GroupSequence(problem.turns, GroupMoves(rubik3, table.cells), TurnCodes(rubik3))
    where = sequence.runs()
    d = int(place * (where.lo.size - 1))
    spot = int(where.lo[d])
    row = row % table.cost.size
    insert_word(problem, table.cells, where.inverse[d], table.word(row), spot, table, row)
    replayed = problem.start[rubik3.perm_of(problem.turns)]
    assert np.array_equal(problem.labels, replayed)
    assert np.array_equal(problem.shadow, replayed)


def test_insertions_chosen_together_each_gain_as_scored(rubik3):
    """Disjoint insertions from one scoring make the group better by at least their summed gains."""
    table = _biggest_table(rubik3)
    problem = Problem.from_input(rubik3, scrambled(rubik3, 30, 7))
    cells = table.cells
    problem.play(invert(random_scramble(rubik3, 30, 7))[:20])
    sequence = GroupSequence(problem.turns, GroupMoves(rubik3, cells), TurnCodes(rubik3))
    where = sequence.runs()
    cand = candidates(table, 200, TurnCodes(rubik3))
    goal = np.append(problem.goal[cells], -1)
    labels = np.append(problem.labels[cells], -1)
    found = best_insertions(labels, goal, np.ones(cells.size + 1, dtype=bool), where, cand)
    assert found
    right_before = int(np.count_nonzero(problem.labels[cells] == problem.goal[cells]))
    for d, c, spot in sorted(found, key=lambda f: -f[2]):
        row = int(cand.rows[c])
        insert_word(problem, cells, where.inverse[d], table.word(row), spot, table, row)
    right_after = int(np.count_nonzero(problem.labels[cells] == problem.goal[cells]))
    assert right_after >= right_before + len(found)
    assert np.array_equal(problem.labels, problem.start[rubik3.perm_of(problem.turns)])


def test_insert_group_solves_its_group_and_leaves_the_others(rubik3):
    table = _biggest_table(rubik3)
    cells = table.cells
    start = scrambled(rubik3, 40, 3)
    problem = Problem.from_input(rubik3, start)
    phase0(problem, plan(rubik3).frozen)  # parities: 3-cycles alone cannot fix them
    before_outside = np.delete(problem.labels, cells)
    problem.play(random_scramble(rubik3, 12, 4) + invert(random_scramble(rubik3, 12, 4)))
    assert insert_group(problem, table)
    assert np.array_equal(problem.labels[cells], problem.goal[cells])
    assert np.array_equal(np.delete(problem.labels, cells), before_outside)
    assert np.array_equal(problem.labels, problem.start[rubik3.perm_of(problem.turns)])

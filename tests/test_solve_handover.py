"""Handover: the chain's first levels then inserted macros solve and replay; partial sifts fix what they promise."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from hlavolamy.solve import solve
from hlavolamy.solve.chain import build_chain, shortest_sifts
from hlavolamy.solve.handover import MAX_CUTS, cuts
from hlavolamy.solve.registry import StrategyFailed
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik3():
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def test_cuts_fall_where_the_group_changes_and_the_rest_has_macros():
    table = object()
    assert cuts([0, 0, 1, 1, 2], [table, table, table]) == [2, 4]
    assert cuts([0, 0, 1, 1, 2], [table, None, table]) == [4]  # group 1 left over has no macros
    assert cuts([0, 0, 0], [table]) == []
    many = list(range(MAX_CUTS + 3))
    assert cuts(many, [table] * len(many)) == many[-MAX_CUTS:]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), levels=st.integers(1, 12))
def test_partial_sifts_fix_the_base_points_of_their_levels(rubik3, seed, levels):
    chain = build_chain(rubik3)
    perm = np.asarray(State.solved(rubik3).apply(random_scramble(rubik3, 40, seed)).perm)
    for head in shortest_sifts(chain, perm, levels=levels, count=3):
        after = perm[rubik3.perm_of(head)]
        assert np.array_equal(after[chain.base[:levels]], chain.base[:levels])


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_exact_positions_are_solved_and_replay(rubik3, seed):
    state = State.solved(rubik3).apply(random_scramble(rubik3, 40, seed))
    solution = solve(rubik3, state, strategy="handover")
    assert solution.verified and solution.strategy == "handover"
    assert state.apply(solution.moves).is_solved()


def test_a_position_by_colours_is_solved(rubik3):
    scrambled = State.solved(rubik3).apply(random_scramble(rubik3, 30, 5))
    colours = np.asarray(rubik3.colour_ids)[scrambled.perm]
    solution = solve(rubik3, colours, strategy="handover")
    assert np.array_equal(colours[rubik3.perm_of(solution.moves)], rubik3.colour_ids)


def test_a_puzzle_of_one_group_has_no_cut(tiny_puzzle):
    state = State.solved(tiny_puzzle).apply(random_scramble(tiny_puzzle, 5, 1))
    with pytest.raises(StrategyFailed):
        solve(tiny_puzzle, state, strategy="handover")

"""The multiphase strategy: a chain of subgroups found from the moves, one search per step."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis import memo
from hlavolamy.analysis.membership import group_order, in_group
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.solve import solve
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from hlavolamy.solve.strategies import multiphase
from hlavolamy.solve.strategies.multiphase import (
    MultiphaseFailed,
    chain,
    multiphase_feasible,
)
from hlavolamy.solve.strategies.phases import inner_puzzle
from tests.conftest import scrambled_by_steps, shipped


def test_the_3x3x3_chain_is_thistlethwaites_found_from_the_moves(rubik3):
    found = chain(rubik3)
    assert found is not None
    groups = found.groups
    assert groups[0].order == group_order(rubik3).value and not groups[0].squared
    for bigger, smaller in zip(groups, groups[1:]):
        assert set(bigger.squared) < set(smaller.squared)  # squares stay squares further down
        assert smaller.order * smaller.index == bigger.order
    # edges oriented (two opposite faces squared), then corners twisted and the middle slice's edges
    assert [g.index for g in groups[1:]] == [2048, 1_082_565]
    assert groups[-1].order <= multiphase.FINAL_ORDER


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_3x3x3_positions_are_solved_phase_by_phase(rubik3, seed):
    state = scrambled_by_steps(rubik3, seed)
    solution = solve(rubik3, state, strategy="multiphase")  # the solve API replays every answer
    assert solution.strategy == "multiphase"
    # every phase ends inside the next group of the chain: the positions after each prefix
    inners = [inner_puzzle(rubik3, g) for g in chain(rubik3).groups]
    perm = state.perm
    reached = 0
    for k in range(len(solution.moves) + 1):
        at = perm[rubik3.perm_of(solution.moves[:k])]
        while reached + 1 < len(inners) and in_group(inners[reached + 1], at):
            reached += 1
    assert reached == len(inners) - 1
    assert solution.length <= 60


def test_a_small_chain_on_the_2x2x2(monkeypatch):
    monkeypatch.setattr(multiphase, "FINAL_ORDER", 10**3)
    memo.forget_shared()
    try:
        puzzle = shipped("rubik2")
        found = chain(puzzle)
        assert found is not None and len(found.groups) >= 2
        for seed in range(3):
            state = scrambled_by_steps(puzzle, seed)
            assert state.apply(solve(puzzle, state, strategy="multiphase").moves).is_solved()
    finally:
        memo.forget_shared()


def test_a_puzzle_whose_moves_have_no_square_has_no_chain():
    puzzle = Puzzle(["A", "B", "C"], {"R": [1, 2, 0]})
    assert chain(puzzle) is None and not multiphase_feasible(puzzle)
    problem = Problem.from_input(puzzle, State(puzzle, np.array([1, 2, 0])))
    with pytest.raises(MultiphaseFailed):
        multiphase.solve_multiphase(problem, Context(CancelToken(), None, "whole", None))


@pytest.mark.slow
def test_4x4x4_by_colours_through_a_chain_that_hides_cosets(monkeypatch):
    """The 4x4x4's steps hide cosets (a turn of the whole cube, parities): allowed here, the phases go
    as far as they can and insertion finishes; the answer still replays."""
    monkeypatch.setattr(multiphase, "HIDDEN", 1000)
    memo.forget_shared()
    try:
        puzzle = shipped("rubik4")
        found = chain(puzzle)
        assert found is not None and len(found.groups) >= 4
        state = scrambled_by_steps(puzzle, 7, 80)
        colours = np.asarray(puzzle.colour_ids)[state.perm]
        solution = solve(puzzle, colours, strategy="multiphase")
        assert solution.strategy == "multiphase" and state.apply(solution.moves).is_solved()
    finally:
        memo.forget_shared()

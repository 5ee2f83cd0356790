"""Phase 0: frozen cells and parities by breadth-first search, and parities by linear algebra over GF(p)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis.invariants import invariants
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from hlavolamy.solve.macros.decompose import plan
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.tables.quotient import _gfp_solve, bfs_quotient, fix_parities_linear, invariant_vector
from tests.conftest import PUZZLES


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 5]), st.integers(1, 6), st.integers(1, 6), st.data())
def test_gfp_solve_finds_a_combination_whenever_one_exists(p, nrows, ncols, data):
    rows = np.array(data.draw(st.lists(st.lists(st.integers(0, p - 1), min_size=ncols, max_size=ncols),
                                       min_size=nrows, max_size=nrows)))
    coeff = np.array(data.draw(st.lists(st.integers(0, p - 1), min_size=nrows, max_size=nrows)))
    target = coeff @ rows % p
    found = _gfp_solve(rows, target, p)
    assert found is not None
    assert np.array_equal(found @ rows % p, target)


def test_gfp_solve_says_none_outside_the_span():
    assert _gfp_solve(np.array([[1, 1, 0]]), np.array([1, 0, 0]), 3) is None


def test_linear_fix_on_a_cube_with_twist_components():
    """A 4x4x4 has mod-2 parities and a mod-3 twist sum: the old GF(2)-only fixer refused it."""
    cube_puzzle = load_puzzle(PUZZLES / "rubik4.json").puzzle
    assert {c.modulus for c in invariants(cube_puzzle).components} == {2, 3}
    frozen = plan(cube_puzzle).frozen
    for seed in range(4):
        state = State.solved(cube_puzzle).apply(random_scramble(cube_puzzle, 60, seed))
        problem = Problem.from_input(cube_puzzle, state)
        problem.play(bfs_quotient(problem, frozen, False))
        problem.play(fix_parities_linear(problem, frozen))
        assert not invariant_vector(cube_puzzle, problem.labels).any()
        assert np.array_equal(problem.labels[frozen], problem.goal[frozen])

"""Handover: the chain's first levels then inserted macros solve and replay; partial sifts fix what they promise."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.scramble import scrambled
from hlavolamy.solve import solve
from hlavolamy.solve.registry import StrategyFailed
from hlavolamy.solve.strategies.handover import MAX_CUTS, cuts
from hlavolamy.solve.tables.chain import build_chain, shortest_sifts
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
    perm = np.asarray(scrambled(rubik3, 40, seed).perm)
    for head in shortest_sifts(chain, perm, levels=levels, count=3):
        after = perm[rubik3.perm_of(head)]
        assert np.array_equal(after[chain.base[:levels]], chain.base[:levels])


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_exact_positions_are_solved_and_replay(rubik3, seed):
    state = scrambled(rubik3, 40, seed)
    solution = solve(rubik3, state, strategy="handover")
    assert solution.strategy == "handover"
    assert state.apply(solution.moves).is_solved()


def test_a_position_by_colours_is_solved(rubik3):
    position = scrambled(rubik3, 30, 5)
    colours = np.asarray(rubik3.colour_ids)[position.perm]
    solution = solve(rubik3, colours, strategy="handover")
    assert np.array_equal(colours[rubik3.perm_of(solution.moves)], rubik3.colour_ids)


def test_a_puzzle_of_one_group_has_no_cut(tiny_puzzle):
    state = scrambled(tiny_puzzle, 5, 1)
    with pytest.raises(StrategyFailed):
        solve(tiny_puzzle, state, strategy="handover")


@pytest.mark.slow
def test_the_megaminx_by_colours_comes_out_shorter_than_the_chains_answer():
    from hlavolamy.cli.bench import generated_puzzles

    megaminx = dict(generated_puzzles())["megaminx (polyhedra)"]
    state = scrambled(megaminx, 200, 0)
    colours = np.asarray(megaminx.colour_ids)[state.perm]
    handover = solve(megaminx, colours, strategy="handover")
    chain = solve(megaminx, colours, strategy="chain")
    assert np.array_equal(colours[megaminx.perm_of(handover.moves)], megaminx.colour_ids)
    assert handover.length < chain.length


def test_insertion_without_appending_leaves_the_rest_to_the_caller(rubik3):
    from hlavolamy.solve.macros.decompose import phase0, plan
    from hlavolamy.solve.macros.insert import insert_group
    from hlavolamy.solve.problem import Problem

    table = max((t for t in plan(rubik3).tables if t is not None), key=lambda t: t.cells.size)
    problem = Problem.from_input(rubik3, scrambled(rubik3, 40, 7))
    phase0(problem, plan(rubik3).frozen)
    solved = insert_group(problem, table, append=False)
    right = bool(np.array_equal(problem.labels[table.cells], problem.goal[table.cells]))
    assert solved == right
    assert np.array_equal(problem.labels, problem.start[rubik3.perm_of(problem.turns)])


def test_a_head_gives_up_a_quarter_beyond_the_best_answer_and_the_rest_still_race(rubik3, monkeypatch):
    """Branch and bound over the heads: the first head runs unbounded, each later one within
    :func:`~hlavolamy.solve.problem.reach` of the best answer so far (and the race's own budget if tighter); a
    head over it is dropped, not the strategy."""
    from hlavolamy.core.progress import CancelToken
    from hlavolamy.solve.problem import OverBudget, Problem, reach
    from hlavolamy.solve.registry import Context
    from hlavolamy.solve.strategies import handover

    bounds: list[int | None] = []
    lengths: list[int] = []
    real = handover._finish

    def finish(problem, decomposition, groups, context):
        bounds.append(problem.answer_bound)
        if len(bounds) == 2:
            raise OverBudget("this head plays too many turns")
        real(problem, decomposition, groups, context)
        lengths.append(problem.answer_length())

    monkeypatch.setattr(handover, "_finish", finish)
    state = scrambled(rubik3, 40, 3)
    problem = Problem.from_input(rubik3, state)
    problem.bound(1_000)  # the race's budget: looser than the heads' own
    handover.solve_by_handover(problem, Context(CancelToken()))
    assert bounds[0] == 1_000 and bounds[1] == reach(lengths[0]) and len(bounds) > 2
    assert all(b <= reach(min(lengths[:k])) for k, b in zip(range(1, len(bounds)), bounds[2:]))
    assert problem.answer_length() == min(lengths) and state.apply(problem.turns).is_solved()

"""How ``solve`` picks its machinery: blocked puzzles, the chain strategy, and ``auto`` keeping the shorter answer."""

from __future__ import annotations

import pytest

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError
from hlavolamy.solve import auto, solve
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik2():
    return load_puzzle(PUZZLES / "rubik2.json").puzzle


@pytest.fixture(scope="module")
def bandaged():
    return load_puzzle(PUZZLES / "bandaged3.json").puzzle


def test_a_puzzle_with_blockings_goes_to_the_blocking_solver(bandaged):
    start = scrambled(bandaged, 25, 4)
    solution = solve(bandaged, start)
    assert solution.strategy.startswith("blocked")
    assert start.apply(solution.moves).is_solved()  # apply() checks every step is legal


def test_blocking_puzzles_refuse_strategies_and_modes_they_cannot_honour(bandaged):
    start = scrambled(bandaged, 5, 1)
    with pytest.raises(HlavolamyError, match="blocking solver"):
        solve(bandaged, start, strategy="commutators")
    with pytest.raises(HlavolamyError, match="blocking solver"):
        solve(bandaged, start, mode="orbit-keep", orbit=0)


def test_chain_strategy_and_auto_keeps_the_shorter(rubik2):
    start = scrambled(rubik2, 30, 9)
    by_chain = solve(rubik2, start, strategy="chain")
    by_macros = solve(rubik2, start, strategy="commutators")
    assert (by_chain.strategy, by_macros.strategy) == ("chain", "commutators")
    for s in (by_chain, by_macros):
        assert start.apply(s.moves).is_solved()
    auto = solve(rubik2, start)
    assert auto.length <= min(by_chain.length, by_macros.length)


def test_chain_refuses_orbit_modes(rubik2):
    start = State.solved(rubik2).apply("R U")
    with pytest.raises(HlavolamyError, match="whole puzzles only"):
        solve(rubik2, start, strategy="chain", mode="orbit-only", orbit=0)


def test_big_puzzles_race_search_first_beside_insertion_where_its_beam_fits():
    rubik5 = load_puzzle(PUZZLES / "rubik5.json").puzzle  # 144 moved cells, past the chain's; 30 single steps
    context = Context(CancelToken())
    assert auto._rivals(Problem.from_input(rubik5, scrambled(rubik5, 20, 1)), context) == ["insertion", "search-first"]
    with_wildcards = Problem.from_input(rubik5, scrambled(rubik5, 20, 1), wildcards=2)  # it solves every cell
    assert auto._rivals(with_wildcards, context) == ["insertion", "search-first"]

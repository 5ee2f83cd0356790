"""How ``solve`` picks its machinery: blocked puzzles, the chain strategy, and ``auto`` keeping the shorter answer."""

from __future__ import annotations

import pytest

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.errors import HlavolamyError
from hlavolamy.solve import auto, solve
from hlavolamy.solve.problem import OverBudget, Problem
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


def test_big_puzzles_race_search_first_before_insertion_where_its_beam_fits():
    rubik5 = load_puzzle(PUZZLES / "rubik5.json").puzzle  # 144 moved cells, past the chain's; 30 single steps
    context = Context(CancelToken())
    assert auto._rivals(Problem.from_input(rubik5, scrambled(rubik5, 20, 1)), context) == ["search-first", "insertion"]
    with_wildcards = Problem.from_input(rubik5, scrambled(rubik5, 20, 1), wildcards=2)  # it solves every cell
    assert auto._rivals(with_wildcards, context) == ["search-first", "insertion"]


def _racing(monkeypatch, answers: dict[str, list]) -> tuple[dict[str, int | None], list[str]]:
    """``auto``'s race over fake rivals that play the given answers; returns the bound each was given, and
    the rivals that gave up."""
    bounds: dict[str, int | None] = {}
    gave_up: list[str] = []

    def fake_run(attempt, name, context):
        bounds[name] = attempt.answer_bound
        try:
            for turn in answers[name]:
                attempt.play([turn])
        except OverBudget:
            gave_up.append(name)
            raise
        return name

    monkeypatch.setattr(auto, "_rivals", lambda problem, context: list(answers))
    monkeypatch.setattr(auto, "run", fake_run)
    return bounds, gave_up


def test_a_later_rival_gives_up_a_quarter_beyond_the_answer_held(monkeypatch, rubik2):
    """Branch and bound across the race: the first answer bounds the next rivals at a quarter more moves; one
    whose answer grows past that gives up (it could not have won), one whose turns only simplify to less goes on,
    and the held answer wins."""
    from hlavolamy.core.turns import Turn
    from hlavolamy.solve.problem import reach

    start = scrambled(rubik2, 30, 9)
    chain = solve(rubik2, start, strategy="chain")
    short, moves = chain.moves, chain.length
    padding = [Turn("R", 1), Turn("U", 1)] * 10  # nothing cancels
    problem = Problem.from_input(rubik2, start)
    bounds, gave_up = _racing(monkeypatch, {"first": short, "longer": padding + short,
                                            "cancelling": [Turn("R", 1), Turn("R", -1)] * 20 + short})
    name, longest = auto._shortest(problem, Context(CancelToken()))
    assert bounds == {"first": None, "longer": reach(moves), "cancelling": reach(moves)}
    assert gave_up == ["longer"]
    assert (name, longest, problem.answer_length()) == ("first", moves, moves)


def test_rivals_race_unbounded_where_the_beam_may_still_race(monkeypatch, rubik2):
    """By colours with an answer of more than two moves per moved cell the beam may race, and its budget
    follows the longest rival's whole answer: no rival is cut short there."""
    from hlavolamy.core.turns import Turn

    start = scrambled(rubik2, 30, 9)
    short = solve(rubik2, start, strategy="chain").moves
    padding = [Turn("R", 1), Turn("F", 1), Turn("U", 1)] * 20  # nothing cancels (fakes need not solve)
    problem = Problem.from_input(rubik2, rubik2.colour_ids[start.perm])
    bounds, gave_up = _racing(monkeypatch, {"first": padding + short, "second": padding * 2 + short})
    name, longest = auto._shortest(problem, Context(CancelToken()))
    assert not problem.exact and problem.answer_length() > auto.BEAM_RATIO * 24  # 24 moved cells
    assert bounds == {"first": None, "second": None} and gave_up == []
    assert name == "first" and longest > problem.answer_length()  # the second rival's whole answer

"""The anytime ``auto``: a first answer, better ones until the limit, the same moves whatever the load."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from hlavolamy.core import progress
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken, Work
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.errors import Cancelled, UnreachableError
from hlavolamy.solve import (
    Improvement,
    RaceRecords,
    anytime,
    auto,
    solve,
)
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.strategies import beam
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik2():
    return load_puzzle(PUZZLES / "rubik2.json").puzzle


def _position(puzzle, seed: int, length: int = 15) -> State:
    return scrambled(puzzle, length, seed)


@pytest.fixture
def racing(monkeypatch):
    """The first answer from the quick chain, so the race improves it (a capped search would end the solve)."""
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-chain"])


def test_a_small_group_gets_a_shortest_first_answer_and_nothing_more(rubik2):
    told: list[Improvement] = []
    solution = solve(rubik2, _position(rubik2, 1), on_answer=told.append)
    assert [t.strategy for t in told] == ["search"] and solution.strategy == "search"
    assert solution.length == solution.first_length <= 14


def test_the_first_answer_comes_first_and_every_later_one_is_shorter(rubik2, racing):
    told: list[Improvement] = []
    solution = solve(rubik2, _position(rubik2, 1), on_answer=told.append)
    assert told and told[0].first and not any(t.first for t in told[1:])
    lengths = [t.length for t in told]
    assert lengths == sorted(lengths, reverse=True) and len(set(lengths)) == len(lengths)
    assert solution.length == lengths[-1] <= 14  # the 2x2x2's God's number in quarter turns
    assert solution.first_length == lengths[0] and solution.first_time <= solution.time
    assert told[0].message == f"best so far: {lengths[0]} moves ({told[0].strategy})"
    for t in told:  # every answer told was verified: it solves the position
        assert _position(rubik2, 1).apply(list(t.moves)).is_solved()


def test_a_limit_too_short_for_improving_still_gives_the_first_answer(rubik2, racing):
    position = _position(rubik2, 3)
    solution = solve(rubik2, position, time_limit=0.001)
    assert position.apply(solution.moves).is_solved()
    assert solution.cut and solution.first_length == solution.length


def _jumping(start: float, step: float = 1000.0):
    """A clock that jumps ``step`` seconds at every reading."""
    now = [start]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


def test_a_starved_clock_still_gets_the_first_answer_within_its_cpu_budget(rubik2, racing, monkeypatch):
    """The wall limit passes at once (1,000 s per reading: a machine giving the solve no time), yet the first
    route answers: its budget is CPU seconds of the solving thread, far from spent."""
    position = _position(rubik2, 8)
    for name in ("monotonic", "perf_counter"):
        monkeypatch.setattr(time, name, _jumping(getattr(time, name)()))
    told: list[Improvement] = []
    solution = solve(rubik2, position, time_limit=1, on_answer=told.append)
    assert position.apply(solution.moves).is_solved()
    assert solution.cut and [t.first for t in told] == [True] and solution.length == told[0].length


def test_a_spent_cpu_budget_ends_the_solve_with_a_clear_message(rubik2, monkeypatch):
    """No answer within the first route's CPU budget (a CPU clock jumping 1,000 s per reading): the solve says
    so, in words the app and the CLI show as a time limit, not as a user's cancel."""
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["capped-search"])
    monkeypatch.setattr(progress, "thread_cpu_clock", lambda: _jumping(0.0))
    with pytest.raises(Cancelled, match=r"^time limit reached with no answer: .* 61 s of CPU") as caught:
        solve(rubik2, _position(rubik2, 3), time_limit=1)
    assert "time limit" in caught.value.args[0]  # what the app's Solve page keys its advice on
    assert anytime.first_answer_cpu(1) == 1 + anytime.FIRST_ANSWER_GRACE == 61
    assert anytime.first_answer_cpu(100) == 200


def test_an_unreachable_position_is_refused_at_once(rubik2):
    perm = np.arange(rubik2.n_cells)
    perm[[0, 1]] = perm[[1, 0]]
    with pytest.raises(UnreachableError):
        solve(rubik2, State(rubik2, perm), time_limit=0.001)


def test_a_users_cancel_still_cancels(rubik2):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled, match="^cancelled$"):
        solve(rubik2, _position(rubik2, 4), cancel=token)


def _hogs(n: int = 2) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def test_the_same_moves_twice_in_a_process_and_beside_cpu_hogs(rubik2, racing):
    """Work budgets, not seconds: a busy machine (two processes burning CPU beside) changes no move."""
    position = _position(rubik2, 2)
    first = solve(rubik2, position)
    again = solve(rubik2, position)
    hogs = _hogs()
    try:
        busy = solve(rubik2, position)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert first.moves == again.moves == busy.moves
    assert first.strategy == again.strategy == busy.strategy


def test_the_beam_spends_work_not_seconds(rubik2):
    """The beam's budget is cells of children: the same levels whatever the clock says."""
    colours = rubik2.colour_ids[_position(rubik2, 5, 30).perm]

    def run(clock_speed: float) -> list:
        problem = Problem.from_input(rubik2, colours)
        real = time.monotonic
        with pytest.MonkeyPatch.context() as patch:  # a clock running fast, as on a loaded machine
            patch.setattr(time, "monotonic", lambda: real() * clock_speed)
            try:
                beam.beam(problem, width=200, work=Work(2e7), partial=True)
            except beam.SearchFailed:
                return []
        return problem.turns

    assert run(1.0) == run(1000.0)


def test_race_records_belong_to_the_caller(rubik2, monkeypatch, racing):
    """What one caller's races taught is not another's: records are passed in, never module state."""
    assert not hasattr(auto, "_BEAM_RECORDS") and not hasattr(auto, "_RIVAL_RECORDS")

    def losing_beam(problem, **_):
        raise beam.SearchFailed("stood in for")

    monkeypatch.setattr(auto, "BEAM_RATIO", 0)  # every answer counts as long: the beam races
    monkeypatch.setattr(auto.beam, "beam", losing_beam)
    monkeypatch.setattr(auto, "_optimal_within_budget", lambda problem, context: False)
    monkeypatch.setattr(auto, "_tried", lambda problem, context, name: False)
    mine, theirs = RaceRecords(), RaceRecords()
    colours = lambda seed: rubik2.colour_ids[_position(rubik2, seed).perm]  # noqa: E731
    solve(rubik2, colours(6), records=mine)
    assert list(mine.beam.values()) == [{"won": 0, "lost": 1}]
    assert theirs.beam == {}
    solve(rubik2, colours(7), records=mine)
    assert list(mine.beam.values()) == [{"won": 0, "lost": 2}]


def test_every_rival_races_whatever_earlier_solves_saw(rubik2, monkeypatch, racing):
    """search-first used to stop after losing more races than it won on a set of moves, so a case's answer
    depended on the solves before it; now every rival races on every position."""
    raced: list[str] = []
    real_run = auto.run

    def run(problem, name, context):  # a costly rival stood in for by the chain
        raced.append(name)
        return real_run(problem, "chain" if name == "search-first" else name, context)

    monkeypatch.setattr(auto, "_rivals", lambda problem, context: ["chain", "search-first"])
    monkeypatch.setattr(auto, "run", run)
    monkeypatch.setattr(auto, "_optimal_within_budget", lambda problem, context: False)
    monkeypatch.setattr(auto, "_tried", lambda problem, context, name: False)
    records = RaceRecords()
    for seed in range(4):
        solve(rubik2, _position(rubik2, seed + 6), records=records)
    assert raced.count("search-first") == 4


def test_the_quick_chains_first_answer_is_verified_and_the_same_from_an_empty_cache(racing, monkeypatch, tmp_path):
    """The quick chain completes its table by closure and long fills, all seeded: two solves, each building it from
    an empty cache, tell the same verified first answer."""
    from hlavolamy.analysis.memo import forget_shared

    rubik3 = load_puzzle(PUZZLES / "rubik3.json").puzzle
    position = _position(rubik3, 1, 200)
    firsts = []
    for run in range(2):
        monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(tmp_path / str(run)))
        forget_shared()
        told: list[Improvement] = []
        solve(rubik3, position, time_limit=0.001, on_answer=told.append)
        assert told[0].first and told[0].strategy == "chain" and position.apply(list(told[0].moves)).is_solved()
        firsts.append(told[0].moves)
    forget_shared()
    assert firsts[0] == firsts[1]


def test_big_puzzles_get_their_first_answer_from_one_quick_attempt_of_macros(monkeypatch):
    """Past the quick chain's cells the first route is ``quick-commutators``: the first attempt that finishes, on
    the colours, then on the exact position they are assigned (a big wreath: 4 s on its colours, 750 s exact),
    phase 0 by a quick quotient chain; its answer is verified like any other."""
    from hlavolamy.solve.registry import Context

    rubik5 = load_puzzle(PUZZLES / "rubik5.json").puzzle
    rubik3 = load_puzzle(PUZZLES / "rubik3.json").puzzle
    assert anytime.first_routes(Problem.from_input(rubik5, State.solved(rubik5)), Context(CancelToken()))[0] == "quick-commutators"
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-commutators"])
    from hlavolamy.solve.strategies import commutators

    attempts: list[bool] = []
    decomposed = commutators.solve_decomposed

    def recorded(problem, **kwargs):
        attempts.append(problem.exact)
        decomposed(problem, **kwargs)

    monkeypatch.setattr(commutators, "solve_decomposed", recorded)
    state = _position(rubik3, 3, 60)
    told: list[Improvement] = []
    solution = solve(rubik3, rubik3.colour_ids[state.perm], time_limit=0.001, on_answer=told.append)
    assert told[0].first and told[0].strategy == "commutators" and solution.moves == list(told[0].moves)
    assert state.apply(solution.moves).is_solved() and attempts == [False]
    attempts.clear()
    solution = solve(rubik3, state, time_limit=0.001)
    assert state.apply(solution.moves).is_solved() and attempts == [True]


def test_when_the_quick_macros_get_stuck_the_full_commutators_strategy_answers(monkeypatch):
    """One greedy attempt can get stuck where the strategy's two attempts finish: the next route answers."""
    from hlavolamy.errors import StrategyFailed

    def stuck(problem, context):
        raise StrategyFailed("stuck")

    monkeypatch.setattr(anytime, "solve_quick", stuck)
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-commutators", "commutators"])
    rubik3 = load_puzzle(PUZZLES / "rubik3.json").puzzle
    state = _position(rubik3, 4, 60)
    told: list[Improvement] = []
    solution = solve(rubik3, state, time_limit=0.001, on_answer=told.append)
    assert told[0].first and told[0].strategy == "commutators" and state.apply(solution.moves).is_solved()


def test_the_first_answer_on_colours_skips_the_membership_proof_and_a_refusal_falls_to_the_next_route(monkeypatch):
    """Schreier–Sims proving a colour position's assignment cost a 5x5x5's first answer a second: the quick
    routes take the assignment the invariants allow unproven, and should a sift refuse it, the next route (which
    proves it) decides; a refusal by the invariants is still the user's answer at once."""
    from hlavolamy.analysis import membership

    rubik3 = load_puzzle(PUZZLES / "rubik3.json").puzzle
    state = _position(rubik3, 5, 60)
    colours = rubik3.colour_ids[state.perm]

    def no_proof(puzzle, perm):
        raise AssertionError("the first answer asked for a membership proof")

    monkeypatch.setattr(membership, "in_group", no_proof)
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-chain"])
    told: list[Improvement] = []
    solve(rubik3, colours, time_limit=0.001, on_answer=told.append)
    assert told[0].first and state.apply(list(told[0].moves)).is_solved()
    monkeypatch.undo()

    def refused(*args, **kwargs):
        raise UnreachableError("not in the group")

    monkeypatch.setattr(anytime, "sift_solve", refused)
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-chain", "commutators"])
    told.clear()
    solve(rubik3, colours, time_limit=0.001, on_answer=told.append)
    assert told[0].strategy == "commutators"
    with pytest.raises(UnreachableError):  # an exact position the sift refuses is the user's verdict
        solve(rubik3, state, time_limit=0.001)
    other = int(np.flatnonzero(colours != colours[0])[0])
    swapped = colours.copy()
    swapped[[0, other]] = swapped[[other, 0]]  # two stickers of different colours: no piece shows that
    with pytest.raises(UnreachableError):
        solve(rubik3, swapped)


def test_with_no_limit_and_no_listener_the_race_runs_alone_and_the_first_routes_are_its_fallback(monkeypatch):
    """A batch run (no time limit, no ``on_answer``) has no use for an early answer: the quick routes only cost
    time (a Santa cube_10 case: 3.3 s of CPU of 20). They run when the race fails; a final route (a search, whose
    answer is the shortest) still runs first."""
    from hlavolamy.errors import StrategyFailed

    assert anytime.early_routes(["capped-search", "quick-chain", "quick-commutators"], None, None) == ["capped-search"]
    assert anytime.early_routes(["quick-chain"], 10.0, None) == ["quick-chain"]
    assert anytime.early_routes(["quick-chain"], None, print) == ["quick-chain"]
    rubik3 = load_puzzle(PUZZLES / "rubik3.json").puzzle
    state = _position(rubik3, 6, 60)
    ran: list[str] = []
    quick_chain_route = anytime._quick_chain

    def recorded(problem, context):
        ran.append("quick-chain")
        quick_chain_route(problem, context)

    monkeypatch.setattr(anytime, "_quick_chain", recorded)
    monkeypatch.setattr(anytime, "first_routes", lambda problem, context: ["quick-chain"])
    solution = solve(rubik3, state)
    assert ran == [] and state.apply(solution.moves).is_solved()

    def failing(problem, name, context):
        raise StrategyFailed("the race found nothing")

    monkeypatch.setattr(anytime, "run_pipeline", failing)
    solution = solve(rubik3, state)
    assert ran == ["quick-chain"] and solution.strategy == "chain" and state.apply(solution.moves).is_solved()

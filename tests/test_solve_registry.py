"""The strategy registry: records looked up by name, passes that may only shorten, and cancellable foreign code."""

from __future__ import annotations

import random
import threading
import time

import pytest

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken, CpuBudget, interruptible
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, HlavolamyError, StrategyFailed
from hlavolamy.solve import names, registry, solve
from hlavolamy.solve.registry import Pass, Strategy
from tests.conftest import PUZZLES


@pytest.fixture(scope="module")
def rubik2():
    return load_puzzle(PUZZLES / "rubik2.json").puzzle


@pytest.fixture
def clean_registry(monkeypatch):
    """Registrations made by a test vanish after it."""
    registry.names()  # the built-in plugin is loaded before the copies are taken
    for table in (registry._STRATEGIES, registry._PASSES):
        monkeypatch.setattr(table, "records", dict(table.records))
        monkeypatch.setattr(table, "owners", dict(table.owners))


def test_built_in_strategies_are_registered_with_auto_first():
    assert names()[0] == "auto"
    assert {"auto", "commutators", "search", "chain", "optimal"} <= set(names())


def test_a_registered_strategy_is_usable_by_name(rubik2, clean_registry):
    def by_inverse(problem, context):
        problem.play([Turn(t.move, -t.power) for t in reversed(scramble)])

    scramble = random_scramble(rubik2, 6, 3)
    registry.register(Strategy("undo", "replays the scramble backwards", by_inverse))
    solution = solve(rubik2, State.solved(rubik2).apply(scramble), strategy="undo")
    assert solution.strategy == "undo"
    assert State.solved(rubik2).apply(scramble).apply(solution.moves).is_solved()


def test_a_wrong_strategy_answer_is_caught_by_the_replay(rubik2, clean_registry):
    registry.register(Strategy("liar", "claims to solve with one turn", lambda p, c: p.play([Turn("R", 1)])))
    with pytest.raises(HlavolamyError, match="failed verification"):
        solve(rubik2, State.solved(rubik2).apply("R U"), strategy="liar")


def test_a_name_is_registered_once_and_modes_are_checked(clean_registry):
    with pytest.raises(ValueError, match="twice"):
        registry.register(Strategy("chain", "again", lambda p, c: None))
    with pytest.raises(ValueError, match="unknown modes"):
        registry.register(Strategy("odd", "", lambda p, c: None, modes=("sideways",)))


def test_whole_only_strategies_refuse_an_orbit_mode(rubik2):
    with pytest.raises(HlavolamyError, match="whole puzzles only"):
        solve(rubik2, State.solved(rubik2).apply("R"), strategy="chain", mode="orbit-only", orbit=0)


def test_failures_of_every_strategy_share_one_base():
    from hlavolamy.solve.tables.chain import ChainTooLarge
    from hlavolamy.solve.macros.decompose import Stuck
    from hlavolamy.solve.problem import OverBudget
    from hlavolamy.solve.strategies.search import SearchFailed

    assert all(issubclass(e, StrategyFailed) for e in (ChainTooLarge, Stuck, OverBudget, SearchFailed))


def test_a_pass_result_is_kept_only_when_shorter_and_solving(rubik2, clean_registry):
    seen = []

    def padded(problem, turns, context):  # longer: ignored
        seen.append("padded")
        return turns + [Turn("R", 1), Turn("R", -1)]

    def broken(problem, turns, context):  # shorter but wrong: ignored
        seen.append("broken")
        return turns[1:]

    registry.register_pass(Pass("padded", padded))
    registry.register_pass(Pass("broken", broken))
    start = State.solved(rubik2).apply("R U F")
    solution = solve(rubik2, start, strategy="chain")
    assert seen == ["padded", "broken"]
    assert start.apply(solution.moves).is_solved()


def test_a_pass_that_shortens_wins(rubik2, clean_registry):
    loop = [Turn("R", 1), Turn("U", 1)]
    while not State.solved(rubik2).apply(loop).is_solved():  # (R U)^k = identity, which cancelling cannot see
        loop += [Turn("R", 1), Turn("U", 1)]

    def detour(problem, context):
        problem.play(loop + [Turn(t.move, -t.power) for t in reversed(scramble)])

    def drop_detour(problem, turns, context):
        return turns[len(loop):] if turns[:len(loop)] == loop else turns

    scramble = random_scramble(rubik2, 5, 1)
    registry.register(Strategy("detour", "", detour))
    registry.register_pass(Pass("drop-detour", drop_detour))
    solution = solve(rubik2, State.solved(rubik2).apply(scramble), strategy="detour")
    assert solution.length <= rubik2.length(scramble)


def test_interruptible_stops_code_that_never_checks_the_token():
    token = CancelToken.with_time_limit(0.2)
    started = time.monotonic()
    with pytest.raises(Cancelled, match="time limit"):
        with interruptible(token):
            while True:  # a foreign loop that never looks at the token
                sum(range(100))
    assert time.monotonic() - started < 5


def test_interruptible_leaves_nothing_behind_after_the_block():
    token = CancelToken()
    with interruptible(token):
        sum(range(1000))
    token.cancel()
    time.sleep(0.2)  # a watcher still running would fire now
    assert sum(range(1000)) == 499500
    assert threading.active_count() == 1 or all(t.name != "hlavolamy-interrupt" for t in threading.enumerate())


def test_user_cancel_interrupts_too():
    token = CancelToken()
    threading.Timer(0.1, token.cancel).start()
    with pytest.raises(Cancelled, match="^cancelled$"):
        with interruptible(token):
            while True:
                sum(range(100))


def test_a_linked_token_fires_with_its_parent_and_keeps_its_own_deadline():
    parent = CancelToken()
    child = CancelToken.linked(parent, time.monotonic() + 3600)
    grandchild = CancelToken.linked(child, None)
    assert not grandchild.cancelled and grandchild.earliest_deadline == child.deadline
    parent.cancel()
    assert child.cancelled and grandchild.user_cancelled
    with pytest.raises(Cancelled, match="^cancelled$"):
        grandchild.check()
    expired = CancelToken.linked(CancelToken(), time.monotonic() - 1)
    assert expired.cancelled and not expired.user_cancelled


def test_a_cpu_budget_counts_the_thread_s_cpu_not_the_wall_clock():
    budget = CpuBudget(0.05)
    time.sleep(0.2)  # wall time passes, no CPU is spent
    assert not budget.spent and not CancelToken.linked(None, None, budget).cancelled


def test_a_cpu_budget_fires_through_interruptible_from_the_watcher_thread():
    """The watcher polls the token from its own thread: it reads the solving thread's CPU clock, not its own."""
    token = CancelToken.linked(CancelToken(), None, CpuBudget(0.2))
    with pytest.raises(Cancelled, match=r"^CPU budget spent \(0.2 s\)$"), interruptible(token):
        while True:  # a foreign loop that never looks at the token
            sum(range(100))
    assert token.cancelled and not token.user_cancelled


# the interruption may first land in a garbage-collection callback (hypothesis installs one), which Python reports
# as unraisable and drops; the watcher fires again (the next test), so that report is expected, not a failure
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_cancelling_the_parent_stops_a_real_schreier_sims_in_the_child():
    """The GUI's Cancel reaches sympy's Schreier–Sims through a linked token (a time-limited child)."""
    from sympy.combinatorics import Permutation, PermutationGroup

    rng = random.Random(5)
    points = list(range(1000))
    gens = []
    for _ in range(2):
        rng.shuffle(points)
        gens.append(Permutation(list(points)))
    group = PermutationGroup(gens)  # the symmetric or alternating group on 1000 points: minutes of work
    parent = CancelToken()
    child = CancelToken.linked(parent, None)
    threading.Timer(0.3, parent.cancel).start()
    with pytest.raises(Cancelled, match="^cancelled$"):
        with interruptible(child):
            group.schreier_sims()
    assert not group._transversals  # it stopped before finishing


def test_interruptible_fires_again_when_foreign_code_swallows_the_first():
    """An interruption delivered where Python drops it (a finaliser during garbage collection, a bare
    ``except``) is followed by another while the block still runs."""
    token = CancelToken()
    threading.Timer(0.1, token.cancel).start()
    swallowed = []
    with pytest.raises(Cancelled, match="^cancelled$"):
        with interruptible(token, poll=0.01):
            while True:
                try:
                    sum(range(100))
                except BaseException:  # noqa: BLE001 - foreign code that eats the first one
                    if swallowed:
                        raise
                    swallowed.append(True)
                except Exception:  # pragma: no cover - never: the interruption is not an Exception
                    pass
    assert swallowed == [True]

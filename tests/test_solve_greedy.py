"""The greedy group solver: conjugates while one gains, aimed 3-cycles at dead ends, and a wider aim last."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import scrambled
from hlavolamy.solve.macros import decompose, greedy
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context


def test_when_the_usual_aim_and_the_rescue_fail_the_wide_aim_is_tried_before_giving_up(rubik3, monkeypatch):
    """A gigaminx's wings were left 26 wrong: no conjugate gained, the usual aim (3 macros from 4 wrong cells on
    groups of over 100 cells) and the pair rescue found nothing, and the group solver gave up. Here a 3x3x3
    group meets such a dead end (forced once); the wide aim (16 wrong cells, 48 macros) carries on, and the
    group is solved."""
    plan = decompose.plan(rubik3)
    usual_gains, usual_aim, usual_rescue = greedy.Gains.at, greedy._targeted, greedy._rescue
    calls: list[int | None] = []
    dead_end = [True]

    def gains(self, labels):
        out = usual_gains(self, labels)
        return np.zeros_like(out) if dead_end[0] else out

    def targeted(*args, macros=None, **kwargs):
        calls.append(macros)
        if dead_end[0] and macros is None:
            return None
        dead_end[0] = False
        return usual_aim(*args, macros=macros, **kwargs)

    def rescue(*args, **kwargs):
        return None if dead_end[0] else usual_rescue(*args, **kwargs)

    monkeypatch.setattr(greedy.Gains, "at", gains)
    monkeypatch.setattr(greedy, "_targeted", targeted)
    monkeypatch.setattr(greedy, "_rescue", rescue)
    table = next(t for t in plan.tables if t is not None)
    problem = Problem.from_input(rubik3, scrambled(rubik3, 40, 1))
    decompose.phase0(problem, plan.frozen)
    assert greedy.solve_group(problem, table)
    assert np.array_equal(problem.labels[table.cells], problem.goal[table.cells])
    assert calls[:2] == [None, greedy.WIDE_MACROS]


def test_groups_over_the_aim_triples_aim_with_three_macros_and_the_quick_macros_draw_that_line_lower(
        rubik3, monkeypatch):
    """Each macro aimed at a dead end costs a breadth-first search over the group's n**3 cell triples (0.4 s at
    a million): the full strategy aims with 48 macros up to a million triples, the first answer's quick macros up
    to 200,000 (a Santa globe_8/25's groups of 100 cells cost its first answer 80 s of searches, 12 s so)."""
    from hlavolamy.solve.strategies import commutators

    plan = decompose.plan(rubik3)
    table = next(t for t in plan.tables if t is not None)  # 24 cells: 13,824 triples
    limits: list[int] = []
    monkeypatch.setattr(greedy, "_three_cycles", lambda table, limit: limits.append(limit) or [])
    problem = Problem.from_input(rubik3, scrambled(rubik3, 40, 1))
    labels = np.append(problem.labels[table.cells], -1)
    goal, care = greedy.group_target(problem, table.cells)
    rng = np.random.default_rng(0)
    seen = {}
    for aim in (greedy.AIM_TRIPLES, 13_824, 13_823):
        limits.clear()
        greedy._targeted(problem, labels, goal, care, table, None, rng, aim_triples=aim)
        seen[aim] = set(limits)
    assert seen == {greedy.AIM_TRIPLES: {48}, 13_824: {48}, 13_823: {3}}
    solvers = []
    monkeypatch.setattr(commutators, "solve_decomposed", lambda problem, **kwargs: solvers.append(kwargs))
    commutators.solve_quick(Problem.from_input(rubik3, scrambled(rubik3, 10, 1)), Context(CancelToken()))
    assert solvers[0]["group_solver"].keywords == {"aim_triples": commutators.QUICK_AIM_TRIPLES,
                                                   "colour_pairs": False} == {
        "aim_triples": 200_000, "colour_pairs": False}
    assert solvers[0]["planner"] is decompose.quick_plan


def test_a_first_answer_plans_with_the_quick_library_until_the_full_plan_is_made(monkeypatch):
    """The quick plan is kept in the process only, and gives way to the full plan once that exists."""
    from hlavolamy.analysis import commutators
    from hlavolamy.core.fileformat import load_puzzle
    from hlavolamy.solve.caches import solve_cache
    from tests.conftest import PUZZLES

    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", "off")
    monkeypatch.setattr(commutators, "_BY_MOVES", {})
    monkeypatch.setattr(decompose, "_BY_MOVES", {})
    puzzle = load_puzzle(PUZZLES / "rubik3.json").puzzle
    quick = decompose.quick_plan(puzzle)
    assert solve_cache(puzzle).plan is None and solve_cache(puzzle).quick_plan is quick
    assert decompose.quick_plan(puzzle) is quick
    problem = Problem.from_input(puzzle, scrambled(puzzle, 30, 2))
    decompose.solve_decomposed(problem, planner=decompose.quick_plan)
    assert problem.is_solved()
    full = decompose.plan(puzzle)
    assert decompose.quick_plan(puzzle) is full


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), colours=st.integers(1, 6), small=st.booleans())
def test_gains_are_cells_made_right_minus_cells_made_wrong_whichever_way_they_are_scored(rubik3, seed, colours, small):
    """The pair table (every entry's gain read from one table over the group's pairs of cells) and the entry by
    entry comparison it replaced give the same gains, on exact labels and on colours, with cells that do not count."""
    table = next(t for t in decompose.plan(rubik3).tables if t is not None)
    rng = np.random.default_rng(seed)
    n = table.cells.size
    labels = np.append(rng.integers(0, colours, n), -1)
    goal = np.append(rng.integers(0, colours, n), -1)
    care = np.append(rng.random(n) < 0.8, True)
    want, weight = goal[table.positions], care[table.positions]
    expected = ((labels[table.sources] == want) & weight).sum(1) - ((labels[table.positions] == want) & weight).sum(1)

    class EntryByEntry(greedy.Gains):
        PAIRS = 1

    gains = (EntryByEntry if small else greedy.Gains)(table, goal, care)
    assert (gains.pairs is None) == small
    assert np.array_equal(gains.at(labels), expected)


@pytest.mark.parametrize("exact, colour_pairs, searched", [(False, True, True), (False, False, False),
                                                          (True, False, True)])
def test_without_colour_pairs_a_colour_position_gives_up_before_the_pair_search(rubik3, monkeypatch, exact,
                                                                                 colour_pairs, searched):
    """A first answer's colour attempt has the exact one behind it: at a dead end its aim cannot pass it gives up
    rather than search pairs (0.3 s on the radio chop, never once of use on the rows measured). An exact position
    still searches them."""
    table = next(t for t in decompose.plan(rubik3).tables if t is not None)
    state = scrambled(rubik3, 40, 1)
    problem = Problem.from_input(rubik3, state if exact else rubik3.colour_ids[state.perm])
    decompose.phase0(problem, decompose.plan(rubik3).frozen)
    pairs: list[int] = []
    monkeypatch.setattr(greedy.Gains, "at", lambda self, labels: np.zeros(self.table.cost.size, dtype=np.int64))
    monkeypatch.setattr(greedy, "_targeted", lambda *args, **kwargs: None)
    monkeypatch.setattr(greedy, "_rescue", lambda *args, **kwargs: pairs.append(1))
    assert not greedy.solve_group(problem, table, colour_pairs=colour_pairs)
    assert bool(pairs) == searched

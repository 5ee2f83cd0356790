"""Insertion: macros placed anywhere in the solution so far still solve, and the end position tracked is real."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble, scrambled
from hlavolamy.core.turns import invert
from hlavolamy.solve import solve
from hlavolamy.solve.macros import insert, opening
from hlavolamy.solve.macros.decompose import phase0, plan, solve_decomposed
from hlavolamy.solve.macros.insert import (
    Candidates,
    GroupMoves,
    GroupSequence,
    Runs,
    TurnCodes,
    best_insertions,
    candidates,
    insert_group,
    insert_word,
    score_insertions,
    spread_rows,
)
from hlavolamy.solve.macros.pairing import paired_plan
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from hlavolamy.solve.strategies import commutators, insertion
from hlavolamy.solve.strategies.commutators import solve_whole
from hlavolamy.solve.strategies.insertion import beam_group, open_cheaply
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


@pytest.mark.parametrize("by_colours", [True, False])
def test_the_opening_races_on_the_colours_too_and_the_shortest_attempt_wins(rubik3, by_colours):
    """On colours the opening is tried on the colour position and on its exact assignment, on an exact
    position on that position again; none of it can make the answer longer than the plain colour attempt."""
    opened = []

    def opener(problem, plan, cancel):
        opened.append(problem.exact)
        open_cheaply(problem, plan, cancel)

    state = scrambled(rubik3, 30, 5)
    position = np.asarray(rubik3.colour_ids)[state.perm] if by_colours else state
    problem = Problem.from_input(rubik3, position)
    solve_whole(problem, Context(CancelToken()), beam_group, paired_plan, opener)
    assert opened == ([False, True] if by_colours else [True])
    assert problem.replays_to_goal(problem.turns)
    plain = Problem.from_input(rubik3, position)
    plain.cast_shadow()
    solve_decomposed(plain, group_solver=beam_group, planner=paired_plan)
    assert problem.answer_length() <= plain.answer_length()


@pytest.mark.parametrize("big", [False, True])
def test_the_opening_stops_at_its_share_of_the_wrong_cells_only_on_small_puzzles(monkeypatch, big):
    """At most ``BIG_CELLS`` moved cells the opening stops once ``SHARE`` of the wrong cells are right; above,
    only its rate stops it (``until`` 0: never before solved). Where it stops, at most that many are wrong."""
    if big:
        monkeypatch.setattr(insertion, "BIG_CELLS", 0)
    asked = []
    real = insertion.insert_group

    def spy(problem, table, **kwargs):
        asked.append((int(np.count_nonzero(problem.labels[table.cells] != problem.goal[table.cells])), kwargs))
        return real(problem, table, **kwargs)

    monkeypatch.setattr(insertion, "insert_group", spy)
    rubik4 = load_puzzle(PUZZLES / "rubik4.json").puzzle  # the 3x3x3's groups share no cheap commutator
    problem = Problem.from_input(rubik4, scrambled(rubik4, 30, 5))
    p = paired_plan(rubik4)
    phase0(problem, p.frozen)
    open_cheaply(problem, p, CancelToken())
    [(wrong, kwargs)] = asked
    assert wrong > 0 and kwargs["rate"] > 0
    assert kwargs["until"] == (0 if big else int(wrong * (1 - opening.SHARE)))
    assert np.array_equal(problem.labels, problem.start[rubik4.perm_of(problem.turns)])


@pytest.mark.parametrize("first_fails", [False, True])
def test_on_big_puzzles_the_attempts_stop_at_the_first_answer(rubik3, monkeypatch, first_fails):
    """Above ``OPENED_CELLS`` moved cells the attempts stop at the first that answers: the opened ones are
    skipped after the plain colour attempt; where it fails the opened colours run and answer."""
    monkeypatch.setattr(commutators, "OPENED_CELLS", 0)
    opened = []

    def opener(problem, plan, cancel):
        opened.append(problem.exact)
        open_cheaply(problem, plan, cancel)

    def group_solver(problem, table, *, cancel=None):
        if first_fails and not opened:
            return False  # the first (plain) attempt gets stuck
        return beam_group(problem, table, cancel=cancel)

    state = scrambled(rubik3, 30, 5)
    problem = Problem.from_input(rubik3, np.asarray(rubik3.colour_ids)[state.perm])
    solve_whole(problem, Context(CancelToken()), group_solver, paired_plan, opener)
    assert opened == ([False] if first_fails else [])
    assert problem.replays_to_goal(problem.turns)


@pytest.mark.parametrize("small", ["SCORED_CELLS", "MAX_CANDIDATES"])
def test_big_puzzles_score_more_candidates_per_step(rubik3, monkeypatch, small):
    """The big budget reaches the scoring: with the 3x3x3 counted as big and one of the small limits (the
    comparisons or the candidates) tiny, a step scores more candidates than the small limit allows, and the
    group is still solved."""
    monkeypatch.setattr(insert, small, 1)
    seen = {}
    for big in (False, True):
        monkeypatch.setattr(insert, "BIG_CELLS", 0 if big else 10**9)
        sizes = []

        def spy(labels, goal, care, where, cand, rate=0.0):
            sizes.append(cand.rows.size)
            return best_insertions(labels, goal, care, where, cand, rate=rate)

        monkeypatch.setattr(insert, "best_insertions", spy)
        problem = Problem.from_input(rubik3, scrambled(rubik3, 30, 3))
        phase0(problem, plan(rubik3).frozen)
        assert insert_group(problem, _biggest_table(rubik3))
        seen[big] = max(sizes)
    assert seen[False] == (insert.MIN_CANDIDATES if small == "SCORED_CELLS" else 1)
    assert seen[True] > insert.MIN_CANDIDATES


def test_the_step_budget_grows_with_the_puzzle_and_the_candidates_stop_growing_on_huge_ones(rubik3, monkeypatch):
    """Small: the small budget; big: the big budget and more candidates; huge: the big budget, the usual cap, and
    where the group's goal shows every cell distinct, each macro's cheapest conjugates first."""
    assert insert.step_budget(rubik3) == (insert.SCORED_CELLS, insert.MAX_CANDIDATES, 0)
    monkeypatch.setattr(insert, "BIG_CELLS", 0)
    assert insert.step_budget(rubik3) == (insert.BIG_SCORED_CELLS, insert.BIG_MAX_CANDIDATES, 0)
    monkeypatch.setattr(insert, "HUGE_CELLS", 1)
    assert insert.step_budget(rubik3) == (insert.BIG_SCORED_CELLS, insert.MAX_CANDIDATES, 0)
    assert insert.step_budget(rubik3, distinct=True) == (insert.BIG_SCORED_CELLS, insert.MAX_CANDIDATES,
                                                         insert.HUGE_SPREAD)


def test_spread_rows_put_each_macros_cheapest_conjugates_first(rubik3):
    """Every row once; first, round by round, each macro's two cheapest conjugates; then the rest, cheapest first."""
    table = _biggest_table(rubik3)
    order = spread_rows(table, 2)
    assert sorted(order.tolist()) == list(range(table.cost.size))
    macros = np.unique(table.macro)
    head, rest = order[:2 * macros.size], order[2 * macros.size:]
    assert table.macro[head[:macros.size]].tolist() == sorted(macros.tolist())  # the first round: one each
    for m in macros:
        rows = np.flatnonzero(table.macro == m)
        assert sorted(head[table.macro[head] == m].tolist()) == rows[:2].tolist()
    assert np.all(np.diff(rest) > 0)
    assert table.cost[head[0]] == table.cost.min() and np.all(np.diff(table.cost[rest]) >= 0)


def test_on_huge_puzzles_a_step_tries_every_macro_where_no_two_cells_look_alike(rubik3, monkeypatch):
    """Counted as huge with few candidates a step, the 3x3x3's steps on an exact position score every macro of the
    group, where the cheapest rows alone cover fewer (as on a small puzzle, or by colours: identical pieces); the
    group is solved either way."""
    table = _biggest_table(rubik3)
    macros = np.unique(table.macro).size
    monkeypatch.setattr(insert, "MIN_CANDIDATES", macros)
    monkeypatch.setattr(insert, "SCORED_CELLS", 1)
    monkeypatch.setattr(insert, "BIG_SCORED_CELLS", 1)
    monkeypatch.setattr(insert, "HUGE_CELLS", 0)
    seen = {}
    for huge, by_colours in ((False, False), (True, False), (True, True)):
        monkeypatch.setattr(insert, "BIG_CELLS", 0 if huge else 10**9)
        tried = set()

        def spy(labels, goal, care, where, cand, rate=0.0):
            tried.update(table.macro[cand.rows].tolist())
            return best_insertions(labels, goal, care, where, cand, rate=rate)

        monkeypatch.setattr(insert, "best_insertions", spy)
        position = scrambled(rubik3, 30, 3)
        problem = Problem.from_input(rubik3, np.asarray(rubik3.colour_ids)[position.perm] if by_colours else position)
        phase0(problem, plan(rubik3).frozen)
        assert insert_group(problem, table)
        seen[huge, by_colours] = len(tried)
    assert seen[True, False] == macros > max(seen[False, False], seen[True, True])


@settings(max_examples=30, deadline=None)
@given(data=st.data(), offset=st.sampled_from([0, 40_000]))
def test_every_insertion_is_scored_as_cells_made_right_minus_cells_made_wrong(data, offset):
    """The vectorised scoring against a plain count, with labels small enough for 16 bits and too big for them."""
    n = data.draw(st.integers(3, 12))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    labels = np.append(rng.integers(0, 4, n) + offset, -1)
    goal = np.append(rng.integers(0, 4, n) + offset, -1)
    care = np.append(rng.random(n) < 0.8, False)
    runs, count, width = int(rng.integers(1, 5)), int(rng.integers(1, 6)), int(rng.integers(1, 4))
    inverse = np.array([rng.permutation(n) for _ in range(runs)])
    moved = [rng.choice(n, size=int(rng.integers(1, width + 1)), replace=False) for _ in range(count)]
    pad = [np.full(width - m.size, n) for m in moved]  # rows padded with the sentinel cell
    positions = np.array([np.concatenate([m, p]) for m, p in zip(moved, pad)])
    sources = np.array([np.concatenate([rng.permutation(m), p]) for m, p in zip(moved, pad)])
    none = np.full(runs, -1)
    where = Runs(inverse, np.arange(runs), np.arange(runs), none, none, none, none)
    cand = Candidates(np.arange(count), positions, sources, np.full(count, 4), np.full(count, -2), np.full(count, -2))
    scores = score_insertions(labels, goal, care, where, cand)
    for d in range(runs):
        here, want, counts = (np.append(a[:-1][inverse[d]], a[-1]) for a in (labels, goal, care))
        for c in range(count):
            made = sum(bool(here[s] == want[p] and counts[p]) - bool(here[p] == want[p] and counts[p])
                       for p, s in zip(positions[c], sources[c]))
            assert scores.gain[d, c] == made
            assert scores.score[d, c] == made / 4


@pytest.mark.parametrize("moved", [3, 127, 200])
def test_a_candidate_moving_many_cells_scores_every_one(moved):
    """Gains add up in a narrow type where the candidates move few cells; one moving more than a byte counts
    (every cell made right, or every one made wrong) must still score them all."""
    n = 300
    goal = np.append(np.arange(n), -1)
    cycle = np.roll(np.arange(moved), 1)
    solved, turned = goal.copy(), goal.copy()
    turned[:moved] = goal[cycle]  # the first cells shifted along one cycle
    positions = np.arange(moved)[None]
    sources = np.argsort(cycle)[None]  # where each shifted label went: moving it back puts it right
    none = np.full(1, -1)
    where = Runs(np.arange(n)[None], np.zeros(1, int), np.zeros(1, int), none, none, none, none)
    cand = Candidates(np.arange(1), positions, sources, np.full(1, 4), np.full(1, -2), np.full(1, -2))
    care = np.append(np.ones(n, dtype=bool), False)
    assert score_insertions(turned, goal, care, where, cand).gain[0, 0] == moved
    assert score_insertions(solved, goal, care, where, cand).gain[0, 0] == -moved

"""The phases strategy: a subgroup found from the moves, phase 1 to its coset, phase 2 inside it."""

from collections import OrderedDict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis import memo
from hlavolamy.analysis.membership import group_order
from hlavolamy.analysis.orbits import orbit_labels
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.solve import solve
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.strategies import phases, twophase
from hlavolamy.solve.strategies.phases import (
    PhasesFailed,
    phases_feasible,
    solve_phases,
    subgroup,
)
from tests.conftest import scrambled_by_steps

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


@pytest.fixture(scope="module")
def rubik2() -> Puzzle:
    return load_puzzle(PUZZLES / "rubik2.json").puzzle


@pytest.fixture(scope="module")
def rubik3() -> Puzzle:
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def _inside(puzzle: Puzzle) -> Puzzle:
    """The puzzle turned by the subgroup's generators only."""
    group = subgroup(puzzle)
    moves = {m: puzzle.moves[m] for m in group.kept}
    moves.update({m + "x": puzzle.moves[m][puzzle.moves[m]] for m in group.squared})
    return Puzzle(puzzle.colours, moves)


def test_the_3x3x3_subgroup_is_found_from_the_moves(rubik3):
    group = subgroup(rubik3)
    assert group is not None
    assert group.order * group.index == group_order(rubik3).value
    # some faces kept whole, the others squared; the group is Kociemba's G1 = <U, D, R2, L2, F2, B2>
    assert 1 <= len(group.kept) <= 2 and len(group.kept) + len(group.squared) == 6
    assert group.order == 19_508_428_800 and group.index == 2_217_093_120


def test_the_3x3x3_is_searched_through_the_subgroups_of_all_three_axes(rubik3):
    group = subgroup(rubik3)
    views = phases._views(rubik3, group)
    kept = {frozenset(m for m, (image, _) in view.moves.items() if image in group.kept) for view in views}
    assert len(views) == 2 and kept | {frozenset(group.kept)} == {frozenset("UD"), frozenset("LR"), frozenset("FB")}


def test_a_puzzle_whose_moves_have_no_square_has_no_phases():
    puzzle = Puzzle(["A", "B", "C"], {"R": [1, 2, 0]})
    assert subgroup(puzzle) is None
    assert not phases_feasible(puzzle)
    problem = Problem.from_input(puzzle, State(puzzle, np.array([1, 2, 0])))
    with pytest.raises(PhasesFailed):
        solve_phases(problem)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6))
def test_2x2x2_positions_are_solved_in_two_phases(rubik2, seed):
    phases.MORE_NODES, kept = 50_000, phases.MORE_NODES  # the structure of the answer, not its length
    try:
        _solved_in_two_phases(rubik2, seed)
    finally:
        phases.MORE_NODES = kept


def _solved_in_two_phases(rubik2: Puzzle, seed: int) -> None:
    state = scrambled_by_steps(rubik2, seed)
    problem = Problem.from_input(rubik2, state)
    solve_phases(problem)
    assert problem.is_solved() and problem.replays_to_goal(problem.turns)
    # phase 1 ends where the contents first all lie in the subgroup's orbits; from there on only its moves
    # (or the same of the inverse position, when the answer came from the inverse's search read backwards; or
    # of a conjugate by a symmetry, its answer relabelled)
    tables = phases._tables(rubik2, subgroup(rubik2), CancelToken())
    found = False
    for view in (None, *phases._setup(rubik2, tables).views):
        perm = state.perm if view is None else view.conjugate(state.perm)
        turns = problem.turns if view is None else [Turn(view.moves[t.move][0], view.moves[t.move][1] * t.power)
                                                     for t in problem.turns]
        backwards = [Turn(t.move, -t.power) for t in reversed(turns)]
        found |= _two_phased(rubik2, perm, turns) or _two_phased(rubik2, np.argsort(perm), backwards)
    assert found


def _two_phased(puzzle: Puzzle, perm: np.ndarray, turns: list[Turn]) -> bool:
    colouring = orbit_labels(_inside(puzzle))
    group = subgroup(puzzle)
    first = next(i for i in range(len(turns) + 1)
                 if np.array_equal(colouring[perm[puzzle.perm_of(turns[:i])]], colouring))
    return all(t.move in group.kept or t.power % 2 == 0 for t in turns[first:])


@pytest.mark.slow
def test_3x3x3_random_positions_replay_and_are_short(rubik3):
    lengths = []
    for seed in range(5):
        solution = solve(rubik3, scrambled_by_steps(rubik3, seed, 200), strategy="phases")
        assert solution.strategy == "phases"
        lengths.append(solution.length)
    assert max(lengths) <= 30  # the chain alone gives about 58; the first two-phase answer about 32


@pytest.mark.slow
def test_auto_takes_the_phases_on_the_3x3x3(rubik3):
    colours = np.asarray(rubik3.colour_ids)[scrambled_by_steps(rubik3, 11, 200).perm]
    solution = solve(rubik3, colours)
    assert solution.strategy == "phases" and solution.length <= 30


def test_tables_come_back_from_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(memo, "_shared", OrderedDict())
    built = load_puzzle(PUZZLES / "rubik2.json").puzzle
    state = scrambled_by_steps(built, 3)
    first = Problem.from_input(built, state)
    solve_phases(first)
    # a "new process": nothing in memory, and building is refused, so the tables must come from the disk
    monkeypatch.setattr(memo, "_shared", OrderedDict())
    monkeypatch.setattr(phases, "_colouring_patterns", _refuse)
    monkeypatch.setattr(phases, "_choose", _refuse)
    monkeypatch.setattr(phases, "_coarse_views", _refuse)
    loaded = load_puzzle(PUZZLES / "rubik2.json").puzzle
    again = Problem.from_input(loaded, state)
    solve_phases(again)
    assert again.turns == first.turns and again.replays_to_goal(again.turns)


def _refuse(*args, **kwargs):
    raise AssertionError("rebuilt instead of loaded from the disk cache")


# -- the continued search (twophase.py) ---------------------------------------------------------------


def _search(puzzle: Puzzle, state: State, more: int, inverse: bool = True) -> list[Turn]:
    problem = Problem.from_input(puzzle, state)
    if not problem.exact:
        problem.to_exact()
    tables = phases._tables(puzzle, subgroup(puzzle), CancelToken())
    turns = twophase.continued_search(puzzle, problem.labels, phases._setup(puzzle, tables), first_nodes=phases.NODES,
                                      more_nodes=more, inverse=inverse)
    turns = [phases.outer_turn(t) for t in turns]
    assert problem.replays_to_goal(turns)
    return turns


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_the_continued_search_is_never_longer_than_the_first_answer_and_replays(rubik2, seed, inverse):
    state = scrambled_by_steps(rubik2, seed)
    first = _search(rubik2, state, 0, inverse)
    more = _search(rubik2, state, 200_000, inverse)
    assert rubik2.length(more) <= rubik2.length(first)
    assert _search(rubik2, state, 200_000, inverse) == more  # a work budget, not the clock: the same answer
    # every quarter turn is odd on the cells: an answer's length has the position's parity (the search relies on it)
    assert rubik2.length(more) % 2 == twophase.odd(np.asarray(state.perm)) % 2


def test_quarter_turn_cubes_keep_the_parity_of_lengths(rubik2, rubik3):
    for puzzle in (rubik2, rubik3):
        tables = phases._tables(puzzle, subgroup(puzzle), CancelToken())
        assert phases._setup(puzzle, tables).parity
    assert twophase.odd(np.array([1, 0, 2])) and not twophase.odd(np.array([1, 2, 0]))


@pytest.mark.slow
def test_the_continued_search_is_optimal_on_the_2x2x2_when_the_budget_allows(rubik2):
    """With budget enough it stops only when the phase-1 length reaches the best total: a shortest answer
    (the optimal strategy's length), since phase 2 may be empty."""
    from hlavolamy.solve.strategies.optimal import optimal

    for seed in range(2):
        state = scrambled_by_steps(rubik2, seed, 12)
        problem = Problem.from_input(rubik2, state)
        optimal(problem)
        assert rubik2.length(_search(rubik2, state, 10**8)) == rubik2.length(problem.turns)


def test_phase_1_answers_ending_in_a_turn_of_the_subgroup_are_skipped(rubik2):
    """Kociemba's rule, generic: an answer is skipped exactly when dropping one run of its trailing
    commuting turns leaves a shorter phase-1 answer."""
    tables = phases._tables(rubik2, subgroup(rubik2), CancelToken())
    setup = phases._setup(rubik2, tables)
    state = scrambled_by_steps(rubik2, 7)
    problem = Problem.from_input(rubik2, state)
    if not problem.exact:
        problem.to_exact()
    start = np.array([g.rank(problem.labels) for g in setup.first], dtype=np.int32)
    lowest = int(max(g.dist[r] for g, r in zip(setup.first, start)))
    paths = np.concatenate(list(twophase.phase1_answers(start, setup.first, setup.outer, lowest + 2,
                                                        twophase.Work(10**8), CancelToken())))
    skipped = twophase.redundant(paths, setup.facts)
    assert 0 < skipped.sum() < len(paths)
    turns = setup.outer.turns
    colouring = setup.colouring
    for path, skip in zip(paths.tolist(), skipped):
        runs = _runs([turns[g] for g in path])
        shorter = False
        for k in range(len(runs) - 1, -1, -1):  # the trailing block of commuting runs
            if any(not _commute(rubik2, runs[k][0], runs[j][0]) for j in range(k + 1, len(runs))):
                break
            rest = [t for j, run in enumerate(runs) if j != k for t in run]
            after = problem.labels[rubik2.perm_of(rest)]
            shorter |= np.array_equal(colouring[after], colouring)
        assert shorter == skip, path


def _runs(turns: list[Turn]) -> list[list[Turn]]:
    out: list[list[Turn]] = []
    for t in turns:
        if out and out[-1][0].move == t.move:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def _commute(puzzle: Puzzle, a: Turn, b: Turn) -> bool:
    pa, pb = puzzle.moves[a.move], puzzle.moves[b.move]
    return np.array_equal(pa[pb], pb[pa])


def test_weighted_distances_count_each_step_by_its_cost():
    # a ring of 6 states; step 0 goes one forward (cost 1), step 1 one back (cost 1), step 2 three on (cost 2)
    table = np.array([[(i + 1) % 6, (i - 1) % 6, (i + 3) % 6] for i in range(6)])
    dist = twophase.weighted_distances(table, np.arange(6) == 0, np.array([1, 1, 2]))
    assert dist.tolist() == [0, 1, 2, 2, 2, 1]
    unweighted = twophase.weighted_distances(table, np.arange(6) == 0, np.array([1, 1, 1]))
    assert unweighted.tolist() == [0, 1, 2, 1, 2, 1]


@pytest.mark.slow
def test_the_3x3x3_continued_search_is_short(rubik3):
    lengths = []
    for seed in range(6):
        state = scrambled_by_steps(rubik3, seed, 200)
        first = _search(rubik3, state, 0)
        turns = _search(rubik3, state, phases.MORE_NODES)
        assert rubik3.length(turns) <= rubik3.length(first)
        lengths.append(rubik3.length(turns))
    assert np.mean(lengths) <= 26  # 24.8 over 30 positions at the default budget (hlavolamy bench phases); first ~31


class _Table:
    """A stand-in pattern for the table builders: a step table over ``size`` states, state 0 the goal."""

    def __init__(self, table: np.ndarray):
        self.table = table
        self.size = table.shape[0]
        self.off = np.r_[0, np.ones(self.size - 1, dtype=np.int16)]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(1, 3), st.integers(1, 7), st.data())
def test_the_joined_table_is_the_same_whatever_its_chunks(na, nb, steps, chunk, data):
    """The product's breadth-first search looks at the cancel token between chunks of a level; the distances do
    not depend on the chunking."""
    perm = st.permutations(list(range(na)))
    a = _Table(np.array([data.draw(perm) for _ in range(steps)]).T)
    b = _Table(np.array([data.draw(st.permutations(list(range(nb)))) for _ in range(steps)]).T)
    whole = twophase.joined_distances(a, b)
    import unittest.mock as mock

    with mock.patch.object(twophase, "TABLE_CHUNK", chunk):
        assert np.array_equal(twophase.joined_distances(a, b, CancelToken()), whole)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 12), st.integers(1, 3), st.data())
def test_a_held_joined_table_steps_as_the_two_tables_do(na, nb, steps, data):
    """A small product's step table is held and read instead of the two tables: the same ranks after every step."""
    a = _Table(np.array([data.draw(st.permutations(list(range(na)))) for _ in range(steps)]).T)
    b = _Table(np.array([data.draw(st.permutations(list(range(nb)))) for _ in range(steps)]).T)
    dist = twophase.joined_distances(a, b)
    joined = twophase.Joined(twophase.Guide(a, np.zeros(na, np.uint8)), twophase.Guide(b, np.zeros(nb, np.uint8)), dist)
    ranks = np.repeat(np.arange(na * nb), steps)
    moves = np.tile(np.arange(steps), na * nb)
    assert joined._table is not None
    expected = a.table[ranks // nb, moves] * nb + b.table[ranks % nb, moves]
    assert np.array_equal(joined.after(ranks, moves), expected)


def test_a_cancel_stops_the_continued_search_tables_between_chunks():
    """The 3x3x3's joined tables took 1-2 s at one go, past a 10 s limit: a fired token stops them."""
    from hlavolamy.errors import Cancelled

    table = _Table(np.array([[1, 2, 0], [2, 0, 1], [0, 1, 2]]))
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        twophase.joined_distances(table, table, token)
    with pytest.raises(Cancelled):
        twophase.near_distances(twophase.Guide(table, np.zeros(3, dtype=np.uint8)), cancel=token)

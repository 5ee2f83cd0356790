"""The "optimal" strategy: pattern databases (admissible) and IDA* (shortest answers, budgets, cancel)."""

from __future__ import annotations

from collections import deque
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hlavolamy.solve.tables.pdb as pdb
import hlavolamy.solve.strategies.optimal as optimal_module
import hlavolamy.solve.strategies.search as search_module
import hlavolamy.solve.auto as auto_module
import hlavolamy.solve.registry as registry
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.memo import analysis_cache, forget_shared
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, HlavolamyError
from hlavolamy.solve import solve
from hlavolamy.solve.strategies.optimal import _colours_tell_pieces, optimal, optimal_feasible
from hlavolamy.solve.tables.steps import _most_in_a_row
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.strategies.search import SearchFailed

WREATH_6 = {"l": [1, 2, 3, 4, 5, 0, 6, 7, 8, 9], "r": [6, 1, 8, 3, 4, 5, 7, 2, 9, 0]}
"""Santa 2023's wreath_6/6: two rings of six cells meeting in cells 0 and 2."""
WREATH_6_COLOURS = list("CACAAABBBB")


def random_puzzle(data: st.DataObject, cells: tuple[int, int], colours: int = 0) -> Puzzle:
    """A few random permutations as moves; colour ``i`` per cell, or random colours out of ``colours``."""
    n = data.draw(st.integers(*cells), label="cells")
    k = data.draw(st.integers(1, 3), label="moves")
    moves = {f"m{i}": data.draw(st.permutations(range(n)), label=f"m{i}") for i in range(k)}
    if colours:
        shown = data.draw(st.lists(st.integers(0, colours - 1), min_size=n, max_size=n), label="colours")
    else:
        shown = list(range(n))
    return Puzzle([str(c) for c in shown], moves)


def scramble(puzzle: Puzzle, data: st.DataObject, length: int) -> list[Turn]:
    steps = st.sampled_from(generators(puzzle))
    return data.draw(st.lists(steps, min_size=length // 2, max_size=length), label="scramble")


def distances(puzzle: Puzzle, goal: np.ndarray, wildcards: int) -> dict[bytes, int]:
    """Brute force: fewest steps from every reachable labelling to one with at most ``wildcards`` wrong cells."""
    perms = [puzzle.turn_perm(t) for t in generators(puzzle)]
    reach, queue = {goal.tobytes(): goal}, deque([goal])
    while queue:
        row = queue.popleft()
        for p in perms:
            child = row[p]
            if child.tobytes() not in reach:
                reach[child.tobytes()] = child
                queue.append(child)
    dist = {k: 0 for k, row in reach.items() if np.count_nonzero(row != goal) <= wildcards}
    queue = deque(reach[k] for k in dist)
    while queue:
        row = queue.popleft()
        for p in perms:  # the steps are closed under inverses, so this walks edges backwards too
            child = row[p]
            if child.tobytes() not in dist:
                dist[child.tobytes()] = dist[row.tobytes()] + 1
                queue.append(child)
    return dist


@pytest.fixture(autouse=True)
def fresh_tables():
    """Tables are shared per set of moves: tests that change the size limits must not see each other's."""
    forget_shared()
    yield
    forget_shared()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_optimal_is_as_short_as_breadth_first_search(data):
    puzzle = random_puzzle(data, (4, 7))
    limit = data.draw(st.sampled_from([6, 40, 2_000_000]), label="pattern limit")
    turns = scramble(puzzle, data, 14)
    start = State.solved(puzzle).apply(turns)
    assume(not start.is_solved())
    forget_shared()
    with patch.object(pdb, "MAX_PATTERN_STATES", limit):
        try:
            found = solve(puzzle, start, strategy="optimal")
        except SearchFailed:  # no projection fits in 6 states (say, 7 cells moving as one orbit)
            assert limit == 6
            return
    shortest = solve(puzzle, start, strategy="search")
    assert found.strategy == "optimal" and start.apply(found.moves).is_solved()
    assert found.length == shortest.length <= puzzle.length(turns)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_pattern_distances_never_exceed_true_distances(data):
    coloured = data.draw(st.booleans(), label="by colours")
    puzzle = random_puzzle(data, (3, 7), colours=3 if coloured else 0)
    wildcards = data.draw(st.integers(0, 2), label="wildcards")
    goal = puzzle.colour_ids.astype(np.int64) if coloured else np.arange(puzzle.n_cells)
    forget_shared()
    with patch.object(pdb, "MAX_PATTERN_STATES", data.draw(st.sampled_from([10, 100, 5000]), label="limit")):
        tables = pdb.patterns(puzzle, goal, not coloured)
    truth = distances(puzzle, goal, wildcards)
    rows = np.array([np.frombuffer(k, dtype=goal.dtype) for k in truth])
    true = np.array(list(truth.values()))
    for table in tables:
        ranks = table.ranks(rows)
        assert np.all(ranks >= 0)
        assert np.all(table.distances(wildcards)[ranks] <= true), table.name


def test_projection_of_a_whole_small_orbit_is_exact():
    puzzle = Puzzle(WREATH_6_COLOURS, WREATH_6)
    goal = puzzle.colour_ids.astype(np.int64)
    (table,) = pdb.patterns(puzzle, goal, False)
    truth = distances(puzzle, goal, 2)
    rows = np.array([np.frombuffer(k, dtype=np.int64) for k in truth])
    assert table.size == len(truth) == 3150  # 10! / (4! 4! 2!) colourings, all reachable
    assert np.array_equal(table.distances(2)[table.ranks(rows)], list(truth.values()))


@pytest.mark.parametrize("wildcards", [0, 2])
def test_colours_with_wildcards_get_the_shortest_answer(wildcards):
    puzzle = Puzzle(WREATH_6_COLOURS, WREATH_6)
    start = State.solved(puzzle).apply("l r' l l r l' r r l r' l' r")
    truth = distances(puzzle, puzzle.colour_ids.astype(np.int64), wildcards)
    found = solve(puzzle, start.colour_ids(), strategy="optimal", wildcards=wildcards)
    assert found.length == truth[start.colour_ids().astype(np.int64).tobytes()]
    shown = start.apply(found.moves).colour_ids()
    assert np.count_nonzero(shown != puzzle.colour_ids) <= wildcards


def test_pruning_commuting_moves_keeps_the_shortest_answers():
    n = 11  # L and R overlap (4-cycles); M, a 5-cycle elsewhere, commutes with both
    puzzle = Puzzle([str(i) for i in range(n)], {"L": P.from_cycles(n, [[0, 1, 2, 3]]),
                                                 "M": P.from_cycles(n, [[6, 7, 8, 9, 10]]),
                                                 "R": P.from_cycles(n, [[2, 3, 4, 5]])})
    steps = generators(puzzle)
    rng = np.random.default_rng(5)
    lengths = []
    with patch.object(pdb, "MAX_PATTERN_STATES", 30):
        for _ in range(6):
            start = State.solved(puzzle).apply([steps[i] for i in rng.integers(0, len(steps), 20)])
            found = solve(puzzle, start, strategy="optimal")
            assert found.length == solve(puzzle, start, strategy="search").length
            lengths.append(found.length)
    assert max(lengths) >= 6


def test_colours_that_tell_every_piece_are_solved_as_the_position_they_show():
    puzzle = Puzzle([str(i) for i in range(8)], {"a": [1, 2, 3, 4, 5, 6, 7, 0], "b": [1, 0, 2, 3, 4, 5, 6, 7]})
    start = State.solved(puzzle).apply("a b a a b a' b a a a b")
    by_colours = solve(puzzle, start.colour_ids(), strategy="optimal")
    assert "solve.pdb.exact" in analysis_cache(puzzle).memo
    assert by_colours.length == solve(puzzle, start, strategy="search").length


def test_colours_tell_the_position_when_no_piece_and_turn_look_alike():
    from hlavolamy.analysis.blocks import pieces
    from hlavolamy.core.fileformat import load_puzzle
    from tests.conftest import PUZZLES

    rubik2 = load_puzzle(PUZZLES / "rubik2.json").puzzle
    corners = pieces(rubik2).piece_orbits[0]
    goal = np.zeros(rubik2.n_cells, dtype=np.int64)
    goal[corners.cells] = [[q, 8, 8] for q in range(corners.n_pieces)]  # colour q marks piece and turn
    assert _colours_tell_pieces(rubik2, goal)
    goal[corners.cells[0]] = [9, 8, 8]
    goal[corners.cells[1]] = [8, 9, 8]  # the same piece turned
    assert not _colours_tell_pieces(rubik2, goal)


def test_auto_uses_it_between_breadth_first_search_and_the_chain():
    puzzle = Puzzle([str(i) for i in range(8)], {"a": [1, 2, 3, 4, 5, 6, 7, 0], "b": [1, 0, 2, 3, 4, 5, 6, 7]})
    start = State.solved(puzzle).apply("a b a a b a' b a a a b")
    with patch.object(search_module, "MAX_ORDER", 100):
        found = solve(puzzle, start, strategy="auto")
        raced = Problem.from_input(puzzle, start)  # the race alone (the anytime runner's first answer aside)
        used = registry.run(raced, "auto", registry.Context(CancelToken()))
    assert used == "optimal"
    shortest = solve(puzzle, start, strategy="search").length
    assert found.length == raced.answer_length() == shortest  # the first answer (a capped search) is too


def test_auto_falls_back_when_the_budget_runs_out():
    puzzle = Puzzle([str(i) for i in range(8)], {"a": [1, 2, 3, 4, 5, 6, 7, 0], "b": [1, 0, 2, 3, 4, 5, 6, 7]})
    start = State.solved(puzzle).apply("a b a a b a' b a a a b")
    with patch.object(search_module, "MAX_ORDER", 100), patch.object(auto_module, "AUTO_NODES", 0):
        found = solve(puzzle, start)
    assert found.strategy != "optimal" and start.apply(found.moves).is_solved()


def test_auto_tries_it_only_where_positions_are_few():
    from hlavolamy.core.fileformat import load_puzzle
    from tests.conftest import PUZZLES

    rubik3 = load_puzzle(PUZZLES / "rubik3.json").puzzle  # 4.3e19 positions
    assert not optimal_feasible(Problem.from_input(rubik3, State.solved(rubik3)))
    wreath = Puzzle(WREATH_6_COLOURS, WREATH_6)  # 1.8 million positions, 3,150 colourings
    assert optimal_feasible(Problem.from_input(wreath, wreath.colour_ids, wildcards=2))


def test_node_budget_and_cancel():
    puzzle = Puzzle([str(i) for i in range(8)], {"a": [1, 2, 3, 4, 5, 6, 7, 0], "b": [1, 0, 2, 3, 4, 5, 6, 7]})
    start = State.solved(puzzle).apply("a b a a b a' b a a a b")
    with patch.object(pdb, "MAX_PATTERN_STATES", 100):
        with pytest.raises(SearchFailed, match="nodes"):
            optimal(Problem.from_input(puzzle, start), nodes=5)
        token = CancelToken()
        token.cancel()
        with pytest.raises(Cancelled):
            solve(puzzle, start, strategy="optimal", cancel=token)


def test_whole_puzzles_only():
    puzzle = Puzzle(WREATH_6_COLOURS, WREATH_6)
    with pytest.raises(HlavolamyError, match="whole puzzles only"):
        solve(puzzle, State.solved(puzzle).apply("l r"), strategy="optimal", mode="orbit-only", orbit=0)


def test_steps_in_a_row_stop_at_half_the_order():
    assert [_most_in_a_row(4, 1), _most_in_a_row(4, -1)] == [2, 1]  # R R, never R' R'
    assert [_most_in_a_row(5, 1), _most_in_a_row(5, -1)] == [2, 2]
    assert _most_in_a_row(2, 1) == 1


# -- auto's node budget: work, never seconds (issue 19) ------------------------------------------------------------
EIGHT = Puzzle([str(i) for i in range(8)], {"a": [1, 2, 3, 4, 5, 6, 7, 0], "b": [1, 0, 2, 3, 4, 5, 6, 7]})
"""An 8-cycle and a swap: 40,320 positions, where ``auto`` sends a whole puzzle to IDA* (search capped below it)."""
EIGHT_START = "a b a a b a' b a a a b"


def nodes_generated(start: State, budget: int) -> tuple[int, Problem | None]:
    """Nodes the IDA* generated on ``start`` within ``budget`` (counted by the search itself), and the solved
    problem (None past the budget)."""
    searches = []

    def counted(*args):
        searches.append(real(*args))
        return searches[-1]

    real = optimal_module._Search
    problem = Problem.from_input(start.puzzle, start)
    with patch.object(optimal_module, "_Search", counted):
        try:
            optimal(problem, nodes=budget)
        except SearchFailed:
            problem = None
    return searches[0].generated, problem


def test_the_node_budget_is_honoured_to_the_node():
    start = State.solved(EIGHT).apply(EIGHT_START)
    needed, solved = nodes_generated(start, 10**9)
    assert solved is not None and needed > 0
    again, exactly = nodes_generated(start, needed)
    assert again == needed and exactly is not None and exactly.turns == solved.turns
    spent, short = nodes_generated(start, needed - 1)
    assert short is None and spent >= needed  # it stops at the chunk that passes the budget, not later


def test_auto_is_bounded_by_nodes_and_gives_the_same_moves_whatever_the_clock_or_the_load(monkeypatch):
    """The same call twice gives the same moves: on a clock that jumps 1,000 s at every reading (any seconds-based
    cap would have fired) and beside a busy thread; a budget one node short sends auto elsewhere, every time."""
    import threading
    import time

    start = State.solved(EIGHT).apply(EIGHT_START)
    needed, _ = nodes_generated(start, 10**9)

    def auto_answer() -> tuple[str, list[Turn]]:
        problem = Problem.from_input(EIGHT, start)
        used = registry.run(problem, "auto", registry.Context(CancelToken()))
        return used, problem.turns

    with patch.object(search_module, "MAX_ORDER", 100), patch.object(auto_module, "AUTO_NODES", needed):
        idle = auto_answer()
        busy = threading.Event()

        def spin() -> None:
            while not busy.is_set():
                sum(range(1000))

        hog = threading.Thread(target=spin, daemon=True)
        hog.start()
        try:
            loaded = auto_answer()
        finally:
            busy.set()
            hog.join()
        now = [time.monotonic()]

        def jumping() -> float:
            now[0] += 1000.0
            return now[0]

        with monkeypatch.context() as clock:
            for name in ("monotonic", "perf_counter", "time", "process_time"):
                clock.setattr(time, name, jumping)
            slow_clock = auto_answer()
    assert idle[0] == "optimal" and idle == loaded == slow_clock
    with patch.object(search_module, "MAX_ORDER", 100), patch.object(auto_module, "AUTO_NODES", needed - 1):
        short = auto_answer(), auto_answer()
    assert short[0][0] != "optimal" and short[0] == short[1]


def test_auto_nodes_is_what_the_old_caps_allowed_on_an_idle_core():
    """3M nodes: the old node cap, reached before the old 5 s on an idle core (0.9-1.2M nodes per CPU second
    measured on pyraminx/skewb/dino, docs/algorithms.md), so ``auto`` answers as the old idle run did."""
    assert auto_module.AUTO_NODES == optimal_module.AUTO_NODES == 3_000_000

"""Blocking puzzles: shapes, legality, exact counts and the solver on small hand-built puzzles.

Every claim is checked against an independent brute force that plays moves
with :meth:`State.apply` (which refuses illegal steps) and records what it
reaches.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis.blocking import (
    ShapeSpace,
    analyse_blocking,
    merge_powers,
    shape_graph,
)
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import random_scramble, scrambled
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, IllegalMoveError, PuzzleError, UnreachableError
from hlavolamy.solve import Improvement, solve
from hlavolamy.solve.strategies.blocked import (
    find_blocked_solution,
    search_positions,
    verify_legal,
)


def two_triangles(blockings=((0, 1),)) -> Puzzle:
    """Cells 0..5: ``a`` cycles 0 1 2, ``b`` cycles 1 3 4 5 (they share cell 1)."""
    return Puzzle("AABBCC", {"a": [2, 0, 1, 3, 4, 5], "b": [0, 5, 2, 1, 3, 4]}, blockings=blockings)


def two_rings() -> Puzzle:
    """Cells 0..6: ``L`` turns 0 1 2 3, ``R`` turns 3 4 5 6; cells 1 and 2 fused, so R is blocked half the time."""
    return Puzzle("AABBCCD", {"L": [3, 0, 1, 2, 4, 5, 6], "R": [0, 1, 2, 6, 3, 4, 5]}, blockings=[(1, 2)])


def brute_force(puzzle: Puzzle) -> dict[bytes, int]:
    """Every position reachable by legal single steps, with its distance (independent BFS via State.apply)."""
    start = State.solved(puzzle)
    dist = {start.perm.tobytes(): 0}
    queue = deque([start])
    steps = [Turn(m, s) for m in puzzle.moves for s in (1, -1)]
    while queue:
        state = queue.popleft()
        for t in steps:
            try:
                nxt = state.apply([t])
            except IllegalMoveError:
                continue
            key = nxt.perm.tobytes()
            if key not in dist:
                dist[key] = dist[state.perm.tobytes()] + 1
                queue.append(nxt)
    return dist


@st.composite
def small_blocked_puzzles(draw) -> Puzzle:
    """Random puzzles of 5 or 6 cells, two or three moves, one or two disjoint fused pairs."""
    n = draw(st.integers(5, 6))
    n_moves = draw(st.integers(2, 3))
    moves = {f"m{k}": draw(st.permutations(range(n))) for k in range(n_moves)}
    cells = draw(st.permutations(range(n)))
    n_sets = draw(st.integers(1, 2))
    blockings = [cells[2 * k: 2 * k + 2] for k in range(n_sets)]
    return Puzzle([str(c % 3) for c in range(n)], moves, blockings=blockings)


# -- shapes and legality ------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(small_blocked_puzzles(), st.randoms(use_true_random=False))
def test_shape_legality_agrees_with_the_core(puzzle, rnd):
    """The shape decides legality exactly as fused_sets_torn does on the full state."""
    space = ShapeSpace(puzzle)
    perm = np.array(rnd.sample(range(puzzle.n_cells), puzzle.n_cells))
    legal = space.legal_mask(space.shapes_of(perm[None, :]))[0]
    for j, t in enumerate(space.steps):
        assert legal[j] == (not fused_sets_torn(puzzle, perm, t.move))


@settings(max_examples=40, deadline=None)
@given(small_blocked_puzzles(), st.randoms(use_true_random=False))
def test_moves_act_on_shapes_like_on_states(puzzle, rnd):
    space = ShapeSpace(puzzle)
    perm = np.array(rnd.sample(range(puzzle.n_cells), puzzle.n_cells))
    for j in range(len(space.steps)):
        after = space.advance(space.shape_of(perm)[None, :], j)[0]
        assert np.array_equal(after, space.shape_of(perm[space.step_perms[j]]))


def test_shape_forgets_which_fused_set_is_where():
    puzzle = two_triangles(blockings=((0, 1), (3, 4)))
    space = ShapeSpace(puzzle)
    swapped = np.array([3, 4, 2, 0, 1, 5])
    assert np.array_equal(space.shape_of(swapped), space.home)
    assert space.fused_position_sets(space.home) == [(0, 1), (3, 4)]


def test_puzzle_without_blockings_is_refused():
    with pytest.raises(PuzzleError, match="no blockings"):
        ShapeSpace(Puzzle("AB", {"s": [1, 0]}))


# -- analysis against brute force ------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(small_blocked_puzzles())
def test_reachable_count_matches_brute_force(puzzle):
    truth = brute_force(puzzle)
    by_search = analyse_blocking(puzzle)
    assert by_search.reachable == len(truth)
    assert not by_search.notes
    # Without the position search the count comes from shapes x |H| alone.
    puzzle.forget_tables()
    by_group = analyse_blocking(puzzle, max_states=0)
    assert by_group.reachable == len(truth)
    assert "stabiliser" in by_group.reachable_method


@settings(max_examples=15, deadline=None)
@given(small_blocked_puzzles())
def test_fused_reach_matches_brute_force(puzzle):
    truth = brute_force(puzzle)
    places: list[set[tuple[int, ...]]] = [set() for _ in puzzle.blockings]
    for key in truth:
        position_of = P.inverse(np.frombuffer(key, dtype=P.DTYPE))
        for k, b in enumerate(puzzle.blockings):
            places[k].add(tuple(sorted(position_of[sorted(b)].tolist())))
    reach = analyse_blocking(puzzle).fused_reach
    for k, r in enumerate(reach):
        assert r.places == len(places[k])
        assert set(r.positions) == {p for pl in places[k] for p in pl}


def test_report_names_legal_and_blocked_moves():
    puzzle = two_triangles()
    result = analyse_blocking(puzzle)
    assert result.legal_at_solved == ["a"]
    assert result.blocked_at_solved == {"b": [(0, 1)]}
    text = result.report()
    assert "b is blocked: it would tear [0, 1]" in text
    data = result.to_json()
    assert data["legal_at_solved"] == ["a"] and data["reachable"]["count"] == str(result.reachable)
    assert data["shapes"]["count"] == result.n_shapes


def test_bounded_shape_exploration_says_so():
    puzzle = Puzzle("ABCDEFG", two_rings().moves, blockings=[(1, 2)])
    result = analyse_blocking(puzzle, max_shapes=2)
    assert not result.shapes_complete and result.n_shapes == 2
    assert any("cut at 2 shapes" in note for note in result.notes)
    assert "at least this many" in result.report()
    assert result.reachable == len(brute_force(puzzle))  # the position search does not depend on shapes
    from hlavolamy.solve.strategies.blocked import shape_index

    far = State.solved(puzzle).apply("L2")
    with pytest.raises(UnreachableError, match="may be reachable"):
        shape_index(shape_graph(puzzle, max_shapes=2), far.perm)


def test_analysis_can_be_cancelled():
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        analyse_blocking(two_triangles(), cancel=token)


# -- solving ---------------------------------------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(small_blocked_puzzles())
def test_every_reachable_position_is_solved_optimally_and_legally(puzzle):
    truth = brute_force(puzzle)
    for key, distance in list(truth.items())[:60]:
        state = State(puzzle, np.frombuffer(key, dtype=P.DTYPE))
        result = find_blocked_solution(puzzle, state, budget=CancelToken())
        verify_legal(puzzle, state, result.moves)  # raises if a step is illegal or it does not solve
        assert puzzle.length(result.moves) == distance


def test_swapped_fused_pair_is_reported_unreachable():
    puzzle = two_triangles()
    state = State(puzzle, [1, 0, 2, 3, 4, 5])  # the two fused cells swapped with each other
    truth = brute_force(puzzle)
    assert state.perm.tobytes() not in truth
    with pytest.raises(UnreachableError, match="not among the"):
        find_blocked_solution(puzzle, state, budget=CancelToken())


def test_impossible_shape_is_reported_by_the_two_phase_solver():
    puzzle = two_triangles()
    graph = shape_graph(puzzle)
    from hlavolamy.solve.strategies.blocked import shape_index

    with pytest.raises(UnreachableError, match=r"puts fused cells at positions \[3, 4\]"):
        shape_index(graph, np.array([3, 4, 2, 0, 1, 5]))  # the fused pair never leaves cells 0..2


def test_ida_star_finds_an_optimal_legal_solution():
    puzzle = two_triangles(blockings=((0, 2),))
    truth = brute_force(puzzle)
    graph = shape_graph(puzzle)
    far = max(truth, key=truth.get)
    perm = np.frombuffer(far, dtype=P.DTYPE).copy()
    moves = search_positions(puzzle, graph, perm, bound=truth[far], max_nodes=200_000, budget=CancelToken())
    assert moves is not None and puzzle.length(moves) == truth[far]
    verify_legal(puzzle, State(puzzle, perm), moves)
    assert search_positions(puzzle, graph, perm, bound=truth[far] - 1, max_nodes=200_000,
                            budget=CancelToken()) is None


def test_scrambles_are_legal_and_solve_back():
    puzzle = two_rings()
    for seed in range(10):
        turns = random_scramble(puzzle, 12, seed)
        state = State.solved(puzzle).apply(turns)  # check_legal: an illegal scramble step raises
        result = find_blocked_solution(puzzle, state, budget=CancelToken())
        verify_legal(puzzle, state, result.moves)


def test_two_phase_solver_round_trips():
    """Phase 1 and phase 2 (the generic solver on the macro puzzle) without the small-puzzle table."""
    from hlavolamy.solve.strategies.blocked import two_phase

    puzzle = two_rings()
    graph = shape_graph(puzzle)
    for seed in range(5):
        state = scrambled(puzzle, 15, seed)
        moves = two_phase(puzzle, graph, state.perm, budget=CancelToken())
        verify_legal(puzzle, state, moves)


def test_solver_honours_cancel_and_refuses_colour_positions():
    from hlavolamy.errors import HlavolamyError
    puzzle = two_rings()
    state = State.solved(puzzle).apply("L")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        solve(puzzle, state, cancel=token)
    with pytest.raises(HlavolamyError, match="colours"):
        solve(puzzle, puzzle.colour_ids)
    solution = solve(puzzle, state)  # no wall-clock limit: a busy machine must not change the verdict
    assert solution.moves == [Turn("L", -1)]


def test_merge_powers_merges_neighbours_only():
    puzzle = two_triangles()
    turns = [Turn("a", 1), Turn("a", 1), Turn("b", 1), Turn("b", -1), Turn("a", 1)]
    assert merge_powers(puzzle, turns) == []  # a2, then b b' cancels, then a3 = identity
    assert merge_powers(puzzle, [Turn("a", 1), Turn("b", 1), Turn("a", 1)]) == [Turn("a", 1), Turn("b", 1), Turn("a", 1)]


def test_a_blocked_solve_is_anytime_and_every_answer_replays_legally():
    """The quick route answers first, the full blocked strategy after; each answer told is legal on every step."""
    puzzle = two_rings()
    state = scrambled(puzzle, 30, 4)
    told: list[Improvement] = []
    solution = solve(puzzle, state, on_answer=told.append)
    assert told[0].first and told[0].strategy == "blocked"
    for answer in [*told, solution]:
        assert state.apply(list(answer.moves), check_legal=True).is_solved()
    assert solution.length == told[-1].length <= told[0].length

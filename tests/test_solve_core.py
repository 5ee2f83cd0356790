"""The solver: any reachable position of any puzzle, exact or by colours, verified; simplification."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, HlavolamyError, UnreachableError
from hlavolamy.solve import solve
from hlavolamy.solve.passes.simplify import simplify


def random_puzzle(data: st.DataObject, cells: tuple[int, int], coloured: bool = False) -> Puzzle:
    n = data.draw(st.integers(*cells), label="cells")
    k = data.draw(st.integers(1, 3), label="moves")
    moves = {f"m{i}": data.draw(st.permutations(range(n)), label=f"m{i}") for i in range(k)}
    colours = [str(c) for c in data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))] if coloured else [str(i) for i in range(n)]
    return Puzzle(colours, moves)


def scrambled(puzzle: Puzzle, data: st.DataObject, length: int = 40) -> State:
    names = list(puzzle.moves)
    seq = data.draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from([1, -1])), max_size=length), label="scramble")
    return State.solved(puzzle).apply([Turn(m, p) for m, p in seq])


def replay(puzzle: Puzzle, state: State, moves: list[Turn]) -> State:
    return state.apply(moves)


def test_rubik2_exact_and_by_colours():
    from hlavolamy.core.fileformat import load_puzzle
    from tests.conftest import PUZZLES

    puzzle = load_puzzle(PUZZLES / "rubik2.json").puzzle
    state = State.solved(puzzle).apply([Turn(m, 1) for m in list(puzzle.moves) * 5][:23])
    assert state.apply(solve(puzzle, state).moves).is_solved()
    assert state.apply(solve(puzzle, state.colour_ids()).moves).is_colour_solved()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_small_groups_solve_exactly(data):
    puzzle = random_puzzle(data, (2, 9))
    state = scrambled(puzzle, data)
    sol = solve(puzzle, state)
    assert replay(puzzle, state, sol.moves).is_solved()
    assert sol.length == puzzle.length(sol.moves)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_groups_commutators_strategy(data):
    puzzle = random_puzzle(data, (9, 11))
    state = scrambled(puzzle, data)
    sol = solve(puzzle, state, strategy="commutators")
    assert replay(puzzle, state, sol.moves).is_solved()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_groups_by_colours(data):
    puzzle = random_puzzle(data, (3, 10), coloured=True)
    state = scrambled(puzzle, data)
    sol = solve(puzzle, state.colour_ids())
    assert replay(puzzle, state, sol.moves).is_colour_solved()


def ring_and_swap(n: int = 10) -> Puzzle:
    """Cyclic shift and a transposition: the whole symmetric group on n cells."""
    return Puzzle([str(i) for i in range(n)], {"r": [(i + 1) % n for i in range(n)], "s": [1, 0] + list(range(2, n))})


@pytest.mark.parametrize("strategy", ["auto", "commutators", "search"])
def test_strategies_agree_on_a_permutation_group(strategy):
    puzzle = ring_and_swap(7)
    state = State.solved(puzzle).apply("r s r r s r' s r")
    sol = solve(puzzle, state, strategy=strategy)
    assert state.apply(sol.moves).is_solved()


def test_search_is_shortest():
    puzzle = ring_and_swap(5)
    state = State.solved(puzzle).apply("r s")
    sol = solve(puzzle, state, strategy="search")
    assert sol.length == 2


def test_wildcards_leave_at_most_k_cells_wrong():
    puzzle = ring_and_swap(6)
    state = State.solved(puzzle).apply("s")
    sol = solve(puzzle, state.colour_ids(), wildcards=2)
    assert sol.length == 0


def test_unreachable_position_is_explained():
    puzzle = Puzzle(["a", "b", "c", "d"], {"r": [1, 2, 0, 3]})
    with pytest.raises(UnreachableError):
        solve(puzzle, State(puzzle, [0, 1, 3, 2]))


def test_unreachable_colours_are_explained():
    puzzle = Puzzle(["a", "b", "c", "d"], {"r": [1, 2, 0, 3]})
    with pytest.raises(UnreachableError):
        solve(puzzle, np.array([0, 1, 3, 2]))


def test_bad_arguments_are_named():
    puzzle = ring_and_swap(4)
    with pytest.raises(HlavolamyError, match="strategy"):
        solve(puzzle, State.solved(puzzle), strategy="magic")
    with pytest.raises(HlavolamyError, match="mode"):
        solve(puzzle, State.solved(puzzle), mode="half")
    with pytest.raises(HlavolamyError, match="colour"):
        solve(puzzle, np.array([0, 0, 1, 2]))


def test_cancelled_token_stops_the_solver():
    puzzle = ring_and_swap(9)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        solve(puzzle, State.solved(puzzle).apply("r s r s r"), strategy="commutators", cancel=token)


def test_orbit_keep_leaves_the_rest_alone():
    puzzle = Puzzle([str(i) for i in range(12)], {
        "a": [1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11],
        "b": [0, 2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        "c": [0, 1, 2, 3, 4, 5, 7, 8, 6, 9, 10, 11],
        "d": [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 8],
    })
    state = State.solved(puzzle).apply("a b a a b a' c d d c")
    sol = solve(puzzle, state, mode="orbit-keep", orbit=0)
    end = state.apply(sol.moves)
    assert np.array_equal(end.perm[:6], np.arange(6))
    assert np.array_equal(end.perm[6:], state.perm[6:])


def test_orbit_mode_needs_an_orbit():
    puzzle = ring_and_swap(4)
    with pytest.raises(HlavolamyError, match="orbit"):
        solve(puzzle, State.solved(puzzle), mode="orbit-only")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_simplify_keeps_the_permutation_and_never_lengthens(data):
    puzzle = Puzzle([str(i) for i in range(6)], {
        "a": [1, 2, 0, 3, 4, 5], "b": [0, 1, 2, 4, 5, 3], "c": [1, 0, 2, 3, 4, 5]})
    seq = [Turn(m, p) for m, p in data.draw(st.lists(st.tuples(st.sampled_from("abc"), st.integers(-3, 3)), max_size=20))]
    out = simplify(puzzle, seq)
    assert np.array_equal(puzzle.perm_of(out), puzzle.perm_of(seq))
    assert puzzle.length(out) <= puzzle.length(seq)


def test_simplify_cancels_across_commuting_moves():
    puzzle = Puzzle([str(i) for i in range(6)], {"a": [1, 2, 0, 3, 4, 5], "b": [0, 1, 2, 4, 5, 3]})
    assert simplify(puzzle, [Turn("a"), Turn("b"), Turn("a", -1)]) == [Turn("b")]
    assert simplify(puzzle, [Turn("a"), Turn("a"), Turn("a")]) == []
    assert simplify(puzzle, [Turn("a"), Turn("a")]) == [Turn("a", -1)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rubik2", "rubik3"])
def test_shipped_cubes_random_positions(name):
    from hlavolamy.core.fileformat import load_puzzle
    from tests.conftest import PUZZLES

    puzzle = load_puzzle(PUZZLES / f"{name}.json").puzzle
    rng = np.random.default_rng(7)
    names = list(puzzle.moves)
    for _ in range(2):
        state = State.solved(puzzle).apply([Turn(names[i], 1) for i in rng.integers(len(names), size=60)])
        sol = solve(puzzle, state)
        assert state.apply(sol.moves).is_solved()
        sol = solve(puzzle, state.colour_ids())
        assert state.apply(sol.moves).is_colour_solved()


def test_triple_search_setups_carry_the_triple():
    from hlavolamy.solve.macros.greedy import local_moves
    from hlavolamy.solve.macros.targeted import TripleSearch, TripleSteps

    puzzle = ring_and_swap(6)
    cells = np.arange(6)
    search = TripleSearch(TripleSteps(*local_moves(puzzle, cells)), (0, 1, 2))
    for target in [(3, 4, 5), (5, 0, 2), (2, 1, 0)]:
        assert search.reachable(*target)
        setup = search.setup(*target)
        a = puzzle.perm_of(setup)
        assert (int(a[0]), int(a[1]), int(a[2])) == target
        assert search.depth(*target) == len(setup)


def test_the_first_reachable_third_cell_is_the_first_in_the_order_given():
    """One gather answers what asking cell after cell did: the first ``z`` in the given order whose triple
    the set-ups reach, None where none is."""
    from hlavolamy.solve.macros.greedy import local_moves
    from hlavolamy.solve.macros.targeted import TripleSearch, TripleSteps

    puzzle = Puzzle([str(i) for i in range(8)], {"r": [(i + 1) % 8 for i in range(8)]})  # 8 of 336 triples
    search = TripleSearch(TripleSteps(*local_moves(puzzle, np.arange(8))), (0, 1, 2))
    n, misses = 8, 0
    rng = np.random.default_rng(3)
    for _ in range(50):
        x, y = rng.choice(n, 2, replace=False)
        zs = rng.permutation(np.setdiff1d(np.arange(n), [x, y]))
        expected = next((int(z) for z in zs if search.reachable(int(x), int(y), int(z))), None)
        assert search.first_reachable(int(x), int(y), zs) == expected
        misses += expected is None
    assert 0 < misses < 50
    assert search.first_reachable(0, 1, np.array([], dtype=np.int64)) is None

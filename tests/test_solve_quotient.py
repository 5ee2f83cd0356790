"""Phase 0: frozen cells and parities by breadth-first search, and parities by linear algebra over GF(p)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.invariants import invariants
from hlavolamy.analysis.membership import group_order
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import scrambled
from hlavolamy.solve.macros.decompose import plan
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.tables.quotient import (
    MAX_NODES,
    _gfp_solve,
    bfs_quotient,
    chain_quotient,
    colourings_lower_bound,
    fix_parities_linear,
    invariant_vector,
    pieces_lower_bound,
    quotient_puzzle,
)
from tests.conftest import PUZZLES


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 5]), st.integers(1, 6), st.integers(1, 6), st.data())
def test_gfp_solve_finds_a_combination_whenever_one_exists(p, nrows, ncols, data):
    rows = np.array(data.draw(st.lists(st.lists(st.integers(0, p - 1), min_size=ncols, max_size=ncols),
                                       min_size=nrows, max_size=nrows)))
    coeff = np.array(data.draw(st.lists(st.integers(0, p - 1), min_size=nrows, max_size=nrows)))
    target = coeff @ rows % p
    found = _gfp_solve(rows, target, p)
    assert found is not None
    assert np.array_equal(found @ rows % p, target)


def test_gfp_solve_says_none_outside_the_span():
    assert _gfp_solve(np.array([[1, 1, 0]]), np.array([1, 0, 0]), 3) is None


def test_linear_fix_on_a_cube_with_twist_components():
    """A 4x4x4 has mod-2 parities and a mod-3 twist sum: the old GF(2)-only fixer refused it."""
    cube_puzzle = load_puzzle(PUZZLES / "rubik4.json").puzzle
    assert {c.modulus for c in invariants(cube_puzzle).components} == {2, 3}
    frozen = plan(cube_puzzle).frozen
    for seed in range(4):
        state = scrambled(cube_puzzle, 60, seed)
        problem = Problem.from_input(cube_puzzle, state)
        problem.play(bfs_quotient(problem, frozen, False))
        problem.play(fix_parities_linear(problem, frozen))
        assert not invariant_vector(cube_puzzle, problem.labels).any()
        assert np.array_equal(problem.labels[frozen], problem.goal[frozen])


def _orbit_cells(puzzle, n_pieces: int) -> np.ndarray:
    """The cells of the piece orbit of ``n_pieces`` pieces (a 3x3x3's 8 corners or 12 edges)."""
    po = next(po for po in pieces(puzzle).piece_orbits if po.n_pieces == n_pieces)
    return np.sort(po.cells.ravel())


def test_the_pieces_lower_bound_never_exceeds_the_quotients_order(rubik3):
    """Jordan's theorem on the pieces' permutations: 8!/2 for the corners (small enough to search), 12!/2 for the
    edges (too many states); either way at most the order Schreier–Sims proves for the quotient."""
    corners, edges = _orbit_cells(rubik3, 8), _orbit_cells(rubik3, 12)
    assert pieces_lower_bound(rubik3, corners) <= MAX_NODES < pieces_lower_bound(rubik3, edges)
    for frozen in (corners, edges):
        assert pieces_lower_bound(rubik3, frozen) <= group_order(quotient_puzzle(rubik3, frozen, False)).value


def test_the_colourings_lower_bound_counts_pieces_told_apart_by_colours(rubik3):
    """A search by colours meets at least the arrangements of the pieces' colour sets (half, under an
    alternating group): 8!/2 for 8 corners of distinct colours, fewer as corners look alike, and never more
    than the breadth-first search by colours then meets; by the group's proven order over what can keep the
    colouring (a first answer's bound), 8! 3^7 for corners of distinct colours (every twist shows)."""
    corners = _orbit_cells(rubik3, 8)
    goal = rubik3.colour_ids.astype(np.int64)
    assert colourings_lower_bound(rubik3, corners, goal) == 40320 // 2
    assert colourings_lower_bound(rubik3, corners, goal, by_order=True) == 40320 * 3 ** 7  # every twist seen
    alike = goal.copy()
    alike[corners] = 0
    assert colourings_lower_bound(rubik3, corners, alike) == 1
    assert colourings_lower_bound(rubik3, corners, alike, by_order=True) == 1
    po = next(po for po in pieces(rubik3).piece_orbits if po.n_pieces == 8)
    halves = goal.copy()
    halves[po.cells[:4]] = 0  # four corners one colour all over, four another
    halves[po.cells[4:]] = 1
    assert colourings_lower_bound(rubik3, corners, halves) == 70 // 2
    assert colourings_lower_bound(rubik3, corners, halves, by_order=True) == 70 // 2
    colours = Puzzle([str(c) for c in halves.tolist()], rubik3.moves)
    problem = Problem.from_input(colours, colours.colour_ids[scrambled(rubik3, 40, 2).perm])
    assert problem.exact is False
    bfs_quotient(problem, corners, False)  # not refused: its bound is small...
    assert colourings_lower_bound(rubik3, _orbit_cells(rubik3, 12), goal) > MAX_NODES  # ...the edges' is not


def test_a_search_by_colours_bound_to_give_up_is_not_started(rubik3):
    """The edges of a 3x3x3 by colours: refused before the first state, not after 300,000 of them."""
    import hlavolamy.solve.tables.quotient as quotient

    problem = Problem.from_input(rubik3, rubik3.colour_ids[scrambled(rubik3, 40, 1).perm])
    class Watching(quotient.CancelToken):
        def check(self):
            pytest.fail("the search expanded states")

    with pytest.raises(quotient.QuotientTooBig):
        bfs_quotient(problem, _orbit_cells(rubik3, 12), False, cancel=Watching())


def test_a_first_answers_search_by_colours_counts_the_twists_too(rubik3):
    """The corners of a 3x3x3 by colours: 8!/2 arrangements of the pieces, few enough to search for the race's
    shortest fix, but 8! 3^7 colourings with the twists, so a first answer's phase 0 does not start it."""
    import hlavolamy.solve.tables.quotient as quotient

    problem = Problem.from_input(rubik3, rubik3.colour_ids[scrambled(rubik3, 40, 1).perm])
    class Watching(quotient.CancelToken):
        def check(self):
            pytest.fail("the search expanded states")

    with pytest.raises(quotient.QuotientTooBig):
        bfs_quotient(problem, _orbit_cells(rubik3, 8), False, cancel=Watching(), quick=True)
    with pytest.raises(quotient.QuotientTooBig, match="more than 300000 quotient states"):
        bfs_quotient(problem, _orbit_cells(rubik3, 8), False)  # searched: gives up only after its states


def test_the_quick_quotient_chain_fixes_the_frozen_cells_and_the_parities(rubik3):
    """The first answer's phase 0 (a quick chain of the quotient) leaves what the full chain leaves: the frozen
    cells right and every invariant at its solved value."""
    edges = _orbit_cells(rubik3, 12)
    for quick in (True, False):
        for seed in range(3):
            state = scrambled(rubik3, 60, seed)
            problem = Problem.from_input(rubik3, state)
            problem.play(chain_quotient(problem, edges, quick=quick))
            assert np.array_equal(problem.labels[edges], problem.goal[edges])
            assert not invariant_vector(rubik3, problem.labels).any()


def test_turns_acting_alike_on_the_quotient_are_searched_once(rubik3, monkeypatch):
    """Every turn listed twice: the second copy only finds the first one's states again, so it is dropped and
    the search keeps the same path (a 33x33x33's 198 turns act on its parities in 17 ways)."""
    import hlavolamy.solve.tables.quotient as quotient
    from hlavolamy.analysis.independent import generators

    problem = Problem.from_input(rubik3, scrambled(rubik3, 3, 2))
    corners, turns = _orbit_cells(rubik3, 8), list(generators(rubik3))
    searched: list[int] = []
    kept = quotient._distinct_actions
    monkeypatch.setattr(quotient, "_distinct_actions", lambda *a: searched.append(len(a[0])) or kept(*a))
    once = bfs_quotient(problem, corners, True, gens=turns)
    twice = bfs_quotient(problem, corners, True, gens=turns + turns[::-1])
    assert once == twice and len(once) <= 3
    assert searched == [len(turns), 2 * len(turns)]
    _, local, vectors = kept(turns + turns, [np.arange(3)] * (2 * len(turns)), np.zeros((2 * len(turns), 1)))
    assert len(local) == 1 and vectors.shape == (1, 1)  # acting alike on nothing but three fixed cells

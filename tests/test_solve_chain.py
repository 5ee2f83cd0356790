"""The stabiliser-chain solver: exact group orders, solutions that replay, non-members rejected."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sympy.combinatorics import Permutation, PermutationGroup

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, UnreachableError
from hlavolamy.analysis.memo import analysis_cache, forget_shared
from hlavolamy.solve.tables.chain import CACHE_KEY, ChainTooLarge, build_chain, chain_solve
from tests.conftest import PUZZLES


@pytest.fixture(autouse=True)
def fresh_chains():
    """Chains are shared by puzzles with the same moves; each test here builds its own."""
    forget_shared()
    yield
    forget_shared()


def random_puzzle(data: st.DataObject) -> Puzzle:
    n = data.draw(st.integers(4, 10), label="cells")
    k = data.draw(st.integers(1, 3), label="moves")
    moves = {f"m{i}": data.draw(st.permutations(range(n)), label=f"m{i}") for i in range(k)}
    return Puzzle([str(i) for i in range(n)], moves)


def sympy_order(puzzle: Puzzle) -> int:
    return PermutationGroup([Permutation(list(map(int, m))) for m in puzzle.moves.values()]).order()


def solves(puzzle: Puzzle, perm: np.ndarray, **kwargs) -> list[Turn]:
    moves = chain_solve(puzzle, perm, **kwargs)
    assert np.array_equal(perm[puzzle.perm_of(moves)], np.arange(puzzle.n_cells))
    return moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_groups_order_solve_and_membership(data):
    puzzle = random_puzzle(data)
    chain = build_chain(puzzle, improve=2e8)
    assert chain.order == sympy_order(puzzle)
    names = list(puzzle.moves)
    seq = data.draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from([1, -1])), max_size=30), label="word")
    perm = puzzle.perm_of([Turn(m, p) for m, p in seq])
    assert chain.contains(perm)
    solves(puzzle, perm, improve=2e8)
    outside = data.draw(st.permutations(range(puzzle.n_cells)), label="outside")
    outside = np.asarray(outside)
    member = chain.contains(outside)
    assert member == PermutationGroup([Permutation(list(map(int, m))) for m in puzzle.moves.values()]).contains(
        Permutation(outside.tolist()))
    if member:
        solves(puzzle, outside)
    else:
        with pytest.raises(UnreachableError, match="not in the group"):
            chain_solve(puzzle, outside)


def test_swap_outside_a_three_cycle_group_is_unreachable():
    puzzle = Puzzle(list("abcd"), {"t": [1, 2, 0, 3]})
    with pytest.raises(UnreachableError, match="not in the group"):
        chain_solve(puzzle, np.array([1, 0, 2, 3]))
    assert build_chain(puzzle).order == 3


def test_not_a_permutation_is_rejected(tiny_puzzle):
    with pytest.raises(UnreachableError, match="permutation of 4 cells"):
        chain_solve(tiny_puzzle, np.array([0, 0, 1, 2]))


def test_chain_is_cached_and_cancellable(tiny_puzzle):
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        build_chain(tiny_puzzle, cancel=token)
    assert CACHE_KEY not in analysis_cache(tiny_puzzle).memo
    chain = build_chain(tiny_puzzle)
    assert build_chain(tiny_puzzle) is chain


def test_puzzles_with_the_same_moves_share_one_chain(tiny_puzzle):
    twin = Puzzle(["X", "Y", "Y", "X"], {name: m for name, m in tiny_puzzle.moves.items()})
    assert build_chain(twin) is build_chain(tiny_puzzle)


def test_progress_is_reported(tiny_puzzle):
    seen = []
    build_chain(tiny_puzzle, progress=lambda f, m: seen.append(f))
    assert seen and seen[-1] == 1.0 and all(0.0 <= f <= 1.0 for f in seen)


def test_too_large_group_is_refused(monkeypatch, tiny_puzzle):
    monkeypatch.setattr("hlavolamy.solve.tables.chain.MAX_TABLE_BYTES", 10)
    with pytest.raises(ChainTooLarge, match="too large for the chain solver.*MiB"):
        build_chain(tiny_puzzle)
    monkeypatch.setattr("hlavolamy.solve.tables.chain.MAX_MOVED_CELLS", 3)
    with pytest.raises(ChainTooLarge, match="move 4 cells"):
        build_chain(tiny_puzzle)


@pytest.fixture(scope="module")
def rubik3() -> Puzzle:
    return load_puzzle(PUZZLES / "rubik3.json").puzzle


def test_rubik3_order_and_a_solve(rubik3):
    chain = build_chain(rubik3, improve=1e9)
    assert chain.order == 43252003274489856000
    perm = rubik3.perm_of(random_scramble(rubik3, 60, 3))
    moves = solves(rubik3, perm)
    assert rubik3.length(moves) < 200


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rubik2", "rashkey", "four-disks", "hungarian-rings"])
def test_shipped_puzzles_solve(name):
    puzzle = load_puzzle(PUZZLES / f"{name}.json").puzzle
    for seed in range(3):
        solves(puzzle, puzzle.perm_of(random_scramble(puzzle, 60, seed)))


@pytest.mark.parametrize("name", ["rubik3", "rashkey", "hungarian-rings", "four-disks"])
def test_randomized_schreier_sims_gives_the_deterministic_base_and_orbits(name):
    """The basic orbits of a base are the group's: the seeded randomized chain (on arrays), proven by the
    structural bound, gives the same table shape as sympy's deterministic Schreier–Sims for every candidate base
    order."""
    from hlavolamy.solve.tables.chain import _base_and_orbits, _candidate_bases, _deterministic_base_and_orbits

    puzzle = load_puzzle(PUZZLES / f"{name}.json").puzzle
    for preferred in _candidate_bases(puzzle):
        assert _base_and_orbits(puzzle, preferred) == _deterministic_base_and_orbits(puzzle, preferred)


def test_randomized_chain_short_of_the_bound_falls_back_on_the_deterministic_one(monkeypatch, rubik3):
    """A bound the randomized chains cannot reach (here a wrong, too big one) leaves the answer to the
    deterministic algorithm: the table is never built on an unproven chain."""
    from hlavolamy.solve.tables import chain as chain_module

    monkeypatch.setattr(chain_module, "structural_order", lambda puzzle: (10**40, False))
    preferred = chain_module._candidate_bases(rubik3)[0]
    deterministic = chain_module._deterministic_base_and_orbits(rubik3, preferred)
    calls = []
    monkeypatch.setattr(chain_module, "_deterministic_base_and_orbits", lambda *a: calls.append(a) or deterministic)
    assert chain_module._base_and_orbits(rubik3, preferred) == deterministic
    assert calls == [(rubik3, preferred)]


def _spells_its_entries(chain) -> bool:
    """Every table entry's word replays to its permutation, which takes the level's base cell to the entry's."""
    puzzle = chain.puzzle
    return all(np.array_equal(puzzle.perm_of(chain.word_turns(e.word)), e.perm) and int(e.perm[point]) == image
               for point, table in zip(chain.base, chain.levels) for image, e in table.items())


def _quick(puzzle: Puzzle):
    from hlavolamy.solve.tables.chain import _build_chain

    return _build_chain(puzzle, CancelToken(), None, 0.0, 0, quick=True)


@pytest.mark.parametrize("name", ["rubik3", "hungarian-rings"])
def test_quick_chain_is_complete_spelled_and_the_same_every_time(name):
    """Rounds, then orbit closure and long fills: a complete table whose words spell its elements, built the
    same way twice (seeded, no seconds), so the first answer it gives is the same and replays."""
    puzzle = load_puzzle(PUZZLES / f"{name}.json").puzzle
    chain = _quick(puzzle)
    assert chain.complete and chain.order == sympy_order(puzzle)
    assert _spells_its_entries(chain)
    perm = puzzle.perm_of(random_scramble(puzzle, 200, 1))
    from hlavolamy.solve.tables.chain import sift_solve

    moves = sift_solve(chain, perm)
    assert np.array_equal(perm[puzzle.perm_of(moves)], np.arange(puzzle.n_cells))
    forget_shared()
    assert sift_solve(_quick(puzzle), perm) == moves


def test_closure_fills_a_level_from_its_own_elements(rubik3):
    """Entries taken out of a filled level come back from the level's other elements, with words that spell them."""
    from hlavolamy.solve.tables.chain import _Minkwitz, _new_chain, generators

    chain = _new_chain(rubik3, generators(rubik3), list(range(rubik3.n_cells)))
    minkwitz = _Minkwitz(chain, CancelToken(), None)
    minkwitz.insert_short_words()
    table = chain.levels[0]
    assert len(table) == chain.orbit_sizes[0]
    for image in [i for i, e in table.items() if e.word][:len(table) // 2]:
        del table[image]
    minkwitz.close()
    assert len(table) == chain.orbit_sizes[0]
    assert _spells_its_entries(chain)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_sifting_all_rows_at_once_meets_the_words_one_sift_meets(data):
    """``shortest_sifts`` sifts every prefix in one pass per level: each row must meet the words, in order, that
    its own sift meets (through all levels or the first few), members and non-members alike."""
    puzzle = random_puzzle(data)
    chain = build_chain(puzzle, improve=2e8)
    rows = np.array([data.draw(st.permutations(range(puzzle.n_cells)), label="row") for _ in range(6)]
                    + [np.asarray(p) for _, p in chain.prefixes()[:6]])
    levels = data.draw(st.sampled_from([None, 1, max(1, len(chain.base) - 1)]), label="levels")
    sifts = chain.sift_all(rows, levels)
    for r, row in enumerate(rows):
        words, _ = chain.sift(row, levels)
        assert sifts.words(r) == words
        assert sifts.lengths()[r] == sum(map(len, words))


def test_the_shortest_sifts_of_a_cube_position_replay(rubik3):
    from hlavolamy.solve.tables.chain import shortest_sifts

    chain = build_chain(rubik3)
    perm = rubik3.perm_of(random_scramble(rubik3, 30, 4))
    found = shortest_sifts(chain, perm, count=8)
    assert len(found) == 8
    for moves in found:
        assert np.array_equal(perm[rubik3.perm_of(moves)], np.arange(rubik3.n_cells))

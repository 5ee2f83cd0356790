"""Randomized Schreier–Sims and Jordan's test on arrays, against sympy's deterministic algorithms."""

from math import factorial, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.combinatorics import Permutation, PermutationGroup

from hlavolamy.analysis.schreier_sims import basic_orbits, complete_chain, is_alt_sym, random_chain, sift, strong_chain


@st.composite
def generators(draw: st.DrawFn) -> np.ndarray:
    """A few permutations of up to 12 points, often fixing many (small groups) or few (big ones)."""
    n = draw(st.integers(2, 12))
    rows = []
    for _ in range(draw(st.integers(1, 3))):
        moved = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=n, unique=True))
        image = draw(st.permutations(moved))
        row = np.arange(n)
        row[moved] = image
        rows.append(row)
    return np.stack(rows)


def _sympy(gens: np.ndarray) -> PermutationGroup:
    return PermutationGroup([Permutation(row.tolist()) for row in gens])


@settings(max_examples=60, deadline=None)
@given(generators())
def test_basic_orbits_are_the_deterministic_ones(gens):
    """With every point in the base, the basic orbits are the group's: the same as sympy's deterministic chain,
    and their product its order (patient enough that a miss would be a bug, not bad luck)."""
    from sympy.combinatorics.util import _distribute_gens_by_base, _orbits_transversals_from_bsgs

    n = gens.shape[1]
    base = list(range(n))
    ours = basic_orbits(gens, base, patience=40)
    group = _sympy(gens)
    sympy_base, strong = group.schreier_sims_incremental(base=base)
    theirs = _orbits_transversals_from_bsgs(sympy_base, _distribute_gens_by_base(sympy_base, strong),
                                            transversals_only=False)[0]
    assert [sorted(o.tolist()) for o in ours] == [sorted(o) for o in theirs][:n]
    assert prod(o.size for o in ours) == group.order()


def test_basic_orbits_of_a_chosen_base_order():
    """The base order is the caller's: the cube-like group <(0 1 2 3), (2 3 4 5)> on 6 points, base backwards."""
    a = np.array([1, 2, 3, 0, 4, 5])
    b = np.array([0, 1, 3, 4, 5, 2])
    sizes = [o.size for o in basic_orbits(np.stack([a, b]), [5, 4, 3, 2, 1, 0])]
    assert prod(sizes) == _sympy(np.stack([a, b])).order()
    assert sizes[0] == 6


def test_a_base_missing_a_moved_point_is_refused():
    with pytest.raises(ValueError, match="every point"):
        basic_orbits(np.array([[1, 0, 2]]), [0])


@settings(max_examples=60, deadline=None)
@given(generators())
def test_jordan_yes_is_sympys_alternating_or_symmetric(gens):
    """A yes is a proof: the group then has n!/2 or n! elements; on 8+ points sympy (at a tiny error) agrees."""
    n = gens.shape[1]
    order = _sympy(gens).order()
    if is_alt_sym(gens):
        assert order in (factorial(n), factorial(n) // 2)
    elif n >= 8:
        assert order not in (factorial(n), factorial(n) // 2)


def test_jordan_on_named_groups():
    n = 11
    rotation = np.roll(np.arange(n), 1)
    swap = np.arange(n)
    swap[[0, 1]] = [1, 0]
    three = np.arange(n)
    three[[0, 1, 2]] = [1, 2, 0]
    reflection = (-np.arange(n)) % n
    assert is_alt_sym(np.stack([rotation, swap]))  # the symmetric group
    assert is_alt_sym(np.stack([rotation, three]))  # the alternating group (n odd: the rotation is even)
    assert not is_alt_sym(np.stack([rotation, reflection]))  # dihedral
    assert not is_alt_sym(np.stack([swap, three]))  # not transitive


@settings(max_examples=40, deadline=None)
@given(generators(), st.data())
def test_chains_sift_members_to_the_identity_and_others_not(gens, data):
    """A randomized chain and the chain of sympy's strong generators decide membership as sympy does."""
    n = gens.shape[1]
    group = _sympy(gens)
    base, strong = group.schreier_sims_incremental(base=list(range(n)))
    from_strong = strong_chain(np.array([p.array_form for p in strong]), base)
    randomized = random_chain(gens, range(n), patience=40)
    assert prod(level.points.size for level in from_strong) == group.order()
    for _ in range(5):
        perm = np.array(data.draw(st.permutations(range(n))))
        member = group.contains(Permutation(perm.tolist()))
        for levels in (from_strong, randomized):
            depth, rest = sift(levels, perm)
            assert (depth == len(levels) and np.array_equal(rest, np.arange(n))) == member


@settings(max_examples=60, deadline=None)
@given(generators())
def test_an_impatient_chain_completed_has_the_groups_order(gens):
    """A randomized chain stopped after one quiet sift is often short; the deterministic test completes it."""
    n = gens.shape[1]
    levels = complete_chain(random_chain(gens, range(n), patience=1))
    assert prod(level.points.size for level in levels) == _sympy(gens).order()


def test_a_group_smaller_than_its_pieces_allow_gets_its_order():
    """The rashkey's six-piece orbit moves as a group of 120 (its bound, every arrangement: 720)."""
    from pathlib import Path

    from hlavolamy.analysis.membership import piece_orbit_orders
    from hlavolamy.core.fileformat import load_puzzle

    puzzle = load_puzzle(Path(__file__).parent.parent / "puzzles" / "rashkey.json").puzzle
    orders = [(o.order, o.exact, o.full) for o in piece_orbit_orders(puzzle)]
    assert (120, True, 720) in orders

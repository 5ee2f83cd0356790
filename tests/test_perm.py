"""The permutation algebra: group laws as properties, and every validation error."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import perm_tuples, perms
from hypothesis import given
from hypothesis import strategies as st

from hlavolamy.core import perm as P
from hlavolamy.errors import HlavolamyError, PermutationError


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.array_equal(a, b))


@given(perm_tuples(3))
def test_compose_is_associative(abc):
    a, b, c = abc
    assert same(P.compose(P.compose(a, b), c), P.compose(a, P.compose(b, c)))
    assert same(P.compose(a, b, c), P.compose(a, P.compose(b, c)))


@given(perm_tuples(2), st.data())
def test_compose_means_apply_a_then_b(ab, data):
    a, b = ab
    state = np.array(data.draw(st.lists(st.integers(0, 5), min_size=a.size, max_size=a.size)))
    assert same(P.apply(P.apply(state, a), b), P.apply(state, P.compose(a, b)))


def test_apply_convention_new_i_is_old_at_m_i():
    state = np.array(["a", "b", "c"])
    assert P.apply(state, P.as_perm([1, 2, 0])).tolist() == ["b", "c", "a"]


@given(perms())
def test_inverse_undoes_on_both_sides(p):
    n = p.size
    assert P.is_identity(P.compose(p, P.inverse(p)))
    assert P.is_identity(P.compose(P.inverse(p), p))
    assert same(P.inverse(P.inverse(p)), p)
    assert P.is_identity(P.identity(n))


@given(perm_tuples(2))
def test_inverse_of_product_reverses_order(ab):
    a, b = ab
    assert same(P.inverse(P.compose(a, b)), P.compose(P.inverse(b), P.inverse(a)))


@given(perms(), st.integers(-6, 12))
def test_power_equals_repeated_compose(p, k):
    step = p if k >= 0 else P.inverse(p)
    expected = P.identity(p.size)
    for _ in range(abs(k)):
        expected = P.compose(expected, step)
    assert same(P.power(p, k), expected)


@given(perms(max_n=8))
def test_order_is_the_least_power_giving_identity(p):
    k = P.order(p)
    assert P.is_identity(P.power(p, k))
    assert not any(P.is_identity(P.power(p, j)) for j in range(1, k))


@given(perm_tuples(2))
def test_parity_is_a_homomorphism(ab):
    a, b = ab
    assert P.parity(P.compose(a, b)) == (P.parity(a) + P.parity(b)) % 2
    assert P.parity(P.inverse(a)) == P.parity(a)


def test_parity_of_known_permutations():
    assert P.parity(P.from_cycles(4, [[0, 1]])) == 1
    assert P.parity(P.from_cycles(4, [[0, 1, 2]])) == 0
    assert P.parity(P.from_cycles(4, [[0, 1, 2, 3]])) == 1


@given(perms())
def test_cycles_round_trip(p):
    assert same(P.from_cycles(p.size, P.cycles(p)), p)
    with_fixed = P.cycles(p, include_fixed=True)
    assert sorted(c for cyc in with_fixed for c in cyc) == list(range(p.size))


@given(perms())
def test_cycle_type_and_support_agree_with_cycles(p):
    moved = sorted(c for cyc in P.cycles(p) for c in cyc)
    assert P.support(p).tolist() == moved
    assert sum(length * count for length, count in P.cycle_type(p).items()) == len(moved)


def test_cycles_follow_the_state_convention():
    # The content of cell m[i] arrives at i: a cycle lists i, m[i], m[m[i]].
    p = P.as_perm([1, 2, 0, 3])
    assert P.cycles(p) == [[0, 1, 2]]
    assert P.cycle_type(P.from_cycles(6, [[0, 1, 2, 3], [4, 5]])) == {2: 1, 4: 1}
    assert P.format_cycles(p) == "(0 1 2)"
    assert P.format_cycles(P.identity(3)) == "()"
    assert P.order(P.from_cycles(6, [[0, 1, 2], [3, 4]])) == 6


def test_parity_on_a_closed_subset():
    p = P.from_cycles(6, [[0, 1], [2, 3, 4]])
    assert P.parity_on(p, [0, 1]) == 1
    assert P.parity_on(p, [2, 3, 4]) == 0
    with pytest.raises(ValueError, match="not closed"):
        P.parity_on(p, [0, 2])


def test_as_perm_returns_a_read_only_int_array():
    p = P.as_perm([2, 0, 1])
    assert p.dtype == P.DTYPE
    assert not p.flags.writeable
    assert P.as_perm([1.0, 0.0]).tolist() == [1, 0]  # integral floats are integers


@pytest.mark.parametrize(
    ("values", "n", "message"),
    [
        ([0, 1, 2], 4, "has 3 entries, expected 4"),
        ([0, 3, 1], None, "entry 1 is 3, out of range 0..2"),
        ([0, -1, 1], None, "entry 1 is -1, out of range"),
        ([0, 2, 2], None, r"value 2 appears at entries \[1, 2\]"),
        ([0, 1.5, 2], None, "entry 1 is 1.5, not an integer"),
        ([0, "1", 2], None, "entry 1 is '1', not an integer"),
        ([True, False], None, "entry 0 is True, not an integer"),
        ([[0, 1], [1, 0]], None, "flat list"),
    ],
)
def test_as_perm_errors_name_the_permutation_and_the_problem(values, n, message):
    with pytest.raises(PermutationError, match=message) as info:
        P.as_perm(values, "move 'R'", n)
    assert str(info.value).startswith("move 'R'")
    assert isinstance(info.value, HlavolamyError)


def test_compose_needs_an_argument():
    with pytest.raises(ValueError):
        P.compose()

"""Subgroups of finite abelian groups: order, membership, relations and combinations, by brute force."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis.modular import Span, combination


@st.composite
def groups(draw: st.DrawFn) -> tuple[list[int], list[list[int]], list[list[int]]]:
    moduli = draw(st.lists(st.sampled_from([2, 3, 4, 6, 8, 9, 12]), min_size=1, max_size=3))
    vec = st.tuples(*[st.integers(0, m - 1) for m in moduli]).map(list)
    return moduli, draw(st.lists(vec, max_size=3)), draw(st.lists(vec, max_size=2))


def closure(moduli: list[int], gens: list[list[int]]) -> set[tuple[int, ...]]:
    span = {tuple([0] * len(moduli))}
    frontier = list(span)
    while frontier:
        nxt = []
        for x in frontier:
            for g in gens:
                y = tuple((a + b) % m for a, b, m in zip(x, g, moduli))
                if y not in span:
                    span.add(y)
                    nxt.append(y)
        frontier = nxt
    return span


@settings(max_examples=150, deadline=None)
@given(groups())
def test_span_matches_brute_force(case: tuple[list[int], list[list[int]], list[list[int]]]) -> None:
    moduli, gens, _ = case
    span = Span(moduli, gens)
    brute = closure(moduli, gens)
    assert span.order == len(brute)
    for x in itertools.product(*[range(m) for m in moduli]):
        assert span.contains(x) == (x in brute)
    for coeffs, p in span.relations:
        assert all(sum(c * x[i] for i, c in coeffs.items()) % p == 0 for x in brute)


@settings(max_examples=60, deadline=None)
@given(groups())
def test_combination_finds_a_fix_exactly_when_one_exists(case: tuple[list[int], list[list[int]], list[list[int]]]) -> None:
    moduli, gens, free = case
    reachable = closure(moduli, gens)
    fixes = closure(moduli, free)
    for target in itertools.product(*[range(m) for m in moduli]):
        possible = any(tuple((t + f) % m for t, f, m in zip(target, fix, moduli)) in reachable for fix in fixes)
        c = combination(moduli, np.array(gens), np.array(free), np.array(target))
        assert (c is not None) == possible
        if c is not None:
            fixed = (np.array(target, dtype=object) + np.array(c, dtype=object) @ np.array(free, dtype=object)
                     if free else np.array(target))
            assert tuple(int(v) % m for v, m in zip(fixed, moduli)) in reachable

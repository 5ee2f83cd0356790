"""Invariants, group order and reachability, against brute force on small groups and the 3x3x3."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from math import factorial, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis_helpers import as_perm, bfs_group, cube, fresh_cube, piece_puzzles, random_puzzles
from hlavolamy.analysis import analyse, membership
from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.invariants import invariants, vectors
from hlavolamy.analysis.membership import check_state, group_order
from hlavolamy.analysis.memo import forget_shared
from hlavolamy.analysis.modular import Span
from hlavolamy.core.puzzle import Puzzle


@contextmanager
def without_schreier_sims() -> Iterator[None]:
    """Structural answers only: no whole-group Schreier–Sims, no results shared from other tests."""
    forget_shared()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(membership, "EXACT_CELL_LIMIT", 0)
        yield
    forget_shared()


def wreath_full_order(p: Puzzle) -> int:
    """|{w in the pieces' wreath product : invariants of w reachable}|: the order if invariants tell all."""
    structure, inv = pieces(p), invariants(p)
    wreath = np.vstack([np.arange(p.n_cells)] + [membership._wreath_generators(po, p.n_cells)
                                                  for po in structure.piece_orbits])
    moduli = [c.modulus for c in inv.components]
    image = Span(moduli, np.vstack([vectors(structure, inv.components, wreath), inv.move_vectors])).order
    full = prod(factorial(po.n_pieces) * len(po.orientation_group) ** po.n_pieces for po in structure.piece_orbits)
    return full * inv.span.order // image


@settings(max_examples=15, deadline=None)
@given(piece_puzzles())
def test_order_invariants_and_membership_agree_with_brute_force(p: Puzzle) -> None:
    group = bfs_group(p)
    assert group is not None
    order = group_order(p)
    assert order.exact and order.value == len(group)
    structure, inv = pieces(p), invariants(p)
    reached = {vectors(structure, inv.components, as_perm(k))[0].tobytes() for k in group}
    assert len(reached) == inv.span.order  # the claimed reachable combinations are exactly those reached
    for key in list(group)[:200]:
        verdict = check_state(p, as_perm(key))
        assert verdict.reachable and verdict.exact, verdict.reasons


@settings(max_examples=15, deadline=None)
@given(piece_puzzles(), st.randoms(use_true_random=False))
def test_unreachable_verdicts_are_right(p: Puzzle, rnd) -> None:
    group = bfs_group(p)
    structure = pieces(p)
    for _ in range(20):
        # a random piece-preserving permutation: pieces shuffled within their orbit, each turned
        perm = np.arange(p.n_cells)
        for po in structure.piece_orbits:
            order = rnd.sample(range(po.n_pieces), po.n_pieces)
            for q, r in enumerate(order):
                perm[po.cells[q]] = po.cells[r][list(rnd.choice(po.orientation_group))]
        verdict = check_state(p, perm)
        assert verdict.reachable == (perm.astype(np.int32).tobytes() in group), verdict.reasons
        assert verdict.exact
        if not verdict.reachable:
            assert verdict.reasons


@settings(max_examples=15, deadline=None)
@given(piece_puzzles(), st.randoms(use_true_random=False))
def test_structural_answers_are_sound(p: Puzzle, rnd) -> None:
    """Without Schreier–Sims a reachable position is never refused; a refusal is certain."""
    group = sorted(bfs_group(p))
    p = Puzzle(p.colours, p.moves)
    with without_schreier_sims():
        for key in rnd.sample(group, min(30, len(group))):
            verdict = check_state(p, as_perm(key))
            assert verdict.reachable and verdict.exact == (not pieces(p).orbits)
        structural = group_order(p)
    if pieces(p).orbits:
        assert not structural.exact
    if wreath_full_order(p) == len(group):
        assert structural.value == len(group)


@settings(max_examples=40, deadline=None)
@given(random_puzzles())
def test_random_group_words_are_reachable(p: Puzzle) -> None:
    rng = np.random.default_rng(0)
    moves = list(p.moves.values())
    perm = np.arange(p.n_cells)
    for _ in range(10):
        perm = perm[moves[rng.integers(len(moves))]]
        assert check_state(p, perm).reachable
    group = bfs_group(p, limit=5000)
    if group is not None:
        assert group_order(p).value == len(group)


@settings(max_examples=40, deadline=None)
@given(random_puzzles())
def test_every_move_preserves_the_piece_orbits_and_parities_add(p: Puzzle) -> None:
    structure, inv = pieces(p), invariants(p)
    moves = np.array(list(p.moves.values()))
    composed = moves[0][moves[-1]]
    expected = (inv.move_vectors[0] + inv.move_vectors[-1]) % [c.modulus for c in inv.components]
    assert np.array_equal(vectors(structure, inv.components, composed)[0], expected)


def test_rubik3_laws_order_and_reasons() -> None:
    p = cube(3)
    laws = invariants(p).laws()
    assert "twist sum of piece orbit 0 (8 pieces of 3 cells) is always 0 (mod 3)" in laws
    assert "twist sum of piece orbit 1 (12 pieces of 2 cells) is always 0 (mod 2)" in laws
    # corner parity = edge parity, in whatever coordinates the relation was written
    assert any("piece parity of piece orbit 0" in law and "piece parity of piece orbit 1" in law for law in laws) or (
        {"cell parity of orbit 0 (24 cells) = piece parity of piece orbit 0 (8 pieces of 3 cells)",
         "cell parity of orbit 0 (24 cells) = piece parity of piece orbit 1 (12 pieces of 2 cells)"} <= set(laws))
    assert group_order(p).value == 43252003274489856000
    corners = pieces(p).piece_orbits[0]
    twisted = np.arange(p.n_cells)
    twisted[corners.cells[0]] = corners.cells[0][list(corners.orientation_group[1])]
    verdict = check_state(p, twisted)
    assert not verdict.reachable and verdict.exact
    assert verdict.reasons == ["twist sum of piece orbit 0 (8 pieces of 3 cells) is "
                               f"{pieces(p).piece_orbits[0].twist_exponents(corners.twists[0][:1] * 0 + np.array(corners.orientation_group[1]))[0]} (mod 3), must be 0"]
    outside = np.arange(p.n_cells)
    a, b = pieces(p).orbits[0][0], pieces(p).orbits[1][0]
    outside[a], outside[b] = b, a
    reasons = check_state(p, outside).reasons
    assert any(f"cell {b} moved outside its orbit" in r for r in reasons)


def test_structural_order_matches_schreier_sims_on_cubes() -> None:
    exact = {n: group_order(cube(n)).value for n in (2, 3)}
    with without_schreier_sims():
        for n in (2, 3):
            structural = group_order(fresh_cube(n))
            assert not structural.exact and structural.value == exact[n]
        # the 3x3x3 with middle slices: centres move in three pairs of opposite faces
        assert group_order(fresh_cube(3, centre_slices=True)).value == 43252003274489856000 * 24


def test_analysis_is_cached_and_serialisable() -> None:
    p = fresh_cube(2)
    a = analyse(p, three_cycles=False)
    assert analyse(p, three_cycles=False) is a
    data = a.to_json()
    assert data["cells"] == 24 and data["order"] == "88179840" and data["order_exact"]
    assert [len(b) for b in data["blocks"][0]] == [3] * 8
    assert "three_cycles" not in data
    assert "Group order: 88179840" in a.report()

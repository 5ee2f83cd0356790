"""Positions from colours: shown colours kept, reachable, and complete on small groups."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis_helpers import as_perm, bfs_group, cube, piece_puzzles
from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.colours import assign_colours, colours_tell_pieces, state_from_colours
from hlavolamy.analysis.membership import check_state
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import PuzzleError, UnreachableError


def scrambled(p: Puzzle, seed: int, turns: int = 60) -> np.ndarray:
    rng = np.random.default_rng(seed)
    moves = list(p.moves.values())
    perm = np.arange(p.n_cells)
    for _ in range(turns):
        perm = perm[moves[rng.integers(len(moves))]]
    return perm


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_cube_colourings_give_reachable_positions(n: int) -> None:
    p = cube(n)
    for seed in range(4):
        target = p.colour_ids[scrambled(p, seed)]
        state = assign_colours(p, target)
        assert np.array_equal(state.colour_ids(), target)
        assert check_state(p, state).reachable


@settings(max_examples=25, deadline=None)
@given(piece_puzzles(), st.randoms(use_true_random=False))
def test_assignment_exists_exactly_when_some_position_shows_the_colours(p: Puzzle, rnd) -> None:
    group = bfs_group(p)
    shown = {p.colour_ids[as_perm(k)].tobytes() for k in group}
    structure = pieces(p)
    candidates = [p.colour_ids[as_perm(k)] for k in rnd.sample(sorted(group), min(10, len(group)))]
    for _ in range(10):  # colourings of random piece shuffles, reachable or not
        perm = np.arange(p.n_cells)
        for po in structure.piece_orbits:
            for q, r in enumerate(rnd.sample(range(po.n_pieces), po.n_pieces)):
                perm[po.cells[q]] = po.cells[r][list(rnd.choice(po.orientation_group))]
        candidates.append(p.colour_ids[perm])
    for target in candidates:
        try:
            state = assign_colours(p, target)
        except UnreachableError:
            assert target.astype(p.colour_ids.dtype).tobytes() not in shown
        else:
            assert np.array_equal(state.colour_ids(), target)
            assert state.perm.astype(np.int32).tobytes() in group


def test_rubik3_twisted_corner_and_flipped_edge_are_refused() -> None:
    p = cube(3)
    structure = pieces(p)
    corners, edges = structure.piece_orbits
    perm = np.arange(p.n_cells)
    perm[corners.cells[0]] = corners.cells[0][list(corners.orientation_group[1])]
    with pytest.raises(UnreachableError, match=r"twist sum of piece orbit 0 .* must be 0"):
        assign_colours(p, p.colour_ids[perm])
    perm = np.arange(p.n_cells)
    perm[edges.cells[0]], perm[edges.cells[1]] = edges.cells[1], edges.cells[0]
    with pytest.raises(UnreachableError, match="must be equal"):
        assign_colours(p, p.colour_ids[perm])


def test_wildcards_allow_a_few_wrong_colours() -> None:
    p = cube(3)
    edges = pieces(p).piece_orbits[1]
    perm = np.arange(p.n_cells)
    perm[edges.cells[0]], perm[edges.cells[1]] = edges.cells[1], edges.cells[0]
    target = p.colour_ids[perm]
    with pytest.raises(UnreachableError, match="at most 1 shown colours"):
        assign_colours(p, target, wildcards=1)
    # two edges sharing a colour swap by changing two shown colours
    state = assign_colours(p, target, wildcards=2)
    assert np.count_nonzero(state.colour_ids() != target) == 2
    assert check_state(p, state).reachable


def test_impossible_colours_say_why() -> None:
    p = cube(3)
    target = p.colour_ids.copy()
    corner = pieces(p).piece_orbits[0].cells[0]
    target[corner[0]] = target[corner[1]]  # a corner showing one colour twice
    with pytest.raises(UnreachableError, match="colour counts differ in orbit 0"):
        assign_colours(p, target)
    other = pieces(p).piece_orbits[0].cells[1]
    target = p.colour_ids.copy()
    target[corner[0]], target[other[0]] = target[other[0]], target[corner[0]]
    if len({*target[corner].tolist()}) == 3 and len({*target[other].tolist()}) == 3:
        with pytest.raises(UnreachableError, match="no piece has these colours"):
            assign_colours(p, target)
    with pytest.raises(PuzzleError, match="expected 54"):
        assign_colours(p, target[:10])


def test_identical_centres_of_a_4x4x4_are_interchangeable() -> None:
    p = cube(4)
    for seed in range(4):
        target = p.colour_ids[scrambled(p, seed, 80)]
        state = state_from_colours(p, [p.colour_labels[c] for c in target])
        assert np.array_equal(state.colour_ids(), target)
        verdict = check_state(p, state)
        assert verdict.reachable and verdict.exact


@settings(max_examples=25, deadline=None)
@given(piece_puzzles())
def test_colours_that_tell_pieces_apart_show_one_position_only(p: Puzzle) -> None:
    group = bfs_group(p)
    structure = pieces(p)
    moved = np.flatnonzero(np.any(np.stack([m != np.arange(p.n_cells) for m in p.moves.values()]), axis=0))
    if colours_tell_pieces(structure, p.colour_ids, moved):
        showing = [k for k in group if np.array_equal(p.colour_ids[as_perm(k)], p.colour_ids)]
        assert showing == [np.arange(p.n_cells, dtype=np.int32).tobytes()]


def test_a_4x4x4s_wings_are_told_apart_by_colours_its_centres_are_not() -> None:
    p = cube(4)
    structure = pieces(p)
    sizes = {po.piece_size: po for po in structure.piece_orbits}
    wings, corners = sizes[2].cells.ravel(), sizes[3].cells.ravel()
    centres = np.setdiff1d(np.arange(p.n_cells), np.concatenate([wings, corners]))
    assert colours_tell_pieces(structure, p.colour_ids, wings)
    assert colours_tell_pieces(structure, p.colour_ids, corners)
    assert not colours_tell_pieces(structure, p.colour_ids, centres)

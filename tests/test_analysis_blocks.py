"""Orbits, minimal block systems and pieces, against brute force and the 3x3x3."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from sympy.combinatorics import Permutation, PermutationGroup

from analysis_helpers import cube, fresh_cube, random_puzzles
from hlavolamy.analysis.blocks import is_block_system, minimal_block_system, pieces
from hlavolamy.analysis.orbits import move_matrix, orbits
from hlavolamy.core.puzzle import Puzzle


def brute_orbits(p: Puzzle) -> set[frozenset[int]]:
    out = set()
    for c in range(p.n_cells):
        seen, todo = {c}, [c]
        while todo:
            x = todo.pop()
            for m in p.moves.values():
                y = int(m[x])
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        if len(seen) > 1:
            out.add(frozenset(seen))
    return out


@settings(max_examples=60, deadline=None)
@given(random_puzzles())
def test_orbits_partition_the_moved_cells(p: Puzzle) -> None:
    found = orbits(p)
    assert {frozenset(o) for o in found} == brute_orbits(p)
    assert all(list(o) == sorted(o) for o in found)
    assert [o[0] for o in found] == sorted(o[0] for o in found)


@settings(max_examples=60, deadline=None)
@given(random_puzzles())
def test_block_systems_are_preserved_and_minimal(p: Puzzle) -> None:
    moves = move_matrix(p)
    for orbit in orbits(p):
        blocks = minimal_block_system(p, orbit)
        assert sorted(c for b in blocks for c in b) == list(orbit)
        assert is_block_system(moves, blocks, p.n_cells)
        # no non-trivial block system has smaller blocks (sympy's closure of {alpha, beta})
        index = {c: i for i, c in enumerate(orbit)}
        gens = [Permutation([index[int(m[c])] for c in orbit]) for m in p.moves.values()]
        group = PermutationGroup(gens)
        sizes = [len(orbit) // len(set(group.minimal_block([0, b]))) for b in range(1, len(orbit))]
        nontrivial = [s for s in sizes if s < len(orbit)]
        assert len(blocks[0]) == (min(nontrivial) if nontrivial else 1)


@settings(max_examples=40, deadline=None)
@given(random_puzzles())
def test_pieces_track_every_move(p: Puzzle) -> None:
    structure = pieces(p)
    for po in structure.piece_orbits:
        for k, m in enumerate(p.moves.values()):
            # the cell arriving at cells[q, j] comes from cells[perms[k, q], twists[k, q, j]]
            expected = po.cells[po.perms[k][:, None], po.twists[k]]
            assert np.array_equal(m[po.cells], expected)
            slots, turns = po.locate(m)
            assert np.array_equal(slots, po.perms[k]) and np.array_equal(turns, po.twists[k])
        group = set(po.orientation_group)
        assert all(tuple(t) in group for t in po.twists.reshape(-1, po.piece_size).tolist())


def test_rubik3_orbits_blocks_and_pieces() -> None:
    p = cube(3)
    found = orbits(p)
    assert sorted(len(o) for o in found) == [24, 24]
    assert p.n_cells - sum(map(len, found)) == 6  # the fixed centres
    structure = pieces(p)
    assert sorted(len(b[0]) for b in structure.block_systems) == [2, 3]
    shapes = sorted((po.n_pieces, po.piece_size, po.twist_order) for po in structure.piece_orbits)
    assert shapes == [(8, 3, 3), (12, 2, 2)]
    corner = next(po for po in structure.piece_orbits if po.piece_size == 3)
    # a quarter turn cycles four corners and twists them by a total of 0 mod 3
    for k in range(len(p.moves)):
        assert int(corner.twist_values[k].sum()) % 3 == 0
        assert int((corner.perms[k] != np.arange(8)).sum()) == 4


def test_rubik4_wings_are_one_piece_orbit_across_two_orbits() -> None:
    structure = pieces(cube(4))
    wings = [po for po in structure.piece_orbits if len(po.orbits) == 2]
    assert len(wings) == 1 and wings[0].n_pieces == 24 and wings[0].piece_size == 2
    assert wings[0].twist_order == 1
    first, second = wings[0].orbits
    assert (second, first) in structure.dependent


def test_puzzles_with_the_same_moves_share_the_analysis() -> None:
    # a fresh cube: the session's cube(3) may hold its own analysis from before a test emptied the shared table
    p = fresh_cube(3)
    recoloured = Puzzle(["x"] * p.n_cells, p.moves)
    assert pieces(recoloured) is pieces(p)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_shipped_cube_sizes_have_the_expected_pieces(n: int) -> None:
    p = cube(n)
    structure = pieces(p)
    moves = move_matrix(p)
    for orbit, blocks in zip(structure.orbits, structure.block_systems):
        assert is_block_system(moves, blocks, p.n_cells)
        assert sorted(c for b in blocks for c in b) == list(orbit)
    shapes = Counter((po.n_pieces, po.piece_size, po.twist_order) for po in structure.piece_orbits)
    expected = Counter({(8, 3, 3): 1, (24, 2, 1): (n - 2) // 2, (24, 1, 1): ((n - 2) ** 2 - n % 2) // 4})
    if n % 2:
        expected[(12, 2, 2)] = 1
    assert shapes == +expected
    # the two facelet orbits of every wing are one piece orbit, the second totally dependent on the first
    assert len(structure.dependent) == (n - 2) // 2

"""The Square-1 plugin: geometry, legality of the slash, the shipped file, drawing, solving."""

from __future__ import annotations

from math import factorial
from pathlib import Path

import numpy as np
import pytest

from hlavolamy.analysis.blocking import shape_graph, stabiliser
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble, scrambled
from hlavolamy.core.state import State
from hlavolamy.errors import IllegalMoveError, UnreachableError
from hlavolamy.plugins.manager import PluginHost
from hlavolamy.solve import solve

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def geometry():
    return PluginHost(folders=[REPO / "plugins"], entry_points=False).geometry("square1")


@pytest.fixture(scope="module")
def square1(geometry):
    return geometry.build()


def test_cells_moves_and_fused_corners(square1):
    assert square1.n_cells == 28
    assert {m: square1.move_order(m) for m in square1.moves} == {"U": 12, "D": 12, "T": 2}
    assert len(square1.blockings) == 10  # 8 corners + 2 middle halves
    assert all(len(b) == 2 for b in square1.blockings)
    # Every corner's two wedges carry the same piece name, every edge its own.
    names = square1.colours
    assert len(set(names[:24])) == 16


def test_slash_is_legal_only_when_the_cut_is_clear(square1):
    solved = State.solved(square1)
    solved.apply("T")
    solved.apply("U D' T")  # (1, -1) /
    with pytest.raises(IllegalMoveError, match="'T' is blocked"):
        solved.apply("U' D T")  # (-1, 1) /: a corner straddles the cut
    with pytest.raises(IllegalMoveError):
        solved.apply("U' T")
    # Layer turns are always legal, whatever the shape.
    state = solved.apply("U D' T U2 D4")
    state.apply("U5 D7")


def test_slash_turns_the_right_half_over(square1):
    after = State.solved(square1).apply("T")
    # Top wedge k and bottom wedge 17 - k trade places; the right middle half flips; the left half stays.
    for k in range(6):
        assert after.perm[k] == 17 - k and after.perm[17 - k] == k
    assert after.perm[24] == 25 and after.perm[25] == 24
    assert list(after.perm[6:12]) == list(range(6, 12))
    assert after.apply("T").is_solved()


def test_shape_graph_and_home_group(square1):
    graph = shape_graph(square1)
    assert graph.complete and graph.size == 19305  # every tiling of both layers by corners and edges
    stab = stabiliser(square1)
    assert stab.order == 2 * factorial(8) ** 2  # corners, edges and the middle flip, all free at the cube shape


def test_phase1_brings_random_shapes_home_legally(square1):
    from hlavolamy.solve.strategies.blocked import phase1, shape_index

    graph = shape_graph(square1)
    home = graph.space.home
    for seed in range(10):
        state = scrambled(square1, 60, seed)
        index = shape_index(graph, state.perm)
        at_home = state.apply(phase1(graph, index), check_legal=True)
        assert np.array_equal(graph.space.shape_of(at_home.perm), home)
        assert len(phase1(graph, index)) == graph.depth[index] <= 26


def test_shortcuts_cut_detours_and_stay_legal(square1):
    from hlavolamy.core.turns import Turn, invert
    from hlavolamy.solve.strategies.blocked import shortcut

    state = State.solved(square1).apply("U3 D3")  # the cube shape, both layers turned
    detour = random_scramble(square1, 12, 5, start=state)
    path = detour + invert(detour) + [Turn("D", -3), Turn("U", -3)]
    shorter = shortcut(square1, state.perm, path)
    assert state.apply(shorter, check_legal=True).is_solved()
    assert square1.length(shorter) == 6


def test_shipped_file_matches_the_plugin(square1):
    shipped = load_puzzle(REPO / "puzzles" / "square1.json").puzzle
    assert shipped.fingerprint == square1.fingerprint
    assert shipped.turned_parts == square1.turned_parts
    assert shipped.plugin.name == "square1"


def test_geometry_data_is_checked(geometry):
    with pytest.raises(ValueError, match="unknown key"):
        geometry.load_data({"size": 3})
    small = geometry.build(middle=False)
    assert small.n_cells == 24 and len(small.blockings) == 8
    assert geometry.moves({"middle": False})["T"][:6] == [17, 16, 15, 14, 13, 12]
    assert geometry.turned_parts({"middle": False})["T"] == [0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17]


def test_unreachable_square1_position_is_explained(square1):
    from hlavolamy.solve.strategies.blocked import two_phase

    perm = np.arange(28)
    perm[[0, 1]] = [1, 0]  # one corner's two wedges swapped: the corner would be upside down
    with pytest.raises(UnreachableError, match="not in the group"):
        two_phase(square1, shape_graph(square1), perm, budget=CancelToken())
    perm = np.arange(28)
    perm[[1, 2]] = [2, 1]  # a corner's wedge swapped with the edge beside it: the corner torn apart
    with pytest.raises(UnreachableError, match=r"fused cells at positions \[0, 2\]"):
        two_phase(square1, shape_graph(square1), perm, budget=CancelToken())


def test_view_draws_and_hit_tests(square1, geometry, qtbot):
    from PyQt6.QtCore import QRectF
    from PyQt6.QtGui import QImage, QPainter

    from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit

    view = geometry.view(square1)
    image = QImage(460, 290, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    state = State.solved(square1).apply("U D' T")
    view.paint(painter, QRectF(0, 0, 460, 290), state, DrawOptions(show_numbers=True, highlight=frozenset({0})))
    painter.end()
    top_centre, bottom_centre = view._layers[0][0], view._layers[1][0]
    assert view.move_at(top_centre.x() + 5, top_centre.y() - 40).move == "U"
    assert view.move_at(bottom_centre.x() + 5, bottom_centre.y() - 40, "right") == MoveHit("D", -1)
    assert view.cell_at(bottom_centre.x() + 5, bottom_centre.y() - 40) == 23
    # Straight up from the top layer's centre is the back edge's wedge (cut angle 345°).
    assert view.cell_at(top_centre.x(), top_centre.y() - 40) == 11
    assert view.cell_at(-100, -100) is None


def _solve(puzzle, seed: int, n_moves: int):
    scramble = random_scramble(puzzle, n_moves, seed)
    state = State.solved(puzzle).apply(scramble)  # every scramble step is checked legal
    solution = solve(puzzle, state)
    assert state.apply(solution.moves, check_legal=True).is_solved()  # every solving step legal too
    return solution


@pytest.mark.slow
def test_random_square1_position_is_solved(square1):
    _solve(square1, seed=1, n_moves=30)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 8))
def test_many_random_square1_positions_are_solved(square1, seed):
    _solve(square1, seed=seed, n_moves=30 + 10 * seed)

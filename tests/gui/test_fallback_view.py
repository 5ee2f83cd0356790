"""The generic view of puzzles no plugin draws: cells grouped by piece orbit, move chips that play."""

from __future__ import annotations

import numpy as np
import pytest
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QImage, QPainter

from hlavolamy import formats
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.gui.fallback_view import DiscView
from hlavolamy.gui.orbit_layout import orbit_layout, piece_order
from hlavolamy.gui.palette import colour_map
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit
from hlavolamy.plugins.manager import get_plugin_host
from tests.conftest import REPO

pytestmark = pytest.mark.gui


def plain(puzzle: Puzzle) -> Puzzle:
    """The puzzle without its plugin record, as another tool would hand it over."""
    return Puzzle(puzzle.colours, puzzle.moves, name=puzzle.name, palette=puzzle.palette)


@pytest.fixture(scope="module")
def cube3() -> Puzzle:
    return plain(get_plugin_host().geometry("cubes").build(size=3))


def render(view, state: State, options: DrawOptions | None = None, size=(900, 600)) -> QImage:
    image = QImage(*size, QImage.Format.Format_RGB32)
    image.fill(0xF0F0F0)
    painter = QPainter(image)
    view.paint(painter, QRectF(0, 0, *size), state, options or DrawOptions(colours=colour_map(state.puzzle)))
    painter.end()
    return image


def test_cube_cells_are_grouped_by_piece_orbit(cube3):
    points, captions = orbit_layout(cube3)
    assert [text for _, _, _, text in captions] == ["8 pieces of 3 cells", "12 pieces of 2 cells", "6 fixed"]
    from hlavolamy.analysis.blocks import pieces

    corners = next(po for po in pieces(cube3).piece_orbits if po.piece_size == 3)
    for piece in corners.pieces:  # a corner's three stickers sit side by side, one spacing apart
        a, b, c = points[list(piece)]
        assert np.hypot(*(a - b)) == pytest.approx(1) and np.hypot(*(b - c)) == pytest.approx(1)
    distinct = {tuple(p) for p in np.round(points, 6).tolist()}
    assert len(distinct) == cube3.n_cells  # no two cells on one spot


def test_pieces_follow_the_cycles_of_the_moves():
    # one 6-cycle, listed out of order by index: the ring keeps the cycle's order
    move = np.array([3, 5, 4, 1, 0, 2])
    order = piece_order(move[None, :])
    assert all(move[order[i]] == order[(i + 1) % 6] for i in range(6))


def test_every_cell_is_drawn_where_it_hit_tests(qapp, cube3):
    view = DiscView(cube3)
    state = State.solved(cube3).apply("R U F'")
    image = render(view, state)
    colours = colour_map(cube3)
    labels = state.colours()
    for cell, (x, y) in enumerate(view._centres):
        assert view.cell_at(x, y) == cell
        assert image.pixelColor(int(round(x)), int(round(y))).name() == colours[labels[cell]]


def test_move_chips_play_their_move_and_outline_what_it_moves(qapp, cube3):
    view = DiscView(cube3)
    state = State.solved(cube3)
    plain_image = render(view, state)
    assert [name for _, name in view._chips] == list(cube3.moves)
    box = dict((name, box) for box, name in view._chips)["R"]
    centre = (box.center().x(), box.center().y())
    assert view.move_at(*centre) == MoveHit("R", 1)
    assert view.move_at(*centre, button="right") == MoveHit("R", -1)
    assert view.move_at(*view._centres[0]) is None  # a cell is for picking, not for a move
    hovered = render(view, state, DrawOptions(colours=colour_map(cube3), hover=centre))
    moved = set(np.flatnonzero(cube3.moves["R"] != np.arange(cube3.n_cells)).tolist())
    for cell, (x, y) in enumerate(view._centres):
        rim = (int(round(x + view._radius)), int(round(y)))  # the disc's outline
        changed = plain_image.pixelColor(*rim) != hovered.pixelColor(*rim)
        assert changed == (cell in moved), cell


def test_many_moves_keep_the_chips_to_a_strip(qapp):
    big = plain(get_plugin_host().geometry("cubes").build(size=8))
    view = DiscView(big)
    render(view, State.solved(big), size=(500, 400))
    assert view._chips and max(box.bottom() for box, _ in view._chips) <= 400
    assert min(box.top() for box, _ in view._chips) >= 400 * 0.68
    assert view._centres[:, 1].max() < min(box.top() for box, _ in view._chips)


def test_an_imported_ksolve_puzzle_is_grouped_not_gridded(qapp):
    loaded = formats.import_file("ksolve", REPO / "tests" / "data" / "FTO.tws")
    view = DiscView(loaded.puzzle)
    render(view, State.solved(loaded.puzzle))
    captions = sorted(text for _, _, _, text in view._captions)
    assert captions == ["12 cells", "12 cells", "12 cells", "6 pieces of 4 cells"]


def test_window_plays_an_unrecognised_puzzle_from_its_chips(qtbot, window):
    fto = formats.import_file("ksolve", REPO / "tests" / "data" / "FTO.tws")
    window.document.load(fto, path=None)
    assert window.document.puzzle.plugin is None  # no plugin claims it
    canvas = window.play_tab.canvas
    assert isinstance(canvas.view, DiscView)
    canvas.grab()
    box = dict((name, box) for box, name in canvas.view._chips)["BR"]
    qtbot.mouseClick(canvas, Qt.MouseButton.RightButton, pos=box.center().toPoint())
    assert window.document.state.perm.tolist() == np.argsort(fto.puzzle.moves["BR"]).tolist()

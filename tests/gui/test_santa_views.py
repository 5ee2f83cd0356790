"""The santa plugin's views offscreen: what is drawn where, hit tests, and clicks that play moves."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PyQt6.QtCore import QRectF, Qt
from PyQt6.QtGui import QImage, QPainter

from hlavolamy.core.fileformat import PuzzleFile
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.plugins.hookspecs import DrawOptions, MoveHit
from hlavolamy.plugins.manager import get_plugin_host
from hlavolamy.plugins.recognise import PuzzleMovesView
from tests.gui.conftest import click_cell

pytestmark = pytest.mark.gui

SIZE = (900, 500)


def render(view, state: State, options: DrawOptions | None = None) -> QImage:
    image = QImage(*SIZE, QImage.Format.Format_RGB32)
    image.fill(0xF0F0F0)
    painter = QPainter(image)
    view.paint(painter, QRectF(0, 0, *SIZE), state, options or DrawOptions())
    painter.end()
    return image


def pixel(image: QImage, point) -> str:
    return image.pixelColor(int(round(point[0])), int(round(point[1]))).name()


@pytest.fixture
def globe():
    geometry = get_plugin_host().geometry("globe")
    puzzle = geometry.build(rows=5, columns=8)
    return puzzle, geometry.view(puzzle)


@pytest.fixture
def wreath():
    geometry = get_plugin_host().geometry("wreath")
    puzzle = geometry.build(size=12)
    return puzzle, geometry.view(puzzle)


def shown(puzzle: Puzzle, state: State, cell: int) -> str:
    return puzzle.palette[state.colours()[cell]]


def test_globe_map_shows_every_cell_where_it_hit_tests(qapp, globe):
    puzzle, view = globe
    state = State.solved(puzzle).apply("r1 f2 r4'")
    image = render(view, state)
    for cell, shape in enumerate(view._map_shapes()):
        centre = shape.mean(axis=0)
        assert view.cell_at(*centre) == cell
        assert pixel(image, centre) == shown(puzzle, state, cell)


def test_globe_sphere_shows_the_front_cells(qapp, globe):
    puzzle, view = globe
    state = State.solved(puzzle).apply("f0 r2")
    image = render(view, state)
    shapes, cells = view._sphere_shapes()
    whole = [(s, c) for s, c in zip(shapes, cells) if view._turn.dot(view._outlines[c].mean(axis=0))[2] > 0.5]
    assert len(whole) >= 6
    for shape, cell in whole:
        centre = shape.mean(axis=0)
        assert view.cell_at(*centre) == cell
        assert pixel(image, centre) == shown(puzzle, state, cell)
    assert view.cell_at(*(view._centre + [0, -0.999 * view._radius])) // 8 == 0  # the top is the north cap
    assert view.cell_at(*(view._centre + [1.01 * view._radius, 0])) is None


def test_globe_drag_turns_the_sphere(qapp, globe):
    puzzle, view = globe
    render(view, State.solved(puzzle))
    front = view.cell_at(*view._centre)
    assert view.drag(math.pi / 0.01, 0)  # half a turn about the polar axis
    render(view, State.solved(puzzle))
    back = view.cell_at(*view._centre)
    assert back // 8 == front // 8 and (back % 8 - front % 8) % 8 == 4  # same row, the opposite column
    assert view.drag(0, 10_000) and view.pitch == pytest.approx(math.radians(85))


def test_globe_clicks_turn_rows_and_flip_halves(qapp, globe):
    puzzle, view = globe
    render(view, State.solved(puzzle))
    row3 = view._map_shapes()[3 * 8 + 5].mean(axis=0)
    assert view.move_at(*row3) == MoveHit("r3", 1)
    assert view.move_at(*row3, button="right") == MoveHit("r3", -1)
    for flip, point in enumerate(view._strip_handles()):
        assert view.move_at(*point) == MoveHit(f"f{flip}", 1)
    points, flips = view._sphere_handles()
    assert len(flips) >= 3
    for point, flip in zip(points, flips):
        assert view.move_at(*point) == MoveHit(f"f{flip}", 1)
    assert view.move_at(2, 2) is None


def test_globe_handles_face_the_half_they_flip(qapp, globe):
    """The handle of f_j sits under (map) or on (sphere) the middle of the cells f_j moves."""
    puzzle, view = globe
    render(view, State.solved(puzzle))
    for flip, (x, _) in enumerate(view._strip_handles()):
        moved = np.flatnonzero(puzzle.moves[f"f{flip}"][:8] != np.arange(8))  # northern row: columns of the half
        columns = (moved - flip) % 8  # 0..3 counted from the flip's first column
        assert sorted(columns.tolist()) == [0, 1, 2, 3]
        middle = (flip + 2) % 8 * view._map.width() / 8 + view._map.left()
        assert x == pytest.approx(middle)


def test_globe_hover_outlines_what_the_click_moves(qapp, globe):
    puzzle, view = globe
    state = State.solved(puzzle)
    plain = render(view, state)
    handle = view._strip_handles()[1]
    hovered = render(view, state, DrawOptions(hover=tuple(handle)))
    moved = set(np.flatnonzero(puzzle.moves["f1"] != np.arange(puzzle.n_cells)).tolist())
    shapes = view._map_shapes()
    for cell in (0, 8, 20, 39):
        x0, y0 = shapes[cell][0]
        x1, _ = shapes[cell][1]
        edge = ((x0 + x1) / 2, y0)  # middle of the cell's top edge
        changed = pixel(plain, edge) != pixel(hovered, edge)
        assert changed == (cell in moved), cell


def test_wreath_cells_are_drawn_where_they_hit_test(qapp, wreath):
    puzzle, view = wreath
    state = State.solved(puzzle).apply("l r' l")
    image = render(view, state, DrawOptions(show_numbers=False))
    for cell, point in enumerate(view._points):
        assert view.cell_at(*point) == cell
        assert pixel(image, point) == shown(puzzle, state, cell)
    k = 3
    assert abs(view._points[0, 0] - view._points[k, 0]) < 1e-6  # the shared cells sit one above the other
    assert view._points[0, 1] > view._points[k, 1]


def test_wreath_clicks_turn_the_ring_under_the_mouse(qapp, wreath):
    puzzle, view = wreath
    render(view, State.solved(puzzle))
    left_only, right_only = view._points[6], view._points[15]
    assert view.move_at(*left_only) == MoveHit("l", 1)
    assert view.move_at(*left_only, button="right") == MoveHit("l", -1)
    assert view.move_at(*right_only) == MoveHit("r", 1)
    assert view.move_at(*view._centres[0]) == MoveHit("l", 1)  # anywhere inside the left ring
    assert view.move_at(2, 2) is None


def test_wreath_left_click_carries_colours_clockwise(qapp, wreath):
    """After ``l`` the colour of each left cell is the one its anticlockwise neighbour had: it moved clockwise."""
    puzzle, view = wreath
    render(view, State.solved(puzzle))
    left = [0, *range(1, 12)]
    centre = view._centres[0]
    angles = [math.atan2(*(view._points[c] - centre)[::-1]) for c in left]
    # screen angles (y down) decrease along the ring order: the ring runs anticlockwise on screen
    steps = [(a - b) % (2 * math.pi) for a, b in zip(angles, angles[1:] + angles[:1])]
    assert all(0 < s < math.pi for s in steps)
    after = State.solved(puzzle).apply("l").perm
    assert after[left[0]] == left[1]  # new[ring[t]] = old[ring[t + 1]]


def test_dark_palette_and_numbers_do_not_break_the_views(qapp, globe, wreath):
    for puzzle, view in (globe, wreath):
        image = render(view, State.solved(puzzle), DrawOptions(show_numbers=True, dark=True,
                                                               highlight=frozenset({0, 1})))
        assert not image.isNull()


def test_imported_cube_clicks_play_the_santa_moves(qapp):
    """A Santa cube drawn by the cubes plugin: a click on U plays d2' (U is the inverse of d2 on a 3x3x3)."""
    from hlavolamy.gui.document import make_view
    from hlavolamy.plugins.manager import attach_geometry

    cubes = get_plugin_host().geometry("cubes")
    native = cubes.build(size=3, centre_slices=True)
    santa_names = {"U": ("d2", -1), "F": ("f0", 1), "R": ("r0", 1), "D": ("d0", 1), "B": ("f2", -1),
                   "L": ("r2", -1), "M": ("r1", -1), "E": ("d1", 1), "S": ("f1", 1)}
    moves = {santa: (native.moves[ours] if sign == 1 else np.argsort(native.moves[ours]))
             for ours, (santa, sign) in santa_names.items()}
    imported = attach_geometry(PuzzleFile(Puzzle(native.colours, moves, name="cube_3/3/3"))).puzzle
    assert imported.plugin.name == "cubes"
    view = make_view(cubes, imported)
    assert isinstance(view, PuzzleMovesView)
    render(view, State.solved(imported))
    u_centre = view._net[4].mean(axis=0)  # the U face's middle facelet, on the net
    assert view.move_at(*u_centre) == MoveHit("d2", -1)
    assert view.move_at(*u_centre, button="right") == MoveHit("d2", 1)
    assert make_view(cubes, native) is not None and not isinstance(make_view(cubes, native), PuzzleMovesView)


def test_window_plays_a_wreath_by_clicking(qtbot, window):
    geometry = get_plugin_host().geometry("wreath")
    puzzle = geometry.build(size=7)
    plain = Puzzle(puzzle.colours, puzzle.moves, name="wreath_7/7")  # as imported: no plugin record
    window.document.load(PuzzleFile(plain), path=None)
    assert window.document.puzzle.plugin.name == "wreath"
    canvas = window.play_tab.canvas
    click_cell(qtbot, canvas, 4)  # a cell of the left ring only
    assert window.document.state.perm.tolist() == puzzle.moves["l"].tolist()
    click_cell(qtbot, canvas, 9, Qt.MouseButton.RightButton)  # right ring, backwards
    expected = State.solved(puzzle).apply("l r'").perm
    assert window.document.state.perm.tolist() == expected.tolist()

"""The polyhedra plugin's Qt view, offscreen: the net and 3D picture show each sticker, clicks turn grips."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
QtCore = pytest.importorskip("PyQt6.QtCore")
QtGui = pytest.importorskip("PyQt6.QtGui")

from hlavolamy.core.state import State  # noqa: E402
from hlavolamy.plugins.hookspecs import DrawOptions  # noqa: E402
from hlavolamy.plugins.manager import get_plugin_host  # noqa: E402

GEOMETRY = get_plugin_host().geometry("polyhedra")
RECT = QtCore.QRectF(0, 0, 800, 400)


@pytest.fixture(scope="module")
def app():
    from PyQt6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def render(draw) -> QtGui.QImage:
    image = QtGui.QImage(800, 400, QtGui.QImage.Format.Format_ARGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    try:
        draw(painter)
    finally:
        painter.end()
    return image


def near(got: QtGui.QColor, want: str) -> bool:
    w = QtGui.QColor(want)
    return max(abs(got.red() - w.red()), abs(got.green() - w.green()), abs(got.blue() - w.blue())) < 10


@pytest.mark.parametrize("preset", ["3x3x3", "megaminx", "pyraminx", "fto", "skewb", "radio-chop"])
def test_net_shows_every_sticker_in_its_colour_and_hit_tests_back(app, preset) -> None:
    puzzle = GEOMETRY.build(preset=preset)
    view = GEOMETRY.view(puzzle)
    state = State.solved(puzzle).apply(" ".join(list(puzzle.moves)[:3]))
    image = render(lambda p: view.paint(p, RECT, state, DrawOptions(show_numbers=False)))
    colours = state.colours()
    for cell, polygon in enumerate(view._net):
        x, y = polygon[: len(view.model.cutting.stickers[cell].corners)].mean(axis=0)
        assert view.cell_at(x, y) == cell
        assert near(image.pixelColor(int(round(x)), int(round(y))), puzzle.palette[colours[cell]]), cell


def test_3d_picture_shows_front_faces_and_turns_with_a_drag(app) -> None:
    puzzle = GEOMETRY.build(preset="megaminx")
    view = GEOMETRY.view(puzzle)
    render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions()))
    before = set(view._solid_cells.tolist())
    faces = {view.model.cutting.stickers[c].face for c in before}
    assert 0 in faces and 11 not in faces  # U is seen from above, D is hidden
    for polygon, cell in zip(view._solid, view._solid_cells.tolist()):
        corners = polygon[: len(view.model.cutting.stickers[cell].corners)]
        assert view.cell_at(*corners.mean(axis=0)) == cell
    assert view.drag(0, -250)  # tilt until D comes round
    render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions()))
    assert 11 in {view.model.cutting.stickers[c].face for c in view._solid_cells.tolist()}


def test_clicks_turn_the_nearest_grip(app) -> None:
    puzzle = GEOMETRY.build(preset="3x3x3")
    view = GEOMETRY.view(puzzle)
    render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions(hover=(600, 200))))
    cutting = view.model.cutting
    for cell, sticker in enumerate(cutting.stickers):
        x, y = view._net[cell][: len(sticker.corners)].mean(axis=0)
        hit = view.move_at(x, y)
        assert hit.move == cutting.solid.face_names[sticker.face] and hit.power == 1
        assert view.move_at(x, y, "right").power == -1
    skewb = GEOMETRY.build(preset="skewb")
    view = GEOMETRY.view(skewb)
    render(lambda p: view.paint(p, RECT, State.solved(skewb), DrawOptions()))
    cutting = view.model.cutting
    corner = next(i for i, s in enumerate(cutting.stickers)
                  if np.allclose(np.sign(cutting.centres[i]), [-1, -1, -1]) and len(s.corners) == 3)
    x, y = view._net[corner][:3].mean(axis=0)
    assert view.move_at(x, y).move == "BLD"

"""The polyhedra plugin's Qt view, offscreen: the net and 3D picture show each sticker, clicks turn grips."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
QtCore = pytest.importorskip("PyQt6.QtCore")
QtGui = pytest.importorskip("PyQt6.QtGui")

from hlavolamy.core.state import State  # noqa: E402
from hlavolamy.errors import PuzzleError  # noqa: E402
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


def attached(puzzle):
    """The puzzle as an import leaves it: with the record of the plugin that recognised it, if any."""
    from hlavolamy.core.fileformat import PuzzleFile
    from hlavolamy.plugins.manager import attach_geometry

    return attach_geometry(PuzzleFile(puzzle)).puzzle


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


def test_designer_adds_cuts_sets_depths_names_moves_and_builds(app) -> None:
    designer = GEOMETRY.designer(None)
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    with pytest.raises(PuzzleError, match="no turning layer"):
        designer.build()
    assert designer.press("add-f", 0, 0) and designer.build().n_cells == 54  # the default depth 1/3: a 3x3x3
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    left, right = designer._slider()
    y = RECT.top() + 1.7 * 34  # the first cut's slider row
    assert designer.press("depth", left + 0.75 * (right - left), y)
    assert designer.description.cuts[0].depth == pytest.approx(0.495, abs=0.01)
    assert designer.drag("depth", left + 0.5 * (right - left), y)  # the centre: a 2x2x2
    designer.release("depth", 0, 0)
    assert designer.description.text() == "c f 0" and designer.build().n_cells == 24
    assert designer.press("solid-d", 0, 0) and designer.press("remove", 0, 0) and designer.press("add-f", 0, 0)
    designer.set_data({"description": "d f 0.7"})
    designer.rename_move("U", "Top")
    puzzle = designer.build()
    assert "Top" in puzzle.moves and puzzle.plugin.data["names"] == {"U": "Top"}
    with pytest.raises(PuzzleError, match="two moves are named"):
        designer.rename_move("F", "Top")
    snapshot = designer.data()
    designer.press("add-v", 0, 0)
    designer.set_data(snapshot)  # undo
    assert designer.build().moves.keys() == puzzle.moves.keys()
    image = render(lambda p: designer.paint(p, RECT, DrawOptions()))
    assert not image.isNull()


def test_new_polyhedron_in_the_window_plays_from_the_designer(qtbot, tmp_path) -> None:
    from PyQt6.QtCore import QSettings

    from hlavolamy.gui.window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    try:
        window.document.new(GEOMETRY, {"preset": "pyraminx"})
        assert window.document.designer is not None
        window.fields_tab.design.canvas.run_instant("add-e", "+ edge cut")
        assert window.document.puzzle.plugin.data["description"].endswith("e 0")
        window.document.undo_stack.undo()
        assert window.document.puzzle.n_cells == 36
        window.document.play(window.document.puzzle.parse("U 2R'"), "turns")
        assert window.document.state.colours() != State.solved(window.document.puzzle).colours()

        from PyQt6.QtCore import QPoint, Qt

        window.show()
        colouring = window.colouring_tab
        window.tabs.setCurrentWidget(colouring)
        colouring.palette_list.setCurrentRow(list(colouring.palette).index("red"))
        colouring.design.select_tool("paint")
        colouring.design.canvas.grab()  # paints: the designer lays out its preview in this canvas
        x, y = window.document.designer._view._net[0][:3].mean(axis=0)
        point = QPoint(int(round(x)), int(round(y)))
        qtbot.mousePress(colouring.design.canvas, Qt.MouseButton.LeftButton, pos=point)
        qtbot.mouseRelease(colouring.design.canvas, Qt.MouseButton.LeftButton, pos=point)
        assert window.document.puzzle.colours[0] == "red"
    finally:
        window.tasks.shutdown()
        window.document.undo_stack.setClean()


def test_an_imported_puzzle_is_drawn_and_clicks_play_its_own_moves(app) -> None:
    import importlib

    from hlavolamy.core.puzzle import Puzzle

    recognise = importlib.import_module(f"{type(GEOMETRY).__module__}.recognise")
    cutting, turns = recognise.block_turns("c v 0")
    halves = {f"corner{k}": t.perm for k, t in enumerate(turns) if t.steps == 1}
    order = np.random.default_rng(1).permutation(len(cutting.stickers))
    back = np.argsort(order)
    imported = attached(Puzzle([f"c{k}" for k in range(30)], {k: back[m[order]] for k, m in halves.items()}))
    view = GEOMETRY.view(imported)
    first, second = list(imported.moves)[:2]
    state = State.solved(imported).apply(f"{first} {second}'")
    render(lambda p: view.paint(p, RECT, state, DrawOptions(show_numbers=True, highlight=frozenset({0}))))
    image = render(lambda p: view.paint(p, RECT, state, DrawOptions()))
    for sticker, polygon in enumerate(view._net):
        x, y = polygon[: len(cutting.stickers[sticker].corners)].mean(axis=0)
        cell = view.cell_at(x, y)
        assert view.cells[cell] == sticker
        hit = view.move_at(x, y)
        assert hit.move in imported.moves and cell in P_support(imported.moves[hit.move])
        face_colour = view.model.palette[cutting.solid.face_names[cutting.stickers[view.cells[
            imported.colours.index(state.colours()[cell])]].face]]
        assert near(image.pixelColor(int(round(x)), int(round(y))), face_colour)


def P_support(perm) -> set[int]:
    return set(np.flatnonzero(perm != np.arange(len(perm))).tolist())


def test_designer_repaints_stickers_and_faces(app) -> None:
    designer = GEOMETRY.designer(GEOMETRY.build(preset="pyraminx"))
    assert {t.id for t in designer.tools} >= {"paint", "paint-face"}
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    view = designer._view
    first = view._net[0][: len(view.model.cutting.stickers[0].corners)].mean(axis=0)
    designer.set_current_colour("pink", "#ff66cc")
    assert designer.press("paint", *first)
    puzzle = designer.build()
    assert puzzle.colours[0] == "pink" and puzzle.palette["pink"] == "#ff66cc"
    assert puzzle.colours.count("pink") == 1
    designer.set_current_colour("F")  # a face's own label: painting it back is no paint
    assert designer.press("paint", *first) and "paint" not in designer.data()
    designer.set_current_colour("D", "#101010")  # a face colour changed
    assert designer.press("paint-face", *first)
    puzzle = designer.build()
    assert puzzle.colours[:9] == ("D",) * 9 and puzzle.palette["D"] == "#101010"
    image = render(lambda p: designer.paint(p, RECT, DrawOptions()))
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    view = designer._view
    x, y = view._net[0][:3].mean(axis=0)
    assert near(image.pixelColor(int(round(x)), int(round(y))), "#101010")
    with pytest.raises(PuzzleError, match="palette must map"):
        GEOMETRY.load_data({"description": "c f 0", "palette": {"U": "white"}})


def test_a_recognised_import_keeps_its_moves_out_of_the_designer(app) -> None:
    import importlib

    from hlavolamy.core.puzzle import Puzzle

    recognise = importlib.import_module(f"{type(GEOMETRY).__module__}.recognise")
    cutting, turns = recognise.block_turns("c f 0")
    imported = attached(Puzzle(["x"] * 24, {f"t{k}": t.perm for k, t in enumerate(turns) if t.steps == 1}))
    assert imported.plugin is not None
    assert GEOMETRY.view(imported) is not None and GEOMETRY.designer(imported) is None


def test_an_import_shows_face_colours_over_generated_ones(app) -> None:
    from pathlib import Path

    from hlavolamy import formats

    path = Path(__file__).parent / "data" / "twsearch" / "pyraminx.tws"
    puzzle = attached(formats.import_file("ksolve", path).puzzle)
    view = GEOMETRY.view(puzzle)
    generated = {label: "#123456" for label in puzzle.colour_labels}  # what the host's colour map offers
    image = render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions(colours=generated)))
    cutting = view.model.cutting
    for sticker, polygon in enumerate(view._net):
        x, y = polygon[:3].mean(axis=0)
        face = cutting.solid.face_names[cutting.stickers[sticker].face]
        assert near(image.pixelColor(int(round(x)), int(round(y))), view.model.palette[face])

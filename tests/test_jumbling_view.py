"""The circles view and designer on jumbling designs, offscreen: cells of the closure, blocked disks, angles, the tool."""

from __future__ import annotations

import importlib
import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
QtCore = pytest.importorskip("PyQt6.QtCore")
QtGui = pytest.importorskip("PyQt6.QtGui")

from hlavolamy.core.state import State  # noqa: E402
from hlavolamy.errors import PuzzleError  # noqa: E402
from hlavolamy.plugins.hookspecs import DrawOptions  # noqa: E402
from hlavolamy.plugins.manager import get_plugin_host  # noqa: E402

GEOMETRY = get_plugin_host().geometry("circles")
PACKAGE = type(GEOMETRY).__module__
presets = importlib.import_module(f"{PACKAGE}.presets")
design_mod = importlib.import_module(f"{PACKAGE}.design")
view_mod = importlib.import_module(f"{PACKAGE}.view")
RECT = QtCore.QRectF(0, 0, 600, 400)


@pytest.fixture(scope="module")
def app():
    from PyQt6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def render(draw) -> QtGui.QImage:
    image = QtGui.QImage(600, 400, QtGui.QImage.Format.Format_ARGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    try:
        draw(painter)
    finally:
        painter.end()
    return image


def test_view_of_a_jumbling_puzzle_hits_every_closure_cell(app) -> None:
    puzzle = GEOMETRY.build(preset="gears45")
    view = GEOMETRY.view(puzzle)
    assert view is not None and len(view.design.puzzle_cells) == puzzle.n_cells == 21
    render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions()))
    for position, region in enumerate(view.design.puzzle_cells):
        p = view.frame.to_widget(*region.point)
        assert view.cell_at(p.x(), p.y()) == position


def test_blocked_disk_is_drawn_grey(app) -> None:
    puzzle = GEOMETRY.build(preset="four-disks-45")
    view = GEOMETRY.view(puzzle)
    solved = render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions()))
    turned = render(lambda p: view.paint(p, RECT, State.solved(puzzle).apply("A"), DrawOptions()))
    b = view.design.circle("B")
    rim = view.frame.to_widget(b.x + b.r, b.y)  # B's rim, far from A: only the blocked marking changes it
    near = [QtGui.QColor(turned.pixel(int(rim.x()) + dx, int(rim.y()))) for dx in (-2, -1, 0, 1, 2)]
    before = [QtGui.QColor(solved.pixel(int(rim.x()) + dx, int(rim.y()))) for dx in (-2, -1, 0, 1, 2)]
    assert any(abs(c.red() - 128) < 40 and abs(c.green() - 128) < 40 and abs(c.blue() - 128) < 40 for c in near)
    assert near != before


def test_designer_angle_and_jumbling_tool(app) -> None:
    _, design = presets.preset("gears45")
    designer = view_mod.CirclesDesigner(design)
    designer.set_jumble(None)  # angles first, without closing the cuts at every edit
    designer.set_angle("B", "360/2.5")
    assert designer.design.circle("B").angle == 144.0
    with pytest.raises(PuzzleError, match="360/7"):
        designer.set_angle("B", "51.43")
    designer.set_angle("A", "360/7")
    assert (designer.design.circle("A").steps, designer.design.circle("A").turns) == (7, None)
    designer.set_steps("B", 5)
    assert designer.design.circle("B").turns is None
    designer.set_steps("A", 4)
    with pytest.raises(PuzzleError):
        designer.build()  # turns that do not fit the drawn pattern jam without jumbling
    assert designer.press("jumble", 0, 0)  # off -> every turn cuts
    assert designer.design.jumble == "cut"
    assert designer.build().n_cells == 21
    assert designer.press("jumble", 0, 0)  # cut -> pieces as drawn
    puzzle = designer.build()
    assert designer.design.jumble == "block" and puzzle.n_cells == 21 and len(puzzle.blockings) == 3
    render(lambda p: designer.paint(p, RECT, DrawOptions()))


def test_designer_past_the_limit_shows_where_cuts_multiply(app) -> None:
    design = design_mod.Design([design_mod.DesignCircle("A", 0, 0, 3, "turn", 12),
                                design_mod.DesignCircle("B", 4, 0, 3, "turn", 12)], grid=None, jumble="cut")
    design.colours = {r.id: "red" for r in design.arrangement.regions if r.inside}
    designer = view_mod.CirclesDesigner(design)
    assert designer._limit is not None and "do not close up" in str(designer._limit)
    image = render(lambda p: designer.paint(p, RECT, DrawOptions()))
    reds = sum(1 for x in range(0, 600, 3) for y in range(0, 400, 3)
               if (c := QtGui.QColor(image.pixel(x, y))).red() > 180 and c.green() < 90 and c.blue() < 90)
    assert reds > 100
    with pytest.raises(PuzzleError, match="do not close up"):
        designer.build()

"""The circles plugin's Qt view and designer, offscreen: painting, hit-testing, the design tools."""

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
presets = importlib.import_module(f"{type(GEOMETRY).__module__}.presets")
design_mod = importlib.import_module(f"{type(GEOMETRY).__module__}.design")
view_mod = importlib.import_module(f"{type(GEOMETRY).__module__}.view")
RECT = QtCore.QRectF(0, 0, 600, 400)


@pytest.fixture(scope="module")
def app():
    from PyQt6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def render(draw) -> QtGui.QImage:
    """Run ``draw(painter)`` on a white 600x400 image."""
    image = QtGui.QImage(600, 400, QtGui.QImage.Format.Format_ARGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    try:
        draw(painter)
    finally:
        painter.end()
    return image


def widget_point(view, x: float, y: float) -> tuple[float, float]:
    p = view.frame.to_widget(x, y)
    return p.x(), p.y()


def test_view_hit_tests_every_cell(app) -> None:
    puzzle = GEOMETRY.build(preset="rashkey")
    view = GEOMETRY.view(puzzle)
    state = State.solved(puzzle).apply("A")
    image = render(lambda p: view.paint(p, RECT, state, DrawOptions(show_numbers=True, hover=(300, 200), highlight=frozenset({0}))))
    assert not image.isNull()
    for position, region in enumerate(view.design.cells):
        assert view.cell_at(*widget_point(view, *region.point)) == position
    assert view.cell_at(1, 1) is None


def test_view_pixels_show_the_cell_now_there(app) -> None:
    puzzle = GEOMETRY.build(preset="four-disks")
    view = GEOMETRY.view(puzzle)
    state = State.solved(puzzle).apply("A B'")
    image = render(lambda p: view.paint(p, RECT, state, DrawOptions()))
    for position, region in enumerate(view.design.cells):
        x, y = widget_point(view, *region.point)
        want = QtGui.QColor(view.design.palette[state.colours()[position]])
        got = image.pixelColor(int(round(x)), int(round(y)))
        assert max(abs(got.red() - want.red()), abs(got.green() - want.green()), abs(got.blue() - want.blue())) < 8


def test_move_at_picks_the_circle_and_direction(app) -> None:
    puzzle = GEOMETRY.build(preset="rashkey")
    view = GEOMETRY.view(puzzle)
    render(lambda p: view.paint(p, RECT, State.solved(puzzle), DrawOptions()))
    left = widget_point(view, -3, 0)
    right = widget_point(view, 7, 0)
    assert view.move_at(*left).move == "A" and view.move_at(*left).power == 1
    assert view.move_at(*right, button="right").move == "B" and view.move_at(*right, button="right").power == -1
    middle = widget_point(view, 1.5, 0)  # inside both disks: the nearer centre wins
    assert view.move_at(*middle).move == "A"
    assert view.move_at(1, 1) is None


def test_designer_draws_a_puzzle_with_its_tools(app) -> None:
    designer = GEOMETRY.designer(None)
    assert {t.id for t in designer.tools} >= {"turn", "cut", "drag", "resize", "delete", "paint", "erase"}
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    frame = designer.frame

    def at(x: float, y: float) -> tuple[float, float]:
        p = frame.to_widget(x, y)
        return p.x(), p.y()

    assert designer.press("turn", *at(-2, 0))
    designer.drag("turn", *at(1, 0))  # radius 3
    designer.release("turn", *at(1, 0))
    assert designer.press("turn", *at(2.2, 0.1))  # snapped to (2, 0)
    designer.drag("turn", *at(5, 0))
    circles = designer.data()["circles"]
    assert [(c["x"], c["y"], c["r"]) for c in circles] == [(-2, 0, 3), (2, 0, 3)]
    with pytest.raises(PuzzleError, match="no cells"):
        designer.build()
    designer.set_current_colour("red", "#ff0000")
    for x in (-3.5, 0, 3.5):
        assert designer.press("paint", *at(x, 0))
    assert not designer.press("paint", *at(0, 0))  # already that colour
    puzzle = designer.build()
    assert puzzle.n_cells == 3 and list(puzzle.moves) == ["A", "B"]
    assert [puzzle.move_order(m) for m in puzzle.moves] == [1, 1]  # nothing turns without symmetric cuts
    assert designer.press("erase", *at(0, 0))
    assert designer.build().n_cells == 2
    snapshot = designer.data()
    assert designer.press("delete", *at(-2, 2.5))
    assert len(designer.data()["circles"]) == 1
    designer.set_data(snapshot)
    assert designer.data() == snapshot


def test_designer_completes_the_rashkey_cuts(app) -> None:
    designer = GEOMETRY.designer(None)
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    frame = designer.frame

    def at(x: float, y: float) -> tuple[float, float]:
        p = frame.to_widget(x, y)
        return p.x(), p.y()

    for cx in (0, 4):
        designer.press("turn", *at(cx, 0))
        designer.drag("turn", *at(cx + 4, 0))
    with pytest.raises(PuzzleError, match="turn angle"):
        designer.press("complete", *at(0, 0))
    for _ in range(3):  # 180, 120, then 90 degrees
        designer.press("steps", *at(-2, 0))
    assert designer.data()["circles"][0]["steps"] == 4
    designer.set_steps("c2", 4)
    assert designer.press("complete", *at(0, 0))
    assert len(designer.data()["circles"]) == 12
    for region in presets.pieces(designer.design):
        designer.set_current_colour("grey")
        designer.press("paint", *at(*region.point))
    puzzle = designer.build()
    assert puzzle.n_cells == 33 and [puzzle.move_order(m) for m in puzzle.moves] == [4, 4]
    designer.rename_move("c1", "L")
    assert list(designer.build().moves) == ["L", "B"]
    image = render(lambda p: designer.paint(p, RECT, DrawOptions(show_numbers=True, hover=at(0, 0))))
    assert not image.isNull()


def test_designer_steps_tool_cycles_turn_angles(app) -> None:
    puzzle = GEOMETRY.build(preset="rashkey")
    designer = GEOMETRY.designer(puzzle)
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    x, y = widget_point(designer, -3, 0)
    seen = []
    for _ in range(3):
        designer.press("steps", x, y)
        seen.append(designer.data()["circles"][0].get("steps"))
    assert seen == [5, 6, 8]
    assert designer.press("steps", x, y)  # 10 steps: the pattern does not allow it, and the build says so
    with pytest.raises(PuzzleError, match="jams at 36 degrees"):
        designer.build()
    assert designer.press("steps", x, y, frozenset({"shift"}))
    assert "steps" not in designer.data()["circles"][0]
    assert designer.press("steps", x, y)  # from automatic: the pattern's own finest turn
    assert designer.data()["circles"][0]["steps"] == 4


def test_designer_hole_tool_makes_a_ring(app) -> None:
    puzzle = GEOMETRY.build(preset="four-disks")
    designer = GEOMETRY.designer(puzzle)
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    assert not designer.press("hole", *widget_point(designer, 0.2, 0))
    assert designer.drag("hole", *widget_point(designer, 2, 0))
    assert designer.data()["circles"][0]["inner"] == 2
    assert designer.drag("hole", *widget_point(designer, 0.1, 0))
    assert "inner" not in designer.data()["circles"][0]
    rings = GEOMETRY.build(preset="hungarian-rings")
    view = GEOMETRY.view(rings)
    render(lambda p: view.paint(p, RECT, State.solved(rings), DrawOptions()))
    assert view.move_at(*widget_point(view, 0, 0)) is None  # the hole does not turn
    assert view.move_at(*widget_point(view, -10, 0)).move == "A"


def test_designer_shift_places_off_the_grid(app) -> None:
    designer = GEOMETRY.designer(None)
    render(lambda p: designer.paint(p, RECT, DrawOptions()))
    start = designer.frame.to_widget(1.3, 0.6)
    assert designer.press("cut", start.x(), start.y(), frozenset({"shift"}))
    end = designer.frame.to_widget(3.8, 0.6)
    designer.drag("cut", end.x(), end.y())
    (circle,) = designer.data()["circles"]
    assert (circle["x"], circle["y"], circle["r"]) == pytest.approx((1.3, 0.6, 2.5))
    assert circle["kind"] == "cut"


# -- jumbling designs -------------------------------------------------------------
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
    work = designer.pending_work()  # the host runs it off the GUI thread; until then nothing is drawn of it
    assert work is not None and designer.limit is None
    work.job(lambda fraction, message: None, None)
    assert designer.pending_work() is None
    assert designer.limit is not None and "do not close up" in str(designer.limit)
    image = render(lambda p: designer.paint(p, RECT, DrawOptions()))
    reds = sum(1 for x in range(0, 600, 3) for y in range(0, 400, 3)
               if (c := QtGui.QColor(image.pixel(x, y))).red() > 180 and c.green() < 90 and c.blue() < 90)
    assert reds > 100
    with pytest.raises(PuzzleError, match="do not close up"):
        designer.build()

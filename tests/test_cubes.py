"""The cube plugin: cell layout, layer turns, names, aliases and group facts."""

from __future__ import annotations

import ast
import csv
import importlib
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.combinatorics import Permutation, PermutationGroup

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.plugins.hookspecs import MoveHit
from hlavolamy.plugins.manager import PluginHost
from tests.conftest import SANTA

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cubes():
    host = PluginHost([REPO / "plugins"], entry_points=False)
    return host.geometry("cubes")


@pytest.fixture(scope="module")
def model(cubes):
    """The plugin's geometry module, as the host imported it (under its private package name)."""
    return sys.modules[f"{type(cubes).__module__}.geometry"]


def moves(cubes, n: int, centre_slices: bool = False) -> dict[str, np.ndarray]:
    return {k: P.as_perm(v) for k, v in cubes.moves({"size": n, "centre_slices": centre_slices}).items()}


@pytest.mark.parametrize("n", range(2, 8))
def test_cell_and_move_counts(cubes, n):
    m = moves(cubes, n)
    assert all(len(p) == 6 * n * n for p in m.values())
    assert len(m) == 3 * n - 3 * (n % 2)  # one generator per layer, odd middles excluded
    assert len(moves(cubes, n, centre_slices=True)) == 3 * n


@pytest.mark.parametrize("n", range(2, 8))
def test_every_quarter_turn_has_order_four_and_layers_commute(cubes, n):
    m = moves(cubes, n, centre_slices=True)
    for name, p in m.items():
        assert P.order(p) == 4, name
    # parallel layers commute, perpendicular faces do not
    assert np.array_equal(m["R"][m["L"]], m["L"][m["R"]])
    assert not np.array_equal(m["R"][m["U"]], m["U"][m["R"]])


@pytest.mark.parametrize("n", range(2, 8))
def test_each_facelet_is_turned_by_one_layer_per_axis(cubes, n):
    m = moves(cubes, n, centre_slices=True)
    moved = np.zeros(6 * n * n, dtype=int)
    for p in m.values():
        moved[P.support(p)] += 1
    centres = [f * n * n + (n // 2) * (n + 1) for f in range(6)] if n % 2 else []
    # a face turn, and one layer of each of the two other axes; a centre stays put under its face turn
    assert set(np.delete(moved, centres).tolist()) == {3}
    assert moved[centres].tolist() == [2] * len(centres)
    for axis in ("RLM", "UDE", "FBS"):
        counts = np.zeros(6 * n * n, dtype=int)
        for name, p in m.items():
            if name.lstrip("0123456789") in axis:
                counts[P.support(p)] += 1
        assert counts.max() == 1, f"two layers of axis {axis} move the same facelet"


def santa_moves(n: int) -> dict[str, np.ndarray]:
    csv.field_size_limit(sys.maxsize)
    with open(SANTA / "puzzle_info.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["puzzle_type"] == f"cube_{n}/{n}/{n}":
                return {k: np.array(v) for k, v in ast.literal_eval(row["allowed_moves"]).items()}
    raise LookupError(n)


def santa_name(name: str, n: int) -> tuple[str, bool]:
    """Our layer name -> (Santa move, whether ours is its inverse)."""
    digits = name.rstrip("UDLRFBMES")
    face = name[len(digits):]
    k = int(digits or 1)
    middle = {"M": ("r", True), "E": ("d", False), "S": ("f", False)}
    if face in middle:
        letter, inverted = middle[face]
        return f"{letter}{n // 2}", inverted
    near = {"R": "r", "D": "d", "F": "f"}
    far = {"L": "r", "U": "d", "B": "f"}
    if face in near:
        return f"{near[face]}{k - 1}", False
    return f"{far[face]}{n - k}", True


@pytest.mark.skipif(not (SANTA / "puzzle_info.csv").exists(), reason="shared Santa 2023 benchmark folder absent")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_moves_equal_santa_2023(cubes, n):
    santa = santa_moves(n)
    ours = moves(cubes, n, centre_slices=True)
    assert len(ours) == len(santa) == 3 * n
    for name, p in ours.items():
        key, inverted = santa_name(name, n)
        expected = P.inverse(santa[key]) if inverted else santa[key]
        assert np.array_equal(p, expected), f"{name} != {key}{chr(39) if inverted else ''}"


def test_santa_names_of_the_faces():
    assert [santa_name(f, 4) for f in "FRDBLU"] == [
        ("f0", False), ("r0", False), ("d0", False), ("f3", True), ("r3", True), ("d3", True)]


def test_rubik_group_order(cubes):
    m = moves(cubes, 3)
    assert list(m) == ["U", "D", "L", "R", "F", "B"]
    group = PermutationGroup([Permutation(p.tolist()) for p in m.values()])
    assert group.order() == 43252003274489856000


def test_sexy_move_six_times_is_identity_by_turns(cubes):
    puzzle = cubes.build(size=3)
    sexy = [Turn("R"), Turn("U"), Turn("R", -1), Turn("U", -1)]
    assert P.order(puzzle.perm_of(sexy)) == 6
    assert State.solved(puzzle).apply(sexy * 6).is_solved()
    assert not State.solved(puzzle).apply(sexy * 3).is_solved()


def test_sexy_move_six_times_is_identity_by_notation(cubes):
    puzzle = cubes.build(size=3)
    assert P.is_identity(puzzle.perm_of(puzzle.parse("(R U R' U')6")))
    assert not P.is_identity(puzzle.perm_of(puzzle.parse("(R U R' U')3")))


def test_solved_colours_and_palette(cubes):
    puzzle = cubes.build(size=2)
    assert puzzle.colour_labels == tuple("UFRBLD")
    assert puzzle.colours[:4] == ("U",) * 4 and puzzle.colours[-4:] == ("D",) * 4
    assert puzzle.palette == {"U": "#ffffff", "F": "#009b48", "R": "#b71234",
                              "B": "#0046ad", "L": "#ff5800", "D": "#ffd500"}
    assert puzzle.plugin.name == "cubes" and puzzle.plugin.data == {"size": 2, "centre_slices": False}


def test_face_turn_moves_the_right_facelets(cubes):
    """U of the 3x3x3 turns U's 9 facelets and the top rows of F R B L, F's row going to L."""
    puzzle = cubes.build(size=3)
    faces = dict(zip("UFRBLD", np.array(State.solved(puzzle).apply([Turn("U")]).colours()).reshape(6, 9).tolist()))
    assert faces["U"] == ["U"] * 9 and faces["D"] == ["D"] * 9
    assert faces["F"][:3] == ["R"] * 3 and faces["L"][:3] == ["F"] * 3  # clockwise seen from above
    assert faces["F"][3:] == ["F"] * 6


def test_aliases_wide_and_rotations(cubes):
    p4 = cubes.build(size=4)
    assert set(p4.aliases) >= {"Rw", "3Rw", "Lw", "Uw", "Fw", "Bw", "Dw", "x", "y", "z"}
    assert np.array_equal(p4.perm_of(p4.parse("Rw")), p4.perm_of(p4.parse("R 2R")))
    state = State.solved(p4).apply("x")
    assert state.is_colour_solved() is False
    assert State.solved(p4).apply("x4").is_solved()
    # a rotation moves whole faces: every face still shows a single colour
    colours = np.array(State.solved(p4).apply("x y z'").colours()).reshape(6, 16)
    assert all(len(set(face)) == 1 for face in colours)
    p3 = cubes.build(size=3)
    assert p3.aliases == {}
    p3c = cubes.build(size=3, centre_slices=True)
    assert set(p3c.aliases) == {"Uw", "Dw", "Lw", "Rw", "Fw", "Bw", "x", "y", "z"}
    assert p3c.aliases["x"] == "R M' L'"
    p5 = cubes.build(size=5)
    assert set(p5.aliases) == {"Uw", "Dw", "Lw", "Rw", "Fw", "Bw"}


def test_inner_layer_names(cubes):
    assert list(moves(cubes, 4))[6:] == ["2U", "2D", "2L", "2R", "2F", "2B"]
    assert list(moves(cubes, 7, centre_slices=True))[-9:] == [
        "3U", "3D", "3L", "3R", "3F", "3B", "M", "E", "S"]
    m5 = moves(cubes, 5, centre_slices=True)
    # M turns like L: both move U's middle column onto F's
    assert np.array_equal(m5["M"][m5["L"]], m5["L"][m5["M"]])


@pytest.mark.parametrize(
    "data, message",
    [
        ({"size": 1}, "below 2"),
        ({"size": "3"}, "integer"),
        ({"size": True}, "integer"),
        ({}, "integer"),
        ({"size": 3, "centre_slices": 1}, "true or false"),
        ({"size": 3, "colour": "x"}, "unknown key 'colour'"),
        ([3], "object"),
    ],
)
def test_load_data_rejects_bad_data(cubes, data, message):
    with pytest.raises(ValueError, match=message):
        cubes.load_data(data)


def test_load_data_normalises(cubes):
    assert cubes.load_data({"size": 4}) == {"size": 4, "centre_slices": False}


def test_moves_regenerate_from_the_data_alone(cubes):
    puzzle = cubes.build(size=3, centre_slices=True)
    again = cubes.moves(dict(puzzle.plugin.data))
    assert list(again) == list(puzzle.moves)
    assert all(np.array_equal(puzzle.moves[k], v) for k, v in again.items())


def test_build_rejects_bad_parameters(cubes):
    with pytest.raises(ValueError, match="size"):
        cubes.build(size=1)
    with pytest.raises(ValueError, match="no parameter 'colours'"):
        cubes.build(colours=3)


def test_layout_round_trip(model):
    for n in (2, 3, 6):
        face, x, y, z = model.facelet_coords(n)
        assert np.array_equal(model.cell_index(n, face, x, y, z), np.arange(6 * n * n))


def test_large_cube_builds(cubes):
    puzzle = cubes.build(size=33)
    assert puzzle.n_cells == 6534 and len(puzzle.moves) == 96
    assert isinstance(puzzle, Puzzle)


# -- the Qt view (offscreen) -------------------------------------------------------
def test_3d_facelets_sit_on_their_cubies(model):
    """The drawing's facelet corners agree with the cell layout's cubie coordinates."""
    cube_corners = importlib.import_module(model.__package__ + ".view").cube_corners  # imports Qt

    for n in (2, 3, 5):
        centres = cube_corners(n).mean(axis=1) + n / 2
        cubie = np.clip(np.floor(centres), 0, n - 1).astype(int)
        face, x, y, z = model.facelet_coords(n)
        assert np.array_equal(cubie, np.stack([x, y, z], axis=1))
        normals = model.FACE_NORMALS[face]
        assert np.allclose(((centres - n / 2) * normals).sum(axis=1), n / 2)  # on the face's outer plane


def render(view, state, options=None, size=(900, 400)):
    from PyQt6.QtGui import QImage, QPainter
    from PyQt6.QtCore import QRectF
    from hlavolamy.plugins.hookspecs import DrawOptions

    image = QImage(size[0], size[1], QImage.Format.Format_RGB32)
    image.fill(0x808080)
    painter = QPainter(image)
    view.paint(painter, QRectF(0, 0, *size), state, options or DrawOptions())
    painter.end()
    return image


def pixel(image, point) -> str:
    return image.pixelColor(int(round(point[0])), int(round(point[1]))).name()


@pytest.fixture
def cube_view(cubes, qapp):
    puzzle = cubes.build(size=3)
    return puzzle, cubes.view(puzzle)


def test_view_paints_the_state_and_finds_cells(cube_view):
    puzzle, view = cube_view
    state = State.solved(puzzle).apply("R")  # R brings D's yellow up onto F's right column
    image = render(view, state)
    cell = 9 + 2  # F, row 0, column 2
    net_centre = view._net[cell].mean(axis=0)
    assert pixel(image, net_centre) == puzzle.palette["D"]
    assert view.cell_at(*net_centre) == cell
    (k,) = np.flatnonzero(view._solid_cells == cell)  # F is in front in the starting view
    solid_centre = view._solid[k].mean(axis=0)
    assert solid_centre[0] < net_centre[0]  # the 3D picture is left of the net
    assert pixel(image, solid_centre) == puzzle.palette["D"]
    assert view.cell_at(*solid_centre) == cell
    assert pixel(image, view._net[0].mean(axis=0)) == puzzle.palette["U"]
    assert view.cell_at(-5, -5) is None


def test_view_turns_with_drag_to_show_the_back(cube_view):
    puzzle, view = cube_view
    render(view, State.solved(puzzle))
    back = set(range(27, 36))
    assert not back & set(view._solid_cells.tolist())
    assert view.drag(math.pi / 0.01, 0)  # half a turn about the vertical axis
    render(view, State.solved(puzzle))
    assert back <= set(view._solid_cells.tolist())
    assert view.drag(0, 10_000)  # tilting stops short of the pole
    assert view.pitch == pytest.approx(math.radians(85))
    render(view, State.solved(puzzle))
    faces = set((view._solid_cells // 9).tolist())
    assert 0 in faces and 5 not in faces


def test_no_view_for_data_that_is_not_a_cube(cubes):
    wrong_size = Puzzle(["A"] * 24, {"s": list(range(23, -1, -1))}, plugin=PluginRecord("cubes", {"size": 3}))
    bad_data = Puzzle(["A"] * 24, {"s": list(range(23, -1, -1))}, plugin=PluginRecord("cubes", {"size": "2"}))
    assert cubes.view(wrong_size) is None and cubes.view(bad_data) is None


def test_view_click_turns_the_face(cube_view):
    puzzle, view = cube_view
    render(view, State.solved(puzzle))
    r_centre = view._net[2 * 9 + 4].mean(axis=0)
    assert view.move_at(*r_centre) == MoveHit("R", 1)
    assert view.move_at(*r_centre, button="right") == MoveHit("R", -1)
    assert view.move_at(-5, -5) is None


def test_view_numbers_and_highlight(cube_view):
    from hlavolamy.plugins.hookspecs import DrawOptions

    puzzle, view = cube_view
    state = State.solved(puzzle)
    plain = render(view, state)
    quad = view._net[4]
    centre = quad.mean(axis=0)
    edge = centre + 0.88 * ((quad[0] + quad[1]) / 2 - centre)  # middle of the sticker's top edge
    marked = render(view, state, DrawOptions(highlight=frozenset({4}), show_numbers=True))
    inward = (centre - edge) / np.linalg.norm(centre - edge)
    assert pixel(plain, edge + 3 * inward) == puzzle.palette["U"]
    assert colour_distance(pixel(marked, edge + 0.5 * inward), "#ff00aa") < 60
    # the number is drawn in black on white: some pixels of the sticker turn dark
    x0, y0 = (centre - 6).astype(int)
    dark = [marked.pixelColor(x, y).lightness() < 100 for x in range(x0, x0 + 12) for y in range(y0, y0 + 12)]
    assert any(dark) and not any(plain.pixelColor(x, y).lightness() < 100
                                 for x in range(x0, x0 + 12) for y in range(y0, y0 + 12))


def colour_distance(a: str, b: str) -> float:
    ca = np.array([int(a[i:i + 2], 16) for i in (1, 3, 5)])
    cb = np.array([int(b[i:i + 2], 16) for i in (1, 3, 5)])
    return float(np.abs(ca - cb).sum())


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_shipped_puzzle_files_match_the_plugin(cubes, n):
    from hlavolamy.core.fileformat import load_puzzle

    shipped = load_puzzle(REPO / "puzzles" / f"rubik{n}.json").puzzle
    built = cubes.build(size=n)
    assert shipped.fingerprint == built.fingerprint
    assert shipped.aliases == built.aliases and shipped.palette == built.palette
    assert shipped.plugin == built.plugin


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 6), centre=st.booleans(), picks=st.lists(st.integers(0, 10_000), max_size=25))
def test_turn_sequences_keep_cubies_whole(cubes, model, n, centre, picks):
    """Facelets that share a cubie still share one after any sequence of layer turns."""
    m = list(moves(cubes, n, centre).values())
    perm = np.arange(6 * n * n)
    for k in picks:
        perm = perm[m[k % len(m)]]
    _, x, y, z = model.facelet_coords(n)
    cubie = (x * n + y) * n + z
    moved_cubie = cubie[perm]
    for key in np.unique(cubie):
        assert len(set(moved_cubie[cubie == key].tolist())) == 1

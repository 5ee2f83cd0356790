"""The polyhedra plugin: stickers, pieces and turns of cut Platonic solids against published puzzle counts.

Group orders are those of the permutation group the puzzle's moves generate on
the stickers, as ``hlavolamy info`` reports them. Where a published count uses
another convention, the test states the factor between the two and why.
"""

from __future__ import annotations

import importlib
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.analysis import analyse
from hlavolamy.core import perm as P
from hlavolamy.core.fileformat import load_puzzle, save_puzzle
from hlavolamy.errors import PuzzleError
from hlavolamy.plugins.manager import PluginHost, get_plugin_host

GEOMETRY = get_plugin_host().geometry("polyhedra")
PACKAGE = type(GEOMETRY).__module__  # the plugin host's private name for plugins/polyhedra
description = importlib.import_module(f"{PACKAGE}.description")
cutting = importlib.import_module(f"{PACKAGE}.cutting")
turns = importlib.import_module(f"{PACKAGE}.turns")
model = importlib.import_module(f"{PACKAGE}.model")
presets = importlib.import_module(f"{PACKAGE}.presets")


def polyhedron(preset: str):
    return model.Polyhedron.from_data({"description": presets.PRESETS[preset][1]})


FACTORIAL = math.factorial

# preset -> (group order of our puzzle, sorted orbit sizes, stickers, pieces, order of every move)
PUBLISHED = {
    # Wikipedia, "Rubik's Cube": 43,252,003,274,489,856,000 positions; centres never move (6 fixed stickers).
    "3x3x3": (43252003274489856000, [24, 24], 54, 26, 4),
    # Wikipedia, "Megaminx" (Number of combinations, the twelve-colour version); centres never move.
    "megaminx": (100669616553523347122516032313645505168688116411019768627200000000000, [60, 60], 132, 62, 5),
    # Wikipedia, "Pyraminx": 933,120 positions without the tips, times 3^4 tip twists = 75,582,720.
    "pyraminx": (75582720, [3] * 8 + [12], 36, 14, 3),
    # Wikipedia / Jaap's Puzzle Page, "Skewb": 3,149,280 positions. Our skewb keeps the UFR corner still (its
    # half never turns), which is exactly the "positions up to a whole-puzzle rotation" convention.
    "skewb": (3149280, [6, 9, 12], 30, 14, 3),
    # Brandon Enright, "Dioctipoid Math" (twistypuzzles.com forum, 2012): a super-stickered FTO has
    # (12!/2)(6!/2)(12!/2)^2(2^6/2)/12 = 13,188,400,838,457,446,891,520,000,000 positions and the FTO
    # 31,408,133,379,194,880,000,000 (its 3 centres of a colour in each centre orbit alike: / (3!^4/2)^2).
    # Both divide by the 12 orientations the whole puzzle can take; the FTO has no piece that stays put,
    # and our stickers all count, so our group is 12 x the super-stickered count.
    "fto": (12 * 13188400838457446891520000000, [12] * 6, 72, 42, 3),
    # Jaap's Puzzle Page, "Dino Cube": 12!/2/12 = 19,958,400 positions, up to the 12 orientations the
    # puzzle can take; no piece stays put, so our group is 12!/2 = 12 x that.
    "dino": (12 * 19958400, [12, 12], 24, 12, 3),
    # Wikipedia, "Pyraminx" (Master Pyraminx, citing M. Gottlieb): "about 2.6817 x 10^15" positions
    # without the tips; our group (tips included, face centres still) is 3^4 x 2,681,795,837,952,000.
    "master-pyraminx": (81 * 2681795837952000, [12] * 5, 64, 30, 3),
}


@pytest.mark.parametrize("preset", sorted(PUBLISHED))
def test_group_order_and_orbits_match_published_counts(preset):
    order, orbit_sizes, stickers, pieces, move_order = PUBLISHED[preset]
    puzzle = GEOMETRY.build(preset=preset)
    analysis = analyse(puzzle, three_cycles=False)
    assert analysis.order.exact and int(analysis.order.decimal) == order
    assert sorted(len(o) for o in analysis.structure.orbits) == orbit_sizes
    shape = polyhedron(preset)
    assert (len(shape.cutting.stickers), len(shape.cutting.pieces)) == (stickers, pieces)
    assert {puzzle.move_order(name) for name in puzzle.moves} == {move_order}


def test_fto_counts_relate_as_published():
    """The FTO's centre factor: each of the two centre orbits holds 4 colours x 3 alike centres."""
    super_stickered, fto = 13188400838457446891520000000, 31408133379194880000000
    assert super_stickered == fto * (FACTORIAL(3) ** 4 // 2) ** 2
    assert super_stickered == (FACTORIAL(12) // 2) ** 3 * (FACTORIAL(6) // 2) * 2 ** 5 // 12
    assert str(PUBLISHED["master-pyraminx"][0] // 81).startswith("26817")


@pytest.mark.parametrize("preset", sorted(presets.PRESETS))
def test_every_preset_builds_turns_and_tiles(preset):
    """Every move has the turn order of its axis and its full circle is the identity; stickers tile the faces."""
    shape = polyhedron(preset)
    for grip in shape.grips:
        assert P.order(grip.perm) == grip.order
        assert P.is_identity(P.power(grip.perm, grip.order))
    face_area = {f: cutting.area(shape.cutting.solid.face_polygon(f)) for f in range(len(shape.cutting.solid.faces))}
    covered = {f: 0.0 for f in face_area}
    for sticker in shape.cutting.stickers:
        covered[sticker.face] += cutting.area(sticker.corners)
    assert covered == pytest.approx(face_area)


@pytest.mark.parametrize("preset", ["3x3x3", "megaminx", "master-pyraminx", "skewb", "fto"])
def test_each_sticker_in_one_piece_and_turns_move_whole_pieces(preset):
    shape = polyhedron(preset)
    pieces = shape.cutting.pieces
    assert sorted(c for piece in pieces for c in piece) == list(range(len(shape.cutting.stickers)))
    piece_of = {c: k for k, piece in enumerate(pieces) for c in piece}
    for grip in shape.grips:
        for piece in pieces:
            assert len({piece_of[int(grip.perm[c])] for c in piece}) == 1, grip.name


def test_names_follow_the_faces_and_layers():
    assert polyhedron("3x3x3").move_names == ["U", "F", "R", "B", "L", "D"]
    assert sorted(polyhedron("megaminx").move_names) == sorted(["U", "F", "R", "BR", "BL", "L", "FR", "DR",
                                                                "B", "DL", "FL", "D"])
    assert sorted(polyhedron("pyraminx").move_names) == ["2B", "2L", "2R", "2U", "B", "L", "R", "U"]
    assert "2D" in polyhedron("4x4x4").move_names
    pyraminx = GEOMETRY.build(preset="pyraminx")
    assert pyraminx.aliases["Uw"] == "U 2U"  # the pyraminx's big U: tip and middle layer
    assert GEOMETRY.build(preset="master-pyraminx").aliases["Uw"] == "U 2U"


def test_u_turns_the_top_clockwise_seen_from_above():
    """The cube's U carries the F face's top row to L, as in cube notation."""
    shape = polyhedron("3x3x3")
    moves = shape.moves()
    colours = np.array(shape.colours)
    after = colours[moves["U"]]  # new[i] = old[perm[i]]
    centres = shape.cutting.centres
    left_top = [i for i, s in enumerate(shape.cutting.stickers)
                if shape.cutting.solid.face_names[s.face] == "L" and centres[i][1] > 0.5]
    assert set(after[left_top]) == {"F"}


def test_the_safety_net_refuses_a_turn_that_lands_on_no_sticker():
    shape = polyhedron("3x3x3")
    top = np.flatnonzero(shape.cutting.centres[:, 1] > 1 / 3)
    with pytest.raises(turns.JamError, match="lands on no sticker"):
        turns.turn_perm(shape.cutting, top, np.array([0.0, 1.0, 0.0]), 5, "U")


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("x f 0.3", "not a shape"),
    ("c f", "has no distance"),
    ("c q 0.3", "is not a cut"),
    ("c f abc", "is not a number"),
    ("c f 1.5", "misses the cube"),
    ("t v 3", "misses the tetrahedron"),
])
def test_bad_descriptions_say_what_is_wrong(text, message):
    with pytest.raises(PuzzleError, match=message):
        model.Polyhedron.from_data({"description": text}).puzzle()


def test_bad_data_and_renames():
    with pytest.raises(PuzzleError, match="unknown key"):
        GEOMETRY.load_data({"description": "c f 0", "size": 3})
    with pytest.raises(PuzzleError, match="not a move"):
        model.Polyhedron.from_data({"description": "c f 0", "names": {"Q": "X"}}).puzzle()
    with pytest.raises(PuzzleError, match="two moves are named"):
        model.Polyhedron.from_data({"description": "c f 0", "names": {"D": "B"}}).puzzle()
    renamed = model.Polyhedron.from_data({"description": "c f 0", "names": {"D": "down"}}).puzzle()
    assert "down" in renamed.moves


def test_full_names_and_description_parameter():
    assert description.parse("dodecahedron f 0.7") == description.parse("d f 0.7")
    puzzle = GEOMETRY.build(description="d f 0.7")
    assert puzzle.n_cells == 132 and puzzle.plugin.data == {"description": "d f 0.7"}


def test_file_round_trip_plays_without_the_plugin(tmp_path):
    puzzle = GEOMETRY.build(preset="megaminx")
    path = tmp_path / "megaminx.json"
    save_puzzle(path, puzzle)
    assert json.loads(path.read_text())["plugin"]["name"] == "polyhedra"
    loaded = load_puzzle(path).puzzle
    assert loaded.fingerprint == puzzle.fingerprint
    assert GEOMETRY.moves(loaded.plugin.data) == {k: v.tolist() for k, v in puzzle.moves.items()}
    bare = PluginHost([], entry_points=False)
    assert "polyhedra" not in bare.geometries and loaded.move_order("U") == 5


@settings(max_examples=10, deadline=None)
@given(shape=st.sampled_from("ctdoi"), kind=st.sampled_from("fve"), depth=st.floats(0.0, 0.95))
def test_any_single_cut_gives_a_consistent_puzzle(shape, kind, depth):
    """Any one cut either builds (turns of the right order, pieces moved whole) or is refused with a reason."""
    try:
        shape_model = model.Polyhedron.from_data({"description": f"{shape} {kind} {depth}"})
        grips = shape_model.grips
    except PuzzleError as exc:
        assert "misses" in str(exc) or "no turning layer" in str(exc)
        return
    piece_of = {c: k for k, piece in enumerate(shape_model.cutting.pieces) for c in piece}
    for grip in grips:
        assert P.order(grip.perm) == grip.order
        moved = {piece_of[int(c)] for c in np.flatnonzero(grip.perm != np.arange(len(grip.perm)))}
        for k in moved:
            assert len({piece_of[int(grip.perm[c])] for c in shape_model.cutting.pieces[k]}) == 1


recognise = importlib.import_module(f"{PACKAGE}.recognise")


def attached(puzzle):
    """The puzzle as an import leaves it: with the record of the plugin that recognised it, if any."""
    from hlavolamy.core.fileformat import PuzzleFile
    from hlavolamy.plugins.manager import attach_geometry

    return attach_geometry(PuzzleFile(puzzle)).puzzle


def shuffled(puzzle, seed: int, names: dict[str, str] | None = None):
    """The same puzzle with its cells renumbered and its moves renamed (as another tool would write it)."""
    from hlavolamy.core.puzzle import Puzzle

    rng = np.random.default_rng(seed)
    order = rng.permutation(puzzle.n_cells)  # new cell k is old cell order[k]
    back = np.argsort(order)
    moves = {(names or {}).get(k, f"m{k}"): back[m[order]] for k, m in puzzle.moves.items()}
    return Puzzle([f"c{k}" for k in range(puzzle.n_cells)], moves, name="imported")


@pytest.mark.parametrize("preset", ["3x3x3", "megaminx", "pyraminx", "fto", "master-pyraminx"])
def test_an_import_is_recognised_up_to_relabelling(preset):
    imported = attached(shuffled(GEOMETRY.build(preset=preset), seed=7))
    assert imported.plugin.name == "polyhedra"
    assert imported.plugin.data["description"] == presets.PRESETS[preset][1]
    rebuilt = GEOMETRY.moves(imported.plugin.data)
    assert all(rebuilt[k] == imported.moves[k].tolist() for k in imported.moves)


def test_a_skewb_with_all_eight_corner_turns_is_recognised():
    """PuzzleGeometry's skewb turns all eight corners (our skewb keeps one still): half turns of either side."""
    from hlavolamy.core.puzzle import Puzzle

    cutting, turns_ = recognise.block_turns("c v 0")
    halves = {f"t{k}": t.perm for k, t in enumerate(turns_) if t.steps == 1}
    assert len(halves) == 8
    imported = attached(shuffled(Puzzle(["x"] * len(cutting.stickers), halves), seed=3))
    assert imported.plugin.data["description"] == "c v 0"
    assert int(analyse(imported, three_cycles=False).order.decimal) == 12 * 3149280  # 12 orientations


def test_a_cube_file_without_centres_is_recognised_and_drawn():
    """A ksolve 3x3x3 often leaves out the six centres: they never move."""
    from hlavolamy.core.puzzle import Puzzle

    cube = GEOMETRY.build(preset="3x3x3")
    moving = np.flatnonzero(np.any([m != np.arange(54) for m in cube.moves.values()], axis=0))
    index = {int(c): k for k, c in enumerate(moving)}
    moves = {k: [index[int(m[c])] for c in moving] for k, m in cube.moves.items()}
    imported = attached(shuffled(Puzzle(["x"] * len(moving), moves), seed=5))
    assert len(imported.plugin.data["cells"]) == 48


def test_unrelated_puzzles_are_not_recognised():
    from hlavolamy.core.puzzle import Puzzle

    ring = Puzzle(["a"] * 24, {"r": [(i + 1) % 24 for i in range(24)], "s": [1, 0, *range(2, 24)]})
    assert recognise.recognise(ring) is None and attached(ring).plugin is None


def test_imports_keep_the_picture(tmp_path):
    from hlavolamy import formats

    for fmt in ("ksolve", "kpuzzle"):
        path = tmp_path / f"pyraminx.{fmt}"
        formats.export_file(fmt, GEOMETRY.build(preset="pyraminx"), path)
        loaded = attached(formats.import_file(fmt, path).puzzle)
        assert loaded.plugin is not None and loaded.plugin.data["description"].startswith("t v")
        save_puzzle(tmp_path / "again.json", loaded)
        assert load_puzzle(tmp_path / "again.json").puzzle.plugin.data == loaded.plugin.data


@pytest.mark.parametrize("name, description, order", [
    ("skewb", "c v 0", 12 * 3149280),  # all eight corners turn: the 12 orientations are reachable
    # PuzzleGeometry's pyraminx turns the tips and the four face layers (a corner's big layer turned the other
    # way round with the whole puzzle): no piece stays put, and its group is 4 x ours
    ("pyraminx", "t v 0.333333333333333 v 1.66666666666667", 4 * 75582720),
])
def test_twsearch_files_open_with_the_picture(name, description, order):
    from pathlib import Path

    from hlavolamy import formats

    path = Path(__file__).parent / "data" / "twsearch" / f"{name}.tws"
    puzzle = attached(formats.import_file("ksolve", path).puzzle)
    assert puzzle.plugin is not None and puzzle.plugin.data["description"] == description
    assert int(analyse(puzzle, three_cycles=False).order.decimal) == order

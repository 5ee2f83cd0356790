"""Jumbling circle designs: the exact closure, its cells against published and independent counts, play and solve."""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from hlavolamy.analysis.blocking import shape_graph
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, IllegalMoveError, PuzzleError
from hlavolamy.plugins.manager import get_plugin_host
from hlavolamy.solve import solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jumble_sim import SimDisk, cut_as_you_turn, grid_points, legal_placements

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
GEOMETRY = get_plugin_host().geometry("circles")
PACKAGE = type(GEOMETRY).__module__
cyclotomic = importlib.import_module(f"{PACKAGE}.cyclotomic")
jumble = importlib.import_module(f"{PACKAGE}.jumble")
design_mod = importlib.import_module(f"{PACKAGE}.design")
presets = importlib.import_module(f"{PACKAGE}.presets")
Design, DesignCircle = design_mod.Design, design_mod.DesignCircle


def disks_design(centres: list[tuple[float, float]], steps: int, radius: float, jumble_mode: str = "cut") -> Design:
    """Turning disks A, B, ... with every region inside them coloured by which disks hold it."""
    design = Design([DesignCircle(chr(65 + i), x, y, radius, "turn", steps) for i, (x, y) in enumerate(centres)],
                    grid=None, jumble=jumble_mode)
    for region in design.arrangement.regions:
        if region.inside:
            design.colours[region.id] = "c" + "".join(sorted(region.inside))
    return design


# -- exact points -------------------------------------------------------------------
@pytest.mark.parametrize("n, coefficients", [(4, [1, 0, 1]), (12, [1, 0, -1, 0, 1]), (20, [1, 0, -1, 0, 1, 0, -1, 0, 1])])
def test_cyclotomic_polynomial(n: int, coefficients: list[int]) -> None:
    assert cyclotomic.cyclotomic_polynomial(n) == coefficients


@pytest.mark.parametrize("steps", [5, 7, 8, 9, 12])
def test_turning_steps_times_comes_back_exactly(steps: int) -> None:
    from fractions import Fraction

    plane = cyclotomic.CyclotomicPlane(math.lcm(4, steps), [Fraction(1, 3)])
    p, c = plane.point(Fraction(7, 3), Fraction(-1, 3)), plane.point(Fraction(1, 3), 2)
    q = p
    for k in range(1, steps + 1):
        q = plane.turn(q, c, 1, steps)
        expected = complex(1 / 3, 2) + (complex(7 / 3, -1 / 3) - complex(1 / 3, 2)) * np.exp(2j * np.pi * k / steps)
        assert abs(plane.value(q) - expected) < 1e-12
        assert (q == p) == (k == steps)


# -- the closure agrees with the designs whose turns fit (published counts) -----------------
@pytest.mark.parametrize(
    "centres, cells",
    [
        # Jaap Scherphuis, "Rashkey" (jaapsch.net/puzzles/rashkey.htm): 33 pieces on two disks one radius apart
        ([(0, 0), (4, 0)], 33),
        # Jaap Scherphuis, "Circle Puzzle" (jaapsch.net/puzzles/circle.htm): 12 moving pieces plus 4 centres
        ([(0, 0), (6, 0), (0, 6), (6, 6)], 16),
    ],
)
def test_closure_of_quarter_turn_designs_gives_the_published_pieces(centres: list[tuple[float, float]], cells: int) -> None:
    design = disks_design(centres, 4, 4)
    puzzle = design.puzzle()
    assert puzzle.n_cells == cells
    assert not puzzle.blockings


def test_closure_matches_complete_cuts_where_both_close() -> None:
    """Quarter turns: the arcs' closure and the whole-circle Complete cuts give the same Rashkey cells."""
    _, rashkey = presets.preset("rashkey")
    jumbled = disks_design([(0, 0), (4, 0)], 4, 4)
    assert sorted(round(r.area, 9) for r in jumbled.jumbled.cells) == sorted(round(r.area, 9) for r in rashkey.cells)


# -- the shipped jumbling puzzles -----------------------------------------------------
SHIPPED = {"gears45": (21, 0, 15), "gears57": (53, 0, 40), "gears65": (49, 0, 32), "four-disks-45": (44, 13, 28)}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_jumbling_file(name: str) -> None:
    cells, fused, circles = SHIPPED[name]
    loaded = load_puzzle(PUZZLES / f"{name}.json").puzzle
    assert (loaded.n_cells, len(loaded.blockings)) == (cells, fused)
    title, design = presets.preset(name)
    assert len(design.jumbled.closure.circles) == circles
    assert design.jumbled.closure.complete
    assert design.puzzle(title, presets.PRESETS[name]).fingerprint == loaded.fingerprint, "puzzles/ is out of date"
    regenerated = GEOMETRY.moves(loaded.plugin.data)
    assert {k: list(v) for k, v in regenerated.items()} == {k: v.tolist() for k, v in loaded.moves.items()}


def test_complete_cuts_does_not_close_the_shipped_gears() -> None:
    """They are jumbling designs: whole-circle copies never close up, only the arcs do."""
    for name in ("gears45", "gears57", "gears65"):
        _, design = presets.preset(name)
        with pytest.raises(PuzzleError, match="do not close up"):
            design_mod.complete_cuts(design, limit=300)


def _sim_disks(design: Design) -> list[SimDisk]:
    return [SimDisk(c.x, c.y, c.r, 2 * math.pi * (c.turns or 1) / c.steps) for c in design.circles if c.kind == "turn"]


@pytest.mark.parametrize("name", ["gears45", "gears57", "gears65"])
def test_pieces_by_an_independent_count(name: str) -> None:
    """Random turns on sample points, each cutting what it crosses, give the closure's cells.

    Every piece the sampling finds lies in one cell and no cell holds two of
    them; every cell larger than a few sample spacings squared is found.
    (The smallest cells of gears57 and gears65, 0.0004 in area, are found
    with a finer grid, see docs/circles.md; this test keeps to 0.03.)
    """
    _, design = presets.preset(name)
    spacing = 0.03
    pts = grid_points(_sim_disks(design), spacing)
    pos, labels = cut_as_you_turn(_sim_disks(design), pts, 6000, seed=3, quiet=600)
    arr = design.jumbled.arrangement
    found: dict[str, int] = {}
    for label in range(int(labels.max()) + 1):
        members = np.flatnonzero(labels == label)
        where = {arr.region_at(*pos[i]).id for i in members[:: max(1, len(members) // 4)][:4]}
        assert len(where) == 1, f"sampled piece {label} lies in cells {where}"
        cell = where.pop()
        assert cell not in found, f"cell {cell} holds two sampled pieces"
        found[cell] = label
    cells = design.jumbled.cells
    assert set(found) <= {r.id for r in cells}
    missed = [r for r in cells if r.id not in found]
    assert all(r.area < 4 * spacing**2 for r in missed), [r.area for r in missed]
    if name == "gears45":
        assert len(found) == len(cells) == 21


def test_bandaged_shapes_by_an_independent_count() -> None:
    """Random legal walks of the drawn pieces in floating point see as many placements as the shape graph has shapes."""
    _, design = presets.preset("four-disks-45")
    disks = _sim_disks(design)
    pts = grid_points(disks, 0.05, seed=2)
    # a drawn piece is a face of whole circles: the points inside the same circles
    inside = np.stack([np.hypot(pts[:, 0] - c.x, pts[:, 1] - c.y) < c.r for c in design.circles], axis=1)
    _, labels = np.unique(inside, axis=0, return_inverse=True)
    seen = legal_placements(disks, pts, labels.ravel(), 3000, seed=5)
    puzzle = design.puzzle()
    assert len(seen) == shape_graph(puzzle).size == 2


# -- the fractal case -------------------------------------------------------------------
def test_fractal_design_is_refused_within_its_limit() -> None:
    """Two equal disks with twelfth turns, radius 1.5 of half their distance: above the radius (about 1.39) where
    the Twisty Puzzles forum's "Are the Gizmo Gears jumbling?" thread found the pieces multiplying without end."""
    design = Design([DesignCircle("A", 0, 0, 3, "turn", 12), DesignCircle("B", 4, 0, 3, "turn", 12)], grid=None, jumble="cut")
    with pytest.raises(jumble.JumbleLimit, match="do not close up") as caught:
        jumble.closure_of(design.circles, lambda c: c.steps, max_circles=400)
    closure = caught.value.closure
    assert len(closure.circles) == 400 and not closure.complete
    assert closure.multiplying() and max(c.generation for c in closure.circles) > 3


def test_closure_is_cancellable() -> None:
    design = Design([DesignCircle("A", 0, 0, 3, "turn", 12), DesignCircle("B", 4, 0, 3, "turn", 12)], grid=None, jumble="cut")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        jumble.closure_of(design.circles, lambda c: c.steps, cancel=token)


# -- angles and data ------------------------------------------------------------------
def test_turns_give_any_rational_angle() -> None:
    _, design = presets.preset("gears65")
    b = design.circle("B")
    assert (b.steps, b.turns, b.angle) == (5, 2, 144.0)
    data = design.to_data()
    assert data["jumble"] == "cut" and data["circles"][1]["turns"] == 2
    assert Design.from_data(data).to_data() == data
    bad = dict(data, circles=[dict(data["circles"][0], turns=2, steps=6), data["circles"][1]])
    with pytest.raises(PuzzleError, match="turns"):
        Design.from_data(bad)
    with pytest.raises(PuzzleError, match="jumble"):
        Design.from_data(dict(data, jumble="maybe"))


def test_per_disk_jumbling_is_reported() -> None:
    _, design = presets.preset("four-disks-45")
    assert [design.jumbles(c) for c in design.circles if c.kind == "turn"] == [True, False, False, False]


# -- play and solve -------------------------------------------------------------------
def test_a_blocked_turn_is_refused_with_the_straddling_piece() -> None:
    puzzle = load_puzzle(PUZZLES / "four-disks-45.json").puzzle
    state = State.solved(puzzle).apply([Turn("A", 1)])
    assert fused_sets_torn(puzzle, state.perm, "B") and fused_sets_torn(puzzle, state.perm, "C")
    assert not fused_sets_torn(puzzle, state.perm, "D")
    with pytest.raises(IllegalMoveError):
        state.apply([Turn("B", 1)])
    assert not fused_sets_torn(puzzle, state.apply([Turn("A", 1)]).perm, "B")


def _legal_replay(puzzle, start: State, turns) -> State:
    state = start
    for t in turns:
        state = state.apply([t])  # checks every step's legality
    return state


def test_scramble_is_solved_and_replays_legally() -> None:
    """(The bandaged four-disks-45 is solved the same way by the blocking solver; its figures are in docs/circles.md.)"""
    puzzle = load_puzzle(PUZZLES / "gears45.json").puzzle
    scramble = random_scramble(puzzle, 30, 11)
    start = State.solved(puzzle).apply(scramble)
    result = solve(puzzle, start)
    assert _legal_replay(puzzle, start, result.moves).is_solved()


def test_info_reports_pieces_shapes_and_where_moves_are_blocked(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from hlavolamy.cli import main

    assert main(["info", str(PUZZLES / "four-disks-45.json"), "--no-three-cycles", "--json"]) == 0
    blocking = json.loads(capsys.readouterr().out)["blocking"]
    assert blocking["pieces"] == 16 and len(blocking["fused_sets"]) == 13
    assert blocking["shapes"]["count"] == 2 and blocking["shapes"]["complete"]
    assert blocking["blocked_in_shapes"] == {"A": 0, "B": 1, "C": 1, "D": 0}


def test_a_closure_too_big_to_cut_into_regions_is_refused() -> None:
    """Fifth turns at R = 2 close after 528 circles (6255 cells): past MAX_BUILD_CIRCLES, refused before the regions."""
    design = disks_design([(0, 0), (4, 0)], 5, 4)
    with pytest.raises(PuzzleError, match="528 cut circles"):
        design.puzzle()

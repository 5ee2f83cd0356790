"""The shipped circle puzzles, drawn by code so the files in ``puzzles/`` can be regenerated and checked.

Each preset places its turning circles, completes the cuts that make every
turn symmetric (:func:`complete_cuts`) and colours the regions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from .arrangement import Region
from .design import CUT, TURN, Design, DesignCircle, complete_cuts
from .jumbled import BLOCK, CUT_ALL

R = 4
"""Disk radius in grid units for the lattice puzzles."""

PRESETS: dict[str, str] = {
    "rashkey": "Rashkey 3: two disks one radius apart, quarter turns; 33 pieces (20 triangles, 7 diamonds, 6 squares).",
    "rashkey4x": "Four-disk Rashkey: four disks on the corners of a square of side one radius, quarter turns.",
    "hungarian-rings": "Hungarian rings: two rings of 20 balls crossing at right angles, sharing two balls.",
    "four-disks": "Four disks on a square, quarter turns; 12 moving pieces around four spinning centres.",
    "gears45": "Jumbling gears 4/5: two disks of radius 2.8, four apart, one turning by 90°, the other by 72°; "
    "every turn cuts what it crosses (21 pieces).",
    "gears57": "Jumbling gears 5/7: disks of radius 2.8 and 2.4, four apart, turning by 72° and by 3/7 of a turn; "
    "every turn cuts what it crosses (53 pieces).",
    "gears65": "Jumbling gears 6/5: disks of radius 2.4 and 2.8, four apart, turning by 60° and by 144° (360/2.5); "
    "every turn cuts what it crosses (49 pieces).",
    "four-disks-45": "Four disks with the first turning by 45°: the four-disks pieces as drawn; while that disk "
    "stands at an odd eighth its neighbours are blocked.",
}
JUMBLING = ("gears45", "gears57", "gears65", "four-disks-45")
"""The jumbling presets (closure computed when built)."""


def preset(name: str) -> tuple[str, Design]:
    """(title, design) of a shipped puzzle."""
    builders: dict[str, Callable[[], tuple[str, Design]]] = {
        "rashkey": rashkey,
        "rashkey4x": rashkey4x,
        "hungarian-rings": hungarian_rings,
        "four-disks": four_disks,
        "gears45": lambda: gears("Jumbling gears 4/5", ((4, 1), 2.8), ((5, 1), 2.8)),
        "gears57": lambda: gears("Jumbling gears 5/7", ((5, 1), 2.8), ((7, 3), 2.4)),
        "gears65": lambda: gears("Jumbling gears 6/5", ((6, 1), 2.4), ((5, 2), 2.8)),
        "four-disks-45": four_disks_45,
    }
    return builders[name]()


def lattice_disks(centres: list[tuple[float, float]], steps: int, radius: float = R) -> Design:
    """Turning disks named A, B, ... at ``centres`` with all cuts their turns need."""
    disks = [DesignCircle(chr(ord("A") + i), x, y, radius, TURN, steps) for i, (x, y) in enumerate(centres)]
    return complete_cuts(Design(disks))


def pieces(design: Design) -> list[Region]:
    """Regions inside some turning circle, in reading order (top to bottom, left to right)."""
    turning = {c.id for c in design.circles if c.kind == TURN}
    inside = [r for r in design.arrangement.regions if r.inside & turning]
    return sorted(inside, key=lambda r: (round(r.point[1], 6), round(r.point[0], 6)))


def rashkey() -> tuple[str, Design]:
    """Two disks one radius apart, in the published "Rashkey 3" colours.

    One disk red, the other blue, the pieces they share yellow (Jaap
    Scherphuis's Rashkey page lists the three factory schemes; this is the hardest).
    """
    design = lattice_disks([(0, 0), (R, 0)], 4)
    for region in pieces(design):
        shared = {"A", "B"} <= region.inside
        design.colours[region.id] = "yellow" if shared else ("red" if "A" in region.inside else "blue")
    design.palette.update(PALETTE)
    return "Rashkey", design


PALETTE = {
    "red": "#d7263d", "orange": "#f49d37", "yellow": "#f5d547", "blue": "#1b6ca8", "cyan": "#5bc0eb",
    "green": "#3bb273", "white": "#f4f4f4", "purple": "#7b4fa0", "pink": "#e87ea1", "grey": "#8d99ae",
}


def rashkey4x() -> tuple[str, Design]:
    """Four disks on the corners of a square of side R; each quadrant its own colour family."""
    design = lattice_disks([(0, 0), (R, 0), (0, R), (R, R)], 4)
    quadrant = {(False, False): "red", (True, False): "blue", (False, True): "yellow", (True, True): "green"}
    for region in pieces(design):
        x, y = region.point
        if abs(x - R / 2) < 1e-6 or abs(y - R / 2) < 1e-6:
            label = "white"
        else:
            label = quadrant[(x > R / 2, y > R / 2)]
        design.colours[region.id] = label
    design.palette.update(PALETTE)
    return "Four-disk Rashkey", design


def hungarian_rings() -> tuple[str, Design]:
    """Two rings of 20 balls crossing at right angles, sharing two balls five apart on each ring.

    Each ring is a turning circle with a hole (it carries only the ring's
    track) and every ball is a small cut circle; only balls are coloured, so
    the rest is empty space. Between the shared balls, four balls of each
    ring lie in the other ring's hole, which its turns leave alone.
    Colours: each ring's 14 outer balls red / blue, its 4 inner balls
    yellow / green, the shared balls white.
    """
    n, track, ball, gap = 20, 10.0, 0.9, 0.4
    apart = track * math.sqrt(2)
    width = ball + gap
    rings = [DesignCircle(name, x, 0.0, track + width, TURN, n, inner=track - width) for name, x in (("A", 0.0), ("B", round(apart, 9)))]
    design = Design(rings, grid=None)
    colour: dict[int, str] = {}
    looks = (("red", "yellow", -math.pi / 4), ("blue", "green", 3 * math.pi / 4))  # outer, inner balls; first ball's angle
    for ring, (outer, inner_colour, first) in zip(rings, looks):
        for j in range(n):
            a = first + 2 * math.pi * j / n
            x, y = round(ring.x + track * math.cos(a), 9), round(ring.y + track * math.sin(a), 9)
            same = next((i for i, b in enumerate(design.circles) if b.kind == CUT and math.hypot(b.x - x, b.y - y) < 1e-6), None)
            if same is not None:
                colour[same] = "white"
                continue
            colour[len(design.circles)] = inner_colour if 0 < j < 5 else outer
            design.circles.append(DesignCircle(f"ball{len(design.circles) - 1}", x, y, ball, CUT))
    for i, label in colour.items():
        design.colours[f"+{design.circles[i].id}"] = label
    design.palette.update(PALETTE)
    return "Hungarian rings", design


def four_disks() -> tuple[str, Design]:
    """Four disks of radius 4 on a square of side 6, quarter turns.

    Each disk has a centre (fixed: it only spins in place) and four petals;
    neighbours share a petal, so 8 own petals and 4 shared ones make the 12
    moving pieces. Own petals and centre in the disk's colour, shared petals white.
    """
    design = lattice_disks([(0, 0), (6, 0), (0, 6), (6, 6)], 4, radius=4)
    colour = {"A": "red", "B": "blue", "C": "yellow", "D": "green"}
    for region in pieces(design):
        disks = sorted(region.inside & set(colour))
        design.colours[region.id] = colour[disks[0]] if len(disks) == 1 else "white"
    design.palette.update(PALETTE)
    return "Four disks", design


def gears(title: str, a: tuple[tuple[int, int], float], b: tuple[tuple[int, int], float]) -> tuple[str, Design]:
    """Two disks four apart, each ((steps, turns), radius), where every turn cuts what it crosses.

    Only the rims are drawn (the lens both disks share yellow, the rest of
    each disk red or blue); the jumbling closure makes the pieces.
    """
    disks = [DesignCircle(cid, x, 0, r, TURN, steps, turns=None if turns == 1 else turns)
             for cid, x, ((steps, turns), r) in (("A", 0, a), ("B", 4, b))]
    design = Design(disks, grid=None, jumble=CUT_ALL)
    _colour_by_disks(design, {"A": "red", "B": "blue"})
    return title, design


def four_disks_45() -> tuple[str, Design]:
    """The four-disks puzzle with disk A turning by 45°: its drawn pieces fused, blocked while they straddle."""
    _, design = four_disks()
    design.circles = [replace(c, steps=8) if c.id == "A" else c for c in design.circles]
    design.jumble = BLOCK
    return "Four disks, one at 45°", design


def _colour_by_disks(design: Design, own: dict[str, str]) -> None:
    """Regions in one disk get its colour, shared regions yellow (white where all three meet)."""
    for region in pieces(design):
        disks = sorted(region.inside & set(own))
        design.colours[region.id] = own[disks[0]] if len(disks) == 1 else ("yellow" if len(disks) == 2 else "white")
    design.palette.update(PALETTE)


def write_presets(folder: Path) -> list[Path]:
    """Save every preset as ``<name>.json`` in ``folder`` (how ``puzzles/`` is made)."""
    from hlavolamy.core.fileformat import save_puzzle

    out = []
    for name, description in PRESETS.items():
        title, design = preset(name)
        path = folder / f"{name}.json"
        save_puzzle(path, design.puzzle(name=title, description=description))
        out.append(path)
    return out

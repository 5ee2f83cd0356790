"""Square-1 (Cube21): cells, moves, fused corners and turned parts, without any drawing.

Angles are measured in degrees clockwise as seen from above, from the cut
line (``θ``); the physical angle from the back face is ``θ + 15`` because the
Square-1's cut runs 15° off the face centres.

Cells (one per 30° wedge, so a corner is two fused cells):

* ``0..11``  top wedges, wedge ``k`` spans ``θ ∈ [30k, 30k + 30)``;
* ``12..23`` bottom wedges, ``12 + k`` directly below top wedge ``k``;
* ``24, 25`` the middle layer's right half (``θ ∈ [0, 90)`` and ``[90, 180)``);
  ``26, 27`` its left half. Each half is one piece, so each pair is fused.

The right half of the puzzle is ``θ ∈ [0, 180)``: top wedges ``0..5``,
bottom wedges ``12..17`` and the middle cells ``24, 25``.

Moves (names must be letters, digits and ``_``):

* ``U``: the top layer 30° clockwise seen from above (wedge ``k`` -> ``k + 1``);
* ``D``: the bottom layer 30° clockwise seen from below, i.e. anticlockwise
  seen from above (wedge ``12 + k`` -> ``12 + k - 1``);
* ``T``: the slash ``/``, the right half turned 180° about the horizontal axis
  perpendicular to the cut: top wedge ``k`` <-> bottom wedge ``12 + 5 - k``
  and the two right middle cells swap. It is legal only when no corner
  straddles the cut on either layer.

The common notation ``(x, y) /`` is ``U^x D^y T`` here (``(1, -1) /`` is
``U D' T``, legal from the solved position; ``(-1, 1) /`` is blocked).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

WEDGES = 12
TOP = tuple(range(0, 12))
BOTTOM = tuple(range(12, 24))
MIDDLE_RIGHT = (24, 25)
MIDDLE_LEFT = (26, 27)
RIGHT_TOP = tuple(range(0, 6))
RIGHT_BOTTOM = tuple(range(12, 18))

CORNER_STARTS = (0, 3, 6, 9)
"""Solved layout of each layer from the cut: corner, edge, corner, edge, ... (corners on wedges k, k + 1)."""

SIDES = ("B", "R", "F", "L")
"""Side faces by physical angle from the back: B [-45, 45), R [45, 135), F [135, 225), L [225, 315)."""

PALETTE = {
    "U": "#ffffff",
    "D": "#ffd500",
    "F": "#009b48",
    "R": "#b71234",
    "B": "#0046ad",
    "L": "#ff5800",
}


def side_at(theta: float) -> str:
    """The side face a wedge centred at cut angle ``theta`` faces when solved."""
    physical = (theta + 15 + 45) % 360
    return SIDES[int(physical // 90)]


def check_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The geometry data is just whether the middle layer is modelled; ValueError names a bad key."""
    unknown = set(data) - {"middle"}
    if unknown:
        raise ValueError(f"square1 data: unknown key {sorted(unknown)[0]!r}; the only key is 'middle'")
    middle = data.get("middle", True)
    if not isinstance(middle, bool):
        raise ValueError(f"square1 data: 'middle' must be true or false, not {middle!r}")
    return {"middle": middle}


def n_cells(middle: bool) -> int:
    return 28 if middle else 24


def _layer_pieces(layer: str) -> list[str]:
    """Piece names of the 12 wedges of one layer (``UBR`` twice for a corner's two wedges)."""
    names = []
    for k in range(WEDGES):
        start = k - 1 if (k - 1) in CORNER_STARTS else k
        if start in CORNER_STARTS:
            a, b = side_at(30 * start + 15), side_at(30 * start + 45)
            names.append(layer + "".join(sorted({a, b}, key="BFRL".index)))
        else:
            names.append(layer + side_at(30 * k + 15))
    return names


def piece_names(middle: bool) -> list[str]:
    """The colour label of every cell: the name of the piece it belongs to (``UBR``, ``DF``, ``M.R``)."""
    names = _layer_pieces("U") + _layer_pieces("D")
    if middle:
        names += ["M." + side_at(45), "M." + side_at(135), "M." + side_at(225), "M." + side_at(315)]
    return names


def cell_faces(middle: bool) -> list[tuple[str, str]]:
    """Per cell its two sticker colours: (top or bottom face, side face); the middle shows its side twice."""
    out = [("U", side_at(30 * k + 15)) for k in range(WEDGES)]
    out += [("D", side_at(30 * k + 15)) for k in range(WEDGES)]
    if middle:
        out += [(side_at(t), side_at(t)) for t in (45, 135, 225, 315)]
    return out


def palette(middle: bool) -> dict[str, str]:
    """A fallback colour per piece label: its top or bottom face (the middle: its side)."""
    out = {}
    for name in piece_names(middle):
        out[name] = PALETTE[name[0]] if name[0] in "UD" else PALETTE[name[-1]]
    return out


def blockings(middle: bool) -> list[tuple[int, ...]]:
    """Each corner's two wedges; each middle half's two cells."""
    fused = [(layer + k, layer + k + 1) for layer in (0, 12) for k in CORNER_STARTS]
    if middle:
        fused += [MIDDLE_RIGHT, MIDDLE_LEFT]
    return fused


def moves(middle: bool) -> dict[str, np.ndarray]:
    """``U``, ``D`` and ``T`` as permutations (``m[destination] = source``)."""
    n = n_cells(middle)
    u, d, t = (np.arange(n) for _ in range(3))
    for k in range(WEDGES):
        u[k] = (k - 1) % WEDGES
        d[12 + k] = 12 + (k + 1) % WEDGES
    for k in range(6):
        t[k], t[12 + 5 - k] = 12 + 5 - k, k
    if middle:
        t[24], t[25] = 25, 24
    return {"U": u, "D": d, "T": t}


def turned_parts(middle: bool) -> dict[str, tuple[int, ...]]:
    """The cells each move turns: a whole layer, or the whole right half for the slash."""
    slash = RIGHT_TOP + RIGHT_BOTTOM + (MIDDLE_RIGHT if middle else ())
    return {"U": TOP, "D": BOTTOM, "T": slash}


def cell_points(middle: bool) -> list[dict[str, Any]]:
    """Drawing hints for hosts without this plugin: a top view, top layer left, bottom right."""
    out = []
    for layer, dx in ((0, 0.0), (12, 2.4)):
        for k in range(WEDGES):
            phi = np.radians(30 * k + 15 + 15)
            out.append({"x": round(dx + 0.8 * np.sin(phi), 4), "y": round(-0.8 * np.cos(phi), 4)})
    if middle:
        out += [{"x": 1.2 + x, "y": 1.3} for x in (0.3, 0.1, -0.1, -0.3)]
    return out

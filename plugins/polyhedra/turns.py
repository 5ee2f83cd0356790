"""Grips and their turns: which layers of which axis turn, and the sticker permutation of each.

An axis line (through a face centre, a corner or an edge midpoint) is cut by
the planes perpendicular to it into layers. Each layer is a grip, except the
one that holds the solid's centre: it never turns, so a 3x3x3's centres and a
megaminx's stay put, as on the real puzzles. When a plane passes through the
centre, the layer that stays is the one holding the *anchor*, a point just off
the centre towards the first corner (a skewb then keeps that corner still) or,
on a tetrahedron's corner axes, the layer on the corner's side (a master
pyraminx keeps its face centres still). Either way the layers that turn never
make up a whole-puzzle rotation about one axis.

The permutation of a turn is found by turning every sticker of the layer and
matching its corners to a sticker's corners; a turned sticker that lands on no
sticker means the cuts jam that turn, and the description is refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hlavolamy.core import perm as P

from .cutting import Cutting, axes
from .description import DescriptionError
from .solids import Solid

MATCH_TOLERANCE = 1e-6
NUDGE = np.array([0.0123, -0.0311, 0.0157])
"""Moves the anchor off every symmetry plane through the first corner."""


def anchor(shape: Solid) -> np.ndarray:
    """A point just off the centre, towards the first corner and in no symmetry plane."""
    direction = shape.vertices[0] / np.linalg.norm(shape.vertices[0]) + NUDGE
    return 1e-4 * direction / np.linalg.norm(direction)


class JamError(DescriptionError):
    """A turn that does not carry stickers onto stickers (the cuts block it)."""


@dataclass(frozen=True)
class Grip:
    """Layer ``layer`` (1 = outermost) counted from the axis end ``end`` (a unit vector), turning ``order`` ways.

    ``name`` is the end's name with the layer number in front (``U``, ``2U``);
    the base turn is clockwise seen from that end.
    """

    name: str
    kind: str
    axis: int
    """Index of the end's face, corner or edge in the solid."""
    end: np.ndarray
    other_end: np.ndarray | None
    layer: int
    order: int
    cells: np.ndarray
    perm: np.ndarray


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix by ``angle`` (radians, counter-clockwise seen from the tip of ``axis``)."""
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def axis_names(shape: Solid, kind: str) -> tuple[str, ...]:
    return {"f": shape.face_names, "v": shape.vertex_names, "e": shape.edge_names}[kind]


def axis_order(shape: Solid, kind: str, index: int) -> int:
    """How many ways a layer about this axis turns: a face's corners, a corner's faces, or 2 for an edge."""
    if kind == "f":
        return len(shape.faces[index])
    if kind == "v":
        return sum(1 for face in shape.faces if index in face)
    return 2


@dataclass(frozen=True)
class Line:
    """An axis line of the cut solid and its layers, listed from the ``-direction`` side to the ``direction`` end.

    ``opposite`` is the index of the axis at the other end when it is of the same
    kind (a cube's face D opposite U), else None (a tetrahedron's corner faces a face).
    """

    kind: str
    index: int
    opposite: int | None
    direction: np.ndarray
    layers: tuple[np.ndarray, ...]
    bounds: tuple[float, ...]
    still: int
    """The layer that never turns (it holds the centre, or the anchor)."""
    order: int


def lines(cutting: Cutting) -> list[Line]:
    """Every axis line of the kinds the description cuts across, with at least one cut plane on it."""
    shape = cutting.solid
    out: list[Line] = []
    done: list[np.ndarray] = []
    for kind in dict.fromkeys(c.kind for c in cutting.description.cuts):
        directions = axes(shape, kind)
        for i, a in enumerate(directions):
            if any(abs(abs(float(a @ d)) - 1) < 1e-9 for d in done):
                continue
            done.append(a)
            opposite = [j for j, b in enumerate(directions) if float(a @ b) < -1 + 1e-9]
            line = _line(cutting, kind, i, opposite[0] if opposite else None)
            if line is not None:
                out.append(line)
    return out


def _line(cutting: Cutting, kind: str, i: int, j: int | None) -> Line | None:
    shape = cutting.solid
    a = axes(shape, kind)[i]
    offsets = sorted({round(float(p.offset * (p.normal @ a)), 9) for p in cutting.planes
                      if abs(abs(float(p.normal @ a)) - 1) < 1e-9})
    if not offsets:
        return None
    layer_of = np.searchsorted(np.array(offsets), cutting.centres @ a)
    if j is None and 0.0 in offsets:  # a tetrahedron's corner axis cut through the centre
        still = offsets.index(0.0) + 1
    else:
        still = int(np.searchsorted(np.array(offsets), float(anchor(shape) @ a)))
    bounds = (-float(np.max(shape.vertices @ -a)), *offsets, float(np.max(shape.vertices @ a)))
    layers = tuple(np.flatnonzero(layer_of == k) for k in range(len(offsets) + 1))
    return Line(kind, i, j, a, layers, bounds, still, axis_order(shape, kind, i))


def grips(cutting: Cutting) -> list[Grip]:
    """Every grip of the cut solid, each named from its nearer end: outer layers first, ends in the solid's order."""
    out: list[Grip] = []
    for line in lines(cutting):
        out += _line_grips(cutting, line)
    kinds = "fve"
    return sorted(out, key=lambda g: (g.layer, kinds.index(g.kind), g.axis))


def _line_grips(cutting: Cutting, line: Line) -> list[Grip]:
    """The grips of one axis line: its layers but the still one."""
    shape = cutting.solid
    directions = axes(shape, line.kind)
    names = axis_names(shape, line.kind)
    i, j, a = line.index, line.opposite, line.direction
    out = []
    for layer, cells in enumerate(line.layers):
        if layer == line.still or not len(cells):
            continue
        middle = (line.bounds[layer] + line.bounds[layer + 1]) / 2
        from_far = j is not None and middle < -1e-9
        end, other = (directions[j], a) if from_far else (a, directions[j] if j is not None else None)
        number = layer + 1 if from_far else len(line.layers) - layer
        name = f"{number if number > 1 else ''}{names[j if from_far else i]}"
        perm = turn_perm(cutting, cells, end, line.order, name)
        if P.is_identity(perm):
            continue  # only stickers on the axis: turning them changes nothing
        out.append(Grip(name, line.kind, j if from_far else i, end, other, number, line.order, cells, perm))
    return out


def turn_perm(cutting: Cutting, cells: np.ndarray, end: np.ndarray, order: int, name: str) -> np.ndarray:
    """The permutation of turning ``cells`` clockwise seen from ``end`` by one step (``perm[dst] = src``).

    Each power 1..order of the turn is matched on its own and must equal the
    power of the first (and the full circle the identity), so float error can
    never slip into a permutation unnoticed.
    """
    base = _matched_turn(cutting, cells, end, -2 * math.pi / order, name)
    step = base
    for k in range(2, order + 1):
        direct = _matched_turn(cutting, cells, end, -2 * math.pi * k / order, name)
        step = P.compose(step, base)
        if not np.array_equal(direct, step):
            raise JamError(f"move {name}: turning {k} steps does not equal {k} single steps")
    if not P.is_identity(step):
        raise JamError(f"move {name}: the full circle is not the identity")
    found = P.order(base)
    if found not in (1, order):
        raise JamError(f"move {name} has order {found}, expected {order}")
    return base


def _matched_turn(cutting: Cutting, cells: np.ndarray, end: np.ndarray, angle: float, name: str) -> np.ndarray:
    """Turn the stickers ``cells`` by ``angle`` and find each one's landing sticker (corners must coincide)."""
    turn = rotation(end, angle)
    centres = cutting.centres[cells] @ turn.T
    distance = np.linalg.norm(centres[:, None, :] - cutting.centres[None, cells, :], axis=2)
    target = cells[np.argmin(distance, axis=1)]
    moved = cutting.corners[cells] @ turn.T  # (k, m, 3), short polygons padded with their last corner
    landed = cutting.corners[target]
    gaps = np.linalg.norm(moved[:, :, None, :] - landed[:, None, :, :], axis=3)
    fits = ((cutting.corner_counts[cells] == cutting.corner_counts[target])
            & (gaps.min(axis=2) < MATCH_TOLERANCE).all(axis=1) & (gaps.min(axis=1) < MATCH_TOLERANCE).all(axis=1))
    if not fits.all():
        src = int(cells[np.argmin(fits)])
        raise JamError(f"move {name} jams: sticker {src} turned by "
                       f"{math.degrees(-angle):.0f} degrees lands on no sticker (the cuts block this turn)")
    if len(set(target.tolist())) != len(cells):
        raise JamError(f"move {name} jams: two stickers land on one place")
    perm = np.arange(len(cutting.stickers))
    perm[target] = cells
    return perm

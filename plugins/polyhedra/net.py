"""Unfolding a solid into a flat net, and the 2D polygons of its stickers in it (no Qt).

Faces are unfolded one by one across a shared edge, breadth first from the
first face; a face that would overlap one already laid is hinged to another
of its placed neighbours instead, or starts a new piece of the net beside the
others. Every face keeps the orientation it has seen from outside.
"""

from __future__ import annotations

import math

import numpy as np

from .cutting import Cutting
from .solids import Solid

GAP = 0.15
"""Space between separate pieces of a net, in units of the faces' inradius."""


def face_frame(shape: Solid, face: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre and two in-plane unit vectors ``u, w`` (counter-clockwise seen from outside), ``u`` along an edge."""
    corners = shape.face_polygon(face)
    centre = corners.mean(axis=0)
    u = corners[1] - corners[0]
    u /= np.linalg.norm(u)
    return centre, u, np.cross(shape.normals[face], u)


def flatten(shape: Solid, face: int, points: np.ndarray) -> np.ndarray:
    """Points of a face in its own plane coordinates."""
    centre, u, w = face_frame(shape, face)
    rel = points - centre
    return np.stack([rel @ u, rel @ w], axis=-1)


def _hinge(a_from: np.ndarray, b_from: np.ndarray, a_to: np.ndarray, b_to: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rotation and shift taking segment (a_from, b_from) onto (a_to, b_to)."""
    angle = math.atan2(*(b_to - a_to)[::-1]) - math.atan2(*(b_from - a_from)[::-1])
    c, s = math.cos(angle), math.sin(angle)
    turn = np.array([[c, -s], [s, c]])
    return turn, a_to - turn @ a_from


def _overlap(p: np.ndarray, q: np.ndarray) -> bool:
    """Whether two convex polygons overlap by more than a touch (separating axis test)."""
    for poly in (p, q):
        edges = np.roll(poly, -1, axis=0) - poly
        for nx, ny in np.stack([edges[:, 1], -edges[:, 0]], axis=1):
            axis = np.array([nx, ny]) / math.hypot(nx, ny)
            pp, qq = p @ axis, q @ axis
            if pp.max() <= qq.min() + 1e-6 or qq.max() <= pp.min() + 1e-6:
                return False
    return True


def face_layout(shape: Solid) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per face, the rotation and shift from its plane coordinates to the net (y up)."""
    n = len(shape.faces)
    local = [flatten(shape, f, shape.face_polygon(f)) for f in range(n)]
    placed: dict[int, tuple[np.ndarray, np.ndarray]] = {0: (np.eye(2), np.zeros(2))}
    outline: dict[int, np.ndarray] = {0: local[0]}
    order = [0]
    while len(placed) < n:
        grown = False
        for f in range(n):
            if f in placed:
                continue
            for p in order:
                shared = set(shape.faces[f]) & set(shape.faces[p])
                if len(shared) != 2:
                    continue
                a, b = sorted(shared)
                ia, ib = shape.faces[f].index(a), shape.faces[f].index(b)
                ja, jb = shape.faces[p].index(a), shape.faces[p].index(b)
                turn_p, shift_p = placed[p]
                turn, shift = _hinge(local[f][ia], local[f][ib], turn_p @ local[p][ja] + shift_p,
                                     turn_p @ local[p][jb] + shift_p)
                polygon = local[f] @ turn.T + shift
                if not any(_overlap(polygon, other) for other in outline.values()):
                    placed[f], outline[f] = (turn, shift), polygon
                    order.append(f)
                    grown = True
                    break
        if not grown:  # nothing fits: start a new piece of the net to the right
            f = min(set(range(n)) - set(placed))
            right = max(float(poly[:, 0].max()) for poly in outline.values())
            shift = np.array([right + GAP - float(local[f][:, 0].min()), 0.0])
            placed[f], outline[f] = (np.eye(2), shift), local[f] + shift
            order.append(f)
    return [placed[f] for f in range(n)]


def sticker_polygons(cutting: Cutting) -> list[np.ndarray]:
    """Every sticker's corners in the net (y up), in cell order, the net turned to lie wide and flat."""
    shape = cutting.solid
    layout = face_layout(shape)
    out = []
    for sticker in cutting.stickers:
        turn, shift = layout[sticker.face]
        out.append(flatten(shape, sticker.face, sticker.corners) @ turn.T + shift)
    turn = _flattest_turn(np.concatenate(out))
    return [polygon @ turn.T for polygon in out]


def _flattest_turn(points: np.ndarray) -> np.ndarray:
    """The turn (in steps of 15 degrees) giving the smallest bounding box, wider than tall on ties."""
    best: tuple[float, float, np.ndarray] | None = None
    for step in range(12):
        angle = math.radians(15 * step)
        c, s = math.cos(angle), math.sin(angle)
        turn = np.array([[c, -s], [s, c]])
        turned = points @ turn.T
        width, height = np.ptp(turned[:, 0]), np.ptp(turned[:, 1])
        key = (round(width * height, 6), -round(width - height, 6))
        if best is None or key < best[:2]:
            best = (*key, turn)
    return best[2]

"""Cutting a solid: the planes a description makes, the stickers they cut the faces into, and the pieces.

A sticker is a convex polygon: a face clipped by every cut plane. A piece is
a cell of the plane arrangement: stickers on the same side of every plane
belong to one piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .description import CUT_KINDS, Description, DescriptionError
from .solids import TOLERANCE, Solid, solid

MIN_AREA = 1e-9
"""Polygons of smaller area are slivers of a cut through a corner or along an edge, not stickers."""


@dataclass(frozen=True)
class Plane:
    """The points ``x`` with ``normal . x = offset`` (``normal`` a unit vector)."""

    normal: np.ndarray
    offset: float


def axes(shape: Solid, kind: str) -> np.ndarray:
    """``(k, 3)`` unit directions of the solid's face, corner or edge axes."""
    if kind == "f":
        points = shape.normals
    elif kind == "v":
        points = shape.vertices
    else:
        points = np.array([(shape.vertices[a] + shape.vertices[b]) / 2 for a, b in shape.edges])
    return points / np.linalg.norm(points, axis=1)[:, None]


def cut_planes(description: Description, shape: Solid) -> list[Plane]:
    """Every plane of every cut, each once (``a.x = d`` and ``-a.x = -d`` are one plane)."""
    planes: list[Plane] = []
    for k, cut in enumerate(description.cuts):
        directions = axes(shape, cut.kind)
        reach = float(np.max(shape.vertices @ directions[0]))
        if not -reach + TOLERANCE < cut.depth < reach - TOLERANCE:
            raise DescriptionError(f"polyhedra description {description.text()!r}: cut {k + 1} "
                                   f"({CUT_KINDS[cut.kind]} {cut.depth:g}) misses the {shape.name}; "
                                   f"its depth must lie between {-reach:.6g} and {reach:.6g}")
        for a in directions:
            if not any(_same_plane(p, a, cut.depth) for p in planes):
                planes.append(Plane(a, cut.depth))
    return planes


def _same_plane(plane: Plane, normal: np.ndarray, offset: float) -> bool:
    for sign in (1, -1):
        if np.allclose(plane.normal, sign * normal, atol=TOLERANCE) and abs(plane.offset - sign * offset) < TOLERANCE:
            return True
    return False


def split(polygon: np.ndarray, plane: Plane) -> list[np.ndarray]:
    """The parts of a convex polygon on either side of the plane (one part when it does not cross)."""
    side = polygon @ plane.normal - plane.offset
    if (side > -TOLERANCE).all() or (side < TOLERANCE).all():
        return [polygon]
    below: list[np.ndarray] = []
    above: list[np.ndarray] = []
    n = len(polygon)
    for i in range(n):
        p, q, sp, sq = polygon[i], polygon[(i + 1) % n], side[i], side[(i + 1) % n]
        if sp <= TOLERANCE:
            below.append(p)
        if sp >= -TOLERANCE:
            above.append(p)
        if (sp < -TOLERANCE and sq > TOLERANCE) or (sp > TOLERANCE and sq < -TOLERANCE):
            crossing = p + (q - p) * (sp / (sp - sq))
            below.append(crossing)
            above.append(crossing)
    return [np.array(part) for part in (below, above) if len(part) >= 3 and area(np.array(part)) > MIN_AREA]


def area(polygon: np.ndarray) -> float:
    """Area of a planar polygon in space."""
    a, b = polygon, np.roll(polygon, -1, axis=0)
    total = np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1], a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                      a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]]).sum(axis=1)
    return float(np.linalg.norm(total)) / 2


@dataclass(frozen=True)
class Sticker:
    """One coloured polygon on face ``face`` (corners counter-clockwise seen from outside)."""

    face: int
    corners: np.ndarray

    @cached_property
    def centre(self) -> np.ndarray:
        """The centroid of the polygon (inside it: the polygon is convex)."""
        return self.corners.mean(axis=0)


class Cutting:
    """A described solid cut into stickers and pieces."""

    def __init__(self, description: Description):
        self.description = description
        self.solid = solid(description.solid_name)
        self.planes = cut_planes(description, self.solid)
        self.stickers = self._cut_faces()
        self.centres = np.array([s.centre for s in self.stickers])

    def _cut_faces(self) -> list[Sticker]:
        """Every face clipped by every plane; stickers of a face ordered from its centre outwards."""
        out: list[Sticker] = []
        for f in range(len(self.solid.faces)):
            parts = [self.solid.face_polygon(f)]
            for plane in self.planes:
                parts = [piece for part in parts for piece in split(part, plane)]
            out += [Sticker(f, part) for part in _centre_outwards(parts, self.solid, f)]
        return out

    @cached_property
    def corners(self) -> np.ndarray:
        """``(stickers, m, 3)`` corners, shorter polygons padded by repeating their last corner."""
        m = max(len(s.corners) for s in self.stickers)
        out = np.empty((len(self.stickers), m, 3))
        for i, s in enumerate(self.stickers):
            out[i, :len(s.corners)] = s.corners
            out[i, len(s.corners):] = s.corners[-1]
        return out

    @cached_property
    def corner_counts(self) -> np.ndarray:
        return np.array([len(s.corners) for s in self.stickers])

    @cached_property
    def sides(self) -> np.ndarray:
        """``(stickers, planes)`` side of every sticker's centre: -1 or +1 (never on a plane)."""
        if not self.planes:
            return np.zeros((len(self.stickers), 0), dtype=int)
        normals = np.array([p.normal for p in self.planes])
        offsets = np.array([p.offset for p in self.planes])
        return np.sign(self.centres @ normals.T - offsets).astype(int)

    @cached_property
    def pieces(self) -> list[list[int]]:
        """Stickers grouped by the cell of the plane arrangement they lie in (each sticker in exactly one)."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for i, key in enumerate(map(tuple, self.sides.tolist())):
            groups.setdefault(key, []).append(i)
        return list(groups.values())


def _centre_outwards(parts: list[np.ndarray], shape: Solid, face: int) -> list[np.ndarray]:
    """A face's stickers sorted by distance from the face centre, then by angle (a stable cell order)."""
    centre = shape.face_polygon(face).mean(axis=0)
    u = shape.vertices[shape.faces[face][0]] - centre
    u /= np.linalg.norm(u)
    w = np.cross(shape.normals[face], u)

    def key(part: np.ndarray) -> tuple[float, float]:
        rel = part.mean(axis=0) - centre
        angle = float(np.arctan2(rel @ w, rel @ u)) % (2 * np.pi)
        return round(float(np.linalg.norm(rel)), 6), round(angle, 6) % round(2 * np.pi, 6)

    return sorted(parts, key=key)

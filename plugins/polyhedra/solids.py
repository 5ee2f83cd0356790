"""The five Platonic solids: face planes, vertices, edges and the names of their faces.

Every solid is scaled so that its faces lie at distance 1 from the centre
(the convention of PuzzleGeometry's descriptions, so ``c f 0.333333333`` cuts
a cube into thirds). Each solid is held in one fixed orientation, ``y`` up and
``z`` towards the viewer, so the face names mean what they say (``U`` is on
top, ``F`` faces you).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

TOLERANCE = 1e-7
"""Two points (or values) closer than this are the same; the solids have unit inradius."""

PHI = (1 + math.sqrt(5)) / 2

SHAPES = {"c": "cube", "t": "tetrahedron", "d": "dodecahedron", "o": "octahedron", "i": "icosahedron"}
"""The one-letter shape codes of the description language and the solid they name."""


@dataclass(frozen=True)
class Solid:
    """A convex solid: ``normals[f]`` is face f's outward unit normal (the face plane is ``n.x = 1``)."""

    name: str
    face_names: tuple[str, ...]
    normals: np.ndarray
    vertices: np.ndarray
    """``(V, 3)`` corners, ordered from the top down and then by azimuth."""
    faces: tuple[tuple[int, ...], ...]
    """Corner indices of every face, counter-clockwise seen from outside."""
    edges: tuple[tuple[int, int], ...]
    vertex_names: tuple[str, ...]
    edge_names: tuple[str, ...]

    def face_polygon(self, face: int) -> np.ndarray:
        return self.vertices[list(self.faces[face])]


def _ring(y: float, azimuths: list[float]) -> list[tuple[float, float, float]]:
    """Unit vectors at height ``y`` and the given azimuths (degrees from ``+z`` towards ``+x``)."""
    h = math.sqrt(max(0.0, 1 - y * y))
    return [(h * math.sin(math.radians(a)), y, h * math.cos(math.radians(a))) for a in azimuths]


def _azimuth_order(points: np.ndarray) -> np.ndarray:
    """Indices sorting points from the top down, then by azimuth from the front towards the right."""
    azimuth = np.round(np.degrees(np.arctan2(points[:, 0], points[:, 2])) % 360, 4) % 360
    return np.lexsort((azimuth, -np.round(points[:, 1], 6)))


def _icosahedron_normals() -> np.ndarray:
    """Face normals of an icosahedron (the corners of a dodecahedron), turned to stand on a face."""
    raw = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    for a in (-1 / PHI, 1 / PHI):
        for b in (-PHI, PHI):
            raw += [(0, a, b), (a, b, 0), (b, 0, a)]
    normals = np.array(raw, dtype=float)
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    up = normals[np.argmax(normals @ np.array([1.0, 1.0, 1.0]))]  # the (1, 1, 1) face goes on top
    turn = _rotation_onto(up, np.array([0.0, 1.0, 0.0]))
    normals = normals @ turn.T
    return normals[_azimuth_order(normals)]


def _rotation_onto(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rotation taking unit vector ``a`` to unit vector ``b`` about their common normal."""
    v = np.cross(a, b)
    c = float(a @ b)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1 + c)


def _face_table(name: str) -> tuple[tuple[str, ...], np.ndarray]:
    """Face names and outward normals of a solid in its fixed orientation."""
    third = 1 / 3
    fifth = 1 / math.sqrt(5)
    if name == "cube":
        names = ("U", "F", "R", "B", "L", "D")
        vectors = [(0, 1, 0), (0, 0, 1), (1, 0, 0), (0, 0, -1), (-1, 0, 0), (0, -1, 0)]
    elif name == "tetrahedron":  # the pyraminx held with D down and F towards you
        names = ("F", "R", "L", "D")
        vectors = _ring(third, [0, 120, -120]) + [(0, -1, 0)]
    elif name == "octahedron":  # standing on D, U on top
        names = ("U", "F", "R", "L", "B", "DL", "DR", "D")
        vectors = [(0, 1, 0)] + _ring(third, [0, 120, -120]) + _ring(-third, [180, -60, 60]) + [(0, -1, 0)]
    elif name == "dodecahedron":  # the megaminx: U, the ring F R BR BL L, the ring below, D
        names = ("U", "F", "R", "BR", "BL", "L", "FR", "DR", "B", "DL", "FL", "D")
        vectors = ([(0, 1, 0)] + _ring(fifth, [0, 72, 144, -144, -72])
                   + _ring(-fifth, [36, 108, 180, -108, -36]) + [(0, -1, 0)])
    elif name == "icosahedron":
        normals = _icosahedron_normals()
        return tuple(chr(ord("A") + i) for i in range(20)), normals
    else:
        raise ValueError(f"unknown solid {name!r}")
    normals = np.array(vectors, dtype=float)
    return names, normals / np.linalg.norm(normals, axis=1)[:, None]


TETRAHEDRON_VERTICES = {"D": "U", "F": "B", "R": "L", "L": "R"}
"""A pyraminx's corners are named from the face opposite them (the tip above D is U)."""


@cache
def solid(name: str) -> Solid:
    """The Platonic solid ``name`` (``cube``, ``tetrahedron``, ...), inradius 1."""
    face_names, normals = _face_table(name)
    vertices = _corners(normals)
    vertices = vertices[_azimuth_order(vertices)]
    on_face = np.abs(vertices @ normals.T - 1) < 1e-6  # (V, F)
    faces = tuple(_counter_clockwise(vertices, np.flatnonzero(on_face[:, f]), normals[f]) for f in range(len(normals)))
    edges = tuple((a, b) for a, b in combinations(range(len(vertices)), 2) if (on_face[a] & on_face[b]).sum() == 2)
    vertex_faces = [np.flatnonzero(on_face[v]).tolist() for v in range(len(vertices))]
    edge_faces = [np.flatnonzero(on_face[a] & on_face[b]).tolist() for a, b in edges]
    if name == "tetrahedron":
        opposite = [int(np.argmin(normals @ v)) for v in vertices]
        vertex_names = tuple(TETRAHEDRON_VERTICES[face_names[f]] for f in opposite)
    else:
        vertex_names = _joined_names(face_names, vertex_faces, "V")
    return Solid(name, face_names, normals, vertices, faces, edges, vertex_names,
                 _joined_names(face_names, edge_faces, "E"))


def _corners(normals: np.ndarray) -> np.ndarray:
    """Every point where three face planes meet inside all the others (each corner once)."""
    found: list[np.ndarray] = []
    for i, j, k in combinations(range(len(normals)), 3):
        m = normals[[i, j, k]]
        if abs(np.linalg.det(m)) < 1e-9:
            continue
        p = np.linalg.solve(m, np.ones(3))
        if (normals @ p <= 1 + 1e-9).all() and not any(np.linalg.norm(p - q) < 1e-6 for q in found):
            found.append(p)
    return np.array(found)


def _counter_clockwise(vertices: np.ndarray, corner_ids: np.ndarray, normal: np.ndarray) -> tuple[int, ...]:
    """The face's corners in counter-clockwise order seen from outside."""
    centre = vertices[corner_ids].mean(axis=0)
    u = vertices[corner_ids[0]] - centre
    u /= np.linalg.norm(u)
    w = np.cross(normal, u)
    rel = vertices[corner_ids] - centre
    angles = np.arctan2(rel @ w, rel @ u)
    return tuple(int(c) for c in corner_ids[np.argsort(angles)])


def _joined_names(face_names: tuple[str, ...], groups: list[list[int]], prefix: str) -> tuple[str, ...]:
    """Corners and edges named by their faces (``UFR``, ``UF``) when every face name is one letter, else numbered."""
    if all(len(n) == 1 for n in face_names):
        names = tuple("".join(face_names[f] for f in group) for group in groups)
        if len(set(names)) == len(names):
            return names
    return tuple(f"{prefix}{i + 1}" for i in range(len(groups)))

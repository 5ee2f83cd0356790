"""A minimal NxNxN facelet cube for the analysis tests (independent of the cube plugin).

Facelets are (centre, normal) in integer coordinates; a layer move turns the
facelets whose coordinate along the axis lies in the layer by a quarter turn.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.core.puzzle import Puzzle

FACES = {"U": (1, 1), "D": (1, -1), "R": (0, 1), "L": (0, -1), "F": (2, 1), "B": (2, -1)}


def _facelets(n: int) -> np.ndarray:
    coords = np.arange(-(n - 1), n, 2)
    out = []
    for axis, sign in FACES.values():
        for a in coords:
            for b in coords:
                p = [0, 0, 0]
                others = [k for k in range(3) if k != axis]
                p[axis] = sign * n
                p[others[0]], p[others[1]] = a, b
                out.append(p)
    return np.array(out)


def _quarter(points: np.ndarray, axis: int) -> np.ndarray:
    i, j = [k for k in range(3) if k != axis]
    out = points.copy()
    out[:, i], out[:, j] = -points[:, j], points[:, i]
    return out


def cube(n: int, *, faces_only: bool = False) -> Puzzle:
    """NxNxN cube: face turns U D R L F B and (unless ``faces_only``) inner slices ``<axis><layer>``."""
    pts = _facelets(n)
    index = {tuple(p): k for k, p in enumerate(pts)}
    colours = [name for name in FACES for _ in range(n * n)]
    moves: dict[str, list[int]] = {}
    layers = range(-(n - 1), n, 2)
    for axis, axis_name in enumerate("xyz"):
        for k, layer in enumerate(layers):
            face = [f for f, (a, s) in FACES.items() if a == axis and s * (n - 1) == layer]
            if faces_only and not face:
                continue
            # facelets on the layer's sides, and the face's own facelets for an outer layer
            in_layer = (pts[:, axis] == layer) | ((np.abs(pts[:, axis]) == n) & (np.sign(pts[:, axis]) * (n - 1) == layer))
            turned = pts.copy()
            turned[in_layer] = _quarter(pts[in_layer], axis)
            dest = np.array([index[tuple(p)] for p in turned])
            m = np.empty(len(pts), dtype=int)
            m[dest] = np.arange(len(pts))
            moves[face[0] if face else f"{axis_name}{k}"] = m.tolist()
    return Puzzle(colours, moves, name=f"cube{n}")

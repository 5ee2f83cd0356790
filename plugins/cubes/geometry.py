"""NxNxN cubes: facelets, layer turns and their names, without any drawing.

Cell layout (the Santa 2023 layout, so our cubes line up with that benchmark):
the faces come in the order U, F, R, B, L, D, each an N x N grid stored row
by row as it appears in the cross-shaped net (U above F; L, F, R, B round
the belt; D below F). Cell ``face * N*N + row * N + col``.

Cubie coordinates: ``x`` 0 (left) .. N-1 (right), ``y`` 0 (bottom) .. N-1
(top), ``z`` 0 (back) .. N-1 (front). A layer turn rotates the cubies of one
slab and the normals of their facelets; all of it is done on numpy arrays,
so a 33x33x33 cube builds in milliseconds.

Move names (the generators), in common cube notation:

* ``U D L R F B`` turn the outer faces clockwise as seen from that face;
* ``2R, 3R, ...`` turn the k-th layer counted from R, in the sense of R; the
  layers nearer to L are ``2L, 3L, ...`` in the sense of L, and so on for every
  axis, so each layer of an axis is exactly one generator;
* on odd N the middle layer of each axis is a generator only with
  ``centre_slices``: ``M`` (sense of L), ``E`` (sense of D), ``S`` (sense of F).

Aliases (accepted in notation, never used by solvers): the wide turns ``Rw``
(= ``R 2R``) and ``kRw`` (the k outer layers from R) for 3 <= k <= N-1, for all
six faces, wherever every layer they turn is a generator; and the whole-cube
rotations ``x`` (as R), ``y`` (as U), ``z`` (as F) where every layer is a
generator (always on even N, only with ``centre_slices`` on odd N).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from hlavolamy.core import perm as P

FACES = "UFRBLD"
"""Face order of the cell layout."""

FACE_NORMALS = np.array([(0, 1, 0), (0, 0, 1), (1, 0, 0), (0, 0, -1), (-1, 0, 0), (0, -1, 0)])

PALETTE = {
    "U": "#ffffff",
    "F": "#009b48",
    "R": "#b71234",
    "B": "#0046ad",
    "L": "#ff5800",
    "D": "#ffd500",
}
"""Solved colours: white up, green front, red right, blue back, orange left, yellow down."""

Coords = tuple[np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Axis:
    """One of the three turning axes, named by the face whose layers are counted first.

    ``near`` is the face of depth 0 (R, D, F: the Santa ``r``, ``d``, ``f`` moves),
    ``far`` the opposite face, ``middle`` the odd-N centre slice (it turns in the
    sense of ``middle_follows``), ``rotation`` the whole-cube rotation in the
    sense of ``rotation_follows``.
    """

    near: str
    far: str
    middle: str
    middle_follows: str
    rotation: str
    rotation_follows: str


AXES = (
    Axis(near="R", far="L", middle="M", middle_follows="L", rotation="x", rotation_follows="R"),
    Axis(near="D", far="U", middle="E", middle_follows="D", rotation="y", rotation_follows="U"),
    Axis(near="F", far="B", middle="S", middle_follows="F", rotation="z", rotation_follows="F"),
)


def facelet_coords(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(face, x, y, z)`` of every cell, each an array of length ``6 n^2``."""
    m = n - 1
    face = np.repeat(np.arange(6), n * n)
    row = np.tile(np.repeat(np.arange(n), n), 6)
    col = np.tile(np.arange(n), 6 * n)
    x = np.select([face == 0, face == 1, face == 2, face == 3, face == 4], [col, col, m, m - col, 0], col)
    y = np.select([face == 0, face == 5], [m, 0], m - row)
    z = np.select([face == 0, face == 1, face == 2, face == 3, face == 4], [row, m, m - col, 0, col], m - row)
    return face, x, y, z


def cell_index(n: int, face: np.ndarray, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The inverse of :func:`facelet_coords`: cell numbers of facelets given by face and cubie."""
    m = n - 1
    row = np.select([face == 0, face == 5], [z, m - z], m - y)
    col = np.select([face == 2, face == 3, face == 4], [m - z, m - x, z], x)
    return face * n * n + row * n + col


def _face_of(normal: np.ndarray) -> np.ndarray:
    """Face numbers of an array of unit normals (shape ``(k, 3)``)."""
    match = (normal[:, None, :] == FACE_NORMALS[None, :, :]).all(axis=2)
    return match.argmax(axis=1)


# A quarter turn of a slab, clockwise seen from the near face: new cubie coordinates and normal.
_ROTATIONS: dict[str, Callable[[int, Coords, np.ndarray], tuple[Coords, np.ndarray]]] = {
    "R": lambda m, c, v: ((c[0], c[2], m - c[1]), np.stack([v[:, 0], v[:, 2], -v[:, 1]], axis=1)),
    "D": lambda m, c, v: ((c[2], c[1], m - c[0]), np.stack([v[:, 2], v[:, 1], -v[:, 0]], axis=1)),
    "F": lambda m, c, v: ((c[1], m - c[0], c[2]), np.stack([v[:, 1], -v[:, 0], v[:, 2]], axis=1)),
}


def _depth(axis: Axis, m: int, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """Depth of each cubie from the axis's near face (0 = the near face's layer)."""
    return {"R": m - x, "D": y, "F": m - z}[axis.near]


def layer_turns(n: int) -> dict[tuple[str, int], np.ndarray]:
    """Every layer turn ``(near face, depth) -> permutation``, clockwise seen from the near face.

    These are the Santa moves: ``("F", i)`` is ``f_i``, ``("R", i)`` is ``r_i``,
    ``("D", i)`` is ``d_i``. Convention: ``new[dst] = old[perm[dst]]``.
    """
    m = n - 1
    face, x, y, z = facelet_coords(n)
    normals = FACE_NORMALS[face]
    out: dict[tuple[str, int], np.ndarray] = {}
    for axis in AXES:
        depth = _depth(axis, m, x, y, z)
        for i in range(n):
            src = np.flatnonzero(depth == i)
            (rx, ry, rz), rv = _ROTATIONS[axis.near](m, (x[src], y[src], z[src]), normals[src])
            dst = cell_index(n, _face_of(rv), rx, ry, rz)
            perm = np.arange(6 * n * n)
            perm[dst] = src
            out[(axis.near, i)] = perm
    return out


@dataclass(frozen=True)
class Layer:
    """A named layer turn: the generator ``name`` is layer ``depth`` of ``axis``,
    turned clockwise seen from the near face when ``inverted`` is False."""

    name: str
    axis: Axis
    depth: int
    inverted: bool


def layer_names(n: int, centre_slices: bool) -> list[Layer]:
    """The generators in order: faces ``U D L R F B``, then inner layers by depth, then ``M E S``."""
    faces = {"U": (AXES[1], n - 1, True), "D": (AXES[1], 0, False), "L": (AXES[0], n - 1, True),
             "R": (AXES[0], 0, False), "F": (AXES[2], 0, False), "B": (AXES[2], n - 1, True)}
    out = [Layer(f, *faces[f]) for f in "UDLRFB"]
    for k in range(2, n // 2 + 1):  # the middle layer of odd N is M, E or S below
        for f in "UDLRFB":
            axis, depth, inverted = faces[f]
            out.append(Layer(f"{k}{f}", axis, depth + (1 - k if inverted else k - 1), inverted))
    if n % 2 and centre_slices:
        for axis in AXES:
            out.append(Layer(axis.middle, axis, n // 2, axis.middle_follows == axis.far))
    return out


def _turn_text(layer: Layer, inverted: bool) -> str:
    return layer.name + ("'" if inverted else "")


def aliases(n: int, layers: list[Layer]) -> dict[str, str]:
    """Wide turns and whole-cube rotations, as sequences of the generators ``layers``."""
    by_slot = {(layer.axis.near, layer.depth): layer for layer in layers}
    faces = {layer.name: layer for layer in layers if layer.name in FACES}
    out: dict[str, str] = {}
    for f in "UDLRFB":
        face = faces[f]
        step = -1 if face.inverted else 1
        for k in range(2, n):
            slots = [(face.axis.near, face.depth + step * j) for j in range(k)]
            if all(s in by_slot for s in slots):
                name = f"{f}w" if k == 2 else f"{k}{f}w"
                out[name] = " ".join(_turn_text(by_slot[s], by_slot[s].inverted != face.inverted) for s in slots)
    for axis in AXES:
        follow = faces[axis.rotation_follows].inverted
        slots = [(axis.near, d) for d in (range(n - 1, -1, -1) if follow else range(n))]
        if all(s in by_slot for s in slots):
            out[axis.rotation] = " ".join(_turn_text(by_slot[s], by_slot[s].inverted != follow) for s in slots)
    return out


def cube_moves(n: int, centre_slices: bool) -> dict[str, np.ndarray]:
    """The generators of the NxNxN cube, name -> permutation."""
    turns = layer_turns(n)
    out: dict[str, np.ndarray] = {}
    for layer in layer_names(n, centre_slices):
        perm = turns[(layer.axis.near, layer.depth)]
        out[layer.name] = P.inverse(perm) if layer.inverted else perm
    return out


def solved_colours(n: int) -> list[str]:
    """Face letter of every cell: the solved colouring."""
    return [f for f in FACES for _ in range(n * n)]


def check_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """Validate the plugin record ``{"size": N, "centre_slices": bool}``; ValueError says what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError(f"cube data must be an object, not {type(data).__name__}")
    unknown = set(data) - {"size", "centre_slices"}
    if unknown:
        raise ValueError(f"cube data: unknown key {sorted(unknown)[0]!r} (known: size, centre_slices)")
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise ValueError(f"cube data: size must be an integer, not {size!r}")
    if size < 2:
        raise ValueError(f"cube data: size {size} is below 2")
    centre = data.get("centre_slices", False)
    if not isinstance(centre, bool):
        raise ValueError(f"cube data: centre_slices must be true or false, not {centre!r}")
    return {"size": int(size), "centre_slices": centre}

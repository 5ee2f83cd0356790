"""Globes and wreaths of the Santa 2023 benchmark: cells, moves and solved colours, without any drawing.

**Globe** with ``rows`` latitude bands of ``columns`` cells (``columns``
even; Santa's ``globe_a/b`` has ``rows = a + 1`` and ``columns = 2b``). Row 0
is the northern cap, columns run eastwards; cell ``row * columns + column``.

* ``r_i`` turns row ``i`` by one column: ``new[i, j] = old[i, j + 1]``, so
  the colours move westwards (clockwise seen from above the north pole).
* ``f_j`` is the half-turn of the half-globe made of columns ``j .. j + b - 1``
  (``b = columns / 2``, indices modulo ``columns``) about the equatorial axis
  through its middle: cell ``(i, j + t)`` swaps with ``(rows - 1 - i, j + b - 1 - t)``
  for the northern rows ``i < rows // 2``. With an odd number of rows the
  equator row is left alone, as in the benchmark.

Move order: ``r0 .. r{rows-1}``, then ``f0 .. f{columns-1}``.

**Wreath** of ``size`` ``a``: two rings of ``a`` cells sharing two cells, so
``2a - 2`` cells. The left ring is cells ``0 .. a-1`` in order; it shares
cell 0 and cell ``k = ceil(a / 4)`` with the right ring, which runs
``0, a .. 2a-k-3, k, 2a-k-2 .. 2a-3``. A ring's move shifts it by one:
``new[ring[t]] = old[ring[t + 1]]``. Moves ``l`` (left ring) and ``r``.

These are exactly the permutations of the benchmark's ``puzzle_info.csv``
(the tests compare them for several sizes).
"""

from __future__ import annotations

import colorsys
from collections.abc import Mapping
from typing import Any

import numpy as np

MAX_ROWS = 100
MAX_COLUMNS = 200
MIN_WREATH = 4
MAX_WREATH = 1000
SECTORS = 8
"""At most this many colour sectors round a globe."""

WREATH_PALETTE = {"A": "#c41e3a", "B": "#1f8a4c", "C": "#f2c500"}
"""Left ring red, right ring green, the two shared cells gold."""


# -- globe ---------------------------------------------------------------------------------------
def check_globe(data: Mapping[str, Any]) -> dict[str, int]:
    """``{"rows", "columns"}`` checked; ValueError names the bad value."""
    out = {}
    for key, low, high in (("rows", 2, MAX_ROWS), ("columns", 2, MAX_COLUMNS)):
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"globe data: {key} must be an integer, not {value!r}")
        if not low <= value <= high:
            raise ValueError(f"globe data: {key} {value} is outside {low}..{high}")
        out[key] = value
    if out["columns"] % 2:
        raise ValueError(f"globe data: columns {out['columns']} must be even (a flip turns half the columns)")
    return out


def globe_name(rows: int, columns: int) -> str:
    """The benchmark's name of the shape: ``globe_a/b``."""
    return f"globe_{rows - 1}/{columns // 2}"


def globe_row_move(rows: int, columns: int, row: int) -> np.ndarray:
    perm = np.arange(rows * columns)
    start = row * columns
    perm[start:start + columns] = start + (np.arange(columns) + 1) % columns
    return perm


def flip_pairs(rows: int, columns: int, column: int) -> tuple[np.ndarray, np.ndarray]:
    """The cells a flip swaps: ``(north[k], south[k])`` pairs, in row-major order of the northern cells."""
    half = columns // 2
    i = np.repeat(np.arange(rows // 2), half)
    t = np.tile(np.arange(half), rows // 2)
    north = i * columns + (column + t) % columns
    south = (rows - 1 - i) * columns + (column + half - 1 - t) % columns
    return north, south


def globe_flip_move(rows: int, columns: int, column: int) -> np.ndarray:
    perm = np.arange(rows * columns)
    north, south = flip_pairs(rows, columns, column)
    perm[north], perm[south] = south, north
    return perm


def globe_moves(rows: int, columns: int) -> dict[str, np.ndarray]:
    """``r0 ..`` then ``f0 ..``, in the benchmark's order."""
    moves = {f"r{i}": globe_row_move(rows, columns, i) for i in range(rows)}
    moves.update({f"f{j}": globe_flip_move(rows, columns, j) for j in range(columns)})
    return moves


def globe_colours(rows: int, columns: int) -> tuple[list[str], dict[str, str]]:
    """Solved colours: sectors of columns (hue) times north, equator row, south (lightness).

    The number of sectors is the largest divisor of ``columns`` up to :data:`SECTORS`,
    so every sector is equally wide and a flip visibly swaps whole sectors.
    """
    sectors = max(d for d in range(1, SECTORS + 1) if columns % d == 0)
    width = columns // sectors
    band = {"N": 0.42, "E": 0.58, "S": 0.28}
    labels, palette = [], {}
    for row in range(rows):
        half = "N" if 2 * row < rows - 1 else "S" if 2 * row > rows - 1 else "E"
        for column in range(columns):
            label = f"{half}{column // width}"
            labels.append(label)
            if label not in palette:
                r, g, b = colorsys.hls_to_rgb((column // width) / sectors, band[half], 0.75)
                palette[label] = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
    return labels, palette


# -- wreath --------------------------------------------------------------------------------------
def check_wreath(data: Mapping[str, Any]) -> dict[str, int]:
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int):
        raise ValueError(f"wreath data: size must be an integer, not {size!r}")
    if not MIN_WREATH <= size <= MAX_WREATH:
        raise ValueError(f"wreath data: size {size} is outside {MIN_WREATH}..{MAX_WREATH}")
    return {"size": size}


def wreath_name(size: int) -> str:
    return f"wreath_{size}/{size}"


def second_shared_cell(size: int) -> int:
    """``k = ceil(size / 4)``: the left ring's cell the right ring also passes."""
    return -(-size // 4)


def wreath_rings(size: int) -> tuple[list[int], list[int]]:
    """The cells of the left and the right ring, each in the order its move shifts them."""
    k = second_shared_cell(size)
    own = list(range(size, 2 * size - 2))
    split = size - k - 2
    return list(range(size)), [0, *own[:split], k, *own[split:]]


def ring_move(n: int, ring: list[int]) -> np.ndarray:
    perm = np.arange(n)
    perm[ring] = np.roll(ring, -1)
    return perm


def wreath_moves(size: int) -> dict[str, np.ndarray]:
    left, right = wreath_rings(size)
    n = 2 * size - 2
    return {"l": ring_move(n, left), "r": ring_move(n, right)}


def wreath_colours(size: int) -> list[str]:
    """Left ring A, right ring B, the two shared cells C (the benchmark's own solved colouring)."""
    k = second_shared_cell(size)
    labels = ["A"] * size + ["B"] * (size - 2)
    labels[0] = labels[k] = "C"
    return labels

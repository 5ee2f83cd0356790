"""A second, independent count of a jumbling puzzle's pieces: random turns on sample points in floating point.

Nothing here uses the closure: a fine grid of sample points stands for the
puzzle, each point carries the label of the piece it belongs to, and a
random turn first cuts every piece along the turning rim (the label gets
one bit: inside or outside) and then turns the points inside. After enough
turns the labels are the pieces every turn sequence produces. For a
bandaged design (pieces as drawn) a turn is made only when no piece
straddles the rim, and the placements of the pieces seen are collected.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SimDisk:
    x: float
    y: float
    r: float
    angle: float
    """One turn, radians."""


def grid_points(disks: list[SimDisk], spacing: float, seed: int = 0) -> np.ndarray:
    """Grid points (with a random sub-spacing offset, so none sits on a rim) inside some disk."""
    rng = np.random.default_rng(seed)
    x0 = min(d.x - d.r for d in disks)
    y0 = min(d.y - d.r for d in disks)
    x1 = max(d.x + d.r for d in disks)
    y1 = max(d.y + d.r for d in disks)
    ox, oy = rng.uniform(0, spacing, 2)
    xs = np.arange(x0 + ox, x1, spacing)
    ys = np.arange(y0 + oy, y1, spacing)
    pts = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    inside = np.zeros(len(pts), dtype=bool)
    for d in disks:
        inside |= np.hypot(pts[:, 0] - d.x, pts[:, 1] - d.y) < d.r
    return pts[inside]


def _inside(pos: np.ndarray, d: SimDisk) -> np.ndarray:
    return np.hypot(pos[:, 0] - d.x, pos[:, 1] - d.y) < d.r


def _turn(pos: np.ndarray, mask: np.ndarray, d: SimDisk) -> None:
    c, s = math.cos(d.angle), math.sin(d.angle)
    dx, dy = pos[mask, 0] - d.x, pos[mask, 1] - d.y
    pos[mask, 0] = d.x + dx * c - dy * s
    pos[mask, 1] = d.y + dx * s + dy * c


def cut_as_you_turn(disks: list[SimDisk], pts: np.ndarray, turns: int, seed: int, quiet: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """(positions, labels) after random turns, each cutting what it crosses; stops ``quiet`` turns after the last new piece."""
    rng = np.random.default_rng(seed)
    pos = pts.copy()
    labels = np.zeros(len(pts), dtype=np.int64)
    count, since = 1, 0
    for t in range(1, turns + 1):
        d = disks[int(rng.integers(len(disks)))]
        mask = _inside(pos, d)
        labels = labels * 2 + mask
        _turn(pos, mask, d)
        if t % 24 == 0 or t == turns:  # renumber now and then (24 bits on top of the count fit an int64)
            _, labels = np.unique(labels, return_inverse=True)
            n = int(labels.max()) + 1
            since = 0 if n > count else since + 24
            count = n
            if since >= quiet:
                break
    return pos, labels.astype(np.int64)


def legal_placements(disks: list[SimDisk], pts: np.ndarray, labels: np.ndarray, turns: int, seed: int,
                     tol: float = 0.05) -> list[np.ndarray]:
    """Every arrangement of the pieces seen on a random legal walk, told apart only by where pieces sit.

    A turn is legal when no piece has points on both sides of its rim. An
    arrangement is the sorted list of (piece size class, centroid x, y);
    congruent pieces have sizes within 1 % (the grid samples them a little
    differently), and two arrangements are one when they agree within ``tol``.
    """
    rng = np.random.default_rng(seed)
    pos = pts.copy()
    n = int(labels.max()) + 1
    sizes = np.bincount(labels, minlength=n)
    order = np.argsort(sizes)
    kind = np.zeros(n, dtype=float)
    for a, b in itertools.pairwise(order):
        kind[b] = kind[a] + (sizes[b] > 1.01 * sizes[a])
    seen: list[np.ndarray] = []

    def record() -> None:
        cx = np.bincount(labels, weights=pos[:, 0], minlength=n) / sizes
        cy = np.bincount(labels, weights=pos[:, 1], minlength=n) / sizes
        rows = np.stack([kind * 1000.0, cx, cy], axis=1)
        rows = rows[np.lexsort((np.round(rows[:, 2], 1), np.round(rows[:, 1], 1), rows[:, 0]))]
        if not any(np.allclose(rows, other, atol=tol) for other in seen):
            seen.append(rows)

    record()
    for _ in range(turns):
        d = disks[int(rng.integers(len(disks)))]
        mask = _inside(pos, d)
        inside_count = np.bincount(labels, weights=mask, minlength=n)
        if np.any((inside_count > 0) & (inside_count < sizes)):
            continue
        _turn(pos, mask, d)
        record()
    return seen

"""Turning a circle: which region each region inside lands on, and when the turn jams.

A turn by ``360/k`` degrees carries every cell inside the circle. Each cell's
interior point is turned and the region found there must be exactly the
turned cell (same area, same corners, same boundary circles) and itself a
cell; otherwise the physical puzzle would jam and the error names the cells
that clash. Uncoloured regions are empty space (a frame, a hole): they need
not match, so a ring of balls can turn although other circles cut across
its track.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import reduce

import numpy as np

from hlavolamy.errors import PuzzleError

from .arrangement import Arrangement, Circle, Region

MATCH_TOL = 1e-6
"""Relative tolerance (of the design's size) for a turned corner or circle to match."""
MAX_ORDER = 360
"""The largest number of steps per full turn a circle may have."""


class JamError(PuzzleError):
    """A turn does not carry the cells onto cells: ``clashes`` are (cell region, region it lands on or None)."""

    def __init__(self, message: str, circle: str, clashes: list[tuple[str, str | None]]):
        super().__init__(message)
        self.circle = circle
        self.clashes = clashes


def rotate(x: float, y: float, circle: Circle, angle: float) -> tuple[float, float]:
    """The point turned by ``angle`` radians about the circle's centre (positive: clockwise on screen)."""
    c, s = math.cos(angle), math.sin(angle)
    dx, dy = x - circle.x, y - circle.y
    return (circle.x + dx * c - dy * s, circle.y + dx * s + dy * c)


def lands_on(arr: Arrangement, region: Region, circle: Circle, angle: float) -> Region | None:
    """The region the turned ``region`` covers exactly, or None when it straddles outlines."""
    target = arr.region_at(*rotate(*region.point, circle, angle))
    if target is None or not _congruent(region, target, circle, angle, MATCH_TOL * arr.scale):
        return None
    return target


def _congruent(region: Region, target: Region, circle: Circle, angle: float, tol: float) -> bool:
    if abs(region.area - target.area) > tol * max(1.0, math.sqrt(abs(region.area))):
        return False
    if len(region.corners) != len(target.corners) or len(region.boundary_circles) != len(target.boundary_circles):
        return False
    turned_corners = [rotate(x, y, circle, angle) for x, y in region.corners]
    if not _same_points(turned_corners, target.corners, tol):
        return False
    turned_circles = [(*rotate(x, y, circle, angle), r) for x, y, r in region.boundary_circles]
    return _same_points(turned_circles, list(target.boundary_circles), tol)


def _same_points(a: list[tuple[float, ...]], b: list[tuple[float, ...]], tol: float) -> bool:
    """Whether every point of ``a`` is within ``tol`` of a point of ``b`` and vice versa."""
    if not a and not b:
        return True
    pa, pb = np.array(a, dtype=float), np.array(b, dtype=float)
    gap = np.max(np.abs(pa[:, None, :] - pb[None, :, :]), axis=2)
    return bool(np.all(gap.min(axis=1) <= tol) and np.all(gap.min(axis=0) <= tol))


def turn_map(
    arr: Arrangement, circle: Circle, turned: Iterable[Region], steps: int, cells: Mapping[str, int], move: str,
    turns: int = 1,
) -> dict[int, int]:
    """Cell index -> cell index it goes to when ``turned`` (the regions the circle carries) turn once.

    One turn is ``turns``/``steps`` of a full turn. JamError when the cells do not fit.
    """
    angle = 2 * math.pi * turns / steps
    out: dict[int, int] = {}
    clashes: list[tuple[str, str | None]] = []
    reasons: list[str] = []
    taken: set[int] = set()
    for region in turned:
        if region.id not in cells:
            continue
        target = arr.region_at(*rotate(*region.point, circle, angle))
        if target is None or not _congruent(region, target, circle, angle, MATCH_TOL * arr.scale):
            where = f"does not match {target.id}, the region it lands in" if target is not None else "lands across an outline"
            reasons.append(f"cell {region.id} turned {where}")
        elif target.id not in cells:
            reasons.append(f"cell {region.id} would land on the uncoloured region {target.id}")
        elif cells[target.id] in taken:
            reasons.append(f"cell {region.id} would land on {target.id}, which another cell takes")
        else:
            out[cells[region.id]] = cells[target.id]
            taken.add(cells[target.id])
            continue
        clashes.append((region.id, None if target is None else target.id))
    if clashes:
        more = f" (and {len(reasons) - 4} more)" if len(reasons) > 4 else ""
        message = (
            f"move {move} (circle {circle.id}) jams at {360 * turns / steps:g} degrees: " + "; ".join(reasons[:4]) + more
            + f". The cut pattern inside {circle.id} is not symmetric under that turn: "
            "change its steps, add the missing cuts, or colour the regions that should be cells."
        )
        raise JamError(message, circle.id, clashes)
    return out


def symmetry_order(arr: Arrangement, circle: Circle, turned: list[Region], cells: Iterable[str]) -> int:
    """The largest k such that turning by 360/k carries the cells among ``turned`` onto cells.

    With no cells there yet the whole cut pattern of ``turned`` counts. A pattern
    of concentric circles only fits every angle; its turn moves nothing and
    the answer is 1.
    """
    cell_ids = set(cells)
    chosen = [r for r in turned if r.id in cell_ids] or turned
    wanted = {r.id for r in chosen}
    count = _ring_gcd(chosen, circle, arr.scale * MATCH_TOL * 100)
    for k in sorted(_divisors(count), reverse=True):
        if k == 1:
            break
        angle = 2 * math.pi / k
        if all((t := lands_on(arr, r, circle, angle)) is not None and t.id in wanted for r in chosen):
            return k
    return 1


def _ring_gcd(regions: list[Region], circle: Circle, tol: float) -> int:
    """The gcd of the sizes of the rings of corners and circle centres around ``circle``'s centre.

    Corners and centres at one distance form a union of orbits of any
    symmetry, so a symmetry of order k divides every ring size.
    """
    points: list[tuple[float, float]] = []
    for region in regions:
        points += region.corners
        points += [(x, y) for x, y, _ in region.boundary_circles]
    distinct: list[tuple[float, float]] = []
    for x, y in points:
        if math.hypot(x - circle.x, y - circle.y) > tol and all(abs(x - a) > tol or abs(y - b) > tol for a, b in distinct):
            distinct.append((x, y))
    distances = sorted(math.hypot(x - circle.x, y - circle.y) for x, y in distinct)
    sizes: list[int] = []
    for i, d in enumerate(distances):
        if i and d - distances[i - 1] <= tol:
            sizes[-1] += 1
        else:
            sizes.append(1)
    return min(reduce(math.gcd, sizes), MAX_ORDER) if sizes else 1


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]

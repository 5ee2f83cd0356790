"""The jumbling closure: every cut arc a circle design can ever carry, when turns need not fit the pattern.

When a disk turns by an angle its cut pattern is not symmetric under, the
pieces it carries land where no piece was before, and the rims of the other
disks cut them again (the "jumbling" of Gizmo Gears-type circle puzzles).
The puzzle's cells are then the regions of the set of arcs closed under all
turns: start with every circle of the design as a full cut; for every disk
and every arc part lying where the disk turns, add that part turned by each
multiple of the disk's step; repeat until nothing grows. This set is the
smallest one whose regions every turn carries onto regions, so the moves
are permutations of those regions (the cells), and any coarser physical
pieces are fused sets of them (:mod:`.design` makes the blockings).

Geometry, and what is exact:

- Circle centres are exact points of a cyclotomic field
  (:mod:`.cyclotomic`): a turned copy of a circle is either the same circle
  (equal integer tuples) or a new one, with no tolerance. Radii never change.
- Which parts of a circle are cut is a union of angle intervals, in floating
  point. Interval ends are merged when within :data:`ANGLE_EPS` radians; an
  added interval counts as growth only when it reaches more than that beyond
  what is there. The consistency check is done on the result: every turn
  must carry every region onto a congruent region (:func:`.symmetry.turn_map`
  checks corners, outline circles and area), otherwise the build fails.

Some designs never close: the cuts keep multiplying into a fractal (for two
equal disks this happens above Engel's "critical radius"). The closure then
stops at :data:`MAX_CIRCLES` circles (or a caller's limit) with
:class:`JumbleLimit`, which keeps the partial closure so it can be drawn:
each circle carries the generation (number of turns) that first made it,
and the newest generations show where the cuts pile up.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.errors import PuzzleError

from .arrangement import TAU, Circle
from .cyclotomic import CyclotomicPlane, Point

if TYPE_CHECKING:
    from .design import DesignCircle

ANGLE_EPS = 1e-8
"""Radians: interval ends closer than this are one end; growth smaller than this is float noise."""
GEOM_EPS = 1e-9
"""Relative distance (of the design's size) under which a circle is tangent to or concentric with a rim."""
MAX_CIRCLES = 1200
"""Default limit on the circles of a closure; past it the design counts as not closing (a fractal)."""

Intervals = tuple[tuple[float, float], ...]
"""Disjoint sorted angle intervals (a, b) with 0 <= a < b <= 2π; ((0, 2π),) is the whole circle."""
FULL: Intervals = ((0.0, TAU),)


@dataclass(frozen=True)
class Disk:
    """A turning circle as the closure sees it: exact centre, radius, hole, steps per full turn."""

    id: str
    centre: Point
    x: float
    y: float
    r: float
    inner: float | None
    steps: int


@dataclass
class CutCircle:
    """A circle some cut arc lies on: its id, exact centre, radius and the turns that first made it."""

    id: str
    centre: Point
    x: float
    y: float
    r: float
    generation: int
    arcs: Intervals = FULL

    @property
    def shape(self) -> Circle:
        return Circle(self.id, self.x, self.y, self.r)


@dataclass
class Closure:
    """The cut arcs of a design closed under its turns (or as far as the limit let it go)."""

    circles: list[CutCircle]
    disks: list[Disk]
    complete: bool
    rounds: int
    by_key: dict[tuple[Point, float], CutCircle] = field(default_factory=dict, repr=False)

    @property
    def arcs(self) -> dict[str, Intervals]:
        """Circle id -> its cut intervals, for :class:`.arrangement.Arrangement` (whole circles left out)."""
        return {c.id: c.arcs for c in self.circles if c.arcs != FULL}

    def multiplying(self, newest: int = 3) -> list[CutCircle]:
        """The circles of the last ``newest`` generations: where the cuts keep multiplying."""
        top = max((c.generation for c in self.circles), default=0)
        return [c for c in self.circles if c.generation > top - newest]


class JumbleLimit(PuzzleError):
    """The closure passed its limit: the turns keep cutting new arcs (``closure`` is the partial result)."""

    def __init__(self, message: str, closure: Closure):
        super().__init__(message)
        self.closure = closure


def field_order(steps: Iterable[int]) -> int:
    """N for the cyclotomic field: a multiple of 4 and of every disk's steps."""
    return math.lcm(4, *steps)


def close_cuts(
    disks: Sequence[tuple[str, float, float, float, float | None, int]],
    cuts: Sequence[tuple[str, float, float, float]],
    *,
    max_circles: int = MAX_CIRCLES,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> Closure:
    """Close the cuts under the disks' turns.

    ``disks`` are (id, x, y, r, inner or None, steps) and ``cuts`` the other
    full circles (id, x, y, r); rims and hole rims of the disks are cuts too.
    JumbleLimit past ``max_circles`` circles; Cancelled through ``cancel``.
    """
    coords = [Fraction(repr(float(v))) for d in disks for v in d[1:3]] + [Fraction(repr(float(v))) for c in cuts for v in c[1:3]]
    plane = CyclotomicPlane(field_order(d[5] for d in disks), coords)
    scale = max([abs(v) + r for _, x, y, r, *_ in disks for v in (x, y)] + [abs(v) + r for _, x, y, r in cuts for v in (x, y)] + [1.0])
    tol = GEOM_EPS * scale
    turning = [Disk(i, plane.point(x, y), x, y, r, inner, k) for i, x, y, r, inner, k in disks]
    closure = Closure([], turning, complete=False, rounds=0)
    queue: deque[CutCircle] = deque()

    def add(key: tuple[Point, float], cid: str | None, generation: int, arcs: Intervals) -> None:
        circle = closure.by_key.get(key)
        if circle is None:
            if len(closure.circles) >= max_circles:
                raise JumbleLimit(_limit_message(closure, max_circles), closure)
            x, y = plane.xy(key[0])
            circle = CutCircle(cid or f"j{len(closure.circles)}", key[0], x, y, key[1], generation, ())
            closure.by_key[key] = circle
            closure.circles.append(circle)
        if _covers(circle.arcs, arcs):
            return
        circle.arcs = _union(circle.arcs, arcs)
        queue.append(circle)

    for d in turning:
        add((d.centre, d.r), d.id, 0, FULL)
        if d.inner is not None:
            add((d.centre, d.inner), d.id + "/hole", 0, FULL)
    for cid, x, y, r in cuts:
        add((plane.point(x, y), r), cid, 0, FULL)
    done = 0
    while queue:
        circle = queue.popleft()
        done += 1
        if cancel is not None and done % 16 == 0:
            cancel.check()
        if done % 64 == 0:
            report(progress, len(closure.circles) / max_circles,
                   f"{len(closure.circles)} cut circles of at most {max_circles}, {circle.generation} turns deep")
        for disk in turning:
            carried = _intersect(circle.arcs, _carried(circle, disk, tol))
            if not carried:
                continue
            for k in range(1, disk.steps):
                try:
                    centre = plane.turn(circle.centre, disk.centre, k, disk.steps)
                except OverflowError:
                    raise JumbleLimit(_limit_message(closure, max_circles), closure) from None
                shift = TAU * k / disk.steps
                add((centre, circle.r), None, circle.generation + 1, _shift(carried, shift))
        closure.rounds = done
    closure.complete = True
    return closure


def _limit_message(closure: Closure, limit: int) -> str:
    top = max((c.generation for c in closure.circles), default=0)
    newest = closure.multiplying()
    xs = [c.x for c in newest]
    ys = [c.y for c in newest]
    where = f"the newest centres lie in x {min(xs):.3g}..{max(xs):.3g}, y {min(ys):.3g}..{max(ys):.3g}" if newest else ""
    return (
        f"the turns do not close up: after {limit} cut circles ({top} turns deep) new cuts keep appearing; {where}. "
        "The design is a fractal (for two equal disks: the radius is above the critical radius); "
        "make the disks smaller or further apart, or choose turns that fit the pattern"
    )


def _carried(circle: CutCircle, disk: Disk, tol: float) -> Intervals:
    """The angles on ``circle`` whose points a turn of ``disk`` carries (inside the rim, outside the hole)."""
    inside = _inside(circle, disk.x, disk.y, disk.r, tol)
    if disk.inner is None or not inside:
        return inside
    hole = _inside(circle, disk.x, disk.y, disk.inner, tol)
    return _subtract(inside, hole)


def _inside(circle: CutCircle, cx: float, cy: float, radius: float, tol: float) -> Intervals:
    """Angles of the points of ``circle`` strictly inside the circle (cx, cy, radius)."""
    px, py, r = circle.x, circle.y, circle.r
    d = math.hypot(cx - px, cy - py)
    if d <= tol:
        return FULL if r < radius - tol else ()
    if d + r <= radius + tol:
        return FULL
    if d >= r + radius - tol or d + radius <= r + tol:
        return ()
    alpha = math.acos(max(-1.0, min(1.0, (r * r + d * d - radius * radius) / (2 * r * d))))
    beta = math.atan2(cy - py, cx - px)
    return _normalise(beta - alpha, beta + alpha)


def _normalise(a: float, b: float) -> Intervals:
    """The interval from a to b (b > a, b - a <= 2π) as pieces within [0, 2π]."""
    length = b - a
    if length >= TAU - ANGLE_EPS:
        return FULL
    a %= TAU
    b = a + length
    return _merge([(a, b)] if b <= TAU else [(a, TAU), (0.0, b - TAU)])


def _shift(arcs: Intervals, angle: float) -> Intervals:
    out: list[tuple[float, float]] = []
    for a, b in arcs:
        if a <= 0 and b >= TAU:
            return FULL
        out.extend(_normalise(a + angle, b + angle))
    return _merge(out)


def _merge(pieces: Iterable[tuple[float, float]]) -> Intervals:
    out: list[list[float]] = []
    for a, b in sorted(pieces):
        if b - a <= 0:
            continue
        if out and a <= out[-1][1] + ANGLE_EPS:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    if out and out[0][0] <= ANGLE_EPS and out[-1][1] >= TAU - ANGLE_EPS and len(out) == 1:
        return FULL
    return tuple((max(0.0, a), min(TAU, b)) for a, b in out)


def _union(a: Intervals, b: Intervals) -> Intervals:
    return _merge([*a, *b])


def _intersect(a: Intervals, b: Intervals) -> Intervals:
    out = [(max(p, r), min(q, s)) for p, q in a for r, s in b if min(q, s) - max(p, r) > ANGLE_EPS]
    return _merge(out)


def _subtract(a: Intervals, b: Intervals) -> Intervals:
    out: list[tuple[float, float]] = []
    for p, q in a:
        pieces = [(p, q)]
        for r, s in b:
            pieces = [piece for x, y in pieces for piece in ((x, min(y, r)), (max(x, s), y)) if piece[1] - piece[0] > ANGLE_EPS]
        out.extend(pieces)
    return _merge(out)


def _covers(have: Intervals, new: Intervals) -> bool:
    """Whether every interval of ``new`` lies within ``have`` up to ANGLE_EPS."""
    return all(any(c <= a + ANGLE_EPS and b <= d + ANGLE_EPS for c, d in have) for a, b in new)


def covered(arcs: Intervals, angle: float) -> bool:
    """Whether the direction ``angle`` (radians) lies on the cut intervals."""
    t = angle % TAU
    return any(a - ANGLE_EPS <= t <= b + ANGLE_EPS for a, b in arcs)


def closure_of(
    design_circles: Sequence[DesignCircle], steps: Callable[[DesignCircle], int], *, max_circles: int = MAX_CIRCLES,
    progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
) -> Closure:
    """The closure of a design's circles, turning ones by ``steps(circle)`` steps per full turn."""
    disks = [(c.id, c.x, c.y, c.r, c.inner, steps(c)) for c in design_circles if c.kind == "turn"]
    cuts = [(c.id, c.x, c.y, c.r) for c in design_circles if c.kind != "turn"]
    return close_cuts(disks, cuts, max_circles=max_circles, progress=progress, cancel=cancel)

"""The planar arrangement of circles: where they cross, and the regions they cut the plane into.

Every circle is split at the points where it meets other circles into arcs;
each arc is two half-edges (one per direction) and the regions are traced as
the faces on the left of half-edge cycles, the classic doubly connected edge
list. Arcs are kept exact (centre, radius, angles), so areas come from Green's
theorem and point location from ray crossings, with no polygon approximation.

Coordinates are the design's: ``y`` grows downwards as on screen, so a positive
angle turns clockwise as the user sees it. Nothing here imports Qt.

>>> arr = Arrangement([Circle("a", 0, 0, 2), Circle("b", 2, 0, 2)])
>>> sorted(r.id for r in arr.regions)
['+a+b', '+a-b', '+b-a']
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, cmp_to_key

import numpy as np

from hlavolamy.errors import PuzzleError

TAU = 2.0 * math.pi
REL_TOL = 1e-9
"""Relative tolerance (of the design's size) for tangency and coincidence."""
MERGE_TOL = 1e-7
"""Relative distance under which two crossing points are one vertex (three circles through a point)."""
ANGLE_TOL = 1e-7
"""Directions (radians) closer than this leave a vertex together; curvature then orders them."""


@dataclass(frozen=True)
class Circle:
    """A circle of the design, named by the id the data gives it."""

    id: str
    x: float
    y: float
    r: float


@dataclass(frozen=True)
class Arc:
    """Part of circle ``circle`` from angle ``start`` sweeping ``sweep`` radians (sign = direction).

    A positive sweep runs the circle with its inside on the left, so a region
    bounded by a positive arc lies inside that circle. ``full`` marks a whole
    circle with no crossings (its start point is not a real vertex).
    """

    circle: str
    cx: float
    cy: float
    r: float
    start: float
    sweep: float
    full: bool = False

    def point_at(self, t: float) -> tuple[float, float]:
        """The point a fraction ``t`` (0..1) along the arc."""
        a = self.start + t * self.sweep
        return (self.cx + self.r * math.cos(a), self.cy + self.r * math.sin(a))

    @property
    def start_point(self) -> tuple[float, float]:
        return self.point_at(0.0)

    @property
    def end_point(self) -> tuple[float, float]:
        return self.point_at(1.0)

    def area_term(self) -> float:
        """This arc's share of the enclosed signed area, ½∮(x dy − y dx)."""
        a, b = self.start, self.start + self.sweep
        r = self.r
        return 0.5 * (r * self.cx * (math.sin(b) - math.sin(a)) - r * self.cy * (math.cos(b) - math.cos(a)) + r * r * self.sweep)

    def covers(self, angle: float) -> bool:
        """Whether the direction ``angle`` (from the centre) lies on the arc."""
        if self.full:
            return True
        offset = (angle - self.start) % TAU if self.sweep > 0 else (self.start - angle) % TAU
        return offset <= abs(self.sweep) + 1e-12

    def polyline(self, max_step: float) -> list[tuple[float, float]]:
        """Points along the arc (both ends included), at most ``max_step`` apart along it."""
        n = max(2, math.ceil(abs(self.sweep) * self.r / max(max_step, 1e-12)) + 1)
        return [self.point_at(i / (n - 1)) for i in range(n)]

    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the arc: its ends plus the extreme points it passes."""
        pts = [self.start_point, self.end_point]
        for k in range(4):
            a = k * math.pi / 2
            if self.covers(a):
                pts.append((self.cx + self.r * math.cos(a), self.cy + self.r * math.sin(a)))
        xs, ys = zip(*pts)
        return (min(xs), min(ys), max(xs), max(ys))


Loop = tuple[Arc, ...]


@dataclass(frozen=True)
class Region:
    """A face of the arrangement: a candidate cell.

    ``loops`` are its boundary cycles (the outer one first, anticlockwise in
    the coordinates; holes after it), ``point`` is an interior point well away
    from every circle (for labels and for matching turned regions), ``inside``
    the ids of the circles that contain it and ``sides`` its boundary circles
    with whether it lies inside each.
    """

    id: str
    loops: tuple[Loop, ...]
    point: tuple[float, float]
    area: float
    inside: frozenset[str]
    sides: tuple[tuple[str, bool], ...]

    @cached_property
    def corners(self) -> tuple[tuple[float, float], ...]:
        """Where the outline turns from one circle to another.

        A point where another circle only touches the outline splits an arc
        but is no corner: the shape is the same without it.
        """
        return tuple(arc.start_point for loop in self.loops for i, arc in enumerate(loop) if loop[i - 1].circle != arc.circle)

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) of the outer loop."""
        boxes = [arc.bounds() for arc in self.loops[0]]
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))

    @cached_property
    def boundary_circles(self) -> frozenset[tuple[float, float, float]]:
        """(x, y, r) of every circle an arc of the outline lies on."""
        return frozenset((arc.cx, arc.cy, arc.r) for loop in self.loops for arc in loop)

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside (a point on the outline gives either answer)."""
        return winding_number(x, y, self.loops) == 1

    def polygons(self, max_step: float) -> list[list[tuple[float, float]]]:
        """Each boundary loop as a closed polyline, for drawing."""
        out = []
        for loop in self.loops:
            pts: list[tuple[float, float]] = []
            for arc in loop:
                pts.extend(arc.polyline(max_step)[:-1])
            out.append(pts)
        return out


def _in_box(region: Region, x: float, y: float) -> bool:
    xmin, ymin, xmax, ymax = region.box
    return xmin <= x <= xmax and ymin <= y <= ymax


def winding_number(x: float, y: float, loops: Iterable[Loop]) -> int:
    """How many times the loops wind anticlockwise around the point, by ray crossings.

    The ray leaves the point through the widest gap between the loops'
    vertices as seen from the point, so it never grazes a corner.
    """
    loops = list(loops)
    direction = _clear_direction(x, y, [arc.start_point for loop in loops for arc in loop])
    ux, uy = math.cos(direction), math.sin(direction)
    total = 0
    for loop in loops:
        for arc in loop:
            dx, dy = x - arc.cx, y - arc.cy
            b = dx * ux + dy * uy
            disc = b * b - (dx * dx + dy * dy - arc.r * arc.r)
            if disc <= 0.0:
                continue
            root = math.sqrt(disc)
            for t in (-b - root, -b + root):
                if t <= 0.0:
                    continue
                angle = math.atan2(dy + t * uy, dx + t * ux)
                if not arc.covers(angle):
                    continue
                sign = 1.0 if arc.sweep > 0 else -1.0
                cross = ux * (sign * math.cos(angle)) - uy * (-sign * math.sin(angle))
                total += 1 if cross > 0 else -1
    return total


def _clear_direction(x: float, y: float, points: Sequence[tuple[float, float]]) -> float:
    """A direction from (x, y) as far as possible from the directions of ``points``."""
    angles = sorted(math.atan2(py - y, px - x) for px, py in points if (px, py) != (x, y))
    if not angles:
        return 0.1234
    gaps = [(angles[(i + 1) % len(angles)] - a) % TAU or TAU for i, a in enumerate(angles)]
    i = max(range(len(gaps)), key=gaps.__getitem__)
    return angles[i] + gaps[i] / 2


def on_arcs(intervals: Sequence[tuple[float, float]], angle: float) -> bool:
    """Whether the direction ``angle`` lies on the angle intervals (a, b), 0 <= a < b <= 2π."""
    t = angle % TAU
    return any(a - ANGLE_TOL <= t <= b + ANGLE_TOL for a, b in intervals)


class Arrangement:
    """All regions cut by ``circles``; raises :class:`PuzzleError` for coincident or degenerate circles.

    ``arcs`` (circle id -> angle intervals) keeps only those parts of a
    circle as cuts (a jumbling closure's arcs); circles not named cut whole.
    Every end of a kept part must lie on another cut, so no cut dangles.
    """

    def __init__(self, circles: Sequence[Circle], arcs: Mapping[str, Sequence[tuple[float, float]]] | None = None):
        self.circles: tuple[Circle, ...] = tuple(circles)
        self.arcs: dict[str, Sequence[tuple[float, float]]] = dict(arcs or {})
        _check_circles(self.circles)
        extent = max((max(abs(c.x), abs(c.y)) + c.r for c in self.circles), default=1.0)
        self.scale = max(extent, 1e-6)
        self._centres = np.array([[c.x, c.y] for c in self.circles], dtype=float).reshape(-1, 2)
        self._radii = np.array([c.r for c in self.circles], dtype=float)
        self.vertices: list[tuple[float, float]] = []
        self._grid: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.regions: tuple[Region, ...] = self._regions(self._faces()) if self.circles else ()
        self.by_id: dict[str, Region] = {r.id: r for r in self.regions}
        self._by_inside: dict[frozenset[str], list[Region]] = defaultdict(list)
        for region in self.regions:
            self._by_inside[region.inside].append(region)

    # -- queries -------------------------------------------------------------
    def inside_set(self, x: float, y: float) -> frozenset[str] | None:
        """Ids of the circles containing the point; None when it is (nearly) on a circle."""
        if not self.circles:
            return frozenset()
        dist = np.hypot(self._centres[:, 0] - x, self._centres[:, 1] - y) - self._radii
        if np.any(np.abs(dist) <= MERGE_TOL * self.scale):
            return None
        return frozenset(c.id for c, d in zip(self.circles, dist) if d < 0)

    def clearance(self, x: float, y: float) -> float:
        """Distance from the point to the nearest circle."""
        if not self.circles:
            return math.inf
        return float(np.min(np.abs(np.hypot(self._centres[:, 0] - x, self._centres[:, 1] - y) - self._radii)))

    def region_at(self, x: float, y: float) -> Region | None:
        """The region containing the point; None outside all regions or on a circle."""
        if self.arcs:  # cut by parts of circles: a region is no longer a set of insides
            return next((r for r in self.regions if _in_box(r, x, y) and r.contains(x, y)), None)
        key = self.inside_set(x, y)
        if key is None:
            return None
        candidates = self._by_inside.get(key, [])
        if len(candidates) == 1 and key:
            return candidates[0]
        return next((r for r in candidates if r.contains(x, y)), None)

    def regions_inside(self, circle_id: str) -> list[Region]:
        return [r for r in self.regions if circle_id in r.inside]

    # -- construction --------------------------------------------------------
    def _vertex(self, x: float, y: float) -> int:
        """Index of the vertex at (x, y), merging with an existing one within tolerance (a grid hash)."""
        tol = MERGE_TOL * self.scale
        gx, gy = math.floor(x / tol), math.floor(y / tol)
        for key in ((gx + i, gy + j) for i in (-1, 0, 1) for j in (-1, 0, 1)):
            for v in self._grid.get(key, ()):
                vx, vy = self.vertices[v]
                if abs(vx - x) <= tol and abs(vy - y) <= tol:
                    return v
        self.vertices.append((x, y))
        self._grid[(gx, gy)].append(len(self.vertices) - 1)
        return len(self.vertices) - 1

    def _regions(self, faces: list[tuple[Loop, ...]]) -> tuple[Region, ...]:
        """Regions with stable ids: the boundary circles and the side of each, e.g. ``+a-b``.

        The id changes only when the region's own outline changes; an unrelated
        circle elsewhere leaves it alone. Rare faces with equal outlines get
        ``#1``, ``#2`` in order of position.
        """
        drafts = []
        for loops in faces:
            sides = {arc.circle: arc.sweep > 0 for loop in loops for arc in loop}
            signature = "".join(("+" if sides[c] else "-") + c for c in sorted(sides, key=lambda c: (not sides[c], c)))
            point = self._interior_point(loops, sides)
            area = sum(arc.area_term() for loop in loops for arc in loop)
            inside = self.inside_set(*point)
            if inside is None:  # a sliver thinner than the tolerance: its sides still say where it is
                inside = frozenset(c.id for c in self.circles if math.hypot(point[0] - c.x, point[1] - c.y) < c.r)
            drafts.append((signature, point, Region(signature, loops, point, area, inside, tuple(sorted(sides.items())))))
        counts: dict[str, int] = defaultdict(int)
        for signature, _, _ in drafts:
            counts[signature] += 1
        drafts.sort(key=lambda d: (d[0], d[1][1], d[1][0]))
        numbered: dict[str, int] = defaultdict(int)
        out = []
        for signature, _, region in drafts:
            if counts[signature] > 1:
                numbered[signature] += 1
                region = replace(region, id=f"{signature}#{numbered[signature]}")
            out.append(region)
        return tuple(out)

    def _interior_point(self, loops: tuple[Loop, ...], sides: dict[str, bool]) -> tuple[float, float]:
        """A point of the face as far from every circle as a scan of vertical lines finds.

        Candidates are the midpoints between consecutive circle crossings on
        a few vertical lines through the face; those on the right side of the
        face's own circles are ranked by clearance and the best one inside wins.
        """
        boxes = [arc.bounds() for arc in loops[0]]
        xmin, ymin = min(b[0] for b in boxes), min(b[1] for b in boxes)
        xmax, ymax = max(b[2] for b in boxes), max(b[3] for b in boxes)
        xs = [xmin + (i + 0.5) * (xmax - xmin) / 9 for i in range(9)] + [arc.point_at(0.5)[0] for arc in loops[0]]
        cx, cy, r = self._centres[:, 0], self._centres[:, 1], self._radii
        candidates = []
        for x0 in xs:
            hit = np.abs(x0 - cx) < r
            half = np.sqrt(r[hit] ** 2 - (x0 - cx[hit]) ** 2)
            ys = np.concatenate([cy[hit] - half, cy[hit] + half, [ymin, ymax]])
            ys = np.unique(ys[(ys >= ymin) & (ys <= ymax)])
            mids = (ys[:-1] + ys[1:]) / 2
            candidates.append(np.column_stack([np.full(len(mids), x0), mids]))
        pts = np.concatenate(candidates)
        ids = [i for i, c in enumerate(self.circles) if c.id in sides and c.id not in self.arcs]
        want = np.array([sides[self.circles[i].id] for i in ids])
        inside = np.hypot(pts[:, None, 0] - cx[ids], pts[:, None, 1] - cy[ids]) < r[ids]
        pts = pts[np.all(inside == want, axis=1)]
        clearance = np.min(np.abs(np.hypot(pts[:, None, 0] - cx, pts[:, None, 1] - cy) - r), axis=1)
        for i in np.argsort(-clearance, kind="stable"):
            x, y = float(pts[i, 0]), float(pts[i, 1])
            if winding_number(x, y, loops) == 1:
                return (x, y)
        # too thin for the scan: step off the middle of an edge into the face
        arc = loops[0][0]
        x, y = arc.point_at(0.5)
        step = (1.0 if arc.sweep > 0 else -1.0) * MERGE_TOL * 10 * self.scale / arc.r
        return (x + (arc.cx - x) * step, y + (arc.cy - y) * step)

    def _faces(self) -> list[tuple[Loop, ...]]:
        """Boundary loops of every bounded face (outer loop first)."""
        on_circle: list[set[int]] = [set() for _ in self.circles]
        for i, a in enumerate(self.circles):
            for j in range(i + 1, len(self.circles)):
                for x, y in _crossings(a, self.circles[j], REL_TOL * self.scale):
                    v = self._vertex(x, y)
                    on_circle[i].add(v)
                    on_circle[j].add(v)
        edges = _HalfEdges(self)
        for i, circle in enumerate(self.circles):
            edges.add_circle(i, circle, on_circle[i])
        return edges.faces()


def _check_circles(circles: Sequence[Circle]) -> None:
    seen: dict[str, int] = {}
    for i, c in enumerate(circles):
        if not all(math.isfinite(v) for v in (c.x, c.y, c.r)):
            raise PuzzleError(f"circle {c.id!r}: centre and radius must be finite numbers")
        if c.r <= 0:
            raise PuzzleError(f"circle {c.id!r}: radius {c.r} must be positive")
        if c.id in seen:
            raise PuzzleError(f"circle id {c.id!r} is used twice (circles {seen[c.id]} and {i})")
        seen[c.id] = i
    extent = max((max(abs(c.x), abs(c.y)) + c.r for c in circles), default=1.0)
    tol = REL_TOL * extent * 10
    for i, a in enumerate(circles):
        for b in circles[i + 1 :]:
            if math.hypot(a.x - b.x, a.y - b.y) <= tol and abs(a.r - b.r) <= tol:
                raise PuzzleError(f"circles {a.id!r} and {b.id!r} coincide; delete one of them")


def _crossings(a: Circle, b: Circle, tol: float) -> list[tuple[float, float]]:
    """Points where two circles meet: none, one (tangent) or two."""
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy)
    if d <= tol or d > a.r + b.r + tol or d < abs(a.r - b.r) - tol:
        return []
    ux, uy = dx / d, dy / d
    if abs(d - (a.r + b.r)) <= tol or abs(d - abs(a.r - b.r)) <= tol:
        s = a.r if a.r >= b.r or abs(d - (a.r + b.r)) <= tol else -a.r
        return [(a.x + s * ux, a.y + s * uy)]
    along = (d * d + a.r * a.r - b.r * b.r) / (2 * d)
    h = math.sqrt(max(a.r * a.r - along * along, 0.0))
    mx, my = a.x + along * ux, a.y + along * uy
    return [(mx - h * uy, my + h * ux), (mx + h * uy, my - h * ux)]


class _HalfEdges:
    """Half-edges of the arrangement; traces faces as the cycles with the face on their left."""

    def __init__(self, arrangement: Arrangement):
        self.arr = arrangement
        self.arcs: list[Arc] = []  # half-edge h; its twin is h ^ 1
        self.origin: list[int] = []
        self.out: dict[int, list[tuple[float, float, int]]] = defaultdict(list)  # vertex -> (direction, curvature, h)

    def add_circle(self, index: int, circle: Circle, vertex_ids: set[int]) -> None:
        full = not vertex_ids
        if full:
            vertex_ids = {self.arr._vertex(circle.x + circle.r, circle.y)}
        points = self.arr.vertices
        stops = sorted((math.atan2(points[v][1] - circle.y, points[v][0] - circle.x) % TAU, v) for v in vertex_ids)
        kept = self.arr.arcs.get(circle.id)
        for k, (a0, v0) in enumerate(stops):
            a1, v1 = stops[(k + 1) % len(stops)]
            sweep = (a1 - a0) % TAU or TAU
            if kept is not None and not on_arcs(kept, a0 + sweep / 2):
                continue
            self._add(v0, v1, Arc(circle.id, circle.x, circle.y, circle.r, a0, sweep, full), circle.r)

    def _add(self, v0: int, v1: int, arc: Arc, r: float) -> None:
        h = len(self.arcs)
        back = Arc(arc.circle, arc.cx, arc.cy, arc.r, arc.start + arc.sweep, -arc.sweep, arc.full)
        self.arcs += [arc, back]
        self.origin += [v0, v1]
        self.out[v0].append(((arc.start + math.pi / 2) % TAU, 1.0 / r, h))
        self.out[v1].append(((back.start - math.pi / 2) % TAU, -1.0 / r, h + 1))

    def faces(self) -> list[tuple[Loop, ...]]:
        nxt = self._next_pointers()
        cycles: list[list[int]] = []
        seen = [False] * len(self.arcs)
        for h in range(len(self.arcs)):
            if seen[h]:
                continue
            cycle = []
            while not seen[h]:
                seen[h] = True
                cycle.append(h)
                h = nxt[h]
            cycles.append(cycle)
        component = self._components()
        areas = [sum(self.arcs[h].area_term() for h in c) for c in cycles]
        outer = [i for i, a in enumerate(areas) if a > 0]
        holes: dict[int, list[int]] = defaultdict(list)
        for i, area in enumerate(areas):
            if area > 0:
                continue
            comp = component[self.origin[cycles[i][0]]]
            x, y = self.arcs[cycles[i][0]].point_at(0.5)
            around = [
                j for j in outer
                if component[self.origin[cycles[j][0]]] != comp and winding_number(x, y, [self._loop(cycles[j])]) == 1
            ]
            if around:
                holes[min(around, key=areas.__getitem__)].append(i)
        return [(self._loop(cycles[j]), *(self._loop(cycles[i]) for i in holes[j])) for j in outer]

    def _loop(self, cycle: list[int]) -> Loop:
        return tuple(self.arcs[h] for h in cycle)

    def _next_pointers(self) -> list[int]:
        """next(h) = the edge leaving h's end just clockwise of h's twin (face on the left)."""
        order: dict[int, tuple[int, int]] = {}
        for v, leaving in self.out.items():
            ranked = sorted(leaving, key=cmp_to_key(_ccw_order))
            for i, (_, _, h) in enumerate(ranked):
                order[h] = (v, i)
            self.out[v] = ranked
        nxt = [0] * len(self.arcs)
        for h in range(len(self.arcs)):
            v, i = order[h ^ 1]
            ranked = self.out[v]
            nxt[h] = ranked[(i - 1) % len(ranked)][2]
        return nxt

    def _components(self) -> list[int]:
        parent = list(range(len(self.arr.vertices)))

        def find(v: int) -> int:
            while parent[v] != v:
                parent[v] = parent[parent[v]]
                v = parent[v]
            return v

        for h in range(0, len(self.arcs), 2):
            parent[find(self.origin[h])] = find(self.origin[h + 1])
        return [find(v) for v in range(len(parent))]


def _ccw_order(a: tuple[float, float, int], b: tuple[float, float, int]) -> int:
    """Anticlockwise order of leaving edges: by direction, then the one bending left comes later."""
    diff = (a[0] - b[0] + math.pi) % TAU - math.pi
    if abs(diff) > ANGLE_TOL:
        da, db = a[0], b[0]
        if TAU - da <= ANGLE_TOL:
            da = 0.0
        if TAU - db <= ANGLE_TOL:
            db = 0.0
        return -1 if da < db else 1
    return (a[1] > b[1]) - (a[1] < b[1])

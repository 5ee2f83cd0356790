"""Pattern databases: exact distances on projections of the puzzle, a lower bound on the real distance.

A *pattern* looks at a few *points* (cells, or the slots of a piece orbit)
and shows, at each, the *class* of the label there: which tracked piece, how
a piece is turned, which colour. Every move acts on the points the way it
acts on cells, so the projection of a position after a step is the step
applied to the projection. A breadth-first search over the projected states
(from the goal's projection, all at once as numpy arrays) lists every
reachable projected state, ranks them (sorted keys: a state's rank is where
its key sits; up to 2^24 possible keys a flat array maps key to rank) and
tabulates ``rank x step -> rank``. Distances then come
from a second breadth-first search over that table, backwards from the
projected states that may be solved: the goal's, or with ``wildcards`` every
state showing at most that many points off the goal's classes (each such
point is a cell that shows a wrong label, so a solved position never
projects outside those seeds). No real solution is shorter than the
distance of its projection, so the maximum over patterns is an admissible
and consistent heuristic for :mod:`~hlavolamy.solve.strategies.optimal`.

Patterns are chosen from the structure (:func:`~hlavolamy.analysis.blocks.pieces`),
each at most :data:`MAX_PATTERN_STATES` states:

* exact positions, per piece orbit: all pieces with their turn when that
  fits; otherwise where the pieces are (slots only), how they are turned
  (which cell of its piece each cell shows), and groups of as many pieces as
  fit tracked with their turn;
* colours, per orbit: the colour at every cell when that fits; otherwise
  groups of colours (each its own class, the rest one class).

Tables are built once per set of moves (and goal colouring) and shared
through :func:`~hlavolamy.analysis.memo.memo`.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, pieces
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.memo import memo, on_disk
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn

MAX_PATTERN_STATES = 2_000_000
"""Most projected states of one pattern (its table holds one int32 per state and single step)."""
MAX_TOTAL_STATES = 5_000_000
"""Most projected states of all the patterns of one puzzle together (memory and build time)."""
_CHUNK = 200_000
"""States handled at once when tabulating steps (bounds temporary memory)."""
_KEY_LIMIT = 2**62
_DIRECT_KEYS = 2**24
"""Key spaces up to this size get a flat int32 array (key -> rank) instead of sorting and binary search."""
DENSE_KEYS = 2**22
"""Patterns with key spaces up to this size rank positions by a kept flat array (int32: 16 MB at most)."""


class PatternTooBig(Exception):
    """A projection has more states than allowed (internal: the pattern is dropped)."""


@dataclass(frozen=True)
class Form:
    """How a pattern writes a projected state as a row of small integers.

    Dense: the class at every point (``radix`` classes). By points: the
    point of each tracked class, for patterns whose classes each show once
    (a few pieces among many cells); the row is then much shorter.
    ``action[g, i]`` is the point step ``g`` brings to point ``i``.
    """

    action: np.ndarray
    radix: int
    by_points: bool

    def rows(self, classes_at_points: np.ndarray) -> np.ndarray:
        """Rows of this form from rows of classes at the points."""
        if not self.by_points:
            return classes_at_points.astype(np.uint8)
        r, c = np.nonzero(classes_at_points)
        out = np.empty((classes_at_points.shape[0], self.radix - 1), dtype=np.uint8)
        out[r, classes_at_points[r, c] - 1] = c
        return out

    def step(self, rows: np.ndarray, g: int) -> np.ndarray:
        """The rows after single step ``g``."""
        return self.inverse[g][rows] if self.by_points else rows[:, self.action[g]]

    def children(self, rows: np.ndarray) -> np.ndarray:
        """Rows after every step: child ``f * steps + g`` is row ``f`` after step ``g``."""
        if self.by_points:
            return self.inverse[:, rows].transpose(1, 0, 2).reshape(-1, rows.shape[1])
        return rows[:, self.action].reshape(-1, rows.shape[1])

    @property
    def base(self) -> int:
        return self.action.shape[1] if self.by_points else self.radix

    @property
    def key_space(self) -> int:
        """One more than the largest key."""
        return self.base ** (self.radix - 1 if self.by_points else self.action.shape[1])

    def keys(self, rows: np.ndarray) -> np.ndarray:
        """int64 key of each row: its digits in base ``radix`` (by points: base = number of points)."""
        return rows.astype(np.int64) @ (self.base ** np.arange(rows.shape[1], dtype=np.int64))

    @cached_property
    def inverse(self) -> np.ndarray:
        """``inverse[g, j]``: the point where step ``g`` takes what was at point ``j``."""
        return np.argsort(self.action, axis=1).astype(np.uint8)


@dataclass(eq=False)
class Pattern:
    """One projection with its ranked states and step table.

    ``cells[i]`` is the cell read for point ``i``, ``classes[label]`` the
    class shown for a label (0: not tracked), ``table[rank, g]`` the rank
    after single step ``g`` and ``off[rank]`` a count of cells that state
    certainly shows wrong (points off the goal's).
    """

    name: str
    cells: np.ndarray
    classes: np.ndarray
    form: Form
    keys: np.ndarray
    table: np.ndarray
    off: np.ndarray
    _distances: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        return int(self.keys.size)

    def ranks(self, labels: np.ndarray) -> np.ndarray:
        """Ranks of positions (rows of labels); -1 where the projection is not reachable."""
        labels = np.atleast_2d(labels)
        keys = self.form.keys(self.form.rows(self.classes[labels[:, self.cells]]))
        if self.form.key_space <= DENSE_KEYS:
            return self._rank_of_key[keys]
        at = np.clip(np.searchsorted(self.keys, keys), 0, self.keys.size - 1)
        return np.where(self.keys[at] == keys, at, -1)

    @cached_property
    def _rank_of_key(self) -> np.ndarray:
        """Every key's rank (-1: unreachable), for small key spaces: one lookup instead of a binary search
        (the beam ranks every child of every level: 5x faster on 4x4x4 wings)."""
        dense = np.full(self.form.key_space, -1, dtype=np.int32)
        dense[self.keys] = np.arange(self.keys.size, dtype=np.int32)
        return dense

    def __getstate__(self) -> dict:
        """Pickled (disk cache) without the lookup array, which is rebuilt on use."""
        state = dict(self.__dict__)
        state.pop("_rank_of_key", None)
        return state

    def distances(self, wildcards: int = 0) -> np.ndarray:
        """Fewest steps from each projected state to one that may be solved with ``wildcards`` wrong cells."""
        if wildcards not in self._distances:
            self._distances[wildcards] = _distances_to(self.table, self.off <= wildcards)
        return self._distances[wildcards]


def patterns(puzzle: Puzzle, goal: np.ndarray, exact: bool, *, cancel: CancelToken | None = None) -> list[Pattern]:
    """The pattern databases for positions of ``puzzle`` solved at ``goal`` (cached per moves and goal).

    Kept in the process and on disk (:func:`~hlavolamy.analysis.memo.on_disk`): without the disk, every
    process rebuilt them (a 2x2x2's six tables, most of each solve's time even with a warm cache).
    """
    goal = np.asarray(goal, dtype=np.int64)
    if exact:
        name = "solve.pdb.exact"
    else:
        name = "solve.pdb.colours." + hashlib.sha1(goal.tobytes()).hexdigest()[:16]
    return memo(puzzle, name, lambda: on_disk(puzzle, name, lambda: _build_all(puzzle, goal, exact, cancel or CancelToken()),
                                              allowed=(Pattern, Form), expect=list))


def step_perms(puzzle: Puzzle) -> tuple[list[Turn], np.ndarray]:
    """The single steps the tables are indexed by (distinct non-identity permutations) and their permutations."""
    turns, perms, seen = [], [], set()
    identity = np.arange(puzzle.n_cells)
    for t in generators(puzzle):
        p = np.asarray(puzzle.turn_perm(t), dtype=np.intp)
        if np.array_equal(p, identity) or p.tobytes() in seen:
            continue
        seen.add(p.tobytes())
        turns.append(t)
        perms.append(p)
    return turns, np.array(perms, dtype=np.intp).reshape(len(perms), puzzle.n_cells)


def projection(name: str, puzzle: Puzzle, cells: np.ndarray, classes: np.ndarray, goal: np.ndarray,
               perms: np.ndarray, *, cancel: CancelToken | None = None,
               max_states: int = MAX_PATTERN_STATES) -> Pattern:
    """The pattern reading ``cells`` (in order) and showing ``classes[label]`` at each, steps ``perms``.

    For projections chosen by other solvers (a phase's colouring, pieces of
    several orbits together). Raises :class:`PatternTooBig` past
    ``max_states`` (default :data:`MAX_PATTERN_STATES`) states or when no 64-bit key fits.
    """
    cells = np.asarray(cells, dtype=np.int64)
    point_of = np.full(puzzle.n_cells, -1, dtype=np.int64)
    point_of[cells] = np.arange(cells.size)
    return _build(_Projection(name, cells, point_of, np.asarray(classes, dtype=np.int64), 0),
                  np.asarray(goal, dtype=np.int64), perms, cancel or CancelToken(), max_states)


# -- choosing projections --------------------------------------------------------


@dataclass(frozen=True)
class _Projection:
    name: str
    cells: np.ndarray
    point_of: np.ndarray
    classes: np.ndarray
    estimate: int


def _build_all(puzzle: Puzzle, goal: np.ndarray, exact: bool, cancel: CancelToken) -> list[Pattern]:
    _, perms = step_perms(puzzle)
    structure = pieces(puzzle)
    if exact:
        candidates = [p for po in structure.piece_orbits for p in _exact_projections(puzzle, po)]
    else:
        candidates = [p for orbit in structure.orbits for p in _colour_projections(puzzle, goal, np.array(orbit))]
    built, total = [], 0
    for proj in candidates:
        if total + proj.estimate > MAX_TOTAL_STATES:
            continue
        try:
            pattern = _build(proj, goal, perms, cancel)
        except PatternTooBig:
            continue
        built.append(pattern)
        total += pattern.size
    return built


def _exact_projections(puzzle: Puzzle, po: PieceOrbit) -> list[_Projection]:
    """Whole piece orbit if it fits; else slots, turns and groups of pieces with their turn."""
    n, size = po.n_pieces, po.piece_size
    turns = len(po.orientation_group)
    cells = po.cells.ravel()
    point_of = np.full(puzzle.n_cells, -1, dtype=np.int64)
    point_of[cells] = np.arange(cells.size)
    whole = _arrangements(n, n) * turns ** (n - 1)
    if whole <= MAX_PATTERN_STATES:
        return [_tracked(puzzle, po, list(range(n)), cells, point_of, whole)]
    out = []
    slots = np.full(puzzle.n_cells, -1, dtype=np.int64)
    for q in range(n):
        slots[po.cells[q]] = q
    if _arrangements(n, n) <= MAX_PATTERN_STATES:
        classes = np.zeros(puzzle.n_cells, dtype=np.int64)
        classes[cells] = slots[cells] + 1
        out.append(_Projection(f"slots of {n} pieces", po.cells[:, 0], slots, classes, _arrangements(n, n)))
    if size > 1 and turns ** n <= MAX_PATTERN_STATES:
        classes = np.zeros(puzzle.n_cells, dtype=np.int64)
        classes[po.cells] = np.arange(size)
        out.append(_Projection(f"turns of {n} pieces", cells, point_of, classes, turns ** n))
    k = max((j for j in range(1, n + 1) if _arrangements(n, j) * turns**j <= MAX_PATTERN_STATES), default=0)
    if k:
        for start in range(0, n, k):
            group = [(start + j) % n for j in range(k)] if start + k > n else list(range(start, start + k))
            out.append(_tracked(puzzle, po, group, cells, point_of, _arrangements(n, k) * turns**k))
    return out


def _tracked(puzzle: Puzzle, po: PieceOrbit, group: list[int], cells: np.ndarray, point_of: np.ndarray,
             estimate: int) -> _Projection:
    """Pieces ``group`` tracked with their turn: each piece's first cell is its own class."""
    classes = np.zeros(puzzle.n_cells, dtype=np.int64)
    classes[po.cells[group, 0]] = np.arange(1, len(group) + 1)
    return _Projection(f"{len(group)} of {po.n_pieces} pieces with turns", cells, point_of, classes, estimate)


def _colour_projections(puzzle: Puzzle, goal: np.ndarray, orbit: np.ndarray) -> list[_Projection]:
    """The colours of an orbit if they fit; else groups of colours told apart (the other colours one class)."""
    point_of = np.full(puzzle.n_cells, -1, dtype=np.int64)
    point_of[orbit] = np.arange(orbit.size)
    colours, counts = np.unique(goal[orbit], return_counts=True)
    if colours.size < 2:
        return []
    n_labels = int(goal.max()) + 1
    whole = colourings(orbit.size, counts[:-1])
    if whole <= MAX_PATTERN_STATES:
        classes = np.zeros(n_labels, dtype=np.int64)
        classes[colours] = np.arange(colours.size)
        return [_Projection(f"colours of {orbit.size} cells", orbit, point_of, classes, whole)]
    groups: list[list[int]] = []
    for k in np.argsort(counts, kind="stable").tolist():
        if groups and colourings(orbit.size, counts[groups[-1] + [k]]) <= MAX_PATTERN_STATES:
            groups[-1].append(k)
        else:
            groups.append([k])
    out = []
    for group in groups:
        classes = np.zeros(n_labels, dtype=np.int64)
        classes[colours[group]] = np.arange(1, len(group) + 1)
        estimate = colourings(orbit.size, counts[group])
        if estimate <= MAX_PATTERN_STATES:
            out.append(_Projection(f"{len(group)} colours of {orbit.size} cells", orbit, point_of, classes, estimate))
    return out


def _arrangements(n: int, k: int) -> int:
    return math.perm(n, k)


def colourings(n: int, counts: np.ndarray) -> int:
    """Ways to place the given colour counts (the rest one more colour) on ``n`` cells."""
    out, left = 1, n
    for c in counts.tolist():
        out *= math.comb(left, c)
        left -= c
    return out


# -- building ----------------------------------------------------------------------


def _build(proj: _Projection, goal: np.ndarray, perms: np.ndarray, cancel: CancelToken,
           max_states: int = MAX_PATTERN_STATES) -> Pattern:
    """Enumerate the projected states from the goal's, rank them and tabulate the steps."""
    action = proj.point_of[perms[:, proj.cells]]
    if np.any(action < 0):
        raise PatternTooBig(f"{proj.name}: the moves carry its points outside it")
    form = _form(proj.classes[goal[proj.cells]], action)
    start = form.rows(proj.classes[goal[proj.cells]][None, :])
    rows = _enumerate(start, form, cancel, max_states)
    keys = form.keys(rows)
    order = np.argsort(keys)
    keys, rows = keys[order], rows[order]
    table = np.empty((keys.size, len(perms)), dtype=np.int32)
    direct = None
    if form.key_space <= _DIRECT_KEYS:
        direct = np.full(form.key_space, -1, dtype=np.int32)
        direct[keys] = np.arange(keys.size, dtype=np.int32)
    for lo in range(0, keys.size, _CHUNK):
        cancel.check()
        part = rows[lo:lo + _CHUNK]
        for g in range(len(perms)):
            after = form.keys(form.step(part, g))
            table[lo:lo + _CHUNK, g] = direct[after] if direct is not None else np.searchsorted(keys, after)
    off = np.count_nonzero(rows != start, axis=1).astype(np.int16)
    for arr in (keys, table, off):
        arr.flags.writeable = False
    return Pattern(proj.name, proj.cells, proj.classes, form, keys, table, off)


def _form(goal_classes: np.ndarray, action: np.ndarray) -> Form:
    """Dense when the classes of all points make a key that fits; else by points when each class shows once."""
    n = goal_classes.size
    radix = int(goal_classes.max()) + 1
    if radix <= 256 and radix**n < _KEY_LIMIT:
        return Form(action, radix, False)
    tracked = goal_classes[goal_classes > 0]
    if n < 256 and tracked.size == radix - 1 == np.unique(tracked).size and n**tracked.size < _KEY_LIMIT:
        return Form(action, radix, True)
    raise PatternTooBig("no key of 64 bits fits this pattern")


def _enumerate(start: np.ndarray, form: Form, cancel: CancelToken, max_states: int) -> np.ndarray:
    """Every projected state reachable from ``start`` (rows), breadth first, all steps at once.

    Small key spaces mark keys in a flat array (a chunk's new keys found
    without sorting); others keep the keys seen sorted and merge each level.
    """
    seen = form.keys(start)
    owner = np.full(form.key_space, -1, dtype=np.int32) if form.key_space <= _DIRECT_KEYS else None
    if owner is not None:
        owner[seen] = 0
    found = [start]
    frontier = start
    total = 1
    per_chunk = max(1, _CHUNK // form.action.shape[0])
    while frontier.shape[0]:
        rows, keys = [], []
        for lo in range(0, frontier.shape[0], per_chunk):
            cancel.check()
            children = form.children(frontier[lo:lo + per_chunk])
            ck = form.keys(children)
            if owner is not None:
                new = np.flatnonzero(owner[ck] < 0)
                owner[ck[new]] = new  # of equal keys one index is written; it marks the key seen
                new = new[owner[ck[new]] == new]
            else:
                unique, first = np.unique(ck, return_index=True)
                at = np.clip(np.searchsorted(seen, unique), 0, seen.size - 1)
                new = first[seen[at] != unique]
            rows.append(children[new])
            keys.append(ck[new])
        frontier = np.concatenate(rows)
        if owner is None:
            level_keys, first = np.unique(np.concatenate(keys), return_index=True)
            frontier = frontier[first]
            seen = np.sort(np.concatenate([seen, level_keys]), kind="stable")
        total += frontier.shape[0]
        if total > max_states:
            raise PatternTooBig(f"more than {max_states} states")
        found.append(frontier)
    return np.concatenate(found)


def _distances_to(table: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Breadth first over the step table from ``seeds`` (the steps are closed under inverses)."""
    dist = np.full(table.shape[0], 255, dtype=np.uint8)
    frontier = np.flatnonzero(seeds)
    dist[frontier] = 0
    level = 0
    while frontier.size:
        level += 1
        children = table[frontier].ravel()
        children = children[dist[children] == 255]
        dist[children] = min(level, 254)
        frontier = np.flatnonzero(dist == min(level, 254)) if children.size else children
    dist.flags.writeable = False
    return dist

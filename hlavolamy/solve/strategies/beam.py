"""The "beam" strategy: a wide beam of positions, for big groups whose macros are long (wreaths, globes).

Each level expands every kept position by every single step (with the move
pruning of :mod:`~hlavolamy.solve.strategies.optimal`), without making the
children's rows (:class:`_Children`: their hashes by one matrix product of
the parents' rows, their scores from the cells each step moves), drops
duplicates (by hash; also against the last levels, so the beam does not walk
back), scores the children (:class:`_Guide`: pattern
databases, then how far each label is from the nearest cell that wants it,
then wrong cells) and keeps the ``width`` best, at most ``width //
SPREAD`` per bucket (where one label stands: :func:`bucket_label`) so that the beam does
not collapse onto one family of near-identical positions. Every child is
also looked up in a :class:`Ball` of positions around the goal, whose way
home completes an answer. The search stops as soon as a position has at
most the allowed wildcards wrong, or when a later hit in the ball can no
longer be shorter; without an answer, ``partial`` plays the way to the
position with the fewest wrong cells, for another strategy to finish.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from threadpoolctl import ThreadpoolController

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.memo import memo
from hlavolamy.core.progress import CancelToken, ProgressCallback, Work, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Strategy
from hlavolamy.solve.strategies.search import SearchFailed
from hlavolamy.solve.tables.pdb import patterns
from hlavolamy.solve.tables.steps import step_automaton, step_path

WIDTH = 20_000
"""Positions kept per level."""
SPREAD = 16
"""A bucket (positions of :func:`bucket_label`'s label) may hold at most ``width // SPREAD`` of them."""
HEAD = 4
"""Children per kept position that :func:`_select` sorts first (the best scores, and every tie of the last)."""
MEMORY = 4
"""Levels whose positions a child may not repeat."""
MAX_DEPTH = 2_000
PATIENCE = 200
"""Levels the beam goes on without reaching fewer wrong cells."""
OTHERS = 15
"""Other solutions a caller may ask for (:func:`beam`'s ``others``; search-first finishes each). Santa cube_4 cases
150-161 with plain finishes: 7 no longer than the one played 1,179 moves, 15 up to two steps longer 1,171, 31 up
to four 1,169 (1,189 with the one played alone)..."""
OTHERS_SLACK = 2
"""...at most this many steps longer than the one played."""
MAX_CELLS = 256
"""Most moved cells of a puzzle the beam applies to..."""
MAX_STEPS = 40
"""...and most single steps (a level costs width x steps x cells)."""
CELL_UNITS = 24
"""Work units (:class:`~hlavolamy.core.progress.Work`) a level spends per child cell: generated, hashed, scored,
met with the ball, selected. ``hlavolamy bench work`` measured 8-55 ns per child cell on its 35 puzzles (48 units
when a level cost 33-58 ns; halved with every budget of the beam when levels got twice as fast). Since the children's
rows are made only for the kept ones, 4-44 ns (mean 2.45 units per ns against 1.12; 150-216 cells: 4-5 ns
against 20-28): left at 24 with the budgets as they were, so that the same budgets walk the same levels and give
the same answers, in less time."""


@dataclass
class _Level:
    rows: np.ndarray
    after: np.ndarray
    near: np.ndarray
    """Per row, its near sum (:class:`_Children`; children's follow from their parent's)."""
    hashes: np.ndarray
    ranks: np.ndarray
    """``ranks[k, r]``: row ``r``'s rank in the guide's pattern database ``k`` (children's follow by its table)."""


def nearest(puzzle: Puzzle, goal: np.ndarray) -> np.ndarray:
    """``near[i, label]``: fewest single steps that carry the content of cell ``i`` to a cell wanting ``label``.

    Multi-source breadth-first search per label over the cell graph, backwards
    from the cells that want it (a step ``m`` brings the content of ``m[t]``
    to ``t``). Unreachable: a large finite number.
    """
    perms = step_automaton(puzzle).perms
    n = puzzle.n_cells
    unset = 4 * n
    near = np.full((n, int(goal.max()) + 1), unset, dtype=np.int32)
    for label in range(near.shape[1]):
        frontier = np.flatnonzero(goal == label)
        near[frontier, label] = 0
        dist = 0
        while frontier.size:
            dist += 1
            reached = np.unique(perms[:, frontier].ravel())
            frontier = reached[near[reached, label] == unset]
            near[frontier, label] = dist
    return near


@functools.lru_cache(maxsize=8)
def _mix(words: int) -> np.ndarray:
    """Fixed odd 64-bit weights, one per 8 bytes of a row (fixed: the ball is cached with its hashes)."""
    return np.random.default_rng(words).integers(1, 2**63, size=words, dtype=np.uint64) | np.uint64(1)


def row_hashes(rows: np.ndarray) -> np.ndarray:
    """A 64-bit hash per row: its bytes read as 64-bit words, weighted and summed (wrapping)."""
    count, width = rows.shape[0], rows.shape[1] * rows.itemsize
    words = -(-width // 8)
    padded = np.zeros((count, words * 8), dtype=np.uint8)
    padded[:, :width] = np.ascontiguousarray(rows).view(np.uint8).reshape(count, width)
    return (padded.view(np.uint64) * _mix(words)).sum(axis=1)


def hash_weights(cells: int, itemsize: int) -> np.ndarray:
    """Per cell, the weight of its value in :func:`row_hashes` of rows of ``itemsize`` bytes.

    A row's hash is the wrapping sum of value x weight over its cells (a value's bytes sit in one 64-bit word, at
    a shift), so a child's hash follows from its parent's and the few cells a step moves.

    >>> rows = np.array([[3, 0, 7, 1, 2, 9, 4, 5, 6, 8]], dtype=np.uint8)
    >>> int((rows.astype(np.uint64) * hash_weights(10, 1)).sum()) == int(row_hashes(rows)[0])
    True
    """
    at = np.arange(cells) * itemsize
    return _mix(-(-cells * itemsize // 8))[at // 8] << (8 * (at % 8)).astype(np.uint64)


BALL_BYTES = 150_000_000
"""Memory for the positions around the goal (their hashes, and the rows of the outermost level)."""
BALL_STATES = 1_000_000
TOP_BITS = 24
"""A :class:`Ball` of a million positions marks one in sixteen of the 2^24 tops: the rest skip the search."""


@dataclass(frozen=True)
class Ball:
    """Every position within a few steps of the goal, by hash, with its way home.

    ``hashes`` is sorted; ``entry[k]`` is the index (into ``step``/``parent``)
    of the position with hash ``hashes[k]``; ``step[i]`` takes position ``i``
    one step nearer the goal, to position ``parent[i]`` (the goal itself: -1).
    """

    hashes: np.ndarray
    entry: np.ndarray
    dist: np.ndarray
    step: np.ndarray
    parent: np.ndarray

    def find(self, hashes: np.ndarray) -> np.ndarray:
        """Per hash: the index of its position in the ball, or -1.

        Only hashes whose top bits some position of the ball shares are searched for (a few in a hundred).
        """
        out = np.full(hashes.size, -1, dtype=np.int64)
        maybe = np.flatnonzero(self._tops[hashes >> np.uint64(64 - TOP_BITS)])
        at = np.minimum(np.searchsorted(self.hashes, hashes[maybe]), self.hashes.size - 1)
        out[maybe] = np.where(self.hashes[at] == hashes[maybe], self.entry[at], -1)
        return out

    @functools.cached_property
    def _tops(self) -> np.ndarray:
        """Whether a position of the ball has a hash with these top :data:`TOP_BITS` bits."""
        tops = np.zeros(1 << TOP_BITS, dtype=bool)
        tops[self.hashes >> np.uint64(64 - TOP_BITS)] = True
        return tops

    def home(self, index: int) -> list[int]:
        """The steps from position ``index`` to the goal."""
        out = []
        while index != 0:
            out.append(int(self.step[index]))
            index = int(self.parent[index])
        return out


def _member(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Per value of ``values`` (sorted, distinct): whether ``pool`` holds it.

    The pool's values are looked up among the values, not the other way round: the pool is the smaller (a few
    levels against a level's children), and looked up in order they read the values from front to back.
    """
    out = np.zeros(values.size, dtype=bool)
    if not (values.size and pool.size):
        return out
    pool = np.sort(pool)
    at = np.minimum(np.searchsorted(values, pool), values.size - 1)
    out[at[values[at] == pool]] = True
    return out


BALL_CHUNK = 1 << 16
"""Parents expanded between two looks at the cancel token (a rashkey's ball took 1.7 s at one go, past the limit)."""


def ball(puzzle: Puzzle, goal: np.ndarray, rows_dtype: type, states: int,
         cancel: CancelToken | None = None) -> Ball:
    """The positions around ``goal``, built once per set of moves and goal (see :func:`_grow_ball`).

    A cancelled build raises and keeps nothing, so the next solve builds it whole.
    """
    tag = goal.tobytes() + np.dtype(rows_dtype).str.encode() + str(states).encode()
    name = "solve.beam.ball." + hashlib.sha1(tag).hexdigest()[:16]
    return memo(puzzle, name, lambda: _grow_ball(puzzle, goal, rows_dtype, states, cancel or CancelToken()))


def _children(frontier: np.ndarray, back: np.ndarray, cancel: CancelToken) -> tuple[np.ndarray, np.ndarray]:
    """Every inverse step of every row of ``frontier`` (row-major: parent, then step), with their hashes."""
    rows, hashes = [], []
    for lo in range(0, frontier.shape[0], BALL_CHUNK):
        cancel.check()
        part = frontier[lo:lo + BALL_CHUNK]
        children = part.take(back, axis=1).reshape(-1, frontier.shape[1])
        rows.append(children)
        hashes.append(row_hashes(children))
    return np.concatenate(rows), np.concatenate(hashes)


def _grow_ball(puzzle: Puzzle, goal: np.ndarray, rows_dtype: type, states: int, cancel: CancelToken) -> Ball:
    """Breadth first backwards from the goal (inverse steps) until ``states`` positions or :data:`BALL_BYTES`."""
    perms = step_automaton(puzzle).perms
    back = np.argsort(perms, axis=1)
    limit = min(states, BALL_BYTES // (puzzle.n_cells * np.dtype(rows_dtype).itemsize + 24))
    frontier = goal.astype(rows_dtype)[None, :]
    hashes = [row_hashes(frontier)]
    steps, parents, dists = [np.full(1, -1, np.int32)], [np.full(1, -1, np.int64)], [np.zeros(1, np.int32)]
    offset, total = 0, 1
    while frontier.shape[0] and perms.shape[0] and total < limit:
        frontier = frontier[: -(-(limit - total) // perms.shape[0]) * 2]  # enough parents for the room left
        node, g = np.divmod(np.arange(frontier.shape[0] * perms.shape[0]), perms.shape[0])
        children, h = _children(frontier, back, cancel)
        first = _first_occurrences(h)
        # steps come with their inverses: a child is new unless it sits on its parent's level or the one before
        first = np.sort(first[~_member(h[first], np.concatenate(hashes[-2:]))])[: limit - total]
        frontier = children[first]
        hashes.append(h[first])
        steps.append(g[first].astype(np.int32))
        parents.append(node[first] + offset)
        dists.append(np.full(first.size, len(dists), np.int32))
        offset, total = total, total + first.size
    all_hashes = np.concatenate(hashes)
    order = np.argsort(all_hashes)
    return Ball(all_hashes[order], order, np.concatenate(dists), np.concatenate(steps), np.concatenate(parents))


class _Guide:
    """The beam's score of a position (lower is better), from the goal alone.

    First the sum over the pattern databases (:mod:`~hlavolamy.solve.tables.pdb`) of
    the distance of the position's projection, then the sum over cells of
    :func:`nearest`, then the wrong cells: each term breaks the ties of the one before.
    """

    def __init__(self, problem: Problem, allowed: int, cancel: CancelToken | None = None):
        puzzle = problem.puzzle
        self.near = near = nearest(puzzle, problem.goal)
        self.tables = patterns(puzzle, problem.goal, problem.exact, cancel=cancel)  # a limit may cut the build
        # each database's distances, led by what a rank of -1 (not reachable) reads: one gather at rank + 1
        self.dists = [np.r_[255, t.distances(allowed)].astype(np.uint8) for t in self.tables]
        self.scale = puzzle.n_cells + 1
        self.near_scale = int(near.max()) * puzzle.n_cells + 1

    def ranks(self, rows: np.ndarray) -> np.ndarray:
        """``out[k, r]``: the rank of row ``r`` in pattern database ``k`` (-1: not reachable)."""
        out = np.empty((len(self.tables), rows.shape[0]), dtype=np.int32)
        for k, table in enumerate(self.tables):
            out[k] = table.ranks(rows)
        return out

    def step(self, ranks: np.ndarray, child: np.ndarray) -> np.ndarray:
        """The ranks of children ``child`` (``parent * steps + step``) of rows of ``ranks``, read from the tables.

        Each parent's row of a table is read once (whole rows: few cache misses), then the children's entries.
        """
        out = np.empty((len(self.tables), child.size), dtype=np.int32)
        for k, table in enumerate(self.tables):
            rows = table.table.take(np.maximum(ranks[k], 0), axis=0)
            rows[ranks[k] < 0] = -1  # not reachable: nor are its children
            rows.take(child, out=out[k])
        return out

    def score(self, near: np.ndarray, ranks: np.ndarray) -> np.ndarray:
        """Scores from the rows' near sums (:class:`_Children`: nearest distances, then wrong cells) and ranks."""
        far = np.zeros(near.shape[0], dtype=np.int64)
        for k, dist in enumerate(self.dists):
            far += dist.take(ranks[k] + 1)
        return near + far * (self.near_scale * self.scale)


class _Children:
    """What a level needs of every child, worked out from the parents' rows without making the children's.

    Per child: its hash (:func:`row_hashes`), its bucket (:func:`row_hashes` of ``row == rare``) and its near sum
    (over cells, the guide's nearest distance x ``scale``, + 1 where the cell is wrong: ``% scale`` is the wrong
    cells). A hash is linear in the cells' values, so the hashes of every step's child are one matrix product of
    the parents' rows with the weights each step moves; a step changes the near sum only on the cells it moves
    (a fifth of the cells on a 4x4x4's wings). Only the kept children get rows.
    """

    def __init__(self, near: np.ndarray, goal: np.ndarray, rare: int, itemsize: int, perms: np.ndarray):
        cells, labels = near.shape
        self.scale = cells + 1
        self.rare = rare
        wrong = np.arange(labels)[None, :] != goal[:, None]
        terms = near.astype(np.int64) * self.scale + wrong
        self.by_cell = terms.astype(np.int32 if terms.max() < 2**31 else np.int64)
        """``by_cell[cell, label]``: the near sum's term of ``label`` standing in ``cell`` (int32 while it fits: half
        the bytes gathered)."""
        self.sum_type = np.int32 if int(terms.max()) * cells < 2**31 else np.int64
        """What a row's sum fits in (int32: half the bytes added)."""
        self.table = self.by_cell.ravel()
        self.offsets = np.arange(cells, dtype=np.int64) * labels
        identity = np.arange(cells)
        moved = [np.flatnonzero(p != identity) for p in perms]
        self.moved = [m.tolist() for m in moved]
        self.sources = [p[m].tolist() for p, m in zip(perms, moved)]
        # a step and its inverse move the same cells: their sums before the step are worked out once
        supports = {m.tobytes(): k for k, m in reversed(list(enumerate(moved)))}
        self.support = [supports[m.tobytes()] for m in moved]
        """``support[g]``: the first step that moves the cells step ``g`` moves."""
        # step g takes the value of cell i to cell inverse[g, i]: its child weighs it by that cell's weight
        inverse = np.argsort(perms, axis=1)
        self.hash_weights = _Product(hash_weights(cells, itemsize)[inverse].T, int(goal.max()))
        self.bucket_weights = _Product(hash_weights(cells, 1)[inverse].T, 1)

    def near(self, rows: np.ndarray) -> np.ndarray:
        """The near sums of whole rows."""
        return self.table[rows + self.offsets].sum(axis=1, dtype=np.int64)

    def near_steps(self, rows: np.ndarray) -> np.ndarray:
        """``out[r, g]``: what step ``g`` adds to the near sum of row ``r``.

        A cell at a time over all rows: the term of the label that cell ``c`` receives from cell ``s`` is one
        gather of ``s``'s column from ``c``'s row of terms (a few dozen entries, in cache), added up in place;
        a twentieth of the memory traffic of indexing one flat table by computed indices (Santa cube_4's levels:
        75 -> 31 ms).
        """
        columns = np.ascontiguousarray(rows.T, dtype=np.intp)
        count = rows.shape[0]
        here = np.empty((len(self.by_cell), count), dtype=self.sum_type)
        for cell, terms in enumerate(self.by_cell):
            here[cell] = terms.take(columns[cell])
        out = np.empty((count, len(self.moved)), dtype=np.int64)
        before: dict[int, np.ndarray] = {}
        total = np.empty(count, dtype=self.sum_type)
        term = np.empty(count, dtype=self.by_cell.dtype)
        for g, (cells, sources) in enumerate(zip(self.moved, self.sources)):
            if self.support[g] == g:
                before[g] = here[cells].sum(axis=0, dtype=self.sum_type)
            total[:] = 0
            for cell, source in zip(cells, sources):
                self.by_cell[cell].take(columns[source], out=term)
                total += term
            out[:, g] = total - before[self.support[g]]
        return out

    def hashes(self, rows: np.ndarray) -> np.ndarray:
        """``out[r, g]``: :func:`row_hashes` of row ``r`` after step ``g``."""
        return self.hash_weights.times(rows)

    def buckets(self, rows: np.ndarray) -> np.ndarray:
        """``out[r, g]``: the bucket of row ``r`` after step ``g``."""
        return self.bucket_weights.times(rows == self.rare)


@functools.cache
def _blas() -> ThreadpoolController:
    """The BLAS libraries loaded (found once: numpy's is loaded with numpy)."""
    return ThreadpoolController()


class _Product:
    """Right multiplication by a matrix of uint64 weights, wrapping as uint64 arithmetic does.

    Numpy multiplies integer matrices without BLAS; here the weights are cut into slices of bits narrow enough
    that float64 products of rows of small values (at most ``most``) by them are exact, and the slices' products
    are shifted back together: four to five times as fast as ``rows.astype(uint64) @ weights``.

    >>> weights = np.array([[2**64 - 1, 3], [2**40 + 7, 2**63]], dtype=np.uint64)
    >>> rows = np.array([[5, 1], [0, 2]], dtype=np.uint8)
    >>> bool((_Product(weights, 5).times(rows) == rows.astype(np.uint64) @ weights).all())
    True
    """

    def __init__(self, weights: np.ndarray, most: int):
        self.columns = weights.shape[1]
        self.bits = 53 - (max(1, most) * weights.shape[0]).bit_length()
        mask = np.uint64((1 << self.bits) - 1)
        self.slices = np.hstack([((weights >> np.uint64(shift)) & mask).astype(np.float64)
                                 for shift in range(0, 64, self.bits)])

    def times(self, rows: np.ndarray) -> np.ndarray:
        # one BLAS thread: a second one halves no wall time on these sizes and spins a core (the batch has its own)
        with _blas().limit(limits=1, user_api="blas"):
            exact = rows.astype(np.float64) @ self.slices
        out = np.zeros((rows.shape[0], self.columns), dtype=np.uint64)
        for k, shift in enumerate(range(0, 64, self.bits)):
            out += exact[:, k * self.columns:(k + 1) * self.columns].astype(np.uint64) << np.uint64(shift)
        return out


def beam(problem: Problem, *, width: int | None = None, work: Work | None = None, shorter_than: int | None = None,
         partial: bool = False, cancel: CancelToken | None = None, progress: ProgressCallback | None = None,
         others: list[list[Turn]] | None = None) -> None:
    """Play a solution found by the beam (fewer than ``shorter_than`` steps, if given).

    Where ``others`` is given, other solutions are put there (other children on the goal, other ways through
    the ball, at most :data:`OTHERS`, at most :data:`OTHERS_SLACK` steps longer; with ``partial`` and no
    solution, the other positions as close of the level that first came that close): they end in other
    positions of the rest of the puzzle, which another strategy may finish more cheaply.

    Raises :class:`SearchFailed` when it runs out of depth, positions,
    ``work`` (a budget of units, :data:`CELL_UNITS` per child cell: the same
    levels on a busy machine) or patience (:data:`PATIENCE` levels without a
    new fewest wrong cells); with ``partial`` it then plays the way to the
    position with the fewest wrong cells instead, for another strategy to finish.
    """
    if problem.care is not None:
        raise SearchFailed("the beam solves whole puzzles only")
    if problem.is_solved():
        return
    puzzle = problem.puzzle
    steps = step_automaton(puzzle)
    if not steps.turns:
        raise SearchFailed("the puzzle has no moves")
    width = WIDTH if width is None else width
    allowed = problem.wildcards if problem.slack is None else problem.slack
    work = work or Work()
    dtype = np.uint8 if problem.goal.max() < 256 else np.int32
    goal = problem.goal.astype(dtype)
    report(progress, 0.0, "beam: tables")
    guide = _Guide(problem, allowed, cancel)
    known = ball(puzzle, problem.goal, dtype, BALL_STATES, cancel)
    rare = bucket_label(puzzle, problem.goal)
    rng = np.random.default_rng(0)
    children = _Children(guide.near, problem.goal, rare, np.dtype(dtype).itemsize, steps.perms)
    start = problem.labels.astype(dtype)[None, :]
    level = _Level(start, np.zeros(1, dtype=np.int32), children.near(start), row_hashes(start), guide.ranks(start))
    recent = [level.hashes]
    parents: list[tuple[np.ndarray, np.ndarray]] = []
    found: list[list[int]] = []
    longer = OTHERS_SLACK if others is not None else -1  # how much longer than the best a kept way may be
    _meet(known, level.hashes, start.__getitem__, steps.perms, goal, parents, 0, found, longer)
    best = min(found, key=len) if found else None
    limit = min(MAX_DEPTH, shorter_than - 1 if shorter_than is not None else MAX_DEPTH)
    closest: tuple[int, list[int]] = (problem.wrong(), [])
    nearest_ways: list[list[int]] = []
    gained = 0
    for depth in range(limit):
        if best is not None and (depth + 1 > len(best) + longer or (others is not None and len(found) > OTHERS)):
            break
        if cancel is not None:
            cancel.check()
        if work.exhausted:
            break
        after = steps.after[level.after]
        child = np.flatnonzero(after >= 0)  # index into (parent, step) tables, raveled
        node, g = np.divmod(child, after.shape[1])
        work.spend(CELL_UNITS * child.size * puzzle.n_cells)
        parents.append((node.astype(np.int32), g.astype(np.int32)))
        near = level.near[node] + children.near_steps(level.rows).take(child)
        wrong = near % children.scale
        hit = np.flatnonzero(wrong <= allowed)
        if hit.size:
            found += [step_path(parents, int(k)) for k in hit[:OTHERS + 1]]
            best = min(found, key=len)
            if others is None:
                break
        hashes = children.hashes(level.rows).take(child)
        rows, perms = level.rows, steps.perms  # the kept children alone get rows: a child the ball knows, on demand
        _meet(known, hashes, lambda k: _children_of(rows, perms, node[k:k + 1], g[k:k + 1])[0], perms, goal,
              parents, depth + 1, found, longer)
        best = min(found, key=len) if found else None
        keep = _fresh(hashes, recent)
        if not keep.size:
            break
        ranks = guide.step(level.ranks, child[keep])
        buckets = children.buckets(level.rows).take(child[keep])
        picked = _select(guide.score(near[keep], ranks), buckets, width, max(1, width // SPREAD), rng)
        chosen = keep[picked]
        level = _Level(_children_of(level.rows, steps.perms, node[chosen], g[chosen]),
                       after.take(child[chosen]), near[chosen], hashes[chosen], ranks[:, picked])
        parents[-1] = (node[chosen].astype(np.int32), g[chosen].astype(np.int32))
        recent = (recent + [level.hashes])[-MEMORY:]
        fewest = int(np.argmin(wrong[chosen]))
        if wrong[chosen][fewest] < closest[0]:
            closest, gained = (int(wrong[chosen][fewest]), step_path(parents, fewest)), depth
            if others is not None:  # as close, as long: other hand-over positions
                ties = np.flatnonzero(wrong[chosen] == closest[0])[:OTHERS + 1]
                nearest_ways = [step_path(parents, int(k)) for k in ties]
        elif depth - gained > PATIENCE:
            break
        report(progress, min(0.95, depth / limit), f"beam: depth {depth + 1}, best {int(wrong[keep].min())} wrong")
    if best is None and partial and closest[1]:
        best = closest[1]
        found = nearest_ways
    if best is None or (shorter_than is not None and len(best) >= shorter_than):
        raise SearchFailed("the beam found no solution" + ("" if shorter_than is None else
                                                           f" shorter than {shorter_than} steps"))
    problem.play([steps.turns[s] for s in best])
    if others is not None:
        ways = {tuple(way): None for way in sorted(found, key=len) if len(way) <= len(best) + longer}
        ways.pop(tuple(best))
        others += [[steps.turns[s] for s in way] for way in ways][:OTHERS]


def bucket_label(puzzle: Puzzle, goal: np.ndarray) -> int:
    """The label whose places bucket a level: the rarest of those with at least :data:`SPREAD` ways to stand.

    With fewer ways the cap (``width // SPREAD`` a bucket) starves the beam: search-first's ring of a parity
    (two cells, one label each) made two buckets, and a "20,000" beam kept 2,500 positions a level. Where no
    label has the ways, the one with the most.

    >>> eight = Puzzle(list("aabbccddpq"), {"t": [1, 2, 3, 4, 5, 6, 7, 0, 9, 8]})  # and a parity ring "pq"
    >>> bucket_label(eight, np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 5]))  # "a": 28 ways; "p" (the rarest): 2
    0
    """
    structure = pieces(puzzle)
    orbit_of = structure.orbit_of(puzzle.n_cells)

    def rank(label: int) -> tuple[bool, int, int]:
        where = orbit_of[goal == label]
        ways = math.prod(math.comb(len(structure.orbits[k]), int(count))
                         for k, count in zip(*np.unique(where[where >= 0], return_counts=True)))
        return ways < SPREAD, where.size if ways >= SPREAD else -ways, label

    return min((int(label) for label in np.unique(goal)), key=rank)


def _children_of(rows: np.ndarray, perms: np.ndarray, node: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Row ``k``: step ``g[k]`` applied to row ``node[k]`` (one gather per step)."""
    out = np.empty((node.size, rows.shape[1]), dtype=rows.dtype)
    for step in np.unique(g):
        at = np.flatnonzero(g == step)
        out[at] = rows[node[at]].take(perms[step], axis=1)
    return out


def _fresh(hashes: np.ndarray, recent: list[np.ndarray]) -> np.ndarray:
    """Indices of the first of each hash, leaving out hashes seen in the last levels (ascending)."""
    first = _first_occurrences(hashes)
    keep = np.zeros(hashes.size, dtype=bool)
    keep[first[~_member(hashes[first], np.concatenate(recent))]] = True
    return np.flatnonzero(keep)


def _first_occurrences(values: np.ndarray) -> np.ndarray:
    """Per distinct value, the index of its first occurrence (ordered by value), as ``np.unique``'s
    ``return_index``.

    Where ``values`` are 64-bit hashes, each one's top bits and its index share one key, so one sort of keys (a
    plain sort, not an argsort: less than half the time) puts equal values together, first occurrence first;
    if two different values share their top bits, an unstable argsort of the values instead.
    """
    count = values.size
    if not count:
        return np.zeros(0, dtype=np.int64)
    bits = max(1, (count - 1).bit_length())
    if values.dtype == np.uint64 and bits < 32:
        shift, mask = np.uint64(bits), np.uint64((1 << bits) - 1)
        keys = np.sort((values & ~mask) | np.arange(count, dtype=np.uint64))
        index = (keys & mask).astype(np.int64)
        same = (keys[1:] >> shift) == (keys[:-1] >> shift)
        ordered = values[index]
        if np.array_equal(ordered[1:][same], ordered[:-1][same]):
            return index[np.r_[True, ~same]]
    order = np.argsort(values)
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    return np.minimum.reduceat(order, starts)


def _meet(ball: Ball, hashes: np.ndarray, row_of: Callable[[int], np.ndarray], perms: np.ndarray,
          goal: np.ndarray, parents: list[tuple[np.ndarray, np.ndarray]], depth: int, found: list[list[int]],
          longer: int) -> None:
    """Add to ``found`` the shortest ways through positions of this level that the ball knows (at most
    :data:`OTHERS` + 1, none more than ``longer`` steps longer than the shortest found; -1: only shorter ones).

    The way home is replayed from ``row_of(k)``, the position of hash ``k``, before it is taken (two positions may
    share a hash).
    """
    hits = ball.find(hashes)
    inside = np.flatnonzero(hits >= 0)
    if not inside.size:
        return
    shortest = min((len(way) for way in found), default=None)
    for k in inside[np.argsort(ball.dist[hits[inside]], kind="stable")][:OTHERS + 1].tolist():
        if shortest is not None and depth + ball.dist[hits[k]] > shortest + longer:
            break
        home = ball.home(int(hits[k]))
        row = row_of(k)
        for g in home:
            row = row[perms[g]]
        if np.array_equal(row, goal):
            found.append(step_path(parents, k) + home)
            shortest = len(found[-1]) if shortest is None else min(shortest, len(found[-1]))


def _select(score: np.ndarray, buckets: np.ndarray, width: int, cap: int, rng: np.random.Generator) -> np.ndarray:
    """Indices of the best ``width`` scores, at most ``cap`` per bucket (ties broken at random).

    The children scoring at most the ``HEAD * width``-th best are sorted first: where they fill the width, the
    rest could only come after them (the same choice as sorting all, in a fraction of the time).
    """
    noise = rng.random(score.size)
    if score.size <= width:
        return _by_score(score, noise, np.arange(score.size))
    if HEAD * width < score.size:
        head = np.flatnonzero(score <= np.partition(score, HEAD * width)[HEAD * width])
        picked = _capped(_by_score(score, noise, head), buckets, width, cap)
        if picked.size == width:
            return picked
    return _capped(_by_score(score, noise, np.arange(score.size)), buckets, width, cap)


def _by_score(score: np.ndarray, noise: np.ndarray, among: np.ndarray) -> np.ndarray:
    """``among`` ordered by score, equal scores by noise: ``np.lexsort``'s order, by one sort of a single integer
    key (the score's offset, then the noise's rank), twice as fast.

    >>> score, noise = np.array([5, 3, 5, 3, 9]), np.array([0.4, 0.9, 0.1, 0.2, 0.5])
    >>> _by_score(score, noise, np.arange(5)).tolist() == np.lexsort((noise, score)).tolist()
    True
    """
    count = among.size
    if not count:
        return among
    mine, theirs = score[among], noise[among]
    by_noise = np.argsort(theirs)
    ordered = theirs[by_noise]
    low, span = mine.min(), int(mine.max()) - int(mine.min()) + 1
    if span >= 2**62 // count or np.any(ordered[1:] == ordered[:-1]):  # the key would overflow; equal noise
        return among[np.lexsort((theirs, mine))]
    rank = np.empty(count, dtype=np.int64)
    rank[by_noise] = np.arange(count)
    return among[np.argsort((mine - low) * count + rank)]


def _capped(order: np.ndarray, buckets: np.ndarray, width: int, cap: int) -> np.ndarray:
    """The first ``width`` of ``order`` (a best-first prefix of all children) that are among the first ``cap``
    of their bucket."""
    by_bucket = np.argsort(buckets[order], kind="stable")
    sorted_buckets = buckets[order][by_bucket]
    starts = np.flatnonzero(np.r_[True, sorted_buckets[1:] != sorted_buckets[:-1]])
    rank_sorted = np.arange(order.size) - np.repeat(starts, np.diff(np.r_[starts, order.size]))
    rank = np.empty(order.size, dtype=np.int64)
    rank[by_bucket] = rank_sorted
    return order[rank < cap][:width]


def beam_feasible(problem: Problem) -> bool:
    """Whole puzzles small enough for a level to be cheap: few moved cells and few single steps."""
    puzzle = problem.puzzle
    return (problem.care is None and pieces(puzzle).moved_cells <= MAX_CELLS
            and len(step_automaton(puzzle).turns) <= MAX_STEPS)


STRATEGY = Strategy(
    "beam", "a wide beam scored by pattern databases, met by a ball around the goal: big groups with long macros",
    lambda problem, context: beam(problem, cancel=context.cancel, progress=context.progress),
    applies=lambda problem, context: beam_feasible(problem))

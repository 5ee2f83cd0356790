"""Targeted set-ups: the shortest ``A`` carrying a macro's 3-cycle onto three chosen cells.

The thesis's step: to move the content of cell ``j`` to ``i`` (and ``k`` to
``j``, ``i`` to ``k``) with a macro that cycles cells ``a -> b -> c`` (in
the sense ``m[a] = b``), find a word ``A`` with ``A[a] = i``, ``A[b] = j``,
``A[c] = k``; then ``A m A'`` does exactly that cycle (and, for a piece
3-cycle, carries the rest of the pieces along). Breadth-first search over
triples of the group's cells (at most ``n**3`` states, all in numpy arrays)
gives the shortest ``A`` for every target triple at once. The greedy solver
uses it when its fixed table of set-ups has no conjugate that helps.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from hlavolamy.core.turns import Turn

MAX_TRIPLES = 8_000_000
"""Largest ``n**3`` searched (a group of up to 200 cells)."""


_UNCLAIMED = np.iinfo(np.int32).max
_LEVEL_AT_ONCE = 256
"""Largest level of a search grown for all steps at once (bigger ones step after step)."""


class TripleSteps:
    """A group's steps acting on triples of its cells, coded ``(x * n + y) * n + z``: what its searches share.

    A search grows small levels for every step at once
    (:meth:`TripleSearch._level_at_once`): a 5x5x5's first answer makes 96
    searches of a few milliseconds each, mostly of such levels, a fifth faster so.
    """

    def __init__(self, gens: list[Turn], perms: np.ndarray):
        n = perms.shape[1]
        self.gens, self.n = gens, n
        low = perms.astype(np.int64)  # intp: take() converts other index types at every call
        self._parts = (low * (n * n), low * n, low)  # a step's image of x, y, z as their parts of a triple's code
        self.first = np.full(n ** 3, _UNCLAIMED, dtype=np.int32)
        """Scratch for :meth:`TripleSearch._level_at_once`: per code the first place it was met at in a level."""

    def images(self, codes: np.ndarray) -> np.ndarray:
        """Every step's image of each code: steps x codes."""
        n = self.n
        high, middle, low = self._parts
        return high[:, codes // (n * n)] + middle[:, (codes // n) % n] + low[:, codes % n]

    def each_step(self, codes: np.ndarray) -> Iterator[np.ndarray]:
        """Each step's image of the codes, one step after another (a big level's children need not be held
        at once)."""
        n = self.n
        x, y, z = codes // (n * n), (codes // n) % n, codes % n
        for high, middle, low in zip(*self._parts):
            child = np.take(high, x)
            child += np.take(middle, y)
            child += np.take(low, z)
            yield child


class TripleSearch:
    """Shortest set-ups from one triple ``(a, b, c)`` of local cells to every reachable triple."""

    def __init__(self, steps: TripleSteps, triple: tuple[int, int, int]):
        n = steps.n
        self.n = n
        self.gens = steps.gens
        size = n ** 3
        self.step = np.full(size, -1, dtype=np.int16)
        self.parent = np.full(size, -1, dtype=np.int32)
        start = self.code(*triple)
        self.step[start] = len(self.gens)
        frontier = np.array([start], dtype=np.int64)
        while frontier.size:
            if frontier.size <= _LEVEL_AT_ONCE:
                frontier = self._level_at_once(steps, frontier)
                continue
            found = []
            for g, child in enumerate(steps.each_step(frontier)):
                # a step is a bijection of triples and the frontier holds each triple once, so the children of
                # one step are distinct: no sort needed (the steps before it this level already took theirs)
                new = np.take(self.step, child) < 0
                child = child[new]
                self.step[child] = g
                self.parent[child] = frontier[new]
                found.append(child)
            frontier = np.concatenate(found)

    def _level_at_once(self, steps: TripleSteps, frontier: np.ndarray) -> np.ndarray:
        """One level's children of every step at once; a triple met more than once is taken where first met (the
        lowest step), as step after step would. For small levels, where numpy's calls per step cost most."""
        child = steps.images(frontier).ravel()
        at = np.flatnonzero(self.step[child] < 0).astype(np.int32)
        fresh = child[at]
        np.minimum.at(steps.first, fresh, at)
        at = at[steps.first[fresh] == at]
        steps.first[fresh] = _UNCLAIMED
        child = child[at]
        self.step[child] = at // frontier.size
        self.parent[child] = frontier[at % frontier.size]
        return child

    def code(self, x: int, y: int, z: int | np.ndarray) -> int | np.ndarray:
        return (x * self.n + y) * self.n + z

    def reachable(self, x: int, y: int, z: int) -> bool:
        return bool(self.step[self.code(x, y, z)] >= 0)

    def first_reachable(self, x: int, y: int, zs: np.ndarray) -> int | None:
        """The first ``z`` of ``zs`` with ``(x, y, z)`` reachable (None: none), in one gather: the greedy's
        aiming asked cell after cell, 40 million calls in a helicopter's finishes."""
        hits = np.flatnonzero(self.step[self.code(x, y, zs)] >= 0)
        return int(zs[hits[0]]) if hits.size else None

    def depth(self, x: int, y: int, z: int) -> int:
        """Length of the shortest set-up reaching ``(x, y, z)``."""
        code, steps = self.code(x, y, z), 0
        while self.step[code] != len(self.gens):
            code = int(self.parent[code])
            steps += 1
        return steps

    def setup(self, x: int, y: int, z: int) -> list[Turn]:
        """The word ``A`` with ``A[a], A[b], A[c] = x, y, z`` (each step was prepended, so read back)."""
        code = self.code(x, y, z)
        path = []
        while self.step[code] != len(self.gens):
            path.append(self.gens[self.step[code]])
            code = int(self.parent[code])
        return path

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

import numpy as np

from hlavolamy.core.turns import Turn

MAX_TRIPLES = 8_000_000
"""Largest ``n**3`` searched (a group of up to 200 cells)."""


class TripleSearch:
    """Shortest set-ups from one triple ``(a, b, c)`` of local cells to every reachable triple."""

    def __init__(self, gens: list[Turn], perms: np.ndarray, triple: tuple[int, int, int]):
        n = perms.shape[1]
        self.n = n
        self.gens = gens
        size = n ** 3
        self.step = np.full(size, -1, dtype=np.int16)
        self.parent = np.full(size, -1, dtype=np.int32)
        start = self.code(*triple)
        self.step[start] = len(gens)
        frontier = np.array([start], dtype=np.int64)
        perms = perms.astype(np.int64)  # intp: take() converts other index types at every call
        high, middle = perms * (n * n), perms * n  # a step's image of x, y as their parts of a triple's code
        while frontier.size:
            x, y, z = frontier // (n * n), (frontier // n) % n, frontier % n
            found = []
            for g in range(len(perms)):
                # a step is a bijection of triples and the frontier holds each triple once, so the children of
                # one step are distinct: no sort needed (the steps before it this level already took theirs)
                child = np.take(high[g], x)
                child += np.take(middle[g], y)
                child += np.take(perms[g], z)
                new = np.take(self.step, child) < 0
                child = child[new]
                self.step[child] = g
                self.parent[child] = frontier[new]
                found.append(child)
            frontier = np.concatenate(found) if found else frontier[:0]

    def code(self, x: int, y: int, z: int) -> int:
        return (x * self.n + y) * self.n + z

    def reachable(self, x: int, y: int, z: int) -> bool:
        return bool(self.step[self.code(x, y, z)] >= 0)

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

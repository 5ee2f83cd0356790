"""Randomized Schreier–Sims and Jordan's test on numpy arrays: the group facts a first answer needs, at once.

sympy's algorithms (:mod:`~hlavolamy.analysis.membership`) run in pure
Python and cost a quarter of a second to import; a 5x5x5's first answer
needed them only to learn the basic orbits of its quotient's chain and
whether some pieces move as an alternating or symmetric group (0.3 s of
its 1.8 s). Here both run on arrays of images (``p[i]`` is where ``p``
sends ``i``; the puzzle's move arrays read so generate the same group).

Both are one-sided: a randomized chain's order is at most the group's
(a caller proves it by reaching an upper bound, else falls back on sympy's
deterministic algorithm), and a "yes" of Jordan's test is a proof. Both
draw from a seeded generator: the same answer in every run.

>>> rotation = np.roll(np.arange(8), 1)
>>> swap = np.array([1, 0, 2, 3, 4, 5, 6, 7])
>>> [int(o.size) for o in basic_orbits(np.stack([rotation, swap]), range(8))]
[8, 7, 6, 5, 4, 3, 2, 1]
>>> is_alt_sym(np.stack([rotation, swap]))
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from hlavolamy.analysis.modular import is_prime
from hlavolamy.analysis.unionfind import merge_pairs
from hlavolamy.core import perm as P

SEED = 0
"""Seed of the product replacement: the same random elements, so the same chain and the same work, every run."""


class RandomElements:
    """Nearly uniform random elements of the group ``gens`` generate, by product replacement (as sympy's and
    GAP's ``random_pr``): a few elements multiplied into one another, an accumulator multiplied by them."""

    def __init__(self, gens: np.ndarray, seed: int = SEED, size: int = 10, warm_up: int = 50):
        self.rng = np.random.default_rng(seed)
        pool = [gens[k % len(gens)] for k in range(max(size, len(gens)))]
        self.pool = np.stack(pool).astype(np.intp)
        self.accumulator = np.arange(gens.shape[1], dtype=np.intp)
        for _ in range(warm_up):
            self.next()

    def next(self) -> np.ndarray:
        s, t = self.rng.choice(self.pool.shape[0], size=2, replace=False)
        other = self.pool[t] if self.rng.random() < 0.5 else P.inverse(self.pool[t])
        self.pool[s] = other[self.pool[s]] if self.rng.random() < 0.5 else self.pool[s][other]
        self.accumulator = self.pool[s][self.accumulator]
        return self.accumulator.copy()


class Level:
    """One base point's basic orbit: its points, and per point a transversal element ``u`` (``u[base] = point``)
    with its inverse (rows of :attr:`forward` and :attr:`backward`, in the order of :attr:`points`), grown as
    strong generators come."""

    def __init__(self, point: int, n: int):
        self.point = point
        self.gens: list[np.ndarray] = []
        self.where = np.full(n, -1, dtype=np.intp)
        """Per point its row in :attr:`points`, -1 off the orbit."""
        self.points = np.array([point], dtype=np.intp)
        self.forward = np.arange(n, dtype=np.intp)[None, :]
        self.backward = self.forward.copy()
        self.where[point] = 0

    def add(self, gen: np.ndarray) -> None:
        """A new strong generator: the orbit closed under it and the others."""
        self.gens.append(gen)
        rows, gens = np.arange(self.points.size), [gen]
        while rows.size:
            grown = []
            for g in gens:
                images = g[self.points[rows]]
                fresh = self.where[images] < 0
                images, first = np.unique(images[fresh], return_index=True)
                if not images.size:
                    continue
                sources = rows[fresh][first]
                start = self.points.size
                self.points = np.concatenate([self.points, images])
                self.where[images] = np.arange(start, self.points.size)
                forward = g[self.forward[sources]]  # u, then g
                backward = np.empty_like(forward)
                np.put_along_axis(backward, forward, np.arange(forward.shape[1], dtype=np.intp)[None, :], axis=1)
                self.forward = np.concatenate([self.forward, forward])
                self.backward = np.concatenate([self.backward, backward])
                grown.append(np.arange(start, self.points.size))
            rows, gens = (np.concatenate(grown) if grown else rows[:0]), self.gens


def basic_orbits(gens: np.ndarray, base: Iterable[int], patience: int = 10, seed: int = SEED) -> list[np.ndarray]:
    """The basic orbits of ``base`` (it must hold every point the generators, rows of an array, move) by
    randomized Schreier–Sims (:func:`random_chain`)."""
    return [level.points for level in random_chain(gens, base, patience, seed)]


def random_chain(gens: np.ndarray, base: Iterable[int], patience: int = 10, seed: int = SEED) -> list[Level]:
    """A stabiliser chain of the group ``gens`` (rows of an array) generate, one level per point of ``base`` (it
    must hold every point they move), by randomized Schreier–Sims.

    Random elements are sifted through the levels; one that does not sift to
    the identity becomes a strong generator of the levels whose base points it
    fixes. It stops after ``patience`` sifts in a row reach the identity: the
    product of the orbit sizes, the chain's order, is then the group's with
    probability at least ``1 - 2**-patience``, and never more.
    """
    gens = np.asarray(gens, dtype=np.intp)
    levels = _levels(gens, base)
    moved = np.flatnonzero(np.any(gens != np.arange(gens.shape[1]), axis=0))
    if np.any(np.isin(moved, [level.point for level in levels], invert=True)):
        raise ValueError("the base must hold every point the generators move")
    for g in gens:
        _strengthen(levels, g)
    elements = RandomElements(gens, seed) if len(gens) else None
    quiet = 0
    while elements is not None and quiet < patience:
        quiet = quiet + 1 if _strengthen(levels, elements.next()) else 0
    return levels


def strong_chain(strong: np.ndarray, base: Iterable[int]) -> list[Level]:
    """The stabiliser chain of a base and a strong generating set for it (rows of an array, as from sympy's
    deterministic Schreier–Sims): each level closed under the strong generators that fix the base points
    before it."""
    strong = np.asarray(strong, dtype=np.intp)
    levels = _levels(strong, base)
    points = [level.point for level in levels]
    for depth, level in enumerate(levels):
        for g in strong[np.all(strong[:, points[:depth]] == points[:depth], axis=1)]:
            level.add(g)
    return levels


def _levels(gens: np.ndarray, base: Iterable[int]) -> list[Level]:
    return [Level(int(b), gens.shape[1]) for b in base]


def sift(levels: list[Level], element: np.ndarray) -> tuple[int, np.ndarray]:
    """``element`` divided level by level by the transversal element for its image of each base point: (the
    levels passed, the residue). A member of the chain's group passes them all and leaves the identity.

    One element at a time, as the randomized chain sifts: a row gathered by plain indexing, three times faster
    on a 4x4x4's chain than :func:`sift_all` of one row (which many rows at once repay)."""
    for depth, level in enumerate(levels):
        row = level.where[element[level.point]]
        if row < 0:
            return depth, element
        element = level.backward[row][element]
    return len(levels), element


def complete_chain(levels: list[Level]) -> list[Level]:
    """Make a chain complete (deterministic Schreier–Sims): every Schreier generator of every level, ``u_p``
    then a strong generator ``s`` then ``u_{s(p)}`` undone, sifts through the levels below it to the
    identity; the first residue that does not becomes a strong generator and the test goes on from the deepest
    level it reached. Then the chain's order is the group's, proven (for small groups: its cost is every orbit
    point times every strong generator, in numpy a level's generators at once)."""
    j = len(levels) - 1
    while j >= 0:
        failed = _failing_schreier_generator(levels, j)
        if failed is None:
            j -= 1
            continue
        depth, residue = failed  # it fixes the base points of levels 0..j+depth
        for upper in levels[:j + depth + 2]:
            upper.add(residue)
        j = min(j + depth + 1, len(levels) - 1)
    return levels


def _failing_schreier_generator(levels: list[Level], j: int) -> tuple[int, np.ndarray] | None:
    """(levels passed below ``j``, residue) of the first Schreier generator of level ``j`` not sifting to the
    identity through the levels below it, or None."""
    level, below = levels[j], levels[j + 1:]
    for s in list(level.gens):
        schreier = np.take_along_axis(level.backward[level.where[s[level.points]]], s[level.forward], axis=1)
        depth, residue = sift_all(below, schreier)
        bad = np.flatnonzero((depth < len(below)) | np.any(residue != np.arange(residue.shape[1]), axis=1))
        if bad.size:
            return int(depth[bad[0]]), residue[bad[0]]
    return None


def sift_all(levels: list[Level], elements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sift` of each row of ``elements`` at once: (levels passed per row, residues)."""
    elements = elements.copy()
    depth = np.full(elements.shape[0], len(levels))
    active = np.arange(elements.shape[0])
    for k, level in enumerate(levels):
        rows = level.where[elements[active, level.point]]
        stopped = rows < 0
        depth[active[stopped]] = k
        active, rows = active[~stopped], rows[~stopped]
        elements[active] = np.take_along_axis(level.backward[rows], elements[active], axis=1)
    return depth, elements


def _strengthen(levels: list[Level], element: np.ndarray) -> bool:
    """Sift ``element``; True if it reached the identity, else its residue became a strong generator."""
    depth, residue = sift(levels, element)
    if depth == len(levels):
        return True  # the base holds every moved point: the residue fixes them all
    for upper in levels[:depth + 1]:  # the residue fixes the base points above: it is in their stabilisers
        upper.add(residue)
    return False


def is_alt_sym(gens: np.ndarray, eps: float = 1e-9, seed: int = SEED) -> bool:
    """True when ``gens`` (rows of an array, on at least 8 points) provably generate the alternating or symmetric group.

    Jordan: a transitive group of degree ``n`` holding an element with a cycle
    of prime length ``p``, ``n/2 < p < n - 2``, is one of them. Such elements are
    about ``log 2 / log n`` of those groups, so as many random elements are
    tried as make a miss less likely than ``eps`` (sympy's ``is_alt_sym``).
    """
    gens = np.asarray(gens, dtype=np.intp)
    n = gens.shape[1]
    if n < 8 or not len(gens) or not _transitive(gens):
        return False
    share = (0.34 if n < 17 else 0.57) * math.log(2) / math.log(n)
    elements = RandomElements(gens, seed)
    return any(_has_jordan_cycle(elements.next()) for _ in range(int(-math.log(eps) / share)))


def _transitive(gens: np.ndarray) -> bool:
    points = np.arange(gens.shape[1])
    return not merge_pairs(points, np.broadcast_to(points, gens.shape).ravel(), gens.ravel()).any()


def _has_jordan_cycle(p: np.ndarray) -> bool:
    n = p.size
    return any(n / 2 < length < n - 2 and is_prime(length) for length in P.cycle_type(p))


__all__ = ["SEED", "Level", "RandomElements", "basic_orbits", "complete_chain", "is_alt_sym", "random_chain", "sift",
           "sift_all", "strong_chain"]

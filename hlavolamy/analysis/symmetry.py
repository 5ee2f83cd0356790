"""The puzzle's symmetries: relabellings of the cells under which every move is a move again.

A *symmetry* is a permutation ``sigma`` of the cells with, for every move
``m``, ``sigma⁻¹ m sigma = pi(m)`` some move or its inverse (a whole-cube
rotation or mirror of a Rubik's cube maps face turns to face turns). Then a
position ``s`` and its *conjugate* ``sigma⁻¹ s sigma`` are solved by the same
answer, each turn relabelled by ``pi``: a search may solve whichever is
easier, or several, and keep the shortest.

Found from the moves alone: the relabelling ``pi`` of the moves first
(backtracking, pruned by the cycle type of every move and of every product of
two moves, which a symmetry keeps), then for each ``pi`` the cells: ``sigma``
on an orbit of cells follows from the image of one cell
(``sigma[pi(m)[x]] = m[sigma[x]]``), so each orbit tries the images of its first
cell. Both searches have a work budget: a puzzle with many moves gets the
symmetries found within it (none is needed for correctness).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.memo import memo
from hlavolamy.analysis.orbits import orbits
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn

SEARCH_STEPS = 20_000
"""Candidate images tried (moves, and cells whose fixing moves match) before the search stops: the 48
symmetries of the 3x3x3's face turns take 1,236 (0.05 s), of the Santa cube_3/3/3's nine layer turns 12,162
(0.8 s on a loaded machine)."""


@dataclass(frozen=True)
class Symmetry:
    """``cells``: sigma; ``moves[m] = (m2, sign)``: ``sigma⁻¹ m sigma`` is ``m2`` (sign 1) or its inverse (-1)."""

    cells: np.ndarray
    moves: dict[str, tuple[str, int]]

    def conjugate(self, labels: np.ndarray) -> np.ndarray:
        """``sigma⁻¹ s sigma``: the position solved by this symmetry's image of every answer to ``s``."""
        inverse = np.argsort(self.cells)
        return inverse[labels[self.cells]]

    def turns_back(self, turns: list[Turn]) -> list[Turn]:
        """An answer to the conjugate as an answer to the position (each turn relabelled back)."""
        back = {image: (move, sign) for move, (image, sign) in self.moves.items()}
        return [Turn(back[t.move][0], back[t.move][1] * t.power) for t in turns]


def symmetries(puzzle: Puzzle) -> list[Symmetry]:
    """The symmetries found within :data:`SEARCH_STEPS` (the identity first); cached per moves."""
    return memo(puzzle, "analysis.symmetries", lambda: _Search(puzzle).run())


class _Search:
    """The backtracking over move relabellings, each completed by the cells' relabelling."""

    def __init__(self, puzzle: Puzzle):
        self.names = list(puzzle.moves)
        self.n = puzzle.n_cells
        forward = [np.asarray(puzzle.moves[m], dtype=np.int64) for m in self.names]
        self.signed = {(k, s): p if s > 0 else np.argsort(p) for k, p in enumerate(forward) for s in (1, -1)}
        self.signs = [(1,) if puzzle.move_order(m) <= 2 else (1, -1) for m in self.names]
        self.orbits = [np.array(o) for o in orbits(puzzle)]
        self.steps = SEARCH_STEPS
        self._types: dict[tuple, tuple[int, ...]] = {}

    def run(self) -> list[Symmetry]:
        found: list[Symmetry] = []
        self._moves([], found)
        return found

    def _type(self, *factors: tuple[int, int]) -> tuple[int, ...]:
        """Cycle type of the product of signed moves (a symmetry keeps it)."""
        if factors not in self._types:
            perm = np.arange(self.n)
            for f in factors:
                perm = perm[self.signed[f]]
            self._types[factors] = _cycle_type(perm)
        return self._types[factors]

    def _moves(self, pi: list[tuple[int, int]], found: list[Symmetry]) -> None:
        k = len(pi)
        if k == len(self.names):
            sigma = self._cells(pi)
            if sigma is not None:
                found.append(Symmetry(sigma, {self.names[a]: (self.names[b], s) for a, (b, s) in enumerate(pi)}))
            return
        used = {b for b, _ in pi}
        for b in range(len(self.names)):
            for s in self.signs[b] if b not in used and len(self.signs[b]) == len(self.signs[k]) else ():
                if self.steps <= 0:
                    return
                self.steps -= 1
                if self._fits(k, (b, s), pi):
                    self._moves(pi + [(b, s)], found)

    def _fits(self, k: int, image: tuple[int, int], pi: list[tuple[int, int]]) -> bool:
        if self._type((k, 1)) != self._type(image):
            return False
        return all(self._type((k, 1), (a, e)) == self._type(image, (c, e * t))
                   for a, (c, t) in enumerate(pi) for e in self.signs[a])

    def _cells(self, pi: list[tuple[int, int]]) -> np.ndarray | None:
        """sigma with ``sigma[pi(m)[x]] = m[sigma[x]]`` for every move and cell (identity on unmoved cells)."""
        image = [self.signed[p] for p in pi]
        forward = [self.signed[(k, 1)] for k in range(len(pi))]
        sigma = np.arange(self.n)
        if self.orbits:
            sigma[np.concatenate(self.orbits)] = -1
        return self._orbit(0, sigma, image, forward)

    def _orbit(self, i: int, sigma: np.ndarray, image: list[np.ndarray], forward: list[np.ndarray]):
        if i == len(self.orbits):
            return sigma
        base = int(self.orbits[i][0])
        fixed = [int(p[base] == base) for p in image]
        free = np.setdiff1d(np.concatenate(self.orbits), sigma[sigma >= 0])
        for y in free.tolist():
            if any(int(p[y] == y) != f for p, f in zip(forward, fixed)):
                continue  # a move fixing the base must fix its image (pi-related)
            if self.steps <= 0:
                return None
            self.steps -= 1
            trial = _spread(sigma.copy(), base, y, image, forward)
            if trial is not None:
                done = self._orbit(i + 1, trial, image, forward)
                if done is not None:
                    return done
        return None


def _spread(sigma: np.ndarray, base: int, y: int, image: list[np.ndarray], forward: list[np.ndarray]):
    """sigma over ``base``'s orbit from ``sigma[base] = y`` (None: a contradiction or a clash)."""
    taken = set(sigma[sigma >= 0].tolist())
    if y in taken:
        return None
    sigma[base] = y
    taken.add(y)
    queue = [base]
    while queue:
        x = queue.pop()
        for p, m in zip(image, forward):
            x2, y2 = int(p[x]), int(m[sigma[x]])
            if sigma[x2] >= 0:
                if sigma[x2] != y2:
                    return None
                continue
            if y2 in taken:
                return None
            sigma[x2] = y2
            taken.add(y2)
            queue.append(x2)
    return sigma


def _cycle_type(perm: np.ndarray) -> tuple[int, ...]:
    seen = np.zeros(perm.size, dtype=bool)
    lengths = []
    for i in range(perm.size):
        n = 0
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            n += 1
        if n:
            lengths.append(n)
    return tuple(sorted(lengths))

"""Orbits: the sets of cells that can travel to each other.

Cell ``i`` and cell ``m[i]`` share an orbit for every move ``m``; the orbits
are the connected components of that graph. Cells no move moves belong to
no orbit: they are always solved.

>>> from hlavolamy.core.puzzle import Puzzle
>>> p = Puzzle(colours="ABCDE", moves={"a": [1, 0, 2, 3, 4], "b": [0, 1, 3, 2, 4]})
>>> orbits(p)
[(0, 1), (2, 3)]
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.unionfind import merge_pairs
from hlavolamy.core.puzzle import Puzzle


def move_matrix(puzzle: Puzzle) -> np.ndarray:
    """All moves as one ``(n_moves, n_cells)`` array, in the puzzle's move order."""
    return np.stack([puzzle.moves[name] for name in puzzle.moves]).astype(np.int64)


def orbit_labels(puzzle: Puzzle) -> np.ndarray:
    """For every cell the smallest cell of its orbit (a fixed cell labels itself)."""
    moves = move_matrix(puzzle)
    cells = np.arange(puzzle.n_cells, dtype=np.int64)
    moved = moves != cells
    u = np.broadcast_to(cells, moves.shape)[moved]
    v = moves[moved]
    return merge_pairs(cells, u, v)


def orbits(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Orbits of the moved cells, each sorted, the list sorted by first cell."""
    labels = orbit_labels(puzzle)
    moves = move_matrix(puzzle)
    moved = np.any(moves != np.arange(puzzle.n_cells), axis=0)
    cells = np.flatnonzero(moved)
    order = np.lexsort((cells, labels[cells]))
    cells, keys = cells[order], labels[cells][order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return [tuple(chunk.tolist()) for chunk in np.split(cells, starts[1:])] if cells.size else []


def restrict(moves: np.ndarray, orbit: tuple[int, ...] | np.ndarray, n_cells: int) -> np.ndarray:
    """The moves acting on ``orbit`` as permutations of ``0..len(orbit)-1``.

    Row ``k`` is move ``k`` restricted (same convention: ``local[i]`` is the
    local index of ``move[orbit[i]]``).
    """
    cells = np.asarray(orbit, dtype=np.int64)
    index = np.full(n_cells, -1, dtype=np.int64)
    index[cells] = np.arange(cells.size)
    local = index[moves[:, cells]]
    if np.any(local < 0):
        raise ValueError("restrict: the cells are not an orbit (a move maps one of them outside)")
    return local


def distinct_generators(local: np.ndarray) -> np.ndarray:
    """The distinct non-identity rows of ``local`` (first occurrences): the generators that matter."""
    moving = local[np.any(local != np.arange(local.shape[1]), axis=1)]
    seen: dict[bytes, int] = {}
    for k, row in enumerate(moving):
        seen.setdefault(row.tobytes(), k)
    return moving[sorted(seen.values())]


def format_cells(cells: tuple[int, ...] | list[int], limit: int = 8) -> str:
    """``{0..7, 12, 15..18}``: cells as runs, at most ``limit`` runs shown."""
    runs: list[list[int]] = []
    for c in sorted(cells):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    text = [f"{a}..{b}" if b > a + 1 else (f"{a}, {b}" if b > a else f"{a}") for a, b in runs[:limit]]
    return "{" + ", ".join(text) + (", ..." if len(runs) > limit else "") + "}"

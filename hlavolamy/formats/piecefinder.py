"""Find KPuzzle/ksolve orbits in a plain puzzle: pieces whose twists are rotations.

The analysis (:func:`hlavolamy.analysis.blocks.pieces`) finds the pieces and
how every move carries and turns them. The piece formats need more: each
twist must be a rotation ``o -> o - t`` of the piece's cells. That holds when
the piece orbit's orientation group is cyclic and its generator splits the
piece's cells into cycles of equal length ``d`` (a cube corner: one 3-cycle);
then numbering the cells along those cycles (``a + i*s/d`` for the ``i``-th
cell of cycle ``a``) turns every twist into a rotation. Piece orbits that fail
this are written cell by cell (each cell a piece with one orientation), which
is always exact; cells no move moves form the orbit ``FIXED``.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, pieces
from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.formats.pieces import Orbit, Structure


def rotation_labels(group: tuple[tuple[int, ...], ...], size: int) -> list[int] | None:
    """A numbering ``pi`` of a piece's cells making every group element a rotation, or None."""
    identity = tuple(range(size))
    for g in group:
        powers = {identity}
        h = g
        while h not in powers:
            powers.add(h)
            h = tuple(h[i] for i in g)
        if len(powers) == len(group):
            return _along_cycles(g, size)
    return None if len(group) > 1 else list(range(size))


def _along_cycles(g: tuple[int, ...], size: int) -> list[int] | None:
    """Cells numbered along the cycles of ``g`` (see the module docstring); None when they differ in length."""
    cycles = P.cycles(np.asarray(g), include_fixed=True)
    d = len(cycles[0])
    if any(len(c) != d for c in cycles):
        return None
    stride = size // d
    pi = [0] * size
    for a, cyc in enumerate(cycles):
        for i, cell in enumerate(cyc):
            pi[cell] = a + i * stride
    return pi


def _check_rotations(po: PieceOrbit, pi: list[int]) -> bool:
    """Every twist, renumbered by ``pi``, shifts all facets by the same amount."""
    s = po.piece_size
    p = np.asarray(pi)
    shifts = (p[None, None, :] - p[po.twists]) % s
    return bool(np.all(shifts == shifts[:, :, :1]))


def derive_structure(puzzle: Puzzle) -> Structure:
    """Orbits of pieces with orientation for any puzzle (exact; see the module docstring)."""
    n = puzzle.n_cells
    orbit = np.full(n, -1, dtype=np.int64)
    slot = np.zeros(n, dtype=np.int64)
    facet = np.zeros(n, dtype=np.int64)
    orbits: list[Orbit] = []
    analysis = pieces(puzzle)

    def add(name: str, cells: np.ndarray, facets: np.ndarray) -> None:
        """``cells[q, j]`` is slot ``q``; its facet is ``facets[j]``."""
        index = len(orbits)
        orbits.append(Orbit(name, int(cells.shape[0]), int(cells.shape[1])))
        orbit[cells] = index
        slot[cells] = np.arange(cells.shape[0])[:, None]
        facet[cells] = np.asarray(facets)[None, :]

    for po in analysis.piece_orbits:
        pi = rotation_labels(po.orientation_group, po.piece_size)
        if pi is not None and _check_rotations(po, pi):
            add(f"ORBIT{len(orbits) + 1}", po.cells, np.asarray(pi))
        else:
            for cell_orbit in po.orbits:
                cells = np.asarray(analysis.orbits[cell_orbit], dtype=np.int64)[:, None]
                add(f"ORBIT{len(orbits) + 1}", cells, np.zeros(1, dtype=np.int64))
    fixed = np.flatnonzero(orbit < 0)
    if fixed.size:
        add("FIXED", fixed[:, None], np.zeros(1, dtype=np.int64))
    return Structure(orbits, orbit, slot, facet)

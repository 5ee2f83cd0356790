"""Where the generic view puts the cells of a puzzle no plugin draws: one ring or block per kind of piece.

The analysis finds the pieces (:func:`hlavolamy.analysis.blocks.pieces`):
cells that always travel together, such as the three stickers of a cube's
corner. Each piece orbit (the pieces that can take each other's places) gets
its own panel: a ring of pieces, each piece a short spoke of its cells, so a
corner's stickers sit side by side; an orbit of many pieces becomes a block of
rows instead. Pieces follow the cycles of the moves, so a move that turns one
ring of pieces is seen to turn it. Cells no move touches share a last panel.
Panels are packed in rows into a roughly 3:2 area.

Coordinates are unit-free (one unit between neighbouring cells, y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle

RING_LIMIT = 100
"""Piece orbits with more pieces are drawn as a block of rows, not a ring."""
GAP = 1.6
"""Space between panels, in cell spacings."""
ASPECT = 1.5


@dataclass(frozen=True)
class Panel:
    """One group of cells: their points (relative to the panel's top-left), its size and caption."""

    cells: np.ndarray
    points: np.ndarray
    width: float
    height: float
    caption: str


def piece_order(perms: np.ndarray) -> list[int]:
    """Pieces listed cycle by cycle of each move in turn: neighbours in the list are neighbours under a move."""
    n = perms.shape[1]
    seen = np.zeros(n, dtype=bool)
    order: list[int] = []
    for perm in perms:
        for cycle in P.cycles(perm):
            fresh = [q for q in cycle if not seen[q]]
            seen[fresh] = True
            order += fresh
    return order + np.flatnonzero(~seen).tolist()


def ring_panel(cells: np.ndarray, caption: str) -> Panel:
    """Pieces (rows of ``cells``) round a circle one unit apart; each piece's cells go outwards in a spoke."""
    n, size = cells.shape
    radius = max(n / (2 * math.pi), 0.0 if n == 1 else 0.8 if size == 1 else 1.6)
    angle = -math.pi / 2 + 2 * math.pi * np.arange(n) / n
    reach = radius + np.arange(size)
    x = np.cos(angle)[:, None] * reach[None, :]
    y = np.sin(angle)[:, None] * reach[None, :]
    outer = radius + size - 1
    points = np.stack([x + outer + 0.5, y + outer + 0.5], axis=-1).reshape(-1, 2)
    return Panel(cells.ravel(), points, 2 * outer + 1, 2 * outer + 1, caption)


def block_panel(cells: np.ndarray, caption: str) -> Panel:
    """Pieces in rows of a near-square block, each piece's cells side by side."""
    n, size = cells.shape
    per_row = max(1, math.ceil(math.sqrt(n / size)))
    q = np.arange(n)
    x = (q % per_row)[:, None] * (size + 0.5) + np.arange(size)[None, :]
    y = np.repeat((q // per_row)[:, None], size, axis=1).astype(float)
    points = np.stack([x + 0.5, y + 0.5], axis=-1).reshape(-1, 2)
    return Panel(cells.ravel(), points, per_row * (size + 0.5) - 0.5, float(q[-1] // per_row + 1), caption)


def panels(puzzle: Puzzle) -> list[Panel]:
    """A panel per piece orbit, then one for the cells that never move."""
    structure = pieces(puzzle)
    out = []
    for po in structure.piece_orbits:
        cells = po.cells[piece_order(po.perms)]
        n, size = cells.shape
        caption = f"{n} pieces of {size} cells" if size > 1 else f"{n} cells"
        out.append(ring_panel(cells, caption) if n <= RING_LIMIT else block_panel(cells, caption))
    moving = np.zeros(puzzle.n_cells, dtype=bool)
    for po in structure.piece_orbits:
        moving[po.cells.ravel()] = True
    fixed = np.flatnonzero(~moving)
    if fixed.size:
        out.append(block_panel(fixed[:, None], f"{fixed.size} fixed"))
    return out


Caption = tuple[float, float, float, str]
"""A panel's top-left corner, its width and its caption text."""


def pack(groups: list[Panel]) -> tuple[np.ndarray, list[Caption]]:
    """All panels placed in rows: ``(n_cells, 2)`` points by cell, and the panels' captions."""
    total = sum((p.width + GAP) * (p.height + GAP) for p in groups)
    row_width = max(max(p.width for p in groups), math.sqrt(total * ASPECT))
    n = sum(len(p.cells) for p in groups)
    points = np.zeros((n, 2))
    captions = []
    x = y = row_height = 0.0
    for panel in groups:
        if x > 0 and x + panel.width > row_width:
            x, y, row_height = 0.0, y + row_height + GAP, 0.0
        points[panel.cells] = panel.points + (x, y + 1)
        captions.append((x, y, panel.width, panel.caption))
        x += panel.width + GAP
        row_height = max(row_height, panel.height + 1)
    return points, captions


def orbit_layout(puzzle: Puzzle) -> tuple[np.ndarray, list[Caption]]:
    """Every cell's point in the orbit layout, and the captions of the panels."""
    return pack(panels(puzzle))

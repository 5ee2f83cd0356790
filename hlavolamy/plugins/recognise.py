"""A puzzle made elsewhere, drawn by a geometry whose moves it shares under other names.

An imported Santa ``cube_3/3/3`` has the moves ``f0 .. d2``; the cubes plugin
calls the same permutations ``F .. U`` (``U`` is the inverse of ``d2``).
:func:`move_correspondence` pairs them up cell for cell, which is both the
host's test that a plugin's recognition is right and the dictionary a view
needs: :class:`PuzzleMovesView` turns the geometry's move handles into the
puzzle's own moves, so a click plays ``d2'`` where the drawing says ``U``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.plugins.hookspecs import DrawOptions, Geometry, MoveHit, View

if TYPE_CHECKING:
    from PyQt6.QtCore import QRectF
    from PyQt6.QtGui import QPainter

    from hlavolamy.core.state import State


def _key(perm: Sequence[int] | np.ndarray) -> bytes:
    return np.asarray(perm, dtype=np.int64).tobytes()


def move_correspondence(native: Mapping[str, Sequence[int] | np.ndarray], puzzle: Puzzle) -> dict[str, tuple[str, int]] | None:
    """Each native move -> ``(puzzle move, power)`` with the same permutation (power 1) or its inverse (-1).

    None unless the two sets of moves are the same up to names and inverses:
    every native move has a partner and every puzzle move is some native
    move's partner, on the same number of cells.
    """
    forward: dict[bytes, str] = {}
    backward: dict[bytes, str] = {}
    for name, perm in puzzle.moves.items():
        forward.setdefault(_key(perm), name)
        backward.setdefault(_key(P.inverse(perm)), name)
    out: dict[str, tuple[str, int]] = {}
    for name, perm in native.items():
        if len(perm) != puzzle.n_cells:
            return None
        key = _key(perm)
        if key in forward:
            out[name] = (forward[key], 1)
        elif key in backward:
            out[name] = (backward[key], -1)
        else:
            return None
    return out if {move for move, _ in out.values()} == set(puzzle.moves) else None


def borrowed_palette(puzzle: Puzzle, native: Puzzle) -> dict[str, str]:
    """Screen colours for ``puzzle``'s labels from the geometry's own puzzle on the same cells.

    A label gets the colour of the native label that all its cells share, when
    different labels get different native labels (a Santa cube's ``A`` .. ``F``
    become white, green, ... as on the plugin's cube); otherwise nothing is
    borrowed, and labels the puzzle colours itself keep their colour.
    """
    if native.n_cells != puzzle.n_cells:
        return {}
    pairs = set(zip(puzzle.colours, native.colours))
    mapping = dict(pairs)
    if len(mapping) != len(pairs) or len(set(mapping.values())) != len(mapping):
        return {}
    return {label: native.palette[mapping[label]] for label in mapping
            if label not in puzzle.palette and mapping[label] in native.palette}


class PuzzleMovesView(View):
    """A geometry's view whose move handles play the puzzle's own moves (names and directions translated)."""

    def __init__(self, view: View, moves: Mapping[str, tuple[str, int]]):
        self.view = view
        self.moves = dict(moves)

    def paint(self, painter: QPainter, rect: QRectF, state: State, options: DrawOptions) -> None:
        self.view.paint(painter, rect, state, options)

    def cell_at(self, x: float, y: float) -> int | None:
        return self.view.cell_at(x, y)

    def move_at(self, x: float, y: float, button: str = "left") -> MoveHit | None:
        hit = self.view.move_at(x, y, button)
        if hit is None or hit.move not in self.moves:
            return hit
        move, sign = self.moves[hit.move]
        return MoveHit(move, sign * hit.power)

    def drag(self, dx: float, dy: float) -> bool:
        return self.view.drag(dx, dy)

    def __getattr__(self, name: str) -> Any:
        """Everything else is the wrapped view's (its geometry of the last paint, for tests and tools)."""
        return getattr(self.__dict__["view"], name)


def speaking_puzzle_moves(view: View, geometry: Geometry, puzzle: Puzzle) -> View:
    """``view`` as it is when its move names are the puzzle's; else wrapped to play the puzzle's moves.

    A view whose geometry's moves do not match the puzzle's at all stays as it
    is too: its handles then play what they name, as before.
    """
    if puzzle.plugin is None:
        return view
    try:
        native = geometry.moves(puzzle.plugin.data)
    except Exception:  # noqa: BLE001 - a plugin that cannot list its moves still draws
        return view
    moves = move_correspondence(native, puzzle)
    if moves is None or all(move == name and sign == 1 for name, (move, sign) in moves.items()):
        return view
    return PuzzleMovesView(view, moves)

"""A position of a puzzle: which original cell sits at each position.

``State.perm[i]`` is the cell whose content is now at position ``i``; the
solved state is the identity. States are immutable values.

>>> from hlavolamy.core.puzzle import Puzzle
>>> p = Puzzle(colours=["A", "A", "B", "B"], moves={"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]})
>>> s = State.solved(p).apply("L")
>>> s.is_solved(), s.is_colour_solved(), s.colours()
(False, True, ['A', 'A', 'B', 'B'])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.errors import IllegalMoveError, quoted


class State:
    """A permutation of the puzzle's cells, with the puzzle it belongs to."""

    __slots__ = ("puzzle", "perm")

    def __init__(self, puzzle: Puzzle, perm: Sequence[int] | np.ndarray):
        self.puzzle = puzzle
        self.perm: P.Perm = P.as_perm(perm, "state", puzzle.n_cells)

    @classmethod
    def solved(cls, puzzle: Puzzle) -> State:
        return cls(puzzle, P.identity(puzzle.n_cells))

    def apply(self, turns: str | Turn | Sequence[Turn], *, check_legal: bool = True) -> State:
        """The state after playing ``turns`` (notation text, one turn, or a list).

        On a puzzle with blockings every turn is checked for legality unless
        ``check_legal`` is false (once per turn: a power is legal when its first step is).
        """
        if isinstance(turns, str):
            turns = self.puzzle.parse(turns)
        elif isinstance(turns, Turn):
            turns = [turns]
        perm = self.perm
        for t in turns:
            if self.puzzle.blockings and check_legal:
                # A move maps its turned part onto itself, so each step of a power is legal when the first
                # is: one check per turn, not per step (R^1000000 is one check).
                _require_legal(self.puzzle, perm, t.move)
            perm = perm[self.puzzle.turn_perm(t)]
        return State(self.puzzle, perm)

    def is_solved(self) -> bool:
        return P.is_identity(self.perm)

    def colour_ids(self) -> np.ndarray:
        """The colour id shown at every position."""
        return self.puzzle.colour_ids[self.perm]

    def colours(self) -> list[str]:
        labels = self.puzzle.colour_labels
        return [labels[c] for c in self.colour_ids()]

    def is_colour_solved(self) -> bool:
        """Every position shows the colour it shows when solved."""
        return bool(np.array_equal(self.colour_ids(), self.puzzle.colour_ids))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.puzzle is self.puzzle and np.array_equal(other.perm, self.perm)

    def __hash__(self) -> int:
        return hash(self.perm.tobytes())

    def __repr__(self) -> str:
        return f"State({self.perm.tolist()})" if self.perm.size <= 30 else f"<State of {self.perm.size} cells>"


def fused_sets_torn(puzzle: Puzzle, perm: np.ndarray, move: str) -> list[frozenset[int]]:
    """Fused sets (as original cells) that ``move`` would tear apart in state ``perm``.

    A fused set's cells currently sit at positions ``where``; the move is legal
    when every set lies wholly inside or wholly outside its turned part. Hot in
    scrambles and legal replays, so it counts with numpy over all fused cells at once.
    """
    if not puzzle.blockings:
        return []
    fused_cells, owner, sizes = _fused_tables(puzzle)
    position_of = P.inverse(perm)
    inside = _turned_mask(puzzle, move)[position_of[fused_cells]]
    n_inside = np.bincount(owner, weights=inside, minlength=sizes.size)
    return [puzzle.blockings[k] for k in np.flatnonzero((n_inside > 0) & (n_inside < sizes))]


def _fused_tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All fused cells, the blocking each belongs to, and each blocking's size (cached on the puzzle)."""
    if puzzle.tables.fused is None:
        sizes = np.array([len(b) for b in puzzle.blockings], dtype=np.int64)
        cells = np.array([c for b in puzzle.blockings for c in sorted(b)], dtype=np.int64)
        puzzle.tables.fused = (cells, np.repeat(np.arange(sizes.size), sizes), sizes)
    return puzzle.tables.fused


def _turned_mask(puzzle: Puzzle, move: str) -> np.ndarray:
    """Positions the move turns, as a boolean mask (cached per move on the puzzle)."""
    masks = puzzle.tables.turned_masks
    if move not in masks:
        mask = np.zeros(puzzle.n_cells, dtype=bool)
        mask[list(puzzle.turned_part(move))] = True
        masks[move] = mask
    return masks[move]


def _require_legal(puzzle: Puzzle, perm: np.ndarray, move: str) -> None:
    torn = fused_sets_torn(puzzle, perm, move)
    if torn:
        cells = ", ".join(str(sorted(b)) for b in torn)
        raise IllegalMoveError(f"move {quoted(move)} is blocked here: it would tear fused cells {cells}")

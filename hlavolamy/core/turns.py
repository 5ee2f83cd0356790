"""A turn is one named move raised to a power; a sequence is a list of turns.

This is the form every part of the program passes sequences in (solver output,
history, scrambles). Text goes through :mod:`hlavolamy.core.notation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # puzzle.py imports this module
    from hlavolamy.core.puzzle import Puzzle


class Turn(NamedTuple):
    """``move`` applied ``power`` times; a negative power is the inverse."""

    move: str
    power: int = 1


def invert(turns: Sequence[Turn]) -> list[Turn]:
    """The sequence that undoes ``turns``."""
    return [Turn(t.move, -t.power) for t in reversed(turns)]


def expand(turns: Sequence[Turn]) -> list[Turn]:
    """Every turn as single quarter steps (``R2`` -> ``R R``); for playback and counting."""
    out: list[Turn] = []
    for t in turns:
        step = 1 if t.power > 0 else -1
        out.extend(Turn(t.move, step) for _ in range(abs(t.power)))
    return out


def reduce_power(puzzle: Puzzle, move: str, power: int) -> int:
    """The power of ``move`` equal to ``power`` with the fewest single steps (0 = identity).

    Ties go to the positive power (``R2`` rather than ``R'2`` on a quarter turn).
    """
    order = puzzle.move_order(move)
    k = power % order
    return k if k <= order - k else k - order

"""Move sequences printed compactly for narrow panels: ``(A B' A' B)10`` instead of 40 flat turns.

Macros from the commutator search are often a short sequence repeated
(a commutator raised to a power). The flat turn list hides that; the
notation's own repetition group shows it and parses back to the same turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from hlavolamy.core.notation import Group, Name, format_tree
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn


def smallest_period(turns: Sequence[Turn]) -> int:
    """The length of the shortest block whose repetition is ``turns`` (``len(turns)`` when none repeats)."""
    n = len(turns)
    for period in range(1, n // 2 + 1):
        if n % period == 0 and all(turns[i] == turns[i - period] for i in range(period, n)):
            return period
    return n


def compact_text(puzzle: Puzzle, turns: Sequence[Turn]) -> str:
    """``turns`` as notation, written ``(period)k`` when they repeat a block and that is shorter than flat."""
    flat = puzzle.format(turns)
    period = smallest_period(turns)
    if period == len(turns):
        return flat
    block = tuple(Name(t.move, t.power) for t in turns[:period])
    grouped = format_tree([Group(block, len(turns) // period)], [*puzzle.moves, *puzzle.aliases])
    return grouped if len(grouped) < len(flat) else flat

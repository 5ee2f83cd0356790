"""Shorten a move sequence without changing its permutation.

Inverse pairs cancel, powers of one move merge modulo the move's order, and a
turn slides back past turns of moves it commutes with to reach another turn
of its own move (``R L R'`` -> ``L``). Conjugated commutators glued end to end
leave many such cancellations at their seams.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, reduce_power
from hlavolamy.solve.caches import solve_cache


def commuting_moves(puzzle: Puzzle) -> dict[str, frozenset[str]]:
    """For each move, the other moves whose permutations commute with it (cached on the puzzle)."""
    cache = solve_cache(puzzle)
    if cache.commuting is None:
        names = list(puzzle.moves)
        perms = [puzzle.moves[n] for n in names]
        table: dict[str, frozenset[str]] = {}
        for i, a in enumerate(names):
            pa = perms[i]
            table[a] = frozenset(b for j, b in enumerate(names) if j != i and np.array_equal(pa[perms[j]], perms[j][pa]))
        cache.commuting = table
    return cache.commuting


def simplify(puzzle: Puzzle, turns: Sequence[Turn]) -> list[Turn]:
    """A sequence with the same permutation and no more steps than ``turns``.

    Repeats the pass until nothing changes: a cancellation can bring two
    earlier turns of one move together.
    """
    out = _pass(puzzle, turns)
    while True:
        again = _pass(puzzle, out)
        if again == out:
            return out
        out = again


def _pass(puzzle: Puzzle, turns: Sequence[Turn]) -> list[Turn]:
    commute = commuting_moves(puzzle)
    out: list[Turn] = []
    for t in turns:
        power = reduce_power(puzzle, t.move, t.power)
        if power == 0:
            continue
        j = len(out) - 1
        while j >= 0 and out[j].move != t.move and out[j].move in commute[t.move]:
            j -= 1
        if j >= 0 and out[j].move == t.move:
            merged = reduce_power(puzzle, t.move, out[j].power + power)
            if merged == 0:
                del out[j]
            else:
                out[j] = Turn(t.move, merged)
        else:
            out.append(Turn(t.move, power))
    return out

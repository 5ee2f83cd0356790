"""The single steps of a puzzle and the pruning automaton every search walks them with.

A search never plays a step right after its inverse, a move more than half
its order in one direction, or the later of two commuting moves first; the
automaton's state (last step, times in a row) says which steps may follow.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.caches import solve_cache
from hlavolamy.solve.passes.simplify import commuting_moves
from hlavolamy.solve.tables.pdb import step_perms


@dataclass(frozen=True)
class Steps:
    """The single steps and the pruning automaton over them.

    ``after[s, g]`` is the pruning state after step ``g`` from state ``s``
    (state 0: no step yet), or -1 when that step is pruned.
    """

    turns: list[Turn]
    perms: np.ndarray
    after: np.ndarray


def step_automaton(puzzle: Puzzle) -> Steps:
    """Single steps (distinct permutations) and the pruning automaton (cached on the puzzle)."""
    cache = solve_cache(puzzle)
    if cache.steps is None:
        turns, perms = step_perms(puzzle)
        cache.steps = Steps(turns, perms, _automaton(puzzle, turns, perms))
    return cache.steps


def _automaton(puzzle: Puzzle, turns: list[Turn], perms: np.ndarray) -> np.ndarray:
    """``after[state, g]``; states: 0 = start, then one per (step, times in a row)."""
    names = list(puzzle.moves)
    commute = commuting_moves(puzzle)
    inverse = {p.tobytes(): g for g, p in enumerate(perms)}
    inv = [inverse.get(np.argsort(p).tobytes(), -1) for p in perms]
    runs = [_most_in_a_row(puzzle.move_order(t.move), t.power) for t in turns]
    states = [(-1, 0)] + [(g, r) for g in range(len(turns)) for r in range(1, runs[g] + 1)]
    index = {s: i for i, s in enumerate(states)}
    after = np.full((len(states), len(turns)), -1, dtype=np.int32)
    for i, (last, run) in enumerate(states):
        for g, t in enumerate(turns):
            if last < 0:
                after[i, g] = index[(g, 1)]
                continue
            before = turns[last]
            if g == inv[last] and g != last:
                continue
            if g == last:
                if run < runs[g]:
                    after[i, g] = index[(g, run + 1)]
                continue
            if t.move == before.move:
                continue
            if t.move in commute[before.move] and names.index(t.move) < names.index(before.move):
                continue
            after[i, g] = index[(g, 1)]
    return after


def _most_in_a_row(order: int, power: int) -> int:
    """Same-direction steps of a move worth playing in a row: up to half its order, ties clockwise."""
    return order // 2 if power > 0 else (order - 1) // 2


def step_path(parents: list[tuple[np.ndarray, np.ndarray]], node: int) -> list[int]:
    """The steps from the start to ``node`` of the last level, through the parent links."""
    out = []
    for parent, step in reversed(parents):
        out.append(int(step[node]))
        node = int(parent[node])
    return out[::-1]

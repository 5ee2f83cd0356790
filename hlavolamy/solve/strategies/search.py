"""The "search" strategy: shortest solutions by bidirectional breadth-first search.

Forward from the position and backward from the goal (with inverse steps),
always growing the smaller side, until the two meet; the meeting state
joins a shortest word. Labels are compared as bytes, so colour positions
(identical pieces) search the smaller space of colourings. Only for small
groups: :func:`search_feasible` asks for an exact group order below
:data:`MAX_ORDER`, and :data:`MAX_STATES` caps the work.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.independent import generators
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.errors import StrategyFailed
from hlavolamy.solve.caches import solve_cache
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Strategy

MAX_ORDER = 500_000
"""Largest group order for which ``auto`` picks the search."""
MAX_STATES = 3_000_000
"""Most states both searches may hold together."""
_MAX_CELLS = 64


class SearchFailed(StrategyFailed):
    """The search ran out of room (or cannot handle wildcards or orbit modes)."""


def search_feasible(puzzle: Puzzle) -> bool:
    """Small enough for a shortest-solution search: few moved cells and a small exact group order."""
    cache = solve_cache(puzzle)
    if cache.search_feasible is None:
        from hlavolamy.analysis.blocks import pieces
        from hlavolamy.analysis.membership import group_order

        moved = pieces(puzzle).moved_cells
        feasible = False
        if moved <= _MAX_CELLS:
            order = group_order(puzzle)
            feasible = order.exact and order.value <= MAX_ORDER
        cache.search_feasible = feasible
    return cache.search_feasible


class _Side:
    """One direction of the search: visited states with the step that reached them."""

    def __init__(self, root: np.ndarray):
        self.parent: dict[bytes, tuple[bytes | None, int]] = {root.tobytes(): (None, -1)}
        self.frontier = root[None, :]

    def path(self, key: bytes) -> list[int]:
        steps = []
        while True:
            prev, g = self.parent[key]
            if prev is None:
                return steps[::-1]
            steps.append(g)
            key = prev


def search(problem: Problem, *, cancel: CancelToken | None = None, progress: ProgressCallback | None = None,
           max_states: int = MAX_STATES) -> None:
    """Play a shortest solution of ``problem``; raises :class:`SearchFailed` past ``max_states`` states."""
    if problem.wildcards or problem.care is not None:
        raise SearchFailed("the search handles whole puzzles without wildcards only")
    if problem.is_solved():
        return
    puzzle = problem.puzzle
    gens = generators(puzzle)
    perms = [puzzle.turn_perm(g) for g in gens]
    back_perms = [puzzle.turn_perm(Turn(g.move, -g.power)) for g in gens]
    dtype = np.uint8 if max(problem.labels.max(), problem.goal.max()) < 256 else np.int32
    fwd, bwd = _Side(problem.labels.astype(dtype)), _Side(problem.goal.astype(dtype))
    while fwd.frontier.size and bwd.frontier.size:
        if len(fwd.parent) + len(bwd.parent) > max_states:
            raise SearchFailed(f"more than {max_states} states searched")
        grow_forward = len(fwd.frontier) <= len(bwd.frontier)
        side, other, step = (fwd, bwd, perms) if grow_forward else (bwd, fwd, back_perms)
        meet = _expand(side, other, step, cancel, max_states - len(other.parent))
        report(progress, min(0.95, (len(fwd.parent) + len(bwd.parent)) / max_states), "searching")
        if meet is not None:
            first = [gens[g] for g in fwd.path(meet)]
            second = [gens[g] for g in reversed(bwd.path(meet))]
            problem.play(first + second)
            return
    raise SearchFailed("the goal cannot be reached from this position")


_CHUNK = 2_048
"""Frontier rows whose children are made in one numpy gather (then met one by one, in order)."""


def _expand(side: _Side, other: _Side, step: list[np.ndarray], cancel: CancelToken | None,
            room: int | None = None) -> bytes | None:
    """Grow ``side`` by one level; the key of a state both sides know, if any.

    Row after row, each row's children in the order of the steps, as a plain
    loop would, but each chunk's children made and turned into keys at once
    (a 2x2x2's search 3x faster than a gather per child).
    Past ``room`` states on this side the level is left unfinished (the caller then gives up).
    """
    width = side.frontier.shape[1]
    perms = np.stack(step)
    row_type = np.dtype((np.void, width * side.frontier.dtype.itemsize))
    kept = []
    full = False
    for at in range(0, len(side.frontier), _CHUNK):
        if cancel is not None:
            cancel.check()
        rows = side.frontier[at:at + _CHUNK]
        children = rows[:, perms].reshape(-1, width)  # row r's child by step g at r * len(step) + g
        parents = np.ascontiguousarray(rows).view(row_type).ravel().tolist()
        keys = np.ascontiguousarray(children).view(row_type).ravel().tolist()
        new = []
        for i, key in enumerate(parents):
            for g in range(len(step)):
                ck = keys[i * len(step) + g]
                if ck in side.parent:
                    continue
                side.parent[ck] = (key, g)
                if ck in other.parent:
                    return ck
                new.append(i * len(step) + g)
            if room is not None and len(side.parent) > room:
                full = True
                break
        kept.append(children[new])
        if full:
            break
    side.frontier = np.concatenate(kept) if kept else side.frontier[:0]
    return None


STRATEGY = Strategy(
    "search", "bidirectional breadth-first search: shortest answers for small groups",
    lambda problem, context: search(problem, cancel=context.cancel, progress=context.progress),
    applies=lambda problem, context: search_feasible(problem.puzzle))

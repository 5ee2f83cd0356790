"""Recognising an imported puzzle (KPuzzle, ksolve, GAP, ...) as one of the presets, to draw it.

An imported puzzle is one of ours when a relabelling of its cells onto our
stickers turns every imported move into a *block turn* of ours: some
consecutive layers of one axis turned by some steps (a skewb's half, a
pyraminx tip, a wide turn). The search is in two stages:

1. **moves**: each imported move is given a block turn of the same cycle type,
   backtracking so that every pair keeps its relations (how many cells both
   move, whether they commute, the order of their product);
2. **cells**: with the moves fixed, one cell of each orbit is tried on each
   sticker; the moves then place the whole orbit, which must fit exactly.

The result keeps the imported puzzle as it is (cells, names, permutations) and
records how to draw it: ``cells`` (the sticker of every cell) and ``moves``
(each move as ``[kind, axis, first layer, last layer, steps]``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle

from .cutting import Cutting
from .description import parse
from .presets import PRESETS
from .turns import Line, lines, turn_perm

MAX_SECONDS = 10.0
"""Time one recognition may take before it gives up (the search is for drawing only; an import must not wait)."""


@dataclass(frozen=True)
class BlockTurn:
    """Layers ``first..last`` (indices along the line) of one axis line turned ``steps`` steps."""

    kind: str
    axis: int
    first: int
    last: int
    steps: int
    perm: np.ndarray

    @property
    def spec(self) -> list[Any]:
        return [self.kind, self.axis, self.first, self.last, self.steps]


def block_turn(cutting: Cutting, line: Line, first: int, last: int, steps: int) -> np.ndarray:
    """The permutation of turning layers ``first..last`` of ``line`` by ``steps`` steps."""
    cells = np.concatenate(line.layers[first:last + 1])
    base = turn_perm(cutting, cells, line.direction, line.order, f"{line.kind}{line.index}")
    return P.power(base, steps)


@cache
def _cutting(description: str) -> Cutting:
    return Cutting(parse(description))


@cache
def block_turns(description: str) -> tuple[Cutting, tuple[BlockTurn, ...]]:
    """Every block turn of a described puzzle but the whole-puzzle rotations (cached: presets are reused)."""
    cutting = _cutting(description)
    out = []
    for line in lines(cutting):
        count = len(line.layers)
        for first in range(count):
            for last in range(first, count):
                if (first, last) == (0, count - 1):
                    continue
                base = block_turn(cutting, line, first, last, 1)
                if P.is_identity(base):
                    continue
                for steps in range(1, line.order):
                    out.append(BlockTurn(line.kind, line.index, first, last, steps, P.power(base, steps)))
    return cutting, tuple(out)


def turn_from_spec(cutting: Cutting, spec: Sequence[Any]) -> np.ndarray:
    """A block turn from its ``[kind, axis, first, last, steps]`` record (ValueError when it names nothing)."""
    kind, axis, first, last, steps = spec
    for line in lines(cutting):
        if line.kind == kind and line.index == axis:
            if not 0 <= first <= last < len(line.layers):
                raise ValueError(f"layers {first}..{last} do not exist on axis {kind}{axis}")
            return block_turn(cutting, line, first, last, int(steps))
    raise ValueError(f"no cut axis {kind}{axis}")


def _cycle_type(perm: np.ndarray) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(P.cycle_type(perm).items()))


class _Relations:
    """Pairwise facts about permutations (shared support, commuting, order of the product), memoised."""

    def __init__(self, perms: Sequence[np.ndarray]):
        self.perms = perms
        self.support = [set(P.support(p).tolist()) for p in perms]
        self._memo: dict[tuple[int, int], tuple[int, bool, int]] = {}

    def __call__(self, a: int, b: int) -> tuple[int, bool, int]:
        key = (a, b)
        if key not in self._memo:
            pa, pb = self.perms[a], self.perms[b]
            ab = P.compose(pa, pb)
            self._memo[key] = (len(self.support[a] & self.support[b]), bool(np.array_equal(ab, P.compose(pb, pa))),
                               P.order(ab))
        return self._memo[key]


def recognise(puzzle: Puzzle) -> dict[str, Any] | None:
    """Plugin data drawing ``puzzle`` as one of the presets, or None when none fits."""
    moves = list(puzzle.moves.items())
    deadline = time.monotonic() + MAX_SECONDS
    for _title, description in PRESETS.values():
        cutting = _cutting(description)
        # one cell per sticker, but for stickers that never move (a cube's centres) a file may leave out
        if not len(cutting.stickers) - len(cutting.solid.faces) <= puzzle.n_cells <= len(cutting.stickers):
            continue
        found = match(puzzle, description, deadline)
        if found is None:
            continue
        cells, specs = found
        named = {name: spec for (name, _), spec in zip(moves, specs)}
        rebuilt = relabelled_moves(cutting, cells, named)
        if all(np.array_equal(rebuilt[name], perm) for name, perm in moves):
            return {"description": description, "cells": cells, "moves": named}
    return None


def match(puzzle: Puzzle, description: str,
          deadline: float = float("inf")) -> tuple[list[int], list[list[Any]]] | None:
    """Cells and block turns making the puzzle's moves the described puzzle's, or None (also past ``deadline``)."""
    cutting, turns = block_turns(description)
    moves = [perm for perm in puzzle.moves.values()]
    if not moves or any(P.is_identity(m) for m in moves):
        return None
    by_type: dict[tuple[tuple[int, int], ...], list[int]] = {}
    for k, turn in enumerate(turns):
        by_type.setdefault(_cycle_type(turn.perm), []).append(k)
    options = [by_type.get(_cycle_type(m), []) for m in moves]
    if any(not o for o in options):
        return None
    ours = _Relations([t.perm for t in turns])
    theirs = _Relations(moves)
    order = _connected_order(theirs, len(moves))
    for assignment in _assignments(order, options, ours, theirs):
        if time.monotonic() > deadline:
            return None
        cells = _place_cells(puzzle.n_cells, len(cutting.stickers), moves, [turns[assignment[i]].perm
                                                                                for i in range(len(moves))])
        if cells is not None:
            return cells, [turns[assignment[i]].spec for i in range(len(moves))]
    return None


def _connected_order(relations: _Relations, count: int) -> list[int]:
    """Moves in an order where each after the first shares cells with an earlier one, when it can."""
    order = [0]
    rest = set(range(1, count))
    while rest:
        nxt = max(rest, key=lambda b: max(relations(a, b)[0] for a in order))
        order.append(nxt)
        rest.remove(nxt)
    return order


def _assignments(order: list[int], options: list[list[int]], ours: _Relations,
                 theirs: _Relations) -> Iterator[dict[int, int]]:
    """Every assignment of distinct block turns to the moves that keeps all pairwise relations."""
    chosen: dict[int, int] = {}

    def extend(depth: int) -> Iterator[dict[int, int]]:
        if depth == len(order):
            yield dict(chosen)
            return
        move = order[depth]
        used = set(chosen.values())
        for candidate in options[move]:
            if candidate in used:
                continue
            if all(theirs(prev, move) == ours(chosen[prev], candidate) for prev in order[:depth]):
                chosen[move] = candidate
                yield from extend(depth + 1)
                del chosen[move]

    yield from extend(0)


def _place_cells(n_cells: int, n_stickers: int, moves: list[np.ndarray],
                 turns: list[np.ndarray]) -> list[int] | None:
    """A sticker for every cell so that each move is its turn there (``sigma(f_m(x)) = g_t(sigma(x))``)."""
    forward = [P.inverse(m) for m in moves]  # content at x goes to forward[x]
    ahead = [P.inverse(t) for t in turns]
    sigma = np.full(n_cells, -1)
    used = np.zeros(n_stickers, dtype=bool)
    moved_by_turns = np.zeros(n_stickers, dtype=bool)
    for t in turns:
        moved_by_turns |= t != np.arange(n_stickers)
    for x in range(n_cells):
        if sigma[x] >= 0 or all(m[x] == x for m in moves):
            continue
        for y in np.flatnonzero(~used & moved_by_turns).tolist():
            trial = _propagate(x, y, sigma, used, forward, ahead)
            if trial is not None:
                sigma, used = trial
                break
        else:
            return None
    if (moved_by_turns & ~used).any():
        return None  # a sticker the turns move has no cell
    still = [x for x in range(n_cells) if sigma[x] < 0]
    free = np.flatnonzero(~used & ~moved_by_turns).tolist()
    if len(free) < len(still):
        return None
    for x, y in zip(still, free):
        sigma[x] = y
    return sigma.tolist()


def _propagate(x: int, y: int, sigma: np.ndarray, used: np.ndarray, forward: list[np.ndarray],
               ahead: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """Place cell x on sticker y and everything the moves carry it to; None on a clash."""
    sigma, used = sigma.copy(), used.copy()
    sigma[x], used[y] = y, True
    todo = [x]
    while todo:
        c = todo.pop()
        for f, g in zip(forward, ahead):
            dst, want = int(f[c]), int(g[sigma[c]])
            if sigma[dst] < 0:
                if used[want]:
                    return None
                sigma[dst], used[want] = want, True
                todo.append(dst)
            elif sigma[dst] != want:
                return None
    return sigma, used


def relabelled_moves(cutting: Cutting, cells: Sequence[int],
                     specs: Mapping[str, Sequence[Any]]) -> dict[str, np.ndarray]:
    """The imported moves rebuilt from block turns through the cell map (``perm[x] = sigma^-1(t[sigma(x)])``)."""
    sigma = np.asarray(cells)
    back = np.full(len(cutting.stickers), -1)
    back[sigma] = np.arange(len(sigma))
    out = {}
    for name, spec in specs.items():
        turn = turn_from_spec(cutting, spec)
        perm = back[turn[sigma]]
        if (perm < 0).any():
            raise ValueError(f"move {name} carries a sticker without a cell onto one with a cell")
        out[name] = perm
    return out

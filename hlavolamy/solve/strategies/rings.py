"""The "rings" strategy: a beam over powers of moves for puzzles of rings sharing cells (wreaths), by colours.

Every move of such a puzzle turns one cycle of cells, its ring; the cells a
ring shares with the others are its *window*. Colours cross between rings
only through the windows: a turn of a ring brings new cells into its window,
and the next turn of another ring carries them away. A turn that loads the
window with cells of colours its own ring does not want (a *loaded window*)
sets up an exchange that gains all of them at once.

Ranked by wrong cells alone, a beam stalls once the few stray cells left
stand alone (Santa wreath_100: 29 wrong cells after 250 turns, then 70 turns
a cell): the gain needs a neutral exchange that puts a stray where a second
one makes a loaded window, which the wrong cells cannot see. So a position
scores :data:`WRONG_WEIGHT` per wrong cell less :data:`LOADED_WEIGHT` per
loaded window (per ring, per turn of it that would load its window).

The beam is layered by single turns (:meth:`~hlavolamy.core.puzzle.Puzzle.length`):
a step is a power of one ring (of at most :data:`MAX_POWER` turns), never of
the ring turned the step before, and lands in the layer of the turns spent so
far; each layer keeps its :data:`WIDTH` best new positions. The search stops
at the first position with at most the allowed wildcards wrong (the fewest
turns the beam found), or after :data:`PATIENCE` layers without fewer wrong
cells; with ``partial`` it then plays the way to the closest position, for
another strategy to finish.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, ProgressCallback, Work, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Strategy
from hlavolamy.solve.strategies.beam import row_hashes
from hlavolamy.solve.strategies.search import SearchFailed

WIDTH = 200
"""New positions kept per layer (turns spent). Santa wreath_100 (case 337): 272 turns at 200."""
MAX_POWER = 15
"""Most turns of one step (a power of a ring, either way)."""
WRONG_WEIGHT = 4
"""A position's score: this per wrong cell..."""
LOADED_WEIGHT = 3
"""...less this per loaded window. Santa wreath_100: 2 gave 495 turns, 3 gave 272; at 4 a loaded window is
worth a gained cell and the beam stopped gaining (97 wrong cells after 300 layers)."""
PATIENCE = 600
"""Layers (turns) the beam goes on without fewer wrong cells."""
MAX_RINGS = 8
"""Most rings (distinct moves) the strategy applies to: a layer costs width x rings x powers x cells."""
MAX_CELLS = 4096


@dataclass(frozen=True)
class Ring:
    """One move's cycle: ``cells`` in the order the move carries them, ``window`` the positions (into
    ``cells``) of the cells other rings move too, and ``foreign[label]``: whether no cell of this ring outside the
    window wants ``label``."""

    move: str
    cells: np.ndarray
    window: np.ndarray
    foreign: np.ndarray

    def loaded(self, rows: np.ndarray) -> np.ndarray:
        """Per row: how many turns of this ring would fill its window with foreign labels."""
        away = self.foreign[rows[:, self.cells]]
        full = np.ones_like(away)
        for at in self.window.tolist():
            full &= np.roll(away, -at, axis=1)
        return full.sum(axis=1)


def rings_of(puzzle: Puzzle, goal: np.ndarray) -> list[Ring] | None:
    """The rings of a puzzle whose every move turns one cycle of cells (one ring per cycle: a move that is a
    power of another is the same ring) and whose goal gives the cells of a ring outside its window one label;
    None otherwise, or when no ring shares a cell.

    Where a ring wants several labels in order (the Hungarian rings: two a ring) the exchanges are not the
    problem, and the beam's score cannot see the order: it found no solution on 3 of 3 scrambles (4.4 s each).

    >>> wreath = Puzzle(list("cacabb"), {"l": [1, 2, 3, 0, 4, 5], "r": [4, 1, 0, 3, 5, 2]})
    >>> [(r.move, r.cells.tolist(), r.window.tolist()) for r in rings_of(wreath, np.asarray(wreath.colour_ids))]
    [('l', [0, 1, 2, 3], [0, 2]), ('r', [0, 4, 5, 2], [0, 3])]
    """
    cycles: dict[bytes, tuple[str, np.ndarray]] = {}
    for name, perm in puzzle.moves.items():
        found = P.cycles(perm)
        if len(found) != 1:
            return None
        cycle = np.array(found[0])
        key = np.sort(cycle).tobytes()
        if key in cycles:
            if not _is_power(puzzle.moves[cycles[key][0]], perm):
                return None
            continue
        cycles[key] = (name, cycle)
    if len(cycles) < 2:
        return None
    count = np.zeros(puzzle.n_cells, dtype=np.int64)
    for _, cycle in cycles.values():
        count[cycle] += 1
    labels = int(goal.max()) + 1
    out = []
    for name, cycle in cycles.values():
        shared = count[cycle] > 1
        own = np.unique(goal[cycle[~shared]])
        if own.size > 1:
            return None
        foreign = np.ones(labels, dtype=bool)
        foreign[own] = False
        out.append(Ring(name, cycle, np.flatnonzero(shared), foreign))
    if not any(r.window.size for r in out):
        return None
    return out


def _is_power(base: np.ndarray, perm: np.ndarray) -> bool:
    return any(np.array_equal(P.power(base, k), perm) for k in range(1, P.order(base)))


def _score(rows: np.ndarray, goal: np.ndarray, rings: list[Ring]) -> np.ndarray:
    """:data:`WRONG_WEIGHT` per wrong cell less :data:`LOADED_WEIGHT` per loaded window."""
    score = WRONG_WEIGHT * np.count_nonzero(rows != goal, axis=1)
    for ring in rings:
        score -= LOADED_WEIGHT * ring.loaded(rows)
    return score


def rings_beam(problem: Problem, *, width: int = WIDTH, partial: bool = False, shorter_than: int | None = None,
               cancel: CancelToken | None = None, progress: ProgressCallback | None = None,
               work: Work | None = None) -> None:
    """Play a solution the beam over ring powers finds (fewer than ``shorter_than`` turns, if given).

    Raises :class:`SearchFailed` when the puzzle is not made of rings, or when
    the beam runs out of patience, turns or ``work`` (children x cells) without
    a solution; with ``partial`` it then plays the way to the position with the
    fewest wrong cells instead.
    """
    if problem.care is not None or problem.exact:
        raise SearchFailed("the rings beam solves whole positions by colours")
    puzzle = problem.puzzle
    rings = rings_of(puzzle, problem.goal)
    if rings is None:
        raise SearchFailed("the puzzle's moves are not rings sharing cells")
    if problem.is_solved():
        return
    allowed = problem.wildcards if problem.slack is None else problem.slack
    work = work or Work()
    goal = problem.goal
    powers = [_powers(puzzle, r.move) for r in rings]
    steps = [Turn(r.move, k) for r, ks in zip(rings, powers) for k in ks]
    ring_of = np.repeat(np.arange(len(rings)), [len(ks) for ks in powers])
    perms = np.array([puzzle.turn_perm(t) for t in steps])
    costs = np.array([puzzle.turn_cost(t) for t in steps])
    # per kept node (node 0: the start), its parent node and step (-1 for the start)
    node_parent: list[np.ndarray] = []
    node_step: list[np.ndarray] = []
    start = problem.labels[None, :]
    # per layer, the children waiting for it: (rows, scores, parent nodes, steps) chunks
    pending: dict[int, list[tuple[np.ndarray, ...]]] = {
        0: [(start, _score(start, goal, rings), np.array([-1]), np.array([-1]))]}
    seen = np.zeros(0, dtype=np.uint64)
    limit = shorter_than if shorter_than is not None else 4 * max(1, puzzle.n_cells) * MAX_POWER
    closest, closest_node, gained, first = problem.wrong(), 0, 0, 0
    found: int | None = None
    for layer in range(limit):
        if cancel is not None:
            cancel.check()
        if work.exhausted or layer - gained > PATIENCE or not pending:
            break
        waiting = pending.pop(layer, None)
        if waiting is None:
            continue
        rows, parents, step, seen = _keep(waiting, seen, width)
        if not rows.shape[0]:
            continue
        ids = first + np.arange(rows.shape[0])
        first += rows.shape[0]
        node_parent.append(parents)
        node_step.append(step)
        wrong = np.count_nonzero(rows != goal, axis=1)
        best = int(np.argmin(wrong))
        if wrong[best] < closest:
            closest, closest_node, gained = int(wrong[best]), int(ids[best]), layer
        if wrong[best] <= allowed:
            found = int(ids[best])
            break
        last = np.where(step < 0, -1, ring_of[step])
        for s, perm in enumerate(perms):
            mine = np.flatnonzero(last != ring_of[s])
            if not mine.size:
                continue
            children = rows[mine][:, perm]
            work.spend(children.size)
            scores = _score(children, goal, rings)
            order = np.argsort(scores, kind="stable")[:width]
            pending.setdefault(layer + int(costs[s]), []).append(
                (children[order], scores[order], ids[mine[order]], np.full(order.size, s)))
        report(progress, min(0.95, layer / limit), f"rings: {layer} turns, best {closest} wrong")
    end = found if found is not None else (closest_node if partial and closest_node else None)
    if end is None:
        raise SearchFailed("the rings beam found no solution" +
                           ("" if shorter_than is None else f" shorter than {shorter_than} turns"))
    problem.play(_path(np.concatenate(node_parent), np.concatenate(node_step), end, steps))


def _powers(puzzle: Puzzle, move: str) -> list[int]:
    """The powers of ``move`` a step may take: both ways, up to :data:`MAX_POWER` turns or half the order."""
    order = puzzle.move_order(move)
    most = min(MAX_POWER, order // 2)
    return [k for k in range(-most, most + 1) if k and not (2 * k == -order)]


def _keep(waiting: list[tuple[np.ndarray, ...]], seen: np.ndarray,
          width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``width`` best children of a layer (stable by score; the first of each position) whose hashes are not
    ``seen``, and the seen hashes with theirs."""
    rows, scores, parents, steps = (np.concatenate(part) for part in zip(*waiting))
    order = np.argsort(scores, kind="stable")
    hashes = row_hashes(rows)[order]
    _, first = np.unique(hashes, return_index=True)
    first = np.sort(first)
    fresh = first[~np.isin(hashes[first], seen)][:width]
    kept = order[fresh]
    return rows[kept], parents[kept], steps[kept], np.union1d(seen, hashes[fresh])


def _path(parent: np.ndarray, step: np.ndarray, node: int, steps: list[Turn]) -> list[Turn]:
    """The turns from the start to ``node`` (node ids index ``parent`` and ``step``)."""
    out = []
    while node > 0:
        out.append(steps[int(step[node])])
        node = int(parent[node])
    return out[::-1]


def rings_feasible(problem: Problem) -> bool:
    """Whole positions by colours of a puzzle of few rings sharing cells."""
    puzzle = problem.puzzle
    return (problem.care is None and not problem.exact and puzzle.n_cells <= MAX_CELLS
            and len(puzzle.moves) <= MAX_RINGS and rings_of(puzzle, problem.goal) is not None)


STRATEGY = Strategy(
    "rings", "a beam over ring turns that loads the shared cells with colours to exchange: wreaths by colours",
    lambda problem, context: rings_beam(problem, cancel=context.cancel, progress=context.progress),
    applies=lambda problem, context: rings_feasible(problem))

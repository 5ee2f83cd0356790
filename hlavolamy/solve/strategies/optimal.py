"""The "optimal" strategy: iterative deepening A* with pattern databases, shortest solutions.

Depth-first IDA* spends its time in Python per node; here each iteration
walks the same tree breadth first, one level at a time, with numpy doing a
whole level in a few array operations (breadth-first iterative deepening,
Zhou & Hansen 2004). A node is the position (labels at every cell), its rank
in every pattern (:mod:`~hlavolamy.solve.tables.pdb`) and its *pruning state*; the
children of a level are one gather per pattern (``table[rank]``), their
heuristic the maximum of the patterns' distances, and only children with
``depth + 1 + h <= bound`` survive. The bound starts at ``h(start)`` and
grows to the smallest pruned ``f`` after each iteration, so the first
solution found is a shortest one (the heuristic is admissible).

Move pruning never changes the optimum: no step right after its inverse, a
move turned at most half its order in one direction (a quarter turn's half
turn as two clockwise steps), and of two commuting moves only one order.
The pruning state is the last step and how many times in a row it was
played. Duplicates within a level (same position and pruning state, whose
subtrees are identical) are merged.

"Solved" is the :class:`~hlavolamy.solve.problem.Problem`'s: at most
``wildcards`` (or ``slack``) cells off. The patterns' distances then run
from every projected state showing at most that many points off (each is a
wrong cell), so the bound stays admissible; a child is tested on its full
labels only when every pattern says 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Strategy
from hlavolamy.solve.strategies.search import SearchFailed
from hlavolamy.solve.tables import pdb
from hlavolamy.solve.tables.pdb import Pattern, patterns
from hlavolamy.solve.tables.steps import Steps, step_automaton, step_path

AUTO_MAX_STATES = 10**10
"""Largest number of positions (group order, or colourings) for which ``auto`` tries this strategy."""
AUTO_NODES = 3_000_000
"""Nodes ``auto`` lets one solve generate before it gives up and uses the chain or commutators (a work
budget, not seconds: the same answer on a busy machine; a time limit only cuts). At the 0.9-1.2M nodes per
CPU second measured here, ~3 s of an idle core: the old node cap, which ended the search before the old 5 s."""
NODES = 10_000_000
"""Nodes the "optimal" strategy itself may generate (the time limit or a cancel may stop it sooner)."""
_MAX_CELLS = 64
_CHUNK = 50_000
"""Nodes expanded at once (bounds the memory of one level's children)."""


def optimal_feasible(problem: Problem) -> bool:
    """Whole puzzle, few moved cells and at most :data:`AUTO_MAX_STATES` positions (colourings for colours)."""
    if problem.care is not None:
        return False
    puzzle = problem.puzzle
    structure = pieces(puzzle)
    if sum(len(o) for o in structure.orbits) > _MAX_CELLS:
        return False
    return _positions(problem) <= AUTO_MAX_STATES


def _positions(problem: Problem) -> int | float:
    """The group order, or for colours the smaller of it and the colourings of the orbits."""
    from hlavolamy.analysis.membership import group_order

    order = group_order(problem.puzzle)
    count = order.value if order.exact else math.inf
    if problem.exact or _colours_tell_pieces(problem.puzzle, problem.goal):
        return count
    colourings = 1
    for orbit in pieces(problem.puzzle).orbits:
        _, counts = np.unique(problem.goal[list(orbit)], return_counts=True)
        colourings *= pdb.colourings(len(orbit), counts[:-1])
    return min(count, colourings)


def _colours_tell_pieces(puzzle: Puzzle, goal: np.ndarray) -> bool:
    """Colours fix the position: no two (piece, turn) of a piece orbit show the same colours on a slot.

    A piece coloured A E E is told apart from its turns by where its A is.
    """
    for po in pieces(puzzle).piece_orbits:
        turns = np.array(po.orientation_group, dtype=np.intp)
        shown = goal[po.cells][:, turns].reshape(-1, po.piece_size)  # every piece in every turn
        if np.unique(shown, axis=0).shape[0] != shown.shape[0]:
            return False
    return True


def optimal(problem: Problem, *, nodes: int = NODES,
            cancel: CancelToken | None = None, progress: ProgressCallback | None = None) -> None:
    """Play a shortest solution of ``problem``.

    Raises :class:`SearchFailed` past ``nodes`` generated nodes (its own work
    budget, unlike ``cancel``, whose :class:`Cancelled` ends the solve).
    """
    if problem.care is not None:
        raise SearchFailed("the optimal strategy solves whole puzzles only")
    cancel = cancel or CancelToken()
    if problem.is_solved():
        return
    if not problem.exact and problem.wildcards == 0 and _colours_tell_pieces(problem.puzzle, problem.goal):
        problem.to_exact()
    puzzle = problem.puzzle
    report(progress, 0.0, "optimal: pattern databases")
    tables = patterns(puzzle, problem.goal, problem.exact, cancel=cancel)
    if not tables:
        raise SearchFailed("no pattern database fits this puzzle")
    steps = step_automaton(puzzle)
    wildcards = problem.wildcards if problem.slack is None else problem.slack
    path = shortest_path(problem.labels, problem.goal, tables, steps, wildcards=wildcards, nodes=nodes,
                         cancel=cancel, progress=progress)
    problem.play([steps.turns[g] for g in path])


def shortest_path(labels: np.ndarray, goal: np.ndarray, tables: list[Pattern], steps: Steps, *, wildcards: int = 0,
                  nodes: int = NODES, cancel: CancelToken | None = None,
                  progress: ProgressCallback | None = None) -> list[int]:
    """Indices into ``steps.turns`` of a shortest way from ``labels`` to ``goal`` (at most ``wildcards`` off).

    Raises :class:`SearchFailed` past ``nodes`` generated nodes.
    """
    return shortest_paths(labels, goal, tables, steps, wildcards=wildcards, nodes=nodes,
                          cancel=cancel, progress=progress)[0]


def shortest_paths(labels: np.ndarray, goal: np.ndarray, tables: list[Pattern], steps: Steps, *,
                   wildcards: int = 0, nodes: int = NODES,
                   cancel: CancelToken | None = None, progress: ProgressCallback | None = None,
                   limit: int = 1, longest: int | None = None,
                   accept: Callable[[np.ndarray], np.ndarray] | None = None) -> list[list[int]]:
    """Up to ``limit`` shortest ways (as :func:`shortest_path`), all of the least length, distinct end states.

    With ``longest``, ways of more steps are not searched (:class:`SearchFailed` instead). With
    ``accept``, a position is solved when every pattern says 0 and ``accept`` (given rows of labels,
    returning a mask) says so, instead of when it shows ``goal``.
    """
    search = _Search(labels, goal, tables, steps, wildcards, nodes, cancel or CancelToken())
    search.accept = accept
    return search.run(progress, limit, longest)


class _Search:
    """One breadth-first IDA*: levels of nodes as arrays, bounds raised until a solved node appears."""

    def __init__(self, labels: np.ndarray, goal: np.ndarray, tables: list[Pattern], steps: Steps, wildcards: int,
                 nodes: int, cancel: CancelToken):
        self.tables = tables
        self.dist = [t.distances(wildcards) for t in tables]
        self.steps = steps
        self.wildcards = wildcards
        self.budget = nodes
        self.cancel = cancel
        dtype = np.uint8 if max(labels.max(), goal.max()) < 256 else np.int32
        self.start = labels.astype(dtype)
        self.goal = goal.astype(dtype)
        ranks = [int(t.ranks(self.start)[0]) for t in tables]
        if min(ranks) < 0:
            raise SearchFailed("the position is outside a pattern the moves can reach")
        self.start_ranks = np.array(ranks, dtype=np.int32)
        self.generated = 0
        self.accept: Callable[[np.ndarray], np.ndarray] | None = None

    def heuristic(self, ranks: np.ndarray) -> np.ndarray:
        """Max over patterns of the distances; ``ranks`` has one leading row per pattern."""
        return np.max([d[r] for d, r in zip(self.dist, ranks)], axis=0)

    def run(self, progress: ProgressCallback | None, limit: int = 1, longest: int | None = None) -> list[list[int]]:
        bound = max(1, int(self.heuristic(self.start_ranks[:, None])[0]))
        while True:
            if longest is not None and bound > longest:
                raise SearchFailed(f"no way of at most {longest} steps")
            report(progress, min(0.9, self.generated / max(self.budget, 1)), f"optimal: searching {bound} steps")
            paths, next_bound = self.iteration(bound, limit)
            if paths:
                return paths
            if next_bound is None:
                raise SearchFailed("no sequence of moves solves this position")
            bound = next_bound

    def iteration(self, bound: int, limit: int = 1) -> tuple[list[list[int]], int | None]:
        """All nodes with ``depth + h <= bound``, level by level; up to ``limit`` solution paths or the next bound."""
        rows = self.start[None, :]
        ranks = self.start_ranks[:, None]
        state = np.zeros(1, dtype=np.int32)
        parents: list[tuple[np.ndarray, np.ndarray]] = []
        next_bound: int | None = None
        for depth in range(bound):
            level = [self._expand(rows[lo:lo + _CHUNK], ranks[:, lo:lo + _CHUNK], state[lo:lo + _CHUNK],
                                  depth, bound, lo) for lo in range(0, rows.shape[0], _CHUNK)]
            for *_, pruned in level:
                if pruned is not None:
                    next_bound = pruned if next_bound is None else min(next_bound, pruned)
            rows = np.concatenate([c[0] for c in level])
            ranks = np.concatenate([c[1] for c in level], axis=1)
            state = np.concatenate([c[2] for c in level])
            parent = np.concatenate([c[3] for c in level])
            step = np.concatenate([c[4] for c in level])
            rows, ranks, state, parent, step = _merge_duplicates(rows, ranks, state, parent, step)
            parents.append((parent, step))
            solved = self._solved(rows, ranks)
            if solved.size:
                return [step_path(parents, int(node)) for node in solved[:limit]], None
            if not rows.shape[0]:
                return [], next_bound
        return [], bound + 1 if next_bound is None else min(next_bound, bound + 1)

    def _expand(self, rows: np.ndarray, ranks: np.ndarray, state: np.ndarray, depth: int, bound: int, offset: int):
        """Children of a chunk of nodes within the bound, and the smallest ``f`` beyond it."""
        self.cancel.check()
        child_ranks = [t.table[r] for t, r in zip(self.tables, ranks)]  # each (nodes, steps)
        h = np.max([d[c] for d, c in zip(self.dist, child_ranks)], axis=0)
        after = self.steps.after[state]
        allowed = after >= 0
        f = depth + 1 + h.astype(np.int32)
        keep = allowed & (f <= bound)
        beyond = f[allowed & ~keep]
        node, g = np.nonzero(keep)
        self.generated += node.size
        if self.generated > self.budget:
            raise SearchFailed(f"more than {self.budget} nodes searched")
        children = rows[node[:, None], self.steps.perms[g]]
        out_ranks = np.array([c[node, g] for c in child_ranks], dtype=np.int32).reshape(len(self.tables), -1)
        return (children, out_ranks, after[node, g], node + offset, g.astype(np.int32),
                int(beyond.min()) if beyond.size else None)

    def _solved(self, rows: np.ndarray, ranks: np.ndarray) -> np.ndarray:
        """Indices of the nodes whose patterns all say 0 and whose labels are solved."""
        candidates = np.flatnonzero(self.heuristic(ranks) == 0)
        if self.accept is not None:
            return candidates[self.accept(rows[candidates])] if candidates.size else candidates
        wrong = np.count_nonzero(rows[candidates] != self.goal, axis=1)
        return candidates[wrong <= self.wildcards]


def _merge_duplicates(rows, ranks, state, parent, step):
    """Keep one node per (labels, pruning state): hash, sort, and drop rows equal to their predecessor."""
    if rows.shape[0] < 2:
        return rows, ranks, state, parent, step
    width = rows.shape[1] * rows.itemsize
    padded = np.zeros((rows.shape[0], -(-width // 8) * 8 + 8), dtype=np.uint8)
    padded[:, :width] = rows.view(np.uint8).reshape(rows.shape[0], width)
    padded[:, -4:] = state.astype(np.int32).view(np.uint8).reshape(-1, 4)
    words = padded.view(np.uint64)
    mix = np.arange(1, words.shape[1] + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    hashes = (words * mix).sum(axis=1) if words.shape[1] else np.zeros(rows.shape[0], dtype=np.uint64)
    order = np.argsort(hashes, kind="stable")
    sorted_words = words[order]
    same = np.zeros(order.size, dtype=bool)
    same[1:] = (hashes[order][1:] == hashes[order][:-1]) & np.all(sorted_words[1:] == sorted_words[:-1], axis=1)
    keep = np.sort(order[~same])
    return rows[keep], ranks[:, keep], state[keep], parent[keep], step[keep]


STRATEGY = Strategy(
    "optimal", "IDA* with pattern databases: shortest answers for groups up to ~1e10 positions",
    lambda problem, context: optimal(problem, cancel=context.cancel, progress=context.progress),
    applies=lambda problem, context: optimal_feasible(problem))

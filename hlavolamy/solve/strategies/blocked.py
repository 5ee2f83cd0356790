"""Solving blocking (bandaged) puzzles with legal moves only, complete by construction.

Two phases on the shape graph of :mod:`hlavolamy.analysis.blocking`:

1. bring the shape home along a shortest legal path (the spanning-tree path,
   reversed: legality follows from the shapes alone);
2. at the home shape the remaining position lies in ``H``, the group of legal
   home-to-home words; solve it with the generic solver on a derived puzzle
   whose generators are macros of ``H`` (shortest words found by a bounded
   search, plus the Schreier generators needed to generate all of ``H``),
   then expand each macro back into the original moves. Every macro starts
   and ends at home, so the expanded word is legal.

The result is then shortened through its own positions with words from the
near-solved table (see :func:`shortcut`). Small puzzles (all positions fit a
breadth-first search) are solved optimally from a table of all positions. An
IDA* search over positions, with a heuristic that is the larger of the
shape's distance from home and the farthest any cell is from its home in the
unblocked puzzle, looks for something shorter on mid-size puzzles. Every
solution is replayed with legality checked on every step.

:func:`quick_blocked` is the anytime solve's first answer: the same two
phases, phase 2 sifted through a quick chain of the home-shape group instead
of the nested ``auto`` race, no table of all positions, no IDA*; the full
strategy then improves it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.blocking import (
    MAX_SHAPES,
    MAX_STATES,
    ShapeGraph,
    ShapeSpace,
    Stabiliser,
    breadth_first,
    merge_powers,
    near_solved,
    position_dtype,
    shape_graph,
    stabiliser,
    word_to,
)
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn, invert
from hlavolamy.errors import Cancelled, HlavolamyError, UnreachableError
from hlavolamy.solve.caches import solve_cache
from hlavolamy.solve.pipeline import run_pipeline
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Strategy
from hlavolamy.solve.tables.chain import quick_chain, sift_solve

SEARCH_NODES = 60_000
"""Node budget of the IDA* improvement search after a two-phase solution."""

SEARCH_STATES = 10**10
"""The IDA* improvement runs only on puzzles with at most this many positions (it cannot help beyond)."""


@dataclass
class BlockedResult:
    """The legal solving sequence and how it was found (turned into the solver's Solution record)."""

    moves: list[Turn]
    strategy: str


def _solve_blocked(problem: Problem, context: Context, quick: bool = False) -> str:
    """The registered strategy: legal moves found by :func:`find_blocked_solution`, checked step by step."""
    if not problem.exact:
        raise HlavolamyError("positions given by colours are not solved on puzzles with blockings yet: "
                             "give the exact position")
    state = State(problem.puzzle, problem.labels)
    result = find_blocked_solution(problem.puzzle, state, budget=context.cancel, progress=context.progress,
                                   quick=quick)
    problem.play(verify_legal(problem.puzzle, state, result.moves))
    report(context.progress, 1.0, f"solved in {problem.puzzle.length(problem.turns)} moves ({result.strategy})")
    return result.strategy


def quick_blocked(problem: Problem, context: Context) -> str:
    """A first answer, cheaply: two phases with a quick chain in phase 2 (see the module's text)."""
    return _solve_blocked(problem, context, quick=True)


def verify_legal(puzzle: Puzzle, state: State, moves: list[Turn]) -> list[Turn]:
    """Replay with legality checked on every single step; the moves if they solve, else an error."""
    end = state.apply(moves, check_legal=True)
    if not end.is_solved():
        raise HlavolamyError(f"internal error: the blocked solver's {len(moves)} moves do not solve the position")
    return moves


def find_blocked_solution(puzzle: Puzzle, state: State, *, budget: CancelToken,
                          progress: ProgressCallback | None = None, quick: bool = False) -> BlockedResult:
    """Pick the method: a table of all positions when small, else two phases (then a search for shorter).

    ``quick``: two phases only, phase 2 by a quick chain (:func:`quick_blocked`).
    """
    if state.perm.size != puzzle.n_cells:
        raise HlavolamyError(f"the state has {state.perm.size} cells, the puzzle {puzzle.n_cells}")
    if state.is_solved():
        return BlockedResult([], "blocked: already solved")
    report(progress, 0.05, "shape graph and the home-shape group")
    graph = shape_graph(puzzle, max_shapes=MAX_SHAPES, cancel=budget)
    stab = stabiliser(puzzle, cancel=budget)
    if quick:
        moves = two_phase(puzzle, graph, state.perm, budget=budget, progress=progress, quick=True)
        return BlockedResult(shortcut(puzzle, state.perm, moves), "blocked: shape home, then a quick chain")
    if graph.complete and stab.order is not None and graph.size * stab.order <= MAX_STATES:
        table = position_table(puzzle, cancel=budget)
        if table is not None:
            return BlockedResult(table.solve(state.perm), "blocked: breadth-first table of all positions")
    moves = shortcut(puzzle, state.perm, two_phase(puzzle, graph, state.perm, budget=budget, progress=progress))
    if stab.order is not None and graph.size * stab.order <= SEARCH_STATES:
        report(progress, 0.95, "IDA* for a shorter solution")
        shorter = search_positions(puzzle, graph, state.perm, bound=puzzle.length(moves) - 1,
                                   max_nodes=SEARCH_NODES, budget=budget)
        if shorter is not None:
            return BlockedResult(shorter, "blocked: IDA* over positions")
    return BlockedResult(moves, "blocked: shape home, then the home-shape group")


def shortcut(puzzle: Puzzle, perm: np.ndarray, moves: list[Turn]) -> list[Turn]:
    """The shortest route through the solution's own positions, using near-solved words as shortcuts.

    Along the path ``a_0 .. a_L`` (single steps) there are two kinds of
    shortcut, both legal: from ``a_i`` at the home shape, any ``a_j`` whose
    difference ``x`` (``a_i[x] = a_j``) is in the near-solved table, by the
    table's word for ``x`` (legality depends only on the shape, so a word
    legal from solved is legal from ``a_i``); and from any ``a_i`` in the
    table straight to solved by its word backwards. A shortest path over
    these edges (all go forward) never makes the solution longer.
    """
    table = near_solved(puzzle)
    space = ShapeSpace(puzzle)
    dtype = position_dtype(puzzle)
    steps = [Turn(t.move, 1 if t.power > 0 else -1) for t in moves for _ in range(abs(t.power))]
    states = np.empty((len(steps) + 1, puzzle.n_cells), dtype=np.int64)
    states[0] = perm
    for k, t in enumerate(steps):
        states[k + 1] = states[k][puzzle.turn_perm(t)]
    at_home = np.all(space.shapes_of(states) == space.home[None, :], axis=1)
    n = len(steps)
    cost = list(range(n + 1))
    via: list[tuple[int, list[Turn] | None]] = [(k - 1, None) for k in range(n + 1)]
    depth = _table_depth(table)
    for i in range(n + 1):
        if i and cost[i - 1] + 1 < cost[i]:
            cost[i], via[i] = cost[i - 1] + 1, (i - 1, None)
        key = states[i].astype(dtype).tobytes()
        if key in table and cost[i] + depth(key) < cost[n]:
            cost[n], via[n] = cost[i] + depth(key), (i, invert(word_to(table, space.steps, key)))
        if at_home[i] and i + 2 <= n:
            differences = np.argsort(states[i])[states[i + 2:]].astype(dtype)
            for j, row in enumerate(differences, start=i + 2):
                key = row.tobytes()
                if key in table and cost[i] + depth(key) < cost[j]:
                    cost[j], via[j] = cost[i] + depth(key), (i, word_to(table, space.steps, key))
    out: list[list[Turn]] = []
    k = n
    while k > 0:
        prev, word = via[k]
        out.append(word if word is not None else [steps[prev]])
        k = prev
    return merge_powers(puzzle, [t for part in reversed(out) for t in part])


def _table_depth(table: dict[bytes, tuple[bytes, int]]) -> Callable[[bytes], int]:
    """Distance from solved of a table position (walks the parent chain; memoised)."""
    memo: dict[bytes, int] = {}

    def depth(key: bytes) -> int:
        if key not in memo:
            parent, step = table[key]
            memo[key] = 0 if step < 0 else depth(parent) + 1
        return memo[key]

    return depth


# -- phase 1 and 2 -----------------------------------------------------------------------
def shape_index(graph: ShapeGraph, perm: np.ndarray) -> int:
    """The shape graph's vertex of the position's shape; UnreachableError when there is none."""
    shape = graph.space.shape_of(perm)
    index = graph.find(shape)
    if index is None:
        sets = graph.space.fused_position_sets(shape)
        where = "; ".join(str(list(s)) for s in sets)
        if graph.complete:
            never = [list(s) for s in sets if s not in graph.position_sets()]
            if never:
                raise UnreachableError(
                    f"no legal sequence puts fused cells at positions {', '.join(map(str, never))} "
                    f"(no fused set covers them together in any of the {graph.size} reachable shapes)"
                )
            raise UnreachableError(
                f"the fused sets sit at positions {where}: no legal sequence brings them there from the solved "
                f"position (it is none of the {graph.size} shapes legal moves reach)"
            )
        raise UnreachableError(
            f"the fused sets sit at positions {where}, which is none of the first {graph.size} shapes explored "
            f"(the exploration bound was reached, so this may be reachable)"
        )
    return index


def phase1(graph: ShapeGraph, index: int) -> list[Turn]:
    """A shortest legal path from the shape to home: the spanning-tree path backwards."""
    return invert(graph.path(index))


def two_phase(puzzle: Puzzle, graph: ShapeGraph, perm: np.ndarray, *, budget: CancelToken,
              progress: ProgressCallback | None = None, quick: bool = False) -> list[Turn]:
    """Phase 1 (shape home) then phase 2 (the home-shape group); moves merged, not yet replayed."""
    first = phase1(graph, shape_index(graph, perm))
    at_home = State(puzzle, perm).apply(first, check_legal=True).perm
    report(progress, 0.15, f"shape home in {len(first)} steps; the home-shape group")
    stab = stabiliser(puzzle, cancel=budget)
    second = phase2(puzzle, stab, at_home, budget=budget, progress=progress, quick=quick)
    return merge_powers(puzzle, first + second)


def phase2(puzzle: Puzzle, stab: Stabiliser, perm: np.ndarray, *, budget: CancelToken,
           progress: ProgressCallback | None = None, quick: bool = False) -> list[Turn]:
    """Solve a home-shape position inside ``H`` with the generic solver on the macro puzzle (``quick``: sifted
    through its quick chain, no race)."""
    if P.is_identity(perm):
        return []
    _require_member(stab, perm)
    derived = macro_puzzle(puzzle, stab)
    scaled = None if progress is None else _scaled(progress, 0.2, 0.95)
    try:
        if quick:
            moves = sift_solve(quick_chain(derived, cancel=budget, progress=scaled), perm, cancel=budget)
        else:
            problem = Problem.from_input(derived, State(derived, perm))
            moves, _ = run_pipeline(problem, "auto", Context(budget, scaled))
    except UnreachableError as exc:
        raise UnreachableError(
            "the fused sets can be brought home, but the rest of the position is outside the group of legal "
            f"home-to-home move sequences ({exc})"
        ) from None
    return expand_macros(puzzle, stab, moves)


def _require_member(stab: Stabiliser, perm: np.ndarray) -> None:
    if stab.contains(perm) is False:
        raise UnreachableError(
            "the fused sets can be brought home, but the rest of the position is not in the group of legal "
            f"home-to-home move sequences (order {stab.order}): no legal sequence solves it"
        )


def macro_puzzle(puzzle: Puzzle, stab: Stabiliser) -> Puzzle:
    """The derived puzzle whose generators ``H0, H1, ...`` are the stabiliser's macros (cached)."""
    cache = solve_cache(puzzle)
    if cache.macro_puzzle is None:
        moves = {f"H{k}": m.perm for k, m in enumerate(stab.generators)}
        cache.macro_puzzle = Puzzle(puzzle.colours, moves, name=f"{puzzle.name} (home-shape group)",
                                    palette=puzzle.palette)
    return cache.macro_puzzle


def expand_macros(puzzle: Puzzle, stab: Stabiliser, turns: list[Turn]) -> list[Turn]:
    """Macro turns ``Hk^p`` as the original legal moves (each macro ``|p|`` times, inverted for ``p < 0``)."""
    out: list[Turn] = []
    for t in turns:
        word = list(stab.generators[int(t.move[1:])].turns)
        if t.power < 0:
            word = invert(word)
        for _ in range(abs(t.power)):
            out.extend(word)
    return merge_powers(puzzle, out)


def _scaled(progress: ProgressCallback, low: float, high: float) -> ProgressCallback:
    return lambda fraction, message: progress(low + (high - low) * fraction, message)


# -- small puzzles: every position in a table ---------------------------------------------
class PositionTable:
    """Every reachable position with the step that first reached it (breadth-first from solved)."""

    def __init__(self, puzzle: Puzzle, parents: dict[bytes, tuple[bytes, int]]):
        self.puzzle = puzzle
        self.parents = parents
        self.steps = ShapeSpace(puzzle).steps
        self.dtype = position_dtype(puzzle)

    def solve(self, perm: np.ndarray) -> list[Turn]:
        """An optimal legal solution (in single steps), or UnreachableError."""
        key = np.asarray(perm, dtype=self.dtype).tobytes()
        if key not in self.parents:
            raise UnreachableError(
                f"not among the {len(self.parents)} positions legal moves reach "
                "(a breadth-first search visited all of them)"
            )
        return merge_powers(self.puzzle, invert(word_to(self.parents, self.steps, key)))


def position_table(puzzle: Puzzle, *, max_states: int = MAX_STATES, cancel: CancelToken | None = None) -> PositionTable | None:
    """The table of all positions when there are at most ``max_states`` (cached), else None."""
    cache = solve_cache(puzzle)
    if not cache.position_table_searched:
        parents, complete = breadth_first(puzzle, max_states=max_states, cancel=cancel)
        cache.position_table = PositionTable(puzzle, parents) if complete else None
        cache.position_table_searched = True
    return cache.position_table


# -- IDA* over positions ------------------------------------------------------------------------
def cell_distances(puzzle: Puzzle) -> np.ndarray:
    """``d[i, j]``: fewest single steps that carry a cell from position ``i`` to ``j``, ignoring blockings."""
    cache = solve_cache(puzzle)
    if cache.cell_distances is None:
        n = puzzle.n_cells
        # Content at position m[i] moves to position i: an edge m[i] -> i for every step.
        steps = [puzzle.turn_perm(Turn(name, s)) for name in puzzle.moves for s in (1, -1)]
        inf = n + 1
        dist = np.full((n, n), inf, dtype=np.int32)
        np.fill_diagonal(dist, 0)
        reach = np.eye(n, dtype=bool)
        for d in range(1, n):
            grown = reach.copy()
            for m in steps:
                grown |= reach[:, m]
            new = grown & ~reach
            if not new.any():
                break
            dist[new] = d
            reach = grown
        cache.cell_distances = dist
    return cache.cell_distances


def search_positions(puzzle: Puzzle, graph: ShapeGraph, perm: np.ndarray, *, bound: int, max_nodes: int,
                     budget: CancelToken) -> list[Turn] | None:
    """IDA* for a legal solution of at most ``bound`` single steps, or None (not found within ``max_nodes``).

    The heuristic is admissible: the shape must travel its distance to home,
    and each step moves every cell along one edge of the unblocked cell graph.
    """
    if not graph.complete or bound <= 0:
        return None
    dist = cell_distances(puzzle)
    space = graph.space
    cells = np.arange(puzzle.n_cells)
    start_shape = graph.find(space.shape_of(perm))
    if start_shape is None:
        return None
    inverse_step = _inverse_steps(space)
    nodes = 0
    path: list[int] = []

    def h(p: np.ndarray, s: int) -> int:
        return max(int(dist[cells, p].max()), int(graph.depth[s]))

    def dfs(p: np.ndarray, s: int, g: int, limit: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfNodes
        if nodes % 2048 == 0:
            budget.check()
        if g + h(p, s) > limit:
            return False
        if P.is_identity(p):
            return True
        for j in range(len(space.steps)):
            t = graph.next[s, j]
            if t < 0 or (path and inverse_step[path[-1]] == j):
                continue
            path.append(j)
            if dfs(p[space.step_perms[j]], int(t), g + 1, limit):
                return True
            path.pop()
        return False

    limit = h(perm, start_shape)
    try:
        while limit <= bound:
            if dfs(perm, start_shape, 0, limit):
                return merge_powers(puzzle, [space.steps[j] for j in path])
            limit += 1
    except (_OutOfNodes, Cancelled):
        return None
    return None


class _OutOfNodes(Exception):
    """The IDA* node budget is spent."""


def _inverse_steps(space: ShapeSpace) -> list[int]:
    """For each step the index of the step that undoes it (itself for order-2 moves)."""
    where = {(t.move, t.power): j for j, t in enumerate(space.steps)}
    return [where.get((t.move, -t.power), j) for j, t in enumerate(space.steps)]


STRATEGY = Strategy("blocked", "puzzles with blockings: the shape home along the shape graph, then the home-shape "
                    "group, legal moves only", _solve_blocked, applies=lambda problem, context: bool(problem.puzzle.blockings))

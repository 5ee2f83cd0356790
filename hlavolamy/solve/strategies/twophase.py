"""The continued two-phase search behind the "phases" strategy (Kociemba's trick, found generically).

Phase 1 brings the position into a coset of the subgroup ``H`` (its
colouring solved), phase 2 solves it with ``H``'s generators. The first
total is rarely the shortest: a longer phase 1 often leaves a much shorter
phase 2. So the search goes on: for every phase-1 length ``d`` from the
lower bound upwards it lists *every* phase-1 answer of exactly ``d``
steps, finishes all of them at once by one phase-2 search bounded by
``best - d - 1`` (its IDA* iterations grow to the first bound where some
answer finishes: the shortest finish among them), keeps the shortest
total, and stops when ``d`` reaches the best total (nothing longer can
win) or the work budget (nodes generated, both phases) is spent — so the
answer depends on the budget, never on the clock.

Kociemba's pruning, generic: a phase-1 answer whose last turn (the last
run of one move) keeps the colouring solved — it lies in ``H`` — is
skipped: without that turn it is a shorter phase-1 answer, already
finished by a phase 2 that could play the turn itself. Moves that commute
with it may stand after it, so every run of the trailing block of
commuting moves is tested.

Phase 2 counts what the answer's length counts: a square of a move is one
step of ``H`` but two quarter turns, so its searches weigh each step by
its cost (:meth:`~hlavolamy.core.puzzle.Puzzle.turn_cost`), with pattern
databases whose distances are weighed the same way (:func:`weighted_distances`).

Both searches walk the tree depth first in chunks of nodes held as numpy
arrays (each node carries its path), so memory stays bounded however
deep phase 1 goes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.symmetry import Symmetry
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled
from hlavolamy.solve.tables.pdb import Pattern
from hlavolamy.solve.tables.steps import Steps

CHUNK = 20_000
"""Nodes expanded at once (bounds the memory of a level's children)."""


class OutOfWork(Exception):
    """The node budget is spent (internal: the best answer so far stands)."""


@dataclass
class Work:
    """A budget of nodes generated, shared by every search of one solve (a part of it: ``within``)."""

    nodes: int
    spent: int = 0
    within: Work | None = None

    def spend(self, n: int) -> None:
        if self.within is not None:
            self.within.spend(n)
        self.spent += n
        if self.spent > self.nodes:
            raise OutOfWork(self)


@dataclass(frozen=True)
class Guide:
    """A pattern's step table with the distances a search prunes by."""

    pattern: Pattern
    dist: np.ndarray
    reads: np.ndarray | None = None
    """What the pattern reads at a cell holding label ``l``: ``reads[l]`` (None: the label itself)."""
    near: np.ndarray | None = None
    """``near[rank, step]``: the distance after the step (:func:`near_distances`), for the guide that prunes first."""

    def rank(self, labels: np.ndarray) -> int:
        return int(self.pattern.ranks(labels if self.reads is None else self.reads[labels])[0])

    def after(self, ranks: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The rank after ``steps[i]`` from ``ranks[i]``."""
        table = self.pattern.table
        return table.ravel()[ranks.astype(np.int64, copy=False) * table.shape[1] + steps]


@dataclass(frozen=True)
class Joined:
    """Two patterns seen together: rank ``a * |b| + b``, its step table and distances over the product
    (unreachable pairs: 255)."""

    a: Guide
    b: Guide
    dist: np.ndarray
    near: np.ndarray | None = None

    def rank(self, labels: np.ndarray) -> int:
        ra, rb = self.a.rank(labels), self.b.rank(labels)
        return -1 if min(ra, rb) < 0 else ra * self.b.pattern.size + rb

    def after(self, ranks: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The rank after ``steps[i]`` from ``ranks[i]`` (the product's table is held only when it is small)."""
        table = self._table
        if table is not None:
            return table.ravel()[ranks.astype(np.int64, copy=False) * table.shape[1] + steps]
        size = self.b.pattern.size
        high, low = np.divmod(ranks, size)
        return self.a.after(high, steps) * size + self.b.after(low, steps)

    @functools.cached_property
    def _table(self) -> np.ndarray | None:
        """The product's step table where it has at most :data:`HELD_STATES` states: a step is then one read
        instead of two and a division (Santa's cube_3/3/3 has five such guides beside its big ones)."""
        if self.dist.size > HELD_STATES:
            return None
        size = self.b.pattern.size
        high, low = np.divmod(np.arange(self.dist.size), size)
        return self.a.pattern.table[high] * size + self.b.pattern.table[low]


HELD_STATES = 100_000
"""Most states of a :class:`Joined` guide whose step table is held (a hundred thousand: 7 MB for 18 steps)."""


TABLE_CHUNK = 1 << 20
"""States handled between two looks at the cancel token while the continued search's tables are built (the
3x3x3's took 1-2 s at one go, past a 10 s limit)."""


def near_distances(guide: Guide | Joined, steps: int | None = None, cancel: CancelToken | None = None) -> np.ndarray:
    """``near[rank, step]``: the guide's distance after each step (one byte each): the first guide's test of a
    child then reads one byte instead of a rank and a distance."""
    n = guide.dist.size
    steps = steps or (guide.a.pattern.table.shape[1] if isinstance(guide, Joined) else guide.pattern.table.shape[1])
    near = np.empty((n, steps), dtype=np.uint8)
    for lo in range(0, n, 200_000):
        if cancel is not None:
            cancel.check()
        ranks = np.arange(lo, min(n, lo + 200_000))
        near[lo:lo + ranks.size] = guide.dist[guide.after(np.repeat(ranks, steps), np.tile(np.arange(steps),
                                                                                         ranks.size))].reshape(-1, steps)
    near.flags.writeable = False
    return near


def joined_distances(a: Pattern, b: Pattern, cancel: CancelToken | None = None) -> np.ndarray:
    """Fewest steps from every (a, b) state to both goals, breadth first over the product of the two tables
    (a level's frontier :data:`TABLE_CHUNK` states at a time, the same distances)."""
    size = b.size
    dist = np.full(a.size * size, 255, dtype=np.uint8)
    frontier = (np.flatnonzero(a.off == 0)[:, None] * size + np.flatnonzero(b.off == 0)[None, :]).ravel()
    dist[frontier] = 0
    level = 0
    while frontier.size and level < 254:
        level += 1
        new = 0
        for lo in range(0, frontier.size, TABLE_CHUNK):
            if cancel is not None:
                cancel.check()
            part = frontier[lo:lo + TABLE_CHUNK]
            children = (a.table[part // size] * size + b.table[part % size]).ravel()
            children = children[dist[children] == 255]
            dist[children] = level
            new += children.size
        frontier = np.flatnonzero(dist == level) if new else frontier[:0]
    dist.flags.writeable = False
    return dist


def step_costs(puzzle: Puzzle, turns: list[Turn]) -> np.ndarray:
    """What each step counts in the answer's length."""
    return np.array([puzzle.turn_cost(t) for t in turns], dtype=np.int32)


def weighted_distances(table: np.ndarray, seeds: np.ndarray, costs: np.ndarray) -> np.ndarray:
    """Least total cost from each state to a seed, steps costing ``costs[g]`` (at least 1; closed under inverses)."""
    dist = np.full(table.shape[0], 255, dtype=np.uint8)
    dist[np.flatnonzero(seeds)] = 0
    by_cost = {int(c): np.flatnonzero(costs == c) for c in np.unique(costs)}
    level = 0
    while level < 254:
        frontier = np.flatnonzero(dist == level)
        if frontier.size == 0 and not np.any((dist > level) & (dist < 255)):
            break
        for c, steps in by_cost.items():
            if frontier.size == 0:
                break
            children = table[frontier][:, steps].ravel()
            value = min(level + c, 254)
            children = children[dist[children] > value]
            dist[children] = value
        level += 1
    dist.flags.writeable = False
    return dist


# -- phase 1: every answer of a given length ------------------------------------------


def phase1_answers(start: np.ndarray, guides: list[Guide | Joined], steps: Steps, depth: int, work: Work,
                   cancel: CancelToken, batch: int | None = None):
    """Every way of exactly ``depth`` steps (rows of step indices) from the ranks ``start`` to where every
    guide says 0, pruned by the guides and the step automaton (not yet by the last turn: :func:`redundant`);
    yielded in batches of at least ``batch`` rows as the depth-first walk finds them (None: all at once)."""
    if depth == 0:
        if all(g.dist[r] == 0 for g, r in zip(guides, start)):
            yield np.zeros((1, 0), dtype=np.int16)
        return
    found, held = [], 0
    stack = [(start[:, None].astype(np.int32), np.zeros(1, dtype=np.int32), np.zeros((1, 0), dtype=np.int16))]
    while stack:
        ranks, state, path = stack.pop()
        if state.size > CHUNK:
            for lo in reversed(range(0, state.size, CHUNK)):
                stack.append((ranks[:, lo:lo + CHUNK], state[lo:lo + CHUNK], path[lo:lo + CHUNK]))
            continue
        cancel.check()
        level = path.shape[1]
        node, step, child = _within(ranks, steps.after[state], guides, depth - level - 1)
        if not node.size:
            continue
        work.spend(node.size)
        paths = np.concatenate([path[node], step[:, None].astype(np.int16)], axis=1)
        if level + 1 < depth:
            stack.append((child, steps.after[state[node], step], paths))
            continue
        found.append(paths)
        held += paths.shape[0]
        if batch is not None and held >= batch:
            yield np.concatenate(found)
            found, held = [], 0
    if found:
        yield np.concatenate(found)


def _within(ranks: np.ndarray, after: np.ndarray, guides: list, room: int):
    """The (node, step) pairs the automaton allows whose every guide's distance is at most ``room``, with
    their ranks. Guide by guide: a pair the first prunes costs the others nothing (and the first, with its
    ``near`` table, costs one byte a pair)."""
    first = guides[0]
    if first.near is not None:
        node, step = np.divmod(np.flatnonzero((after >= 0) & (first.near[ranks[0]] <= room)), after.shape[1])
        child = [first.after(ranks[0][node], step)]
    else:
        node, step = np.nonzero(after >= 0)
        child = []
    for g, r in zip(guides[len(child):], ranks[len(child):]):
        c = g.after(r[node], step)
        keep = g.dist[c] <= room
        if not keep.all():  # the small guides seldom prune: then nothing is copied
            keep = np.flatnonzero(keep)
            node, step, c = node[keep], step[keep], c[keep]
            child = [prev[keep] for prev in child]
        child.append(c)
    return node, step, np.stack(child)


def _children(ranks: np.ndarray, after: np.ndarray, guides: list, room: np.ndarray, costs: np.ndarray | None = None):
    """The (node, step) pairs the automaton allows whose every guide's distance is at most ``room[node]``
    (less the step's cost), with their ranks, their largest distance, and by how little the pruned pairs
    missed (None: none pruned). Guide by guide: a pair the first prunes costs the others nothing."""
    node, step = np.nonzero(after >= 0)
    most = room[node] if costs is None else room[node] - costs[step]
    child, h, missed = [], np.zeros(node.size, dtype=np.uint8), None
    for g, r in zip(guides, ranks):
        c = g.after(r[node], step)
        d = g.dist[c]
        keep = d <= most
        if not np.all(keep):
            miss = int((d[~keep] - most[~keep]).min())
            missed = miss if missed is None else min(missed, miss)
            node, step, c, d, most, h = node[keep], step[keep], c[keep], d[keep], most[keep], h[keep]
            child = [prev[keep] for prev in child]
        child.append(c)
        h = np.maximum(h, d)
    return node, step, np.stack(child), h, missed


@dataclass(frozen=True)
class TurnFacts:
    """Per step of the outer puzzle: its move, and whether ``r`` of it in a row keep the colouring."""

    move: np.ndarray
    keeps: np.ndarray
    """``keeps[g, r]``: step ``g`` played ``r`` times leaves the colouring as it was."""
    commute: np.ndarray
    """``commute[a, b]``: moves ``a`` and ``b`` (indices into the steps' moves) commute."""


def turn_facts(puzzle: Puzzle, steps: Steps, colouring: np.ndarray) -> TurnFacts:
    from hlavolamy.solve.passes.simplify import commuting_moves

    names = sorted({t.move for t in steps.turns}, key=list(puzzle.moves).index)
    move = np.array([names.index(t.move) for t in steps.turns], dtype=np.int32)
    runs = max(puzzle.move_order(t.move) for t in steps.turns)
    keeps = np.zeros((len(steps.turns), runs + 1), dtype=bool)
    for g, perm in enumerate(steps.perms):
        power = np.arange(puzzle.n_cells)
        for r in range(1, runs + 1):
            power = power[perm]
            keeps[g, r] = np.array_equal(colouring[power], colouring)
    commute_names = commuting_moves(puzzle)
    commute = np.array([[b in commute_names[a] for b in names] for a in names], dtype=bool).reshape(
        len(names), len(names))
    return TurnFacts(move, keeps, commute)


def redundant(paths: np.ndarray, facts: TurnFacts) -> np.ndarray:
    """Phase-1 answers one of whose trailing commuting turns keeps the colouring (Kociemba's rule): a shorter
    phase-1 answer already reached that coset."""
    n, depth = paths.shape
    out = np.zeros(n, dtype=bool)
    if depth == 0 or n == 0:
        return out
    rows = np.arange(n)
    end = np.full(n, depth)
    active = np.ones(n, dtype=bool)
    block: list[np.ndarray] = []
    while np.any(active):
        last = paths[rows, np.maximum(end - 1, 0)]
        run = np.ones(n, dtype=np.int64)
        going = active.copy()
        for j in range(1, depth):
            at = end - 1 - j
            going &= (at >= 0) & (paths[rows, np.maximum(at, 0)] == last)
            if not np.any(going):
                break
            run += going
        move = facts.move[last]
        fits = active.copy()
        for other in block:
            fits &= facts.commute[move, other]
        out |= fits & facts.keeps[last, np.minimum(run, facts.keeps.shape[1] - 1)]
        block.append(move)
        end = end - run
        active = fits & (end > 0)
    return out


def play_steps(labels: np.ndarray, paths: np.ndarray, steps: Steps) -> np.ndarray:
    """The position after each row of ``paths`` from ``labels`` (one position, or one per path)."""
    rows = np.broadcast_to(labels, (paths.shape[0], labels.shape[-1]))
    index = np.arange(paths.shape[0])[:, None]
    for j in range(paths.shape[1]):
        rows = rows[index, steps.perms[paths[:, j]]]
    return rows


# -- phase 2: the cheapest finish of many roots at once -------------------------------


def cheapest_finish(roots: np.ndarray, goal: np.ndarray, guides: list[Guide], steps: Steps, costs: np.ndarray,
                    longest: int | None, work: Work, cancel: CancelToken,
                    nodes: int | None = None) -> tuple[int, list[int], int] | None:
    """The root (row of labels) with the cheapest way to ``goal`` among ``roots``: (its index, the steps, the
    cost), or None when none costs at most ``longest`` (or none is found within ``nodes`` of ``work``).
    IDA*: bounds grow to the first that some root meets."""
    if nodes is None:
        return _cheapest(roots, goal, guides, steps, costs, longest, work, cancel)
    part = Work(nodes, within=work)
    try:
        return _cheapest(roots, goal, guides, steps, costs, longest, part, cancel)
    except OutOfWork as exc:
        if exc.args[0] is not part:
            raise
        return None


def _cheapest(roots, goal, guides, steps, costs, longest, work, cancel):
    if not roots.shape[0]:
        return None
    ranks = np.stack([g.pattern.ranks(roots) for g in guides])
    reachable = np.all(ranks >= 0, axis=0)
    roots, ranks = roots[reachable], ranks[:, reachable]
    origin = np.flatnonzero(reachable)
    if not roots.shape[0]:
        return None
    h = np.max([g.dist[r] for g, r in zip(guides, ranks)], axis=0).astype(np.int32)
    bound = int(h.min())
    while longest is None or bound <= longest:
        found, next_bound = _finish_within(roots, ranks, h, goal, guides, steps, costs, bound, work, cancel)
        if found is not None:
            root, path = found
            return int(origin[root]), path, bound
        if next_bound is None:
            return None
        bound = next_bound
    return None


def _finish_within(roots, ranks, h, goal, guides, steps, costs, bound, work, cancel):
    """One IDA* iteration over all roots: the first node (depth first, chunk by chunk) solved within ``bound``."""
    dtype = roots.dtype
    goal = goal.astype(dtype)
    start = np.flatnonzero(h <= bound)
    next_bound = int(h[h > bound].min()) if np.any(h > bound) else None
    solved = np.flatnonzero(np.all(roots[start] == goal, axis=1))
    if solved.size:
        return (int(start[solved[0]]), []), None
    n = start.size
    stack = [(ranks[:, start], np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32),
              np.zeros((n, 0), dtype=np.int16), start.astype(np.int32))]
    while stack:
        rk, state, cost, path, root = stack.pop()
        if state.size > CHUNK:
            for lo in reversed(range(0, state.size, CHUNK)):
                s = slice(lo, lo + CHUNK)
                stack.append((rk[:, s], state[s], cost[s], path[s], root[s]))
            continue
        cancel.check()
        node, g, child, hc, missed = _children(rk, steps.after[state], guides, bound - cost, costs)
        if missed is not None:
            next_bound = bound + missed if next_bound is None else min(next_bound, bound + missed)
        if not node.size:
            continue
        work.spend(node.size)
        c_path = np.concatenate([path[node], g[:, None].astype(np.int16)], axis=1)
        done = np.flatnonzero(hc == 0)  # every guide solved: only these are played, to see the goal
        if done.size:
            hit = done[np.all(play_steps(roots[root[node[done]]], c_path[done], steps) == goal, axis=1)]
            if hit.size:
                k = int(hit[0])
                return (int(root[node[k]]), c_path[k].tolist()), None
        stack.append((child, steps.after[state[node], g], cost[node] + costs[g], c_path, root[node]))
    return None, next_bound


# -- the continued search ------------------------------------------------------------------


@dataclass(frozen=True)
class TwoPhase:
    """What one continued search needs: the outer and inner steps, the guides of each phase."""

    outer: Steps
    inner: Steps
    colouring: np.ndarray
    first: list[Guide | Joined]
    second: list[Guide]
    costs: np.ndarray
    """What each inner step counts (squares: 2 on a quarter-turn cube)."""
    facts: TurnFacts
    inner_turns: list[Turn]
    """The inner steps as the outer puzzle's turns (a square: the move with power 2)."""
    parity: bool = False
    """Every answer's length has the position's parity (:func:`lengths_keep_parity`): a better one is 2 shorter."""
    views: tuple[Symmetry, ...] = ()
    """Symmetries whose conjugates of a position go through other subgroups (searched beside it)."""


def odd(perm: np.ndarray) -> bool:
    """Is the permutation odd? (cells minus cycles)"""
    seen = np.zeros(perm.size, dtype=bool)
    cycles = 0
    for i in range(perm.size):
        if not seen[i]:
            cycles += 1
            while not seen[i]:
                seen[i] = True
                i = perm[i]
    return (perm.size - cycles) % 2 == 1


def lengths_keep_parity(outer: Steps, inner: Steps, costs: np.ndarray) -> bool:
    """Does every step's permutation have its cost's parity (every quarter turn of a cube is odd on the cells)?
    Then the length of every answer to a position has that position's parity."""
    return (all(odd(p) for p in outer.perms)
            and all(odd(p) == bool(c % 2) for p, c in zip(inner.perms, costs)))


BATCH = 2_000
"""Phase-1 answers finished together by one phase-2 search (the walk goes on after each batch)."""
FINISH_NODES = 15_000
"""Once an answer is held, nodes one phase-2 search may spend: deep finishes of short phase-1 answers cost
much and are soon beaten by short finishes of longer ones."""


def continued_search(puzzle: Puzzle, labels: np.ndarray, setup: TwoPhase, *, first_nodes: int, more_nodes: int,
                     cancel: CancelToken | None = None, progress: ProgressCallback | None = None,
                     inverse: bool = True, views: bool = True) -> list[Turn] | None:
    """The shortest answer found (phase 1 then phase 2, as outer turns): the first within ``first_nodes``,
    then longer phase-1 answers finished while ``more_nodes`` last. None when no first answer is found
    within its budget.

    With ``inverse``, the inverse position is searched beside it, depth by depth (its answer read
    backwards, each turn undone, solves the position): two different splits for the price of
    shallower searches. With ``views``, so are the conjugates by the setup's symmetries (and their
    inverses): more splits, through the subgroup's images.
    """
    cancel = cancel or CancelToken()
    goal = np.arange(puzzle.n_cells)
    sides = _sides(labels, setup.views if views else (), inverse)
    starts = [np.array([g.rank(side) for g in setup.first], dtype=np.int32) for side, _, _ in sides]
    if any(np.any(start < 0) for start in starts):
        return None
    lowest = [int(max(g.dist[r] for g, r in zip(setup.first, start))) for start in starts]
    work = Work(first_nodes)
    best: tuple[int, int, np.ndarray, list[int]] | None = None  # total, side, phase-1 path, phase-2 path
    depth = min(lowest)
    better = 2 if setup.parity else 1  # how much shorter the next better answer is
    try:
        while best is None or depth <= best[0] - better:
            report(progress, 0.4 if best is None else 0.6, f"phases: phase 1 of {depth} steps"
                   + ("" if best is None else f", best {best[0]} moves"))
            for k, ((side, _, _), start) in enumerate(zip(sides, starts)):
                if depth < lowest[k] or (best is not None and depth > best[0] - better):
                    continue
                for paths in phase1_answers(start, setup.first, setup.outer, depth, work, cancel, BATCH):
                    paths = paths[~redundant(paths, setup.facts)]
                    if not paths.shape[0]:
                        continue
                    roots = play_steps(side, paths, setup.outer)
                    roots, first = np.unique(roots, axis=0, return_index=True)
                    order = np.argsort(first, kind="stable")  # keep the order the search found them in
                    roots, paths = roots[order], paths[first[order]]
                    longest = None if best is None else best[0] - depth - better
                    found = cheapest_finish(roots, goal, setup.second, setup.inner, setup.costs, longest, work,
                                            cancel, None if best is None else FINISH_NODES)
                    if found is not None:
                        j, path, cost = found
                        if best is None:
                            work = Work(more_nodes)
                        best = (depth + cost, k, paths[j], path)
            depth += 1
    except OutOfWork:
        pass
    except Cancelled:
        if best is None or cancel.user_cancelled:
            raise  # a time limit only cuts: the best answer so far stands
    if best is None:
        return None
    _, k, first, second = best
    turns = [setup.outer.turns[g] for g in first.tolist()] + [setup.inner_turns[g] for g in second]
    _, view, inverted = sides[k]
    if inverted:
        turns = [Turn(t.move, -t.power) for t in reversed(turns)]
    return turns if view is None else view.turns_back(turns)


def _sides(labels: np.ndarray, views: tuple[Symmetry, ...], inverse: bool) -> list[tuple[np.ndarray, Symmetry | None,
                                                                                          bool]]:
    """The positions searched: (labels, the symmetry it is a conjugate by, is it the inverse)."""
    out = []
    for view in (None, *views):
        side = labels if view is None else view.conjugate(labels)
        out.append((side, view, False))
        if inverse:
            out.append((np.argsort(side), view, True))
    return out

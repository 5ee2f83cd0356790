"""Solve one group of orbits with conjugated macros, greedily by cells fixed per move.

A macro ``C`` moving only cells of the group, conjugated by a set-up ``A``,
is ``A C A'``: it does to the cells ``A(S)`` what ``C`` does to its support
``S``, and still leaves every other cell alone. For all macros and all
set-ups found by a breadth-first search (one set-up per distinct action on
the group's cells, shortest first) the table holds, per conjugate, the
positions it writes and the positions it reads, padded to one width. One
numpy comparison then scores every conjugate at once: cells it makes right
minus cells it makes wrong; the best ratio to its length is played. This
works on exact labels and on colours alike (identical pieces just make more
conjugates useful).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hlavolamy.analysis.independent import generators
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, invert
from hlavolamy.solve.macros.targeted import MAX_TRIPLES, TripleSearch, TripleSteps
from hlavolamy.solve.problem import Problem

MAX_CANDIDATES = 200_000
"""Most conjugates in one group's table, scored at every step."""
ALL_CANDIDATES = 4_000_000
"""Most conjugates over all groups of a puzzle (tables stay cached: memory)."""
AIM_TRIPLES = 1_000_000
"""A dead end is aimed at with 48 macros in groups of up to this many cell triples (``n**3``: each macro costs a
breadth-first search over them, 0.4 s at a million), with 3 in bigger ones."""
WIDE_TRIES = 16
"""Wrong cells the last-resort aim starts from (the usual aim: 4)..."""
WIDE_MACROS = 48
"""...and macros it carries there (the usual aim on groups of over 100 cells: 3, whose set-ups can miss every
wrong cell: a gigaminx's wings, 26 left wrong, stuck the greedy before)."""


@dataclass(frozen=True)
class GroupTable:
    """Every conjugate ``A C A'`` of a group's macros: what it writes, what it reads, its length."""

    cells: np.ndarray
    positions: np.ndarray
    sources: np.ndarray
    cost: np.ndarray
    macro: np.ndarray
    setup: np.ndarray
    macro_words: list[list[Turn]]
    setup_words: list[list[Turn]]
    macro_locals: list[np.ndarray]
    searches: dict = field(default_factory=dict)
    """Cached :class:`~hlavolamy.solve.macros.targeted.TripleSearch` per macro 3-cycle, and under None the
    :class:`~hlavolamy.solve.macros.targeted.TripleSteps` they share."""

    def word(self, k: int) -> list[Turn]:
        a = self.setup_words[self.setup[k]]
        return a + self.macro_words[self.macro[k]] + invert(a)


def local_moves(puzzle: Puzzle, cells: np.ndarray) -> tuple[list[Turn], np.ndarray]:
    """Single steps that move a cell of ``cells``, as permutations of the local indices."""
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[cells] = np.arange(cells.size)
    gens, perms = [], []
    for g in generators(puzzle):
        local = index[puzzle.turn_perm(g)[cells]]
        if np.any(local != np.arange(cells.size)):
            gens.append(g)
            perms.append(local)
    return gens, np.array(perms, dtype=np.int64).reshape(len(perms), cells.size)


def setups(puzzle: Puzzle, cells: np.ndarray, *, limit: int, max_depth: int = 8,
           cancel: CancelToken | None = None) -> tuple[list[list[Turn]], np.ndarray]:
    """Set-up words by breadth-first search, one per distinct action on ``cells`` (identity first)."""
    gens, perms = local_moves(puzzle, cells)
    ident = np.arange(cells.size, dtype=np.int64)
    words: list[list[Turn]] = [[]]
    actions = [ident]
    seen = {ident.tobytes()}
    frontier = [0]
    for _ in range(max_depth):
        nxt = []
        for k in frontier:
            if cancel is not None:
                cancel.check()
            base = actions[k]
            for g, gp in zip(gens, perms):
                act = base[gp]
                key = act.tobytes()
                if key in seen:
                    continue
                seen.add(key)
                words.append(words[k] + [g])
                actions.append(act)
                nxt.append(len(words) - 1)
                if len(words) >= limit:
                    return words, np.array(actions)
        if not nxt:
            break
        frontier = nxt
    return words, np.array(actions)


def build_table(puzzle: Puzzle, cells: np.ndarray, macros: Sequence[Sequence[Turn]], *,
                max_candidates: int = MAX_CANDIDATES, cancel: CancelToken | None = None) -> GroupTable | None:
    """The conjugate table of ``macros`` (each moving only ``cells``) and their inverses; None if no macro."""
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[cells] = np.arange(cells.size)
    words, locals_ = [], []
    seen = set()
    for turns in macros:
        for w in (list(turns), invert(turns)):
            local = index[puzzle.perm_of(w)[cells]]
            key = local.tobytes()
            if key not in seen and np.any(local != np.arange(cells.size)):
                seen.add(key)
                words.append(w)
                locals_.append(local)
    if not words:
        return None
    width = max(int(np.count_nonzero(c != np.arange(cells.size))) for c in locals_)
    setup_words, actions = setups(puzzle, cells, limit=max(50, max_candidates // len(words)), cancel=cancel)
    setup_len = np.array([len(w) for w in setup_words])
    sentinel = cells.size
    pos_parts, src_parts, cost_parts, mac_parts, set_parts = [], [], [], [], []
    for m, (w, c) in enumerate(zip(words, locals_)):
        support = np.flatnonzero(c != np.arange(cells.size))
        pos = np.full((len(setup_words), width), sentinel, dtype=np.int32)
        src = np.full((len(setup_words), width), sentinel, dtype=np.int32)
        pos[:, :support.size] = actions[:, support]
        src[:, :support.size] = actions[:, c[support]]
        pos_parts.append(pos)
        src_parts.append(src)
        cost_parts.append(2 * setup_len + puzzle.length(w))
        mac_parts.append(np.full(len(setup_words), m))
        set_parts.append(np.arange(len(setup_words)))
    cost = np.concatenate(cost_parts)
    order = np.argsort(cost, kind="stable")
    return GroupTable(cells, np.concatenate(pos_parts)[order], np.concatenate(src_parts)[order], cost[order],
                      np.concatenate(mac_parts)[order], np.concatenate(set_parts)[order], words, setup_words, locals_)


def solve_group(problem: Problem, table: GroupTable, *, cancel: CancelToken | None = None,
                max_steps: int = 10_000, rescues: int | None = None, aim_triples: int = AIM_TRIPLES,
                colour_pairs: bool = True) -> bool:
    """Play conjugates while one makes cells of the group right; True when the group (or the problem) is solved.

    At a dead end (no conjugate in the table gains: its set-ups do not reach
    the cells left wrong) a 3-cycle is aimed at them by a searched set-up
    (:func:`_targeted`); failing that, a pair of conjugates is searched for that gains
    together (:func:`_rescue`); failing that too, a 3-cycle is aimed again from
    :data:`WIDE_TRIES` wrong cells with :data:`WIDE_MACROS` macros on an exact
    position (a colour attempt has an exact one behind it: on a gigaminx the
    wide aims let the colour attempt finish, in 35 s and 2,358 moves, where it
    got stuck at once and the exact one took 15 s for 1,838); up to
    ``rescues`` times (default: eight per cell). Without ``colour_pairs`` a
    colour position gives up where the aim fails, before the pair search (a
    first answer's colour attempt, which has the exact one behind it).
    """
    cells = table.cells
    rescues = 8 * cells.size if rescues is None else rescues
    rng = np.random.default_rng(0)
    goal, care = group_target(problem, cells)
    gains = Gains(table, goal, care)
    for _ in range(max_steps):
        if cancel is not None:
            cancel.check()
        labels = np.append(problem.labels[cells], -1)
        if group_solved(problem, labels, goal, care):
            return True
        gain = gains.at(labels)
        best = int(np.argmax(gain / table.cost))
        if gain[best] > 0:
            problem.play(table.word(best))
            continue
        if rescues <= 0:
            return False
        rescues -= 1
        word = _targeted(problem, labels, goal, care, table, cancel, rng, aim_triples=aim_triples)
        if word is None and (problem.exact or colour_pairs):
            pair = _rescue(labels, goal, care, table, gains, cancel)
            if pair is not None:
                word = table.word(pair[0]) + table.word(pair[1])
        if word is None and problem.exact:  # the last resort: aim from more wrong cells with more macros
            word = _targeted(problem, labels, goal, care, table, cancel, rng, tries=WIDE_TRIES, macros=WIDE_MACROS)
        if word is None:
            return False
        problem.play(word)
    return False


def group_target(problem: Problem, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The group's wanted labels and the cells that count, each with one more slot (index -1) for table padding."""
    goal = np.append(problem.goal[cells], -1)
    care = np.ones(cells.size + 1, dtype=bool) if problem.care is None else np.append(problem.care[cells], True)
    return goal, care


def group_solved(problem: Problem, labels: np.ndarray, goal: np.ndarray, care: np.ndarray) -> bool:
    """The group shows its goal on every cell that counts (or the whole problem is solved within its slack)."""
    return bool(np.all((labels == goal) | ~care)) or problem.is_solved()


class Gains:
    """Scores every conjugate of a table at given labels: cells it makes right minus cells it makes wrong.

    An entry of a conjugate reads cell ``s`` and writes it to cell ``t``; what
    it adds to the gain depends only on the pair ``(s, t)``. So each scoring
    fills one small table over the group's pairs of cells and gathers it once
    per entry, where comparing labels entry by entry took four passes over the
    table (a radio chop's first answer spent 3 s there; now a fifth of it).
    Groups too big for a table of their pairs are scored entry by entry.
    """

    PAIRS = 1 << 22
    """Most pairs of cells (``(n + 1)**2``, a byte each) in the table (groups of up to 2,047 cells)."""

    def __init__(self, table: GroupTable, goal: np.ndarray, care: np.ndarray):
        self.table, self.goal, self.care = table, goal, care
        size = goal.size  # the group's cells and the padding slot
        self.pairs = None
        if size * size <= self.PAIRS:
            self.pairs = table.sources.astype(np.intp) * size + table.positions  # intp: take() converts others

    def at(self, labels: np.ndarray) -> np.ndarray:
        """The gains at ``labels`` (the group's labels and -1 in the padding slot)."""
        goal, care, table = self.goal, self.care, self.table
        if self.pairs is None:
            want, weight = goal[table.positions], care[table.positions]
            return ((labels[table.sources] == want) & weight).sum(1) - ((labels[table.positions] == want) & weight).sum(1)
        right = ((labels == goal) & care).astype(np.int8)
        pair_gain = ((labels[:, None] == goal[None, :]) & care[None, :]).astype(np.int8) - right[None, :]
        gathered = np.take(pair_gain.ravel(), self.pairs)
        gain = gathered[:, 0].astype(np.int64)
        for column in range(1, gathered.shape[1]):  # column by column: a row sum of bytes is several times slower
            gain += gathered[:, column]
        return gain


def _targeted(problem: Problem, labels: np.ndarray, goal: np.ndarray, care: np.ndarray, table: GroupTable,
              cancel: CancelToken | None, rng: np.random.Generator, tries: int = 4,
              evaluate: int = 24, macros: int | None = None, aim_triples: int = AIM_TRIPLES) -> list[Turn] | None:
    """A macro 3-cycle aimed by a searched set-up at a wrong cell, the cell holding its label and a third.

    The third cell is any (wrong ones first) that some macro's 3-cycle can
    be carried onto together with the first two; the ``evaluate`` cheapest
    such conjugates are scored exactly. Returns the word with the best gain
    per move; if none gains, one that fixes a cell and breaks another (the
    wrong cells then form a triple some macro reaches); None if neither.
    """
    n = table.cells.size
    if n ** 3 > MAX_TRIPLES:
        return None
    gens, perms = local_moves(problem.puzzle, table.cells)
    cur, want = labels[:n], goal[:n]
    counts = care[:n]
    wrong = rng.permutation(np.flatnonzero((cur != want) & counts))
    order = np.concatenate([wrong, np.flatnonzero(~((cur != want) & counts))])
    options = []
    anchors = _three_cycles(table, macros or (48 if n ** 3 <= aim_triples else 3))
    for i in wrong[:tries]:
        # the content of i goes to k: a wrong cell wanting it first (identical pieces: any of them)
        takes = (want[order] == cur[i]) & (cur[order] != want[order]) & counts[order]
        order_i = np.concatenate([order[takes], order[~takes]])
        holders = np.flatnonzero(cur == want[i])
        holders = np.concatenate([holders[(cur[holders] != want[holders]) & counts[holders]],
                                  holders[(cur[holders] == want[holders]) | ~counts[holders]]])
        for j in holders[:tries]:
            if j == i:
                continue
            thirds = order_i[(order_i != i) & (order_i != j)]
            for m, (a, b, c) in anchors:
                if cancel is not None:
                    cancel.check()
                search = table.searches.get((m, a))
                if search is None:
                    steps = table.searches.get(None)
                    if steps is None:
                        steps = table.searches[None] = TripleSteps(gens, perms)
                    search = table.searches[(m, a)] = TripleSearch(steps, (a, b, c))
                k = search.first_reachable(int(i), int(j), thirds)
                if k is not None:
                    options.append((search.depth(i, j, k), m, a, int(i), int(j), k))
    best, best_score, neutral = None, 0.0, []
    before = int(((cur == want) & counts).sum())
    for _, m, a, i, j, k in sorted(options)[:evaluate]:
        setup = table.searches[(m, a)].setup(i, j, k)
        word = setup + table.macro_words[m] + invert(setup)
        after = cur[_local_perm(problem.puzzle, table.cells, word)]
        gain = int(((after == want) & counts).sum()) - before
        if gain > 0 and gain / len(word) > best_score:
            best, best_score = word, gain / len(word)
        elif gain == 0 and np.any(after != cur):
            neutral.append(word)
    if best is None and neutral:
        best = neutral[int(rng.integers(len(neutral)))]
    return best


def _three_cycles(table: GroupTable, limit: int = 48) -> list[tuple[int, tuple[int, int, int]]]:
    """Anchor triples ``(a, m[a], c)`` of the macros moving fewest cells: ``a`` moved, ``c`` another moved cell.

    Carrying the anchor onto ``(i, j, k)`` makes the conjugate bring the
    content of ``j`` to ``i``; for a 3-cycle ``c = m[m[a]]`` pins the whole
    cycle, for a double transposition ``c`` pins the second pair's place.
    """
    out = []
    sizes = [int(np.count_nonzero(local != np.arange(local.size))) for local in table.macro_locals]
    for m in sorted(range(len(sizes)), key=lambda m: (sizes[m], len(table.macro_words[m]))):
        local = table.macro_locals[m]
        moved = np.flatnonzero(local != np.arange(local.size))
        a = int(moved[0])
        b = int(local[a])
        c = int(local[b]) if int(local[b]) != a else int(next(x for x in moved if x not in (a, b)))
        out.append((m, (a, b, c)))
        if len(out) >= limit:
            break
    return out


def _local_perm(puzzle: Puzzle, cells: np.ndarray, word: list[Turn]) -> np.ndarray:
    """The permutation of ``word`` on ``cells`` (a union of orbits) in local indices."""
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[cells] = np.arange(cells.size)
    return index[puzzle.perm_of(word)[cells]]


def _rescue(labels: np.ndarray, goal: np.ndarray, care: np.ndarray, table: GroupTable, gains: Gains,
            cancel: CancelToken | None, first_moves: int = 40) -> tuple[int, int] | None:
    """Two conjugates that together make more cells right than wrong, cheapest ratio; None if none.

    First steps are the cheapest conjugates writing to a wrong cell; each is
    played on a copy and every second step scored at once.
    """
    wrong = (labels != goal) & care
    touches = wrong[table.positions].any(1) & (table.positions != table.sources).any(1)
    best, best_score = None, 0.0
    for first in np.flatnonzero(touches)[:first_moves]:
        if cancel is not None:
            cancel.check()
        after = labels.copy()
        after[table.positions[first]] = labels[table.sources[first]]
        base = int(((after == goal) & care).sum() - ((labels == goal) & care).sum())
        total = base + gains.at(after)
        score = total / (table.cost + table.cost[first])
        k = int(np.argmax(score))
        if total[k] > 0 and score[k] > best_score:
            best, best_score = (int(first), k), float(score[k])
    return best

"""Commutators of two sets of commuting moves, one conjugated: ``|X|·|Y|`` 3-cycles for ``2|X| + 2|Y| + 4`` turns.

When the cells a move ``x`` turns meet the cells of ``z = u y u'`` in
exactly one cell, the commutator ``[x, z]`` is a 3-cycle. Take a set ``X`` of
pairwise-commuting moves (a big cube's parallel slices, each to its own
power) and a set ``Y`` of another (or the same) class, conjugated by one
turn ``u`` (a face turn): if every ``x`` meets every ``u y u'`` in one cell,

    ``[X, u Y u'] = X u Y u' X' u Y' u'``

plays all ``|X|·|Y|`` of those 3-cycles at once. On a big cube that is how
the centres are solved cheaply: ten slices on each side make a hundred
3-cycles for 44 turns, where an orbit's own 3-cycle costs 8-10.

Everything comes from the move permutations: the classes of commuting moves
(:func:`~hlavolamy.solve.macros.parallel.commuting_classes`), the pairs whose
supports meet in one cell (a matrix product of the supports per ``u``) and
each pair's 3-cycle for every pair of powers. Per step each choice of ``u``
and the two classes scores its pairs' 3-cycles on the position (cells made
right minus made wrong); ``X`` and ``Y`` are then chosen by alternating
improvement (the best ``X`` for the ``Y`` held, then the best ``Y`` for it),
pairs whose supports meet in more than one cell forbidden together. The best
few choices are played out on their real permutation, and the one worth
the most (cells made right less :data:`PRICE` per turn) is played while it
makes at least :data:`MIN_RATE` cells right per turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hlavolamy.analysis.memo import memo
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, invert
from hlavolamy.solve.macros.parallel import MIN_CLASS, commuting_classes, gains, powers
from hlavolamy.solve.problem import Problem

MIN_PAIRS = 4
"""A choice of ``u`` and two classes is kept only with at least this many pairs meeting in one cell."""
PRICE = 0.6
"""Cells a turn is worth: a set's member joins when it makes more cells right than this per turn it adds, and
the step worth the most cells beyond its turns is played. Santa cube_19 (four cases, :data:`MIN_RATE` 0.7):
0.45 12,623 moves, 0.6 12,411, 0.75 12,539 (12,771 without the pass)."""
MIN_RATE = 0.7
"""A step is played only while it makes at least this many cells right per turn (the insertion that follows
makes a big cube's cells right at about 0.6 per turn of the final answer). With :data:`PRICE` 0.45, Santa
cube_19 case 277: 0.55 2,959 moves, 0.7 2,907, 0.9 2,945 (2,975 without the pass); the four cases 12,507 at
0.8 against 12,623 at 0.7."""
CHECKED = 6
"""Choices scored on their real permutation per step (the best by their estimate)."""
BOUNDED = 40
"""Choices whose sets are chosen per step (those with the most gain on offer)."""
ROUNDS = 4
"""Alternating improvements of ``X`` and ``Y`` per start."""
FORBIDDEN = -1_000_000
"""Gain of a pair whose supports meet in more than one cell: never both in one step."""

@dataclass(frozen=True)
class Choice:
    """One conjugator ``u`` with two classes: rows are (member of ``X``, power), columns (member of ``Y``, power)."""

    u: Turn | None
    u_cost: int
    """Turns of ``u`` in the step (it is played four times)."""
    xs: list[Turn]
    ys: list[Turn]
    x_cost: np.ndarray
    y_cost: np.ndarray
    x_member: np.ndarray
    y_member: np.ndarray
    forbidden: np.ndarray
    """Boolean (rows x columns): the two moves' supports meet in more than one cell."""
    row: np.ndarray
    col: np.ndarray
    first: int
    """This choice's 3-cycles are rows ``first:first + row.size`` of the table's cycles."""


@dataclass(frozen=True)
class ProductTable:
    """Every choice and the 3-cycle of every pair meeting in one cell, for every pair of powers."""

    choices: list[Choice]
    positions: np.ndarray
    """(cycles x 3) the cells each 3-cycle moves."""
    sources: np.ndarray
    """(cycles x 3) where each of those cells takes its label from."""

    @cached_property
    def firsts(self) -> np.ndarray:
        """Each choice's first row of cycles (for sums per choice)."""
        return np.array([c.first for c in self.choices])


def product_table(puzzle: Puzzle, *, cancel: CancelToken | None = None) -> ProductTable | None:
    """The table of one-cell pairs' 3-cycles (once per set of moves; None when no choice has enough pairs)."""
    return memo(puzzle, "solve.products", lambda: _build(puzzle, cancel))


def _build(puzzle: Puzzle, cancel: CancelToken | None) -> ProductTable | None:
    classes = [c for c in commuting_classes(puzzle) if len(c) >= MIN_CLASS]
    if not classes:
        return None
    names = list(puzzle.moves)
    index = {m: k for k, m in enumerate(names)}
    n = puzzle.n_cells
    ident = np.arange(n)
    support = np.array([puzzle.moves[m] != ident for m in names])
    dense = support.astype(np.float64)
    cells = np.arange(n, dtype=np.float64)
    conjugators: list[Turn | None] = [None] + [Turn(m, p) for m in names for p in powers(puzzle, m)]
    choices: list[Choice] = []
    positions: list[np.ndarray] = []
    sources: list[np.ndarray] = []
    first = 0
    for u in conjugators:
        if cancel is not None:
            cancel.check()
        u_perm = ident if u is None else puzzle.turn_perm(u)
        u_inv = np.empty(n, dtype=np.int64)
        u_inv[u_perm] = ident
        conjugated = dense[:, u_inv]  # the cells of u y u'
        meets = np.rint(dense @ conjugated.T).astype(np.int64)
        cell = np.rint(dense @ (conjugated * cells).T).astype(np.int64)  # where they meet, when in one cell
        for a in classes:
            for b in classes:
                ia, ib = [index[m] for m in a], [index[m] for m in b]
                sub = meets[np.ix_(ia, ib)]
                if np.count_nonzero(sub == 1) < MIN_PAIRS:
                    continue
                made = _choice(puzzle, u, u_perm, u_inv, a, b, sub, cell[np.ix_(ia, ib)], first)
                if made is None:
                    continue
                choice, pos, src = made
                choices.append(choice)
                positions.append(pos)
                sources.append(src)
                first += pos.shape[0]
    if not choices:
        return None
    return ProductTable(choices, np.concatenate(positions), np.concatenate(sources))


def _choice(puzzle: Puzzle, u: Turn | None, u_perm: np.ndarray, u_inv: np.ndarray, a: list[str], b: list[str],
            meets: np.ndarray, cell: np.ndarray, first: int) -> tuple[Choice, np.ndarray, np.ndarray] | None:
    """The choice of ``u`` with classes ``a`` and ``b``, and the 3-cycles of its pairs meeting in one cell."""
    xs = [Turn(m, p) for m in a for p in powers(puzzle, m)]
    ys = [Turn(m, p) for m in b for p in powers(puzzle, m)]
    x_member = np.array([a.index(t.move) for t in xs])
    y_member = np.array([b.index(t.move) for t in ys])
    pair_meets = meets[x_member[:, None], y_member[None, :]]
    rows, cols = np.nonzero(pair_meets == 1)
    if rows.size < MIN_PAIRS:
        return None
    xp = np.array([puzzle.turn_perm(t) for t in xs])
    xi = np.array([puzzle.turn_perm(Turn(t.move, -t.power)) for t in xs])
    zp = np.array([u_perm[puzzle.turn_perm(t)[u_inv]] for t in ys])
    zi = np.array([u_perm[puzzle.turn_perm(Turn(t.move, -t.power))[u_inv]] for t in ys])
    c = cell[x_member[rows], y_member[cols]]
    r2, c2 = rows[:, None], cols[:, None]
    near = np.sort(np.stack([c, xp[rows, c], xi[rows, c], zp[cols, c], zi[cols, c]], axis=1), axis=1)
    image = xp[r2, zp[c2, xi[r2, zi[c2, near]]]]  # the commutator x z x' z' at each nearby cell
    fresh = np.ones(near.shape, dtype=bool)
    fresh[:, 1:] = near[:, 1:] != near[:, :-1]
    moving = (image != near) & fresh
    ok = moving.sum(axis=1) == 3
    pos = near[ok][moving[ok]].reshape(-1, 3)
    src = image[ok][moving[ok]].reshape(-1, 3)
    closed = np.all(np.sort(pos, axis=1) == np.sort(src, axis=1), axis=1)  # a 3-cycle on those cells
    keep = np.flatnonzero(ok)[closed]
    if keep.size < MIN_PAIRS:
        return None
    choice = Choice(u, 0 if u is None else 4 * puzzle.turn_cost(u), xs, ys,
                    np.array([puzzle.turn_cost(t) for t in xs]), np.array([puzzle.turn_cost(t) for t in ys]),
                    x_member, y_member, pair_meets > 1, rows[keep], cols[keep], first)
    return choice, pos[closed], src[closed]


def best_sets(choice: Choice, gain: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """The best ``[X, u Y u']`` for this choice, estimated from its pairs' gains: its worth (cells made right less
    :data:`PRICE` per turn) with the rows of ``X`` and ``Y``; from the best few pairs, ``X`` and ``Y`` improved in
    turn, pairs meeting in more than one cell never together."""
    g = np.zeros((len(choice.xs), len(choice.ys)), dtype=np.int64)
    g[choice.row, choice.col] = gain[choice.first:choice.first + choice.row.size]
    g[choice.forbidden] = FORBIDDEN
    best = (0.0, np.zeros(0, np.int64), np.zeros(0, np.int64))
    flat = np.argsort(-g, axis=None)[:3]
    for start in flat:
        if g.flat[start] <= 0:
            break
        ys = np.array([start % g.shape[1]])
        xs = np.zeros(0, np.int64)
        worth = 0.0
        for _ in range(ROUNDS):
            new_x, _ = _members(g[:, ys].sum(axis=1), choice.x_member, choice.x_cost,
                                choice.u_cost + 2 * int(choice.y_cost[ys].sum()))
            new_y, worth = _members(g[new_x, :].sum(axis=0), choice.y_member, choice.y_cost,
                                   choice.u_cost + 2 * int(choice.x_cost[new_x].sum()))
            if np.array_equal(new_x, xs) and np.array_equal(new_y, ys):
                break
            xs, ys = new_x, new_y
        if ys.size and xs.size and worth > best[0]:
            best = (worth, xs, ys)
    return best


def _members(value: np.ndarray, member: np.ndarray, cost: np.ndarray, fixed: int) -> tuple[np.ndarray, float]:
    """Rows joining the set (one power per member): those worth more than their turns at :data:`PRICE`; with the
    step's worth, ``fixed`` its other turns."""
    net = value - PRICE * 2 * cost
    order = np.lexsort((net, member))
    last = np.append(member[order][1:] != member[order][:-1], True)
    rows = order[last]
    rows = np.sort(rows[net[rows] > 0])
    return rows, float(net[rows].sum() - PRICE * fixed)


def step_word(choice: Choice, xs: np.ndarray, ys: np.ndarray) -> list[Turn]:
    """``X u Y u' X' u Y' u'``."""
    x = [choice.xs[int(k)] for k in xs]
    y = [choice.ys[int(k)] for k in ys]
    u = [] if choice.u is None else [choice.u]
    z = u + y + invert(u)
    return x + z + invert(x) + invert(z)


def play_products(problem: Problem, *, cancel: CancelToken | None = None) -> int:
    """Play product commutators while one makes at least :data:`MIN_RATE` cells right per turn; returns turns."""
    table = product_table(problem.puzzle, cancel=cancel)
    if table is None:
        return 0
    played = 0
    while True:
        if cancel is not None:
            cancel.check()
        step = _best_step(problem, table)
        if step is None:
            return played
        problem.play(step[0], step[1])
        played += problem.puzzle.length(step[0])


def _best_step(problem: Problem, table: ProductTable) -> tuple[list[Turn], np.ndarray] | None:
    """The step worth the most cells beyond its turns at :data:`PRICE`, if it makes :data:`MIN_RATE` per turn:
    sets chosen for the :data:`BOUNDED` choices with the most gain on offer, the best few played out exactly."""
    puzzle, labels = problem.puzzle, problem.labels
    gain = gains(table, labels, problem.goal, problem.care)
    on_offer = np.add.reduceat(np.maximum(gain, 0), table.firsts)
    offers = []
    for c in np.argsort(-on_offer, kind="stable")[:BOUNDED]:
        choice = table.choices[int(c)]
        worth, xs, ys = best_sets(choice, gain)
        if worth > 0:
            offers.append((worth, choice, xs, ys))
    offers.sort(key=lambda o: -o[0])
    wrong = problem.wrong()
    best: tuple[float, list[Turn], np.ndarray] | None = None
    for _, choice, xs, ys in offers[:CHECKED]:
        word = step_word(choice, xs, ys)
        perm = puzzle.perm_of(word)
        made, turns = wrong - problem.wrong(labels[perm]), puzzle.length(word)
        worth = made - PRICE * turns
        if made >= MIN_RATE * turns and (best is None or worth > best[0]):
            best = (worth, word, perm)
    return None if best is None else (best[1], best[2])

"""Commutators of several commuting moves with one move: cells of many orbits per step.

Moves that commute with each other (a cube's parallel slices) can be turned
together. The commutator ``[X, y] = X y X' y'`` with ``X = m1^p1 m2^p2 ...``
(pairwise-commuting moves, each to its own power) and ``y`` one move that
does not commute with them moves cells of as many orbits as ``X`` has
members, for ``2|X| + 2`` turns: on a big cube every inner slice of ``X``
adds two 3-cycles of centre cells for two turns, where an orbit's own
3-cycle costs 8-10.

Which members join ``X``, and with what power, is chosen from the position:
every single commutator ``[m^p, y^q]`` is scored alone (cells made right minus
cells made wrong, one numpy pass over a sparse table); per choice of ``y^q``
each member takes its best power, and members join in order of gain per turn
while they raise the step's gain per turn, so a member whose cells would be
broken stays out. Members' cells may meet (a face turn's), so the best few
choices are then scored on their real permutation, and the best is played
while it makes at least :data:`MIN_RATE` cells right per turn. Everything
comes from the move permutations: the classes of commuting moves, the
commutators and their supports.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from hlavolamy.analysis.commutators import remember_recent
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.memo import moves_key
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, invert
from hlavolamy.solve.passes.simplify import commuting_moves
from hlavolamy.solve.problem import Problem

MAX_SUPPORT = 48
"""Single commutators moving more cells are left out (a slice with a face turn of a big cube moves ~3N)."""
MIN_CLASS = 3
"""Only classes of at least this many commuting moves give ``X`` (fewer: the opening's ``[a, b c]`` has them)."""
MIN_RATE = 1.0
"""A step is played only while it makes at least this many cells right per turn (the groups' own 3-cycles make
about 0.35)."""
CHECKED = 8
"""Choices of ``y^q`` scored on their real permutation per step (the best by the members' summed estimate)."""
STEP_WORK = 30_000_000
"""Most (single commutator, cell) comparisons per step: how many set-ups (conjugating single steps) are tried."""
WORK = 2_000_000_000
"""Most (single commutator, cell) comparisons over the whole pass: its work budget."""

_BY_MOVES: dict[str, CommutatorTable | None] = {}


@dataclass(frozen=True)
class CommutatorTable:
    """Every single commutator ``[m^p, y^q]`` (``m`` in a class of commuting moves, ``y`` outside), sparse.

    Row ``k`` belongs to choice ``choice[k]`` (a class and ``y^q``) and member
    column ``member[k]``; ``positions``/``sources`` are padded with the
    dummy cell ``n_cells``.
    """

    choice: np.ndarray
    member: np.ndarray
    turn: list[Turn]
    cost: np.ndarray
    positions: np.ndarray
    sources: np.ndarray
    choices: list[Turn]
    choice_cost: np.ndarray
    members: int


def commuting_classes(puzzle: Puzzle) -> list[list[str]]:
    """Moves split into classes of pairwise-commuting moves (greedily, in the puzzle's order)."""
    commute = commuting_moves(puzzle)
    classes: list[list[str]] = []
    for move in puzzle.moves:
        for cls in classes:
            if all(other in commute[move] for other in cls):
                cls.append(move)
                break
        else:
            classes.append([move])
    return classes


def powers(puzzle: Puzzle, move: str) -> list[int]:
    """The distinct non-trivial powers of ``move`` as fewest single steps (1, -1, 2 for a quarter turn)."""
    order = puzzle.move_order(move)
    return sorted({k if k <= order - k else k - order for k in range(1, order)}, key=lambda k: (abs(k), -k))


def commutator_table(puzzle: Puzzle, *, cancel: CancelToken | None = None) -> CommutatorTable | None:
    """The table of single commutators (cached per set of moves; None when no class is big enough)."""
    key = moves_key(puzzle)
    if key not in _BY_MOVES:
        remember_recent(_BY_MOVES, key, _build(puzzle, cancel), keep=2)
    return _BY_MOVES[key]


def _build(puzzle: Puzzle, cancel: CancelToken | None) -> CommutatorTable | None:
    n = puzzle.n_cells
    ident = np.arange(n)
    commute = commuting_moves(puzzle)
    rows: list[tuple[int, int, Turn, np.ndarray, np.ndarray]] = []
    choices: list[Turn] = []
    for cls in commuting_classes(puzzle):
        if len(cls) < MIN_CLASS:
            continue
        for y in puzzle.moves:
            if all(y in commute[m] for m in cls):
                continue
            for q in powers(puzzle, y):
                if cancel is not None:
                    cancel.check()
                yq = puzzle.turn_perm(Turn(y, q))
                yi = puzzle.turn_perm(Turn(y, -q))
                first = len(rows)
                for col, m in enumerate(cls):
                    if y in commute[m]:
                        continue
                    for p in powers(puzzle, m):
                        mp, mi = puzzle.turn_perm(Turn(m, p)), puzzle.turn_perm(Turn(m, -p))
                        perm = mp[yq][mi][yi]
                        moved = np.flatnonzero(perm != ident)
                        if 0 < moved.size <= MAX_SUPPORT:
                            rows.append((len(choices), col, Turn(m, p), moved, perm[moved]))
                if len(rows) > first:
                    choices.append(Turn(y, q))
    if not rows:
        return None
    width = max(r[3].size for r in rows)
    positions = np.full((len(rows), width), n, dtype=np.int32)
    sources = np.full((len(rows), width), n, dtype=np.int32)
    for k, (_, _, _, moved, src) in enumerate(rows):
        positions[k, :moved.size] = moved
        sources[k, :moved.size] = src
    turns = [r[2] for r in rows]
    return CommutatorTable(
        choice=np.array([r[0] for r in rows], dtype=np.int64),
        member=np.array([r[1] for r in rows], dtype=np.int64),
        turn=turns,
        cost=np.array([2 * puzzle.turn_cost(t) for t in turns], dtype=np.int64),
        positions=positions,
        sources=sources,
        choices=choices,
        choice_cost=np.array([2 * puzzle.turn_cost(t) for t in choices], dtype=np.int64),
        members=int(max(r[1] for r in rows)) + 1,
    )


class SparseSteps(Protocol):
    """Steps as rows of the cells they move and where each takes its label from (padding: the cell ``n_cells``)."""

    positions: np.ndarray
    sources: np.ndarray


def gains(table: SparseSteps, labels: np.ndarray, goal: np.ndarray, care: np.ndarray | None) -> np.ndarray:
    """Cells each step of the table makes right minus cells it makes wrong (two gathers over the table)."""
    have, want = np.append(labels, -1), np.append(goal, -1)
    pos, src = table.positions, table.sources
    delta = (have[src] == want[pos]).astype(np.int8) - (have[pos] == want[pos])
    if care is not None:
        delta *= np.append(care, False)[pos]
    return delta.sum(axis=1, dtype=np.int64)


def estimates(table: CommutatorTable, gain: np.ndarray, extra: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per choice of ``y^q``: the estimated cells per turn of its best ``X``, and each row taken into it.

    Each member takes its best power (ties: the cheaper); members join in
    order of gain per turn while the sum of gains per turn (with ``y``'s two
    turns, and ``extra`` more for a set-up) still rises.
    """
    n_choices = len(table.choices)
    score = gain * 16 - table.cost  # best gain first, the cheaper power on ties
    best = np.full((n_choices, table.members), -1, dtype=np.int64)
    order = np.lexsort((score, table.member, table.choice))  # per (choice, member) the best row last
    slot = table.choice[order] * table.members + table.member[order]
    last = np.append(slot[1:] != slot[:-1], True)
    best.reshape(-1)[slot[last]] = order[last]
    valid = best >= 0
    g = np.where(valid, gain[np.maximum(best, 0)], 0)
    c = np.where(valid, table.cost[np.maximum(best, 0)], 1)
    useful = valid & (g > 0)
    rate = np.where(useful, g / c, -1.0)
    rank = np.argsort(-rate, axis=1, kind="stable")
    g_sorted = np.take_along_axis(np.where(useful, g, 0), rank, axis=1)
    c_sorted = np.take_along_axis(np.where(useful, c, 0), rank, axis=1)
    totals = np.cumsum(g_sorted, axis=1) / (table.choice_cost[:, None] + extra + np.cumsum(c_sorted, axis=1))
    totals = np.where(np.take_along_axis(useful, rank, axis=1), totals, -1.0)
    take = np.argmax(totals, axis=1)
    est = totals[np.arange(n_choices), take]
    chosen = np.where(np.arange(table.members)[None, :] <= take[:, None], np.take_along_axis(best, rank, axis=1), -1)
    chosen = np.where(np.take_along_axis(useful, rank, axis=1), chosen, -1)
    return est, chosen


def step_word(table: CommutatorTable, choice: int, rows: np.ndarray) -> list[Turn]:
    """``X y X' y'`` for the rows taken into ``X`` under ``choice``."""
    x = [table.turn[int(k)] for k in rows if k >= 0]
    y = [table.choices[choice]]
    return x + y + invert(x) + invert(y)


def open_by_commutators(problem: Problem, *, cancel: CancelToken | None = None) -> int:
    """Play many-orbit commutators (or their conjugates by one move) while one makes at least :data:`MIN_RATE`
    cells right per turn; returns the turns played."""
    table = commutator_table(problem.puzzle, cancel=cancel)
    if table is None:
        return 0
    puzzle, played, work = problem.puzzle, 0, WORK
    setups = _setups(puzzle, table)
    per_step = table.positions.size * len(setups)
    while work >= per_step:
        if cancel is not None:
            cancel.check()
        work -= per_step
        step = _best_step(problem, table, setups)
        if step is None:
            break
        problem.play(step[0], step[1])
        played += puzzle.length(step[0])
    return played


def _setups(puzzle: Puzzle, table: CommutatorTable) -> list[list[Turn]]:
    """No set-up, then single steps, as many as :data:`STEP_WORK` lets one step score."""
    fit = max(1, STEP_WORK // table.positions.size)
    return ([[]] + [[g] for g in generators(puzzle)])[:fit]


def _best_step(problem: Problem, table: CommutatorTable,
               setups: list[list[Turn]]) -> tuple[list[Turn], np.ndarray] | None:
    """The step making the most cells right per turn, if at least :data:`MIN_RATE`: the best estimates, each
    scored on its real permutation."""
    puzzle, labels, goal, care = problem.puzzle, problem.labels, problem.goal, problem.care
    offers: list[tuple[float, int, int, np.ndarray]] = []
    for s, setup in enumerate(setups):
        perm = puzzle.perm_of(setup)
        est, chosen = estimates(table, gains(table, labels[perm], goal[perm], None if care is None else care[perm]),
                                extra=2 * puzzle.length(setup))
        for c in np.flatnonzero(est >= MIN_RATE):
            offers.append((float(est[c]), s, int(c), chosen[c]))
    offers.sort(key=lambda o: -o[0])
    wrong = problem.wrong()
    best: tuple[float, list[Turn], np.ndarray] | None = None
    for _, s, c, rows in offers[:CHECKED]:
        word = setups[s] + step_word(table, c, rows) + invert(setups[s])
        perm = puzzle.perm_of(word)
        rate = (wrong - problem.wrong(labels[perm])) / puzzle.length(word)
        if rate >= MIN_RATE and (best is None or rate > best[0]):
            best = (rate, word, perm)
    return None if best is None else (best[1], best[2])

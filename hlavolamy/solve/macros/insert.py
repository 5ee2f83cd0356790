"""Insert macros anywhere in the solution so far, not only at its end.

Playing a macro ``M`` between the first ``j`` turns of a sequence and the
rest ``S`` changes the final position as appending ``S' M S`` would: the
rest of the sequence is a free set-up. So the group's macros (and their
cheapest conjugates) are tried at every place of the sequence at once. For
one group of lockstep orbits the places fall into *runs* between the turns
that move the group (inside a run the suffix acts on the group the same
way); per run the suffix's inverse on the group's cells, as one row of a
numpy matrix, carries the position and the goal back to that place, and one
comparison scores every (run, macro) pair: cells made right minus cells
made wrong, per turn played, where a macro's first turn undoing the turn
before the place (or its last undoing the turn after) saves two steps.
A macro moves only its group, so other groups stay as they are wherever it
goes. When no insertion gains, the group is finished by appending
(:func:`~hlavolamy.solve.macros.greedy.solve_group`, with its rescues).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, reduce_power
from hlavolamy.solve.macros.greedy import (
    GroupTable,
    group_solved,
    group_target,
    solve_group,
)
from hlavolamy.solve.problem import Problem

SCORED_CELLS = 1_500_000
"""Most (run, candidate, cell) comparisons per step: bounds the candidates (and runs) tried per step."""
BIG_SCORED_CELLS = 24_000_000
"""The same on puzzles of more than :data:`BIG_CELLS` moved cells, whose solutions are long (a big cube's step
has thousands of runs and had room for a few dozen candidates). 16 times 1.5e6 made the Santa run 5.4 % shorter
(106,806 -> 101,003 moves): cube_33/33/33 38,338 -> 34,896, cube_19/19/19 13,773 -> 12,923, globe_3/33 9,551 ->
8,873, cube_10/10/10 5,009 -> 4,665, for about a quarter more CPU there. 4 times gave 4.5 % on cube_19, 64 times
nothing more on cube_10 (MAX_CANDIDATES binds)."""
BIG_CELLS = 250
"""Smaller puzzles keep :data:`SCORED_CELLS`: their steps mostly reach MAX_CANDIDATES anyway, and the big budget
moved them within 1 % either way (Santa cube_5 -50 moves, wreath_100 +62; the cubes plugin's 6x6x6 in
`bench solve` 300.0 -> 302.0), so they keep their answers."""
MIN_CANDIDATES = 24
"""Candidates tried at least, however long the sequence (the bare macros come first in the table)."""
MAX_CANDIDATES = 1_000
"""Candidates tried at most, however short the sequence."""
BIG_MAX_CANDIDATES = 4_000
"""The same on puzzles of more than :data:`BIG_CELLS` and at most :data:`HUGE_CELLS` moved cells. Measured with
the big scoring budget (Santa, per type): globe_3/33 8,873 -> 7,655 moves for 15 % more CPU, globe_8/25 2,683 ->
2,555, cube_7..10 13,598 -> 13,346 for 1.8 times the CPU; on smaller puzzles 1.4 % either way per type (65 cases)."""
HUGE_CELLS = 2_500
"""Above this many moved cells (a 33x33x33 has 6,534) steps keep :data:`MAX_CANDIDATES`: with 4,000, Santa's
cube_33/33/33 came out 0.5 % longer (34,896 -> 35,086). A 19x19x19 (2,166) takes them: its four cases 12,923 ->
12,771 moves for a third more of their CPU (231 -> 308 s in two whole runs of one day), paid for since the beam
got faster (the limit was 1,000 until then)."""
HUGE_SPREAD = 2
"""On puzzles of more than :data:`HUGE_CELLS` moved cells, in groups whose goal shows no two cells alike (exact
labels, or a colour per cell), each macro's this many cheapest conjugates are candidates before any other
(:func:`spread_rows`): there a step affords the ~100-400 cheapest rows, all of them set-ups of the 4-turn double
3-cycle, and with every cell its own label those seldom serve both of its cycles while the pure 3-cycles (8-10
turns) were never tried. Santa's 33x33x33 with a colour per cell (case 283): 15,712 -> 13,384 moves, no slower.
With identical pieces (many set-ups serve) it did not pay: cases 281, 282 9,075 + 9,113 -> 9,021 + 9,247. On the
puzzles of 251 to 2,500 cells, whose steps afford hundreds of rows of many macros, it was mixed (every Santa case
of those sizes, by colours too, in no more time): the cubes 7..19 25,775 -> 25,421 moves, globe_3/33 7,581 ->
7,753, globe_8/25 2,519 -> 2,531; on the exact 6x6x6 (case 256) 304 -> 340."""


class StepBudget(NamedTuple):
    """How much one insertion step may try on a puzzle."""

    scored: int
    """Most (run, candidate, cell) comparisons per step."""
    candidates: int
    """Most candidates per step, however short the sequence."""
    spread: int = 0
    """Each macro's this many cheapest conjugates come first (:func:`spread_rows`); 0: the cheapest rows first."""


@dataclass
class Runs:
    """Places of the sequence grouped by how the rest acts on the group.

    ``inverse[d]`` is the inverse of the suffix's action on the group's cells
    (local indices) for every place ``lo[d]..hi[d]``; ``before``/``after``
    hold the codes of the turns around the places ``lo`` and ``hi`` (-1: none).
    """

    inverse: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    before_lo: np.ndarray
    after_lo: np.ndarray
    before_hi: np.ndarray
    after_hi: np.ndarray


class TurnCodes:
    """Small integer codes of turns (move and reduced power), so cancellations compare as arrays."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.codes: dict[tuple[str, int], int] = {}

    def of(self, turn: Turn) -> int:
        key = (turn.move, reduce_power(self.puzzle, turn.move, turn.power))
        code = self.codes.get(key)
        if code is None:
            code = self.codes[key] = len(self.codes)
        return code

    def inverse(self, turn: Turn) -> int:
        return self.of(Turn(turn.move, -turn.power))


class GroupMoves:
    """Each turn's action on the group's cells (local indices), or None where it leaves them alone."""

    def __init__(self, puzzle: Puzzle, cells: np.ndarray):
        self.puzzle = puzzle
        self.cells = cells
        self.index = np.full(puzzle.n_cells, -1, dtype=np.int64)
        self.index[cells] = np.arange(cells.size)
        self.inverses: dict[tuple[str, int], np.ndarray | None] = {}

    def inverse(self, turn: Turn) -> np.ndarray | None:
        key = (turn.move, turn.power)
        if key not in self.inverses:
            local = self.index[self.puzzle.turn_perm(turn)[self.cells]]
            ident = np.arange(self.cells.size)
            if np.array_equal(local, ident):
                self.inverses[key] = None
            else:
                inv = np.empty_like(local)
                inv[local] = ident
                self.inverses[key] = inv
        return self.inverses[key]


class GroupSequence:
    """The turns with, per turn, its code and its inverse action on the group (None: it leaves the group alone)."""

    def __init__(self, turns: list[Turn], moves: GroupMoves, codes: TurnCodes):
        self.moves, self.codes = moves, codes
        self.code = [codes.of(t) for t in turns]
        self.action = [moves.inverse(t) for t in turns]

    def copy(self) -> GroupSequence:
        other = GroupSequence([], self.moves, self.codes)
        other.code, other.action = list(self.code), list(self.action)
        return other

    def insert(self, place: int, word: list[Turn]) -> None:
        self.code[place:place] = [self.codes.of(t) for t in word]
        self.action[place:place] = [self.moves.inverse(t) for t in word]

    def runs(self) -> Runs:
        """Group the places into runs of equal suffix action on the group (see :class:`Runs`)."""
        n = self.moves.cells.size
        cuts = [i for i, inv in enumerate(self.action) if inv is not None]
        inverse = np.empty((len(cuts) + 1, n), dtype=np.int64)
        current = np.arange(n)
        inverse[-1] = current
        for d in range(len(cuts) - 1, -1, -1):
            current = current[self.action[cuts[d]]]
            inverse[d] = current
        at = np.array(cuts, dtype=np.int64)
        lo = np.concatenate([[0], at + 1])
        hi = np.concatenate([at, [len(self.code)]])
        code = np.array(self.code + [-1], dtype=np.int64)  # code[-1] (before place 0) and code[len] are "none"
        return Runs(inverse, lo, hi, code[lo - 1], code[lo], code[hi - 1], code[hi])


@dataclass
class Candidates:
    """The cheapest conjugates of a group's table, with the codes their ends cancel against."""

    rows: np.ndarray
    positions: np.ndarray
    sources: np.ndarray
    cost: np.ndarray
    undo_first: np.ndarray
    undo_last: np.ndarray

    @functools.cached_property
    def columns(self) -> Columns:
        """The table's columns for :func:`score_insertions`: candidates widest first, each column contiguous and of
        the index type, cut after the last candidate that still moves a cell there (the rest is padding)."""
        moves = self.positions != self.sources  # an entry reading its own cell changes nothing (the padding)
        widths = np.where(moves.any(1), moves.shape[1] - np.argmax(moves[:, ::-1], axis=1), 0)
        order = np.argsort(-widths, kind="stable")
        counts = np.count_nonzero(widths[None] > np.arange(moves.shape[1])[:, None], axis=1)
        return Columns(np.argsort(order), np.ascontiguousarray(self.positions[order].T, dtype=np.intp),
                       np.ascontiguousarray(self.sources[order].T, dtype=np.intp), counts)


class Columns(NamedTuple):
    """Candidates' columns widest candidate first: ``counts[k]`` of them move a cell in column ``k``."""

    rank: np.ndarray
    """Each candidate's place in that order."""
    positions: np.ndarray
    sources: np.ndarray
    counts: np.ndarray


def candidates(table: GroupTable, count: int, codes: TurnCodes, spread: int = 0) -> Candidates:
    """The ``count`` cheapest rows of ``table`` (bare macros first), with the codes that cancel their ends; with
    ``spread``, each macro's ``spread`` cheapest rows before the rest (:func:`spread_rows`).

    A conjugate ``A C A'`` starts with ``A``'s first turn and ends with its
    inverse; a bare macro starts and ends with its own.
    """
    rows = spread_rows(table, spread)[:count] if spread else np.arange(min(count, table.cost.size))
    setups, macros = table.setup[rows], table.macro[rows]
    undo_first = np.empty(rows.size, dtype=np.int64)
    undo_last = np.empty(rows.size, dtype=np.int64)
    for s in np.unique(setups):
        at = setups == s
        setup = table.setup_words[int(s)]
        if setup:
            undo_first[at] = codes.inverse(setup[0])
            undo_last[at] = codes.of(setup[0])
            continue
        for m in np.unique(macros[at]):
            word = table.macro_words[int(m)]
            both = at & (macros == m)
            undo_first[both] = codes.inverse(word[0])
            undo_last[both] = codes.inverse(word[-1])
    return Candidates(rows, table.positions[rows], table.sources[rows], table.cost[rows].astype(np.int64),
                       undo_first, undo_last)


def spread_rows(table: GroupTable, spread: int) -> np.ndarray:
    """The table's rows with each macro's ``spread`` cheapest first, round by round (every macro's cheapest, then
    every macro's second, ...), then the rest, cheapest first: a prefix of at least one row per macro tries
    every macro, where the cheapest rows alone may all be set-ups of one short macro.

    >>> t = GroupTable(*[np.zeros(5)] * 4, macro=np.array([0, 0, 0, 1, 1]), setup=np.zeros(5),
    ...                macro_words=[], setup_words=[], macro_locals=[])
    >>> spread_rows(t, 1).tolist()
    [0, 3, 1, 2, 4]
    """
    by_macro = np.argsort(table.macro, kind="stable")  # rows grouped by macro, each group cheapest first
    grouped = table.macro[by_macro]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    rank = np.empty(table.macro.size, dtype=np.int64)
    rank[by_macro] = np.arange(grouped.size) - np.repeat(starts, np.diff(np.r_[starts, grouped.size]))
    first = np.flatnonzero(rank < spread)
    return np.concatenate([first[np.argsort(rank[first], kind="stable")], np.flatnonzero(rank >= spread)])


@dataclass
class Scores:
    """Every (run, candidate) insertion scored: ``gain`` (cells made right minus made wrong), ``score`` (gain
    per turn played, cancellations counted), ``at_lo`` (the run's first place cancels best, else its last)."""

    gain: np.ndarray
    score: np.ndarray
    at_lo: np.ndarray
    inverse: np.ndarray
    """Per run, the suffix's inverse on the group's cells with the sentinel appended."""

    def place(self, where: Runs, d: int, c: int) -> int:
        return int(where.lo[d] if self.at_lo[d, c] else where.hi[d])


UNCOUNTED = -2
"""What :func:`score_insertions` wants where a cell does not count: no label (the sentinel cell shows -1)."""


def score_insertions(labels: np.ndarray, goal: np.ndarray, care: np.ndarray, where: Runs,
                     cand: Candidates) -> Scores:
    """Score every candidate at every run at once.

    ``labels``, ``goal`` and ``care`` are the group's final labels, goal and
    counted cells in local indices, each with one sentinel entry appended.

    The arrays hold a row per cell and a column per run, so each column of the candidates' table gathers whole
    rows (copies of contiguous memory), only of the candidates that move a cell there (:attr:`Candidates.columns`),
    and the sums stay in the narrowest types that hold them: on Santa's cube_6/6/6 the same scores in a third of the
    time (this was half of a big cube's solve).
    """
    n = labels.size - 1
    inverse = np.concatenate([where.inverse, np.full((where.inverse.shape[0], 1), n)], axis=1)
    small = np.int16 if max(int(labels.max()), int(goal.max())) < np.iinfo(np.int16).max else np.int64
    by_cell = np.ascontiguousarray(inverse.T)
    here = labels.astype(small)[by_cell]
    wanted = np.where(care, goal, UNCOUNTED).astype(small)[by_cell]  # a label no cell shows
    right = (here == wanted).view(np.int8)
    columns = cand.columns
    gain = np.zeros((cand.rows.size, inverse.shape[0]), dtype=np.int8 if len(columns.positions) < 128 else np.int16)
    made = np.empty(gain.shape, dtype=bool)
    for pos, src, m in zip(columns.positions, columns.sources, columns.counts):  # every candidate, every run
        pos, src = pos[:m], src[:m]
        np.equal(here[src], wanted[pos], out=made[:m])
        gain[:m] += made[:m].view(np.int8)
        gain[:m] -= right[pos]
    gain = np.ascontiguousarray(gain[columns.rank].T, dtype=np.int16)
    at_lo = _cancelled(where.before_lo, where.after_lo, cand)
    at_hi = _cancelled(where.before_hi, where.after_hi, cand)
    turns = cand.cost.astype(np.int32)[None] - 2 * np.maximum(at_lo, at_hi)
    score = np.divide(gain, np.maximum(turns, 1), dtype=np.float64)
    return Scores(gain, score, at_lo >= at_hi, inverse)


def _cancelled(before: np.ndarray, after: np.ndarray, cand: Candidates) -> np.ndarray:
    """Per run and candidate, how many of its end turns cancel against the turns around the place (0, 1 or 2)."""
    out = (before[:, None] == cand.undo_first[None]).view(np.int8)
    out += (after[:, None] == cand.undo_last[None]).view(np.int8)
    return out


def top_insertions(scores: Scores, most: int, rate: float = 0.0) -> list[tuple[int, int]]:
    """(run, candidate) of the ``most`` best-scoring insertions that gain more than ``rate`` cells per turn."""
    flat = scores.score.ravel()
    top = np.argpartition(-flat, min(most, flat.size - 1))[:most] if flat.size > most else np.arange(flat.size)
    out = []
    for k in top[np.argsort(-flat[top], kind="stable")]:
        d, c = divmod(int(k), scores.score.shape[1])
        if scores.gain[d, c] <= 0 or flat[k] <= rate:
            break
        out.append((d, c))
    return out


def best_insertions(labels: np.ndarray, goal: np.ndarray, care: np.ndarray, where: Runs,
                    cand: Candidates, most: int = 64, rate: float = 0.0) -> list[tuple[int, int, int]]:
    """(run, candidate, place) of insertions that gain most cells per turn, best first; [] if none gains
    more than ``rate`` cells per turn.

    Several are returned when they move disjoint final cells from different
    runs: then each keeps its gain whatever the others do (inserting one
    only relabels the cells it moves, for the places before it), so one
    scoring serves them all.
    """
    n = labels.size - 1
    scores = score_insertions(labels, goal, care, where, cand)
    chosen: list[tuple[int, int, int]] = []
    used_runs: set[int] = set()
    used_cells = np.zeros(n + 1, dtype=bool)
    for d, c in top_insertions(scores, most, rate):
        moved = scores.inverse[d, cand.positions[c]]
        moved = moved[moved < n]
        if d in used_runs or used_cells[moved].any():
            continue
        used_runs.add(d)
        used_cells[moved] = True
        chosen.append((d, c, scores.place(where, d, c)))
    return chosen


def step_budget(puzzle: Puzzle, distinct: bool = False) -> StepBudget:
    """What a step may try on ``puzzle``: the big budget where solutions are long (more than :data:`BIG_CELLS`),
    with more candidates up to :data:`HUGE_CELLS`, above it with every macro among them (:data:`HUGE_SPREAD`)
    where the group's goal shows every cell ``distinct``."""
    cells = pieces(puzzle).moved_cells
    if cells <= BIG_CELLS:
        return StepBudget(SCORED_CELLS, MAX_CANDIDATES)
    if cells <= HUGE_CELLS:
        return StepBudget(BIG_SCORED_CELLS, BIG_MAX_CANDIDATES)
    return StepBudget(BIG_SCORED_CELLS, MAX_CANDIDATES, HUGE_SPREAD if distinct else 0)


def insert_group(problem: Problem, table: GroupTable, *, cancel: CancelToken | None = None,
                 max_steps: int = 10_000, append: bool = True, until: int | None = None,
                 rate: float = 0.0) -> bool:
    """Solve one group by inserting its conjugates where they gain most per turn; True when it is solved.

    Falls back to appending (:func:`~hlavolamy.solve.macros.greedy.solve_group`)
    once no insertion gains; with ``append`` False it stops there instead
    (the caller finishes some other way). With ``until`` it stops as soon as
    at most that many counted cells are wrong, or no insertion gains more
    than ``rate`` cells per turn, and never appends.
    """
    puzzle, cells = problem.puzzle, table.cells
    codes = TurnCodes(puzzle)
    sequence = GroupSequence(problem.turns, GroupMoves(puzzle, cells), codes)
    goal, care = group_target(problem, cells)
    width = table.positions.shape[1]
    budget = step_budget(puzzle, np.unique(goal[:-1]).size == cells.size)
    pool = candidates(table, 4 * MIN_CANDIDATES, codes, budget.spread)
    for _ in range(max_steps):
        if cancel is not None:
            cancel.check()
        labels = np.append(problem.labels[cells], -1)
        if group_solved(problem, labels, goal, care):
            return True
        if until is not None and np.count_nonzero((labels != goal) & care) <= until:
            return False
        where = sequence.runs()
        count = min(budget.candidates, max(MIN_CANDIDATES, budget.scored // (width * where.lo.size)))
        if count > pool.rows.size and pool.rows.size < table.cost.size:
            pool = candidates(table, count, codes, budget.spread)
        cand = pool if count >= pool.rows.size else head(pool, count)
        found = best_insertions(labels, goal, care, where, cand, rate=rate)
        if not found:
            break
        for d, c, place in sorted(found, key=lambda f: -f[2]):  # later places first: earlier ones stay valid
            row = int(cand.rows[c])
            word = table.word(row)
            insert_word(problem, cells, where.inverse[d], word, place, table, row)
            sequence.insert(place, word)
    if until is not None or not append:
        return group_solved(problem, np.append(problem.labels[cells], -1), goal, care)
    return solve_group(problem, table, cancel=cancel)


def head(cand: Candidates, count: int) -> Candidates:
    return Candidates(cand.rows[:count], cand.positions[:count], cand.sources[:count], cand.cost[:count],
                       cand.undo_first[:count], cand.undo_last[:count])


def insert_word(problem: Problem, cells: np.ndarray, inverse: np.ndarray, word: list[Turn], place: int,
            table: GroupTable, row: int) -> None:
    """Put ``word`` at ``place`` in the turns and update the final labels (and shadow) to match.

    The final position changes by ``Q = S' M S`` (``S`` the suffix after
    ``place``, ``M`` the conjugate), acting on the group's cells only.
    """
    n = cells.size
    macro = np.arange(n + 1)
    macro[table.positions[row]] = table.sources[row]
    macro = macro[:n]
    suffix = np.empty_like(inverse)
    suffix[inverse] = np.arange(n)
    q = inverse[macro[suffix]]
    problem.labels[cells] = problem.labels[cells][q]
    if problem.shadow is not None:
        problem.shadow[cells] = problem.shadow[cells][q]
    problem.turns[place:place] = word
    problem.check_budget()

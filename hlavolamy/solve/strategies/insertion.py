"""A beam of insertion sequences, kept by length so far plus an estimate of what the rest will cost.

The greedy insertion (:func:`~hlavolamy.solve.macros.insert.insert_group`)
keeps one sequence and always takes the insertion with the most cells per
turn; a cheap step now may leave a remainder that costs more later. The
beam keeps the ``width`` best partial sequences; each step extends every
one by its ``BRANCH`` best-scoring insertions, and the children are ranked by
``turns so far + remaining(labels)`` (:func:`remaining`): the sequence
leaving the cheapest remainder wins. Its width comes from a work budget
(the scoring is ``runs x candidates x cells``), so big groups keep a narrow
beam and a width of one is the greedy alone. The greedy answer is its first
finished answer, so the beam is never longer than the greedy.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.core.progress import CancelToken
from hlavolamy.solve.macros.decompose import Plan
from hlavolamy.solve.macros.greedy import (
    GroupTable,
    group_solved,
    group_target,
    solve_group,
)
from hlavolamy.solve.macros.insert import (
    BIG_CELLS,
    Candidates,
    GroupMoves,
    GroupSequence,
    TurnCodes,
    candidates,
    insert_group,
    insert_word,
    score_insertions,
    top_insertions,
)
from hlavolamy.solve.macros.opening import SHARE, opening_table
from hlavolamy.solve.macros.pairing import paired_plan
from hlavolamy.solve.macros.parallel import open_by_commutators
from hlavolamy.solve.macros.products import play_products
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Strategy, StrategyFailed
from hlavolamy.solve.strategies.commutators import solve_whole

BEAM_WORK = 20_000_000
"""Cell comparisons the beam may spend per step over all its sequences (sets the width; measured on Santa
cube_4: 4e7 saves another 3% of the moves at twice the time)."""
MIN_WIDTH = 3
"""Narrower beams are not run (the greedy alone): on long sequences (big cubes) they cost more than they save."""
RATE_SHARE = 0.25
"""A commutator spanning groups is inserted only while it makes right at least this share of the cells per
turn that the groups' own cheapest macros do (measured: 0.5 lost on a 5x5x5, 0 on a 4x4x4)."""
MAX_WIDTH = 16
"""Widest beam, however small the group (8 and 64 measured alike on the Hungarian rings, 64 five times slower)."""
BRANCH = 4
"""Insertions tried per sequence per step."""
RIVAL_CELLS = 1_000
"""Most moved cells for the many-orbit commutator rival (a second whole insertion solve): it saved 6 % of the
moves on Santa cube_7..cube_10 (294-600 cells), none on cube_19 (2,166 cells; 60-120 s more a case) and 1 % on
cube_33 (6,534 cells; 370 s more a case, 60-100 %): a tenth of the Santa run's CPU for 0.3 % of its moves."""
PRODUCT_CELLS = 1_000
"""Puzzles moving more cells open their first attempt with product commutators after phase 0
(:mod:`~hlavolamy.solve.macros.products`: ``[X, u Y u']``, many 3-cycles a step). Whole Santa run: cube_19
12,771 -> 12,411 moves (four cases), cube_33 34,896 -> 33,900 (281 and 282 by colours 9,563 -> 9,075 and 9,689
-> 9,113; 283, every cell its own label, 15,644 -> 15,712), 138 s less of their cases' time. Below, on cube_10 (five
cases, the limit at 0) the answers stayed the same: the opened and rival attempts win there."""
FINISHES = 1
"""Sequences left without a gaining insertion that are finished by appending (the first, best-ranked; 2 or 4
measured no shorter on Santa cube_4 and cube_5):
each finish may search set-ups, which costs more than a beam step."""
BEAM_CANDIDATES = 300
"""Cheapest conjugates scored per sequence (the greedy before it tries up to a thousand)."""


def remaining(labels: np.ndarray, goal: np.ndarray, care: np.ndarray) -> int:
    """Cells' worth of work left: wrong cells plus one per pair that only swap (two cells cost a 3-cycle).

    Pairs are matched by colour, best matching for identical pieces: cells
    showing ``a`` where ``b`` is wanted pair with cells showing ``b`` where
    ``a`` is wanted. On exact labels these are the position's 2-cycles.
    """
    wrong = (labels != goal) & care
    have, want = labels[wrong], goal[wrong]
    if have.size == 0:
        return 0
    top = int(max(have.max(), want.max())) + 1
    kinds, counts = np.unique(have * top + want, return_counts=True)
    count = dict(zip(kinds.tolist(), counts.tolist()))
    swaps = sum(min(k, count.get((k_ % top) * top + k_ // top, 0)) for k_, k in count.items()) // 2
    return int(have.size + swaps)


def turns_per_cell(table: GroupTable) -> float:
    """Turns per cell of the group's cheapest macro: what a cell left wrong is expected to cost."""
    return float(table.cost[0]) / max(1, int(np.count_nonzero(table.positions[0] != table.sources[0])))


def beam_group(problem: Problem, table: GroupTable, *, cancel: CancelToken | None = None, work: int = BEAM_WORK,
               widest: int = MAX_WIDTH) -> bool:
    """Solve one group by the greedy insertion, then by a beam of insertion sequences (``work`` and ``widest``:
    :data:`BEAM_WORK`, :data:`MAX_WIDTH`); the shorter wins."""
    greedy = problem.fork()
    solved = insert_group(greedy, table, cancel=cancel)
    width = _width(problem, table, work, widest)
    if width >= MIN_WIDTH:
        better = _beam(problem, table, width, len(greedy.turns) if solved else None, cancel)
        if better is not None:
            problem.adopt(better)
            problem.check_budget()
            return True
    problem.adopt(greedy)
    return solved


def _width(problem: Problem, table: GroupTable, budget: int, widest: int) -> int:
    """Sequences the work budget affords: each scores ``runs x candidates x table width`` cells ``BRANCH`` ways.

    The runs are those of the sequence now plus one per cell of the group, a
    rough guess at what the group's own insertions add.
    """
    puzzle, cells = problem.puzzle, table.cells
    moving = {m for m, perm in puzzle.moves.items() if np.any(perm[cells] != cells)}
    runs = 1 + sum(1 for t in problem.turns if t.move in moving) + cells.size
    work = runs * min(BEAM_CANDIDATES, table.cost.size) * table.positions.shape[1]
    return max(1, min(widest, budget // (BRANCH * work)))


def _beam(problem: Problem, table: GroupTable, width: int, bound: int | None,
          cancel: CancelToken | None) -> Problem | None:
    """The shortest solved sequence the beam finds, if shorter than ``bound`` turns (None: none)."""
    puzzle, cells = problem.puzzle, table.cells
    codes = TurnCodes(puzzle)
    goal, care = group_target(problem, cells)
    per_cell = turns_per_cell(table)
    cand = candidates(table, BEAM_CANDIDATES, codes)
    best: Problem | None = None
    finishes = FINISHES
    root = problem.fork()
    root.budget = root.answer_bound = None  # the greedy kept within them; the beam's bound is the greedy's length
    beam = [(root, GroupSequence(problem.turns, GroupMoves(puzzle, cells), codes))]
    while beam:
        children: dict[bytes, tuple[float, Problem, GroupSequence]] = {}
        for state, sequence in beam:
            if cancel is not None:
                cancel.check()
            labels = np.append(state.labels[cells], -1)
            if group_solved(state, labels, goal, care):
                best, bound = _shorter(state, best, bound)
                continue
            where = sequence.runs()
            scores = score_insertions(labels, goal, care, where, cand)
            options = top_insertions(scores, BRANCH)
            if not options:
                finished, finishes = state.fork(), finishes - 1
                if finishes >= 0 and solve_group(finished, table, cancel=cancel):
                    best, bound = _shorter(finished, best, bound)
                continue
            for d, c in options:
                child, seq = _child(state, sequence, table, cand, scores.inverse[d, :-1], int(c),
                                    scores.place(where, d, c))
                after = child.labels[cells]
                key = len(child.turns) + per_cell * remaining(after, goal[:-1], care[:-1])
                if bound is not None and key >= bound:
                    continue
                ident = after.tobytes()
                if ident not in children or children[ident][0] > key:
                    children[ident] = (key, child, seq)
        ranked = sorted(children.values(), key=lambda kcs: kcs[0])[:width]
        beam = [(child, seq) for _, child, seq in ranked]
    return best


def _child(state: Problem, sequence: GroupSequence, table: GroupTable, cand: Candidates, inverse: np.ndarray,
           c: int, place: int) -> tuple[Problem, GroupSequence]:
    row = int(cand.rows[c])
    word = table.word(row)
    child, seq = state.fork(), sequence.copy()
    insert_word(child, table.cells, inverse, word, place, table, row)
    seq.insert(place, word)
    return child, seq


def _shorter(state: Problem, best: Problem | None, bound: int | None) -> tuple[Problem | None, int | None]:
    if bound is None or len(state.turns) < bound:
        return state, len(state.turns)
    return best, bound


def open_cheaply(problem: Problem, plan: Plan, cancel: CancelToken | None = None) -> None:
    """Insert cheap commutators spanning groups (:mod:`~hlavolamy.solve.macros.opening`) until a share of the
    wrong cells is right (:data:`~hlavolamy.solve.macros.opening.SHARE`; on big puzzles while they pay)."""
    table = opening_table(problem.puzzle, plan, cancel=cancel)
    if table is None:
        return
    share = 1.0 if pieces(problem.puzzle).moved_cells > BIG_CELLS else SHARE
    wrong = int(np.count_nonzero(problem.labels[table.cells] != problem.goal[table.cells]))
    insert_group(problem, table, cancel=cancel, until=int(wrong * (1 - share)), rate=own_rate(plan))


def open_by_products(problem: Problem, plan: Plan, cancel: CancelToken | None = None) -> None:
    """Product commutators first (:func:`~hlavolamy.solve.macros.products.play_products`) on puzzles of more than
    :data:`PRODUCT_CELLS` moved cells."""
    if pieces(problem.puzzle).moved_cells > PRODUCT_CELLS:
        play_products(problem, cancel=cancel)


def own_rate(plan: Plan) -> float:
    """Cells per turn of the groups' own cheapest macros: what a commutator spanning groups must beat."""
    rates = [np.count_nonzero(t.positions[0] != t.sources[0]) / t.cost[0] for t in plan.tables if t is not None]
    return RATE_SHARE * min(rates, default=0.0)


def solve_by_insertion(problem: Problem, context: Context) -> None:
    """The commutators strategy (phase 0, then group by group) with groups paired where a macro joins
    them cheaply (:mod:`~hlavolamy.solve.macros.pairing`), cheap commutators across groups first, each group
    finished by insertion (greedy, then the beam).

    On a position by colours, a rival first plays commutators of several
    commuting moves with one move (:mod:`~hlavolamy.solve.macros.parallel`:
    a big cube's centres, many orbits per step) and then solves the same
    way, on puzzles of at most :data:`RIVAL_CELLS` moved cells; its answer is
    kept only if shorter and verified by replay. The plain attempt gets no
    budget from the rival: raw turns are no bound on the simplified length (a
    4x4x4 case: cut at the rival's 165 raw turns, it would have simplified to 143).
    On puzzles of more than :data:`PRODUCT_CELLS` moved cells the first attempt
    opens with product commutators after phase 0 (:func:`open_by_products`).
    """
    small = pieces(problem.puzzle).moved_cells <= RIVAL_CELLS
    rival = _opened_by_commutators(problem, context) if small and not problem.exact else None
    plain = problem.fork()
    try:
        solve_whole(plain, context, beam_group, paired_plan, open_cheaply, first_opener=open_by_products)
    except StrategyFailed:
        if rival is None:
            raise
        plain = rival
    if rival is not None and rival.answer_length() < plain.answer_length():
        plain = rival
    problem.adopt(plain)


def _opened_by_commutators(problem: Problem, context: Context) -> Problem | None:
    """The insertion strategy after many-orbit commutators, if they play anything and it replays to the goal."""
    rival = problem.fork()
    if not open_by_commutators(rival, cancel=context.cancel):
        return None
    try:
        solve_whole(rival, context, beam_group, paired_plan, open_cheaply)
    except StrategyFailed:
        return None
    return rival if rival.replays_to_goal(rival.turns) else None


STRATEGY = Strategy("insertion", "phase 0, then each group's macros inserted where the solution so far "
                    "sets them up best", solve_by_insertion)

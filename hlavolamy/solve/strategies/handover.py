"""The chain solves the pieces its first levels fix; inserted macros solve the rest ("handover").

A stabiliser chain's words grow level by level: the deep levels must keep
every earlier base point fixed, so each of their entries is a long
commutator that places one cell (on the megaminx about 10 moves per corner
sticker once the edges are fixed, against 5 per edge sticker before). A
3-cycle places two or three pieces for the same price, and inserted into
the sequence so far (:mod:`~hlavolamy.solve.macros.insert`) it often costs less.
So the chain sifts only through the levels of the first groups of pieces
(cut where the group of the base point changes), and each group left over
is finished by inserting its conjugated macros anywhere in that partial
solution. The shortest :data:`HEADS` partial sifts at each cut are each
finished that way (the cuts in turn, shortest heads first, within
:data:`HEAD_TRIALS` heads in all: work, not seconds), and the shortest answer wins. A head after the first
gives up once its answer so far, simplified, is a quarter longer than the best answer so far
(:func:`~hlavolamy.solve.problem.reach`; the race's bound holds too), since it could not win. A group the
macros cannot finish is finished by a full sift, so the strategy is complete wherever the chain is.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.solve.macros.decompose import Plan, plan
from hlavolamy.solve.macros.insert import insert_group
from hlavolamy.solve.problem import OverBudget, Problem, reach
from hlavolamy.solve.registry import Context, Strategy, StrategyFailed
from hlavolamy.solve.tables.chain import build_chain, chain_solve, shortest_sifts

HEADS = 32
"""Partial sifts (the shortest) finished by insertion at each cut (8 gave the megaminx 208 moves, 32: 198)..."""
HEAD_TRIALS = 48
"""...at most this many heads finished per solve (about what 8 s allowed on an idle core on the megaminx), taking
the cuts in turn, each cut's shortest head first (it runs whatever the count). A count, not seconds: the same
answer on a busy machine; a time limit only cuts."""
MAX_CUTS = 3
"""Cuts tried at most (the last ones: the chain keeps the most levels, whose words are the short ones)."""


def cuts(base_groups: list[int], tables: list[object | None]) -> list[int]:
    """Level counts where the chain may hand over: the group of the base point changes there, and every
    group with a base point at or after it has macros (a table) to finish it."""
    out = []
    for k in range(1, len(base_groups)):
        if base_groups[k] != base_groups[k - 1] and all(tables[g] is not None for g in base_groups[k:]):
            out.append(k)
    return out[-MAX_CUTS:]


def solve_by_handover(problem: Problem, context: Context) -> None:
    """The shortest of chain head + inserted macros over the cuts and partial sifts.

    A position by colours keeps its colours for the macros (identical pieces
    let them stop early: FTO 100 -> 84 moves) and an exact position showing
    them as its shadow, which the chain sifts.
    """
    cancel = context.cancel
    problem.cast_shadow()  # the heads come from the exact position, the macros work on colours
    puzzle = problem.puzzle
    chain = build_chain(puzzle, cancel=cancel, progress=context.progress)
    decomposition = plan(puzzle, cancel=cancel, progress=context.progress)
    group_of = np.full(puzzle.n_cells, -1, dtype=np.int64)
    for g, cells in enumerate(decomposition.groups):
        group_of[cells] = g
    base_groups = [int(group_of[b]) for b in chain.base]
    if any(g < 0 for g in base_groups):
        raise StrategyFailed("the chain's base has cells outside every group of pieces")
    heads = [(rank, cut, head) for cut in cuts(base_groups, decomposition.tables)
             for rank, head in enumerate(shortest_sifts(chain, problem.exact_labels(), levels=cut, count=HEADS,
                                                        cancel=cancel))]
    heads.sort(key=lambda h: h[:2])  # each cut's shortest head, then each cut's second, ...
    best: Problem | None = None
    shortest = 0
    tried: set[int] = set()
    finished = 0
    for _, cut, head in heads:
        if cut in tried and finished >= HEAD_TRIALS:
            continue  # out of work: only each cut's shortest head still runs
        tried.add(cut)
        finished += 1
        attempt = problem.fork()
        if best is not None:
            attempt.bound(reach(shortest))
        try:
            attempt.play(head)
            _finish(attempt, decomposition,
                    sorted(set(base_groups[cut:]), key=lambda g: -decomposition.groups[g].size), context)
        except OverBudget:
            continue  # this head cannot beat the best answer held
        length = attempt.answer_length()
        if best is None or length < shortest:
            best, shortest = attempt, length
    if best is None:
        raise StrategyFailed("no head of the chain finished within the budget, or no cut leaves only groups that "
                             "have macros")
    problem.adopt(best)


def _finish(problem: Problem, decomposition: Plan, groups: list[int], context: Context) -> None:
    """Insert each group's macros while an insertion gains; a full sift of the chain finishes what they leave
    (shorter and much faster than appending conjugates, measured on the megaminx and the master pyraminx),
    from an exact position showing the colours where the problem is by colours."""
    try:
        for g in groups:
            insert_group(problem, decomposition.tables[g], cancel=context.cancel, append=False)
    except OverBudget:
        raise
    except StrategyFailed:
        pass  # stuck: the sift below finishes from wherever the macros left it
    if not problem.is_solved():
        if not problem.exact:
            problem.to_exact()
        problem.play(chain_solve(problem.puzzle, problem.labels, cancel=context.cancel))


STRATEGY = Strategy("handover", "the chain's first levels, then each group left over by inserted macros",
                    solve_by_handover)

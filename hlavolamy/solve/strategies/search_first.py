"""The "search-first" strategy: the group dearest to solve by macros is solved first by a beam over plain moves.

The first group solved need not keep anything else in place, so plain moves
serve it far better than its macros do: on a 4x4x4 (centres by colour) the
wings take ~30 moves by the beam against ~100 by inserted 3-cycles. The
group searched is the one whose cheapest macro costs the most turns per
cell (:func:`~hlavolamy.solve.strategies.insertion.turns_per_cell`); every other
group is then finished by the insertion strategy's macros (which leave the
searched group alone).

The beam (:mod:`~hlavolamy.solve.strategies.beam`) runs on a smaller puzzle: the moves
restricted to the group's cells, plus a ring of cells per invariant
component (a parity, a twist sum mod 3) that each move turns by its value on
that component. The goal has every ring at zero, so the answer also leaves
the invariant vector at zero (of the exact position, or a colour position's
shadow): the macros, which cannot change it, can then finish the other
groups without a plain move that would break the searched group again.
"""

from __future__ import annotations

import hashlib

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.memo import memo
from hlavolamy.core.progress import CancelToken, Work, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.macros.decompose import Plan, Stuck, solve_decomposed
from hlavolamy.solve.macros.pairing import paired_plan
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Strategy, StrategyFailed
from hlavolamy.solve.strategies.beam import MAX_CELLS, MAX_STEPS, beam
from hlavolamy.solve.strategies.insertion import (
    beam_group,
    open_cheaply,
    turns_per_cell,
)
from hlavolamy.solve.strategies.search import SearchFailed
from hlavolamy.solve.tables.quotient import invariant_vector, moduli, turn_vectors
from hlavolamy.solve.tables.steps import step_automaton

WORK = 4.5e10
"""Most work (:class:`~hlavolamy.core.progress.Work` units: about 45 s of an idle core) the beam may spend on
the searched group (4x4x4 wings: 10-25 s once its tables exist); where it runs out, it plays the way to the closest
position it reached and the macros finish. Work, not seconds: the same answer on a busy machine. Three times the
1.5e10 it had: the beam widens once or twice more, and Santa's 60 cube_4/4/4 cases came out 7.7 % shorter (7,374 ->
6,808 moves; 31 shorter, 3 longer by 2-4; 62 % more time), the 35 cube_5/5/5 cases the same (18 % more time)."""
WIDTH = 20_000
"""Positions the first beam keeps per level..."""
MAX_WIDTH = 160_000
"""...and the widest (a level of 160,000 children rows of ~50 cells is ~200 MB)..."""
GROWTH = 2.2
"""...where the work left is at least this many times what the last beam spent (twice as wide: about twice the work)."""


def searched_group(plan: Plan) -> int | None:
    """The group whose cheapest macro costs the most turns per cell (None: no group has macros)."""
    costs = [(turns_per_cell(t), g) for g, t in enumerate(plan.tables) if t is not None]
    return max(costs)[1] if costs else None


def ring_puzzle(puzzle: Puzzle, cells: np.ndarray) -> Puzzle:
    """The moves acting on ``cells`` (renumbered from 0) and on one ring of cells per invariant component.

    A ring of ``m`` cells stands for a component modulo ``m``: a move turns
    it by the move's value on that component. Moves that change nothing
    here are left out. Built once per set of moves and cells.
    """
    tag = hashlib.sha1(np.asarray(cells, dtype=np.int64).tobytes()).hexdigest()[:16]
    return memo(puzzle, f"solve.search_first.rings.{tag}", lambda: _ring_puzzle(puzzle, cells))


def _rings(mod: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The rings' cells, numbered from 0, each ring of ``m`` cells turned by its value: ``(j + v) mod m``.

    As a move (``new[i] = old[move[i]]``) it adds ``values`` to what the rings
    show; as labels it shows ``values`` (the goal: zeros).
    """
    starts = np.concatenate([[0], np.cumsum(mod)[:-1]]).astype(np.int64)
    return np.concatenate([base + (np.arange(m) + v) % m for base, m, v in zip(starts, mod, values)]
                          + [np.zeros(0, dtype=np.int64)])


def _ring_puzzle(puzzle: Puzzle, cells: np.ndarray) -> Puzzle:
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[cells] = np.arange(cells.size)
    mod = moduli(puzzle)
    names = list(puzzle.moves)
    vectors = turn_vectors(puzzle, [Turn(name, 1) for name in names])
    size = cells.size + int(mod.sum())
    moves = {}
    for name, vec in zip(names, vectors):
        local = np.concatenate([index[np.asarray(puzzle.moves[name])[cells]], cells.size + _rings(mod, vec)])
        if np.any(local != np.arange(size)):
            moves[name] = local
    colours = [str(c) for c in range(size)]
    return Puzzle(colours, moves, name=f"{puzzle.name} ({cells.size} cells searched first)")


def ring_problem(problem: Problem, cells: np.ndarray) -> Problem:
    """The position of ``cells`` and of the invariant vector as a problem on :func:`ring_puzzle`.

    Labels are renumbered densely (the goal's labels on ``cells``, then the
    rings' positions), so the beam's tables depend on the colouring only.
    """
    puzzle = problem.puzzle
    exact = problem.exact_labels()
    if exact is None:
        raise StrategyFailed("a colour position needs an exact shadow to search first")
    mod = moduli(puzzle)
    names, dense = np.unique(problem.goal[cells], return_inverse=True)
    labels = np.searchsorted(names, problem.labels[cells])
    goal = np.concatenate([dense, names.size + _rings(mod, np.zeros_like(mod))]).astype(np.int64)
    start = np.concatenate([labels, names.size + _rings(mod, invariant_vector(puzzle, exact))]).astype(np.int64)
    return Problem(ring_puzzle(puzzle, cells), start.copy(), goal.copy(), 0, False, start, goal, [])


def widening_beam(sub: Problem, units: float, cancel: CancelToken) -> Problem:
    """The beam at :data:`WIDTH`, then twice as wide while the ``units`` of work left allow, the shortest answer kept.

    A wider beam wanders less (cubes-plugin 4x4x4 wings and centres by colour:
    86 moves at 20,000, 52 at 80,000), and where a level is cheap there is time
    for it. Where no beam reaches the goal, the first one's closest position.
    """
    work = Work(units)
    best: Problem | None = None
    width = WIDTH
    while width <= MAX_WIDTH:
        started = work.spent
        trial = sub.fork()
        try:
            beam(trial, width=width, work=work, partial=best is None, cancel=cancel,
                 shorter_than=None if best is None else best.answer_length())
        except SearchFailed:
            break
        best = trial
        if not trial.is_solved() or GROWTH * (work.spent - started) > work.left():
            break
        width *= 2
    if best is None:
        raise StrategyFailed("the beam made no progress on the searched group")
    return best


def solve_search_first(problem: Problem, context: Context) -> None:
    """Beam the dearest group (with the invariant vector) to solved, then insertion finishes the others."""
    cancel, progress = context.cancel, context.progress
    if problem.is_solved():
        return
    plan = paired_plan(problem.puzzle, cancel=cancel)
    g = searched_group(plan)
    if g is None:
        raise StrategyFailed("no group has macros to finish the rest")
    if plan.groups[g].size > MAX_CELLS:
        raise StrategyFailed(f"the dearest group has {plan.groups[g].size} cells, more than the beam takes")
    problem.cast_shadow()
    report(progress, 0.0, f"search-first: beam on a group of {plan.groups[g].size} cells")
    sub = ring_problem(problem, plan.groups[g])
    problem.play(widening_beam(sub, WORK, cancel).turns)
    try:
        solve_decomposed(problem, cancel=cancel, progress=progress, group_solver=beam_group,
                         planner=lambda *args, **kwargs: plan, opener=open_cheaply)
    except Stuck as exc:
        raise StrategyFailed(f"search-first could not finish the other groups: {exc}") from None


def search_first_applies(problem: Problem, context: Context) -> bool:
    """Whole puzzles whose groups the beam can take: few cells per group, few single steps.

    Wildcards do not keep it out: it solves every cell, which is still an answer, and ``auto`` races it against
    answers that use them (Santa cube_5/5/5 case 215, 6 wildcards: 220 moves against insertion's 229).
    """
    if problem.care is not None:
        return False
    structure = pieces(problem.puzzle)
    return (max((len(o) for o in structure.orbits), default=0) <= MAX_CELLS
            and len(step_automaton(problem.puzzle).turns) <= MAX_STEPS)


STRATEGY = Strategy(
    "search-first", "the group dearest to solve by macros first by a beam over plain moves, then insertion",
    solve_search_first, applies=search_first_applies)

__all__ = ["ring_problem", "ring_puzzle", "searched_group", "solve_search_first"]

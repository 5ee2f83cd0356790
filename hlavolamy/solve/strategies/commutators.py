"""The "commutators" strategy: conjugated macros group by group (:mod:`~hlavolamy.solve.macros.decompose`).

Exact positions decompose directly. Positions by colours decompose on the
colours (with a reachable exact position showing them as their shadow, whose
parities phase 0 fixes) and on that exact position; the shorter answer wins.
It is the one strategy for the orbit modes: solve one group with its macros
(``orbit-only``), or with macros that leave every other cell alone
(``orbit-keep``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.independent import generators
from hlavolamy.errors import UnreachableError
from hlavolamy.solve.macros.decompose import (
    GroupSolver,
    Opener,
    Plan,
    Stuck,
    plan,
    quick_plan,
    solve_decomposed,
)
from hlavolamy.solve.macros.greedy import solve_group
from hlavolamy.solve.problem import OverBudget, Problem, unproven
from hlavolamy.solve.registry import MODES, Context, Strategy, StrategyFailed
from hlavolamy.solve.tables.quotient import QuotientTooBig, bfs_quotient


def solve_by_commutators(problem: Problem, context: Context) -> None:
    """Dispatch on the mode: the whole puzzle, or one group of orbits."""
    if context.mode == "whole":
        solve_whole(problem, context)
    else:
        _orbit(problem, context, keep=context.mode == "orbit-keep")


OPENED_CELLS = 1_000
"""Puzzles moving more cells stop at the first attempt that answers (the later ones are a fallback): on Santa's
cube_19/19/19 and cube_33/33/33 (2,166 and 6,534 cells) the first won every case (cube_19: the opened colours
7-9 % longer where they finished, the opened assignment over its budget), while the two cost more than the first's
CPU."""


def solve_whole(problem: Problem, context: Context, group_solver: GroupSolver = solve_group,
                planner: Callable[..., Plan] | None = None, opener: Opener | None = None,
                first_opener: Opener | None = None) -> None:
    """Conjugated macros group by group; on colours also on an exact assignment, and the shortest wins.

    The colour attempt goes first, with the assignment as its shadow (its
    parities are fixed in phase 0); identical pieces usually make it the
    shorter, so every later attempt stops as soon as it is no longer likely to
    win (:func:`_within_reach`). Only the later attempts play ``opener``: on
    colours the same position again, with it, then the exact assignment (on an
    exact position the second attempt is the same position again, with it);
    on puzzles of more than :data:`OPENED_CELLS` moved cells the attempts stop
    at the first that answers. ``first_opener`` is played in the first attempt.
    The race keeps the opening only where it pays: on a Santa globe_3/33 by
    colours the colour attempt with it came out 1,023 moves against 1,211
    without; on one case each of cube_5, cube_6, cube_7 and cube_10 the colours without it
    played 4-11 % fewer turns.
    """
    cancel, progress = context.cancel, context.progress
    attempts: list[Problem] = []
    failure: Exception | None = None
    exact: Problem | None = problem.fork()
    if not problem.exact:
        try:
            exact.to_exact()
        except UnreachableError as exc:
            failure, exact = exc, None
    first = problem.fork()
    if not problem.exact:
        first.shadow = None if exact is None else exact.labels.copy()
    later: list[Problem] = [] if opener is None or problem.exact else [first.fork()]
    if exact is not None and (opener is not None or not problem.exact):
        later.append(exact)
    try:
        solve_decomposed(first, cancel=cancel, progress=progress, group_solver=group_solver, planner=planner,
                         opener=first_opener)
        attempts.append(first)
    except (Stuck, OverBudget) as exc:  # over a rival's answer: the later attempts may still beat it
        failure = failure or exc
    first_only = pieces(problem.puzzle).moved_cells > OPENED_CELLS
    for attempt in later:
        if attempts and first_only:
            break
        _within_reach(attempt, attempts)
        try:
            solve_decomposed(attempt, cancel=cancel, progress=progress, group_solver=group_solver, planner=planner,
                             opener=opener)
            attempts.append(attempt)
        except (Stuck, OverBudget) as exc:
            failure = failure or exc
    if not attempts:
        if isinstance(failure, UnreachableError):
            raise failure
        raise StrategyFailed(f"the commutators strategy could not finish this position: {failure}")
    problem.adopt(min(attempts, key=Problem.answer_length))


def _within_reach(attempt: Problem, attempts: list[Problem]) -> None:
    """Budget a later attempt a tenth over the fewest turns played so far: only worth finishing if it may come
    out shorter (turns played, not the simplified answer: the margin covers what simplification takes off)."""
    if attempts:
        fewest = min(len(a.turns) for a in attempts)
        attempt.budget = fewest + fewest // 10


QUICK_AIM_TRIPLES = 200_000
"""The quick macros' greedy aims at a dead end with 48 macros only in groups of up to 58 cells (the full strategy: up
to 100): a Santa globe_8/25's four groups of 100 cells cost its first answer 80 s of set-up searches, 14 s so; a
gigaminx's 60-cell groups 1-2 s (first answer 8.2-8.6 s and 1,876 moves, against 9.4-10.8 s and 1,843 at 63)."""


def solve_quick(problem: Problem, context: Context) -> None:
    """The first answer's route: :func:`solve_whole`'s attempts, the first that finishes, with the macros of the
    quick library (:func:`~hlavolamy.solve.macros.decompose.quick_plan`: its first stages, which the full
    library then goes on from) and phase 0 sifting through a quick quotient chain.

    A colour position is tried on its colours first (a big wreath: 4 s of CPU,
    where its exact assignment took 750 s), then, where identical pieces hide
    what a macro would change and the greedy gets stuck, on the exact
    assignment. That assignment is not proven by Schreier–Sims here
    (:meth:`~hlavolamy.solve.problem.Problem.to_exact`); should it be
    unreachable, the strategy fails and the next route, which proves it, decides.

    The colour attempt gives up at a dead end its aim cannot pass, without the
    pair search: on 12 macro rows and Santa cases that search never let a colour
    attempt finish (the same first answers without it), and it cost the radio
    chop 0.3 s, a Santa globe_3/33 about 2.5 s.
    """
    exact = problem.fork()
    attempts = [exact]
    if not problem.exact:
        exact.to_exact(verify=False)
        colours = problem.fork()
        colours.shadow = exact.labels.copy()
        attempts.insert(0, colours)
    failure: Exception | None = None
    for attempt in attempts:
        try:
            with unproven(not problem.exact):
                solve_decomposed(attempt, cancel=context.cancel, progress=context.progress, quick=True,
                                 group_solver=partial(solve_group, aim_triples=QUICK_AIM_TRIPLES, colour_pairs=False),
                                 planner=quick_plan)
        except Stuck as exc:
            failure = failure or exc
            continue
        problem.adopt(attempt)
        return
    raise StrategyFailed(f"the commutators strategy could not finish this position: {failure}")


def _broken_invariants(problem: Problem, cells: np.ndarray) -> list[str]:
    """Names of the invariants of the orbits in ``cells`` that the position has off their solved value."""
    from hlavolamy.analysis.invariants import invariants
    from hlavolamy.solve.tables.quotient import components_inside, invariant_vector

    puzzle = problem.puzzle
    comps = invariants(puzzle).components
    vec = invariant_vector(puzzle, problem.labels)
    inside = components_inside(puzzle, cells)
    return [f"{c.name} is {int(v)}" for c, v, ok in zip(comps, vec, inside) if ok and v]


def _orbit(problem: Problem, context: Context, *, keep: bool) -> None:
    """Solve one group: with moves and macros that leave the rest alone (keep), or with any moves first."""
    puzzle, group, cancel = problem.puzzle, context.group, context.cancel
    p = plan(puzzle, cancel=cancel)
    cells = p.groups[group]
    how = "without disturbing the other orbits" if keep else "with its macros"
    if keep and problem.exact:
        odd = _broken_invariants(problem, cells)
        if odd:
            raise UnreachableError(f"this orbit cannot be solved {how}: {', '.join(odd)} "
                                   "(macros that move only this orbit cannot change that)")
    if p.tables[group] is None or not keep:
        inside = np.zeros(puzzle.n_cells, dtype=bool)
        inside[cells] = True
        gens = [g for g in generators(puzzle)
                if not keep or np.all(inside | (puzzle.turn_perm(g) == np.arange(puzzle.n_cells)))]
        frozen = cells if p.tables[group] is None else cells[:0]
        try:
            problem.play(bfs_quotient(problem, frozen, problem.exact, gens=gens, care=cells, cancel=cancel))
        except QuotientTooBig:
            pass
        except ValueError:
            raise UnreachableError(f"this orbit cannot be solved {how}") from None
    try:
        solve_decomposed(problem, cancel=cancel, progress=context.progress, only=group)
    except Stuck as exc:
        raise UnreachableError(f"this orbit cannot be solved {how}: {exc}") from None


STRATEGY = Strategy(
    "commutators",
    "phase 0 by plain moves, then conjugated macros (3-cycles, twists) group by group",
    solve_by_commutators, modes=MODES)

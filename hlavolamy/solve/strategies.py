"""Choosing and running a strategy, with the fall-backs that make every reachable position solvable.

* ``commutators`` — :mod:`~hlavolamy.solve.decompose` (phase 0, then
  conjugated macros group by group). On colours it works on the colours
  directly and, separately, on a reachable exact position showing them
  (:func:`~hlavolamy.analysis.colours.assign_colours`); the shorter wins, and
  the exact one always finishes (colours alone can hide a parity).
* ``search`` — :mod:`~hlavolamy.solve.search`: bidirectional breadth-first
  search, shortest solutions, for small groups only.
* ``auto`` — ``search`` when the puzzle is small enough for it to finish
  quickly, else ``commutators``.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.independent import generators
from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.errors import HlavolamyError, UnreachableError
from hlavolamy.solve.decompose import Stuck, plan, solve_decomposed
from hlavolamy.solve.problem import OverBudget, Problem
from hlavolamy.solve.quotient import QuotientTooBig, bfs_quotient
from hlavolamy.solve.search import SearchFailed, search, search_feasible
from hlavolamy.solve.simplify import simplify


def run(problem: Problem, strategy: str, mode: str, group: int | None, *,
        progress: ProgressCallback | None, cancel: CancelToken) -> str:
    """Solve ``problem`` in place with ``strategy``; returns the name of the strategy that did it."""
    if strategy == "auto":
        strategy = "search" if mode == "whole" and search_feasible(problem.puzzle) else "commutators"
        if strategy == "search":
            try:
                search(problem, cancel=cancel, progress=progress)
                return "search"
            except SearchFailed:
                strategy = "commutators"
    if strategy == "search":
        if mode != "whole":
            raise HlavolamyError("the search strategy solves whole puzzles only; use commutators for an orbit mode")
        search(problem, cancel=cancel, progress=progress)
        return "search"
    if mode == "whole":
        _whole(problem, progress, cancel)
    elif mode == "orbit-keep":
        _orbit(problem, group, progress, cancel, keep=True)
    else:
        _orbit(problem, group, progress, cancel, keep=False)
    return "commutators"


def _whole(problem: Problem, progress: ProgressCallback | None, cancel: CancelToken) -> None:
    """Exact: decompose. Colours: decompose on the colours and on an exact assignment, keep the shorter.

    Working on colours lets identical pieces stand in for each other (big
    cubes' centres); an exact assignment avoids dead ends and is often
    shorter when most pieces are distinct (a 3x3x3).
    """
    if problem.exact:
        try:
            solve_decomposed(problem, cancel=cancel, progress=progress)
        except Stuck as exc:
            raise HlavolamyError(f"the commutators strategy could not finish this position: {exc}") from None
        return
    attempts, failure = [], None
    assigned = problem.fork()
    try:
        _colours_to_exact(assigned)
        solve_decomposed(assigned, cancel=cancel, progress=progress)
        attempts.append(assigned)
    except (Stuck, UnreachableError) as exc:
        failure = exc
    on_colours = problem.fork()
    if attempts:
        on_colours.budget = len(assigned.turns) + len(assigned.turns) // 2
    try:
        solve_decomposed(on_colours, cancel=cancel, progress=progress)
        attempts.append(on_colours)
    except (Stuck, OverBudget):
        pass
    if not attempts:
        if isinstance(failure, UnreachableError):
            raise failure
        raise HlavolamyError(f"the commutators strategy could not finish this position: {failure}")
    best = min(attempts, key=_length)
    problem.labels, problem.goal, problem.turns = best.labels, best.goal, best.turns


def _length(problem: Problem) -> int:
    return problem.puzzle.length(simplify(problem.puzzle, problem.turns))


def _colours_to_exact(problem: Problem) -> None:
    """Continue a colour problem as an exact one: a reachable permutation showing the current colours."""
    from hlavolamy.analysis.colours import assign_colours

    puzzle = problem.puzzle
    try:
        state = assign_colours(puzzle, problem.labels)
    except UnreachableError:
        if not problem.wildcards:
            raise
        state = assign_colours(puzzle, problem.labels, wildcards=problem.wildcards)
    changed = int(np.count_nonzero(puzzle.colour_ids[state.perm] != problem.labels))
    problem.slack = max(0, problem.wildcards - changed)
    problem.labels = np.asarray(state.perm, dtype=np.int64)
    problem.goal = np.arange(problem.puzzle.n_cells, dtype=np.int64)
    problem.exact = True


def _broken_invariants(problem: Problem, cells: np.ndarray) -> list[str]:
    """Names of the invariants of the orbits in ``cells`` that the position has off their solved value."""
    from hlavolamy.analysis.invariants import invariants
    from hlavolamy.solve.quotient import components_inside, invariant_vector

    puzzle = problem.puzzle
    comps = invariants(puzzle).components
    vec = invariant_vector(puzzle, problem.labels)
    inside = components_inside(puzzle, cells)
    return [f"{c.name} is {int(v)}" for c, v, ok in zip(comps, vec, inside) if ok and v]


def _orbit(problem: Problem, group: int, progress: ProgressCallback | None, cancel: CancelToken, *, keep: bool) -> None:
    """Solve one group: with moves and macros that leave the rest alone (keep), or with any moves first."""
    puzzle = problem.puzzle
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
        solve_decomposed(problem, cancel=cancel, progress=progress, only=group)
    except Stuck as exc:
        raise UnreachableError(f"this orbit cannot be solved {how}: {exc}") from None

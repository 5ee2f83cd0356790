"""Choosing and running a strategy, with the fall-backs that make every reachable position solvable.

* ``commutators`` — :mod:`~hlavolamy.solve.decompose` (phase 0, then
  conjugated macros group by group). On colours it works on the colours
  directly (with that exact position as its shadow, whose parities phase 0
  fixes) and, separately, on a reachable exact position showing them
  (:func:`~hlavolamy.analysis.colours.assign_colours`); the shorter wins.
* ``search`` — :mod:`~hlavolamy.solve.search`: bidirectional breadth-first
  search, shortest solutions, for small groups only.
* ``chain`` — :mod:`~hlavolamy.solve.chain`: a stabiliser chain whose
  entries carry words shortened by Minkwitz's algorithm. Complete for any
  group it can hold (up to ~1500 moved cells), so it is also the fall-back
  when conjugated macros get stuck.
* ``optimal`` — :mod:`~hlavolamy.solve.ida`: iterative deepening A* with
  pattern databases, shortest solutions for groups up to ~10^10 positions.
* ``auto`` — ``search`` when the puzzle is small enough for it to finish
  quickly; then ``optimal`` within a node and time budget where the group
  (or its colourings) is small enough; else for whole puzzles of at most
  :data:`CHAIN_AUTO_CELLS` moved cells the shorter of ``chain`` and
  ``commutators``; else ``commutators`` with ``chain`` behind it.
"""

from __future__ import annotations

import time

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.independent import generators
from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.errors import HlavolamyError, UnreachableError
from hlavolamy.solve.chain import ChainTooLarge, chain_solve
from hlavolamy.solve.decompose import Stuck, plan, solve_decomposed
from hlavolamy.solve.ida import AUTO_NODES, AUTO_SECONDS, optimal, optimal_feasible
from hlavolamy.solve.problem import OverBudget, Problem
from hlavolamy.solve.quotient import QuotientTooBig, bfs_quotient
from hlavolamy.solve.search import SearchFailed, search, search_feasible
from hlavolamy.solve.simplify import simplify

CHAIN_AUTO_CELLS = 128
"""Whole puzzles moving at most this many cells also try the chain in ``auto`` (its build takes seconds)."""


def run(problem: Problem, strategy: str, mode: str, group: int | None, *,
        progress: ProgressCallback | None, cancel: CancelToken) -> str:
    """Solve ``problem`` in place with ``strategy``; returns the name of the strategy that did it."""
    if strategy in ("search", "chain", "optimal") and mode != "whole":
        raise HlavolamyError(f"the {strategy} strategy solves whole puzzles only; use commutators for an orbit mode")
    if strategy == "auto" and mode == "whole" and search_feasible(problem.puzzle):
        try:
            search(problem, cancel=cancel, progress=progress)
            return "search"
        except SearchFailed:
            pass
    if strategy == "auto" and mode == "whole" and optimal_feasible(problem) and _optimal_within_budget(
            problem, progress, cancel):
        return "optimal"
    if strategy == "search":
        search(problem, cancel=cancel, progress=progress)
    elif strategy == "optimal":
        optimal(problem, cancel=cancel, progress=progress)
    elif strategy == "chain":
        _chain(problem, progress, cancel)
    elif mode == "whole":
        if strategy == "auto":
            return _whole(problem, progress, cancel)
        _commutators(problem, progress, cancel)
    else:
        _orbit(problem, group, progress, cancel, keep=mode == "orbit-keep")
        return "commutators"
    return strategy


def _optimal_within_budget(problem: Problem, progress: ProgressCallback | None, cancel: CancelToken) -> bool:
    """``auto``: a shortest solution if IDA* finds one within its budget (on a fork: a miss changes nothing).

    Under a time limit the search takes at most half of what is left, so the
    usual strategies still have time to answer.
    """
    seconds = AUTO_SECONDS
    if cancel.deadline is not None:
        seconds = min(seconds, max(0.0, cancel.deadline - time.monotonic()) / 2)
    attempt = problem.fork()
    try:
        optimal(attempt, nodes=AUTO_NODES, seconds=seconds, cancel=cancel, progress=progress)
    except (SearchFailed, UnreachableError):
        return False
    problem.adopt(attempt)
    return True


def _chain(problem: Problem, progress: ProgressCallback | None, cancel: CancelToken) -> None:
    """Solve from where ``problem`` stands with the stabiliser chain (colours: via a reachable exact position)."""
    if not problem.exact:
        problem.to_exact()
    problem.play(chain_solve(problem.puzzle, problem.labels, cancel=cancel, progress=progress))


def _moved_cells(problem: Problem) -> int:
    return sum(len(o) for o in pieces(problem.puzzle).orbits)


def _whole(problem: Problem, progress: ProgressCallback | None, cancel: CancelToken) -> str:
    """Small puzzles: the shorter of the chain and the commutators. Otherwise commutators, chain behind them.

    Commutators: exact positions decompose; colours decompose on the colours
    and on an exact assignment and keep the shorter (identical pieces stand in
    for each other on big cubes' centres; an exact assignment avoids dead
    ends). The chain never gets stuck where it fits, so it also rescues a
    stuck decomposition. Returns the name of the strategy whose answer won.
    """
    attempts: list[tuple[Problem, str]] = []
    stuck: HlavolamyError | None = None
    if _moved_cells(problem) <= CHAIN_AUTO_CELLS:
        by_chain = problem.fork()
        _chain(by_chain, progress, cancel)
        attempts.append((by_chain, "chain"))
    by_macros = problem.fork()
    try:
        _commutators(by_macros, progress, cancel)
        attempts.append((by_macros, "commutators"))
    except HlavolamyError as exc:
        if isinstance(exc, UnreachableError) and not attempts:
            raise
        stuck = exc
    if not attempts:
        by_chain = problem.fork()
        try:
            _chain(by_chain, progress, cancel)
        except ChainTooLarge:
            raise stuck from None
        attempts.append((by_chain, "chain"))
    best, name = min(attempts, key=lambda a: _length(a[0]))
    problem.adopt(best)
    return name


def _commutators(problem: Problem, progress: ProgressCallback | None, cancel: CancelToken) -> None:
    """Conjugated macros group by group; on colours also on an exact assignment, and the shorter wins.

    The colour attempt goes first, with the assignment as its shadow (its
    parities are fixed in phase 0); identical pieces usually make it the
    shorter, so the exact attempt then stops as soon as it is no longer
    likely to win.
    """
    if problem.exact:
        try:
            solve_decomposed(problem, cancel=cancel, progress=progress)
        except Stuck as exc:
            raise HlavolamyError(f"the commutators strategy could not finish this position: {exc}") from None
        return
    attempts: list[Problem] = []
    failure: HlavolamyError | None = None
    assigned: Problem | None = problem.fork()
    try:
        assigned.to_exact()
    except UnreachableError as exc:
        failure, assigned = exc, None
    on_colours = problem.fork()
    on_colours.shadow = None if assigned is None else assigned.labels.copy()
    try:
        solve_decomposed(on_colours, cancel=cancel, progress=progress)
        attempts.append(on_colours)
    except Stuck as exc:
        failure = failure or exc
    if assigned is not None:
        if attempts:  # only worth finishing if it may come out shorter
            assigned.budget = len(on_colours.turns) + len(on_colours.turns) // 10
        try:
            solve_decomposed(assigned, cancel=cancel, progress=progress)
            attempts.append(assigned)
        except (Stuck, OverBudget) as exc:
            failure = failure or exc
    if not attempts:
        if isinstance(failure, UnreachableError):
            raise failure
        raise HlavolamyError(f"the commutators strategy could not finish this position: {failure}")
    problem.adopt(min(attempts, key=_length))


def _length(problem: Problem) -> int:
    return problem.puzzle.length(simplify(problem.puzzle, problem.turns))


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

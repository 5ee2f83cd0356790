"""The "commutators" strategy: the thesis's Algorithm 1 generalised.

1. Phase 0 (:mod:`~hlavolamy.solve.tables.quotient`): plain moves fix what no
   macro changes — groups of orbits without a 3-cycle of their own or so
   small that a search is cheaper (a 3x3x3's centres), and the parities; by
   breadth-first search, linear algebra, or a stabiliser chain of that
   quotient when it is too big to search. A group without a 3-cycle that
   holds most of the puzzle (a big wreath) keeps its macros instead: its
   quotient would be nearly the whole puzzle, whose chain words are long,
   and on colours identical pieces let other macros finish it.
2. Each remaining group of lockstep orbits (one piece orbit) is solved by
   conjugated macros that move only that group
   (:mod:`~hlavolamy.solve.macros.greedy`), so solved groups stay solved.

Groups are the piece orbits of :mod:`hlavolamy.analysis.blocks`; macros
come from :mod:`hlavolamy.analysis.commutators`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.commutators import (
    CYCLE_KINDS,
    Macro,
    quick_library,
    remember_recent,
    small_support_macros,
)
from hlavolamy.analysis.independent import cell_groups
from hlavolamy.analysis.memo import from_disk, moves_key, to_disk
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.errors import StrategyFailed
from hlavolamy.solve.caches import solve_cache
from hlavolamy.solve.macros.greedy import (
    ALL_CANDIDATES,
    MAX_CANDIDATES,
    GroupTable,
    build_table,
    solve_group,
)
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.tables.chain import ChainTooLarge
from hlavolamy.solve.tables.quotient import (
    QuotientTooBig,
    bfs_quotient,
    chain_quotient,
    fix_parities_linear,
)

LIBRARY_WORK = 1.2e11
"""Work budget (:class:`~hlavolamy.core.progress.Work` units, what 120 s allowed on an idle core) for the macro
search; its fixed work caps normally end it first. Work, not seconds: a loaded machine finds the same library."""
SMALL_GROUP = 8
"""Groups of at most this many cells are solved in phase 0 by search, not by macros."""


GroupSolver = Callable[..., bool]
"""``(problem, table, *, cancel) -> solved?``: how one group is finished with its conjugate table."""
Opener = Callable[..., None]
"""``(problem, plan, cancel)``: work on several groups at once after phase 0 (the groups' solvers finish)."""

_BY_MOVES: dict[str, Plan] = {}
"""Plans of recent puzzles by their moves alone (tables do not depend on colours)."""


class Stuck(StrategyFailed):
    """No macro improves a group: the strategy cannot finish this position."""


@dataclass(frozen=True)
class Plan:
    """How a puzzle is decomposed: cells of each group, its macro table, and the frozen cells."""

    groups: list[np.ndarray]
    tables: list[GroupTable | None]
    frozen: np.ndarray


def plan(puzzle: Puzzle, *, cancel: CancelToken | None = None, progress: ProgressCallback | None = None) -> Plan:
    """Group cells, find macros and build conjugate tables (cached on the puzzle)."""
    held = _held_plan(puzzle)
    if held is not None:
        return held
    macros = small_support_macros(puzzle, work=LIBRARY_WORK, cancel=cancel, progress=progress, complete=True)
    result = _make_plan(puzzle, macros, cancel, progress)
    solve_cache(puzzle).plan = result
    remember_recent(_BY_MOVES, moves_key(puzzle), result, keep=2)
    to_disk(puzzle, _PLAN, result)
    return result


QUICK_FROZEN_CELLS = 128
"""The quick library searches groups without 3-cycles locally while they hold more than this many cells: what
phase 0's quick quotient chain solves in about a second (a 4x4x4's 96 cells in 1.2 s of CPU)."""


def quick_plan(puzzle: Puzzle, *, cancel: CancelToken | None = None,
               progress: ProgressCallback | None = None) -> Plan:
    """The plan of a first answer: :func:`plan`'s if it is at hand, else one from the
    :func:`~hlavolamy.analysis.commutators.quick_library` (kept in this process only: the full plan follows).

    A 5x5x5's first answer so: 1.3-1.5 s, 334 moves, against 3.1 s and 332 moves with the full library.
    """
    held = _held_plan(puzzle) or solve_cache(puzzle).quick_plan
    if held is not None:
        return held
    macros = quick_library(puzzle, work=LIBRARY_WORK, frozen_cells=QUICK_FROZEN_CELLS, cancel=cancel,
                           progress=progress)
    result = solve_cache(puzzle).quick_plan = _make_plan(puzzle, macros, cancel, progress)
    return result


_PLAN = "solve.plan"
"""The plan's name in the disk cache."""


def _held_plan(puzzle: Puzzle) -> Plan | None:
    """The puzzle's plan if already made: on it, for a puzzle with the same moves in this process, or on disk."""
    if solve_cache(puzzle).plan is not None:
        return solve_cache(puzzle).plan
    shared = _BY_MOVES.get(moves_key(puzzle)) or from_disk(puzzle, _PLAN, allowed=(Plan, GroupTable, Turn),
                                                           expect=Plan)
    if shared is not None:
        solve_cache(puzzle).plan = shared
        remember_recent(_BY_MOVES, moves_key(puzzle), shared, keep=2)
    return shared


def _make_plan(puzzle: Puzzle, macros: list[Macro], cancel: CancelToken | None,
               progress: ProgressCallback | None) -> Plan:
    """Groups, their conjugate tables from ``macros``, and the frozen cells (groups without a usable table)."""
    group_of, _ = cell_groups(puzzle)
    groups = [np.flatnonzero(group_of == g) for g in range(int(group_of.max()) + 1)]
    tables: list[GroupTable | None] = []
    frozen = []
    per_group = max(2_000, min(MAX_CANDIDATES, ALL_CANDIDATES // max(1, len(groups))))
    cycled = {int(group_of[m.cells[0]]) for m in macros if m.kind in CYCLE_KINDS}
    moved = int(np.count_nonzero(group_of >= 0))
    for g, cells in enumerate(groups):
        own = [m.turns for m in macros if all(group_of[c] == g for c in m.cells)]
        usable = g in cycled or 2 * cells.size > moved
        table = (build_table(puzzle, cells, own, max_candidates=per_group, cancel=cancel)
                 if own and cells.size > SMALL_GROUP and usable else None)
        tables.append(table)
        if table is None:
            frozen.append(cells)
        report(progress, (g + 1) / len(groups), f"set-ups for group {g + 1} of {len(groups)}")
    return Plan(groups, tables, np.concatenate(frozen) if frozen else np.zeros(0, dtype=np.int64))


def phase0(problem: Problem, frozen: np.ndarray, *, cancel: CancelToken | None = None, quick: bool = False) -> None:
    """Fix the frozen cells and the invariant vector (of the exact position, or a colour one's shadow) with plain moves.

    Shortest first: one breadth-first search over both; else the frozen cells
    by search and the parities by linear algebra; else a stabiliser chain of
    the quotient (:func:`~hlavolamy.solve.tables.quotient.chain_quotient`; a
    quick chain when ``quick``). Without an exact position (colours, no
    shadow) only the frozen cells are fixed.
    """
    exact = problem.exact_labels() is not None
    try:
        problem.play(bfs_quotient(problem, frozen, exact, cancel=cancel, quick=quick))
        return
    except QuotientTooBig:
        pass
    try:
        fix = bfs_quotient(problem, frozen, False, cancel=cancel, quick=quick)
        trial = problem.fork()
        trial.play(fix)
        if exact:
            fix += fix_parities_linear(trial, frozen)
        problem.play(fix)
        return
    except (QuotientTooBig, ValueError) as exc:
        reason = str(exc)
    if not exact:
        raise Stuck(f"{frozen.size} cells have no macro of their own and are too many to search ({reason})")
    try:
        problem.play(chain_quotient(problem, frozen, cancel=cancel, quick=quick))
    except ChainTooLarge as exc:
        raise Stuck(f"{frozen.size} cells have no macro of their own; {exc}") from None


def solve_decomposed(problem: Problem, *, cancel: CancelToken | None = None,
                     progress: ProgressCallback | None = None, only: int | None = None,
                     group_solver: GroupSolver = solve_group, planner: Callable[..., Plan] | None = None,
                     opener: Opener | None = None, quick: bool = False) -> None:
    """Solve ``problem`` in place: phase 0, then group by group. ``only``: one group, no phase 0.

    ``group_solver`` finishes one group with its table (appending conjugates,
    or inserting them: :func:`~hlavolamy.solve.macros.insert.insert_group`);
    ``planner`` makes the groups and tables (default :func:`plan`);
    ``opener`` plays what spans several groups between phase 0 and the groups;
    ``quick`` gives phase 0 a quick quotient chain (a first answer's route).
    Raises :class:`Stuck` when a group cannot be finished by its macros.
    """
    if problem.is_solved():
        return
    p = (planner or plan)(problem.puzzle, cancel=cancel)
    if only is None:
        report(progress, 0.05, "phase 0: frozen cells and parities")
        try:
            phase0(problem, p.frozen, cancel=cancel, quick=quick)
        except ValueError as exc:
            raise Stuck(str(exc)) from None
        if opener is not None:
            opener(problem, p, cancel)
    order = [only] if only is not None else sorted(range(len(p.groups)), key=lambda g: -p.groups[g].size)
    for step, g in enumerate(order):
        if problem.is_solved():
            return
        table = p.tables[g]
        cells = p.groups[g]
        if table is None:
            if _group_right(problem, cells):
                continue
            raise Stuck(f"group of cells {cells[:6].tolist()}... has no macro that moves it alone")
        if not group_solver(problem, table, cancel=cancel) and not problem.is_solved():
            raise Stuck(f"no macro improves the group of cells {cells[:6].tolist()}...")
        report(progress, 0.1 + 0.9 * (step + 1) / len(order), f"group {step + 1} of {len(order)} solved")


def _group_right(problem: Problem, cells: np.ndarray) -> bool:
    ok = problem.labels[cells] == problem.goal[cells]
    if problem.care is not None:
        ok |= ~problem.care[cells]
    return bool(np.all(ok))

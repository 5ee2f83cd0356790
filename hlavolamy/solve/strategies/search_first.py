"""The "search-first" strategy: the group dearest to solve by macros is solved first by a beam over plain moves.

The first group solved need not keep anything else in place, so plain moves
serve it far better than its macros do: on a 4x4x4 (centres by colour) the
wings take ~30 moves by the beam against ~100 by inserted 3-cycles. The
group searched is the one whose cheapest macro costs the most turns per
cell (:func:`~hlavolamy.solve.strategies.insertion.turns_per_cell`), with the
groups as dear whose colours, like its, tell their pieces apart
(:func:`searched_groups`); every other group is then finished by the insertion
strategy's macros (which leave the searched cells alone).

The beam (:mod:`~hlavolamy.solve.strategies.beam`) runs on a smaller puzzle: the moves
restricted to the group's cells, plus a ring of cells per invariant
component (a parity, a twist sum mod 3) that each move turns by its value on
that component. The goal has every ring at zero, so the answer also leaves
the invariant vector at zero (of the exact position, or a colour position's
shadow): the macros, which cannot change it, can then finish the other
groups without a plain move that would break the searched group again.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.colours import colours_tell_pieces
from hlavolamy.analysis.memo import memo
from hlavolamy.core.progress import CancelToken, Work, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.macros.decompose import GroupSolver, Plan, Stuck, solve_decomposed
from hlavolamy.solve.macros.pairing import paired_plan
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Strategy, StrategyFailed
from hlavolamy.solve.strategies.beam import MAX_CELLS, OTHERS, beam
from hlavolamy.solve.strategies.insertion import (
    beam_group,
    open_cheaply,
    turns_per_cell,
)
from hlavolamy.solve.strategies.search import SearchFailed
from hlavolamy.solve.tables.quotient import invariant_vector, moduli, turn_vectors
from hlavolamy.solve.tables.steps import step_automaton

WORK = 2.25e10
"""Most work (:class:`~hlavolamy.core.progress.Work` units: about 22 s of an idle core) the beam may spend on
the searched group (4x4x4 wings: 5-12 s once its tables exist); where it runs out, it plays the way to the closest
position it reached and the macros finish. Work, not seconds: the same answer on a busy machine. Three times what
it had (4.5e10 against 1.5e10 in the units of twice as slow levels): the first beam finishes on a 4x4x4's wings,
and Santa's 60 cube_4/4/4 cases came out 7.7 % shorter (7,374 -> 6,808 moves; 31 shorter, 3 longer by 2-4; 62 %
more time), the 35 cube_5/5/5 cases the same (18 % more time)."""
ONE_CELL_WORK = 7.5e9
"""The work for a group of one-cell pieces (globes, wreaths), searched by colour: its beams seldom reach the goal
and walk on to the end of their budget, and three times this bought nothing there but time (Santa globe_1/8: 784
-> 793 moves, the cases' seconds 330 -> 650; wreath_100 the same 1,725 moves with the beam's buckets of
:func:`~hlavolamy.solve.strategies.beam.bucket_label`)."""
WIDTH = 20_000
"""Positions the first beam keeps per level..."""
MAX_WIDTH = 160_000
"""...and the widest (a level of 160,000 children rows of ~50 cells is ~200 MB)..."""
GROWTH = 2.2
"""...where the work left is at least this many times what the last beam spent (twice as wide: about twice the work)."""
AS_DEAR = 0.9
"""Groups whose macros cost at least this share of the dearest's turns per cell are searched with it (where the
colours tell their pieces apart)..."""
SOLVED_CELLS = 48
"""...while the cells searched together are at most this many: about what the beam solves within its work (a
4x4x4's wings, a master pyraminx's two groups of 24). A 5x5x5's middle edges and wings (72 cells) it did not: it
ran out of work some 25 turns in and left ~87 wrong cells to the macros; its wings alone (48) it solves or nearly
in 33-44 turns (Santa cube_5 cases 210-220: 2,017 -> 1,815 moves, with the second beam on wings and corners)."""
FINISH_WORK = 80_000_000
"""The insertion beam's work per step in a wide finish of the other groups (four times
:data:`~hlavolamy.solve.strategies.insertion.BEAM_WORK`)..."""
FINISH_WIDTH = 64
"""...and its widest beam (four times the default)..."""
WIDE_FINISHES = 2
"""...run on this many hand-over positions: those whose plain finish was shortest. Santa cube_4 cases 150-161
(1,189 moves, 131 s with one position finished plainly): 1,171 with every position finished plainly, 1,155 with
every finish wide (194 s), 1,153 with the best two wide (160 s); cube_5 210-218 1,726 -> 1,666 (121 -> 150 s)."""
ALSO_DEAR = 0.6
"""A second beam, from the start again with its own :data:`WORK`, searches the groups at least this share as
dear (where that makes another set of groups): a 4x4x4's wings and corners (0.89 turns a cell against 1.33), a
6x6x6's wings and corners. Where the first beam solves the wings, the corners cost the macros ~30 moves; where
the second one comes close on all 72 cells, the centres and a few pieces are left. Which is shorter varies from
case to case, so both are finished and the shorter kept: Santa cube_4 cases 150-161 1,153 -> 1,027 moves (each
beam with half the work, or the second at half the width and work: 1,085 and 1,083), cube_6 3,446 -> 3,326."""
MAX_STEPS = 60
"""Most single steps of a puzzle it applies to: up to a 10x10x10's 60 (the beam's work budget bounds its levels,
however many steps). From the 7x7x7 on (42 to 60 steps) Santa's cube_7..10 came out 13,364 -> 11,614 moves,
every case shorter than by insertion alone (docs/solving.md), for 4.4 times their seconds (1,118 -> 4,936), most of
it the finishes; a 19x19x19's 114 steps stay out: each finish there is a whole insertion solve of 2,166 cells."""
HANDOVER_CELLS = 16 * 216
"""Hand-over positions a beam gives the finishes, in moved cells: a finish costs about its puzzle's size, so a
6x6x6 (216 cells) and smaller finish every position the beam offers (16), a 10x10x10 (600) five."""
UNITED_CELLS = 80
"""...while the cells searched together are at most this many (joined in the plan's order): a 4x4x4's or 5x5x5's
wings and corners (48, 72); a 6x6x6's two wing groups (96) were measured together and left apart (4 Santa cases:
1,230 -> 1,220 moves, within the noise of a single case)."""


def searched_group(plan: Plan) -> int | None:
    """The group whose cheapest macro costs the most turns per cell; of groups as dear, the one with the most
    cells, whose macros would play the most (a 5x5x5's wings, not its middle edges; None: no group has macros)."""
    return _dearest(plan, (g for g, t in enumerate(plan.tables) if t is not None))


def _dearest(plan: Plan, candidates: Iterable[int]) -> int | None:
    """Of ``candidates`` (groups with macros), the one costing the most turns per cell, then the most cells."""
    costs = [(turns_per_cell(plan.tables[g]), plan.groups[g].size, g) for g in candidates]
    return max(costs)[2] if costs else None


def searched_groups(plan: Plan, problem: Problem) -> list[int]:
    """The groups the beam solves first: the dearest, and where its colours tell its pieces apart, every other
    group as dear (:data:`AS_DEAR`) whose colours do too, up to :data:`SOLVED_CELLS` cells (none: no macros).

    A master pyraminx's two groups of 24 cells cost the same per cell: searched together. A 5x5x5's middle edges
    and wings do too, but 72 cells are more than the beam solves: its wings alone (:data:`SOLVED_CELLS`). A
    4x4x4's corners (0.89 turns a cell against the wings' 1.33) are not worth it in the same beam (six cases 638
    -> 660), but in a second one (:data:`ALSO_DEAR`).
    """
    g = searched_group(plan)
    if g is None:
        return []
    return _joined(plan, problem, [g], AS_DEAR, SOLVED_CELLS) if tracks_pieces(problem, plan.groups[g]) else [g]


def _joined(plan: Plan, problem: Problem, chosen: list[int], as_dear: float, most: int) -> list[int]:
    """``chosen`` and every other group at least ``as_dear`` as dear as its first whose colours tell its pieces
    apart, in the plan's order while the cells fit in ``most``."""
    dearest = turns_per_cell(plan.tables[chosen[0]])
    out = list(chosen)
    size = sum(plan.groups[g].size for g in out)
    for k, table in enumerate(plan.tables):
        cells = plan.groups[k]
        if (k not in out and table is not None and turns_per_cell(table) >= as_dear * dearest
                and tracks_pieces(problem, cells) and size + cells.size <= most):
            out.append(k)
            size += cells.size
    return out


def tracks_pieces(problem: Problem, cells: np.ndarray) -> bool:
    """Whether the beam searches ``cells`` by their pieces: pieces of several cells that the colours tell
    apart (:func:`~hlavolamy.analysis.colours.colours_tell_pieces`).

    Colour pattern databases see one cell at a time, blind to which cells travel together; where a piece is a
    single cell they already track it, and searching it exactly changed nothing but the time (Santa globe_1/8
    and globe_3/4 by distinct colours: the same moves or longer, three times the CPU). Exact positions keep
    their databases of cells, every one its own label: with pieces tracked the shipped rubik4's three bench
    positions came out 131.3 moves against 124.7.
    """
    if problem.exact:
        return False
    return (holds_pieces_of_cells(problem.puzzle, cells)
            and colours_tell_pieces(pieces(problem.puzzle), problem.goal, cells))


def holds_pieces_of_cells(puzzle: Puzzle, cells: np.ndarray) -> bool:
    """Whether ``cells`` belong to pieces of several cells (a cube's wings and corners; not a globe's cells)."""
    return any(po.piece_size > 1 for po in pieces(puzzle).piece_orbits_holding(cells))


def search_work(puzzle: Puzzle, cells: np.ndarray) -> float:
    """The beam's budget: :data:`WORK` where the cells hold pieces of several cells (groups searched together
    too), :data:`ONE_CELL_WORK` where they do not.

    Groups searched together had a third of :data:`WORK` while levels were twice as slow: with all of it Santa's
    35 cube_5/5/5 cases (middle edges and wings) came out 7,598 -> 7,310 moves, their seconds 399 -> 662 summed.
    """
    return WORK if holds_pieces_of_cells(puzzle, cells) else ONE_CELL_WORK


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
    Where ``cells`` of a colour position hold pieces of several cells that their
    colours tell apart (:func:`tracks_pieces`) the problem is the
    exact one of the shadow: the same positions, but pattern databases that
    track pieces instead of one colour at a time (Santa cube_4/4/4, the wings:
    6,808 -> 6,356 moves).
    """
    puzzle = problem.puzzle
    exact = problem.exact_labels()
    if exact is None:
        raise StrategyFailed("a colour position needs an exact shadow to search first")
    mod = moduli(puzzle)
    rings = _rings(mod, invariant_vector(puzzle, exact))
    if tracks_pieces(problem, cells):
        index = np.full(puzzle.n_cells, -1, dtype=np.int64)
        index[cells] = np.arange(cells.size)
        start = np.concatenate([index[exact[cells]], cells.size + rings])
        goal = np.arange(start.size, dtype=np.int64)
        return Problem(ring_puzzle(puzzle, cells), start.copy(), goal.copy(), 0, True, start, goal, [])
    names, dense = np.unique(problem.goal[cells], return_inverse=True)
    labels = np.searchsorted(names, problem.labels[cells])
    goal = np.concatenate([dense, names.size + _rings(mod, np.zeros_like(mod))]).astype(np.int64)
    start = np.concatenate([labels, names.size + rings]).astype(np.int64)
    return Problem(ring_puzzle(puzzle, cells), start.copy(), goal.copy(), 0, False, start, goal, [])


def widening_beam(sub: Problem, units: float, cancel: CancelToken,
                  others: list[list[Turn]] | None = None) -> Problem:
    """The beam at :data:`WIDTH`, then twice as wide while the ``units`` of work left allow, the shortest answer kept
    (with ``others``: that beam's other answers, :func:`~hlavolamy.solve.strategies.beam.beam`).

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
        more: list[list[Turn]] = []
        try:
            beam(trial, width=width, work=work, partial=best is None, cancel=cancel,
                 shorter_than=None if best is None else best.answer_length(), others=more)
        except SearchFailed:
            break
        best = trial
        if others is not None:
            others[:] = more
        if not trial.is_solved() or GROWTH * (work.spent - started) > work.left():
            break
        width *= 2
    if best is None:
        raise StrategyFailed("the beam made no progress on the searched group")
    return best


def solve_search_first(problem: Problem, context: Context) -> None:
    """Beam the dearest group (with the invariant vector) to solved, then insertion finishes the others: from the
    beam's answer and from its other answers (:func:`~hlavolamy.solve.strategies.beam.beam`'s ``others``: each
    leaves the other groups elsewhere), from a second beam's on more groups (:data:`ALSO_DEAR`) and two more on
    the dearest group left (:func:`_dearest_left`), the shortest whole answer kept.

    Before each later beam the positions so far are finished as if no more beams came (the best two widely) and
    that answer is offered (``context.offer``): an anytime solve cut by its limit during a later beam still holds
    what the earlier ones gave.
    """
    cancel, progress = context.cancel, context.progress
    if problem.is_solved():
        return
    plan = paired_plan(problem.puzzle, cancel=cancel)
    groupings = _groupings(plan, problem)
    if not groupings:
        raise StrategyFailed("no group has macros to finish the rest")
    problem.cast_shadow()
    starts: list[Problem] = []
    seen: set[bytes] = set()
    plain: list[tuple[int, int, Problem]] = []
    widened: dict[int, Problem | None] = {}
    failure: StrategyFailed | None = None
    for groups in groupings:
        if plain:  # what one beam gave, whoever asks: the same answer with or without an anytime runner
            _widen(starts, plain, widened, plan, context)
            if context.offer is not None:
                context.offer(_shortest(plain, widened), "search-first")
        cells = np.sort(np.concatenate([plan.groups[g] for g in groups]))
        report(progress, 0.0, f"search-first: beam on {cells.size} cells")
        others: list[list[Turn]] = []
        found = widening_beam(ring_problem(problem, cells), search_work(problem.puzzle, cells), cancel, others)
        new = _handed_over(problem, [found.turns, *others][:handovers(problem.puzzle)], seen)
        finished, failed = _plain_finishes(new, len(starts), plan, context)
        starts += new
        plain += finished
        failure = failed or failure
    if not plain:
        raise failure
    _widen(starts, plain, widened, plan, context)
    problem.adopt(_shortest(plain, widened))


def handovers(puzzle: Puzzle) -> int:
    """How many of a beam's answers are finished: :data:`HANDOVER_CELLS` over the moved cells, at least one."""
    return max(1, min(OTHERS + 1, HANDOVER_CELLS // max(1, pieces(puzzle).moved_cells)))


def _handed_over(problem: Problem, answers: list[list[Turn]], seen: set[bytes]) -> list[Problem]:
    """The positions ``answers`` leave ``problem`` in, each once (``seen``: the positions' keys so far)."""
    out = []
    for turns in answers:
        attempt = problem.fork()
        attempt.play(turns)
        key = attempt.labels.tobytes() + (b"" if attempt.shadow is None else attempt.shadow.tobytes())
        if key not in seen:
            seen.add(key)
            out.append(attempt)
    return out


def _groupings(plan: Plan, problem: Problem) -> list[list[int]]:
    """The sets of groups a beam searches, each from the start: :func:`searched_groups` (none: no macros) alone
    and joined (:func:`_alone_and_joined`); then the dearest group left (:func:`_dearest_left`) alone and joined,
    where the macros would pay at least :data:`AS_DEAR` of the first groups' turns for it."""
    first = searched_groups(plan, problem)
    size = sum(plan.groups[g].size for g in first)
    if size > MAX_CELLS:
        raise StrategyFailed(f"the dearest group has {size} cells, more than the beam takes")
    if not first or not tracks_pieces(problem, plan.groups[first[0]]):
        return [first] if first else []
    out = _alone_and_joined(plan, problem, first)
    left = _dearest_left(plan, problem, {g for groups in out for g in groups})
    if left is not None and _macro_turns(plan, left) >= AS_DEAR * _macro_turns(plan, first):
        out += [groups for groups in _alone_and_joined(plan, problem, left) if groups not in out]
    return out


def _alone_and_joined(plan: Plan, problem: Problem, groups: list[int]) -> list[list[int]]:
    """``groups``, and where groups at least :data:`ALSO_DEAR` as dear fit beside them (:data:`UNITED_CELLS`),
    those groups with them: two beams ending in very different positions (a 4x4x4's wings; wings and corners)."""
    joined = _joined(plan, problem, groups, ALSO_DEAR, UNITED_CELLS)
    return [groups, joined] if joined != groups else [groups]


def _macro_turns(plan: Plan, groups: list[int]) -> float:
    """About what the macros pay for ``groups`` from a scrambled position: turns per cell times cells."""
    return sum(turns_per_cell(plan.tables[g]) * plan.groups[g].size for g in groups)


def _dearest_left(plan: Plan, problem: Problem, searched: set[int]) -> list[int] | None:
    """The dearest group no beam has searched whose colours tell its pieces apart, with the groups as dear
    (:data:`AS_DEAR`) within :data:`SOLVED_CELLS` (None: none left): a 6x6x6's to 10x10x10's other wings, a
    5x5x5's middle edges. Two more beams search it from the start, alone and joined, each with its own :data:`WORK`.

    A beam only adds hand-over positions, so the answer is never longer. They run where the macros would pay
    about as much for these groups as for the first beam's (:func:`_groupings`): a 6x6x6's other 48 wing cells,
    not a 5x5x5's 24 middle edges (a beam on those: Santa's 35 cube_5/5/5 cases move for move the same). Santa
    cube_6..10: 14,940 -> 14,746 moves (docs/solving.md)."""
    left = _dearest(plan, (g for g, t in enumerate(plan.tables)
                           if t is not None and g not in searched and tracks_pieces(problem, plan.groups[g])))
    return None if left is None else _joined(plan, problem, [left], AS_DEAR, SOLVED_CELLS)


def _plain_finishes(starts: list[Problem], first: int, plan: Plan,
                    context: Context) -> tuple[list[tuple[int, int, Problem]], StrategyFailed | None]:
    """Each hand-over position finished by the plain insertion beam: ``(length, index, answer)``, indices from
    ``first``, and the last failure (positions the macros could not finish are left out)."""
    done: list[tuple[int, int, Problem]] = []
    failure: StrategyFailed | None = None
    for k, start in enumerate(starts, first):
        try:
            finished = _finished(start, plan, context, beam_group)
        except StrategyFailed as exc:
            failure = exc
            continue
        done.append((finished.answer_length(), k, finished))
    return done, failure


def _widen(starts: list[Problem], plain: list[tuple[int, int, Problem]], widened: dict[int, Problem | None],
           plan: Plan, context: Context) -> None:
    """Finish again by the wide insertion beam (:data:`FINISH_WORK`, :data:`FINISH_WIDTH`) the
    :data:`WIDE_FINISHES` positions whose plain finish was shortest, each once (``widened``: position index ->
    its wide answer, None where the macros could not finish it)."""
    wide = functools.partial(beam_group, work=FINISH_WORK, widest=FINISH_WIDTH)
    for _, k, _ in sorted(plain, key=lambda d: d[:2])[:WIDE_FINISHES]:
        if k not in widened:
            try:
                widened[k] = _finished(starts[k], plan, context, wide)
            except StrategyFailed:
                widened[k] = None


def _shortest(plain: list[tuple[int, int, Problem]], widened: dict[int, Problem | None]) -> Problem:
    """The shortest whole answer, plain or wide (ties: the earlier position)."""
    wide = [(answer.answer_length(), k, answer) for k, answer in widened.items() if answer is not None]
    return min(plain + wide, key=lambda d: d[:2])[2]


def _finished(problem: Problem, plan: Plan, context: Context, group_solver: GroupSolver) -> Problem:
    """The other groups finished by insertion, with and without the cheap commutators across groups first: the
    shorter answer (each a fraction of a second after the beam).

    Without them 9 of 11 Santa cube_4/4/4 and cube_5/5/5 cases came out shorter (151: 94 -> 86 moves, 210:
    215 -> 199), with them the other two; before, only the opened finish was tried.
    """
    finished: list[Problem] = []
    failure: Stuck | None = None
    for opener in (open_cheaply, None):
        attempt = problem.fork()
        try:
            solve_decomposed(attempt, cancel=context.cancel, progress=context.progress, group_solver=group_solver,
                             planner=lambda *args, **kwargs: plan, opener=opener)
        except Stuck as exc:
            failure = exc
            continue
        finished.append(attempt)
    if not finished:
        raise StrategyFailed(f"search-first could not finish the other groups: {failure}")
    return min(finished, key=Problem.answer_length)


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

__all__ = ["ring_problem", "ring_puzzle", "searched_group", "searched_groups", "solve_search_first"]

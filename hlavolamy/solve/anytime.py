"""Anytime solving: a verified answer at once, better ones until the time limit, the best one returned.

``auto`` on a whole puzzle runs in two phases:

1. **The first answer**, by the cheapest route that always works for the
   puzzle (:func:`first_routes`, chosen from measurements on the shipped
   puzzles and the plugin presets from an empty cache): plain ``search``
   for small groups, or a search of at most :data:`FIRST_SEARCH_STATES`
   states on puzzles of few cells (its answer is the shortest: nothing to
   improve; a 2x2x2, pyraminx, skewb or dino from 0.01 to 1.4 s of CPU), a
   *quick chain* (one base order, a few rounds, the table completed by orbit
   closure: a 3x3x3's costs 0.8 s of CPU against 3-4 s for the full chain) for
   puzzles of at most :data:`QUICK_CHAIN_CELLS` moved cells, the conjugated macros of the orbit
   analysis (``commutators``) beyond; each falls back on the next (a puzzle
   with blockings: :func:`~hlavolamy.solve.strategies.blocked.quick_blocked`,
   the blocking solver with a quick chain in its phase 2, ~1.1 s of CPU on the
   shipped ones). It needs no expensive table: pattern databases, the full
   chain and the phase tables are built in phase 2, while the answer is
   already held.
2. **Improving**: the ``auto`` race (:mod:`~hlavolamy.solve.auto`) runs
   until it finishes or the time limit cuts it. Every rival answer it
   completes is simplified, verified by replay and, when shorter, held;
   each new best is told as an :class:`Improvement` (``on_answer``) and as
   the progress message "best so far: N moves (strategy)".

The time limit bounds the improving, never the existence of an answer. The
first-answer phase is bounded in CPU, not wall, seconds: its route may go on
past the limit while no answer is held, until the solving thread has spent
:func:`first_answer_cpu` CPU seconds since the solve began (the limit, then
as much again or at least :data:`FIRST_ANSWER_GRACE` more); only then does
the solve say "time limit reached" with no answer. CPU, because on a starved
machine (a loaded server, two CPU hogs beside) the wall limit passes while a
route that would answer with a few more seconds of CPU has hardly run; the
thread's CPU (:class:`~hlavolamy.core.progress.CpuBudget`), not the
process's, so the app's GUI thread does not count, and the
:func:`~hlavolamy.core.progress.interruptible` watcher can read it. The
improving phase stays cut by the wall limit. An unreachable position is
refused at once (before phase 1), and a user's cancel cancels either phase.

Every strategy spends work budgets, not seconds, so a solve that ends
within its limit returns the same moves on an idle and on a busy machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from hlavolamy.analysis.blocks import pieces
from hlavolamy.core.progress import CancelToken, CpuBudget, report
from hlavolamy.core.turns import Turn
from hlavolamy.errors import Cancelled, HlavolamyError, StrategyFailed, UnreachableError
from hlavolamy.solve.passes.simplify import simplify
from hlavolamy.solve.pipeline import run_pipeline, verified
from hlavolamy.solve.problem import Problem, unproven
from hlavolamy.solve.registry import Context, strategy
from hlavolamy.solve.strategies.blocked import quick_blocked
from hlavolamy.solve.strategies.commutators import solve_quick
from hlavolamy.solve.strategies.search import _MAX_CELLS as SEARCH_CELLS
from hlavolamy.solve.strategies.search import search
from hlavolamy.solve.tables.chain import quick_chain, sift_solve

FIRST_ANSWER_GRACE = 60.0
"""Least CPU seconds past the time limit the first-answer route may still spend when no answer is held yet: the
costliest first answer measured from an empty cache (the gigaminx's, 60 s of CPU; docs/solving.md)."""


def grace(time_limit: float) -> float:
    """CPU seconds past ``time_limit`` the first-answer route may spend when no answer is held: the limit again,
    at least :data:`FIRST_ANSWER_GRACE`."""
    return max(FIRST_ANSWER_GRACE, time_limit)


def first_answer_cpu(time_limit: float) -> float:
    """CPU seconds of the solving thread the first-answer phase may spend in all: the limit plus :func:`grace`."""
    return time_limit + grace(time_limit)


FIRST_SEARCH_STATES = 300_000
"""States the first route's bidirectional search may hold on a group too big for a full search (about 1.5 s of
CPU); past them the quick chain answers instead..."""
FIRST_SEARCH_ORDER = 10**9
"""...tried on groups of at most this many positions (the 2x2x2 turned by six faces has 8.8e7; a 3x3x3's
4.3e19 would only waste the states)."""
QUICK_CHAIN_CELLS = 128
"""Puzzles moving at most this many cells get their first answer from a quick chain; bigger ones from macros."""


@dataclass(frozen=True)
class Improvement:
    """A new best verified answer while a solve goes on (the first one has ``first`` set)."""

    moves: tuple[Turn, ...]
    length: int
    strategy: str
    elapsed: float
    """Seconds since the solve started."""
    first: bool = False
    cpu: float = 0.0
    """CPU seconds of the process since the solve started (what the answer cost, whatever the load)."""

    @property
    def message(self) -> str:
        """The progress message: ``best so far: N moves (strategy)``."""
        return f"best so far: {self.length} moves ({self.strategy})"


AnswerCallback = Callable[[Improvement], None]


@dataclass(frozen=True)
class Outcome:
    """What :func:`solve_anytime` returns: the best answer and when the first one came."""

    moves: list[Turn]
    strategy: str
    first_time: float
    first_length: int
    cut: bool
    first_cpu: float = 0.0
    """True when the time limit cut the improving (the answer is the best held then)."""


class _Held:
    """The best verified answer so far; offers that are not shorter or do not replay are ignored."""

    def __init__(self, problem: Problem, context: Context, started: float, on_answer: AnswerCallback | None):
        self.problem = problem
        self.context = context
        self.started = started
        self.cpu_started = time.process_time()
        self.on_answer = on_answer
        self.moves: list[Turn] | None = None
        self.strategy = ""
        self.first_time = 0.0
        self.first_length = 0
        self.first_cpu = 0.0

    def offer(self, attempt: Problem, name: str) -> None:
        self.take(_answer(attempt), name)

    def take(self, moves: list[Turn], name: str) -> bool:
        puzzle = self.problem.puzzle
        if self.moves is not None and puzzle.length(moves) >= puzzle.length(self.moves):
            return False
        if not verified(self.problem, moves, self.context.mode):
            return False
        first = self.moves is None
        self.moves, self.strategy = list(moves), name
        elapsed, cpu = time.perf_counter() - self.started, time.process_time() - self.cpu_started
        if first:
            self.first_time, self.first_length, self.first_cpu = elapsed, puzzle.length(moves), cpu
        news = Improvement(tuple(moves), puzzle.length(moves), name, elapsed, first, cpu)
        report(self.context.progress, 0.5, news.message)
        if self.on_answer is not None:
            self.on_answer(news)
        return True


def _answer(attempt: Problem) -> list[Turn]:
    """The attempt's moves simplified; as played on a puzzle with blockings (a reordering could pass through a
    shape where a move is blocked)."""
    return list(attempt.turns) if attempt.puzzle.blockings else simplify(attempt.puzzle, attempt.turns)


def first_routes(problem: Problem, context: Context) -> list[str]:
    """The first-answer routes to try in turn: ``search``, ``capped-search``, ``quick-chain``, ``quick-commutators``,
    ``commutators``, ``chain``;
    ``quick-blocked`` alone on a puzzle with blockings (legal moves only).

    Measured from an empty cache (CPU seconds on this project's machine): a
    search capped at :data:`FIRST_SEARCH_STATES` answers the 2x2x2s,
    pyraminx, skewb and dino optimally in 0.01-1.4 s; the quick chain answers
    a 2x2x2 in 0.2 s, a 3x3x3 in 0.8 s, the Rashkey in 0.4 s, where the macro
    library costs 1-4 s; a 4x4x4 in 1.2 s, a megaminx by colours in 2.5 s
    (Schreier–Sims is randomized and proven; the table is completed by orbit
    closure, not by waiting for the Minkwitz rounds).
    Past about :data:`QUICK_CHAIN_CELLS` moved cells the table grows (a
    5x5x5's quick chain: 6 s of CPU and 800 moves), and the macros, whose
    library is bounded by fixed work caps, answer sooner and shorter: first
    the quick macros (:func:`~hlavolamy.solve.strategies.commutators.solve_quick`:
    the library's first stages only, phase 0 by a quick quotient chain; a 5x5x5
    in 1.5 s, a gigaminx by colours in 9 s), then the full ``commutators``
    strategy, whose full library and quotient chain can finish where the quick
    one's greedy got stuck.
    """
    if problem.puzzle.blockings:
        return ["quick-blocked"]
    moved = pieces(problem.puzzle).moved_cells
    searchable = moved <= SEARCH_CELLS and not problem.wildcards and problem.care is None
    if searchable and strategy("search").applies(problem, context):
        return ["search", "quick-chain", "quick-commutators", "commutators"]
    if searchable:
        from hlavolamy.analysis.membership import group_order

        order = group_order(problem.puzzle)  # Schreier–Sims on at most 64 cells: a fraction of a second, cached
        searchable = order.value <= FIRST_SEARCH_ORDER
    if moved <= QUICK_CHAIN_CELLS:
        return (["capped-search"] if searchable else []) + ["quick-chain", "quick-commutators", "commutators"]
    return ["quick-commutators", "commutators", "chain"]


def _quick_chain(problem: Problem, context: Context) -> None:
    """The quick chain's sift; a colour position by an assignment Schreier–Sims has not proven (the sift tells)."""
    colours = not problem.exact
    if colours:
        problem.to_exact(verify=False)
    chain = quick_chain(problem.puzzle, cancel=context.cancel, progress=context.progress)
    with unproven(colours):
        problem.play(sift_solve(chain, problem.labels, cancel=context.cancel))


FINAL_ROUTES = ("search", "capped-search")
"""First routes whose answer is a shortest one: run even where no early answer is wanted (nothing is left to race)."""


def early_routes(routes: list[str], time_limit: float | None, on_answer: AnswerCallback | None) -> list[str]:
    """The first routes to run before the race: all of them, unless no early answer can be of use.

    Without a time limit nothing cuts the race, and without ``on_answer``
    nobody sees an answer before the last: a batch run. The routes whose
    answer is not final then only cost time (a Santa cube_10/10/10 case:
    3.3 s of CPU of 20, the macros' first answer 2,600 moves where the race's
    is 1,000) and are kept as the fallback should the race fail.
    """
    if time_limit is not None or on_answer is not None:
        return routes
    return [r for r in routes if r in FINAL_ROUTES]


def _first(problem: Problem, context: Context, held: _Held, routes: list[str]) -> bool:
    """Try the first-answer ``routes`` in turn until one answers; True if it is final (a shortest answer)."""
    failure: Exception | None = None
    for name in routes:
        attempt = problem.fork()
        try:
            if name == "quick-chain":
                _quick_chain(attempt, context)
                shown = "chain"
            elif name == "quick-blocked":
                quick_blocked(attempt, context)
                shown = "blocked"
            elif name == "quick-commutators":
                solve_quick(attempt, context)
                shown = "commutators"
            elif name == "capped-search":
                search(attempt, cancel=context.cancel, max_states=FIRST_SEARCH_STATES)
                shown = "search"
            else:
                strategy(name).solve(attempt, context)
                shown = name
        except StrategyFailed as exc:
            failure = failure or exc
            continue
        if held.take(_answer(attempt), shown):
            return shown == "search"
    if failure is not None:
        raise failure
    return False


def solve_anytime(problem: Problem, context: Context, *, cancel: CancelToken | None, time_limit: float | None,
                  started: float, on_answer: AnswerCallback | None = None) -> Outcome:
    """Phase 1 (a first answer) then phase 2 (the ``auto`` race) on ``problem``; see the module's text.

    ``cancel`` is the caller's token (a user's cancel), ``time_limit`` in
    seconds from ``started`` (``time.perf_counter()``); ``context.cancel`` is
    not used (each phase links its own token to ``cancel``: phase 1 a CPU
    budget of :func:`first_answer_cpu`, phase 2 the wall deadline).
    """
    now = time.monotonic()
    elapsed = time.perf_counter() - started
    deadline = None if time_limit is None else now + time_limit - elapsed
    held = _Held(problem, context, started, on_answer)
    budget = None if time_limit is None else CpuBudget(first_answer_cpu(time_limit))
    first_context = replace(context, cancel=CancelToken.linked(cancel, None, budget))
    routes = first_routes(problem, context)
    early = early_routes(routes, time_limit, on_answer)
    report(context.progress, 0.0, "first answer")
    try:
        final = _first(problem, first_context, held, early)
    except Cancelled:
        if held.moves is None and budget is not None and budget.spent and not first_context.cancel.user_cancelled:
            raise Cancelled(no_answer(budget.seconds)) from None
        if first_context.cancel.user_cancelled or held.moves is None:
            raise
        final = False
    except StrategyFailed:
        final = False  # the race below may still find one
    if final or (deadline is not None and time.monotonic() > deadline and held.moves is not None):
        return _outcome(held, cut=not final)
    improve_context = replace(context, cancel=CancelToken.linked(cancel, deadline), offer=held.offer)
    cut = False
    try:
        moves, used = run_pipeline(problem.fork(), "auto", improve_context)
        held.take(moves, used)
    except Cancelled:
        if improve_context.cancel.user_cancelled or held.moves is None:
            raise
        cut = True
    except UnreachableError:
        raise
    except HlavolamyError:
        fallback = [r for r in routes if r not in early]
        if held.moves is None and not (fallback and _fell_back(problem, first_context, held, fallback)):
            raise
    return _outcome(held, cut)


def _fell_back(problem: Problem, context: Context, held: _Held, routes: list[str]) -> bool:
    """The first routes not run before a race that failed: True if one answered."""
    try:
        _first(problem, context, held, routes)
    except StrategyFailed:
        return False
    return held.moves is not None


def no_answer(cpu: float) -> str:
    """Why a solve ended without an answer: the first-answer route spent its ``cpu`` seconds of CPU."""
    return (f"time limit reached with no answer: the first-answer route spent its {cpu:g} s of CPU (the limit, "
            f"then the limit again or at least {FIRST_ANSWER_GRACE:g} s more); try a longer time limit")


def _outcome(held: _Held, cut: bool) -> Outcome:
    if held.moves is None:
        raise HlavolamyError("no strategy found an answer")
    return Outcome(held.moves, held.strategy, held.first_time, held.first_length, cut, held.first_cpu)


__all__ = ["FIRST_ANSWER_GRACE", "AnswerCallback", "Improvement", "Outcome", "early_routes", "first_answer_cpu",
           "first_routes", "grace", "no_answer", "solve_anytime"]

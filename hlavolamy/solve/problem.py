"""What a solver works on: labels now shown at every cell and the labels wanted there.

An exact position (a :class:`State`) becomes labels = original cell ids, so
every cell is distinct and the goal is ``0..n-1``. A position given by
colours keeps colour ids, so identical pieces are interchangeable and the
goal is the puzzle's solved colouring. Either way a move acts the same way
(``new = labels[move]``) and "solved" means at most ``wildcards`` cells show
the wrong label, which is also how every answer is verified by replay.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from hlavolamy.analysis.colours import assign_colours
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import HlavolamyError, StrategyFailed, UnreachableError


@contextlib.contextmanager
def unproven(colours: bool) -> Iterator[None]:
    """Inside: an unreachable verdict on a colour position's unproven assignment (:meth:`Problem.to_exact`
    without ``verify``) is the route's failure, not the user's answer; on an exact position it stands."""
    try:
        yield
    except UnreachableError as exc:
        if not colours:
            raise
        raise StrategyFailed(f"the colours' unproven assignment is not reachable ({exc})") from None


class OverBudget(StrategyFailed):
    """More turns were played than :attr:`Problem.budget` allows, or the answer so far is longer than
    :attr:`Problem.answer_bound` (a rival answer is already shorter)."""


REACH = 0.1
"""Share beyond the shortest answer held that an attempt's answer so far (simplified) may reach before it gives
up: later insertions seldom take that much back (Santa cube_4/4/4 150-161 and the bench rows of the megaminx,
helicopter, FTO, Rashkeys, gears and rubik4 gave the same answers at a quarter as without; at a tenth Santa
cube_4/4/4 151-155 and cube_5/5/5 211-215 the same as at a quarter, 0.6 and 1.3 s less a case)."""


def reach(shortest: int) -> int:
    """The answer bound of an attempt racing an answer of ``shortest`` moves (:data:`REACH`)."""
    return shortest + int(shortest * REACH)


@dataclass
class Problem:
    """Mutable solving state: ``labels`` (now), ``goal`` and the turns played so far.

    ``start`` and ``target`` keep the position and goal as given, for the
    final replay; ``labels``/``goal`` may switch from colours to exact cells
    midway (see :func:`~hlavolamy.solve.strategies.run`).
    """

    puzzle: Puzzle
    labels: np.ndarray
    goal: np.ndarray
    wildcards: int
    exact: bool
    start: np.ndarray
    target: np.ndarray
    turns: list[Turn]
    care: np.ndarray | None = None
    slack: int | None = None
    budget: int | None = None
    """Most turns worth playing; :meth:`play` raises :class:`OverBudget` beyond it."""
    answer_bound: int | None = None
    """Most moves worth an answer once simplified (a rival's answer is held: :func:`reach` of its length);
    :meth:`play` raises :class:`OverBudget` beyond it. Turns played can be far more than their simplified length
    (a helicopter's insertion: 50 moves once simplified from more than 70 turns)."""
    shadow: np.ndarray | None = None
    """For a position by colours: a reachable exact position showing them, played along.

    Its parities are what macros cannot change, so phase 0 fixes them on
    colour positions too: where colours tell every piece apart (a big cube's
    wings) a colour solution would otherwise end on a lone swap.
    """
    """Wrong cells still accepted while working (``wildcards`` unless reduced); see :meth:`is_solved`."""
    """Cells that count (mode "orbit-only"); None: all cells."""

    @classmethod
    def from_input(cls, puzzle: Puzzle, state: State | Sequence[int] | np.ndarray, wildcards: int = 0) -> Problem:
        """Read a State (exact) or colour ids (one per cell, indexing ``puzzle.colour_labels``)."""
        if wildcards < 0:
            raise HlavolamyError(f"wildcards must be >= 0, got {wildcards}")
        if isinstance(state, State):
            if state.puzzle.n_cells != puzzle.n_cells:
                raise HlavolamyError(f"the state has {state.puzzle.n_cells} cells, the puzzle {puzzle.n_cells}")
            labels = np.asarray(state.perm, dtype=np.int64)
            goal = np.arange(puzzle.n_cells, dtype=np.int64)
            exact = True
        else:
            labels = _colour_ids(puzzle, state)
            goal = np.asarray(puzzle.colour_ids, dtype=np.int64)
            exact = False
        return cls(puzzle, labels.copy(), goal, wildcards, exact, labels.copy(), goal.copy(), [])

    def restarted(self) -> Problem:
        """A fresh problem at the start position as given (nothing played), for a pass over a finished answer.

        It is exact when the goal is every cell's own id: true of exact
        positions, and equivalent for colourings with a colour per cell.
        """
        n = self.puzzle.n_cells
        exact = bool(np.array_equal(self.target, np.arange(n)) and np.array_equal(np.sort(self.start), np.arange(n)))
        return replace(self, labels=self.start.copy(), goal=self.target.copy(), exact=exact, turns=[],
                       slack=None, budget=None, answer_bound=None, shadow=None)

    def fork(self) -> Problem:
        """An independent copy sharing the puzzle (and so its caches)."""
        return replace(self, labels=self.labels.copy(), goal=self.goal.copy(), turns=list(self.turns),
                       shadow=None if self.shadow is None else self.shadow.copy())

    def adopt(self, other: Problem) -> None:
        """Take over the work of ``other`` (a fork whose answer won): where it stands, its goal and its turns."""
        self.labels, self.goal, self.turns = other.labels, other.goal, other.turns
        self.exact, self.slack, self.shadow = other.exact, other.slack, other.shadow

    def to_exact(self, verify: bool = True) -> None:
        """Continue a colour problem as an exact one: a reachable permutation showing the current colours.

        With wildcards the permutation may show up to that many other colours;
        the slack left for the rest of the solve shrinks by as many. Without
        ``verify`` the permutation obeys every orbit, piece, parity and twist
        law but is not proven a member by Schreier–Sims (a second of CPU on a
        5x5x5): a first answer's route, whose answer is replayed anyway and
        which must then read an unreachable verdict as its own failure.
        """
        try:
            state = assign_colours(self.puzzle, self.labels, verify=verify)
        except UnreachableError:
            if not self.wildcards:
                raise
            state = assign_colours(self.puzzle, self.labels, wildcards=self.wildcards, verify=verify)
        changed = int(np.count_nonzero(self.puzzle.colour_ids[state.perm] != self.labels))
        self.slack = max(0, self.wildcards - changed)
        self.labels = np.asarray(state.perm, dtype=np.int64)
        self.goal = np.arange(self.puzzle.n_cells, dtype=np.int64)
        self.exact = True

    def cast_shadow(self) -> None:
        """Give a colour position without a shadow one: a reachable exact position showing its colours.

        Strategies that work on the colours but need the invariant vector or a
        sift of the exact position (handover, search-first) call this first.
        """
        if self.exact or self.shadow is not None:
            return
        exact = self.fork()
        exact.to_exact()
        self.shadow = exact.labels

    def exact_labels(self) -> np.ndarray | None:
        """The exact position now: the labels of an exact problem, the shadow of a colour one (None if none)."""
        return self.labels if self.exact else self.shadow

    def wrong(self, labels: np.ndarray | None = None) -> int:
        """Cells that count and show a label other than the goal's (in ``labels``: a position a step would make)."""
        return self._wrong(self.labels if labels is None else labels, self.goal)

    def _wrong(self, labels: np.ndarray, goal: np.ndarray) -> int:
        bad = labels != goal
        return int(np.count_nonzero(bad if self.care is None else bad & self.care))

    def is_solved(self) -> bool:
        return self.wrong() <= (self.wildcards if self.slack is None else self.slack)

    def play(self, turns: Sequence[Turn], perm: np.ndarray | None = None) -> None:
        """Append ``turns`` (whose permutation ``perm`` may be given to save recomputing it)."""
        if not turns:
            return
        perm = self.puzzle.perm_of(turns) if perm is None else perm
        self.labels = self.labels[perm]
        if self.shadow is not None:
            self.shadow = self.shadow[perm]
        self.turns.extend(turns)
        self.check_budget()

    def check_budget(self) -> None:
        """Raise :class:`OverBudget` past :attr:`budget` turns played or :attr:`answer_bound` moves simplified
        (simplified only once the turns played are past it: simplifying never lengthens)."""
        if self.budget is not None and len(self.turns) > self.budget:
            raise OverBudget(f"more than {self.budget} turns")
        bound = self.answer_bound
        if bound is not None and len(self.turns) > bound and self.answer_length() > bound:
            raise OverBudget(f"an answer of more than {bound} moves")

    def bound(self, moves: int) -> None:
        """Give up (:class:`OverBudget`) once the answer is longer than ``moves``, or than the bound already set
        if tighter."""
        self.answer_bound = moves if self.answer_bound is None else min(self.answer_bound, moves)

    def answer_length(self) -> int:
        """Length of the turns played so far once simplified: how rival answers are compared."""
        from hlavolamy.solve.passes.simplify import simplify

        return self.puzzle.length(simplify(self.puzzle, self.turns))

    def replays_to_goal(self, turns: Sequence[Turn]) -> bool:
        """Verify ``turns`` from the start position, independently of the work done."""
        return self._wrong(self.start[self.puzzle.perm_of(turns)], self.target) <= self.wildcards


def _colour_ids(puzzle: Puzzle, colours: Sequence[int] | np.ndarray) -> np.ndarray:
    arr = np.asarray(colours)
    if arr.ndim != 1 or arr.size != puzzle.n_cells:
        raise HlavolamyError(f"colours: expected {puzzle.n_cells} colour ids, got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise HlavolamyError("colours: expected integer colour ids (indices into the puzzle's colour labels)")
    arr = arr.astype(np.int64)
    k = len(puzzle.colour_labels)
    bad = np.flatnonzero((arr < 0) | (arr >= k))
    if bad.size:
        raise HlavolamyError(f"colours: entry {int(bad[0])} is {int(arr[bad[0]])}, not a colour id 0..{k - 1}")
    want = np.bincount(puzzle.colour_ids, minlength=k)
    have = np.bincount(arr, minlength=k)
    if not np.array_equal(want, have):
        c = int(np.flatnonzero(want != have)[0])
        raise HlavolamyError(
            f"colours: colour {puzzle.colour_labels[c]!r} shows on {int(have[c])} cells, the puzzle has {int(want[c])}"
        )
    return arr


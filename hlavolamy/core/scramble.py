"""Random scrambles: sequences of generator turns with no wasted turn.

Each turn is one move raised to a power in shortest form (on an order-4 move:
``R``, ``R2`` or ``R'``). A move never follows itself, nor follows a run of
moves that all commute with it and contain it (``R L R`` is ``R2 L``), so no
turn merges with or cancels an earlier one. On a puzzle with blockings only
moves that tear no fused set are chosen; when a position leaves no choice, the
generator backs up and tries another turn.

>>> from hlavolamy.core.puzzle import Puzzle
>>> p = Puzzle(colours="AABB", moves={"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]})
>>> turns = random_scramble(p, 5, 1)
>>> len(turns), turns == random_scramble(p, 5, 1), all(a.move != b.move for a, b in zip(turns, turns[1:]))
(5, True, True)
"""

from __future__ import annotations

import random

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.limits import MAX_SCRAMBLE
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.core.turns import Turn
from hlavolamy.errors import PuzzleError

Rng = random.Random | np.random.Generator | int | None


def random_scramble(puzzle: Puzzle, n_moves: int, rng_or_seed: Rng = None, start: State | None = None,
                    cancel: CancelToken | None = None) -> list[Turn]:
    """``n_moves`` random turns from ``start`` (default: solved), reproducible for a given seed.

    Raises :class:`PuzzleError` when the puzzle cannot take that many turns
    without one undoing or merging with another (one move alone allows one),
    or for more than :data:`MAX_SCRAMBLE` turns; :class:`Cancelled` when
    ``cancel`` fires (a time limit that covers the scramble too).
    """
    if not 0 <= n_moves <= MAX_SCRAMBLE:
        raise PuzzleError(f"a scramble has 0 to {MAX_SCRAMBLE} moves, not {n_moves}")
    rng = _as_random(rng_or_seed)
    perm = (start or State.solved(puzzle)).perm
    return _Scrambler(puzzle, rng, cancel).run(perm, n_moves)


def scrambled(puzzle: Puzzle, n_moves: int, rng_or_seed: Rng = None) -> State:
    """The position ``n_moves`` random turns from solved (:func:`random_scramble`), reproducible for a given seed.

    >>> from hlavolamy.core.puzzle import Puzzle
    >>> p = Puzzle(colours="AABB", moves={"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]})
    >>> scrambled(p, 5, 1) == State.solved(p).apply(random_scramble(p, 5, 1))
    True
    """
    return State.solved(puzzle).apply(random_scramble(puzzle, n_moves, rng_or_seed))


def shortest_powers(order: int) -> list[int]:
    """Every non-trivial power of a move of this order, in shortest form: order 4 -> [1, 2, -1]."""
    return [k if k <= order // 2 else k - order for k in range(1, order)]


def _as_random(rng_or_seed: Rng) -> random.Random:
    if isinstance(rng_or_seed, random.Random):
        return rng_or_seed
    if isinstance(rng_or_seed, np.random.Generator):
        return random.Random(int(rng_or_seed.integers(2**63)))
    return random.Random(rng_or_seed)


class _Scrambler:
    """Depth-first choice of turns; backtracking is bounded so a hopeless request ends with an error.

    Only the current position is kept (a step back applies the inverse turn),
    so a scramble of 100 000 turns of a big cube costs no more memory than one.
    """

    CHECK_EVERY = 1024
    """Steps between looks at the cancel token."""

    def __init__(self, puzzle: Puzzle, rng: random.Random, cancel: CancelToken | None = None):
        self.puzzle = puzzle
        self.rng = rng
        self.cancel = cancel
        self.commutes: dict[tuple[str, str], bool] = puzzle.tables.scramble_commutes
        if puzzle.tables.scramble_powers is None:
            puzzle.tables.scramble_powers = {m: shortest_powers(puzzle.move_order(m)) for m in puzzle.moves}
        self.powers: dict[str, list[int]] = puzzle.tables.scramble_powers
        self.turnable = [m for m in puzzle.moves if self.powers[m]]
        """Moves that change something; an identity move would only waste a turn."""
        self.last: dict[str, int] = {}
        """Move -> index of its latest turn in the scramble so far."""
        self.earlier: list[int | None] = []
        """Per turn, what :attr:`last` held for its move before it (restored when the turn is taken back)."""
        self._blockers: dict[str, list[str]] = {}

    def run(self, perm: np.ndarray, n_moves: int) -> list[Turn]:
        turns: list[Turn] = []
        tried: list[dict[str, set[int]]] = [{}]
        """Per depth, the powers of each move already found to lead into a dead end."""
        budget = 20 * n_moves + 1000
        deepest = 0
        while len(turns) < n_moves:
            budget -= 1
            if self.cancel is not None and budget % self.CHECK_EVERY == 0:
                self.cancel.check()
            turn = self.choose(turns, perm, tried[-1]) if budget >= 0 else None
            if turn is None:
                if not turns or budget < 0:
                    raise PuzzleError(
                        f"cannot scramble {n_moves} moves: found no sequence longer than {deepest} "
                        f"where no turn undoes or merges with an earlier one (or blockings allow no more)"
                    )
                dead = turns.pop()
                self.forget(dead)
                tried.pop()
                tried[-1].setdefault(dead.move, set()).add(dead.power)
                perm = self.step(perm, Turn(dead.move, -dead.power))
                continue
            turns.append(turn)
            self.remember(turn, len(turns) - 1)
            tried.append({})
            perm = self.step(perm, turn)
            deepest = max(deepest, len(turns))
        return turns

    def remember(self, turn: Turn, index: int) -> None:
        self.earlier.append(self.last.get(turn.move))
        self.last[turn.move] = index

    def forget(self, turn: Turn) -> None:
        before = self.earlier.pop()
        if before is None:
            del self.last[turn.move]
        else:
            self.last[turn.move] = before

    def step(self, perm: np.ndarray, turn: Turn) -> np.ndarray:
        """The next position; tracked only where legality depends on it."""
        return perm[self.puzzle.turn_perm(turn)] if self.puzzle.blockings else perm

    def choose(self, turns: list[Turn], perm: np.ndarray, tried: dict[str, set[int]]) -> Turn | None:
        """A random allowed move, then a random power of it not yet tried here; None at a dead end.

        A few uniform draws usually hit an allowed move; otherwise every move
        is checked. Both pick uniformly among the allowed moves. Each power is
        an option of its own, so a dead end after one power of a move (a
        Square-1 slash blocked after ``U2``) still tries the others.
        """
        for _ in range(8 if self.turnable else 0):
            move = self.rng.choice(self.turnable)
            if self.allowed(move, turns, perm, tried):
                break
        else:
            moves = [m for m in self.turnable if self.allowed(m, turns, perm, tried)]
            if not moves:
                return None
            move = self.rng.choice(moves)
        spent = tried.get(move, ())
        return Turn(move, self.rng.choice([k for k in self.powers[move] if k not in spent]))

    def allowed(self, move: str, turns: list[Turn], perm: np.ndarray, tried: dict[str, set[int]]) -> bool:
        return (
            len(tried.get(move, ())) < len(self.powers[move])
            and not self.merges(turns, move)
            and self.legal(perm, move)
        )

    WALK = 16
    """Turns looked at one by one before :meth:`merges` asks the moves instead."""

    def merges(self, turns: list[Turn], move: str) -> bool:
        """Whether ``move`` could slide back past commuting turns onto its latest turn.

        It can unless a move that does not commute with it was turned since.
        The few latest turns usually tell; past them, each such move's latest
        turn is looked up, so a move commuting with long runs (a separate
        swap) costs no walk through the whole scramble.
        """
        latest = self.last.get(move)
        if latest is None:
            return False
        for index in range(len(turns) - 1, max(latest, len(turns) - 1 - self.WALK), -1):
            if not self.commute(turns[index].move, move):
                return False
        if latest >= len(turns) - 1 - self.WALK:
            return True
        return all(self.last.get(other, -1) < latest for other in self.blockers(move))

    def blockers(self, move: str) -> list[str]:
        """The moves that do not commute with ``move``."""
        if move not in self._blockers:
            self._blockers[move] = [m for m in self.turnable if m != move and not self.commute(m, move)]
        return self._blockers[move]

    def commute(self, a: str, b: str) -> bool:
        key = (a, b) if a <= b else (b, a)
        if key not in self.commutes:
            pa, pb = self.puzzle.move(a), self.puzzle.move(b)
            self.commutes[key] = bool(np.array_equal(P.compose(pa, pb), P.compose(pb, pa)))
        return self.commutes[key]

    def legal(self, perm: np.ndarray, move: str) -> bool:
        """No fused set torn. A move maps its turned part onto itself, so legal once is legal for any power."""
        return not fused_sets_torn(self.puzzle, perm, move)

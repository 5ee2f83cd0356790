"""Short words and independent moves (nezávislé tahy).

A word ``w`` moves some orbits with cycles of several lengths. Raising it to
the lcm ``k`` of its cycle lengths outside a set of orbits fixes every cell
there, and if ``w**k`` still moves cells of the set it acts on that set
alone: an independent move. On a 3x3x3, for instance, a power of ``R U``
keeps only corners or only edges moving. They are seeds for
3-cycles and let the solver touch one part of the puzzle without the rest.

>>> from hlavolamy.core.puzzle import Puzzle
>>> p = Puzzle(colours="ABCDE", moves={"a": [1, 2, 0, 4, 3]})
>>> [(m.turns, m.cells) for m in independent_moves(p)]
[([Turn(move='a', power=2)], (0, 1, 2)), ([Turn(move='a', power=3)], (3, 4))]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from math import lcm

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, Work
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn

_WORD_CELLS = 20_000_000
"""Most word-cells (words x cells) held by one enumeration of short words."""
WORD_UNITS = 1_500
"""Work units (:class:`~hlavolamy.core.progress.Work`) one new word costs besides one per cell: the units are
calibrated as about a nanosecond of one idle core each (a word of a 3x3x3 took ~1.6 µs)."""
INDEPENDENT_WORK = 2e9
"""Work of :func:`independent_moves` alone (the 2 s it had on an idle machine)."""


@dataclass(frozen=True)
class Word:
    """A sequence of turns with its permutation (``perm`` is read-only)."""

    turns: list[Turn]
    perm: np.ndarray

    @property
    def length(self) -> int:
        return len(self.turns)


@dataclass(frozen=True)
class IndependentMove:
    """A power of a short word that moves only ``cells``; ``orbits`` are the indices (in
    :func:`~hlavolamy.analysis.orbits.orbits`) of the lockstep orbits they lie in."""

    turns: list[Turn]
    cells: tuple[int, ...]
    orbits: tuple[int, ...]


def generators(puzzle: Puzzle, moves: Sequence[str] | None = None) -> list[Turn]:
    """Single steps: every move and, when it is not its own inverse, its inverse."""
    out = []
    for name in moves if moves is not None else puzzle.moves:
        out.append(Turn(name, 1))
        if puzzle.move_order(name) > 2:
            out.append(Turn(name, -1))
    return out


def short_words(puzzle: Puzzle, max_length: int, *, limit: int | None = None, moves: Sequence[str] | None = None,
                work: Work | None = None, stop: float | None = None,
                cancel: CancelToken | None = None, fewest_cells_upto: int = 0) -> list[Word]:
    """Distinct non-identity permutations reachable by words of at most ``max_length`` steps, shortest first.

    Breadth first with one word per permutation; stops at ``limit`` words
    (default: what fits in :data:`_WORD_CELLS`) or once ``work`` has spent
    more than ``stop`` units (each word costs :data:`WORD_UNITS` + cells).

    Where ``limit`` cuts a length short, the words kept are the first in the
    order of the moves, unless that length is at most ``fewest_cells_upto``:
    then the whole length is made (if it fits in :data:`_WORD_CELLS`) and the
    words moving the fewest cells are kept, in that order. The order of the
    moves is no reason to prefer a word: the macro library pairs its seed
    words in their order where its caps bite, and on a Santa globe_8/25 that
    paired ``r0 r8'`` and ``r1 r7'`` with the flips but not ``r2 r6'`` or
    ``r3 r5'``, whose commutators with a flip are the only 6-turn 3-cycles of
    two of its four groups (they got 26-turn ones).
    """
    n = puzzle.n_cells
    limit = limit if limit is not None else max(1, _WORD_CELLS // max(n, 1))
    gens = generators(puzzle, moves)
    gen_perms = [puzzle.turn_perm(g) for g in gens]
    seen = {P.identity(n).tobytes()}
    out: list[Word] = []
    frontier = [Word([], P.identity(n))]
    cost = WORD_UNITS + n
    for length in range(1, max_length + 1):
        if length <= fewest_cells_upto and len(out) + len(frontier) * len(gens) > limit \
                and len(frontier) * len(gens) * n <= _WORD_CELLS:
            level = _level(frontier, gens, gen_perms, seen, work, cost, cancel)
            if len(out) + len(level) >= limit:  # the length is cut short
                identity = np.arange(n)
                moved = np.array([np.count_nonzero(w.perm != identity) for w in level], dtype=np.int64)
                return out + [level[i] for i in np.argsort(moved, kind="stable")[:limit - len(out)]]
            out += level
            frontier = level
            if work is not None and work.over(stop):
                return out
            continue
        nxt = []
        for word in frontier:
            for new in _children(word, gens, gen_perms, seen):
                out.append(new)
                nxt.append(new)
                if work is not None:
                    work.spend(cost)
                if len(out) >= limit:
                    return out
            if cancel is not None:
                cancel.check()
            if work is not None and work.over(stop):
                return out
        frontier = nxt
    return out


def _children(word: Word, gens: list[Turn], gen_perms: list[np.ndarray], seen: set[bytes]) -> Iterator[Word]:
    """The words one step longer than ``word`` whose permutations are not in ``seen`` (which then holds them)."""
    last = word.turns[-1] if word.turns else None
    for g, gp in zip(gens, gen_perms):
        if last is not None and last.move == g.move and last.power != g.power:
            continue
        perm = word.perm[gp]
        key = perm.tobytes()
        if key in seen:
            continue
        seen.add(key)
        perm.flags.writeable = False
        yield Word(word.turns + [g], perm)


def _level(frontier: list[Word], gens: list[Turn], gen_perms: list[np.ndarray], seen: set[bytes],
           work: Work | None, cost: int, cancel: CancelToken | None) -> list[Word]:
    """Every new word one step longer than ``frontier``'s, in the order of the moves."""
    level = []
    for word in frontier:
        level.extend(_children(word, gens, gen_perms, seen))
        if work is not None:
            work.spend(cost * len(gens))
        if cancel is not None:
            cancel.check()
    return level


def cell_groups(puzzle: Puzzle) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Per cell the index of its piece orbit (-1 if never moved), and each piece orbit's orbit indices.

    Orbits moving in lockstep (a wing's two facelets) form one group: no word
    moves one of them without the other.
    """
    structure = pieces(puzzle)
    group_of = np.full(puzzle.n_cells, -1, dtype=np.int64)
    groups = []
    for g, po in enumerate(structure.piece_orbits):
        for i in po.orbits:
            group_of[list(structure.orbits[i])] = g
        groups.append(tuple(sorted(po.orbits)))
    return group_of, groups


def _powers_fixing_outside(word: Word, group_of: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    """``(k, moved cells)`` for powers ``w**k`` that fix everything outside one group of ``w``'s cycles."""
    by_group: dict[int, list[list[int]]] = {}
    for c in P.cycles(word.perm):
        by_group.setdefault(int(group_of[c[0]]), []).append(c)
    if len(by_group) < 2:
        return
    own = [lcm(*(len(c) for c in cs)) for cs in by_group.values()]
    before = list(accumulate([1] + own[:-1], lcm))
    after = list(accumulate([1] + own[:0:-1], lcm))[::-1]
    for (group, inside), b, a in zip(by_group.items(), before, after):
        k = lcm(b, a)  # the lcm of every other group's cycle lengths
        moved = [c for c in inside if k % len(c)]
        if moved:
            yield k, np.array(sorted(x for c in moved for x in c))


def independent_moves(puzzle: Puzzle, *, max_length: int = 4, max_words: int = 5000, work: Work | None = None,
                      stop: float | None = None, cancel: CancelToken | None = None,
                      max_turns: int | None = None) -> list[IndependentMove]:
    """Powers of short words that act on one orbit (or lockstep orbits) only; shortest first.

    Keeps the shortest word for each set of moved cells. Words that already
    act on one group are left out: powering does not make them independent.
    Stops once ``work`` has spent ``stop`` units (default: a fresh budget of
    :data:`INDEPENDENT_WORK`), whatever the load. With ``max_turns``, the
    moves whose word lists more turns are left out of the result (the same
    list as without it, less those): they are priced but never listed, as
    a power ``w**k`` may have tens of thousands of turns (the radio chop's:
    most of its 2.4 s went into listing them).
    """
    if work is None:
        work, stop = Work(INDEPENDENT_WORK), INDEPENDENT_WORK
    group_of, groups = cell_groups(puzzle)
    words = short_words(puzzle, max_length, limit=min(max_words, _WORD_CELLS // 4 // puzzle.n_cells + 1),
                        work=work, stop=stop, cancel=cancel)
    per_word = WORD_UNITS + 4 * puzzle.n_cells
    orders = {name: puzzle.move_order(name) for name in puzzle.moves}

    def length(turns: list[Turn]) -> int:
        return sum(min(t.power % orders[t.move], -t.power % orders[t.move]) for t in turns)

    best: dict[tuple[int, ...], tuple[int, Word, int]] = {}
    for word in words:
        priced = 0
        for k, cells in _powers_fixing_outside(word, group_of):
            key = tuple(cells.tolist())
            if len(word.turns) == 1:
                cost = length([Turn(t.move, t.power * k) for t in word.turns])
            else:
                priced = priced or length(word.turns)
                cost = k * priced  # long: priced without listing it
            old = best.get(key)
            if old is None or old[0] > cost:
                best[key] = (cost, word, k)
        work.spend(per_word)
        if work.over(stop):
            break
    out = []
    for key, (cost, word, k) in sorted(best.items(), key=lambda kv: (kv[1][0], kv[0])):
        if len(word.turns) == 1:
            turns = [Turn(t.move, t.power * k) for t in word.turns]
        elif max_turns is None or len(word.turns) * k <= max_turns:
            turns = word.turns * k
        else:
            continue
        out.append(IndependentMove(turns, key, groups[int(group_of[key[0]])]))
    return out

"""3-cycles and other small-support macros (trojpermutace), found from commutators.

The commutator ``[A, B] = A B A' B'`` of two words moves only cells near
where ``A`` and ``B`` overlap: if their supports share one cell it is a
3-cycle of cells, if they share one piece it is a 3-cycle of pieces. So the
search takes short words, pairs those whose supports meet in a few cells
(one integer matrix product of support indicators), and commutes again a
small result with a word meeting it in a few cells (``[[A, B], C]``).
Powers of short words that act on one part only (independent moves) join
the pool. Every element is classified against the piece structure of
:mod:`hlavolamy.analysis.blocks`; several of each kind are kept per group of
lockstep orbits, shortest first. The solver conjugates them by set-ups.

>>> from hlavolamy.core.puzzle import Puzzle
>>> p = Puzzle(colours="ABCD", moves={"a": [1, 2, 0, 3], "b": [0, 2, 3, 1]})
>>> lib = three_cycle_library(p)
>>> all(m.kind == "3-cycle" and len(m.cells) == 3 for m in lib)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.independent import (
    Word,
    cell_groups,
    independent_moves,
    short_words,
)
from hlavolamy.analysis.memo import (
    AnalysisCache,
    analysis_cache,
    from_disk,
    moves_key,
    to_disk,
)
from hlavolamy.analysis.modular import factorint
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, ProgressCallback, Work, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, invert

LIBRARY_KINDS = ("3-cycle", "piece 3-cycle", "twist", "double transposition")
CYCLE_KINDS = LIBRARY_KINDS[:2]
"""The kinds that make a group solvable by macros: 3-cycles of cells or of whole pieces."""
_KEEP_PER_KIND = 12
"""Macros of one kind kept per group: several, so each solving step can use the cheapest."""
_BATCH_CELLS = 1_000_000
"""Most commutator cells (pairs x cells) computed in one numpy batch."""
LIBRARY_WORK = 2e10
"""Work units (:class:`~hlavolamy.core.progress.Work`, about a nanosecond of an idle core each) of the global
stages: what the 20 s they had allowed, though the fixed caps below end them first on most puzzles."""
_LOCAL_WORK = 1e10
"""Work of the local search of one group of orbits that the global search left without 3-cycles (was 10 s)."""
LOCAL_LONGER = 12
"""Groups whose cheapest 3-cycle is longer than this many turns also get a local search (see
:meth:`LibrarySearch.finish`): the longest commutator of two of its words (``2 x (3 + 3)``). On the Santa cubes 4..10
and globes no group at 9-12 turns got a shorter 3-cycle from one."""
_CELL_UNITS = 4
"""Work units per commutator cell computed in a numpy batch (~4 ns each on an idle core)..."""
_OFFER_UNITS = 20_000
"""...and per small commutator offered to the pool (~20 µs of Python each: classified, compared, kept)."""
_PAIR_CELLS = 12_000_000
"""Work per commutator stage: pairs tried x cells."""
_MAX_PAIRS = 150_000
"""Most pairs per stage however small the puzzle (pairs cost Python time too)."""
_MAX_INDEPENDENT = 60
"""Longest independent move (a power of a short word) offered as a macro: longer ones cost more
than a conjugated 3-cycle ever does, and computing their permutations took most of a 5x5x5's library."""


@dataclass(frozen=True)
class Macro:
    """A word moving only ``cells`` (its support): a 3-cycle, a twist, ... of one ``orbit``.

    ``orbit`` is the index (in :func:`~hlavolamy.analysis.orbits.orbits`) of
    the first orbit the macro moves; ``kind`` is one of
    :data:`LIBRARY_KINDS` or ``"other"`` (small support of no named kind, or
    spanning several groups of orbits).
    """

    turns: list[Turn]
    cells: tuple[int, ...]
    kind: str
    orbit: int


def three_cycle_library(puzzle: Puzzle, *, work: float = LIBRARY_WORK,
                        cancel: CancelToken | None = None) -> list[Macro]:
    """3-cycles, piece 3-cycles, twists and double transpositions, shortest first (cached per puzzle)."""
    return [m for m in small_support_macros(puzzle, work=work, cancel=cancel) if m.kind in LIBRARY_KINDS]


def small_support_macros(puzzle: Puzzle, *, work: float = LIBRARY_WORK, cancel: CancelToken | None = None,
                         progress: ProgressCallback | None = None, complete: bool = False) -> list[Macro]:
    """Every kept small-support macro, library kinds and ``"other"``, shortest first (cached per puzzle).

    The global stages share ``work`` units (a :class:`~hlavolamy.core.progress.Work` budget, not seconds: the
    library is the same on a busy machine); groups left without 3-cycles then get a local search each
    (:data:`_LOCAL_WORK`) while the budget lasts — or every one of them with ``complete`` (what the solver
    needs), however long. ``cancel`` only cuts. A :func:`quick_library` taken before goes on from where it
    stopped (:class:`LibrarySearch`).
    """
    keys = [_COMPLETE] + ([] if complete else [_BUDGETED])
    found = _cached_library(puzzle, keys)
    if found is not None:
        return found
    result, searched_all = _search(puzzle, work).finish(complete, cancel, progress)
    analysis_cache(puzzle).library_search = None
    names = [_BUDGETED] + ([_COMPLETE] if searched_all else [])
    for key in names:
        _hold(analysis_cache(puzzle), key, result)
        remember_recent(_BY_MOVES, moves_key(puzzle) + key, result)
    to_disk(puzzle, names[-1], result)  # a complete library also answers for the budgeted one
    report(progress, 1.0, f"{len(result)} macros")
    return result


def quick_library(puzzle: Puzzle, *, work: float = LIBRARY_WORK, frozen_cells: int, cancel: CancelToken | None = None,
                  progress: ProgressCallback | None = None) -> list[Macro]:
    """A library for a first answer: the complete one if it is at hand, else the first stages' (not kept).

    Groups left without a 3-cycle are searched locally, biggest first, only while they hold more than
    ``frozen_cells`` cells (what the caller's phase 0 solves cheaply without macros): on the big cubes those
    searches found nothing and cost a 5x5x5's first answer 0.4 s, on the radio chop they find the 3-cycles
    of its biggest group. The search stays on the puzzle, and :func:`small_support_macros` with the same
    ``work`` goes on from there to the very library it would have found at one go.
    """
    found = _cached_library(puzzle, [_COMPLETE])
    if found is not None:
        return found
    return _search(puzzle, work).quick(frozen_cells, cancel, progress)


def _search(puzzle: Puzzle, work: float) -> LibrarySearch:
    """The puzzle's library search under way with this budget, or a new one (which then becomes it)."""
    cache = analysis_cache(puzzle)
    search = cache.library_search
    if search is None or search.broken or search.budget != work:
        search = cache.library_search = LibrarySearch(puzzle, work)
    return search


class LibrarySearch:
    """The library's search as stages over one pool, run in order, so that a quick library can be taken after
    the first stages (on a copy of the pool) and the search then resumed to the complete library.

    Global stages: commutators of the shortest words, then of short words meeting in a few pieces (the first
    stage); nested commutators of those with words; commutators with conjugates; with prime powers; independent
    moves. Then local searches of the groups still without 3-cycles, and twists from pairs of piece 3-cycles.
    An interrupted stage (cancelled) leaves the search :attr:`broken`: it is started afresh next time.
    """

    def __init__(self, puzzle: Puzzle, work: float):
        self.puzzle = puzzle
        self.budget = work
        self.structure = pieces(puzzle)
        self.group_of, _ = cell_groups(puzzle)
        self.pool = _Pool(puzzle, self.structure, self.group_of, Work(work))
        self.stages = [self._short_commutators, self._nested, self._conjugates, self._powers, self._independent]
        self.done = 0
        self.broken = False
        self.words: list[Word] = []
        self.small: list[_Small] = []

    def until(self, share: float) -> float:
        return share * self.budget

    def run(self, stages: int, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        """Run the global stages up to ``stages`` (those not run yet)."""
        while self.done < stages:
            self.broken = True  # until the stage ends
            self.stages[self.done](cancel, progress)
            self.done += 1
            self.broken = False

    def quick(self, frozen_cells: int, cancel: CancelToken | None, progress: ProgressCallback | None) -> list[Macro]:
        """The library of the first stage, and of the next ones while the groups without 3-cycles hold more than
        ``frozen_cells`` cells; then, on a copy of the pool (which goes on unchanged), local searches of those
        groups, biggest first, while that holds, and twists.

        On the cubes 5..7 the first stage gives as good a first answer as all of them (a 5x5x5: 334 moves
        against 332; a 7x7x7: 1,028 against 1,204) for a fifth of the library's time; the radio chop's one
        group with 3-cycles only gets them from the powers stage.
        """
        self.run(1, cancel, progress)
        while self.done < len(self.stages) and self._too_many(self._lacking(self.pool.kept()), frozen_cells):
            self.run(self.done + 1, cancel, progress)
        pool = self.pool.copy()
        searched: set[int] = set()
        while True:
            lacking = [g for g in self._lacking(pool.kept()) if g not in searched]
            if not self._too_many(lacking, frozen_cells):
                break
            biggest = max(lacking, key=lambda g: self.structure.piece_orbits[g].cells.size)
            pool.add_local(biggest, self.structure.piece_orbits[biggest].piece_size, pool.work.spent + _LOCAL_WORK,
                           cancel)
            searched.add(biggest)
        return self._with_twists(pool, cancel)

    def finish(self, complete: bool, cancel: CancelToken | None,
               progress: ProgressCallback | None) -> tuple[list[Macro], bool]:
        """The rest of the stages: the library, and whether every group without 3-cycles was searched locally.

        Then groups whose cheapest 3-cycle is long (:data:`LOCAL_LONGER`) are searched locally too, while the
        budget lasts: the global stages' caps can miss a short word that only a few moves make (an 8x8x8's
        wings got 18-turn 3-cycles from the powers stage where a local search finds 8-turn ones).
        """
        self.run(len(self.stages), cancel, progress)
        self.broken = True  # the pool takes the local searches and twists: no quick library after them
        pool, searched_all = self.pool, True
        for g in self._lacking(pool.kept()):
            if not complete and pool.work.over(self.until(1.0)):
                searched_all = False
                continue
            self._local(g, cancel, progress)
        for g in self._long(pool.kept()):
            if pool.work.over(self.until(1.0)):
                break
            self._local(g, cancel, progress)
        return self._with_twists(pool, cancel), searched_all

    def _local(self, g: int, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        self.pool.add_local(g, self.structure.piece_orbits[g].piece_size, self.pool.work.spent + _LOCAL_WORK, cancel)
        report(progress, 0.9, f"local search for group {g + 1} of {len(self.structure.piece_orbits)}")

    def _too_many(self, groups: list[int], cells: int) -> bool:
        """The ``groups`` hold more than ``cells`` cells."""
        return sum(self.structure.piece_orbits[g].cells.size for g in groups) > cells

    def _lacking(self, kept: list[Macro]) -> list[int]:
        """Groups (piece orbits) without a 3-cycle or piece 3-cycle among ``kept``, in order."""
        cheapest = self._cheapest(kept)
        return [g for g in range(len(self.structure.piece_orbits)) if g not in cheapest]

    def _long(self, kept: list[Macro]) -> list[int]:
        """Groups whose cheapest 3-cycle (or piece 3-cycle) is longer than :data:`LOCAL_LONGER` turns, in order."""
        return [g for g, length in sorted(self._cheapest(kept).items()) if length > LOCAL_LONGER]

    def _cheapest(self, kept: list[Macro]) -> dict[int, int]:
        """Turns of each group's cheapest 3-cycle or piece 3-cycle among ``kept`` (groups without one left out)."""
        cheapest: dict[int, int] = {}
        for m in kept:
            if m.kind in CYCLE_KINDS:
                g = int(self.group_of[m.cells[0]])
                cheapest[g] = min(cheapest.get(g, len(m.turns)), len(m.turns))
        return cheapest

    def _with_twists(self, pool: _Pool, cancel: CancelToken | None) -> list[Macro]:
        result = pool.kept()
        if pool.add_twists(self.words[:1000], {(m.kind, int(self.group_of[m.cells[0]])) for m in result}, cancel):
            result = pool.kept()
        return result

    def _short_commutators(self, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        pool = self.pool
        report(progress, 0.0, "short words")
        self.words = _seed_words(self.puzzle, pool.work, self.until(0.1), cancel)
        report(progress, 0.1, "commutators of short words")
        self.small = pool.add_dense(self.words, self.until(0.25), cancel)
        self.small += pool.add_commutators(self.words, self.words, self.until(0.4), cancel)
        self.small.sort(key=lambda w: w.length)

    def _nested(self, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        report(progress, 0.4, "nested commutators")
        self.pool.add_commutators(self.small[:400], self.words[:600], self.until(0.6), cancel)

    def _conjugates(self, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        self.pool.add_commutators(self.small[:60], _conjugates(self.small[:20], self.words[:60]), self.until(0.65),
                                  cancel)

    def _powers(self, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        report(progress, 0.65, "commutators of powers")
        self.pool.add_commutators(_prime_powers(_power_sources(self.words)), self.words[:600], self.until(0.85),
                                  cancel)

    def _independent(self, cancel: CancelToken | None, progress: ProgressCallback | None) -> None:
        puzzle, pool = self.puzzle, self.pool
        for ind in independent_moves(puzzle, work=pool.work, stop=self.until(1.0), cancel=cancel,
                                     max_turns=_MAX_INDEPENDENT):
            pool.add(Word(ind.turns, puzzle.perm_of(ind.turns)))


def _cached_library(puzzle: Puzzle, keys: list[str]) -> list[Macro] | None:
    """The first library stored under ``keys`` on the puzzle, for its moves in this process, or on disk."""
    cache = analysis_cache(puzzle)
    for key in keys:
        held = cache.complete_library if key == _COMPLETE else cache.library
        if held is not None:
            return held
        shared = _BY_MOVES.get(moves_key(puzzle) + key)
        if shared is not None:
            _hold(cache, key, shared)
            return shared
    for key in keys:
        stored = from_disk(puzzle, key, allowed=(Macro, Turn), expect=list)
        if stored is not None:
            _hold(cache, key, stored)
            remember_recent(_BY_MOVES, moves_key(puzzle) + key, stored)
            return stored
    return None


_COMPLETE = "analysis.commutators.complete"
"""The name (process-wide table, disk) of a library whose search covered every piece orbit..."""
_BUDGETED = "analysis.commutators"
"""...and of one within its budget (a complete one also answers for it)."""


def _hold(cache: AnalysisCache, key: str, library: list[Macro]) -> None:
    """Keep ``library`` on the puzzle in the field its name ``key`` stands for."""
    if key == _COMPLETE:
        cache.complete_library = library
    else:
        cache.library = library


_BY_MOVES: dict[str, list[Macro]] = {}
"""Libraries of recent puzzles by their moves alone: recolourings (Santa cases) share them."""


def remember_recent(store: dict, key: str, value: object, keep: int = 4) -> None:
    """Keep ``value`` under ``key`` among the ``keep`` most recent entries (big puzzles' tables are large)."""
    store.pop(key, None)
    store[key] = value
    while len(store) > keep:
        store.pop(next(iter(store)))


SEED_FEWEST_CELLS_UPTO = 4
"""Longest cut length at which the seeds keep the words moving the fewest cells (else the first in move order).

Longer words nearly all move every cell (rashkey at length 8: the median word 30 of 33, hungarian rings at 7:
38 of 38), so fewest cells only puts a few products near the identity first, and the later stages' capped
pairs went to them: rashkey 143.1 -> 147.8 moves, hungarian rings 370.4 -> 376.1 (gears65 240.2 against 244.8).
Short cut lengths are where it pays: a Santa globe_8/25 (length 2) 5,921 -> 3,195."""


def _seed_words(puzzle: Puzzle, work: Work, stop: float, cancel: CancelToken | None) -> list[Word]:
    """Short words, as long as a few thousand of them allow (single moves on huge puzzles)."""
    limit = int(min(2500, max(len(puzzle.moves) * 2, 4_000_000 // puzzle.n_cells)))
    return short_words(puzzle, 12, limit=limit, work=work, stop=stop, cancel=cancel,
                       fewest_cells_upto=SEED_FEWEST_CELLS_UPTO)


def _conjugates(elements: Sequence[Word], setups: Sequence[Word]) -> list[Word]:
    """``A X A'`` for small elements ``X``: moved copies of them, to commute with the originals.

    Two double transpositions meeting in one cell commute to a 3-cycle, which
    is how a puzzle whose short commutators are all double transpositions
    (a big globe) still gets 3-cycles.
    """
    return [_conjugate(x, a) for x in elements for a in setups]


def _power_sources(words: Sequence[Word], few: int = 40) -> list[Word]:
    """Short words and the commutators of the shortest ones: the words whose powers are tried."""
    head = list(words[:few])
    if not head:
        return []
    a = np.stack([w.perm for w in head])
    ia, ib = np.triu_indices(len(head), 1)
    comm = _commutators(a[ia], a[ib])
    out = list(words[:300])
    for k in np.flatnonzero(np.any(comm != np.arange(a.shape[1]), axis=1)):
        out.append(_commutator_word(head[ia[k]], head[ib[k]], comm[k].copy()))
    return out


def _prime_powers(words: Sequence[Word]) -> list[Word]:
    """``w**(order/p)`` for each prime ``p`` dividing a word's order: often far smaller supports.

    ``(R' D' R D)**2`` only twists corners and moves one layer; commuted with
    a move meeting it in one piece it gives a pure twist.
    """
    out = []
    for w in words:
        order = P.order(w.perm)
        for p in sorted(factorint(order)):
            k = order // p
            if k > 1 and k * w.length <= 24:
                turns = w.turns * k
                out.append(Word(turns, P.power(w.perm, k)))
    return out


class _Small:
    """A pool entry: a word whose permutation is kept sparse (moved cells and their sources).

    A big cube's pool holds hundreds of thousands of small-support elements;
    full permutations of 6,534 cells each would take gigabytes. Its turns are
    spelt only when asked for: most entries are never kept (a 5x5x5's pool
    holds 82,000, its library 312), and spelling each one as it came cost a
    tenth of the library.
    """

    __slots__ = ("_make", "_turns", "groups", "images", "length", "n", "slot", "support")

    def __init__(self, make: Callable[[], list[Turn]], length: int, support: np.ndarray, images: np.ndarray, n: int,
                 groups: tuple[int, ...], slot: int):
        self._make: Callable[[], list[Turn]] | None = make
        self._turns: list[Turn] | None = None
        self.length, self.support, self.images, self.n, self.groups = length, support, images, n, groups
        self.slot = slot
        """Its permutation's place in the order the pool first met each (:attr:`_Pool.lengths`)."""

    @property
    def turns(self) -> list[Turn]:
        if self._turns is None:
            self._turns, self._make = self._make(), None
        return self._turns

    @property
    def perm(self) -> np.ndarray:
        perm = np.arange(self.n)
        perm[self.support] = self.images
        perm.flags.writeable = False
        return perm


def _sparse(word: Word | _Small) -> tuple[np.ndarray, np.ndarray]:
    """(moved cells, the cells they take their content from) of a word."""
    if isinstance(word, _Small):
        return word.support, word.images
    support = np.flatnonzero(word.perm != np.arange(word.perm.size))
    return support, word.perm[support]


def _first_of_each(moved: np.ndarray, comm: np.ndarray) -> np.ndarray:
    """Indices of the first row of each distinct permutation among ``comm``'s rows (``moved``: their moved
    columns), in order.

    A batch's commutators repeat themselves (the 5x5x5: 130,000 of the 239,000 offered to the pool), and the
    pool keeps the first of equal length anyway, so the repeats are dropped here, in numpy, not one by one in
    Python. Rows are compared by their moved columns and images, padded to the most moved.
    """
    sizes = moved.sum(axis=1)
    width = int(sizes.max())
    rows, at = np.nonzero(moved)
    slot = np.arange(rows.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    sparse = np.full((moved.shape[0], 2 * width), -1, dtype=np.int64)
    sparse[rows, slot] = at
    sparse[rows, width + slot] = comm[rows, at]
    mix = np.random.default_rng(0).integers(1, 2**63, size=2 * width, dtype=np.uint64) | np.uint64(1)
    keys = (sparse.astype(np.uint64) * mix).sum(axis=1)  # wraps around: a hash, checked exactly below
    order = np.argsort(keys, kind="stable")
    starts = np.concatenate([[True], keys[order][1:] != keys[order][:-1]])
    first = order[np.flatnonzero(starts)][np.cumsum(starts) - 1]  # per sorted row: the first row of its hash
    keep = np.zeros(moved.shape[0], dtype=bool)
    keep[order] = (first == order) | np.any(sparse[order] != sparse[first], axis=1)  # a clash is kept, not lost
    return np.flatnonzero(keep)


class _Pool:
    """Small-support elements seen so far: the shortest word per permutation, stored sparse."""

    def __init__(self, puzzle: Puzzle, structure: PieceStructure, group_of: np.ndarray, work: Work | None = None):
        self.puzzle = puzzle
        self.work = work or Work()
        """Units spent by every stage (the stages stop at their shares of it)."""
        self.structure = structure
        self.group_of = group_of
        self.max_piece = max((po.piece_size for po in structure.piece_orbits), default=1)
        self.max_support = min(max(8, 4 * self.max_piece), max(3, puzzle.n_cells // 2))
        self.best: dict[bytes, _Small] = {}
        self.lengths: list[int] = []
        """Each key's word length, in the order the keys first came (the order :attr:`best` iterates them)..."""
        self.classes: list[int] = []
        """...and :meth:`kept`'s class of it (groups, kind, support size), numbered in :attr:`class_ids`: the first
        :attr:`classified` are named (a key's class never changes, as its permutation does not)."""
        self.classified = 0
        self.class_ids: dict[tuple[tuple[int, ...], str, int], int] = {}
        self.by_group: dict[int, dict[bytes, None]] = {}
        """Keys of the elements moving one group only, per group, in the order they came (a dict, not a set: a
        set of bytes iterates in an order that changes with ``PYTHONHASHSEED``, and ties in length were then
        broken differently in every process)."""
        self.kinds: dict[bytes, str] = {}
        """The kind of each element moving one group (its key fixes its permutation), named once: :meth:`kept`
        runs several times."""
        self.orbit_of = structure.orbit_of(puzzle.n_cells)

    def copy(self) -> _Pool:
        """A pool holding the same entries, to add to without changing this one (entries are shared: they do not
        change)."""
        other = _Pool.__new__(_Pool)
        other.__dict__.update(self.__dict__)
        other.work = Work(self.work.units)
        other.work.spent = self.work.spent
        other.best, other.kinds, other.class_ids = dict(self.best), dict(self.kinds), dict(self.class_ids)
        other.lengths, other.classes = list(self.lengths), list(self.classes)
        other.by_group = {g: dict(keys) for g, keys in self.by_group.items()}
        return other

    def add(self, word: Word) -> bool:
        """Keep ``word`` if its support is small and it is the shortest for its permutation; True if new."""
        support, images = _sparse(word)
        if not 0 < support.size <= self.max_support:
            return False
        turns = list(word.turns)
        return self._offer(support.astype(np.int32), images.astype(np.int32), len(turns), lambda: turns) is not None

    def _offer(self, support: np.ndarray, images: np.ndarray, length: int,
               turns: Callable[[], list[Turn]], groups: tuple[int, ...] | None = None) -> _Small | None:
        """Store the element if it is new or shorter than the stored word; the entry if it is new.

        ``support`` and ``images`` are int32 and not written to afterwards (they are kept, not copied);
        ``turns`` spells the word only when it is asked for (most entries never are); ``groups``, when the caller
        already knows them, saves classifying the cells again.
        """
        key = support.tobytes() + images.tobytes()
        old = self.best.get(key)
        if old is not None and old.length <= length:
            return None
        if old is not None:
            self.best[key] = _Small(turns, length, support, images, self.puzzle.n_cells, old.groups, old.slot)
            self.lengths[old.slot] = length
            return None
        if groups is None:
            groups = _groups(self.group_of[support])
        entry = self.best[key] = _Small(turns, length, support, images, self.puzzle.n_cells, groups,
                                        len(self.lengths))
        self.lengths.append(length)
        self.classes.append(-1)
        if len(groups) == 1:
            self.by_group.setdefault(groups[0], {})[key] = None
        return entry

    def add_dense(self, words: Sequence[Word | _Small], stop: float, cancel: CancelToken | None) -> list[_Small]:
        """Commutators of every pair of the shortest words, however much they overlap.

        Nearly commuting words (two neighbouring half-turns of a globe) overlap
        in dozens of cells yet have a commutator of four; the overlap filter of
        :meth:`add_commutators` would miss them.
        """
        k = int(min(len(words), max(2, (2 * _PAIR_CELLS / self.puzzle.n_cells) ** 0.5)))
        return self.add_commutators(words[:k], words[:k], stop, cancel, max_overlap=self.puzzle.n_cells)

    def add_local(self, g: int, piece_size: int, stop: float, cancel: CancelToken | None) -> None:
        """Commutators of words in the moves touching group ``g`` whose supports meet in one piece.

        On a big cube the global search cannot afford words of length 3 in all
        99 moves, but each centre orbit is touched by a handful of moves, and
        two words overlapping in exactly one piece commute to a 3-cycle of it.
        """
        cells = np.flatnonzero(self.group_of == g)
        names = [name for name, m in self.puzzle.moves.items() if np.any(m[cells] != cells)]
        words = short_words(self.puzzle, 3, limit=max(50, min(800, 20_000_000 // self.puzzle.n_cells)), moves=names,
                            work=self.work, stop=stop, cancel=cancel)
        small = self.add_dense(words, stop, cancel)
        small += self.add_commutators(words, words, stop, cancel, max_overlap=piece_size,
                                      pair_cells=5 * _PAIR_CELLS)
        small.sort(key=lambda w: w.length)
        self.add_commutators(small[:200], words[:300], stop, cancel, max_overlap=piece_size,
                             pair_cells=5 * _PAIR_CELLS)
        if not self.by_group.get(g):
            self.add_commutators(_prime_powers(_power_sources(words)), words[:300], stop, cancel)

    def add_commutators(self, left: Sequence[Word | _Small], right: Sequence[Word | _Small], stop: float,
                        cancel: CancelToken | None, max_overlap: int | None = None,
                        pair_cells: int = _PAIR_CELLS) -> list[_Small]:
        """Commutators ``[a, b]`` of pairs whose supports meet in at most two pieces; the new small ones.

        The cheapest :data:`_PAIR_CELLS` / n pairs are tried (a fixed amount
        of work, so the library does not depend on the machine's load), unless
        the pool's work budget passes ``stop`` first (units, not seconds). They are computed on the cells the words
        move (:class:`_Local`): a few hundred of a big cube's thousands when
        the words turn a few slices.
        """
        if not left or not right:
            return []
        local = _Local(left, right, self.puzzle.n_cells)
        a_sup = local.moved(local.left)
        b_sup = a_sup if left is right else local.moved(local.right)
        overlap = (a_sup @ b_sup.T).astype(np.int64)
        ia, ib = np.nonzero((overlap >= 1) & (overlap <= (max_overlap or 2 * self.max_piece)))
        if left is right:
            keep = ia < ib
            ia, ib = ia[keep], ib[keep]
        cost = np.array([w.length for w in left])[ia] + np.array([w.length for w in right])[ib]
        order = np.lexsort((overlap[ia, ib], cost))
        cap = min(_MAX_PAIRS, pair_cells // self.puzzle.n_cells)
        ia, ib = ia[order][:cap], ib[order][:cap]
        m = local.cols.size
        batch = max(1, _BATCH_CELLS // max(m, 1))
        lengths = 2 * (np.array([w.length for w in left])[ia] + np.array([w.length for w in right])[ib])
        found = []
        for start in range(0, ia.size, batch):
            if self.work.over(stop):
                break
            if cancel is not None:
                cancel.check()
            sa, sb = ia[start:start + batch], ib[start:start + batch]
            comm = _commutators(local.left[sa], local.right[sb], local.left_inv[sa], local.right_inv[sb])
            self.work.spend(_CELL_UNITS * sa.size * m)
            moved = comm != np.arange(m)
            sizes = moved.sum(1)
            offered = np.flatnonzero((sizes > 0) & (sizes <= self.max_support))
            self.work.spend(_OFFER_UNITS * offered.size)
            if not offered.size:
                continue
            offered = offered[_first_of_each(moved[offered], comm[offered])]
            # every offered commutator's moved cells at once, row after row (Python per element is the cost here)
            rows, at = np.nonzero(moved[offered])
            supports = local.cols[at].astype(np.int32)
            images = local.cols[comm[offered[rows], at]].astype(np.int32)
            ends = np.cumsum(sizes[offered])
            starts = ends - sizes[offered]
            groups_of_cells = self.group_of[supports]
            low = np.minimum.reduceat(groups_of_cells, starts).tolist()
            one_group = (low == np.maximum.reduceat(groups_of_cells, starts)).tolist()
            pair_lengths = lengths[start + offered].tolist()
            for k, s, e, g, one, length in zip(offered.tolist(), starts.tolist(), ends.tolist(), low, one_group,
                                               pair_lengths):
                a, b = left[sa[k]], right[sb[k]]
                entry = self._offer(supports[s:e], images[s:e], length, lambda a=a, b=b: _commutator_turns(a, b),
                                    (g,) if one else None)
                if entry is not None:
                    found.append(entry)
        return found

    def add_twists(self, setups: Sequence[Word], have: set[tuple[str, int]], cancel: CancelToken | None) -> bool:
        """Pure twists as ``X Y'`` for two piece 3-cycles that move the same pieces the same way but turn them differently.

        Commutators rarely twist pieces in place directly; conjugating each
        piece 3-cycle by short set-ups and pairing conjugates with equal
        piece movement yields them for every piece orbit that has 3-cycles,
        twisting as few pieces as the 3-cycles allow (often two: the twists a
        commutator search finds may turn four).
        ``have`` holds the (kind, group) pairs already found; True if any twist was added.
        """
        added = False
        set_ups = [Word([], np.arange(self.puzzle.n_cells))] + list(setups)
        setup_perms = np.stack([a.perm for a in set_ups])
        setup_inverses = _row_inverses(setup_perms)
        for g, po in enumerate(self.structure.piece_orbits):
            if po.piece_size == 1 or ("piece 3-cycle", g) not in have:
                continue
            self._name_kinds()
            keys = sorted(self.by_group.get(g, ()), key=lambda k: self.best[k].length)
            cycles = [self.best[k] for k in keys if self.kinds[k] == "piece 3-cycle"][:_KEEP_PER_KIND]
            by_slots: dict[bytes, list[tuple[bytes, int, int]]] = {}
            for i, x in enumerate(cycles):
                if cancel is not None:
                    cancel.check()
                # every conjugate A X A' of x at once (a Python loop over set-ups was a tenth of a 5x5x5's library)
                slots, turns = _locate_rows(po, np.take_along_axis(setup_perms, x.perm[setup_inverses], axis=1))
                for j in range(len(set_ups)):
                    by_slots.setdefault(slots[j].tobytes(), []).append((turns[j].tobytes(), i, j))
            for found in by_slots.values():
                first_turns, i, j = found[0]
                for turns, k, m in found[1:]:
                    if turns != first_turns:
                        first, other = _conjugate(cycles[i], set_ups[j]), _conjugate(cycles[k], set_ups[m])
                        added |= self.add(Word(first.turns + invert(other.turns), first.perm[P.inverse(other.perm)]))
                        break
        return added

    def kept(self) -> list[Macro]:
        """Classified macros: per (groups, kind, support size) the :data:`_KEEP_PER_KIND` shortest (the first
        come among equals), shortest first overall.

        Chosen in numpy over every entry's length and class: sorting the whole pool in Python at each of the
        three calls was a fifth of a 5x5x5's library.
        """
        self._name_kinds()
        keys = list(self.best)
        for slot in range(self.classified, len(keys)):
            w = self.best[keys[slot]]
            kind = self.kinds[keys[slot]] if len(w.groups) == 1 else "other"
            self.classes[slot] = self.class_ids.setdefault((w.groups, kind, int(w.support.size)), len(self.class_ids))
        self.classified = len(keys)
        by_length = np.argsort(np.array(self.lengths, dtype=np.int64), kind="stable")
        classes = np.array(self.classes, dtype=np.int64)[by_length]
        by_class = np.argsort(classes, kind="stable")  # within a class still by length, then by arrival
        runs = np.flatnonzero(np.diff(classes[by_class], prepend=-1))
        rank = np.arange(by_class.size) - np.repeat(runs, np.diff(np.append(runs, by_class.size)))
        keep = np.zeros(by_length.size, dtype=bool)
        keep[by_class[rank < _KEEP_PER_KIND]] = True
        kinds = {number: kind for (_, kind, _), number in self.class_ids.items()}
        out = []
        for slot in by_length[keep].tolist():
            w = self.best[keys[slot]]
            out.append(Macro(w.turns, tuple(w.support.tolist()), kinds[self.classes[slot]],
                             int(self.orbit_of[w.support].min())))
        return out

    def _name_kinds(self) -> None:
        """Name the kind of every one-group element not named yet, a group's at once (:func:`_kinds`).

        One by one (a full permutation each) this was a third of a 5x5x5's library: its pool holds 67,000.
        """
        for g, keys in self.by_group.items():
            todo = [key for key in keys if key not in self.kinds]
            if todo:
                names = _kinds(self.structure.piece_orbits[g], [self.best[key] for key in todo])
                self.kinds.update(zip(todo, names))


def _groups(of_cells: np.ndarray) -> tuple[int, ...]:
    """The sorted distinct groups of some cells (usually one)."""
    first = int(of_cells[0])
    return (first,) if np.all(of_cells == first) else tuple(sorted(set(of_cells.tolist())))


class _Local:
    """Words as permutations of only the cells some of them move (the rest are fixed by all)."""

    def __init__(self, left: Sequence[Word | _Small], right: Sequence[Word | _Small], n: int):
        sparse_left = [_sparse(w) for w in left]
        sparse_right = sparse_left if right is left else [_sparse(w) for w in right]
        self.cols = np.unique(np.concatenate([s for s, _ in sparse_left + sparse_right]))
        self.pos = np.full(n, -1, dtype=np.int64)
        self.pos[self.cols] = np.arange(self.cols.size)
        self.left = self._stack(sparse_left)
        self.right = self.left if right is left else self._stack(sparse_right)
        self.left_inv = _row_inverses(self.left)
        self.right_inv = self.left_inv if right is left else _row_inverses(self.right)

    def _stack(self, sparse: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        out = np.tile(np.arange(self.cols.size, dtype=np.int32), (len(sparse), 1))
        for row, (support, images) in zip(out, sparse):
            row[self.pos[support]] = self.pos[images]
        return out

    def moved(self, perms: np.ndarray) -> np.ndarray:
        return (perms != np.arange(self.cols.size)).astype(np.float32)


def _commutator_word(a: Word, b: Word, perm: np.ndarray) -> Word:
    perm.flags.writeable = False
    return Word(_commutator_turns(a, b), perm)


def _commutator_turns(a: Word | _Small, b: Word | _Small) -> list[Turn]:
    """The turns of ``[a, b] = a b a' b'``."""
    return a.turns + b.turns + invert(a.turns) + invert(b.turns)


def _commutators(a: np.ndarray, b: np.ndarray, a_inv: np.ndarray | None = None,
                 b_inv: np.ndarray | None = None) -> np.ndarray:
    """Row-wise ``a b a' b'`` (apply a, then b, then their inverses); pass the inverses when known.

    Rows are composed by gathers on the flattened arrays with row offsets,
    which numpy does faster than two-dimensional fancy indexing.
    """
    a_inv = _row_inverses(a) if a_inv is None else a_inv
    b_inv = _row_inverses(b) if b_inv is None else b_inv
    rows, width = a.shape
    offset = (np.arange(rows, dtype=a.dtype) * width)[:, None]

    def then(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.take(x.ravel(), y + offset)

    return then(then(then(a, b), a_inv), b_inv)


def _row_inverses(perms: np.ndarray) -> np.ndarray:
    """Row-wise inverse permutations."""
    out = np.empty_like(perms)
    rows = np.arange(perms.shape[0])[:, None]
    out[rows, perms] = np.arange(perms.shape[1], dtype=perms.dtype)
    return out


def _conjugate(x: Word | _Small, a: Word) -> Word:
    """``A X A'``: ``x`` done where the set-up ``a`` brings its cells."""
    perm = a.perm[x.perm[P.inverse(a.perm)]]
    perm.flags.writeable = False
    return Word(a.turns + x.turns + invert(a.turns), perm)


def _locate_tables(po: PieceOrbit) -> tuple[np.ndarray, np.ndarray]:
    """Per cell its piece slot and its index in the piece (-1 off the piece orbit), made once per piece orbit."""
    tables = _LOCATE_TABLES.get(id(po))
    if tables is None or tables[0] is not po:
        n = int(po.cells.max()) + 1
        slot_of = np.full(n, -1, dtype=np.int64)
        index_of = np.full(n, -1, dtype=np.int64)
        slot_of[po.cells] = np.arange(po.n_pieces)[:, None]
        index_of[po.cells] = np.arange(po.piece_size)[None, :]
        tables = _LOCATE_TABLES[id(po)] = (po, slot_of, index_of)
    return tables[1], tables[2]


def _locate_rows(po: PieceOrbit, perms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`PieceOrbit.locate` of each row of ``perms`` at once: (rows x slots, rows x slots x piece size)."""
    slot_of, index_of = _locate_tables(po)
    origin = perms[:, po.cells]
    return slot_of[origin[:, :, 0]], index_of[origin]


_LOCATE_TABLES: dict[int, tuple[PieceOrbit, np.ndarray, np.ndarray]] = {}


def _kinds(po: PieceOrbit, elements: Sequence[_Small]) -> list[str]:
    """Name what each element (moving piece orbit ``po`` only) does to its pieces, from its moved cells alone.

    A piece moves when its first cell (index 0) goes to another slot: three
    moved pieces are a (piece) 3-cycle, four that each come back under a
    second application a double transposition, none with a cell turned within
    its piece a twist; anything else is "other".
    """
    slot_of, index_of = _locate_tables(po)
    count = len(elements)
    element = np.repeat(np.arange(count), [w.support.size for w in elements])
    cells = np.concatenate([w.support for w in elements]).astype(np.int64)
    images = np.concatenate([w.images for w in elements]).astype(np.int64)
    to_slot = slot_of[images]
    leaves = np.flatnonzero((index_of[cells] == 0) & (to_slot != slot_of[cells]))
    moved = np.bincount(element[leaves], minlength=count)
    turned = np.bincount(element[index_of[images] != index_of[cells]], minlength=count)
    # where each leaving piece's destination slot sends its first cell (itself when that cell does not move)
    key = element * slot_of.size + cells
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    query = element[leaves] * slot_of.size + po.cells[to_slot[leaves], 0]
    at = np.minimum(np.searchsorted(ordered, query), key.size - 1)
    back = np.where(ordered[at] == query, to_slot[order[at]], to_slot[leaves])
    strays = np.bincount(element[leaves][back != slot_of[cells[leaves]]], minlength=count)
    cycle = "3-cycle" if po.piece_size == 1 else "piece 3-cycle"
    names = []
    for m, s, t in zip(moved.tolist(), strays.tolist(), turned.tolist()):
        if m == 3:
            names.append(cycle)
        elif m == 4 and not s:
            names.append("double transposition")
        elif m == 0 and t:
            names.append("twist")
        else:
            names.append("other")
    return names

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

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.independent import Word, cell_groups, independent_moves, short_words
from hlavolamy.analysis.memo import moves_key
from hlavolamy.core import perm as P
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, invert

LIBRARY_KINDS = ("3-cycle", "piece 3-cycle", "twist", "double transposition")
_KEEP_PER_KIND = 12
"""Macros of one kind kept per group: several, so each solving step can use the cheapest."""
_BATCH_CELLS = 1_000_000
"""Most commutator cells (pairs x cells) computed in one numpy batch."""
_LOCAL_SECONDS = 10.0
"""Time for the local search of one group of orbits that the global search left without 3-cycles."""
_PAIR_CELLS = 12_000_000
"""Work per commutator stage: pairs tried x cells."""
_MAX_PAIRS = 150_000
"""Most pairs per stage however small the puzzle (pairs cost Python time too)."""


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


def three_cycle_library(puzzle: Puzzle, *, time_budget: float = 20.0, cancel: CancelToken | None = None) -> list[Macro]:
    """3-cycles, piece 3-cycles, twists and double transpositions, shortest first (cached per puzzle)."""
    return [m for m in small_support_macros(puzzle, time_budget=time_budget, cancel=cancel) if m.kind in LIBRARY_KINDS]


def small_support_macros(puzzle: Puzzle, *, time_budget: float = 20.0, cancel: CancelToken | None = None,
                         progress: ProgressCallback | None = None, complete: bool = False) -> list[Macro]:
    """Every kept small-support macro, library kinds and ``"other"``, shortest first (cached per puzzle).

    The global stages share ``time_budget``; groups left without 3-cycles then
    get a local search each (:data:`_LOCAL_SECONDS`) while the budget lasts —
    or every one of them with ``complete`` (what the solver needs), however long.
    """
    keys = ["analysis.commutators.complete"] + ([] if complete else ["analysis.commutators"])
    for key in keys:
        if key in puzzle.cache:
            return puzzle.cache[key]
        shared = _BY_MOVES.get(moves_key(puzzle) + key)
        if shared is not None:
            puzzle.cache[key] = shared
            return shared
    start = time.monotonic()
    searched_all = True
    structure = pieces(puzzle)
    group_of, _ = cell_groups(puzzle)
    pool = _Pool(puzzle, structure, group_of)

    def until(share: float) -> float:
        return start + share * time_budget

    report(progress, 0.0, "short words")
    words = _seed_words(puzzle, until(0.1), cancel)
    report(progress, 0.1, "commutators of short words")
    small = pool.add_dense(words, until(0.25), cancel)
    small += pool.add_commutators(words, words, until(0.4), cancel)
    report(progress, 0.4, "nested commutators")
    small.sort(key=lambda w: w.length)
    pool.add_commutators(small[:400], words[:600], until(0.6), cancel)
    pool.add_commutators(small[:60], _conjugates(small[:20], words[:60]), until(0.65), cancel)
    report(progress, 0.65, "commutators of powers")
    pool.add_commutators(_prime_powers(_power_sources(words)), words[:600], until(0.85), cancel)
    for ind in independent_moves(puzzle, time_budget=max(0.0, until(1.0) - time.monotonic()), cancel=cancel):
        pool.add(Word(ind.turns, puzzle.perm_of(ind.turns)))
    result = pool.kept()
    have = {(m.kind, int(group_of[m.cells[0]])) for m in result}
    for g, po in enumerate(structure.piece_orbits):
        if ("3-cycle", g) not in have and ("piece 3-cycle", g) not in have:
            if not complete and time.monotonic() > until(1.0):
                searched_all = False
                continue
            pool.add_local(g, po.piece_size, time.monotonic() + _LOCAL_SECONDS, cancel)
            report(progress, 0.9, f"local search for group {g + 1} of {len(structure.piece_orbits)}")
    result = pool.kept()
    if pool.add_twists(words[:1000], {(m.kind, int(group_of[m.cells[0]])) for m in result}, cancel):
        result = pool.kept()
    for key in ["analysis.commutators"] + (["analysis.commutators.complete"] if searched_all else []):
        puzzle.cache[key] = result
        remember_recent(_BY_MOVES, moves_key(puzzle) + key, result)
    report(progress, 1.0, f"{len(result)} macros")
    return result


_BY_MOVES: dict[str, list[Macro]] = {}
"""Libraries of recent puzzles by their moves alone: recolourings (Santa cases) share them."""


def remember_recent(store: dict, key: str, value: object, keep: int = 4) -> None:
    """Keep ``value`` under ``key`` among the ``keep`` most recent entries (big puzzles' tables are large)."""
    store.pop(key, None)
    store[key] = value
    while len(store) > keep:
        store.pop(next(iter(store)))


def _seed_words(puzzle: Puzzle, deadline: float, cancel: CancelToken | None) -> list[Word]:
    """Short words, as long as a few thousand of them allow (single moves on huge puzzles)."""
    limit = int(min(2500, max(len(puzzle.moves) * 2, 4_000_000 // puzzle.n_cells)))
    return short_words(puzzle, 12, limit=limit, deadline=deadline, cancel=cancel)


def _conjugates(elements: Sequence[Word], setups: Sequence[Word]) -> list[Word]:
    """``A X A'`` for small elements ``X``: moved copies of them, to commute with the originals.

    Two double transpositions meeting in one cell commute to a 3-cycle, which
    is how a puzzle whose short commutators are all double transpositions
    (a big globe) still gets 3-cycles.
    """
    out = []
    for x in elements:
        for a in setups:
            perm = a.perm[x.perm[P.inverse(a.perm)]]
            perm.flags.writeable = False
            out.append(Word(a.turns + x.turns + invert(a.turns), perm))
    return out


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
        for p in sorted(_prime_factors(order)):
            k = order // p
            if k > 1 and k * w.length <= 24:
                turns = w.turns * k
                out.append(Word(turns, P.power(w.perm, k)))
    return out


def _prime_factors(n: int) -> set[int]:
    out, d = set(), 2
    while d * d <= n:
        while n % d == 0:
            out.add(d)
            n //= d
        d += 1
    if n > 1:
        out.add(n)
    return out


class _Pool:
    """Small-support elements seen so far: the shortest word per permutation."""

    def __init__(self, puzzle: Puzzle, structure: PieceStructure, group_of: np.ndarray):
        self.puzzle = puzzle
        self.structure = structure
        self.group_of = group_of
        self.max_piece = max((po.piece_size for po in structure.piece_orbits), default=1)
        self.max_support = min(max(8, 4 * self.max_piece), max(3, puzzle.n_cells // 2))
        self.best: dict[bytes, Word] = {}
        self.orbit_of = np.full(puzzle.n_cells, -1, dtype=np.int64)
        for i, o in enumerate(structure.orbits):
            self.orbit_of[list(o)] = i

    def add(self, word: Word) -> bool:
        """Keep ``word`` if its support is small and it is the shortest for its permutation; True if new."""
        size = int(np.count_nonzero(word.perm != np.arange(word.perm.size)))
        if not 0 < size <= self.max_support:
            return False
        return self._offer(word.perm, word.length, lambda: word)

    def _offer(self, perm: np.ndarray, length: int, make) -> bool:
        key = perm.tobytes()
        old = self.best.get(key)
        if old is None or old.length > length:
            self.best[key] = make()
            return old is None
        return False

    def add_dense(self, words: Sequence[Word], deadline: float, cancel: CancelToken | None) -> list[Word]:
        """Commutators of every pair of the shortest words, however much they overlap.

        Nearly commuting words (two neighbouring half-turns of a globe) overlap
        in dozens of cells yet have a commutator of four; the overlap filter of
        :meth:`add_commutators` would miss them.
        """
        k = int(min(len(words), max(2, (2 * _PAIR_CELLS / self.puzzle.n_cells) ** 0.5)))
        return self.add_commutators(words[:k], words[:k], deadline, cancel, max_overlap=self.puzzle.n_cells)

    def add_local(self, g: int, piece_size: int, deadline: float, cancel: CancelToken | None) -> None:
        """Commutators of words in the moves touching group ``g`` whose supports meet in one piece.

        On a big cube the global search cannot afford words of length 3 in all
        99 moves, but each centre orbit is touched by a handful of moves, and
        two words overlapping in exactly one piece commute to a 3-cycle of it.
        """
        cells = np.flatnonzero(self.group_of == g)
        names = [name for name, m in self.puzzle.moves.items() if np.any(m[cells] != cells)]
        words = short_words(self.puzzle, 3, limit=max(50, min(800, 20_000_000 // self.puzzle.n_cells)), moves=names,
                            deadline=deadline, cancel=cancel)
        small = self.add_dense(words, deadline, cancel)
        small += self.add_commutators(words, words, deadline, cancel, max_overlap=piece_size,
                                      pair_cells=5 * _PAIR_CELLS)
        small.sort(key=lambda w: w.length)
        self.add_commutators(small[:200], words[:300], deadline, cancel, max_overlap=piece_size,
                             pair_cells=5 * _PAIR_CELLS)
        if not any(self._groups_of(w) == (g,) for w in self.best.values()):
            self.add_commutators(_prime_powers(_power_sources(words)), words[:300], deadline, cancel)

    def add_commutators(self, left: Sequence[Word], right: Sequence[Word], deadline: float,
                        cancel: CancelToken | None, max_overlap: int | None = None,
                        pair_cells: int = _PAIR_CELLS) -> list[Word]:
        """Commutators ``[a, b]`` of pairs whose supports meet in at most two pieces; the new small ones.

        The cheapest :data:`_PAIR_CELLS` / n pairs are tried (a fixed amount
        of work, so the library does not depend on the machine's load), unless
        ``deadline`` comes first.
        """
        if not left or not right:
            return []
        a_sup = np.stack([w.perm != np.arange(w.perm.size) for w in left]).astype(np.float32)
        b_sup = a_sup if left is right else np.stack([w.perm != np.arange(w.perm.size) for w in right]).astype(np.float32)
        overlap = (a_sup @ b_sup.T).astype(np.int64)
        ia, ib = np.nonzero((overlap >= 1) & (overlap <= (max_overlap or 2 * self.max_piece)))
        if left is right:
            keep = ia < ib
            ia, ib = ia[keep], ib[keep]
        cost = np.array([w.length for w in left])[ia] + np.array([w.length for w in right])[ib]
        order = np.lexsort((overlap[ia, ib], cost))
        n = self.puzzle.n_cells
        cap = min(_MAX_PAIRS, pair_cells // n)
        ia, ib = ia[order][:cap], ib[order][:cap]
        batch = max(1, _BATCH_CELLS // n)
        found = []
        for start in range(0, ia.size, batch):
            if time.monotonic() > deadline:
                break
            if cancel is not None:
                cancel.check()
            sa, sb = ia[start:start + batch], ib[start:start + batch]
            a = np.stack([left[i].perm for i in sa])
            b = np.stack([right[i].perm for i in sb])
            comm = _commutators(a, b)
            sizes = (comm != np.arange(n)).sum(1)
            for k in np.flatnonzero((sizes > 0) & (sizes <= self.max_support)):
                wa, wb = left[sa[k]], right[sb[k]]
                perm = comm[k].copy()
                if self._offer(perm, 2 * (wa.length + wb.length), lambda: _commutator_word(wa, wb, perm)):
                    found.append(self.best[perm.tobytes()])
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
        for g, po in enumerate(self.structure.piece_orbits):
            if po.piece_size == 1 or ("piece 3-cycle", g) not in have:
                continue
            cycles = [w for w in sorted(self.best.values(), key=lambda w: w.length)
                      if self._groups_of(w) == (g,) and _kind(po, w.perm) == "piece 3-cycle"][:_KEEP_PER_KIND]
            by_slots: dict[bytes, list[tuple[bytes, Word]]] = {}
            for x in cycles:
                for a in [Word([], np.arange(x.perm.size))] + list(setups):
                    if cancel is not None:
                        cancel.check()
                    conj = a.perm[x.perm[P.inverse(a.perm)]]
                    slots, turns = _locate(po, conj)
                    word = Word(a.turns + x.turns + invert(a.turns), conj)
                    by_slots.setdefault(slots.tobytes(), []).append((turns.tobytes(), word))
            for found in by_slots.values():
                first_turns, first = found[0]
                for turns, other in found[1:]:
                    if turns != first_turns:
                        added |= self.add(Word(first.turns + invert(other.turns), first.perm[P.inverse(other.perm)]))
                        break
        return added

    def _groups_of(self, w: Word) -> tuple[int, ...]:
        groups = self.group_of[w.perm != np.arange(w.perm.size)]
        first = groups[0]
        return (int(first),) if np.all(groups == first) else tuple(np.unique(groups).tolist())

    def kept(self) -> list[Macro]:
        """Classified macros: per (groups, kind, support size) the shortest few, shortest first overall.

        """
        count: dict[tuple[tuple[int, ...], str, int], int] = {}
        out = []
        for w in sorted(self.best.values(), key=lambda w: w.length):
            groups = self._groups_of(w)
            m = self._classify(w)
            k = (groups, m.kind, len(m.cells))
            if count.get(k, 0) < _KEEP_PER_KIND:
                count[k] = count.get(k, 0) + 1
                out.append(m)
        return out

    def _classify(self, word: Word) -> Macro:
        cells = tuple(P.support(word.perm).tolist())
        orbit = int(self.orbit_of[list(cells)].min())
        groups = {int(self.group_of[c]) for c in cells}
        kind = "other"
        if len(groups) == 1:
            kind = _kind(self.structure.piece_orbits[groups.pop()], word.perm)
        return Macro(word.turns, cells, kind, orbit)


def _commutator_word(a: Word, b: Word, perm: np.ndarray) -> Word:
    perm.flags.writeable = False
    return Word(a.turns + b.turns + invert(a.turns) + invert(b.turns), perm)


def _commutators(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise ``a b a' b'`` (apply a, then b, then their inverses)."""
    rows = np.arange(a.shape[1])
    a_inv = np.empty_like(a)
    b_inv = np.empty_like(b)
    np.put_along_axis(a_inv, a, np.broadcast_to(rows, a.shape), axis=1)
    np.put_along_axis(b_inv, b, np.broadcast_to(rows, b.shape), axis=1)
    out = np.take_along_axis(a, b, axis=1)
    out = np.take_along_axis(out, a_inv, axis=1)
    return np.take_along_axis(out, b_inv, axis=1)


def _locate(po: PieceOrbit, perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`PieceOrbit.locate` by array lookups (it is called for thousands of macros)."""
    tables = _LOCATE_TABLES.get(id(po))
    if tables is None or tables[0] is not po:
        n = int(po.cells.max()) + 1
        slot_of = np.full(n, -1, dtype=np.int64)
        index_of = np.full(n, -1, dtype=np.int64)
        slot_of[po.cells] = np.arange(po.n_pieces)[:, None]
        index_of[po.cells] = np.arange(po.piece_size)[None, :]
        tables = _LOCATE_TABLES[id(po)] = (po, slot_of, index_of)
    origin = np.asarray(perm)[po.cells]
    return tables[1][origin][:, 0], tables[2][origin]


_LOCATE_TABLES: dict[int, tuple[PieceOrbit, np.ndarray, np.ndarray]] = {}


def _kind(po: PieceOrbit, perm: np.ndarray) -> str:
    """Name what ``perm`` (moving one piece orbit only) does to its pieces."""
    slots, turns = _locate(po, perm)
    moved = np.flatnonzero(slots != np.arange(slots.size))
    if moved.size == 3:
        return "3-cycle" if po.piece_size == 1 else "piece 3-cycle"
    if moved.size == 4 and np.array_equal(slots[slots[moved]], moved):
        return "double transposition"
    if moved.size == 0 and np.any(turns != np.arange(po.piece_size)):
        return "twist"
    return "other"

"""A complete fallback solver: a stabiliser chain whose transversal elements carry words (Minkwitz).

Schreier–Sims (through sympy) gives a base ``b1, b2, ...`` and the basic orbit
of each ``b_i`` under the stabiliser of ``b1..b(i-1)``. For every point of every
basic orbit the table keeps one group element mapping the base point there,
together with a word in the puzzle's single steps that produces it. Sifting a
position through the table then spells a solution: at each level take the entry
for the current image of the base point, undo it, go on.

The table is filled and its words shortened by Minkwitz's algorithm (1998):
short words and products of table entries are sifted with replacement — a
shorter word for a point that already has one takes its place and the longer
one sifts on — under a length limit that grows, so every level ends up with
short words. Knowing the orbit sizes tells when the table is complete, which
makes the method exact for any reachable position; it needs no structure of the
puzzle, so it finishes where commutators get stuck.

Two cheap searches make the answers much shorter: the build tries a few base
orders and keeps the one whose table promises the shortest sifts, and a solve
sifts the position after each of up to 2000 short prefixes and keeps the
shortest result (on the 3x3x3: about 110 moves for one sift, 60 for the best).
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod

import numpy as np

from hlavolamy.analysis.independent import generators, short_words
from hlavolamy.analysis.membership import structural_order
from hlavolamy.analysis.memo import memo, on_disk
from hlavolamy.analysis.orbits import orbits
from hlavolamy.analysis.schreier_sims import basic_orbits
from hlavolamy.core.progress import CancelToken, ProgressCallback, Work, interruptible, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.errors import HlavolamyError, StrategyFailed, UnreachableError
from hlavolamy.solve.passes.simplify import simplify

CACHE_KEY = "solve.chain"
MAX_MOVED_CELLS = 1500
"""Refuse before Schreier–Sims when the moves move more cells than this (sympy would take minutes)."""
MAX_TABLE_BYTES = 400_000_000
"""Refuse chains whose tables (two permutations per entry) would need more memory than this."""
_RANDOM_PATIENCE = (10, 30)
"""Consecutive sifts to the identity asked of each randomized Schreier–Sims try before the deterministic one."""
_SHORT_WORDS = 3000
"""Products of the generators sifted first: they give every level its shortest words."""
_PREFIXES = 2000
"""Short words tried in front of each sift when solving (the best result is kept)..."""
_PREFIX_LOOKUPS = 40_000
"""...but no more than this many table look-ups (prefixes times base length) per solve."""
_SIMPLIFIED = 8
"""Candidate solutions (the shortest before simplification) that are simplified and compared."""
_STEPS_PER_ENTRY = 6
"""Single steps (chosen at random) appended to each table entry in a round."""
_TRIAL_ROUNDS = 5
"""Minkwitz rounds run after the table is complete, before comparing base orders."""
_QUIET_ROUNDS = 30
"""Improvement stops after this many rounds in a row that shorten nothing."""
_QUICK_MISSING = 0.1
"""Share of missing entries at which a quick chain stops its Minkwitz rounds and completes the table by orbit
closure and long fills (the 4x4x4: 5 rounds, 0.3 s of CPU, where rounds alone need 1.3 s more for the last 60 of
701 entries). Measured first answers (200 turns, seed 1) at 0.3 / 0.1 / 0.05: megaminx 310 / 258 / 266 moves,
icosamate 508 / 430 / 421, pentultimate 411 / 251 / 209; 0.1 kept the megaminx's rounds to 6 of 10."""
_LONG_FILL = 4
"""A quick chain's long fills start at words this many times the length limit (doubled when a pass fills nothing):
without a cap, fills undone by earlier long fills grew a 4x4x4's first answer to 10,000 moves."""
_INSERT_UNITS = 1_600
"""Work units (:class:`~hlavolamy.core.progress.Work`, about a nanosecond of an idle core each) of one sift
step with replacement, besides a few per cell: the base-order trials and shortening rounds spend
:func:`improve_work` of them, so the table is the same on a busy machine."""

Word = tuple[int, ...]
"""A word as indices into :attr:`Chain.turns`."""


class ChainTooLarge(StrategyFailed):
    """The puzzle's group is too big for a table of words (says how big it would be)."""


@dataclass
class _Entry:
    perm: np.ndarray
    inverse: np.ndarray
    word: Word
    inverse_word: Word


@dataclass(frozen=True)
class Sifts:
    """Many sifts (:meth:`Chain.sift_all`): ``picks[level, r]`` is the entry (an index into ``entries[level]``)
    row ``r`` met at ``level``, -1 from where its sift stopped."""

    picks: np.ndarray
    entries: list[list[_Entry]]

    def lengths(self) -> np.ndarray:
        """Per row, the length of the table words met."""
        out = np.zeros(self.picks.shape[1], dtype=np.int64)
        for picks, entries in zip(self.picks, self.entries):
            lengths = np.array([len(entry.word) for entry in entries] + [0])
            out += lengths[picks]  # -1: the 0 at the end
        return out

    def words(self, row: int) -> list[Word]:
        """The table words row ``row`` met, in sifting order."""
        return [entries[k].word for k, entries in zip(self.picks[:, row], self.entries) if k >= 0]


@dataclass
class Chain:
    """Base points, basic orbit sizes and, per level, the table point -> (element, word)."""

    puzzle: Puzzle
    turns: list[Turn]
    base: list[int]
    orbit_sizes: list[int]
    levels: list[dict[int, _Entry]] = field(default_factory=list)
    _prefixes: list[tuple[Word, np.ndarray]] | None = field(default=None, repr=False)
    _prefix_perms: np.ndarray | None = field(default=None, repr=False)

    @property
    def order(self) -> int:
        """The group order: the product of the basic orbit sizes."""
        out = 1
        for size in self.orbit_sizes:
            out *= size
        return out

    @property
    def complete(self) -> bool:
        return all(len(t) == s for t, s in zip(self.levels, self.orbit_sizes))

    def sift(self, perm: np.ndarray, levels: int | None = None) -> tuple[list[Word], np.ndarray]:
        """The table words met while sifting ``perm`` (through the first ``levels`` levels, default all) and what
        is left (after all levels: the identity iff ``perm`` is in the group)."""
        words: list[Word] = []
        rest = np.asarray(perm, dtype=np.intp)
        for point, table in zip(self.base[:levels], self.levels[:levels]):
            entry = table.get(int(rest[point]))
            if entry is None:
                return words, rest
            rest = entry.inverse[rest]
            words.append(entry.word)
        return words, rest

    def sift_all(self, rows: np.ndarray, levels: int | None = None) -> Sifts:
        """:meth:`sift` of every row of ``rows`` at once: one gather per level for all of them."""
        rows = np.array(rows, dtype=np.intp)
        entries = [list(table.values()) for table in self.levels[:levels]]
        picks = np.full((len(entries), rows.shape[0]), -1, dtype=np.int64)
        alive = np.arange(rows.shape[0])
        for level, (point, table) in enumerate(zip(self.base, self.levels[:levels])):
            slot = np.full(self.puzzle.n_cells, -1, dtype=np.int64)
            slot[list(table)] = np.arange(len(table))
            found = slot[rows[alive, point]]
            alive, found = alive[found >= 0], found[found >= 0]
            if not alive.size:
                break
            picks[level, alive] = found
            inverses = np.stack([entry.inverse for entry in entries[level]])
            rows[alive] = inverses[found[:, None], rows[alive]]
        return Sifts(picks, entries)

    def contains(self, perm: np.ndarray) -> bool:
        """Membership by sifting through the (complete) table."""
        perm = np.asarray(perm)
        if perm.shape != (self.puzzle.n_cells,):
            return False
        _, rest = self.sift(perm)
        return bool(np.array_equal(rest, np.arange(rest.size)))

    def prefixes(self) -> list[tuple[Word, np.ndarray]]:
        """Short words (the empty one first) tried in front of a sift; see :func:`chain_solve`."""
        if self._prefixes is None:
            index = {t: i for i, t in enumerate(self.turns)}
            self._prefixes = [((), np.arange(self.puzzle.n_cells, dtype=np.intp))] + [
                (tuple(index[t] for t in w.turns), np.asarray(w.perm, dtype=np.intp))
                for w in short_words(self.puzzle, 8, limit=self.prefix_count())]
            self._prefix_perms = np.stack([perm for _, perm in self._prefixes])
        return self._prefixes

    def prefix_perms(self) -> np.ndarray:
        """The permutations of :meth:`prefixes`, one per row."""
        self.prefixes()
        return self._prefix_perms

    def prefix_count(self) -> int:
        return max(20, min(_PREFIXES, _PREFIX_LOOKUPS // max(len(self.base), 1)))

    def word_turns(self, word: Sequence[int]) -> list[Turn]:
        return [self.turns[i] for i in word]

    def expected_length(self) -> float:
        """Mean length of a sift through the table before simplification: the sum of the levels' mean words."""
        return sum(sum(len(e.word) for e in t.values()) / max(len(t), 1) for t in self.levels)


def improve_work(puzzle: Puzzle) -> float:
    """Default work of the base-order trials and shortening rounds: what 2 s plus 1 s per 25 cells (at most 6 s)
    allowed on an idle core (longer rounds shortened the 3x3x3's and 4x4x4's answers by nothing measurable)."""
    return min(6.0, 2.0 + puzzle.n_cells / 25) * 1e9


def build_chain(puzzle: Puzzle, *, cancel: CancelToken | None = None, progress: ProgressCallback | None = None,
                improve: float | None = None) -> Chain:
    """The word table of ``puzzle``'s group, built once per set of moves (shared by puzzles with the same moves).

    ``improve`` (work units, default :func:`improve_work`) bounds the trials
    of base orders and the shortening rounds after: work, not seconds, so the
    table does not depend on the machine's load; ``cancel`` only cuts. The
    table itself is always completed. A chain built by an earlier process is
    loaded from the disk cache (:func:`~hlavolamy.analysis.memo.on_disk`).
    """
    def build() -> Chain:
        return _build_chain(puzzle, cancel or CancelToken(), progress, improve)

    return memo(puzzle, CACHE_KEY, lambda: on_disk(puzzle, CACHE_KEY, build, allowed=(_Entry, Turn), expect=tuple,
                                                   encode=_chain_record, decode=lambda r: _stored_chain(puzzle, r)))


def _chain_record(chain: Chain) -> tuple:
    """What the disk cache keeps of a chain: everything but the puzzle (and the prefixes, rebuilt in milliseconds)."""
    return chain.turns, chain.base, chain.orbit_sizes, chain.levels


def _stored_chain(puzzle: Puzzle, record: tuple) -> Chain:
    """A chain from :func:`_chain_record`'s tuple, on ``puzzle``; ValueError if the record does not fit it."""
    turns, base, orbit_sizes, levels = record
    if not len(base) == len(orbit_sizes) == len(levels) or any(
            not isinstance(t, Turn) or t.move not in puzzle.moves for t in turns):
        raise ValueError("stored chain does not match the puzzle's moves")
    return Chain(puzzle, turns, base, orbit_sizes, levels)


def _build_chain(puzzle: Puzzle, cancel: CancelToken, progress: ProgressCallback | None,
                 improve: float | None, trial_rounds: int = _TRIAL_ROUNDS, quick: bool = False) -> Chain:
    _check_moved_cells(puzzle)
    turns = generators(puzzle)
    report(progress, 0.0, "stabiliser chain: Schreier–Sims")
    budget = improve if improve is not None else improve_work(puzzle)
    work = Work(budget)
    trials = []
    for k, preferred in enumerate(_candidate_bases(puzzle)):
        if trials and work.exhausted:
            break
        chain = _new_chain(puzzle, turns, preferred, cancel)
        minkwitz = _Minkwitz(chain, cancel, None, work)
        if quick:  # its budget of 0 ends the trials after this one
            minkwitz.fill_quickly()
        else:
            minkwitz.fill(trial_rounds)
        trials.append((chain.expected_length(), k, minkwitz))
        report(progress, 0.1 + 0.1 * k, f"stabiliser chain: base order {k + 1} gives {trials[-1][0]:.0f} moves")
    minkwitz = min(trials, key=lambda t: t[:2])[2]
    chain = minkwitz.chain
    minkwitz.progress = progress
    if budget > 0:
        minkwitz.improve(max(budget, work.spent + budget / 4))
    report(progress, 1.0, "stabiliser chain ready")
    return chain


def chain_solve(puzzle: Puzzle, perm: Sequence[int] | np.ndarray, *, cancel: CancelToken | None = None,
                progress: ProgressCallback | None = None, improve: float | None = None) -> list[Turn]:
    """Turns bringing the position ``perm`` (a State's perm) to the identity: ``perm[puzzle.perm_of(turns)]``.

    ``improve`` (work units) bounds the table's shortening rounds when the
    chain is not cached yet. Raises :class:`UnreachableError` when ``perm`` is not in the group.
    """
    return sift_solve(build_chain(puzzle, cancel=cancel, progress=progress, improve=improve), perm, cancel=cancel)


QUICK_KEY = "solve.chain.quick"


def quick_chain(puzzle: Puzzle, *, cancel: CancelToken | None = None,
                progress: ProgressCallback | None = None) -> Chain:
    """A quick chain: one base order, a few Minkwitz rounds, the table completed by orbit closure and long fills.

    For the anytime runner's first answer, which needs a complete table, not
    short words (:meth:`_Minkwitz.fill_quickly`; the full chain is built by
    the race that follows). Kept on disk under its own name, so the first
    answer is the same whether or not the full chain is already cached (a
    warm cache loads it in milliseconds).
    """
    def build() -> Chain:
        return _build_chain(puzzle, cancel or CancelToken(), progress, 0.0, 0, quick=True)

    return memo(puzzle, QUICK_KEY, lambda: on_disk(puzzle, QUICK_KEY, build, allowed=(_Entry, Turn), expect=tuple,
                                                   encode=_chain_record, decode=lambda r: _stored_chain(puzzle, r)))


def sift_solve(chain: Chain, perm: Sequence[int] | np.ndarray, *, cancel: CancelToken | None = None) -> list[Turn]:
    """:func:`chain_solve` with a chain at hand."""
    puzzle = chain.puzzle
    perm = np.asarray(perm, dtype=np.intp)
    if perm.shape != (puzzle.n_cells,) or not np.array_equal(np.sort(perm), np.arange(puzzle.n_cells)):
        raise UnreachableError(f"not a position of {puzzle.name!r}: expected a permutation of {puzzle.n_cells} cells")
    words, rest = chain.sift(perm)
    if not np.array_equal(rest, np.arange(rest.size)):
        raise UnreachableError(f"unreachable position: it is not in the group the moves generate "
                               f"({_where_sifting_stops(chain, len(words))})")
    moves = _shortest_sift(chain, perm, cancel)
    if not np.array_equal(perm[puzzle.perm_of(moves)], np.arange(puzzle.n_cells)):
        raise HlavolamyError("internal error: the chain solution failed verification by replay; please report it")
    return moves


def _where_sifting_stops(chain: Chain, level: int) -> str:
    if not chain.base:
        return "the moves move no cell"
    if level == len(chain.base):
        return "it agrees with the group on every base cell but not elsewhere"
    return f"no element of the group takes base cell {chain.base[level]} where it is, level {level + 1} of {len(chain.base)}"


def _shortest_sift(chain: Chain, perm: np.ndarray, cancel: CancelToken | None) -> list[Turn]:
    """The shortest of ``w`` + sift(position after ``w``) over the chain's short prefixes ``w``, both ways.

    Each sift costs one table look-up per level, so trying a few hundred
    prefixes is cheap, and the best of them is much shorter than one sift.
    The inverse position is sifted the same way and its solutions inverted
    (a solution of ``perm⁻¹`` read backwards solves ``perm``): prefixes
    become suffixes, twice the candidates for twice the look-ups.
    """
    return min(shortest_sifts(chain, perm, cancel=cancel), key=chain.puzzle.length)


def shortest_sifts(chain: Chain, perm: np.ndarray, *, levels: int | None = None, count: int = _SIMPLIFIED,
                   cancel: CancelToken | None = None) -> list[list[Turn]]:
    """The ``count`` shortest prefix + sift words for ``perm`` (see :func:`_shortest_sift`), simplified.

    With ``levels`` the sift stops after that many levels, and each word
    brings the base points of those levels home (a partial solution whose
    leftovers another method finishes). Sifting ``perm`` leaves a rest
    ``r`` with ``perm = E r``, and the moves ``E⁻¹`` would only conjugate
    ``r``; so the partial sift runs on the inverse of the position after
    the prefix ``w``: ``(perm w)⁻¹ = E r`` gives ``perm w E = r⁻¹``, which
    fixes the base points, and the solution is ``w`` then the table words
    in sifting order.
    """
    runs: list[tuple[Sifts, bool | None]] = []  # all prefixes sifted at once: forwards, backwards or partly
    stack = chain.prefix_perms()
    if cancel is not None:
        cancel.check()
    if levels is not None:
        runs.append((chain.sift_all(np.argsort(perm[stack], axis=1), levels), None))
    for backwards, position in ((False, perm), (True, np.argsort(perm))) if levels is None else ():
        runs.append((chain.sift_all(position[stack]), backwards))
    prefixes = chain.prefixes()
    prefix_lengths = np.array([len(prefix) for prefix, _ in prefixes])
    lengths = np.concatenate([prefix_lengths + sifts.lengths() for sifts, _ in runs])
    inv = _inverse_index(chain.turns)
    out = []
    for k in np.argsort(lengths, kind="stable")[:count]:  # lengths first, spelled for the best only
        (sifts, backwards), (prefix, _) = runs[k // len(prefixes)], prefixes[k % len(prefixes)]
        out.append(simplify(chain.puzzle, chain.word_turns(_spelled(prefix, sifts.words(k % len(prefixes)),
                                                                    backwards, inv))))
    return out


def _spelled(prefix: Word, words: list[Word], backwards: bool | None, inv: list[int]) -> list[int]:
    """A candidate of :func:`shortest_sifts` as steps: ``prefix`` then the table words in sifting order
    (``backwards`` None), or the sifted words undone (inverted again when the inverse position was sifted)."""
    if backwards is None:
        return list(prefix) + [i for word in words for i in word]
    solution = list(prefix)
    for word in reversed(words):
        solution.extend(inv[i] for i in reversed(word))
    return [inv[i] for i in reversed(solution)] if backwards else solution


# -- building -----------------------------------------------------------------

def _new_chain(puzzle: Puzzle, turns: list[Turn], preferred: list[int], cancel: CancelToken | None = None) -> Chain:
    """An empty table (identity at each base point) for the base Schreier–Sims keeps from ``preferred``."""
    with interruptible(cancel):  # sympy's Schreier–Sims takes no token; a 5x5x5's takes ~30 s
        base, sizes = _base_and_orbits(puzzle, preferred)
    _check_size(puzzle, sizes)
    chain = Chain(puzzle, turns, base, sizes, [{} for _ in base])
    identity = np.arange(puzzle.n_cells, dtype=np.intp)
    for point, table in zip(base, chain.levels):
        table[point] = _Entry(identity, identity, (), ())
    return chain


def _moving_generators(puzzle: Puzzle) -> np.ndarray:
    """The moves that move something, as rows of an array (read as images: the same group)."""
    identity = np.arange(puzzle.n_cells)
    moving = [np.asarray(m) for m in puzzle.moves.values() if not np.array_equal(m, identity)]
    return np.stack(moving) if moving else np.zeros((0, puzzle.n_cells), dtype=np.intp)


def _sympy_group(puzzle: Puzzle):
    from sympy.combinatorics import Permutation, PermutationGroup

    moving = _moving_generators(puzzle)
    return PermutationGroup([Permutation(m.tolist()) for m in moving]) if len(moving) else None


def _base_and_orbits(puzzle: Puzzle, preferred: list[int]) -> tuple[list[int], list[int]]:
    """The basic orbits of the base ``preferred`` (every moved cell, :func:`_candidate_bases`); points with a
    trivial basic orbit dropped.

    The basic orbits of a given base are the group's, whatever the strong
    generators: randomized Schreier–Sims (seeded, on arrays:
    :func:`~hlavolamy.analysis.schreier_sims.basic_orbits`) finds them in a
    fraction of the deterministic one's time, and reaching the structural
    upper bound of the order proves its chain complete. Short of it, after
    :data:`_RANDOM_PATIENCE` tries, sympy's deterministic algorithm decides (a
    4x4x4: 1.5 s of CPU, a 5x5x5 23 s; the randomized one on arrays 0.05 and 0.1 s).
    """
    gens = _moving_generators(puzzle)
    if not len(gens):
        return [], []
    bound, _ = structural_order(puzzle)
    for patience in _RANDOM_PATIENCE:
        basic = basic_orbits(gens, preferred, patience)
        if prod(o.size for o in basic) == bound:
            keep = [i for i, o in enumerate(basic) if o.size > 1]
            return [int(preferred[i]) for i in keep], [int(basic[i].size) for i in keep]
    return _deterministic_base_and_orbits(puzzle, preferred)


def _deterministic_base_and_orbits(puzzle: Puzzle, preferred: list[int]) -> tuple[list[int], list[int]]:
    """:func:`_base_and_orbits` by sympy's deterministic Schreier–Sims."""
    from sympy.combinatorics.util import _distribute_gens_by_base, _orbits_transversals_from_bsgs

    base, strong = _sympy_group(puzzle).schreier_sims_incremental(base=preferred)
    basic = _orbits_transversals_from_bsgs(base, _distribute_gens_by_base(base, strong), transversals_only=False)[0]
    keep = [i for i, o in enumerate(basic) if len(o) > 1]
    return [int(base[i]) for i in keep], [len(basic[i]) for i in keep]


def _candidate_bases(puzzle: Puzzle) -> list[list[int]]:
    """Base orders worth a trial: orbits smallest or largest first, each orbit's cells forwards or backwards.

    Which is best depends on the puzzle (on the 3x3x3, edges before corners
    saves about 25 moves per solve), so :func:`build_chain` tries them all.
    """
    moved = sorted((list(o) for o in orbits(puzzle)), key=lambda o: (len(o), o[0]))
    if not moved:
        return [[]]
    orders = list(itertools.permutations(moved)) if len(moved) <= 2 else [moved, moved[::-1]]
    out = []
    for ordered in orders:
        for backwards in (False, True):
            cells = [c for o in ordered for c in (reversed(o) if backwards else o)]
            if cells not in out:
                out.append(cells)
    return out


def _check_moved_cells(puzzle: Puzzle) -> None:
    moved = np.zeros(puzzle.n_cells, dtype=bool)
    for m in puzzle.moves.values():
        moved |= np.asarray(m) != np.arange(puzzle.n_cells)
    if int(moved.sum()) > MAX_MOVED_CELLS:
        raise ChainTooLarge(f"{puzzle.name!r} is too large for the chain solver: its moves move {int(moved.sum())} "
                            f"cells (limit {MAX_MOVED_CELLS})")


def _check_size(puzzle: Puzzle, sizes: list[int]) -> None:
    need = 2 * sum(sizes) * puzzle.n_cells * np.dtype(np.intp).itemsize
    if need > MAX_TABLE_BYTES:
        raise ChainTooLarge(f"{puzzle.name!r} is too large for the chain solver: {len(sizes)} base points with "
                            f"{sum(sizes)} table entries of {puzzle.n_cells} cells need about {need // 2**20} MiB "
                            f"(limit {MAX_TABLE_BYTES // 2**20} MiB)")


def _inverse_index(turns: list[Turn]) -> list[int]:
    """For each single step, the index of its inverse step."""
    index = {t: i for i, t in enumerate(turns)}
    return [index.get(Turn(t.move, -t.power), i) for i, t in enumerate(turns)]


class _Minkwitz:
    """Fills a chain's tables by sifting with replacement, then shortens them in rounds."""

    def __init__(self, chain: Chain, cancel: CancelToken, progress: ProgressCallback | None, work: Work | None = None):
        self.chain = chain
        self.work = work or Work()
        self.step_units = _INSERT_UNITS + 4 * chain.puzzle.n_cells
        self.cancel = cancel
        self.progress = progress
        self.inv = _inverse_index(chain.turns)
        self.rng = random.Random(0)
        self.limit = 0
        self.gen_perms = [np.asarray(chain.puzzle.turn_perm(t), dtype=np.intp) for t in chain.turns]
        self.identity = np.arange(chain.puzzle.n_cells, dtype=np.intp)

    def fill(self, rounds: int) -> None:
        """Sift short generator words, then run rounds until the table is complete and ``rounds`` more."""
        if not self.chain.base:
            return
        self.insert_short_words()
        while not self.chain.complete:
            self.step()
        for _ in range(rounds):
            self.step()

    def insert_short_words(self) -> None:
        """Sift the shortest words of the steps; the length limit starts at twice the longest."""
        words = short_words(self.chain.puzzle, 64, limit=_SHORT_WORDS, cancel=self.cancel)
        self.limit = 2 * max((len(w.turns) for w in words), default=1) + 2
        for w in words:
            self.cancel.check()
            self.insert(np.asarray(w.perm, dtype=np.intp), self.encode(w.turns))

    def fill_quickly(self) -> None:
        """Sift short words, run rounds until :data:`_QUICK_MISSING` of the entries are missing, then complete the
        table without waiting for luck.

        Rounds fill most entries at once, but the last few wait for a random
        product whose residue is short enough for the growing length limit
        (the 4x4x4: 0.2 s for 641 of 701 entries, 1.7 s more for the last 60).
        Instead each missing entry is reached by :meth:`close` where its
        level's elements move the base point there, else filled by
        :meth:`fill_long` with a long word; a pass that fills nothing runs a
        round instead, so the table always completes.
        """
        if not self.chain.base:
            return
        self.insert_short_words()
        while self.missing() > _QUICK_MISSING * sum(self.chain.orbit_sizes):
            self.step()
        cap = _LONG_FILL * self.limit
        while not self.chain.complete:
            before = self.missing()
            self.close()
            if not self.chain.complete:
                self.fill_long(cap)
            if self.missing() == before:
                self.step()
                cap *= 2

    def missing(self) -> int:
        """Table entries still to be found."""
        return sum(self.chain.orbit_sizes) - sum(len(t) for t in self.chain.levels)

    def close(self) -> None:
        """Fill each level's missing entries by an orbit walk from its filled points, shortest words first.

        The entries of a level and of the levels below, and their inverses,
        all fix the earlier base points; so do the puzzle's steps on the
        first level. A product ``g e`` of such an element with an entry ``e``
        for point ``q`` is an entry for ``g(q)``, and Dijkstra over the points
        (one column of the stacked permutations per point) finds the shortest
        such words.
        """
        chain = self.chain
        rows, words, depth = [], [], []
        for i in reversed(range(len(chain.levels))):
            for e in chain.levels[i].values():
                if e.word:
                    rows += [e.perm, e.inverse]
                    words += [e.word, e.inverse_word]
                    depth += [i, i]
        rows += self.gen_perms
        words += [(g,) for g in range(len(self.gen_perms))]
        stack, lengths, depths = np.stack(rows), np.array([len(w) for w in words]), np.array(depth)
        for i, table in enumerate(chain.levels):  # the rows deepest first: a level's elements are a prefix
            if len(table) < chain.orbit_sizes[i]:
                count = len(rows) if i == 0 else int(np.count_nonzero(depths >= i))
                self._walk(table, stack[:count], lengths[:count], words)

    def _walk(self, table: dict[int, _Entry], stack: np.ndarray, lengths: np.ndarray, words: list[Word]) -> None:
        """Dijkstra from the table's points by the elements ``stack`` (rows), filling the points it reaches."""
        dist = {q: len(e.word) for q, e in table.items()}
        heap = [(d, q) for q, d in dist.items()]
        heapq.heapify(heap)
        parent: dict[int, tuple[int, int]] = {}
        done: set[int] = set()
        while heap:
            d, q = heapq.heappop(heap)
            if q in done:
                continue
            done.add(q)
            if q not in table:
                g, source = parent[q]
                entry = table[source]
                self.put(table, q, stack[g][entry.perm], self.join(words[g], entry.word))
            reach = d + lengths
            order = np.argsort(reach, kind="stable")
            points, first = np.unique(stack[order, q], return_index=True)
            for point, g in zip(points.tolist(), order[first].tolist()):
                if point not in done and reach[g] < dist.get(point, reach[g] + 1):
                    dist[point], parent[point] = int(reach[g]), (g, q)
                    heapq.heappush(heap, (int(reach[g]), point))

    def fill_long(self, cap: int) -> None:
        """Products of two entries within the length limit, sifted all the way: a residue fills the first missing
        entry it meets if its word has at most ``cap`` steps (it replaces nothing)."""
        entries = [e for t in self.chain.levels for e in t.values() if e.word and len(e.word) <= self.limit]
        for a in entries:
            self.cancel.check()
            b = entries[self.rng.randrange(len(entries))]
            perm, word = a.perm[b.perm], self.join(a.word, b.word)
            for point, table in zip(self.chain.base, self.chain.levels):
                if not word:
                    break
                entry = table.get(perm.item(point))
                if entry is None:
                    if len(word) <= cap:
                        self.put(table, perm.item(point), perm, word)
                    break
                perm, word = entry.inverse[perm], self.join(entry.inverse_word, word)
            if self.chain.complete:
                return

    def put(self, table: dict[int, _Entry], point: int, perm: np.ndarray, word: Word) -> None:
        """A new entry for ``point``, with its inverse."""
        inverse = np.empty_like(perm)
        inverse[perm] = self.identity
        table[point] = _Entry(perm, inverse, word, self.invert(word))

    def improve(self, stop: float) -> None:
        """More rounds, until the work spent passes ``stop`` units or a run of rounds changes nothing."""
        quiet = 0
        while self.chain.base and not self.work.over(stop) and quiet < _QUIET_ROUNDS:
            before = self.chain.expected_length()
            self.step()
            quiet = quiet + 1 if self.chain.expected_length() >= before else 0

    def step(self) -> None:
        """One round; the length limit grows while the table is incomplete, then it is the longest entry."""
        self.cancel.check()
        self.round()
        self.report()
        if self.chain.complete:
            self.limit = max(len(e.word) for t in self.chain.levels for e in t.values())
        else:
            self.limit += max(1, self.limit // 8)

    def encode(self, turns: Sequence[Turn]) -> Word:
        index = {t: i for i, t in enumerate(self.chain.turns)}
        return tuple(index[t] for t in turns)

    def invert(self, word: Word) -> Word:
        return tuple(self.inv[i] for i in reversed(word))

    def join(self, first: Word, second: Word) -> Word:
        """``first`` then ``second``, with the steps that cancel at the seam removed (both are reduced)."""
        inv = self.inv
        if not first or not second or inv[first[-1]] != second[0]:
            return first + second  # the usual case: nothing cancels
        k, most = 1, min(len(first), len(second))
        while k < most and inv[first[-1 - k]] == second[k]:
            k += 1
        return first[:len(first) - k] + second[k:]

    def report(self) -> None:
        filled = sum(len(t) for t in self.chain.levels)
        total = sum(self.chain.orbit_sizes)
        report(self.progress, 0.05 + 0.9 * filled / total,
               f"stabiliser chain: {filled}/{total} entries, about {self.chain.expected_length():.0f} moves a solve")

    def round(self) -> None:
        """Products of table entries with entries and with single steps, and inverses, sifted through the table."""
        levels = self.chain.levels
        entries = [[e for e in t.values() if e.word] for t in levels]
        everything = [e for row in entries for e in row]
        for row in entries:
            for a in row:
                self.cancel.check()
                b = everything[self.rng.randrange(len(everything))]
                self.insert(a.perm[b.perm], self.join(a.word, b.word))
                self.insert(b.perm[a.perm], self.join(b.word, a.word))
                self.insert(a.inverse, a.inverse_word)
                for g in self.rng.sample(range(len(self.gen_perms)), min(_STEPS_PER_ENTRY, len(self.gen_perms))):
                    self.insert(a.perm[self.gen_perms[g]], self.join(a.word, (g,)))

    def insert(self, perm: np.ndarray, word: Word) -> None:
        """Minkwitz's sift with replacement: a shorter word displaces a longer one, which sifts on.

        ``word`` must be freely reduced. Words longer than the current limit are
        dropped; the limit grows every round, so the table still completes.
        """
        # the hot loop of the build: locals, the seam test of join inlined, one spend at the end. A level whose
        # base point the residue fixes meets its identity entry (never replaced: no word is shorter), which
        # changes nothing, so it is passed without a product: the same table, faster (fill and 2e9 units of
        # rounds: 3x3x3 0.78 -> 0.49 s, gears57 0.74 -> 0.51 s; the gigaminx quotient's quick fill 2.7 -> 1.0 s)
        steps, limit, inv = 0, self.limit, self.inv
        for point, table in zip(self.chain.base, self.chain.levels):
            if len(word) > limit or not word:
                break
            steps += 1
            image = perm.item(point)
            if image == point:
                continue
            entry = table.get(image)
            if entry is None or len(word) < len(entry.word):
                inverse = np.empty_like(perm)
                inverse[perm] = self.identity
                table[image] = _Entry(perm, inverse, word, self.invert(word))
                if entry is None:
                    break
                perm, word = entry.perm, entry.word
                entry = table[image]
            perm = entry.inverse[perm]
            undo = entry.inverse_word
            word = undo + word if not word or inv[undo[-1]] != word[0] else self.join(undo, word)
        self.work.spend(steps * self.step_units)

"""Analysis results shared by every puzzle with the same moves.

Orbits, pieces, invariants and the stabiliser chain depend on the moves
only, not on the colours: the Santa 2023 cases build a new puzzle per case
(its own target colours) over one set of moves, and must not redo a
Schreier–Sims each. Results live in the puzzle's :class:`AnalysisCache`
(``analysis_cache(puzzle).memo``) and, keyed by a hash of the moves, in a
small process-wide table. The solver's expensive tables
also go to the disk cache (:mod:`hlavolamy.core.diskcache`) under the same
hash, so new processes and later runs load them instead of rebuilding.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from hlavolamy.core import diskcache
from hlavolamy.core.puzzle import Puzzle

if TYPE_CHECKING:
    from hlavolamy.analysis import Analysis
    from hlavolamy.analysis.blocking import ShapeGraph, Stabiliser
    from hlavolamy.analysis.commutators import LibrarySearch, Macro

SHARED_LIMIT = 64
"""Most results kept across puzzles (least recently used dropped first)."""

T = TypeVar("T")
log = logging.getLogger(__name__)
_shared: OrderedDict[tuple[str, str], Any] = OrderedDict()
_lock = threading.Lock()


@dataclass
class AnalysisCache:
    """What the analysis layer computed for one puzzle (``analysis_cache(puzzle)``), a field per result.

    Each field belongs to the module that fills it; None means not computed yet.
    """

    moves_key: str | None = None
    """:func:`moves_key`."""
    memo: dict[str, Any] = field(default_factory=dict)
    """:func:`memo`'s results by their name: the ones shared by every puzzle with the same moves
    (pieces, invariants, group order, stabiliser chain, and the solver's tables built through it)."""
    analysis: Analysis | None = None
    """The report of :func:`hlavolamy.analysis.analyse`."""
    shape_graph: ShapeGraph | None = None
    """:func:`hlavolamy.analysis.blocking.shape_graph`."""
    stabiliser: Stabiliser | None = None
    """:func:`hlavolamy.analysis.blocking.stabiliser`."""
    near_solved: dict[bytes, tuple[bytes, int]] | None = None
    """:func:`hlavolamy.analysis.blocking.near_solved`."""
    library: list[Macro] | None = None
    """The macro library of :mod:`hlavolamy.analysis.commutators` (within its budget)."""
    complete_library: list[Macro] | None = None
    """The same when the search covered every piece orbit (it also answers for :attr:`library`)."""
    library_search: LibrarySearch | None = None
    """The library's search while it is under way (a quick library taken, the complete one not yet)."""


def analysis_cache(puzzle: Puzzle) -> AnalysisCache:
    """The analysis layer's cache on ``puzzle`` (made empty on first use)."""
    return puzzle.layer_cache(AnalysisCache)


def moves_key(puzzle: Puzzle) -> str:
    """A hash of the move names and permutations."""
    cache = analysis_cache(puzzle)
    key = cache.moves_key
    if key is None:
        h = hashlib.sha1()
        for name, m in puzzle.moves.items():
            h.update(name.encode() + b"\0" + m.tobytes())
        key = cache.moves_key = h.hexdigest()
    return key


def memo(puzzle: Puzzle, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per set of moves; kept under ``name`` in ``analysis_cache(puzzle).memo`` too."""
    held = analysis_cache(puzzle).memo
    if name in held:
        return held[name]
    key = (moves_key(puzzle), name)
    with _lock:
        found = key in _shared
        if found:
            _shared.move_to_end(key)
            value = _shared[key]
    if not found:
        value = compute()
        with _lock:
            _shared[key] = value
            while len(_shared) > SHARED_LIMIT:
                _shared.popitem(last=False)
    held[name] = value
    return value


def from_disk(puzzle: Puzzle, name: str, *, allowed: Iterable[type], expect: type[T]) -> T | None:
    """The result ``name`` for ``puzzle``'s moves from the disk cache, or None (building only ``allowed`` classes)."""
    return diskcache.load(moves_key(puzzle), name, allowed, expect)


def to_disk(puzzle: Puzzle, name: str, value: object) -> None:
    """Keep ``value`` (which must not hold the puzzle: colours differ between users of an entry) on disk."""
    diskcache.save(moves_key(puzzle), name, value, label=puzzle.name)


def on_disk(puzzle: Puzzle, name: str, compute: Callable[[], T], *, allowed: Iterable[type], expect: type,
            encode: Callable[[T], object] | None = None, decode: Callable[[Any], T] | None = None) -> T:
    """``compute()`` unless the disk cache has ``name`` for these moves; a computed result is saved.

    ``encode`` turns the result into what is stored (without the puzzle),
    ``decode`` back (re-attaching this puzzle: the key guarantees the same
    moves); both default to storing the result as it is.
    """
    stored = from_disk(puzzle, name, allowed=allowed, expect=expect)
    if stored is not None:
        try:
            return decode(stored) if decode is not None else stored
        except (TypeError, ValueError) as exc:
            log.debug("disk cache: ignoring a malformed %s: %s", name, exc)
    value = compute()
    to_disk(puzzle, name, encode(value) if encode is not None else value)
    return value


def forget_shared() -> None:
    """Empty the process-wide table, and use no disk entry written before now (the puzzles' own caches are untouched).

    For tests that change limits and for timing from scratch: results
    computed earlier, perhaps under other limits, must not come back.
    """
    with _lock:
        _shared.clear()
    diskcache.forget()

"""Analysis results shared by every puzzle with the same moves.

Orbits, pieces, invariants and the stabiliser chain depend on the moves
only, not on the colours: the Santa 2023 cases build a new puzzle per case
(its own target colours) over one set of moves, and must not redo a
Schreier–Sims each. Results live in ``puzzle.cache`` and, keyed by a hash
of the moves, in a small process-wide table.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from hlavolamy.core.puzzle import Puzzle

SHARED_LIMIT = 64
"""Most results kept across puzzles (least recently used dropped first)."""

T = TypeVar("T")
_shared: OrderedDict[tuple[str, str], Any] = OrderedDict()
_lock = threading.Lock()


def moves_key(puzzle: Puzzle) -> str:
    """A hash of the move names and permutations."""
    key = puzzle.cache.get("analysis.moves_key")
    if key is None:
        h = hashlib.sha1()
        for name, m in puzzle.moves.items():
            h.update(name.encode() + b"\0" + m.tobytes())
        key = puzzle.cache["analysis.moves_key"] = h.hexdigest()
    return key


def memo(puzzle: Puzzle, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per set of moves; stored under ``name`` in ``puzzle.cache`` too."""
    if name in puzzle.cache:
        return puzzle.cache[name]
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
    puzzle.cache[name] = value
    return value


def forget_shared() -> None:
    """Empty the process-wide table (tests that change limits; ``puzzle.cache`` is untouched)."""
    with _lock:
        _shared.clear()

"""Hlavolamy: design, play and solve permutation puzzles.

The library's entry points::

    from hlavolamy import Puzzle, State, load_puzzle
    puzzle = load_puzzle("puzzles/rubik3.json").puzzle
    state = State.solved(puzzle).apply("R U R' U'")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hlavolamy.core.fileformat import load_puzzle
    from hlavolamy.core.puzzle import Puzzle
    from hlavolamy.core.state import State
    from hlavolamy.core.turns import Turn

__version__ = "0.1.0"

__all__ = ["Puzzle", "State", "Turn", "__version__", "load_puzzle"]

_LAZY = {"load_puzzle": "hlavolamy.core.fileformat", "Puzzle": "hlavolamy.core.puzzle", "State": "hlavolamy.core.state", "Turn": "hlavolamy.core.turns"}
"""Imported on first use, so ``hlavolamy --help`` (which imports this package) does not load numpy."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'hlavolamy' has no attribute {name!r}")

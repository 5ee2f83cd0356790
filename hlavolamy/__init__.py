"""Hlavolamy: design, play and solve permutation puzzles.

The library's entry points::

    from hlavolamy import Puzzle, State, load_puzzle
    puzzle = load_puzzle("puzzles/rubik3.json").puzzle
    state = State.solved(puzzle).apply("R U R' U'")
"""

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn

__version__ = "0.1.0"

__all__ = ["Puzzle", "State", "Turn", "__version__"]

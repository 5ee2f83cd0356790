"""Exceptions the host raises for bad input.

Every error a user can cause derives from :class:`HlavolamyError`, so the CLI
and the GUI can show its message (never a traceback) and exit or carry on.
"""

from __future__ import annotations


class HlavolamyError(Exception):
    """Base of all user-facing errors: the message says what and where."""


class PermutationError(HlavolamyError, ValueError):
    """A move or state is not a permutation of ``0..n-1``."""


class PuzzleError(HlavolamyError, ValueError):
    """A puzzle definition is inconsistent (colours, moves, blockings).

    ``location`` says where, as keys and indices into the :class:`Puzzle`
    arguments (``("blockings", 1, 0)``: the first cell of the second blocking),
    which are also the keys of a puzzle file; ``detail`` is the problem worded
    for a reader who is shown that place separately (the file loader turns the
    location into a JSON pointer). Without a location the message says it all.
    """

    def __init__(self, message: str, location: tuple[str | int, ...] = (), detail: str | None = None):
        self.location = location
        self.detail = message if detail is None else detail
        super().__init__(message)


class NotationError(HlavolamyError, ValueError):
    """A move sequence could not be parsed; ``column`` is 1-based."""

    def __init__(self, message: str, text: str = "", column: int | None = None):
        self.text = text
        self.column = column
        where = f" at column {column}" if column is not None else ""
        super().__init__(f"{message}{where}" + (f": {text!r}" if text else ""))


class FileFormatError(HlavolamyError, ValueError):
    """A puzzle file is malformed; names the file and the JSON path."""

    def __init__(self, message: str, path: str | None = None, pointer: str = ""):
        self.path = path
        self.pointer = pointer
        where = ", ".join(p for p in (str(path) if path else "", pointer) if p)
        super().__init__(f"{where}: {message}" if where else message)


class UnreachableError(HlavolamyError):
    """A position cannot be reached from the solved state; says why."""


class IllegalMoveError(HlavolamyError):
    """A move is blocked in the current position (bandaged puzzles)."""


class StrategyFailed(HlavolamyError):
    """A solving strategy cannot finish this position (too big, stuck, out of its own budget).

    Not a verdict on the position: ``auto`` catches it and tries the next
    strategy. See :mod:`hlavolamy.solve.registry`.
    """


class Cancelled(HlavolamyError):
    """Long work was cancelled by the user."""

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
        super().__init__(f"{message}{where}" + (f": {_excerpt(text, column)!r}" if text else ""))


QUOTED_LIMIT = 60
"""Most characters of user input a message quotes (a 10-million-character move name must not fill the line)."""


def cut(text: str, limit: int = QUOTED_LIMIT, unit: str = "characters") -> str:
    """``text`` for a message: whole when short, else its start, '...' and its length in ``unit``."""
    if len(text) <= limit:
        return text
    return f"{text[:max(limit - 18, 8)]}... ({len(text)} {unit})"


def quoted(value: object, limit: int = QUOTED_LIMIT) -> str:
    """How every message quotes user input: ``repr`` for a short value, a cut one for a long value.

    A long string is cut before ``repr`` runs, so quoting costs nothing
    whatever the input's size.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:max(limit - 18, 8)]!r}... ({len(value)} characters)"
    if isinstance(value, int) and value.bit_length() > 1000:  # Python will not print over 4,300 digits
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


_EXCERPT = 40
"""Characters of a long text shown on each side of the error's column."""


def _excerpt(text: str, column: int | None) -> str:
    """The text, or for a long one the part around ``column`` with '...' for what is left out."""
    if len(text) <= 3 * _EXCERPT:
        return text
    centre = (column or 1) - 1
    start, end = max(0, centre - _EXCERPT), min(len(text), centre + _EXCERPT)
    return ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")


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

"""Size limits on what is read from other tools' files (docs/formats.md, "Limits").

A file may ask for any size in a few bytes (``(1,1000000000)`` in GAP,
``Set A 8 1000000`` in ksolve): past these limits it is refused with a clear
message before anything that large is allocated. The sequence limits of the
notation (:data:`hlavolamy.core.notation.MAX_TURNS`, ``MAX_POWER``) apply
to move sequences read from files too.
"""

from __future__ import annotations

import math

from hlavolamy.errors import FileFormatError

MAX_CELLS = 1_000_000
"""Most cells a puzzle read from a file may have (a 100x100x100 cube has 60,000)."""

MAX_MOVE_ENTRIES = 20_000_000
"""Most cells times moves (the size of the move table; about 160 MB while it is built)."""

MAX_ORIENTATIONS = 1000
"""Most orientations a piece of a KPuzzle or ksolve orbit may have (each one is a cell)."""

MAX_NESTING = 100
"""Most brackets open at once in a move sequence read from a file (SiGN): deeper is a mistake, not a sequence."""


def check_size(cells: int, moves: int, source: str | None = None, pointer: str = "") -> None:
    """Refuse a puzzle of ``cells`` cells and ``moves`` moves that is over the limits."""
    if cells > MAX_CELLS:
        raise FileFormatError(f"{cells} cells is more than the {MAX_CELLS:,} a puzzle may have", source, pointer)
    if cells * moves > MAX_MOVE_ENTRIES:
        raise FileFormatError(f"{moves} moves of {cells} cells is more than the {MAX_MOVE_ENTRIES:,} "
                              "cells times moves a puzzle may have", source, pointer)


def check_digits(text: str, limit: int, what: str, source: str | None = None, pointer: str = "") -> int:
    """The integer written in decimal ``text`` (digits only), refused above ``limit`` before
    it is converted (Python refuses to convert more than 4300 digits at all)."""
    value = bounded(text, limit)
    if value is None:
        raise FileFormatError(f"{what} {shown(text)} is more than {limit:,}", source, pointer)
    return value


def bounded(digits: str, limit: int) -> int | None:
    """The value of decimal ``digits`` if it is at most ``limit``, else None (a huge one is never converted)."""
    value = digits.lstrip("0") or "0"
    return int(value) if len(value) <= len(str(limit)) and int(value) <= limit else None


def shown(number: str | int) -> str:
    """A number as an error message shows it: a long one cut short, with its length."""
    if isinstance(number, int) and abs(number) >= 10**30:
        return f"{'-' if number < 0 else ''}about 10^{abs(number).bit_length() * math.log10(2):.0f}"
    text = str(number)
    return text if len(text) <= 30 else f"{text[:12]}... ({len(text)} digits)"

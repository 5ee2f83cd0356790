"""The importers' own size limits and the checks that refuse a file past them (docs/formats.md, "Limits").

A file may ask for any size in a few bytes (``(1,1000000000)`` in GAP,
``Set A 8 1000000`` in ksolve): past these limits it is refused with a
:class:`FileFormatError` before anything that large is allocated. The limits
every reader shares (cells, turns, powers, nesting) are in
:mod:`hlavolamy.core.limits`.
"""

from __future__ import annotations

import math

from hlavolamy.core.limits import MAX_CELLS, int_within
from hlavolamy.errors import FileFormatError, cut

MAX_MOVE_ENTRIES = 20_000_000
"""Most cells times moves of an imported puzzle (the move table; about 160 MB while it is built)."""

MAX_ORIENTATIONS = 1000
"""Most orientations a piece of a KPuzzle or ksolve orbit may have (each one is a cell)."""


def check_size(cells: int, moves: int, source: str | None = None, pointer: str = "") -> None:
    """Refuse a puzzle of ``cells`` cells and ``moves`` moves that is over the limits."""
    if cells > MAX_CELLS:
        raise FileFormatError(f"{cells} cells is more than the {MAX_CELLS:,} a puzzle may have", source, pointer)
    if cells * moves > MAX_MOVE_ENTRIES:
        raise FileFormatError(f"{moves} moves of {cells} cells is more than the {MAX_MOVE_ENTRIES:,} "
                              "cells times moves a puzzle may have", source, pointer)


def check_digits(text: str, limit: int, what: str, source: str | None = None, pointer: str = "") -> int:
    """The integer written in decimal ``text``, refused above ``limit`` before it is converted."""
    value = int_within(text, limit)
    if value is None:
        raise FileFormatError(f"{what} {shown(text)} is more than {limit:,}", source, pointer)
    return value


def shown(number: str | int) -> str:
    """A number as an error message shows it: a long one cut short, with its length."""
    if isinstance(number, int) and abs(number) >= 10**30:
        return f"{'-' if number < 0 else ''}about 10^{abs(number).bit_length() * math.log10(2):.0f}"
    return cut(str(number), 30, "digits")

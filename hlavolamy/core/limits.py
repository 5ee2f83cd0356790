"""The limits on input sizes, in one place, and the cheap checks that enforce them.

Every reader (puzzle files, notation, state arguments, the importers in
:mod:`hlavolamy.formats`) refuses input beyond these bounds with a clear
error before it does any work proportional to the request: a typo such as
``(R U)4294967296`` or ``--scramble 100000000`` must fail at once, not run
out of memory or time. Each limit is far above any real puzzle (the largest
shipped or Santa puzzle has 6,534 cells; a 100x100x100 cube has 60,000).
The list with the reasons is ``docs/limits.md``.

>>> int_within("1000000", MAX_TURNS), int_within("1000001", MAX_TURNS), int_within("9" * 5000, MAX_TURNS)
(1000000, None, None)
>>> json_too_deep("[[[1]]]", 2)
2
"""

from __future__ import annotations

import re

MAX_TURNS = 1_000_000
"""Most turns a move sequence may expand to (notation, histories, scrambles, imported sequences)."""

MAX_POWER = MAX_TURNS
"""Largest power written in notation (``R1000000``); more is a typo, not a sequence."""

MAX_NESTING = 100
"""Deepest bracket nesting in notation (groups, commutators, conjugates)."""

MAX_JSON_DEPTH = 100
"""Deepest nesting of lists and objects in a JSON input (a puzzle file needs 3)."""

MAX_INT_DIGITS = 18
"""Most decimal digits of an integer in an input (so every integer fits 64 bits)."""

MAX_CELLS = 1_000_000
"""Most cells of a puzzle (a move of that many cells is 4 MB)."""

MAX_SCRAMBLE = MAX_TURNS
"""Longest random scramble (``scramble --moves``, ``solve --scramble``)."""

MAX_FILE_BYTES = 64 * 2**20
"""Largest text file read (puzzle files, every import format, standard input): 64 MiB.

The largest Santa 2023 puzzle's file is about 5 MB and a 50x50x50 cube's
about 32 MB; past this the input is refused before it is held whole, so
``/dev/zero`` or an endless pipe cannot take the memory.
"""


def int_within(digits: str, maximum: int) -> int | None:
    """The value of a decimal digit string if it is at most ``maximum``, else None.

    Converts no more digits than ``maximum`` has, so a 5,000-digit number
    costs nothing (Python refuses to convert over 4,300 digits at all).
    """
    digits = digits.lstrip("0") or "0"
    if not digits.isdigit() or not digits.isascii() or len(digits) > len(str(maximum)):
        return None
    value = int(digits)
    return value if value <= maximum else None


_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
"""A JSON string (skipped: brackets inside it do not nest) or a bracket."""


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> int | None:
    """The 0-based offset of the first bracket nested deeper than ``limit`` in JSON text, or None.

    A linear scan without recursion, run before decoding: Python's decoder
    raises RecursionError at about a thousand levels, and deeply nested
    values would break every recursive step after it (printing, saving).
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        ch = token.group()
        if ch in "[{":
            depth += 1
            if depth > limit:
                return token.start()
        elif ch in "]}":
            depth -= 1
    return None

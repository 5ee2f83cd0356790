"""Reading and writing text files for the interchange formats, with line-numbered errors.

Reading is the puzzle files' own :func:`~hlavolamy.core.fileformat.read_text`, so every
format reports a missing or non-UTF-8 file the same way.
"""

from __future__ import annotations

from pathlib import Path

from hlavolamy.core.fileformat import read_text, write_atomic
from hlavolamy.errors import FileFormatError

__all__ = ["at", "error", "read_text", "write_text"]


def write_text(path: str | Path, text: str) -> None:
    """Write atomically (temporary file, then rename), as puzzle files are."""
    write_atomic(Path(path), text)


def at(line: int, column: int | None = None) -> str:
    """The ``pointer`` of a :class:`FileFormatError` for a text position (1-based)."""
    return f"line {line}" + (f", column {column}" if column is not None else "")


def error(message: str, path: str | Path | None, line: int, column: int | None = None) -> FileFormatError:
    return FileFormatError(message, str(path) if path is not None else None, at(line, column))

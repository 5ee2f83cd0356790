"""Reading and writing text files for the interchange formats, with line-numbered errors."""

from __future__ import annotations

from pathlib import Path

from hlavolamy.core.fileformat import write_atomic
from hlavolamy.errors import FileFormatError


def read_text(path: str | Path) -> str:
    """The file's text; a clear error for a missing or non-UTF-8 file."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise FileFormatError(f"cannot read the file: {exc.strerror or exc}", str(path)) from None
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not UTF-8 text (byte {exc.start})", str(path)) from None


def write_text(path: str | Path, text: str) -> None:
    """Write atomically (temporary file, then rename), as puzzle files are."""
    write_atomic(Path(path), text)


def at(line: int, column: int | None = None) -> str:
    """The ``pointer`` of a :class:`FileFormatError` for a text position (1-based)."""
    return f"line {line}" + (f", column {column}" if column is not None else "")


def error(message: str, path: str | Path | None, line: int, column: int | None = None) -> FileFormatError:
    return FileFormatError(message, str(path) if path is not None else None, at(line, column))

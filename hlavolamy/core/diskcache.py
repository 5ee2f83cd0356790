"""A persistent cache of computed tables on disk, shared by processes and runs.

The solver's tables (stabiliser chain, macro library, conjugate tables) take
seconds to minutes to build and depend only on a puzzle's moves, so a fresh
process should not rebuild them. Each entry is one file
``<name>-<key>.pickle`` in :func:`cache_dir`; ``key`` says which moves (the
caller's hash), ``name`` which table. A file starts with a header: a magic
line, then one JSON line with the :func:`version_tag` of the code that wrote
it, the payload's length and CRC-32, and a label for people (the puzzle's
name). The payload is a pickle read back by :class:`SafeUnpickler`, which
builds nothing but numpy arrays and the classes the caller names, so a
planted file cannot run code.

Failures never stop a solve: a missing, truncated, corrupt, foreign or
other-version file reads as missing (logged at debug) and is rebuilt and
overwritten by the caller; a failed write is logged and forgotten. A cache
folder that cannot be used at all (``HLAVOLAMY_CACHE_DIR`` naming a file,
or a folder that cannot be written) is warned about once per process, and
``hlavolamy cache`` says why (:func:`unusable`). Writes go
to a temporary file first and are moved into place with :func:`os.replace`,
so processes writing the same entry at once (the Santa runner's workers)
leave one whole file. After each write the least recently used files are
dropped until the cache fits :func:`size_limit`.

Environment: ``HLAVOLAMY_CACHE_DIR`` (a directory, or ``off`` to disable the
cache) and ``HLAVOLAMY_CACHE_MAX_MB`` (the size limit, default 1024).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import math
import os
import pickle
import re
import sys
import tempfile
import time
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hlavolamy.core.limits import json_too_deep
from hlavolamy.errors import quoted

log = logging.getLogger(__name__)

FORMAT = 1
"""Bump when the layout of a file or of a stored record changes."""
DISABLED = "off"
"""The value of ``HLAVOLAMY_CACHE_DIR`` that turns the cache off."""
DEFAULT_LIMIT_MB = 1024
SUFFIX = ".pickle"
_MAGIC = b"hlavolamy-cache\n"
_SOURCE_PACKAGES = ("core", "analysis", "solve")
"""Subpackages whose source goes into :func:`version_tag`: the code that builds the tables."""
_NARROW_MIN = 1024
"""Integer arrays of at least this many elements are stored in the narrowest dtype that holds them."""
_STALE_TEMP_SECONDS = 3600.0
_NAME = re.compile(r"^[A-Za-z0-9_.]+$")
_NUMPY_NAMES = frozenset({
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.numeric", "_frombuffer"), ("numpy.core.numeric", "_frombuffer"),
    ("numpy._core.multiarray", "scalar"), ("numpy.core.multiarray", "scalar"),
})
"""What pickled numpy arrays, dtypes and scalars are built from (numpy 1 and 2 spell the module differently)."""
_warned: set[Path] = set()
"""Cache folders already warned about in this process (the warning is given once, not per table)."""
_written_after = 0.0
"""Entries written before this time are not used by this process (see :func:`forget`)."""


@dataclass(frozen=True)
class CacheFile:
    """One entry on disk, as ``hlavolamy cache --info`` lists it."""

    path: Path
    name: str
    label: str
    size: int
    modified: float
    current: bool
    """Written by this version of the code (others are ignored and overwritten)."""


def cache_dir() -> Path | None:
    """Where entries live: ``$HLAVOLAMY_CACHE_DIR``, else the platform's user cache directory; None when off."""
    chosen = os.environ.get("HLAVOLAMY_CACHE_DIR", "").strip()
    if chosen.lower() == DISABLED:
        return None
    if chosen:
        return Path(chosen).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        return base / "hlavolamy" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "hlavolamy"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "hlavolamy"


def size_limit() -> int:
    """Most bytes the cache may hold: ``$HLAVOLAMY_CACHE_MAX_MB`` megabytes (default 1024)."""
    return _size_setting()[0]


def size_limit_problem() -> str | None:
    """Why ``$HLAVOLAMY_CACHE_MAX_MB`` is ignored (the default is used instead), or None."""
    return _size_setting()[1]


def _size_setting() -> tuple[int, str | None]:
    text = os.environ.get("HLAVOLAMY_CACHE_MAX_MB", "").strip()
    default = DEFAULT_LIMIT_MB * 2**20
    if not text:
        return default, None
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = math.nan
    if not (math.isfinite(megabytes) and megabytes >= 0):
        problem = f"HLAVOLAMY_CACHE_MAX_MB={quoted(text, 30)} is not a number of megabytes (0 or more); using {DEFAULT_LIMIT_MB}"
        log.debug("disk cache: %s", problem)
        return default, problem
    return int(megabytes * 2**20), None


@functools.cache
def version_tag(root: Path | None = None) -> str:
    """:data:`FORMAT`, the package version and a digest of the solver's source files (under ``root``).

    The digest makes tables built by other code stale the moment the code
    changes (a developer's edit as much as a release), so an old library or
    chain is never mistaken for what the current code would build.
    """
    from hlavolamy import __version__

    root = root or Path(__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for package in _SOURCE_PACKAGES:
        for source in sorted((root / package).rglob("*.py")):  # the solver's subfolders count too
            digest.update(source.relative_to(root).as_posix().encode() + b"\0" + source.read_bytes())
    return f"{FORMAT}-{__version__}-{digest.hexdigest()[:16]}"


def load(key: str, name: str, allowed: Iterable[type], expect: type) -> Any | None:
    """The value stored under ``(key, name)``, or None if there is none usable.

    Only numpy arrays and the classes in ``allowed`` (records the caller
    stores, e.g. ``Turn``) are built; the top-level value must be an
    ``expect``. A hit marks the file as recently used.
    """
    path = _path(key, name)
    if path is None or not path.is_file():
        return None
    try:
        header, payload = _read(path)
        if header.get("tag") != version_tag():
            log.debug("disk cache: ignoring %s, written by version %s", path, header.get("tag"))
            return None
        if not header.get("written", 0.0) >= _written_after:
            log.debug("disk cache: ignoring %s, written before the process forgot older results", path)
            return None
        value = SafeUnpickler(io.BytesIO(payload), allowed).load()
        if not isinstance(value, expect):
            raise pickle.UnpicklingError(f"expected {expect.__name__}, found {type(value).__name__}")
    except Exception as exc:  # noqa: BLE001 - any unreadable file is only a miss
        log.debug("disk cache: ignoring unreadable %s: %s", path, exc)
        return None
    _touch(path)
    return value


def save(key: str, name: str, value: object, label: str = "") -> None:
    """Store ``value`` under ``(key, name)`` atomically, then trim the cache to its size limit; never raises."""
    path = _path(key, name)
    if path is None or not _replaceable(path):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        _NarrowingPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        payload = buffer.getbuffer()
        header = {"tag": version_tag(), "size": payload.nbytes, "crc": zlib.crc32(payload),
                  "label": " ".join(label.split()), "written": time.time()}
        _write_atomic(path, _MAGIC + json.dumps(header).encode() + b"\n", payload)
    except Exception as exc:  # noqa: BLE001 - a cache that cannot write only costs time
        log.debug("disk cache: could not write %s: %s", path, exc)
        _warn_unusable(path.parent)
        return
    _trim(path.parent, size_limit(), keep=path)


def unusable() -> str | None:
    """Why the cache folder cannot hold tables (a file stands there, it cannot be written), or None.

    Creates nothing: a folder that does not exist yet is fine when the
    nearest folder above it can be written.
    """
    folder = cache_dir()
    if folder is None:
        return None
    existing = folder
    while not existing.exists() and existing.parent != existing:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a folder"
    if existing == folder:
        try:
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe.", suffix=".tmp")
        except OSError as exc:
            return f"{folder} cannot be written: {exc.strerror or exc}"
        os.close(fd)
        Path(probe).unlink(missing_ok=True)
        return None
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{folder} cannot be created: {existing} is not writable"
    return None


def _warn_unusable(folder: Path) -> None:
    """Say once per process that tables are not kept, when the cache folder is the reason."""
    if folder in _warned:
        return
    problem = unusable()
    if problem is None:
        return
    _warned.add(folder)
    log.warning("disk cache: %s; tables are rebuilt by every run (set HLAVOLAMY_CACHE_DIR to a writable folder, "
                "or to '%s'; hlavolamy cache shows the cache)", problem, DISABLED)


def entries() -> list[CacheFile]:
    """The files in the cache, least recently used first (empty when the cache is off or absent)."""
    folder = cache_dir()
    if folder is None or not folder.is_dir():
        return []
    out = []
    for path in folder.glob("*" + SUFFIX):
        try:
            stat = path.stat()
        except OSError:
            continue
        if not path.is_file():
            continue
        try:
            header = _read_header(path)
        except (OSError, ValueError):
            header = {}
        name = path.name[:-len(SUFFIX)].rsplit("-", 1)[0]
        out.append(CacheFile(path, name, _printable(header.get("label", "")), stat.st_size, stat.st_mtime,
                             header.get("tag") == version_tag()))
    return sorted(out, key=lambda e: e.modified)


def intruders() -> list[Path]:
    """Things named like entries that are not files (a folder): no table can be cached there until removed."""
    folder = cache_dir()
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*" + SUFFIX) if not p.is_file())


def _replaceable(path: Path) -> bool:
    """Whether a table can be written at ``path``: an empty folder there is removed, anything else reported."""
    if not path.is_dir():
        return True
    try:
        path.rmdir()
        return True
    except OSError:
        log.warning("disk cache: %s is a folder, not a cache entry; remove it so this table is kept "
                    "(it is rebuilt by every process until then)", path)
        return False


def _printable(value: object) -> str:
    """Header text for people: a string without lone surrogates (a tampered header must not break printing)."""
    return str(value)[:200].encode("utf-8", "replace").decode("utf-8")


def forget() -> None:
    """Use no entry written before now in this process (they stay on disk; new writes replace them).

    For timing from scratch and for tests that change a builder's limits:
    tables built under other limits must not come back.
    """
    global _written_after
    _written_after = time.time()


def clear() -> int:
    """Delete every cache file (entries and leftover temporary files); the number of bytes freed."""
    folder = cache_dir()
    if folder is None or not folder.is_dir():
        return 0
    freed = 0
    for path in list(folder.glob("*" + SUFFIX)) + list(folder.glob(".*.tmp")):
        try:
            size = path.stat().st_size
            if path.is_dir() and not path.is_symlink():
                path.rmdir()  # an empty folder in place of an entry; a full one is listed by intruders()
                continue
            path.unlink()
            freed += size
        except OSError as exc:
            log.debug("disk cache: could not delete %s: %s", path, exc)
    return freed


class SafeUnpickler(pickle.Unpickler):
    """An unpickler that builds numpy arrays and the ``allowed`` classes only; anything else is refused.

    A pickle can name any importable callable (``os.system``) and have it
    called while loading; the cache directory may be shared or tampered
    with, so every global a file names is checked against this list.
    """

    def __init__(self, file: io.BufferedIOBase, allowed: Iterable[type]):
        super().__init__(file)
        self.allowed = {(cls.__module__, cls.__qualname__) for cls in allowed}
        self.allowed.add((__name__, _widened.__qualname__))

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _NUMPY_NAMES or (module, name) in self.allowed:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from the disk cache")


class _NarrowingPickler(pickle.Pickler):
    """Stores large integer arrays in the narrowest dtype that holds their values.

    Conjugate tables hold millions of local cell indices below a hundred as
    int32 or int64; as uint8 the files are several times smaller and read
    back faster. :func:`_widened` restores the dtype on load.
    """

    def reducer_override(self, obj: object) -> Any:
        if type(obj) is np.ndarray and obj.dtype.kind in "iu" and obj.size >= _NARROW_MIN:
            narrow = _narrowest(obj)
            if narrow != obj.dtype:
                return _widened, (obj.astype(narrow), obj.dtype.str)
        return NotImplemented


def _narrowest(array: np.ndarray) -> np.dtype:
    low, high = int(array.min()), int(array.max())
    for dtype in (np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return np.dtype(dtype)
    return array.dtype


def _widened(array: np.ndarray, dtype: str) -> np.ndarray:
    """The stored narrow ``array`` back in its original integer ``dtype``."""
    target = np.dtype(dtype)
    if target.kind not in "iu" or not isinstance(array, np.ndarray):
        raise pickle.UnpicklingError(f"not an integer array of dtype {dtype!r}")
    return array.astype(target)


def _path(key: str, name: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    if not _NAME.match(key) or not _NAME.match(name):
        raise ValueError(f"disk cache names are letters, digits, '_' and '.': got {name!r} / {key!r}")
    return folder / f"{name}-{key}{SUFFIX}"


def _read_header(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return _parse_header(f)


def _parse_header(f: io.BufferedIOBase) -> dict[str, Any]:
    if f.readline() != _MAGIC:
        raise ValueError("not a hlavolamy cache file")
    line = f.readline(4096)
    if json_too_deep(line.decode("utf-8", "replace"), 2) is not None:
        raise ValueError("bad header: nested too deep")
    header = json.loads(line)
    if not isinstance(header, dict):
        raise ValueError("bad header")
    return header


def _read(path: Path) -> tuple[dict[str, Any], bytes]:
    """The header and the payload, checked against the header's length and CRC."""
    with path.open("rb") as f:
        header = _parse_header(f)
        payload = f.read()
    if len(payload) != header.get("size") or zlib.crc32(payload) != header.get("crc"):
        raise ValueError("length or checksum does not match (truncated or corrupt)")
    return header, payload


def _write_atomic(path: Path, header: bytes, payload: memoryview) -> None:
    """Write to a temporary file beside ``path``, then move it into place: readers see the old or the new file."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(header)
            f.write(payload)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _touch(path: Path) -> None:
    """Mark ``path`` as just used, so trimming drops it last."""
    try:
        os.utime(path)
    except OSError:
        pass


def _trim(folder: Path, limit: int, keep: Path) -> None:
    """Drop the least recently used entries (never ``keep``) until the folder fits ``limit``; old temp files too."""
    now = time.time()
    files = []
    for path in folder.iterdir():
        try:
            stat = path.stat()
            if path.name.endswith(".tmp") and now - stat.st_mtime > _STALE_TEMP_SECONDS:
                path.unlink()
            elif path.name.endswith(SUFFIX):
                files.append((stat.st_mtime, stat.st_size, path))
        except OSError:
            continue
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= limit:
            break
        if path == keep:
            continue
        try:
            path.unlink()
            total -= size
            log.debug("disk cache: dropped %s to stay under %d bytes", path, limit)
        except OSError:
            continue

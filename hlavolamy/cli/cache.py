"""``hlavolamy cache [--info | --clear]``: show or empty the disk cache of solver tables.

The cache (:mod:`hlavolamy.core.diskcache`) keeps the stabiliser chains,
macro libraries and conjugate tables a solve builds, so the next process
loads them; this command says where it is and what it holds, and deletes it.
"""

from __future__ import annotations

import argparse
import time

from hlavolamy.core import diskcache


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cache",
        help="show or clear the disk cache of solver tables",
        description="Solver tables depend only on a puzzle's moves and are kept on disk between runs. "
        "Without options, list the cache. Set HLAVOLAMY_CACHE_DIR to move it ('off' disables it) and "
        "HLAVOLAMY_CACHE_MAX_MB to change its size limit.",
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--info", action="store_true", help="list the cached tables (the default)")
    action.add_argument("--clear", action="store_true", help="delete every cached table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder = diskcache.cache_dir()
    if folder is None:
        print(f"disk cache: off (HLAVOLAMY_CACHE_DIR={diskcache.DISABLED})")
        return 0
    if args.clear:
        count = len(diskcache.entries())
        freed = diskcache.clear()
        print(f"disk cache {folder}: removed {count} tables, {_mib(freed)}")
        return 0
    files = diskcache.entries()
    print(f"disk cache {folder} (limit {_mib(diskcache.size_limit())})")
    now = time.time()
    for entry in reversed(files):
        stale = "" if entry.current else "  (other version: rebuilt when used)"
        print(f"  {entry.name:<32}{entry.label[:24]:<26}{_mib(entry.size):>12}  used {_ago(now - entry.modified)}{stale}")
    print(f"{len(files)} tables, {_mib(sum(e.size for e in files))}")
    return 0


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def _ago(seconds: float) -> str:
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            return f"{seconds / length:.0f} {unit} ago"
    return "just now"

"""``hlavolamy cache [--info | --clear | --build PUZZLE...]``: show, empty or fill the disk cache of solver tables.

The cache (:mod:`hlavolamy.core.diskcache`) keeps the stabiliser chains,
macro libraries and conjugate tables a solve builds, so the next process
loads them; this command says where it is and what it holds, deletes it, or
builds a puzzle's tables ahead of its first solve (by solving one random
position: the tables built are exactly those a solve needs).
"""

from __future__ import annotations

import argparse
import sys
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
    action.add_argument("--build", nargs="+", metavar="PUZZLE",
                        help="build the tables of these puzzle files now (one random position solved each)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder = diskcache.cache_dir()
    if folder is None:
        print(f"disk cache: off (HLAVOLAMY_CACHE_DIR={diskcache.DISABLED})")
        return 0
    problem = diskcache.unusable()
    if problem is not None:
        print(f"disk cache {folder}: unusable: {problem}. Solves work without it but rebuild their tables "
              f"every run; set HLAVOLAMY_CACHE_DIR to a writable folder, or to '{diskcache.DISABLED}'")
        return 2
    if args.build:
        return _build(args.build)
    if args.clear:
        count = len(diskcache.entries())
        freed = diskcache.clear()
        print(f"disk cache {folder}: removed {count} tables, {_mib(freed)}")
        return 0
    files = diskcache.entries()
    problem = diskcache.size_limit_problem()
    if problem:
        print(f"hlavolamy cache: warning: {problem}", file=sys.stderr)
    print(f"disk cache {folder} (limit {_mib(diskcache.size_limit())})")
    now = time.time()
    for entry in reversed(files):
        stale = "" if entry.current else "  (other version: rebuilt when used)"
        print(f"  {entry.name:<32}{entry.label[:24]:<26}{_mib(entry.size):>12}  used {_ago(now - entry.modified)}{stale}")
    print(f"{len(files)} tables, {_mib(sum(e.size for e in files))}")
    for path in diskcache.intruders():
        print(f"hlavolamy cache: warning: {path} is not a cache file (a folder?); remove it, "
              "or the table it stands for is rebuilt by every solve", file=sys.stderr)
    return 0


def _build(paths: list[str]) -> int:
    """Solve a random position of each puzzle, so its tables are built and saved; print what it took."""
    from hlavolamy.cli.common import load_puzzle_arg
    from hlavolamy.core.scramble import scrambled
    from hlavolamy.solve import solve

    for path in paths:
        puzzle = load_puzzle_arg(path).puzzle
        since = time.time() - 1.0  # file times may be coarse
        started = time.perf_counter()
        solution = solve(puzzle, scrambled(puzzle, 200, 0))
        written = [e for e in diskcache.entries() if e.modified >= since]
        print(f"{path}: solved in {time.perf_counter() - started:.1f} s ({solution.strategy}); "
              f"{len(written)} tables written, {_mib(sum(e.size for e in written))}")
    return 0


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def _ago(seconds: float) -> str:
    for unit, length in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= length:
            return f"{seconds / length:.0f} {unit} ago"
    return "just now"

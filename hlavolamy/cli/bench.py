"""``hlavolamy bench TARGET``: time the library on the shipped puzzles and a big cube.

Targets are entries of :data:`TARGETS` (name -> function taking the parsed
arguments); adding one is a function and a line.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.puzzle import Puzzle

PUZZLE_DIR = Path(__file__).resolve().parents[2] / "puzzles"


def shipped_puzzles(folder: Path = PUZZLE_DIR) -> Iterator[tuple[str, Puzzle]]:
    """Every ``puzzles/*.json`` by file name, sorted."""
    for path in sorted(folder.glob("*.json")):
        yield path.stem, load_puzzle(path).puzzle


def big_cube(size: int) -> Puzzle:
    """An NxNxN cube built by the cubes plugin."""
    from hlavolamy.plugins.manager import build_puzzle, get_plugin_host

    return build_puzzle(get_plugin_host().geometry("cubes"), {"size": size})


def bench_analysis(args: argparse.Namespace) -> int:
    """Structure analysis (orbits, pieces, invariants, order) and the 3-cycle library, timed apart."""
    from hlavolamy.analysis import analyse
    from hlavolamy.analysis.memo import forget_shared

    puzzles = list(shipped_puzzles(Path(args.puzzles)))
    puzzles.append((f"cube{args.size} (plugin)", big_cube(args.size)))
    print(f"{'puzzle':<24}{'cells':>7}{'moves':>6}{'orbits':>7}{'structure s':>13}{'3-cycles s':>12}  order")
    for name, puzzle in puzzles:
        forget_shared()  # time each puzzle from scratch, even when an earlier one had the same moves
        start = time.perf_counter()
        analysis = analyse(puzzle, three_cycles=False)
        structure = time.perf_counter() - start
        cycles = "-"
        if not args.no_three_cycles:
            start = time.perf_counter()
            analyse(puzzle, three_cycles=True)
            cycles = f"{time.perf_counter() - start:.2f}"
        order = analysis.order
        digits = order.decimal
        shown = digits if len(digits) <= 24 else f"{digits[0]}.{digits[1:4]}e{len(digits) - 1}"
        print(f"{name:<24}{puzzle.n_cells:>7}{len(puzzle.moves):>6}{len(analysis.structure.orbits):>7}"
              f"{structure:>13.2f}{cycles:>12}  {shown} ({'exact' if order.exact else 'structural'})")
    return 0


def bench_solve(args: argparse.Namespace) -> int:
    """The solver on 20 seeded random positions per shipped puzzle (see :func:`hlavolamy.cli.solve.bench_solve`)."""
    from hlavolamy.cli.solve import bench_solve as run_bench

    return run_bench(args)


TARGETS: dict[str, Callable[[argparse.Namespace], int]] = {
    "analysis": bench_analysis,
    "solve": bench_solve,
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="time the library on the shipped puzzles and a big cube",
        description="Benchmarks: " + ", ".join(TARGETS) + ".",
    )
    parser.add_argument("target", choices=sorted(TARGETS), help="what to time")
    parser.add_argument("--puzzles", default=str(PUZZLE_DIR), metavar="DIR", help="folder of puzzle files")
    parser.add_argument("--size", type=int, default=33, metavar="N", help="size of the big plugin cube (default 33)")
    parser.add_argument("--no-three-cycles", action="store_true", help="analysis: skip the 3-cycle library")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return TARGETS[args.target](args)

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
from hlavolamy.errors import HlavolamyError

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


GENERATED: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("cube4 (cubes)", "cubes", {"size": 4}),
    ("cube6 (cubes)", "cubes", {"size": 6}),
    ("cube7 (cubes)", "cubes", {"size": 7}),
    ("megaminx (polyhedra)", "polyhedra", {"preset": "megaminx"}),
    ("pyraminx (polyhedra)", "polyhedra", {"preset": "pyraminx"}),
    ("master-pyraminx (polyhedra)", "polyhedra", {"preset": "master-pyraminx"}),
    ("skewb (polyhedra)", "polyhedra", {"preset": "skewb"}),
    ("dino (polyhedra)", "polyhedra", {"preset": "dino"}),
    ("helicopter (polyhedra)", "polyhedra", {"preset": "helicopter"}),
    ("fto (polyhedra)", "polyhedra", {"preset": "fto"}),
)
"""Puzzles the bench makes with geometry plugins (name, geometry, parameters); solved by their colours.

Their rows stand for puzzles nobody tuned the solver for: given by colours,
as an import from another tool would be. A geometry not installed is skipped.
"""


def generated_puzzles() -> Iterator[tuple[str, Puzzle]]:
    """The :data:`GENERATED` puzzles whose geometry plugin is loaded."""
    from hlavolamy.plugins.manager import build_puzzle, get_plugin_host

    host = get_plugin_host()
    for name, geometry, params in GENERATED:
        if geometry in host.geometries:
            yield name, build_puzzle(host.geometries[geometry], params)


def bench_solve(args: argparse.Namespace) -> int:
    """The solver on seeded random positions: shipped puzzles exactly, plugin-made ones by their colours.

    ``--by-colours`` gives the folder's puzzles by their colours too: the way to
    measure puzzles imported from other tools (nobody tuned the solver for them).

    The first solve of a puzzle also builds its tables (chain, macro library,
    pattern databases: cached in the process, and on disk when the cache is
    on), so it is shown apart ("first s"); mean and max time are over the
    other positions.
    """
    if args.positions < 1:
        raise HlavolamyError(f"--positions must be 1 or more, not {args.positions}")
    rows = [(name, puzzle, args.by_colours) for name, puzzle in shipped_puzzles(Path(args.puzzles))]
    if not args.no_generated:
        rows += [(name, puzzle, True) for name, puzzle in generated_puzzles()]
    if args.only:
        wanted = set(args.only.split(","))
        rows = [row for row in rows if row[0] in wanted or row[0].split(" ")[0] in wanted]
    print(f"{'puzzle':<30}{'by':>8}{'solved':>8}{'mean len':>10}{'max len':>9}{'first s':>9}{'mean s':>8}"
          f"{'max s':>8}  strategies / errors")
    for name, puzzle, by_colours in rows:
        _bench_row(name, puzzle, by_colours, args.positions)
    return 0


def _bench_row(name: str, puzzle: Puzzle, by_colours: bool, positions: int, scramble_length: int = 200) -> None:
    """Solve ``positions`` seeded positions of ``puzzle`` and print one row."""
    from hlavolamy.core.scramble import random_scramble
    from hlavolamy.core.state import State
    from hlavolamy.solve import solve

    lengths, times, strategies, errors = [], [], set(), []
    for seed in range(positions):
        state = State.solved(puzzle).apply(random_scramble(puzzle, scramble_length, seed))
        position = puzzle.colour_ids[state.perm] if by_colours else state
        try:
            solution = solve(puzzle, position)
        except HlavolamyError as exc:
            errors.append(str(exc))
            continue
        lengths.append(solution.length)
        times.append(solution.time)
        strategies.add(solution.strategy)
    by = "colours" if by_colours else "exact"
    if lengths:
        warm = times[1:] or times
        print(f"{name:<30}{by:>8}{len(lengths):>5}/{positions:<2}{sum(lengths) / len(lengths):>10.1f}"
              f"{max(lengths):>9}{times[0]:>9.2f}{sum(warm) / len(warm):>8.2f}{max(warm):>8.2f}  "
              f"{', '.join(sorted(strategies))}" + (f"; {errors[0][:60]}" if errors else ""), flush=True)
    else:
        print(f"{name:<30}{by:>8}{0:>5}/{positions:<2}{'-':>10}{'-':>9}{'-':>9}{'-':>8}{'-':>8}  "
              f"{errors[0][:80] if errors else ''}", flush=True)


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
    parser.add_argument("--positions", type=int, default=20, metavar="N",
                        help="solve: random positions per puzzle (default 20)")
    parser.add_argument("--only", metavar="NAMES", help="solve: only these rows (comma-separated puzzle names)")
    parser.add_argument("--by-colours", action="store_true",
                        help="solve: give the --puzzles folder's positions by their colours, not exactly "
                             "(puzzles imported from other tools)")
    parser.add_argument("--no-generated", action="store_true",
                        help="solve: only the shipped puzzles, not those made with the geometry plugins")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return TARGETS[args.target](args)

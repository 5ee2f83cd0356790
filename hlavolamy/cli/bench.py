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
    from hlavolamy.solve import RaceRecords

    records = RaceRecords()  # this bench run's: what auto learns on one row's positions helps the next
    for name, puzzle, by_colours in rows:
        _bench_row(name, puzzle, by_colours, args.positions, records)
    return 0


def _bench_row(name: str, puzzle: Puzzle, by_colours: bool, positions: int, records: object = None,
               scramble_length: int = 200) -> None:
    """Solve ``positions`` seeded positions of ``puzzle`` and print one row."""
    from hlavolamy.core.scramble import random_scramble
    from hlavolamy.core.state import State
    from hlavolamy.solve import solve

    lengths, times, strategies, errors = [], [], set(), []
    for seed in range(positions):
        state = State.solved(puzzle).apply(random_scramble(puzzle, scramble_length, seed))
        position = puzzle.colour_ids[state.perm] if by_colours else state
        try:
            solution = solve(puzzle, position, records=records)
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


LATENCY_CUBES = range(2, 8)
"""Cube sizes (cubes plugin) in ``bench latency``."""


def latency_puzzles(folder: Path) -> Iterator[tuple[str, Puzzle, bool]]:
    """Every shipped puzzle (exact positions), every polyhedra preset and the cubes 2..7 (by colours)."""
    from hlavolamy.plugins.manager import build_puzzle, get_plugin_host

    for name, puzzle in shipped_puzzles(folder):
        yield name, puzzle, False
    host = get_plugin_host()
    polyhedra = host.geometries.get("polyhedra")
    if polyhedra is not None:
        preset = next((p for p in polyhedra.parameters if p.name == "preset"), None)
        for choice in (preset.choices if preset is not None and preset.choices else ()):
            yield f"{choice} (polyhedra)", build_puzzle(polyhedra, {"preset": choice}), True
    cubes = host.geometries.get("cubes")
    if cubes is not None:
        for size in LATENCY_CUBES:
            yield f"cube{size} (cubes)", build_puzzle(cubes, {"size": size}), True


def bench_latency(args: argparse.Namespace) -> int:
    """Time to the first verified answer and the final length at a time limit, each solve from an EMPTY cache.

    Each puzzle is solved in a fresh process (``hlavolamy solve --json``) with
    a new empty disk cache, so nothing built before helps: what a new user
    waits for. Columns: moved cells; how the position is given; seconds to
    the first answer, the CPU seconds it cost (the figure a loaded machine
    cannot inflate) and its length; the final length; the solve's seconds;
    the child's CPU seconds (start-up included); whether the solve ended by its limit + 1 s
    ("held"); the strategy or the error. ``--hogs N`` runs N CPU-burning
    processes beside it (what a busy machine does to the limit and the answers).
    """
    import json
    import os
    import resource
    import subprocess
    import sys
    import tempfile

    from hlavolamy.analysis.blocks import pieces
    from hlavolamy.core.fileformat import save_puzzle
    from hlavolamy.core.scramble import random_scramble
    from hlavolamy.core.state import State

    limit = args.time_limit
    rows = list(latency_puzzles(Path(args.puzzles)))
    if args.only:
        wanted = set(args.only.split(","))
        rows = [row for row in rows if row[0] in wanted or row[0].split(" ")[0] in wanted]
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.hogs)]
    print(f"limit {limit:g} s, {args.hogs} CPU hogs beside, load {os.getloadavg()[0]:.1f}")
    print(f"{'puzzle':<30}{'cells':>6}{'by':>8}{'first s':>8}{'1st cpu':>8}{'first':>7}{'final':>7}{'solve s':>8}"
          f"{'cpu s':>7}{'held':>6}  strategy / error")
    missing = 0
    try:
        with tempfile.TemporaryDirectory(prefix="hlavolamy-latency-") as folder:
            for k, (name, puzzle, by_colours) in enumerate(rows):
                path = Path(folder) / f"{k}.json"
                save_puzzle(path, puzzle)
                state = State.solved(puzzle).apply(random_scramble(puzzle, args.scramble, args.seed))
                cache = Path(folder) / f"cache{k}"
                command = [sys.executable, "-m", "hlavolamy.cli", "solve", str(path), "--json", "--quiet",
                           "--time-limit", f"{limit:g}"]
                if by_colours:
                    colours = Path(folder) / f"{k}.colours.json"
                    colours.write_text(json.dumps([puzzle.colour_labels[c] for c in puzzle.colour_ids[state.perm]]))
                    command += ["--colours", f"@{colours}"]
                else:
                    command += ["--scramble", str(args.scramble), "--seed", str(args.seed)]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                done = subprocess.run(command, capture_output=True, text=True, check=False,
                                      env={**os.environ, "HLAVOLAMY_CACHE_DIR": str(cache)},
                                      timeout=limit + 600)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                moved = sum(len(o) for o in pieces(puzzle).orbits)
                by = "colours" if by_colours else "exact"
                if done.returncode == 0 and done.stdout.strip():
                    out = json.loads(done.stdout.strip().splitlines()[-1])
                    held = "yes" if out["time"] <= limit + 1 else "no"
                    first_cpu = out.get("first_cpu")
                    print(f"{name:<30}{moved:>6}{by:>8}{out['first_time']:>8.2f}"
                          f"{'-' if first_cpu is None else format(first_cpu, '.2f'):>8}{out['first_length']:>7}"
                          f"{out['length']:>7}{out['time']:>8.2f}{cpu:>7.1f}{held:>6}  {out['strategy']}", flush=True)
                else:
                    missing += 1
                    error = (done.stderr.strip().splitlines() or ["no output"])[-1]
                    print(f"{name:<30}{moved:>6}{by:>8}{'-':>8}{'-':>8}{'-':>7}{'-':>7}{'-':>8}{cpu:>7.1f}{'-':>6}  "
                          f"{error[:80]}", flush=True)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(f"{len(rows) - missing}/{len(rows)} answered; load {os.getloadavg()[0]:.1f}")
    return 0


TARGETS: dict[str, Callable[[argparse.Namespace], int]] = {
    "analysis": bench_analysis,
    "latency": bench_latency,
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
    parser.add_argument("--only", metavar="NAMES",
                        help="solve, latency: only these rows (comma-separated puzzle names)")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                        help="latency: each solve's time limit (default 10)")
    parser.add_argument("--hogs", type=int, default=0, metavar="N",
                        help="latency: run N CPU-burning processes beside the solves (a busy machine)")
    parser.add_argument("--scramble", type=int, default=200, metavar="N",
                        help="latency: turns of the seeded scramble (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="latency: seed of the scramble (default 1)")
    parser.add_argument("--by-colours", action="store_true",
                        help="solve: give the --puzzles folder's positions by their colours, not exactly "
                             "(puzzles imported from other tools)")
    parser.add_argument("--no-generated", action="store_true",
                        help="solve: only the shipped puzzles, not those made with the geometry plugins")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return TARGETS[args.target](args)

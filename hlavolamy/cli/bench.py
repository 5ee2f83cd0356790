"""``hlavolamy bench TARGET``: time the library on the shipped puzzles and a big cube.

Targets are entries of :data:`TARGETS` (name -> function taking the parsed
arguments); adding one is a function and a line.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def _only(rows: list[tuple[Any, ...]], only: str | None) -> list[tuple[Any, ...]]:
    """The rows named in ``--only`` (comma-separated; a name may leave out its "(plugin)" part), or all.

    A name that matches no row is an error naming it and the rows there are: a misspelt row would otherwise
    be measured as nothing, silently.
    """
    if not only:
        return rows
    wanted = [name.strip() for name in only.split(",") if name.strip()]
    unknown = [name for name in wanted if not any(_names_row(name, row[0]) for row in rows)]
    if unknown:
        known = ", ".join(sorted({row[0] for row in rows}))
        raise HlavolamyError(f"--only: no row named {', '.join(map(repr, unknown))} (rows: {known})")
    return [row for row in rows if any(_names_row(name, row[0]) for name in wanted)]


def _names_row(name: str, row: str) -> bool:
    """Whether ``name`` is the row's name, or its name without the "(plugin)" part."""
    return name in (row, row.split(" ")[0])


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
    rows = _only(rows, args.only)
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
    from hlavolamy.core.scramble import scrambled
    from hlavolamy.solve import solve

    lengths, times, strategies, errors = [], [], set(), []
    for seed in range(positions):
        state = scrambled(puzzle, scramble_length, seed)
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


IDLE_GRACE = 1.0
"""Seconds past its limit a latency solve may end on an idle machine and still have "held" (issue 19's target)..."""
BUSY_GRACE = 0.2
"""...and the share of its limit it may overrun beside CPU hogs."""
LATENCY_PATIENCE = 600
"""Seconds past its limit a latency solve may run before it is killed and shown as a row without an answer."""


def held(seconds: float, limit: float, hogs: int) -> bool:
    """The solve ended (answer or message) within its limit + :data:`IDLE_GRACE`, or + :data:`BUSY_GRACE` with hogs.

    >>> held(10.9, 10, 0), held(11.1, 10, 0), held(11.9, 10, 2), held(12.1, 10, 2)
    (True, False, True, False)
    """
    return seconds <= (limit + IDLE_GRACE if hogs == 0 else limit * (1 + BUSY_GRACE))


def finished(row: dict[str, Any]) -> bool:
    """The row has an answer the improving finished within the limit (not one the limit cut)."""
    return row.get("moves") is not None and not row.get("cut", False)


@dataclass(frozen=True)
class Comparison:
    """Two latency runs' moves, row by row: which rows finished in both, and of those which moved the same."""

    identical: tuple[str, ...]
    differing: tuple[str, ...]
    unfinished: tuple[str, ...]
    """Rows of both runs that did not finish within the limit in one of them (their moves may differ)."""

    def summary(self) -> str:
        both = len(self.identical) + len(self.differing)
        return f"moves identical in {len(self.identical)} of {both} rows finished within the limit in both"


def compare_runs(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> Comparison:
    """Match rows by puzzle and how it was given; compare the moves where both runs finished within the limit.

    Rows of one run only are left out: there is nothing to compare them with.
    """
    earlier = {(row["puzzle"], row["by"]): row for row in before}
    identical, differing, unfinished = [], [], []
    for row in after:
        old = earlier.get((row["puzzle"], row["by"]))
        if old is None:
            continue
        if not (finished(old) and finished(row)):
            unfinished.append(row["puzzle"])
        elif old["moves"] == row["moves"]:
            identical.append(row["puzzle"])
        else:
            differing.append(row["puzzle"])
    return Comparison(tuple(identical), tuple(differing), tuple(unfinished))


def read_run(path: str | Path) -> dict[str, Any]:
    """A ``bench latency --json`` file; a file that is not one is the user's error, naming it.

    Read by the bounded reader every input goes through (:func:`~hlavolamy.core.fileformat.read_text`).
    """
    from hlavolamy.core.fileformat import parse_json, read_text

    try:
        run = parse_json(read_text(path, "latency run"), str(path))
    except HlavolamyError as exc:
        raise HlavolamyError(f"--compare {path}: cannot read a latency run: {exc}") from None
    if not isinstance(run, dict) or not isinstance(run.get("rows"), list):
        raise HlavolamyError(f"--compare {path}: not a 'bench latency --json' file (no list of rows)")
    return run


def bench_latency(args: argparse.Namespace) -> int:
    """Time to the first verified answer and the final length at a time limit, each solve from an EMPTY cache.

    Each puzzle is solved in a fresh process (``hlavolamy solve --json``) with
    a new empty disk cache, so nothing built before helps: what a new user
    waits for. Columns: moved cells; how the position is given; seconds to
    the first answer, the CPU seconds it cost (the figure a loaded machine
    cannot inflate) and its length; the final length; the solve's seconds;
    the child's CPU seconds (start-up included); whether the solve ended by its
    limit + 1 s, or + 20 % beside hogs ("held", :func:`held`); the strategy or
    the error. ``--hogs N`` runs N CPU-burning processes beside it (what a busy
    machine does to the limit and the answers). ``--json FILE`` keeps the rows
    with their moves; ``--compare FILE`` checks this run's moves against such a
    file's (:func:`compare_runs`).
    """
    import json
    import os
    import subprocess
    import sys
    import tempfile

    limit = args.time_limit
    previous = read_run(args.compare) if args.compare else None
    if previous is not None and (previous.get("scramble"), previous.get("seed")) != (args.scramble, args.seed):
        raise HlavolamyError(f"--compare {args.compare}: that run solved other positions (--scramble "
                             f"{previous.get('scramble')} --seed {previous.get('seed')})")
    rows = _only(list(latency_puzzles(Path(args.puzzles))), args.only)
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.hogs)]
    run = {"limit": limit, "hogs": args.hogs, "scramble": args.scramble, "seed": args.seed,
           "load_before": round(os.getloadavg()[0], 1), "rows": []}
    print(f"limit {limit:g} s, {args.hogs} CPU hogs beside, load {run['load_before']:.1f}")
    print(f"{'puzzle':<30}{'cells':>6}{'by':>8}{'first s':>8}{'1st cpu':>8}{'first':>7}{'final':>7}{'solve s':>8}"
          f"{'cpu s':>7}{'held':>6}  strategy / error")
    try:
        with tempfile.TemporaryDirectory(prefix="hlavolamy-latency-") as folder:
            for k, (name, puzzle, by_colours) in enumerate(rows):
                row = _latency_row(name, puzzle, by_colours, Path(folder) / str(k), args)
                run["rows"].append(row)
                _print_latency_row(row)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    run["load_after"] = round(os.getloadavg()[0], 1)
    answered = sum(row["moves"] is not None for row in run["rows"])
    print(f"{answered}/{len(rows)} answered; {sum(row['held'] for row in run['rows'])}/{len(rows)} held; "
          f"load {run['load_after']:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if previous is not None:
        comparison = compare_runs(previous["rows"], run["rows"])
        for name in comparison.differing:
            print(f"  other moves than in {args.compare}: {name}")
        if comparison.unfinished:
            print(f"not compared (cut by the limit or no answer in a run): {', '.join(comparison.unfinished)}")
        print(comparison.summary())
    return 0


def _latency_row(name: str, puzzle: Puzzle, by_colours: bool, folder: Path, args: argparse.Namespace
                 ) -> dict[str, Any]:
    """Solve one row's position in a fresh process with an empty cache (in ``folder``); the row as a dict."""
    import json
    import os
    import resource
    import subprocess
    import sys

    from hlavolamy.analysis.blocks import pieces
    from hlavolamy.core.fileformat import save_puzzle
    from hlavolamy.core.scramble import scrambled

    limit = args.time_limit
    folder.mkdir()
    path = folder / "puzzle.json"
    save_puzzle(path, puzzle)
    state = scrambled(puzzle, args.scramble, args.seed)
    command = [sys.executable, "-m", "hlavolamy.cli", "solve", str(path), "--json", "--quiet",
               "--time-limit", f"{limit:g}"]
    if by_colours:
        colours = folder / "colours.json"
        colours.write_text(json.dumps([puzzle.colour_labels[c] for c in puzzle.colour_ids[state.perm]]))
        command += ["--colours", f"@{colours}"]
    else:
        command += ["--scramble", str(args.scramble), "--seed", str(args.seed)]
    row: dict[str, Any] = {"puzzle": name, "cells": pieces(puzzle).moved_cells,
                           "by": "colours" if by_colours else "exact", "moves": None, "error": None}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False,
                              env={**os.environ, "HLAVOLAMY_CACHE_DIR": str(folder / "cache")},
                              timeout=limit + LATENCY_PATIENCE)
        last = done.stdout.strip().splitlines()[-1:] if done.returncode == 0 else []
        out = json.loads(last[0]) if last else None
        row["error"] = None if out else (done.stderr.strip().splitlines() or ["no output"])[-1]
    except subprocess.TimeoutExpired:
        out, row["error"] = None, f"no end after {limit + LATENCY_PATIENCE:g} s (killed)"
    row["wall"] = round(time.perf_counter() - started, 2)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row["cpu"] = round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 2)
    if out is not None:
        row.update(moves=out["moves"], length=out["length"], first_length=out["first_length"],
                   first_time=out["first_time"], first_cpu=out.get("first_cpu"), time=out["time"],
                   cut=out["cut_by_limit"], strategy=out["strategy"])
    row["held"] = held(row["time"] if out is not None else row["wall"], limit, args.hogs)
    return row


def _print_latency_row(row: dict[str, Any]) -> None:
    head = f"{row['puzzle']:<30}{row['cells']:>6}{row['by']:>8}"
    held_text = "yes" if row["held"] else "no"
    if row["moves"] is None:
        print(f"{head}{'-':>8}{'-':>8}{'-':>7}{'-':>7}{row['wall']:>8.2f}{row['cpu']:>7.1f}{held_text:>6}  "
              f"{row['error'][:80]}", flush=True)
        return
    first_cpu = "-" if row["first_cpu"] is None else format(row["first_cpu"], ".2f")
    cut = ", cut by the limit" if row["cut"] else ""
    print(f"{head}{row['first_time']:>8.2f}{first_cpu:>8}{row['first_length']:>7}{row['length']:>7}"
          f"{row['time']:>8.2f}{row['cpu']:>7.1f}{held_text:>6}  {row['strategy']}{cut}", flush=True)


def bench_phases(args: argparse.Namespace) -> int:
    """Lengths and CPU of the ``phases`` strategy on seeded random positions (solution length, issue 21).

    Position k is ``random_scramble(puzzle, --scramble, k)`` for k in 0..``--positions``-1. The tables are
    loaded (or built) by a solve of another position before the first timed one, so each solve's CPU
    (``time.process_time()``) is the search's alone; every answer is replayed before it counts.
    """
    import numpy as np

    from hlavolamy.core.scramble import scrambled
    from hlavolamy.solve.problem import Problem
    from hlavolamy.solve.strategies.phases import solve_phases

    if args.positions < 1:
        raise HlavolamyError(f"--positions must be 1 or more, not {args.positions}")
    name = args.only or "rubik3"
    path = Path(args.puzzles) / f"{name}.json"
    if not path.is_file():
        raise HlavolamyError(f"phases: no puzzle {path} (--only names one file of --puzzles)")
    puzzle = load_puzzle(path).puzzle
    budget = {"first_nodes": args.first_nodes, "more_nodes": args.more_nodes, "views": not args.no_views}
    warm = scrambled(puzzle, args.scramble, 10**6)
    solve_phases(Problem.from_input(puzzle, warm), **budget)
    lengths, cpus = [], []
    for seed in range(args.positions):
        state = scrambled(puzzle, args.scramble, seed)
        problem = Problem.from_input(puzzle, state)
        start = time.process_time()
        solve_phases(problem, **budget)
        cpus.append(time.process_time() - start)
        if not state.apply(problem.turns).is_solved():
            raise HlavolamyError(f"phases: the answer to position {seed} does not replay to solved")
        lengths.append(puzzle.length(problem.turns))
        print(f"position {seed:>3}  {lengths[-1]:>3} moves  {cpus[-1]:6.2f} s CPU", flush=True)
    print(f"{name}: {len(lengths)} positions, mean {np.mean(lengths):.2f} moves, max {max(lengths)}, "
          f"CPU per solve mean {np.mean(cpus):.2f} s, max {max(cpus):.2f} s")
    return 0


WORK_UNITS = 2e9
"""Units the beam spends in ``bench work`` (about 2 s of an idle core, if it is charged right)."""


def bench_work(args: argparse.Namespace) -> int:
    """How many work units the beam spends per nanosecond of CPU (1.12 on the mean, then 2.45 since a level makes
    only its kept children's rows: the same budgets walk the same levels in less time).

    A budget in work (:class:`~hlavolamy.core.progress.Work`) was meant to be "about a nanosecond of an idle core"
    per unit, so that ``auto``'s ``BEAM_WORK = 1e10`` was the 10 s it stood for (now about 4 s). The beam spends
    :data:`WORK_UNITS` on a seeded position by colours of every latency-bench puzzle it takes (``--only`` to
    choose), after a first small call built its tables; the row shows units per CPU ns and what a child cell costs.
    (The shortening passes' budgets are not measured: on answers of up to thousands of moves they end on their own
    long before their budget.)
    """
    from hlavolamy.core.scramble import random_scramble
    from hlavolamy.solve.problem import Problem
    from hlavolamy.solve.strategies.beam import CELL_UNITS, beam_feasible

    print(f"{'puzzle':<30}{'cells':>6}{'units per ns':>14}{'ns per child cell':>19}", flush=True)
    rates = []
    for name, puzzle, _ in _only(list(latency_puzzles(Path(args.puzzles))), args.only):
        colours = puzzle.colour_ids[puzzle.perm_of(random_scramble(puzzle, args.scramble, args.seed))]
        problem = Problem.from_input(puzzle, colours)
        if not beam_feasible(problem):
            continue
        _beam_spent(problem, 1)  # the pattern databases and the ball
        start = time.process_time()
        spent = _beam_spent(problem, WORK_UNITS)
        if not spent:  # the ball around the goal held the position: no level to time
            print(f"{name:<30}{puzzle.n_cells:>6}{'-':>14}{'-':>19}  (answered by the ball)", flush=True)
            continue
        rates.append(spent / max(1.0, (time.process_time() - start) * 1e9))
        print(f"{name:<30}{puzzle.n_cells:>6}{rates[-1]:>14.2f}{CELL_UNITS / rates[-1]:>19.1f}", flush=True)
    if rates:
        print(f"beam: {len(rates)} puzzles, units per CPU ns {min(rates):.2f}-{max(rates):.2f}, "
              f"mean {sum(rates) / len(rates):.2f}")
    return 0


def _beam_spent(problem: Any, units: float) -> float:
    """Work the beam spent from ``units`` on a copy of ``problem`` (solved, stuck or out of work)."""
    from hlavolamy.core.progress import Work
    from hlavolamy.solve.strategies.beam import beam
    from hlavolamy.solve.strategies.search import SearchFailed

    work = Work(units)
    try:
        beam(problem.fork(), work=work, partial=True)
    except SearchFailed:
        pass
    return work.spent


TARGETS: dict[str, Callable[[argparse.Namespace], int]] = {
    "analysis": bench_analysis,
    "latency": bench_latency,
    "phases": bench_phases,
    "work": bench_work,
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
                        help="solve, phases: random positions (per puzzle; default 20)")
    parser.add_argument("--only", metavar="NAMES",
                        help="solve, latency: only these rows (comma-separated puzzle names); phases: the "
                             "puzzle (default rubik3)")
    parser.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                        help="latency: each solve's time limit (default 10)")
    parser.add_argument("--hogs", type=int, default=0, metavar="N",
                        help="latency: run N CPU-burning processes beside the solves (a busy machine)")
    parser.add_argument("--scramble", type=int, default=200, metavar="N",
                        help="latency, phases: turns of the seeded scramble (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="latency: seed of the scramble (default 1)")
    parser.add_argument("--json", metavar="FILE",
                        help="latency: also write the rows (with their moves) to FILE as JSON")
    parser.add_argument("--compare", metavar="FILE",
                        help="latency: compare the moves with an earlier run's --json FILE (same answer "
                             "whatever the load?)")
    parser.add_argument("--by-colours", action="store_true",
                        help="solve: give the --puzzles folder's positions by their colours, not exactly "
                             "(puzzles imported from other tools)")
    parser.add_argument("--first-nodes", type=int, metavar="N",
                        help="phases: nodes for a first answer (default: the strategy's)")
    parser.add_argument("--more-nodes", type=int, metavar="N",
                        help="phases: nodes after the first answer (default: the strategy's)")
    parser.add_argument("--no-views", action="store_true",
                        help="phases: search the position and its inverse only, no conjugate by a symmetry")
    parser.add_argument("--no-generated", action="store_true",
                        help="solve: only the shipped puzzles, not those made with the geometry plugins")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return TARGETS[args.target](args)

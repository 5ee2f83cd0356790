"""``hlavolamy santa --info puzzle_info.csv --puzzles puzzles.csv --out submission.csv``: solve the Santa 2023 set.

Each case is a position by colours (wildcards allowed) on a puzzle type of
``puzzle_info.csv``; every answer is verified by :func:`hlavolamy.solve.solve`
before it is written. ``--jobs`` worker processes share the cases; a worker
keeps each puzzle it built, so the macro library of a type is found once per
worker. A case that fails is reported on stderr and left out of the file
(exit status 1).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from hlavolamy.cli.solve import ProgressBar
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.errors import HlavolamyError
from hlavolamy.formats import santa

_WORKER: dict[str, object] = {}


@dataclass(frozen=True)
class Outcome:
    """One case's result: the formatted moves (or the error), its length and time."""

    id: str
    puzzle_type: str
    moves: str | None
    length: int
    time: float
    error: str | None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "santa",
        help="solve the Santa 2023 puzzles and write a submission",
        description="Read the Kaggle Santa 2023 files (puzzle_info.csv, puzzles.csv), solve every case with "
        "the generic solver and write id,moves rows.",
    )
    parser.add_argument("--info", required=True, metavar="CSV", help="puzzle_info.csv (puzzle_type,allowed_moves)")
    parser.add_argument("--puzzles", required=True, metavar="CSV", help="puzzles.csv (the cases)")
    parser.add_argument("--out", required=True, metavar="CSV", help="submission to write (id,moves)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds allowed per case")
    parser.add_argument("--types", metavar="LIST", help="only these puzzle types (comma-separated, e.g. cube_2/2/2)")
    parser.add_argument("--ids", metavar="LIST", help="only these case ids (comma-separated)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise HlavolamyError(f"--jobs must be at least 1, got {args.jobs}")
    santa.read_puzzle_info(args.info)  # fail early on a bad file
    cases = santa.read_puzzles(args.puzzles)
    if args.types:
        wanted = set(args.types.split(","))
        cases = [c for c in cases if c.puzzle_type in wanted]
    if args.ids:
        wanted = set(args.ids.split(","))
        cases = [c for c in cases if c.id in wanted]
    bar = ProgressBar(label="santa ")
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    work = [(c, args.time_limit) for c in cases]
    if args.jobs == 1:
        _init(args.info)
        results = map(_solve_case, work)
        outcomes = _collect(results, len(work), bar)
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs, initializer=_init, initargs=(args.info,)) as pool:
            outcomes = _collect(pool.imap_unordered(_solve_case, work), len(work), bar)
    bar.close()
    order = {c.id: k for k, c in enumerate(cases)}
    outcomes.sort(key=lambda o: order[o.id])
    santa.write_submission(args.out, [(o.id, o.moves) for o in outcomes if o.moves is not None])
    _summary(outcomes, time.perf_counter() - started)
    return 1 if any(o.error for o in outcomes) else 0


def _collect(results, total: int, bar: ProgressBar) -> list[Outcome]:
    out = []
    moves = 0
    for k, o in enumerate(results, start=1):
        out.append(o)
        moves += o.length
        if o.error:
            print(f"santa: case {o.id} ({o.puzzle_type}): {o.error}", file=sys.stderr)
        bar(k / max(total, 1), f"{k}/{total} cases, {moves} moves")
    return out


def _summary(outcomes: list[Outcome], elapsed: float) -> None:
    by_type: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_type[o.puzzle_type].append(o)
    print(f"{'type':<16} {'cases':>5} {'solved':>6} {'moves':>9} {'mean':>8} {'max s':>7}")
    for kind, items in by_type.items():
        ok = [o for o in items if o.moves is not None]
        total = sum(o.length for o in ok)
        print(f"{kind:<16} {len(items):>5} {len(ok):>6} {total:>9} {total / max(len(ok), 1):>8.1f} "
              f"{max(o.time for o in items):>7.1f}")
    solved = [o for o in outcomes if o.moves is not None]
    print(f"total: {len(solved)} of {len(outcomes)} solved, {sum(o.length for o in solved)} moves, {elapsed:.0f} s")


def _init(info_path: str) -> None:
    _WORKER["types"] = santa.read_puzzle_info(info_path)
    _WORKER["puzzles"] = {}


def _case_puzzle(case: santa.SantaCase) -> Puzzle:
    """The case's puzzle, built once per (type, solution colours) in this worker."""
    cache: dict = _WORKER["puzzles"]  # type: ignore[assignment]
    key = (case.puzzle_type, case.solution)
    if key not in cache:
        cache[key] = santa.case_puzzle(_WORKER["types"], case)  # type: ignore[arg-type]
    return cache[key]


def _harmless_turns(puzzle: Puzzle, colours: np.ndarray, wildcards: int) -> list[Turn]:
    """The competition rejects an empty answer: one move that keeps the case solved, else a move and its inverse."""
    for name, move in puzzle.moves.items():
        if int(np.count_nonzero(colours[move] != puzzle.colour_ids)) <= wildcards:
            return [Turn(name, 1)]
    name = next(iter(puzzle.moves))
    return [Turn(name, 1), Turn(name, -1)]


def _solve_case(item: tuple[santa.SantaCase, float | None]) -> Outcome:
    from hlavolamy.solve import solve

    case, limit = item
    started = time.perf_counter()
    try:
        puzzle = _case_puzzle(case)
        index = {label: i for i, label in enumerate(puzzle.colour_labels)}
        unknown = [c for c in case.initial if c not in index]
        if unknown:
            raise HlavolamyError(f"initial_state shows colour {unknown[0]!r}, which the solution_state lacks")
        colours = np.array([index[c] for c in case.initial], dtype=np.int64)
        solution = solve(puzzle, colours, wildcards=case.wildcards, time_limit=limit)
        moves = solution.moves or _harmless_turns(puzzle, colours, case.wildcards)
        return Outcome(case.id, case.puzzle_type, santa.format_moves(puzzle, moves), puzzle.length(moves),
                       time.perf_counter() - started, None)
    except HlavolamyError as exc:
        return Outcome(case.id, case.puzzle_type, None, 0, time.perf_counter() - started, str(exc))

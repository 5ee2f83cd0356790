"""``hlavolamy santa --info puzzle_info.csv --puzzles puzzles.csv --out submission.csv``: solve the Santa 2023 set.

Each case is a position by colours (wildcards allowed) on a puzzle type of
``puzzle_info.csv``; every answer is verified by :func:`hlavolamy.solve.solve`
before it is written. ``--jobs`` worker processes share the cases in tasks
of one puzzle type, biggest puzzles first (a worker keeps each puzzle it
built, so a big cube's macro library is found once). The submission is
rewritten atomically after every case, and ``--resume`` keeps the answers of
an earlier run that still replay correctly. A case that fails is reported on
stderr and left out of the file (exit status 1).
"""

from __future__ import annotations

import argparse
import multiprocessing
import queue
import sys
import time
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from hlavolamy.cli.common import check_time_limit
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
        "the generic solver and write id,moves rows. The submission is rewritten (atomically) after every "
        "case, so an interrupted run keeps what it solved; --resume continues it.",
    )
    parser.add_argument("--info", required=True, metavar="CSV", help="puzzle_info.csv (puzzle_type,allowed_moves)")
    parser.add_argument("--puzzles", required=True, metavar="CSV", help="puzzles.csv (the cases)")
    parser.add_argument("--out", required=True, metavar="CSV", help="submission to write (id,moves)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)")
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds allowed per case")
    parser.add_argument("--types", metavar="LIST", help="only these puzzle types (comma-separated, e.g. cube_2/2/2)")
    parser.add_argument("--ids", metavar="LIST", help="only these case ids (comma-separated)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the answers already in --out that replay correctly; solve only the rest")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise HlavolamyError(f"--jobs must be at least 1, got {args.jobs}")
    check_time_limit(args.time_limit)
    types = santa.read_puzzle_info(args.info)  # fail early on a bad file
    cases = santa.read_puzzles(args.puzzles)
    if args.types:
        wanted = set(args.types.split(","))
        cases = [c for c in cases if c.puzzle_type in wanted]
    if args.ids:
        wanted = set(args.ids.split(","))
        cases = [c for c in cases if c.id in wanted]
    for case in cases:
        santa.check_case(types, case, args.puzzles)
    started = time.perf_counter()
    outcomes = _resumed(types, cases, args.out) if args.resume else []
    done = {o.id for o in outcomes}
    tasks = _tasks([c for c in cases if c.id not in done], args.time_limit, types)
    sink = _Sink(args.out, cases, outcomes, ProgressBar(label="santa "))
    if args.jobs == 1:
        _init(args.info)
        for task in tasks:
            for item in task:
                sink.add(_solve_case(item))
    else:
        _run_pool(args, tasks, sink)
    sink.close()
    _summary(sink.outcomes, time.perf_counter() - started)
    return 1 if any(o.error for o in sink.outcomes) else 0


def _run_pool(args: argparse.Namespace, tasks: list[list[tuple[santa.SantaCase, float | None]]], sink: _Sink) -> None:
    """Workers take whole tasks but report every case as it ends, through a queue."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    pending = sum(len(t) for t in tasks)
    with context.Pool(args.jobs, initializer=_init, initargs=(args.info, results)) as pool:
        finished = pool.map_async(_solve_task, tasks, chunksize=1)
        while pending:
            try:
                outcome = results.get(timeout=1.0)
            except queue.Empty:
                if finished.ready():
                    finished.get()  # re-raises what stopped a worker
                    break
                continue
            sink.add(outcome)
            pending -= 1


_BIG_CELLS = 1000
"""Cases of a type with more cells than this go to one worker together: its macro library is built once."""
_CHUNK = 8
"""Cases of a smaller type per task."""


def _tasks(cases: list[santa.SantaCase], limit: float | None,
           types: dict[str, Puzzle]) -> list[list[tuple[santa.SantaCase, float | None]]]:
    """Cases in tasks of one type, biggest puzzles first, so the longest work starts at once and workers end together."""
    by_type: dict[str, list[santa.SantaCase]] = defaultdict(list)
    for c in cases:
        by_type[c.puzzle_type].append(c)
    tasks = []
    for kind, items in by_type.items():
        size = len(items) if types[kind].n_cells > _BIG_CELLS else _CHUNK
        tasks += [(types[kind].n_cells, [(c, limit) for c in items[k:k + size]]) for k in range(0, len(items), size)]
    tasks.sort(key=lambda t: -t[0])
    return [t[1] for t in tasks]


class _Sink:
    """Collects outcomes: a log line or the bar per case, and the submission rewritten after each one."""

    def __init__(self, path: str, cases: list[santa.SantaCase], outcomes: list[Outcome], bar: ProgressBar):
        self.path = path
        self.order = {c.id: k for k, c in enumerate(cases)}
        self.outcomes = list(outcomes)
        self.total = len(cases)
        self.bar = bar
        self.moves = sum(o.length for o in outcomes)

    def add(self, o: Outcome) -> None:
        self.outcomes.append(o)
        self.moves += o.length
        done = len(self.outcomes)
        if o.error:
            print(f"santa: case {o.id} ({o.puzzle_type}): {o.error}", file=sys.stderr)
        if self.bar.enabled:
            self.bar(done / max(self.total, 1), f"{done}/{self.total} cases, {self.moves} moves")
        else:
            print(f"santa: {done}/{self.total} case {o.id} {o.puzzle_type}: "
                  f"{'FAILED' if o.error else f'{o.length} moves'} in {o.time:.1f} s (total {self.moves} moves)",
                  file=sys.stderr, flush=True)
        self._write()

    def _write(self) -> None:
        solved = sorted((o for o in self.outcomes if o.moves is not None), key=lambda o: self.order[o.id])
        santa.write_submission(self.path, [(o.id, o.moves) for o in solved])

    def close(self) -> None:
        self._write()
        self.bar.close()
        self.outcomes.sort(key=lambda o: self.order[o.id])


def _resumed(types: dict[str, Puzzle], cases: list[santa.SantaCase], path: str) -> list[Outcome]:
    """Outcomes for the cases whose answer in an earlier submission still replays to its goal."""
    earlier = santa.read_submission(path)
    out = []
    for case in cases:
        text = earlier.get(case.id)
        if text is None:
            continue
        puzzle = santa.case_puzzle(types, case)
        try:
            turns = puzzle.parse(text)
        except HlavolamyError:
            continue
        colours = _start_colours(puzzle, case)
        if int(np.count_nonzero(colours[puzzle.perm_of(turns)] != puzzle.colour_ids)) <= case.wildcards:
            out.append(Outcome(case.id, case.puzzle_type, text, puzzle.length(turns), 0.0, None))
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


def _init(info_path: str, results: multiprocessing.Queue | None = None) -> None:
    _WORKER["types"] = santa.read_puzzle_info(info_path)
    _WORKER["puzzles"] = {}
    _WORKER["results"] = results
    from hlavolamy.solve.registry import RaceRecords

    _WORKER["records"] = RaceRecords()  # this run's (the worker's share): auto learns which races pay


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


def _start_colours(puzzle: Puzzle, case: santa.SantaCase) -> np.ndarray:
    index = {label: i for i, label in enumerate(puzzle.colour_labels)}
    unknown = [c for c in case.initial if c not in index]
    if unknown:
        raise HlavolamyError(f"initial_state shows colour {unknown[0]!r}, which the solution_state lacks")
    return np.array([index[c] for c in case.initial], dtype=np.int64)


def _solve_task(task: list[tuple[santa.SantaCase, float | None]]) -> None:
    """In a worker: solve the task's cases one by one, each outcome sent at once."""
    for item in task:
        _WORKER["results"].put(_solve_case(item))  # type: ignore[attr-defined]


def _solve_case(item: tuple[santa.SantaCase, float | None]) -> Outcome:
    from hlavolamy.solve import solve

    case, limit = item
    started = time.perf_counter()
    try:
        puzzle = _case_puzzle(case)
        colours = _start_colours(puzzle, case)
        solution = solve(puzzle, colours, wildcards=case.wildcards, time_limit=limit, records=_WORKER.get("records"))
        moves = solution.moves or _harmless_turns(puzzle, colours, case.wildcards)
        return Outcome(case.id, case.puzzle_type, santa.format_moves(puzzle, moves), puzzle.length(moves),
                       time.perf_counter() - started, None)
    except HlavolamyError as exc:
        return Outcome(case.id, case.puzzle_type, None, 0, time.perf_counter() - started, str(exc))

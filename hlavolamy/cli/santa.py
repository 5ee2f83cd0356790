"""``hlavolamy santa --info puzzle_info.csv --puzzles puzzles.csv --out submission.csv``: solve the Santa 2023 set.

A front end of the batch runner (:mod:`hlavolamy.batch`): each case is a
position by colours (wildcards allowed) on a puzzle type of
``puzzle_info.csv``, solved where ``--jobs``/``--cluster``/``--scheduler``
say, in tasks of one puzzle, biggest puzzles first (a worker keeps each
puzzle it built, so a big cube's macro library is found once). Every answer
is replayed on the worker and again before it is written. The submission is
rewritten atomically as cases end, and ``--resume`` keeps the answers of an
earlier run that still replay correctly. A case that fails is reported on
stderr and left out of the file (exit status 1).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Callable

from hlavolamy.batch import runner
from hlavolamy.batch.collect import Progress
from hlavolamy.batch.jsonl import colour_ids
from hlavolamy.batch.model import Job, Result
from hlavolamy.cli import UsageError
from hlavolamy.cli.batch import Reporter, add_engine_arguments, engine_from
from hlavolamy.cli.common import check_time_limit
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import HlavolamyError
from hlavolamy.formats import santa


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "santa",
        help="solve the Santa 2023 puzzles and write a submission",
        description="Read the Kaggle Santa 2023 files (puzzle_info.csv, puzzles.csv), solve every case with "
        "the generic solver and write id,moves rows. The submission is rewritten (atomically) as cases end, "
        "so an interrupted run keeps what it solved; --resume continues it.",
    )
    parser.add_argument("--info", required=True, metavar="CSV", help="puzzle_info.csv (puzzle_type,allowed_moves)")
    parser.add_argument("--puzzles", required=True, metavar="CSV", help="puzzles.csv (the cases)")
    parser.add_argument("--out", required=True, metavar="CSV", help="submission to write (id,moves)")
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds allowed per case")
    parser.add_argument("--types", metavar="LIST", help="only these puzzle types (comma-separated, e.g. cube_2/2/2)")
    parser.add_argument("--ids", metavar="LIST", help="only these case ids (comma-separated; a-b is a range, e.g. "
                        "257-276,337)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the answers already in --out that replay correctly; solve only the rest")
    add_engine_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    limit = check_time_limit(args.time_limit)
    engine = engine_from(args)
    types = santa.read_puzzle_info(args.info)  # fail early on a bad file
    cases = santa.read_puzzles(args.puzzles)
    if args.types:
        cases = _chosen(cases, "--types", _listed(args.types), lambda c: c.puzzle_type)
    if args.ids:
        cases = _chosen(cases, "--ids", _id_list(args.ids), lambda c: c.id)
    for case in cases:
        santa.check_case(types, case, args.puzzles)
    started = time.perf_counter()
    entries, bad = _entries(types, cases, limit, args.puzzles)
    for result in bad.values():
        print(f"santa: case {result.id}: {result.error}", file=sys.stderr)
    puzzles = {job.id: puzzle for puzzle, job in entries}
    earlier = _earlier(puzzles, args.out) if args.resume else []
    order = {c.id: k for k, c in enumerate(cases)}

    def write(results: dict[str, Result]) -> None:
        solved = sorted((r for r in results.values() if r.ok and r.turns is not None), key=lambda r: order[r.id])
        santa.write_submission(args.out, [(r.id, santa.format_moves(puzzles[r.id], r.turns)) for r in solved])

    log = _CaseLog({c.id: c.puzzle_type for c in cases})
    try:
        results = runner.run(entries, engine, write, earlier=earlier, on_result=log, on_note=log.reporter.note,
                             write_every=0.0)
    finally:
        log.reporter.close()
    results.update(bad)
    _summary(cases, results, time.perf_counter() - started)
    return 1 if any(not r.ok for r in results.values()) else 0


def _listed(text: str) -> list[str]:
    """A comma-separated list, blanks dropped."""
    return [item.strip() for item in text.split(",") if item.strip()]


def _id_list(text: str) -> list[str]:
    """``--ids``: ids and inclusive ranges ``a-b`` of numeric ids."""
    ids: list[str] = []
    for item in _listed(text):
        first, dash, last = item.partition("-")
        if not dash:
            ids.append(item)
        elif first.isdigit() and last.isdigit() and int(first) <= int(last):
            ids += [str(k) for k in range(int(first), int(last) + 1)]
        else:
            raise UsageError(f"--ids: {item!r} is not a range of case ids (like 257-276)")
    return ids


def _chosen(cases: list[santa.SantaCase], option: str, wanted: list[str],
            key: Callable[[santa.SantaCase], str]) -> list[santa.SantaCase]:
    """The cases whose ``key`` is listed; a listed value no case has is an error (a typo must not run nothing)."""
    known = {key(c) for c in cases}
    missing = [w for w in wanted if w not in known]
    if missing:
        raise UsageError(f"{option}: no case has {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    chosen = set(wanted)
    return [c for c in cases if key(c) in chosen]


def _entries(types: dict[str, Puzzle], cases: list[santa.SantaCase], limit: float | None,
             source: str) -> tuple[list[tuple[Puzzle, Job]], dict[str, Result]]:
    """Each case as a job by colours on its puzzle (one puzzle per type and solution colours, shared).

    A case whose start shows a colour its solution lacks is not solved: it is that case's failure.
    """
    made: dict[tuple[str, tuple[str, ...]], Puzzle] = {}
    out = []
    bad: dict[str, Result] = {}
    for case in cases:
        key = (case.puzzle_type, case.solution)
        if key not in made:
            made[key] = santa.case_puzzle(types, case, source)
        puzzle = made[key]
        try:
            start = colour_ids(puzzle, case.initial, f"{source}, line {case.line}: initial_state")
        except HlavolamyError as exc:
            bad[case.id] = Result.failed(case.id, str(exc))
            continue
        out.append((puzzle, Job(case.id, start, False, case.wildcards, time_limit=limit, nonempty=True)))
    return out, bad


def _earlier(puzzles: dict[str, Puzzle], path: str) -> list[Result]:
    """The answers of an earlier submission that parse (the runner keeps those that still replay)."""
    out = []
    for case_id, text in santa.read_submission(path).items():
        puzzle = puzzles.get(case_id)
        if puzzle is None:
            continue
        try:
            turns = tuple(puzzle.parse(text))
        except HlavolamyError:
            continue
        out.append(Result(case_id, turns, puzzle.length(turns)))
    return out


class _CaseLog:
    """One stderr line per case (or the bar on a terminal), with the running move total."""

    def __init__(self, kinds: dict[str, str]):
        self.kinds = kinds
        self.reporter = Reporter("santa: ")
        self.moves = 0

    def __call__(self, result: Result, progress: Progress) -> None:
        self.moves += result.length
        kind = self.kinds[result.id]
        if result.error:
            print(f"santa: case {result.id} ({kind}): {result.error}", file=sys.stderr)
        if self.reporter.bar.enabled:
            self.reporter.bar(progress.done / max(progress.total, 1), f"{progress.text()}, {self.moves} moves")
        else:
            print(f"santa: {progress.done}/{progress.total} case {result.id} {kind}: "
                  f"{'FAILED' if result.error else f'{result.length} moves'} in {result.time:.1f} s "
                  f"({progress.text()}, {self.moves} new moves)", file=sys.stderr, flush=True)


def _summary(cases: list[santa.SantaCase], results: dict[str, Result], elapsed: float) -> None:
    by_type: dict[str, list[Result]] = defaultdict(list)
    for case in cases:
        if case.id in results:
            by_type[case.puzzle_type].append(results[case.id])
    print(f"{'type':<16} {'cases':>5} {'solved':>6} {'moves':>9} {'mean':>8} {'max s':>7}")
    for kind, items in by_type.items():
        ok = [r for r in items if r.ok]
        total = sum(r.length for r in ok)
        print(f"{kind:<16} {len(items):>5} {len(ok):>6} {total:>9} {total / max(len(ok), 1):>8.1f} "
              f"{max(r.time for r in items):>7.1f}")
    solved = [r for r in results.values() if r.ok]
    print(f"total: {len(solved)} of {len(results)} solved, {sum(r.length for r in solved)} moves, {elapsed:.0f} s")

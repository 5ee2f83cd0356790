"""``hlavolamy batch IN.jsonl -o OUT.jsonl``: solve many positions of any puzzles, here or on a Dask cluster.

One input object per line, one result line per input (see
:mod:`hlavolamy.batch.jsonl`); every answer is replayed on the worker and
again here before it is written. The output is rewritten atomically as
results arrive; ``--resume`` keeps the answers in it that still replay and
solves the rest. The engine options (``--jobs``, ``--cluster``,
``--scheduler``) are shared with ``hlavolamy santa``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hlavolamy.batch import jsonl, runner
from hlavolamy.batch.collect import Progress
from hlavolamy.batch.engines import Engine, Pool, Serial
from hlavolamy.batch.model import Result
from hlavolamy.cli.common import check_time_limit, check_wildcards
from hlavolamy.cli.solve import ProgressBar
from hlavolamy.core.fileformat import write_atomic
from hlavolamy.errors import HlavolamyError

REPORT_EVERY = 10.0
"""Seconds between plain progress lines when stderr is not a terminal."""


def register(subparsers: argparse._SubParsersAction) -> None:
    from hlavolamy.solve import names

    parser = subparsers.add_parser(
        "batch",
        help="solve many positions (JSON Lines) on local processes or a Dask cluster",
        description="Solve one position per line of a JSON Lines file and write one result line per input. "
        "A line: {\"puzzle\": FILE or {...}, \"state\": [...] | \"colours\": [...] | \"scramble\": N, \"seed\": S, "
        "\"id\", \"strategy\", \"time_limit\", \"wildcards\"}. The output is rewritten atomically as results come; "
        "--resume keeps its verified answers and solves the rest.",
    )
    parser.add_argument("input", metavar="IN.jsonl", help="positions to solve, one JSON object per line")
    parser.add_argument("-o", "--out", required=True, metavar="OUT.jsonl", help="results, one JSON object per line")
    parser.add_argument("--strategy", choices=names(), default="auto", help="for lines that name none (default auto)")
    parser.add_argument("--time-limit", type=float, metavar="S", help="seconds per position, for lines that give none")
    parser.add_argument("--wildcards", type=int, default=0, metavar="K", help="for lines that give none (default 0)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the answers already in OUT that replay correctly; solve only the rest")
    add_engine_arguments(parser)
    parser.set_defaults(func=run)


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` | ``--cluster local[:N]`` | ``--scheduler ADDRESS``: where the positions are solved."""
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes on this machine (default 1)")
    engine.add_argument("--cluster", metavar="local[:N]",
                        help="start a Dask LocalCluster of N worker processes (needs the 'cluster' extra)")
    engine.add_argument("--scheduler", metavar="ADDRESS",
                        help="use a running Dask scheduler, e.g. tcp://host:8786 (needs the 'cluster' extra)")


def engine_from(args: argparse.Namespace) -> Engine:
    """The engine the options ask for; Dask's absence is reported here, before any work."""
    if args.cluster or args.scheduler:
        from hlavolamy.batch.cluster import Cluster, parse_local

        return Cluster(args.scheduler) if args.scheduler else Cluster(workers=parse_local(args.cluster))
    if args.jobs < 1:
        raise HlavolamyError(f"--jobs must be at least 1, got {args.jobs}")
    return Serial() if args.jobs == 1 else Pool(args.jobs)


class Reporter:
    """The progress line: in place on a terminal, else a plain line every :data:`REPORT_EVERY` seconds."""

    def __init__(self, label: str):
        self.label = label
        self.bar = ProgressBar(label=label)
        self._last = float("-inf")

    def note(self, text: str) -> None:
        print(f"{self.label}{text}", file=sys.stderr, flush=True)

    def __call__(self, result: Result, progress: Progress) -> None:
        if self.bar.enabled:
            self.bar(progress.done / max(progress.total, 1), progress.text())
        elif time.monotonic() - self._last >= REPORT_EVERY or progress.done == progress.total:
            self._last = time.monotonic()
            print(f"{self.label}{progress.text()}", file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()


def run(args: argparse.Namespace) -> int:
    from hlavolamy.solve import names

    defaults = jsonl.Defaults(args.strategy, check_time_limit(args.time_limit), check_wildcards(args.wildcards),
                              tuple(names()))
    engine = engine_from(args)
    batch = jsonl.read_batch(args.input, defaults)
    earlier = jsonl.read_earlier(args.out, batch) if args.resume else []
    out = Path(args.out)
    reporter = Reporter("batch: ")
    for _, (_, reason) in sorted(batch.errors.items()):
        print(f"batch: {reason}", file=sys.stderr)
    started = time.monotonic()
    try:
        results = runner.run(batch.entries, engine, lambda found: write_atomic(out, jsonl.dumps_results(batch, found)),
                             earlier=earlier, on_result=reporter, on_note=reporter.note)
    finally:
        reporter.close()
    failed = [r for r in results.values() if not r.ok]
    for result in failed:
        print(f"batch: line {batch.lines[result.id]} (id {result.id}): {result.error}", file=sys.stderr)
    solved = len(results) - len(failed)
    print(f"batch: {solved} of {len(batch.entries) + len(batch.errors)} positions solved and verified "
          f"({len(batch.errors)} unreadable lines, {len(failed)} failed) in {time.monotonic() - started:.1f} s; "
          f"results in {out}", file=sys.stderr)
    return 1 if failed or batch.errors else 0

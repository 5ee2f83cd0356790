"""``hlavolamy info PUZZLE [--json]``: cells, moves and the structure analysis.

On a puzzle with blockings the group analysis describes the puzzle with the
blockings lifted, and the blocking analysis (shapes, legal moves, the exact
count of reachable positions) follows it (``"blocking"`` in the JSON).
"""

from __future__ import annotations

import argparse
import json
import sys

from hlavolamy.analysis import analyse
from hlavolamy.analysis.blocking import analyse_blocking
from hlavolamy.cli.common import add_puzzle_argument, load_puzzle_arg
from hlavolamy.core.progress import report


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "info",
        help="cells, moves and the structure: orbits, blocks, invariants, group order, 3-cycles",
        description="Analyse the puzzle from its moves alone: each move's order and cycle type, the orbits, "
        "the blocks (pieces) with their orientation, the parity and twist laws of every reachable position, "
        "the group order and a library of 3-cycles.",
    )
    add_puzzle_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the analysis as one JSON object (schema in docs/cli.md)")
    parser.add_argument("--no-three-cycles", action="store_true", help="skip the 3-cycle library (faster)")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr")
    parser.set_defaults(func=run)


def _progress(fraction: float, message: str) -> None:
    print(f"\r{fraction:4.0%} {message:<40}", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle_arg(args.puzzle).puzzle
    analysis = analyse(puzzle, three_cycles=not args.no_three_cycles, progress=_progress if args.progress else None)
    if args.progress:
        report(_progress, 1.0, "")
        print(file=sys.stderr)
    blocking = analyse_blocking(puzzle) if puzzle.blockings else None
    if args.json:
        data = analysis.to_json()
        if blocking is not None:
            data["blocking"] = blocking.to_json()
        print(json.dumps(data))
    else:
        if puzzle.description:
            print(puzzle.description)
        if blocking is not None:
            print("With the blockings lifted:")
        print(analysis.report())
        if blocking is not None:
            print(blocking.report())
    return 0

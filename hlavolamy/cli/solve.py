"""``hlavolamy solve PUZZLE (--scramble N --seed S | --state JSON | --colours JSON)``: solve a position.

Prints the solution and its length (``--json``: one object with the start
state and the moves). A progress bar goes to stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import IO

from hlavolamy.cli.common import (
    add_puzzle_argument, check_time_limit, check_wildcards, load_plugins, load_puzzle_arg, parse_colours_json,
    parse_state_json,
)
from hlavolamy.core.limits import MAX_SCRAMBLE
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from hlavolamy.solve import MODES, names, solve


class ProgressBar:
    """A one-line text bar redrawn in place on ``stream`` (at most ten times a second)."""

    def __init__(self, stream: IO[str] | None = None, label: str = "", width: int = 30):
        self.stream = stream or sys.stderr
        self.label = label
        self.width = width
        self._last = 0.0
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, fraction: float, message: str = "") -> None:
        now = time.monotonic()
        if not self.enabled or (now - self._last < 0.1 and fraction < 1.0):
            return
        self._last = now
        filled = int(round(fraction * self.width))
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label}[{bar}] {fraction * 100:5.1f}% {message[:40]:<40}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a position (a scramble, an exact state or a colouring)",
        description="Solve a position with the puzzle's own moves. The answer is simplified and verified "
        "by replay; an unreachable position is reported with the reason.",
    )
    add_puzzle_argument(parser)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--scramble", type=int, metavar="N",
                        help=f"solve a random scramble of N turns (with --seed; at most {MAX_SCRAMBLE})")
    source.add_argument("--state", metavar="JSON", help="exact position: a permutation list, or @file")
    source.add_argument("--colours", metavar="JSON", help="position by colours: one label per cell, or @file")
    parser.add_argument("--seed", type=int, default=0, help="seed of --scramble (default 0)")
    load_plugins()  # a plugin's strategy is a valid --strategy
    parser.add_argument("--strategy", choices=names(), default="auto", help="solving strategy (default auto)")
    parser.add_argument("--mode", choices=MODES, default="whole", help="what to solve (default whole)")
    parser.add_argument("--orbit", type=int, help="orbit index for the orbit modes (see 'hlavolamy info')")
    parser.add_argument("--wildcards", type=int, default=0, metavar="K", help="accept up to K wrong cells")
    parser.add_argument("--time-limit", type=float, metavar="S",
                        help="give up after S seconds (the time of --scramble counts too)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_wildcards(args.wildcards)
    token = CancelToken.with_time_limit(check_time_limit(args.time_limit))
    puzzle = load_puzzle_arg(args.puzzle).puzzle
    scramble = None
    if args.scramble is not None:
        scramble = random_scramble(puzzle, args.scramble, args.seed, cancel=token)
        position = State.solved(puzzle).apply(scramble)
        start = {"scramble": puzzle.format(scramble), "perm": position.perm.tolist()}
    elif args.state is not None:
        position = parse_state_json(args.state, puzzle)
        start = {"perm": position.perm.tolist()}
    else:
        position = parse_colours_json(args.colours, puzzle)
        start = {"colours": [puzzle.colour_labels[c] for c in position.tolist()]}
    bar = ProgressBar(label="solving ")
    try:
        solution = solve(puzzle, position, strategy=args.strategy, mode=args.mode, orbit=args.orbit,
                         wildcards=args.wildcards, progress=bar, cancel=token)
    finally:
        bar.close()
    text = puzzle.format(solution.moves)
    if args.json:
        print(json.dumps({"start": start, "moves": text, "turns": [list(t) for t in solution.moves],
                          "length": solution.length, "time": round(solution.time, 3), "strategy": solution.strategy}, ensure_ascii=False))
    else:
        if scramble is not None:
            print(f"scramble: {start['scramble']}")
        print(f"solution: {text}")
        print(f"length: {solution.length} ({solution.strategy}, {solution.time:.2f} s, verified)")
    return 0

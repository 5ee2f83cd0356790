"""``hlavolamy solve PUZZLE (--scramble N --seed S | --state JSON | --colours JSON)``: solve a position.

Prints the solution and its length (``--json``: one object with the start
state and the moves). A progress bar goes to stderr when it is a terminal;
with ``auto`` the first answer and each better one are reported on stderr as
they come (``--quiet``: not), the best is printed at the end.
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
from hlavolamy.solve import MODES, Improvement, RaceRecords, names, solve


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

    def clear(self) -> None:
        """Blank the bar's line, so a message can be printed on it."""
        if self.enabled:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
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
                        help="stop improving after S seconds and print the best answer held (auto); without an "
                             "answer by then, the first-answer route goes on until it has spent S and S (at least "
                             "60) more seconds of CPU (the time of --scramble counts too)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true",
                        help="do not report the first answer and the better ones on stderr while solving")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_wildcards(args.wildcards)
    began = time.monotonic()
    limit = check_time_limit(args.time_limit)
    token = CancelToken.with_time_limit(limit)
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
    left = None if limit is None else max(0.0, limit - (time.monotonic() - began))
    def told(news: Improvement) -> None:  # the first answer at once, then each better one (stderr)
        bar.clear()
        if news.first:
            print(f"first answer ({news.length} moves, {news.strategy}, {news.elapsed:.2f} s): "
                  f"{puzzle.format(list(news.moves))}", file=sys.stderr, flush=True)
        else:
            print(f"{news.message} after {news.elapsed:.2f} s", file=sys.stderr, flush=True)

    try:
        solution = solve(puzzle, position, strategy=args.strategy, mode=args.mode, orbit=args.orbit,
                         wildcards=args.wildcards, progress=bar, time_limit=left, records=RaceRecords(),
                         on_answer=None if args.quiet else told)
    finally:
        bar.close()
    text = puzzle.format(solution.moves)
    if args.json:
        print(json.dumps({"start": start, "moves": text, "turns": [list(t) for t in solution.moves],
                          "length": solution.length, "time": round(solution.time, 3), "strategy": solution.strategy,
                          "first_time": _rounded(solution.first_time), "first_length": solution.first_length,
                          "first_cpu": _rounded(solution.first_cpu),
                          "cut_by_limit": solution.cut}, ensure_ascii=False))
    else:
        if scramble is not None:
            print(f"scramble: {start['scramble']}")
        print(f"solution: {text}")
        cut = ", cut by the time limit" if solution.cut else ""
        print(f"length: {solution.length} ({solution.strategy}, {solution.time:.2f} s, verified{cut})")
        if solution.first_time is not None and solution.first_length != solution.length:
            print(f"first answer: {solution.first_length} moves after {solution.first_time:.2f} s")
    return 0


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 3)

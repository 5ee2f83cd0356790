"""``hlavolamy scramble PUZZLE --moves 30 --seed 1``: a random scramble and the state it gives."""

from __future__ import annotations

import argparse
import random

from hlavolamy.cli.common import add_puzzle_argument, check_time_limit, load_puzzle_arg, print_state
from hlavolamy.core.fileformat import save_puzzle
from hlavolamy.core.limits import MAX_SCRAMBLE
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "scramble",
        help="a random scramble of the puzzle's moves and the resulting state",
        description="Generate random turns of the puzzle's moves from the solved state: no turn "
        "undoes or merges with an earlier one, and on puzzles with blockings every turn is legal.",
    )
    add_puzzle_argument(parser)
    parser.add_argument("--moves", type=int, default=30, metavar="N",
                        help=f"number of turns (default 30, at most {MAX_SCRAMBLE})")
    parser.add_argument("--time-limit", type=float, metavar="S", help="give up after S seconds")
    parser.add_argument("--seed", type=int, help="random seed (default: a new one, printed so it can be repeated)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="also save the puzzle with the scrambled position and the scramble as its history"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_puzzle_arg(args.puzzle)
    puzzle = loaded.puzzle
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    deadline = CancelToken.with_time_limit(check_time_limit(args.time_limit))
    turns = random_scramble(puzzle, args.moves, seed, cancel=deadline)
    state = State.solved(puzzle).apply(turns)
    if args.output:
        save_puzzle(args.output, puzzle, state, turns, loaded.extra)
    info = {"scramble": puzzle.format(turns), "seed": seed, "turns": len(turns), "length": puzzle.length(turns)}
    print_state(state, as_json=args.json, extra=info)
    return 0

"""``hlavolamy apply PUZZLE "SEQUENCE"``: the state a move sequence leads to."""

from __future__ import annotations

import argparse

from hlavolamy.cli.common import add_puzzle_argument, load_puzzle_arg, parse_state_json, print_state
from hlavolamy.core.state import State


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "apply",
        help="play a move sequence and print the resulting state",
        description="Play a move sequence (see docs/notation.md) from the solved state, "
        "or from --from-state, and print the resulting state.",
    )
    add_puzzle_argument(parser)
    parser.add_argument("sequence", metavar="SEQUENCE", help="moves in notation, e.g. \"[R, U] (R U R' U')6\"")
    parser.add_argument(
        "--from-state",
        metavar="JSON",
        help="start here instead of the solved state: a permutation list, or @FILE "
        "(a list, the output of --json, or a puzzle file with a position)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def prepare_argv(args: list[str]) -> list[str]:
    """Make ``apply PUZZLE -R`` work: arguments like ``-R`` or ``-(R U)`` that are no option of
    ``apply`` are notation (docs/notation.md), so they go after a ``--`` where argparse takes them
    as the SEQUENCE. Unchanged when the user wrote ``--`` already.
    """
    if "--" in args:
        return args
    options = {"-h", "--help", "--json", "--from-state"}
    moves = [a for a in args if len(a) > 1 and a[0] == "-" and a[1] != "-" and a not in options]
    if not moves:
        return args
    return [a for a in args if a not in moves] + ["--", *moves]


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle_arg(args.puzzle).puzzle
    start = parse_state_json(args.from_state, puzzle) if args.from_state else State.solved(puzzle)
    turns = puzzle.parse(args.sequence)
    state = start.apply(turns)
    info = {"sequence": puzzle.format(turns), "turns": len(turns), "length": puzzle.length(turns)}
    print_state(state, as_json=args.json, extra=info)
    return 0

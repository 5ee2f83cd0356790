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


_OPTIONS = {"-h": False, "--help": False, "--json": False, "--from-state": True}
"""``apply``'s options, and whether each takes a value."""


def prepare_argv(args: list[str]) -> list[str]:
    """Make ``apply PUZZLE -R`` work: arguments like ``-R``, ``-(R U)`` or ``----R`` that are no option of
    ``apply`` are notation (docs/notation.md), so they go after a ``--`` where argparse takes them
    as the SEQUENCE (and the notation parser says what is wrong with them). Unchanged when the
    user wrote ``--`` already.
    """
    if "--" in args:
        return args
    kept: list[str] = []
    moves: list[str] = []
    value_next = False
    for arg in args:
        if not value_next and len(arg) > 1 and arg[0] == "-":
            option = _option(arg)
            if option is None:
                moves.append(arg)
                continue
            value_next = _OPTIONS[option] and "=" not in arg
        else:
            value_next = False
        kept.append(arg)
    return [*kept, "--", *moves] if moves else kept


def _option(arg: str) -> str | None:
    """The option ``arg`` names as argparse reads it (``--from-state=X``, ``--js``), or None when it is notation."""
    name = arg.split("=", 1)[0] if arg.startswith("--") else arg
    if name in _OPTIONS:
        return name
    matches = [option for option in _OPTIONS if name.startswith("--") and len(name) > 2 and option.startswith(name)]
    return matches[0] if len(matches) == 1 else None


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle_arg(args.puzzle).puzzle
    start = parse_state_json(args.from_state, puzzle) if args.from_state else State.solved(puzzle)
    turns = puzzle.parse(args.sequence)
    state = start.apply(turns)
    info = {"sequence": puzzle.format(turns), "turns": len(turns), "length": puzzle.length(turns)}
    print_state(state, as_json=args.json, extra=info)
    return 0

"""``hlavolamy check PUZZLE (--state JSON | --colours JSON)``: is the position reachable, and if not, why."""

from __future__ import annotations

import argparse
import json

from hlavolamy.analysis.colours import assign_colours
from hlavolamy.analysis.membership import Reachability, check_state
from hlavolamy.cli.common import (
    add_puzzle_argument, check_wildcards, load_puzzle_arg, parse_colours_json, parse_state_json,
)
from hlavolamy.core.state import State
from hlavolamy.errors import UnreachableError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="is a position reachable from the solved one? says why not",
        description="Check a position given as a permutation (--state) or as colours only (--colours). "
        "Exit status 0: reachable; 1: unreachable; 2: bad input. The answer says whether it is exact "
        "(Schreier-Sims, or a broken orbit, piece or invariant law) or only that every law holds.",
    )
    add_puzzle_argument(parser)
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--state", metavar="JSON", help="permutation as JSON, or @file")
    given.add_argument("--colours", metavar="JSON", help="one colour label per cell as JSON, or @file")
    parser.add_argument("--wildcards", type=int, default=0, metavar="K",
                        help="with --colours: up to K cells may show another colour (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_wildcards(args.wildcards)
    puzzle = load_puzzle_arg(args.puzzle).puzzle
    state: State | None = None
    if args.state is not None:
        verdict = check_state(puzzle, parse_state_json(args.state, puzzle))
    else:
        try:
            state = assign_colours(puzzle, parse_colours_json(args.colours, puzzle), wildcards=args.wildcards)
        except UnreachableError as exc:
            verdict = Reachability(False, True, [str(exc)])
        else:
            verdict = check_state(puzzle, state)
    _print(verdict, state, args.json)
    return 0 if verdict.reachable else 1


def _print(verdict: Reachability, state: State | None, as_json: bool) -> None:
    if as_json:
        out = {"reachable": verdict.reachable, "exact": verdict.exact, "reasons": verdict.reasons}
        if state is not None:
            out["perm"] = state.perm.tolist()
        print(json.dumps(out))
        return
    if verdict.reachable:
        print("reachable" + ("" if verdict.exact else " as far as orbits, pieces and invariants tell"))
    else:
        print("unreachable")
    for reason in verdict.reasons:
        print(f"  - {reason}")
    if state is not None and verdict.reachable:
        print(f"a position showing these colours: {json.dumps(state.perm.tolist())}")

"""``hlavolamy export FORMAT PUZZLE.json -o FILE``: a puzzle file in another tool's format."""

from __future__ import annotations

import argparse

from hlavolamy import formats
from hlavolamy.cli.common import add_puzzle_argument, load_plugins, load_puzzle_arg


def register(subparsers: argparse._SubParsersAction) -> None:
    load_plugins()  # a plugin's formats are valid FORMATs
    names = [f.name for f in formats.FORMATS.values() if f.can_export]
    parser = subparsers.add_parser(
        "export",
        help="write a puzzle file as KPuzzle, ksolve/twsearch, GAP, Santa CSV or SiGN",
        description="Write a puzzle (or, for santa and sign, its move history) in another tool's format. Formats: "
        + "; ".join(f"{f.name}: {f.description}" for f in formats.FORMATS.values() if f.can_export),
    )
    parser.add_argument("format", metavar="FORMAT", choices=names, help="one of: " + ", ".join(names))
    add_puzzle_argument(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    loaded = load_puzzle_arg(args.puzzle)
    formats.export_file(args.format, loaded, args.output)
    print(f"wrote {args.output} ({args.format})")
    return 0

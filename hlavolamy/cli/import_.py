"""``hlavolamy import FORMAT FILE -o PUZZLE.json``: a puzzle file from another tool's format.

The module is ``import_`` because ``import`` is a Python keyword; the command
is ``import``. Each format's options (``--type``, ``--id``...) come from the
registry in :mod:`hlavolamy.formats`, so a new format needs no change here.
"""

from __future__ import annotations

import argparse

from hlavolamy import formats
from hlavolamy.cli.common import load_plugins
from hlavolamy.core.fileformat import save_puzzle


def option_flag(option: formats.Option) -> str:
    return "--" + option.name.replace("_", "-")


def register(subparsers: argparse._SubParsersAction) -> None:
    load_plugins()  # a plugin's formats are valid FORMATs
    parser = subparsers.add_parser(
        "import",
        help="make a puzzle file from a KPuzzle, ksolve/twsearch, GAP, Santa or SiGN file",
        description="Read another tool's file and write a Hlavolamy puzzle file. Formats: "
        + "; ".join(f"{f.name}: {f.description}" for f in formats.FORMATS.values() if f.can_import),
    )
    parser.add_argument("format", metavar="FORMAT", choices=[f.name for f in formats.FORMATS.values() if f.can_import],
                        help="one of: " + ", ".join(f.name for f in formats.FORMATS.values() if f.can_import))
    parser.add_argument("file", metavar="FILE", help="the file to read")
    parser.add_argument("-o", "--output", required=True, metavar="PUZZLE.json", help="puzzle file to write")
    seen: dict[str, formats.Option] = {}
    for fmt in formats.FORMATS.values():
        for option in fmt.options:
            if option.name in seen:
                continue
            seen[option.name] = option
            users = ", ".join(f.name for f in formats.FORMATS.values() if option in f.options)
            if option.kind is bool:
                parser.add_argument(option_flag(option), dest=option.name, action="store_true", default=None,
                                    help=f"{option.help} ({users})")
            else:
                parser.add_argument(option_flag(option), dest=option.name, default=None,
                                    metavar="FILE" if option.kind == "path" else "VALUE", help=f"{option.help} ({users})")
    parser.set_defaults(func=run, option_names=tuple(seen))


def run(args: argparse.Namespace) -> int:
    from hlavolamy.plugins.manager import attach_geometry  # plugins load only when a file is imported

    options = {name: getattr(args, name) for name in args.option_names if getattr(args, name) is not None}
    loaded = attach_geometry(formats.import_file(args.format, args.file, **options))
    save_puzzle(args.output, loaded.puzzle, loaded.state, loaded.history, loaded.extra)
    puzzle = loaded.puzzle
    position = "" if loaded.state is None or loaded.state.is_solved() else ", with a position"
    drawn = f", drawn as {puzzle.plugin.name}" if puzzle.plugin is not None else ""
    print(f"wrote {args.output}: {puzzle.name or 'puzzle'}, {puzzle.n_cells} cells, {len(puzzle.moves)} moves{position}{drawn}")
    return 0

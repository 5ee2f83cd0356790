"""The ``hlavolamy`` command line: one module per sub-command.

Each module in :data:`COMMANDS` has ``register(subparsers)``, which adds its
parser and sets ``func`` to a callable taking the parsed namespace and
returning an exit code. Bad input (any :class:`HlavolamyError`, a missing
file) prints one line on stderr and exits with 2; no traceback.

Start-up is lazy: only the module of the command being run is imported
(its numpy, sympy, Qt or plugins with it); ``hlavolamy --help`` lists the
others from :data:`SUMMARIES` and imports none of them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from hlavolamy.errors import HlavolamyError, cut

COMMANDS = (
    "info",
    "apply",
    "scramble",
    "new",
    "plugins",
    "gui",
    "import_",
    "export",
    "check",
    "bench",
    "solve",
    "santa",
    "cache",
)


SUMMARIES = {
    "info": "cells, moves and the structure: orbits, blocks, invariants, group order, 3-cycles",
    "apply": "play a move sequence and print the resulting state",
    "scramble": "a random scramble of the puzzle's moves and the resulting state",
    "new": "make a puzzle file from a geometry plugin and its parameters",
    "plugins": "list the geometry plugins found, and those that failed with the reason",
    "gui": "open the desktop app",
    "import_": "make a puzzle file from a KPuzzle, ksolve/twsearch, GAP, Santa or SiGN file",
    "export": "write a puzzle file as KPuzzle, ksolve/twsearch, GAP, Santa CSV or SiGN",
    "check": "is a position reachable from the solved one? says why not",
    "bench": "time the library on the shipped puzzles and a big cube",
    "solve": "solve a position (a scramble, an exact state or a colouring)",
    "santa": "solve the Santa 2023 puzzles and write a submission",
    "cache": "show or clear the disk cache of solver tables",
}
"""Each command's line in ``hlavolamy --help``, so the help needs no command module
(tests/test_cli_start.py checks they match what the modules register). A command
missing here is registered by importing its module, as before."""

ERROR_LINE_LIMIT = 1000
"""Most characters of an error line; every message quotes input through
:func:`hlavolamy.errors.quoted`, this is the last guard."""


class UsageError(HlavolamyError):
    """Wrong use of a command (conflicting or missing options)."""


def command_name(module: str) -> str:
    """The command a module provides: ``import_`` is ``import``."""
    return module.rstrip("_")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only`` (a module of :data:`COMMANDS`), the other commands are one-line stubs.

    A stub has no options and no ``func``: enough for ``hlavolamy --help`` and
    for argparse to know the names, without importing the commands' modules.
    """
    parser = argparse.ArgumentParser(
        prog="hlavolamy",
        description="Design, play and solve permutation puzzles.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if only is not None and name != only and name in SUMMARIES:
            sub.add_parser(command_name(name), help=SUMMARIES[name])
        else:
            importlib.import_module(f"hlavolamy.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _printable_streams()
    if not argv and "gui" in COMMANDS:
        argv = ["gui"]
    chosen = _module_of(argv)
    parser = build_parser(only=chosen or "")
    args = parser.parse_args(_prepared(argv, chosen))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (HlavolamyError, OSError) as exc:
        print(f"hlavolamy {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hlavolamy {args.command}: interrupted", file=sys.stderr)
        return 130


def _module_of(argv: list[str]) -> str | None:
    """The module of the command ``argv`` runs (its first argument), or None (``--help``, a typo)."""
    if not argv:
        return None
    name = argv[0].replace("-", "_")
    return next((module for module in (name, name + "_") if module in COMMANDS), None)


def one_line(text: str) -> str:
    """``text`` as one line: control characters escaped (a key holding a vertical tab must not break
    the line), and cut at :data:`ERROR_LINE_LIMIT` characters."""
    if len(text) > ERROR_LINE_LIMIT:
        text = cut(text, ERROR_LINE_LIMIT)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for ch in text)


def _printable_streams() -> None:
    """Text the terminal cannot encode (a file name of undecodable bytes) is escaped, never a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _prepared(argv: list[str], module: str | None) -> list[str]:
    """The arguments after the command's own ``prepare_argv`` (if it has one) rewrote them for argparse."""
    if module is None:
        return argv
    prepare = getattr(importlib.import_module(f"hlavolamy.cli.{module}"), "prepare_argv", None)
    return argv if prepare is None else [argv[0], *prepare(argv[1:])]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

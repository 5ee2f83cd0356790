"""The ``hlavolamy`` command line: one module per sub-command.

Each module in :data:`COMMANDS` has ``register(subparsers)``, which adds its
parser and sets ``func`` to a callable taking the parsed namespace and
returning an exit code. Bad input (any :class:`HlavolamyError`, a missing
file) prints one line on stderr and exits with 2; no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from hlavolamy.errors import HlavolamyError

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
    "batch",
    "cache",
)


class UsageError(HlavolamyError):
    """Wrong use of a command (conflicting or missing options)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hlavolamy",
        description="Design, play and solve permutation puzzles.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"hlavolamy.cli.{name.replace('-', '_')}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _printable_streams()
    parser = build_parser()
    if not argv and "gui" in COMMANDS:
        argv = ["gui"]
    args = parser.parse_args(_prepared(argv))
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


def one_line(text: str) -> str:
    """``text`` with control characters escaped (a key holding a vertical tab must not break the line)."""
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


def _prepared(argv: list[str]) -> list[str]:
    """The arguments after the command's own ``prepare_argv`` (if it has one) rewrote them for argparse."""
    name = argv[0].replace("-", "_") if argv else ""
    for module_name in (name, name + "_"):
        if module_name in COMMANDS:
            prepare = getattr(importlib.import_module(f"hlavolamy.cli.{module_name}"), "prepare_argv", None)
            if prepare is not None:
                return [argv[0], *prepare(argv[1:])]
    return argv


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

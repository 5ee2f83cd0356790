"""Instant start: ``hlavolamy --help`` imports no command module, a command only its own (issue 19, item 4).

Checked on what gets imported (``sys.modules`` of a fresh process after the
command), not on seconds: timings belong in benchmarks (docs/cli.md has the
figures, measured with ``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hlavolamy import cli

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "sympy", "PyQt6", "pluggy", "hlavolamy.solve", "hlavolamy.analysis", "hlavolamy.plugins",
         "hlavolamy.gui", "hlavolamy.formats", "hlavolamy.core.puzzle")
"""What ``--help`` must not import: the numeric and symbolic libraries, Qt, the plugins and the solver."""


_RUN = """
import sys
from hlavolamy.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("MODULES", " ".join(sys.modules), file=sys.stderr)
"""


def imported(*args: str) -> set[str]:
    """The modules a fresh process has imported after running ``hlavolamy ARGS``."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HLAVOLAMY_CACHE_DIR": "off"}
    result = subprocess.run([sys.executable, "-c", _RUN, *args], check=False, cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=300)
    return set(result.stderr.rsplit("MODULES ", 1)[1].split())


def heavy(modules: set[str], prefixes: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_help_imports_no_numpy_sympy_qt_plugins_or_solver():
    modules = imported("--help")
    assert "hlavolamy.cli" in modules  # the measurement saw the program start
    assert heavy(modules) == []
    assert heavy(modules, tuple(f"hlavolamy.cli.{m}" for m in cli.COMMANDS)) == []


def test_a_command_imports_its_own_module_only():
    modules = imported("apply", "puzzles/rubik2.json", "R")
    assert "hlavolamy.cli.apply" in modules
    others = tuple(f"hlavolamy.cli.{m}" for m in cli.COMMANDS if m not in ("apply", "common"))
    assert heavy(modules, others + ("sympy", "PyQt6", "hlavolamy.solve", "hlavolamy.plugins")) == []


def test_the_help_summaries_are_what_the_commands_register():
    """:data:`cli.SUMMARIES` stands in for the modules in ``--help``; it must say what they say."""
    sub = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    registered = {action.dest: action.help for action in sub._choices_actions}
    assert registered == {cli.command_name(m): cli.SUMMARIES[m] for m in cli.COMMANDS}


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert all(f"    {cli.command_name(m)} " in out for m in cli.COMMANDS)


def test_a_command_still_gets_its_full_parser(capsys):
    with pytest.raises(SystemExit):
        cli.main(["info", "--help"])
    assert "--no-three-cycles" in capsys.readouterr().out

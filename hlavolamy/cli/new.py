"""``hlavolamy new GEOMETRY [--param VALUE ...] -o FILE``: a puzzle file from a plugin.

The options after the geometry's name come from its :class:`Parameter` list,
so a plugin's parameters appear on the command line without any change here:
``--size 4``; a bool parameter is a pair of flags ``--centre-slices`` /
``--no-centre-slices``. ``hlavolamy new --list`` shows every geometry with
its parameters; ``hlavolamy new GEOMETRY --help`` shows one.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from hlavolamy.cli import UsageError
from hlavolamy.core.fileformat import save_puzzle
from hlavolamy.plugins.hookspecs import Geometry, Parameter
from hlavolamy.plugins.manager import build_puzzle, get_plugin_host


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "new",
        help="make a puzzle file from a geometry plugin and its parameters",
        description="Make a puzzle file from a geometry plugin: hlavolamy new cubes --size 4 -o cube4.json. "
        "The options after GEOMETRY are the geometry's parameters (see --list).",
    )
    parser.add_argument("geometry", nargs="?", metavar="GEOMETRY", help="geometry name (see --list)")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the geometry's parameters and -o FILE")
    parser.add_argument("--list", action="store_true", help="list the geometries and their parameters")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    host = get_plugin_host()
    if args.list:
        print(describe_geometries(host.geometries.values()), end="")
        return 0
    if not args.geometry:
        raise UsageError("name a geometry (hlavolamy new --list shows them)")
    geometry = host.geometry(args.geometry)
    options = geometry_parser(geometry).parse_args(args.options)
    given = {p.name: getattr(options, p.name) for p in geometry.parameters if getattr(options, p.name) is not None}
    puzzle = build_puzzle(geometry, given)
    save_puzzle(options.output, puzzle)
    print(f"wrote {options.output}: {puzzle.name or geometry.name}, {puzzle.n_cells} cells, {len(puzzle.moves)} moves")
    return 0


def option_name(parameter: Parameter) -> str:
    return "--" + parameter.name.replace("_", "-")


def geometry_parser(geometry: Geometry) -> argparse.ArgumentParser:
    """A parser for one geometry's parameters (values are checked later by the geometry)."""
    parser = argparse.ArgumentParser(
        prog=f"hlavolamy new {geometry.name}",
        description=geometry.description or geometry.title or None,
    )
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="puzzle file to write")
    for p in geometry.parameters:
        help_text = f"{p.help} (default: {p.default})" if p.help else f"default: {p.default}"
        if p.kind is bool:
            parser.add_argument(option_name(p), dest=p.name, action=argparse.BooleanOptionalAction,
                                default=None, help=help_text)
        else:
            parser.add_argument(option_name(p), dest=p.name, type=p.kind, default=None,
                                choices=p.choices or None, metavar=p.kind.__name__.upper(), help=help_text)
    return parser


def describe_geometries(geometries: Iterable[Geometry]) -> str:
    """Each geometry with its description and parameter options, for ``--list``."""
    lines: list[str] = []
    for g in sorted(geometries, key=lambda g: g.name):
        lines.append(f"{g.name}: {g.title or g.description}" if g.title or g.description else g.name)
        if g.title and g.description:
            lines.append(f"    {g.description}")
        for p in g.parameters:
            lines.append(f"    {_option_usage(p)}: {_parameter_summary(p)}")
        if not g.parameters:
            lines.append("    (no parameters)")
    return "\n".join(lines) + "\n" if lines else "no geometries: no plugin is loaded (see hlavolamy plugins)\n"


def _option_usage(p: Parameter) -> str:
    if p.kind is bool:
        return f"{option_name(p)} / --no-{option_name(p)[2:]}"
    return f"{option_name(p)} {p.kind.__name__.upper()}"


def _parameter_summary(p: Parameter) -> str:
    facts = [f"default {p.default}"]
    if p.minimum is not None or p.maximum is not None:
        facts.append(f"range {_bound(p.minimum)}..{_bound(p.maximum)}")
    if p.choices:
        facts.append("one of " + ", ".join(map(str, p.choices)))
    return (f"{p.help}; " if p.help else "") + ", ".join(facts)


def _bound(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else str(value)

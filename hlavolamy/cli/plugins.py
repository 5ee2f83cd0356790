"""``hlavolamy plugins``: which plugins loaded, from where, and which failed and why."""

from __future__ import annotations

import argparse

from hlavolamy.plugins.manager import default_folders, get_plugin_host


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "plugins",
        help="list the geometry plugins found, and those that failed with the reason",
        description="List the geometry plugins: where each came from, the geometries it provides, "
        "and every plugin that was skipped with the reason. Also shows the folders searched.",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    host = get_plugin_host()
    print("plugins:" if host.plugins else "plugins: none loaded")
    for plugin in host.plugins:
        provides = ", ".join(plugin.geometries) or "no geometry"
        print(f"  {plugin.name}: {provides}")
        print(f"      from {plugin.source}")
    if host.failures:
        print("failed (skipped):")
        for failure in host.failures:
            print(f"  {failure.name}: {failure.error}")
            print(f"      from {failure.source}")
    print("folders searched (first wins), then entry points in group hlavolamy.plugins:")
    for folder in default_folders():
        print(f"  {folder}{'' if folder.is_dir() else '  (absent)'}")
    return 0

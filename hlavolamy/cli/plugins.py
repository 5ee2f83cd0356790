"""``hlavolamy plugins``: which plugins loaded, from where, and which failed and why."""

from __future__ import annotations

import argparse

from hlavolamy.plugins.manager import (
    DISABLE_VARIABLE,
    SLOW_LOAD_SECONDS,
    PluginHost,
    default_folders,
    get_plugin_host,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "plugins",
        help="list the geometry plugins found, and those that failed with the reason",
        description="List the plugins: where each came from, the geometries, strategies and formats it provides, "
        "and every plugin (or record) that was skipped with the reason; then every solving strategy and file "
        "format with the plugin that provides it (the built-in ones too). Also shows the folders searched.",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    host = get_plugin_host()
    print("plugins:" if host.plugins else "plugins: none loaded")
    for plugin in host.plugins:
        provides = ", ".join(plugin.geometries + plugin.strategies + plugin.formats) or "no geometry"
        print(f"  {plugin.name}: {provides}{_slow(host.load_seconds(plugin.name))}")
        print(f"      from {plugin.source}")
    if host.failures:
        print("failed (skipped):")
        for failure in host.failures:
            print(f"  {failure.name}: {failure.error}{_slow(host.load_seconds(failure.name))}")
            print(f"      from {failure.source}")
    if host.slow:
        names = ",".join(dict.fromkeys(s.name for s in host.slow))
        print(f"slow to load (over {SLOW_LOAD_SECONDS:g} s): {names}; every command that loads plugins waits for "
              f"them. {DISABLE_VARIABLE}={names} skips them")
    if host.disabled:
        print(f"disabled by {DISABLE_VARIABLE} (not imported):")
        for plugin in host.disabled:
            print(f"  {plugin.name}")
            print(f"      from {plugin.source}")
    _records(host)
    print("folders searched (first wins), then entry points in group hlavolamy.plugins:")
    for folder in default_folders():
        print(f"  {folder}{'' if folder.is_dir() else '  (absent)'}")
    return 0


def _slow(seconds: float | None) -> str:
    return "" if seconds is None else f"  (slow: {seconds:.1f} s to load)"


def _records(host: PluginHost) -> None:
    """Every strategy, pass and format with the plugin that provides it (the built-in ones say so)."""
    from hlavolamy import formats
    from hlavolamy.solve import registry

    print("strategies:")
    for record in host.strategies():
        print(f"  {record.name}  ({_from(registry.provider(record.name), registry.BUILTIN)}): {record.summary}")
    print("shortening passes: " + ", ".join(
        f"{p.name} ({_from(registry.provider(p.name, 'pass'), registry.BUILTIN)})" for p in registry.passes()))
    print("formats:")
    for fmt in host.formats():
        ways = "/".join(w for w, able in (("import", fmt.can_import), ("export", fmt.can_export)) if able)
        print(f"  {fmt.name}  ({_from(formats.provider(fmt.name), formats.BUILTIN)}, {ways}): {fmt.description}")


def _from(source: str, builtin: str) -> str:
    return "built-in" if source == builtin else f"plugin {source}"

"""Host side of the plugin system: the hook contract and the plugin manager.

Geometry plugins implement :mod:`hlavolamy.plugins.hookspecs`; the host finds
and loads them with :func:`get_plugin_host` (see ``docs/plugins.md``).
"""

from hlavolamy.plugins.hookspecs import Geometry, hookimpl
from hlavolamy.plugins.manager import PluginFailure, PluginHost, get_plugin_host, puzzle_geometry

__all__ = ["Geometry", "PluginFailure", "PluginHost", "get_plugin_host", "hookimpl", "puzzle_geometry"]

"""The built-in solver plugin: every strategy and pass that ships, through the hooks a third-party plugin implements.

The registry (:mod:`~hlavolamy.solve.registry`) loads this module on first
use, exactly as the plugin host feeds it a plugin's records
(:func:`~hlavolamy.solve.registry.add_plugin`): ``solve()`` used as a plain
library has every built-in strategy without any plugin host, and a plugin
strategy of an existing name is refused because these come first. A new
built-in strategy is one module of :mod:`hlavolamy.solve.strategies` ending
with ``STRATEGY = Strategy(...)`` (found there by the hook below).
"""

from __future__ import annotations

import importlib
import pkgutil

from hlavolamy.solve import auto, strategies
from hlavolamy.solve.passes import shorten
from hlavolamy.solve.registry import Pass, Strategy, hookimpl


@hookimpl
def hlavolamy_strategies() -> list[Strategy]:
    """``auto``, then the ``STRATEGY`` of every module of :mod:`hlavolamy.solve.strategies` (by module name)."""
    records = [auto.AUTO]
    for found in sorted(pkgutil.iter_modules(strategies.__path__), key=lambda m: m.name):
        record = getattr(importlib.import_module(f"{strategies.__name__}.{found.name}"), "STRATEGY", None)
        if record is not None:
            records.append(record)
    return records


@hookimpl
def hlavolamy_passes() -> list[Pass]:
    """The shortening passes, in the order they run."""
    return [shorten.WINDOWS, shorten.SHORTCUTS]

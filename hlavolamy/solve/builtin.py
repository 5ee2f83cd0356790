"""The built-in solver plugin: every strategy and pass that ships, through the hooks a third-party plugin implements.

The registry (:mod:`~hlavolamy.solve.registry`) loads this module on first
use, exactly as the plugin host feeds it a plugin's records
(:func:`~hlavolamy.solve.registry.add_plugin`): ``solve()`` used as a plain
library has every built-in strategy without any plugin host, and a plugin
strategy of an existing name is refused because these come first. A new
built-in strategy is one module of :mod:`hlavolamy.solve.strategies` ending
with ``STRATEGY = Strategy(...)``, plus one entry below.
"""

from __future__ import annotations

from hlavolamy.solve import auto
from hlavolamy.solve.passes import shorten
from hlavolamy.solve.registry import Pass, Strategy, hookimpl
from hlavolamy.solve.strategies import (
    beam,
    blocked,
    chain,
    commutators,
    handover,
    insertion,
    multiphase,
    optimal,
    phases,
    search,
    search_first,
)


@hookimpl
def hlavolamy_strategies() -> list[Strategy]:
    """``auto`` and the strategies it composes."""
    return [auto.AUTO, commutators.STRATEGY, search.STRATEGY, chain.STRATEGY, optimal.STRATEGY, phases.STRATEGY,
            multiphase.STRATEGY, insertion.STRATEGY, beam.STRATEGY, handover.STRATEGY, search_first.STRATEGY,
            blocked.STRATEGY]


@hookimpl
def hlavolamy_passes() -> list[Pass]:
    """The shortening passes, in the order they run."""
    return [shorten.WINDOWS, shorten.SHORTCUTS]

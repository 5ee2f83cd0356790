"""The strategy registry: every way of solving is a small record, looked up by name.

Strategies and shortening passes come from plugins, the built-in ones too:
a plugin implements the hooks ``hlavolamy_strategies()`` and
``hlavolamy_passes()`` (their contract is in
:mod:`hlavolamy.plugins.hookspecs`) and returns :class:`Strategy` and
:class:`Pass` records. :func:`add_plugin` takes one plugin's records; the
built-in plugin (:mod:`~hlavolamy.solve.builtin`) goes through it on first
use of the registry, so ``solve()`` as a plain library has every built-in
strategy, and the plugin host feeds it each third-party plugin afterwards. A
name already taken is refused (the first record keeps it), and a hook that
raises or returns something else than records is skipped with the reason:
both are :class:`Rejected` entries the host lists as plugin failures.

A strategy solves a :class:`~hlavolamy.solve.problem.Problem` in place
(``problem.play(turns)``) and raises :class:`StrategyFailed` when it cannot
finish, so ``auto`` can try the next one. A *pass* improves any answer after
the strategy (shorter, still solving); the host replays each pass's result
and keeps it only if it is shorter and still solves the position.

>>> from hlavolamy.solve.registry import names, provider
>>> "auto" in names() and "chain" in names(), provider("chain")
(True, 'hlavolamy.solve.builtin')
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pluggy

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.core.records import Records, Rejected
from hlavolamy.errors import HlavolamyError, StrategyFailed

if TYPE_CHECKING:
    from hlavolamy.core.turns import Turn
    from hlavolamy.solve.problem import Problem

hookimpl = pluggy.HookimplMarker("hlavolamy")
"""Marks a plugin's hook functions (the same project as :data:`hlavolamy.plugins.hookimpl`: either will do)."""
BUILTIN = "hlavolamy.solve.builtin"
"""The module of the built-in strategies and passes, a plugin like any other."""
BUILTIN_SOURCE = "built-in"
log = logging.getLogger(__name__)

MODES = ("whole", "orbit-keep", "orbit-only")
BLOCKING_AWARE = ("auto", "blocked")
"""Strategies that play only legal moves on a puzzle with blockings."""


@dataclass
class RaceRecords:
    """Wins and losses of ``auto``'s costly races, per set of moves: owned by the caller, never module state.

    A CLI run, a GUI session, a bench run or a batch task makes one and
    passes it to every :func:`~hlavolamy.solve.solve` it runs (``records=``);
    a solve without one gets a fresh one, so what one caller learnt never
    changes another caller's answers. ``beam`` is keyed by the moves' hash;
    each value counts ``{"won": n, "lost": n}``.
    """

    beam: dict[str, dict[str, int]] = field(default_factory=dict)

    def of_beam(self, key: str) -> dict[str, int]:
        return self.beam.setdefault(key, {"won": 0, "lost": 0})


@dataclass(frozen=True)
class Context:
    """What every strategy and pass is told besides the problem."""

    cancel: CancelToken
    progress: ProgressCallback | None = None
    mode: str = "whole"
    group: int | None = None
    """For the orbit modes: the index of the group (of lockstep orbits) to solve."""
    records: RaceRecords = field(default_factory=RaceRecords)
    """The caller's race records (see :class:`RaceRecords`)."""
    offer: Callable[[Problem, str], None] | None = None
    """Told of every complete rival answer while ``auto`` races (a fork solved by the named strategy), so the
    anytime runner (:mod:`~hlavolamy.solve.anytime`) holds the best one found so far."""


def _always(problem: Problem, context: Context) -> bool:
    return True


@dataclass(frozen=True)
class Strategy:
    """A named way of solving; ``applies`` is a cheap test whether it may try this problem.

    ``solve`` works on the problem in place and may return the name of the
    strategy that really did it (a composite such as ``auto``); None means itself.
    """

    name: str
    summary: str
    solve: Callable[[Problem, Context], str | None]
    applies: Callable[[Problem, Context], bool] = _always
    modes: tuple[str, ...] = ("whole",)


@dataclass(frozen=True)
class Pass:
    """A shortening pass: ``improve(problem at its start, turns, context)`` returns turns that still solve it."""

    name: str
    improve: Callable[[Problem, list[Turn], Context], list[Turn]]


def _check_strategy(record: Strategy) -> str | None:
    if not callable(record.solve) or not callable(record.applies):
        return f"strategy {record.name!r}: solve and applies must be functions"
    if not isinstance(record.modes, tuple) or not all(isinstance(m, str) for m in record.modes):
        return f"strategy {record.name!r}: modes must be a tuple of mode names, not {record.modes!r:.80}"
    unknown = set(record.modes) - set(MODES)
    if unknown:
        return f"strategy {record.name!r}: unknown modes {sorted(unknown)} (known: {', '.join(MODES)})"
    return None


def _check_pass(record: Pass) -> str | None:
    return None if callable(record.improve) else f"pass {record.name!r}: improve must be a function"


_STRATEGIES = Records("strategy", "hlavolamy_strategies", Strategy, _check_strategy)
_PASSES = Records("pass", "hlavolamy_passes", Pass, _check_pass)
_lock = threading.RLock()
_builtins_state = ""
"""Empty until the built-in plugin is loaded; "loading" while it is (in the loading thread), then "done"."""


def _ensure_builtins() -> None:
    """Load the built-in plugin once, the first time anything asks the registry."""
    global _builtins_state
    if _builtins_state == "done":
        return
    with _lock:
        if _builtins_state:  # done, or this thread is loading it (an import on the way back here)
            return
        _builtins_state = "loading"
        try:
            module = importlib.import_module(BUILTIN)
        except BaseException:
            _builtins_state = ""  # the next call raises the same error again, rather than finding nothing
            raise
        for refused in _STRATEGIES.add_plugin(module, BUILTIN, BUILTIN_SOURCE) + _PASSES.add_plugin(
                module, BUILTIN, BUILTIN_SOURCE):
            log.error("built-in solver plugin: %s", refused.error)
        _builtins_state = "done"


def add_plugin(plugin: object, name: str, source: str) -> list[Rejected]:
    """Register the strategies and passes ``plugin``'s hook functions return; what was refused comes back.

    ``plugin`` is a module or object with ``hlavolamy_strategies`` and/or
    ``hlavolamy_passes``. Records of an earlier plugin of the same ``name``
    (a reload) are dropped first. Never raises for the plugin's faults.
    """
    _ensure_builtins()
    return _STRATEGIES.add_plugin(plugin, name, source) + _PASSES.add_plugin(plugin, name, source)


def forget_plugins() -> None:
    """Drop every plugin's strategies and passes but the built-in ones (a new plugin host starts from these)."""
    for table in (_STRATEGIES, _PASSES):
        table.forget_plugins_but(BUILTIN)


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` directly, from the program itself (a name taken or an unknown mode is a ValueError).

    Plugins return records from ``hlavolamy_strategies()`` instead (:func:`add_plugin`).
    """
    _ensure_builtins()
    return _STRATEGIES.add(strategy)


def register_pass(shortening: Pass) -> Pass:
    """Add a shortening pass directly (after the registered ones: passes run in the order they came)."""
    _ensure_builtins()
    return _PASSES.add(shortening)


def names() -> tuple[str, ...]:
    """Registered strategy names, ``auto`` first."""
    _ensure_builtins()
    return tuple(sorted(_STRATEGIES.records, key=lambda n: (n != "auto", n)))


def strategy(name: str) -> Strategy:
    """The record called ``name``; an unknown name is the user's error, listing the choices."""
    _ensure_builtins()
    try:
        return _STRATEGIES.records[name]
    except KeyError:
        raise HlavolamyError(f"unknown strategy {name!r}; choose one of {', '.join(names())}") from None


def provider(name: str, kind: str = "strategy") -> str:
    """The plugin that provided the strategy (or, with ``kind="pass"``, the pass) ``name``."""
    _ensure_builtins()
    return (_STRATEGIES if kind == "strategy" else _PASSES).provider(name)


def passes() -> tuple[Pass, ...]:
    _ensure_builtins()
    return tuple(_PASSES.records.values())


def rejected() -> tuple[Rejected, ...]:
    """Every strategy or pass refused so far (name clashes, hooks that raised or returned something else)."""
    return (*_STRATEGIES.rejected, *_PASSES.rejected)


def run(problem: Problem, name: str, context: Context) -> str:
    """Solve ``problem`` in place with the strategy ``name``; returns the name of the strategy that did it."""
    record = strategy(name)
    if problem.puzzle.blockings and (name not in BLOCKING_AWARE or context.mode != "whole"):
        raise HlavolamyError("a puzzle with blockings is solved whole by the blocking solver: use strategy "
                             f"{' or '.join(map(repr, BLOCKING_AWARE))} and mode 'whole'")
    if context.mode not in record.modes:
        able = [s.name for s in _STRATEGIES.records.values() if context.mode in s.modes]
        raise HlavolamyError(f"the {name} strategy solves whole puzzles only; use {' or '.join(able)} "
                             f"for mode {context.mode!r}")
    return record.solve(problem, context) or name


__all__ = ["BLOCKING_AWARE", "BUILTIN", "MODES", "Context", "Pass", "RaceRecords", "Rejected", "Strategy",
           "StrategyFailed", "add_plugin", "forget_plugins", "hookimpl", "names", "passes", "provider", "register",
           "register_pass", "rejected", "run", "strategy"]

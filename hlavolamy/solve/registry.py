"""The strategy registry: every way of solving is a small record, looked up by name.

A strategy is one module of :mod:`hlavolamy.solve.strategies` that ends with
one :func:`register` call; importing that package registers them all, and
:mod:`~hlavolamy.solve.auto` composes ``auto`` from the records. A strategy solves a
:class:`~hlavolamy.solve.problem.Problem` in place (``problem.play(turns)``)
and raises :class:`StrategyFailed` when it cannot finish, so ``auto`` can
try the next one. A *pass* improves any answer after the strategy (shorter,
still solving); the host replays each pass's result and keeps it only if it
is shorter and still solves the position.

>>> from hlavolamy.solve.registry import names
>>> import hlavolamy.solve.auto  # registers the built-in strategies and auto
>>> "auto" in names() and "chain" in names()
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.errors import HlavolamyError, StrategyFailed

if TYPE_CHECKING:
    from hlavolamy.core.turns import Turn
    from hlavolamy.solve.problem import Problem

MODES = ("whole", "orbit-keep", "orbit-only")
BLOCKING_AWARE = ("auto", "blocked")
"""Strategies that play only legal moves on a puzzle with blockings."""


@dataclass(frozen=True)
class Context:
    """What every strategy and pass is told besides the problem."""

    cancel: CancelToken
    progress: ProgressCallback | None = None
    mode: str = "whole"
    group: int | None = None
    """For the orbit modes: the index of the group (of lockstep orbits) to solve."""


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


_STRATEGIES: dict[str, Strategy] = {}
_PASSES: dict[str, Pass] = {}


def register(strategy: Strategy) -> Strategy:
    """Add ``strategy`` under its name (a second record of that name is a programming error)."""
    if strategy.name in _STRATEGIES:
        raise ValueError(f"strategy {strategy.name!r} is registered twice")
    unknown = set(strategy.modes) - set(MODES)
    if unknown:
        raise ValueError(f"strategy {strategy.name!r}: unknown modes {sorted(unknown)}")
    _STRATEGIES[strategy.name] = strategy
    return strategy


def register_pass(shortening: Pass) -> Pass:
    """Add a shortening pass; passes run in the order they were registered."""
    if shortening.name in _PASSES:
        raise ValueError(f"pass {shortening.name!r} is registered twice")
    _PASSES[shortening.name] = shortening
    return shortening


def names() -> tuple[str, ...]:
    """Registered strategy names, ``auto`` first."""
    return tuple(sorted(_STRATEGIES, key=lambda n: (n != "auto", n)))


def strategy(name: str) -> Strategy:
    """The record called ``name``; an unknown name is the user's error, listing the choices."""
    try:
        return _STRATEGIES[name]
    except KeyError:
        raise HlavolamyError(f"unknown strategy {name!r}; choose one of {', '.join(names())}") from None


def passes() -> tuple[Pass, ...]:
    return tuple(_PASSES.values())


def run(problem: Problem, name: str, context: Context) -> str:
    """Solve ``problem`` in place with the strategy ``name``; returns the name of the strategy that did it."""
    record = strategy(name)
    if problem.puzzle.blockings and (name not in BLOCKING_AWARE or context.mode != "whole"):
        raise HlavolamyError("a puzzle with blockings is solved whole by the blocking solver: use strategy "
                             f"{' or '.join(map(repr, BLOCKING_AWARE))} and mode 'whole'")
    if context.mode not in record.modes:
        able = [s.name for s in _STRATEGIES.values() if context.mode in s.modes]
        raise HlavolamyError(f"the {name} strategy solves whole puzzles only; use {' or '.join(able)} "
                             f"for mode {context.mode!r}")
    return record.solve(problem, context) or name


__all__ = ["BLOCKING_AWARE", "MODES", "Context", "Pass", "Strategy", "StrategyFailed", "names", "passes", "register",
           "register_pass", "run", "strategy"]

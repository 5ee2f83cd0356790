"""Named records that plugins contribute (strategies, passes, file formats): the first of a name wins.

The pattern of conda's ``conda_solvers``: a plugin's hook returns small typed
records, the program's own come through the same hook first, a second record
of a taken name is refused, and a hook that raises or returns something else
is skipped. Nothing a plugin does here raises: what was refused comes back as
:class:`Rejected` entries (the plugin host lists them with the plugin
failures), and is logged.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Colour:
...     name: str
>>> class Plugin:
...     @staticmethod
...     def hook():
...         return [Colour("red"), Colour("red"), "blue"]
>>> table = Records("colour", "hook", Colour)
>>> [r.error for r in table.add_plugin(Plugin, "paints", "test")]
["colour 'red' is already provided by paints", "returned str 'blue', not a Colour"]
>>> list(table.records), table.provider("red")
(['red'], 'paints')
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

R = TypeVar("R")
log = logging.getLogger(__name__)
PROGRAM = "the program"
"""The source of a record added directly (:meth:`Records.add`), not by a plugin."""


@dataclass(frozen=True)
class Rejected:
    """A record (or a whole hook) of a plugin that was not registered, and why."""

    plugin: str
    source: str
    error: str


class _BadResult(TypeError):
    """The hook returned something that is not a collection of records."""


class Records(Generic[R]):
    """The records of one kind by name, each with the plugin that provided it, in the order they came.

    ``hook`` is the name of the plugin function that returns them;
    ``check(record)`` says what is wrong with a record beyond its type and
    name (or None).
    """

    def __init__(self, kind: str, hook: str, record_type: type[R],
                 check: Callable[[R], str | None] = lambda record: None):
        self.kind = kind
        self.hook = hook
        self.record_type = record_type
        self.check = check
        self.records: dict[str, R] = {}
        self.owners: dict[str, str] = {}
        """Record name -> the plugin that provided it."""
        self.rejected: list[Rejected] = []
        self.lock = threading.RLock()

    def add_plugin(self, plugin: object, name: str, source: str) -> list[Rejected]:
        """Register what ``plugin``'s hook function returns; the refused records come back (never raises).

        Records of an earlier plugin of the same ``name`` (a reload) are dropped first.
        """
        function = getattr(plugin, self.hook, None)
        if function is None:
            return []
        refused: list[Rejected] = []
        with self.lock:
            self.forget_plugin(name)
            try:
                records = self._as_list(function())
            except (Exception, SystemExit) as exc:  # noqa: BLE001 - a plugin's fault is reported, not raised
                error = str(exc) if isinstance(exc, _BadResult) else f"{self.hook} raised {type(exc).__name__}: {exc}"
                records = []
                refused.append(Rejected(name, source, error))
            for record in records:
                error = self._problem(record)
                if error:
                    refused.append(Rejected(name, source, error))
                    continue
                self.records[record.name] = record  # type: ignore[attr-defined]
                self.owners[record.name] = name  # type: ignore[attr-defined]
            self.rejected.extend(refused)
        for r in refused:
            log.warning("plugin %s (%s): %s; skipped", r.plugin, r.source, r.error)
        return refused

    def add(self, record: R) -> R:
        """Add ``record`` directly, from the program itself; a clash or a bad record is a ValueError."""
        with self.lock:
            name = getattr(record, "name", None)
            if name in self.records:
                raise ValueError(f"{self.kind} {name!r} is registered twice (first by {self.provider(name)})")
            error = self._problem(record)
            if error:
                raise ValueError(error)
            self.records[record.name] = record  # type: ignore[attr-defined]
        return record

    def _as_list(self, result: object) -> list[object]:
        if isinstance(result, (str, bytes, dict)) or not isinstance(result, Iterable):
            raise _BadResult(f"{self.hook} returned {type(result).__name__} {result!r:.80}, "
                             f"not a list of {self.record_type.__name__}")
        return list(result)

    def _problem(self, record: object) -> str | None:
        if not isinstance(record, self.record_type):
            return f"returned {type(record).__name__} {record!r:.80}, not a {self.record_type.__name__}"
        name = getattr(record, "name", None)
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
            return f"{self.kind} name {name!r} is not a word"
        if name in self.records:
            return f"{self.kind} {name!r} is already provided by {self.provider(name)}"
        return self.check(record)

    def provider(self, name: str) -> str:
        """The plugin that provided the record ``name``."""
        return self.owners.get(name, PROGRAM)

    def forget_plugin(self, name: str) -> None:
        """Drop the records the plugin ``name`` provided, and what was refused from it."""
        with self.lock:
            for record, owner in list(self.owners.items()):
                if owner == name:
                    del self.owners[record]
                    self.records.pop(record, None)
            self.rejected[:] = [r for r in self.rejected if r.plugin != name]

    def forget_plugins_but(self, keep: str) -> None:
        """Drop every plugin's records and refusals but those of ``keep`` (the built-in plugin).

        A plugin all of whose records were refused owns none, so its refusals are found apart.
        """
        with self.lock:
            for owner in {*self.owners.values(), *(r.plugin for r in self.rejected)} - {keep}:
                self.forget_plugin(owner)


__all__ = ["PROGRAM", "Records", "Rejected"]

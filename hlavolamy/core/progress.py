"""Progress reports and cancellation for long work (analysis, solving).

Long functions take ``progress`` (a callable ``(fraction, message)``) and
``cancel`` (a :class:`CancelToken`). The GUI sets the token from its thread;
the CLI sets it on Ctrl-C. Work calls :meth:`CancelToken.check` in its loops.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from hlavolamy.errors import Cancelled

ProgressCallback = Callable[[float, str], None]


class CancelToken:
    """Thread-safe flag; ``check()`` raises :class:`Cancelled` once set or past a deadline."""

    def __init__(self, deadline: float | None = None):
        self._event = threading.Event()
        self.deadline = deadline
        """``time.monotonic()`` value after which :meth:`check` raises, or None."""

    @classmethod
    def with_time_limit(cls, seconds: float | None) -> CancelToken:
        return cls(None if seconds is None else time.monotonic() + seconds)

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set() or (self.deadline is not None and time.monotonic() > self.deadline)

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled("cancelled")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Cancelled("time limit reached")


def report(progress: ProgressCallback | None, fraction: float, message: str = "") -> None:
    """Call ``progress`` if given; keeps call sites short."""
    if progress is not None:
        progress(min(max(fraction, 0.0), 1.0), message)

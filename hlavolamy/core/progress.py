"""Progress reports and cancellation for long work (analysis, solving).

Long functions take ``progress`` (a callable ``(fraction, message)``) and
``cancel`` (a :class:`CancelToken`). The GUI sets the token from its thread;
the CLI sets it on Ctrl-C. Work calls :meth:`CancelToken.check` in its loops.
A token's deadline is wall time (``time.monotonic()``) or, with a
:class:`CpuBudget`, CPU seconds of the thread that made it: what a solve
spent, however busy the machine.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from hlavolamy.errors import Cancelled

ProgressCallback = Callable[[float, str], None]


def thread_cpu_clock() -> Callable[[], float]:
    """A clock of the calling thread's CPU seconds that any thread can read.

    Read from the :func:`interruptible` watcher, which polls a token from its
    own thread (``time.thread_time`` would time the watcher); the thread's,
    not the process's, so the app's GUI thread and other solves do not count.
    Where a thread's clock cannot be had (not POSIX), the process's CPU time.
    """
    try:
        clock = time.pthread_getcpuclockid(threading.get_ident())
    except (AttributeError, OSError):
        return time.process_time
    return lambda: time.clock_gettime(clock)


class CpuBudget:
    """So many CPU seconds of the thread that made it, from now: a bound a loaded machine does not shrink.

    >>> budget = CpuBudget(3600)
    >>> budget.spent, budget.seconds
    (False, 3600)
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.clock = thread_cpu_clock()
        self.end = self.clock() + seconds

    @property
    def spent(self) -> bool:
        return self.clock() > self.end


class CancelToken:
    """Thread-safe flag; ``check()`` raises :class:`Cancelled` once set, past a deadline or CPU budget, or when a
    parent fires.

    A token made by :meth:`linked` answers for its parent too, so a callee
    given a shorter deadline still stops on the user's cancel (and
    :func:`interruptible`, which polls :attr:`cancelled`, sees both).

    >>> parent = CancelToken()
    >>> child = CancelToken.linked(parent, None)
    >>> parent.cancel(); child.cancelled, child.user_cancelled
    (True, True)
    """

    def __init__(self, deadline: float | None = None, parent: CancelToken | None = None,
                 cpu: CpuBudget | None = None):
        self._event = threading.Event()
        self.deadline = deadline
        """``time.monotonic()`` value after which :meth:`check` raises, or None."""
        self.parent = parent
        self.cpu = cpu
        """CPU seconds after which :meth:`check` raises ("CPU budget spent"), or None."""

    @classmethod
    def with_time_limit(cls, seconds: float | None) -> CancelToken:
        return cls(None if seconds is None else time.monotonic() + seconds)

    @classmethod
    def linked(cls, parent: CancelToken | None, deadline: float | None, cpu: CpuBudget | None = None) -> CancelToken:
        """A token that fires at ``deadline`` (``time.monotonic()``), once ``cpu`` is spent, or whenever ``parent``
        fires."""
        return cls(deadline, parent, cpu)

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return (self._event.is_set() or (self.deadline is not None and time.monotonic() > self.deadline)
                or (self.cpu is not None and self.cpu.spent) or (self.parent is not None and self.parent.cancelled))

    @property
    def user_cancelled(self) -> bool:
        """Cancelled by :meth:`cancel`, here or on a parent (not merely past a deadline)."""
        return self._event.is_set() or (self.parent is not None and self.parent.user_cancelled)

    @property
    def earliest_deadline(self) -> float | None:
        """The nearest deadline of this token and its parents (None: no deadline anywhere)."""
        own = self.deadline
        above = None if self.parent is None else self.parent.earliest_deadline
        return above if own is None else own if above is None else min(own, above)

    def check(self) -> None:
        if self.parent is not None:
            self.parent.check()
        if self._event.is_set():
            raise Cancelled("cancelled")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Cancelled("time limit reached")
        if self.cpu is not None and self.cpu.spent:
            raise Cancelled(f"CPU budget spent ({self.cpu.seconds:g} s)")


class Work:
    """A budget of work units (nodes generated, pairs x cells, sift steps, ...), not of seconds.

    What bounds a search so that its result does not depend on the machine's
    load or on what the process did before: the same input spends the same
    units and gives the same answer on an idle and on a busy machine. A
    :class:`CancelToken`'s deadline only *cuts* such work (the caller then
    keeps the best it already holds). Each budget was chosen as the work the
    old seconds allowed on an idle machine (see docs/algorithms.md, "Work,
    not seconds").

    >>> work = Work(10)
    >>> work.spend(4); work.spent, work.exhausted
    (4, False)
    >>> work.spend(7); work.exhausted, work.over(20)
    (True, False)
    """

    def __init__(self, units: float | None = None):
        self.units = units
        """The whole budget (None: unbounded)."""
        self.spent = 0

    def spend(self, units: float = 1) -> None:
        self.spent += units

    def over(self, limit: float | None) -> bool:
        """More than ``limit`` units spent (a stage's share of the budget); never with ``limit`` None."""
        return limit is not None and self.spent > limit

    @property
    def exhausted(self) -> bool:
        return self.over(self.units)

    def left(self) -> float | None:
        return None if self.units is None else max(0.0, self.units - self.spent)


def report(progress: ProgressCallback | None, fraction: float, message: str = "") -> None:
    """Call ``progress`` if given; keeps call sites short."""
    if progress is not None:
        progress(min(max(fraction, 0.0), 1.0), message)


class _Interrupted(BaseException):
    """Raised asynchronously inside foreign code by :func:`interruptible` (then replaced by the token's own).

    A BaseException, like KeyboardInterrupt, so foreign code's ``except Exception`` does not swallow it.
    """


REFIRE_SECONDS = 0.5
"""After firing, :func:`interruptible` fires again this often while the block still runs: an exception
delivered where Python drops it (a finaliser, a weakref callback during garbage collection) is not the end."""


@contextmanager
def interruptible(cancel: CancelToken | None, poll: float = 0.05) -> Iterator[None]:
    """Stop a long call that never checks a token (sympy's Schreier–Sims) once ``cancel`` fires.

    A watcher thread polls the token and, when it is cancelled or past its
    deadline, raises an exception in the calling thread at its next Python
    instruction (``PyThreadState_SetAsyncExc``), and again every
    :data:`REFIRE_SECONDS` while the block runs on. Leaving the block stops the
    watcher and drops an exception not yet delivered, so nothing fires later
    elsewhere; the caller then sees the token's own :class:`Cancelled`.
    """
    if cancel is None:
        yield
        return
    cancel.check()
    target = ctypes.c_ulong(threading.get_ident())
    lock, done, fired = threading.Lock(), threading.Event(), threading.Event()

    def watch() -> None:
        last = None
        while not done.wait(poll):
            if cancel.cancelled and (last is None or time.monotonic() - last >= REFIRE_SECONDS):
                with lock:
                    if done.is_set():
                        return
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(target, ctypes.py_object(_Interrupted))
                    fired.set()
                last = time.monotonic()

    def stop() -> None:
        """No more firing, a pending exception dropped; one delivered meanwhile is absorbed here."""
        while True:
            try:
                with lock:
                    done.set()
                    if fired.is_set():
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(target, None)
                return
            except _Interrupted:
                continue

    watcher = threading.Thread(target=watch, name="hlavolamy-interrupt", daemon=True)
    watcher.start()
    try:
        yield
    except _Interrupted:
        pass
    finally:
        stop()
        watcher.join()
    if fired.is_set():
        cancel.check()
        raise Cancelled("cancelled")

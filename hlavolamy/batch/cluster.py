"""Tasks on a Dask distributed cluster: a ``LocalCluster`` of this machine, or a running scheduler elsewhere.

Dask (``pip install 'hlavolamy[cluster]'``) does the distributing: it sends
each task to a free worker, reruns the task of a worker that died on another
one (once more than ``distributed.scheduler.allowed-failures`` workers, 3 by
default, died running it, its jobs are reported failed) and shows a
dashboard. Each task carries its puzzle's definition; the tables never
travel: a worker builds them, or loads them from its ``HLAVOLAMY_CACHE_DIR``,
once per puzzle (:mod:`hlavolamy.batch.work`). A scheduler that goes away ends the run with
:class:`ClusterLost`; the results written so far stay and ``--resume``
continues.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError
from typing import Any

from hlavolamy.batch.engines import TICK, Listener
from hlavolamy.batch.model import Result, Task
from hlavolamy.batch.work import solve_task
from hlavolamy.errors import HlavolamyError, quoted

POLL = 0.1
"""Seconds between looks for finished tasks (as Dask's own ``as_completed`` waits)."""
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "5s",
}
"""Dask's defaults for the workers of ``--cluster local`` less those that slow the solver (pure Python on many
small numpy arrays) down: sampling every thread's stack every 10 ms; ``MALLOC_TRIM_THRESHOLD_``, which
hands every freed array back to the system (with both, 60 3x3x3 positions took 136-152 s of solving on
two workers against 91-97 s in a process pool; without them 84 s: docs/solving.md, "Solving at scale");
a saturation of 1.1, which gives a one-thread worker two tasks at once, so that near the end of a run
one worker can hold a task that waits while the other has nothing to do; and the event loops' 20 ms tick
and the 0.5 s and 0.1 s system and memory monitors, which cost an idle 2-worker cluster 2.9 s of CPU every
30 s (a tenth of a core: the whole Santa set took 6 % more CPU than in a pool), 0.6 s at 1 s, 5 s and 5 s
(the dashboard's resource plots then move every 5 s; with no memory limit the memory monitor acts on
nothing)."""
LOCAL_MEMORY_LIMIT = 0
"""No Dask memory limit for the local workers: a task's tables are the solver's own memory, which Dask cannot
spill, so its pause (at 80 % of a worker's share of the machine) and restart (95 %) would only stall or kill a
worker solving a big cube (a cube_33/33/33 worker holds about 9 GB, 80 % of half this machine's memory).
The kernel still ends a worker that runs out of memory, and its task is run again."""
RESUME = "; the results so far are written and --resume continues"
INSTALL = "pip install 'hlavolamy[cluster]' (or: pip install 'dask[distributed]')"


class ClusterMissing(HlavolamyError):
    """Dask distributed is not installed."""


class ClusterLost(HlavolamyError):
    """The scheduler went away (or could not be reached) before every job was answered."""


def distributed() -> Any:
    """The ``distributed`` module, or :class:`ClusterMissing` saying how to install it."""
    try:
        import distributed as module
    except ImportError:
        raise ClusterMissing(f"--cluster and --scheduler need Dask distributed, which is not installed: {INSTALL}") \
            from None
    return module


def parse_local(spec: str) -> int | None:
    """``local`` (one worker per core: None) or ``local:N``; anything else is an error."""
    name, _, count = spec.partition(":")
    if name != "local" or (count and not (count.isdigit() and int(count) >= 1)):
        raise HlavolamyError(f"--cluster takes local or local:N (N workers, at least 1), not {quoted(spec)}")
    return int(count) if count else None


class Cluster:
    """A Dask engine: ``address`` of a running scheduler, else a new ``LocalCluster`` of ``workers`` processes."""

    def __init__(self, address: str | None = None, workers: int | None = None):
        self.address = address
        self.workers = workers
        distributed()  # fail before any work when Dask is missing

    def run(self, tasks: list[Task], listener: Listener) -> None:
        module = distributed()
        with self._client(module) as client:
            dashboard = client.scheduler_info().get("services", {}).get("dashboard")
            where = self.address or f"a local cluster of {len(client.scheduler_info()['workers'])} workers"
            listener.note(f"Dask: {where}" + (f", dashboard {client.dashboard_link}" if dashboard else ""))
            pending = {client.submit(solve_task, task, pure=False, retries=1): task for task in tasks}
            finished = module.as_completed(list(pending), loop=client.loop)
            ticked = time.monotonic()
            while pending:
                for future in finished.next_batch(block=False) if finished.has_ready() else []:
                    _finish(future, pending.pop(future), listener)
                if time.monotonic() - ticked >= TICK:
                    self._check(client)
                    listener.tick()
                    ticked = time.monotonic()
                time.sleep(POLL)

    @contextlib.contextmanager
    def _client(self, module: Any) -> Iterator[Any]:
        try:
            if self.address:
                with module.Client(self.address, timeout="20s", set_as_default=False) as client:
                    yield client
                return
            import dask

            with dask.config.set(LOCAL_CONFIG), \
                    module.LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                        memory_limit=LOCAL_MEMORY_LIMIT,
                                        dashboard_address=":0", silence_logs=logging.ERROR) as local, \
                    module.Client(local, set_as_default=False) as client:
                yield client
        except OSError as exc:  # no scheduler at the address, or it went away
            where = f" {self.address}" if self.address else ""
            raise ClusterLost(f"the Dask scheduler{where} cannot be reached or went away ({exc}){RESUME}") from None

    @staticmethod
    def _check(client: Any) -> None:
        if client.status in ("closing", "closed"):
            raise ClusterLost(f"lost the Dask scheduler{RESUME}")


def _finish(future: Any, task: Task, listener: Listener) -> None:
    """A finished task's results, or its jobs failed with the reason (too many workers died running it).

    The future is asked once, by ``result()``: a future seen finished can still be cancelled on the way,
    when the worker holding its result left (Dask then computes it again) and the scheduler went away
    before that (a run of CI saw it), so the status read before would tell nothing."""
    try:
        results = future.result()
    except CancelledError:  # the client lost the scheduler, which cancels every future
        raise ClusterLost(f"lost the Dask scheduler (its tasks were cancelled){RESUME}") from None
    except Exception as error:  # the task's own error, KilledWorker, or the connection failing mid-gather
        Cluster._check(future.client)
        reason = " ".join(f"the Dask task failed ({type(error).__name__}: {error}); --resume solves it again".split())
        for _, job in task.entries:
            listener.add(Result.failed(job.id, reason))
        return
    for result in results:
        listener.add(result)

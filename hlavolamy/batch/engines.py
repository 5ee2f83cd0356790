"""Where tasks run with nothing extra installed: in this process, or a local pool of worker processes.

An engine takes the tasks and a :class:`Listener`; it hands every job's
result to :meth:`Listener.add` exactly once, calls :meth:`Listener.tick`
about once a second while it waits, and returns when every job is answered or
reported. The Dask engine is :mod:`hlavolamy.batch.cluster`.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Protocol

from hlavolamy.batch.model import Result, Task
from hlavolamy.batch.work import solve_task

TICK = 1.0
"""Seconds between :meth:`Listener.tick` calls while an engine waits."""


class Listener(Protocol):
    """What an engine reports to: results, the passing of time, one-off notes (a dashboard's address)."""

    def add(self, result: Result) -> None: ...

    def tick(self) -> None: ...

    def note(self, text: str) -> None: ...


class Engine(Protocol):
    def run(self, tasks: list[Task], listener: Listener) -> None: ...


class Serial:
    """Every task in this process, one after the other (``--jobs 1``)."""

    def run(self, tasks: list[Task], listener: Listener) -> None:
        for task in tasks:
            solve_task(task, listener.add)


class Pool:
    """``jobs`` worker processes of this machine (``--jobs N``); each result streams back as its job ends.

    A worker process that dies (killed, out of memory) breaks the pool: the
    jobs not answered by then are reported as failed, and ``--resume`` solves
    them in a later run.
    """

    def __init__(self, jobs: int):
        self.jobs = jobs

    def run(self, tasks: list[Task], listener: Listener) -> None:
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        answered: set[str] = set()

        def deliver(result: Result) -> None:
            if result.id not in answered:
                answered.add(result.id)
                listener.add(result)

        with ProcessPoolExecutor(self.jobs, mp_context=context, initializer=_pool_init, initargs=(results,)) as pool:
            futures: dict[Future, Task] = {pool.submit(_pool_task, task): task for task in tasks}
            while futures:
                try:
                    deliver(results.get(timeout=TICK))
                    continue
                except queue.Empty:
                    listener.tick()
                for future in [f for f in futures if f.done()]:
                    _finish(future, futures.pop(future), deliver)


def _finish(future: Future, task: Task, deliver: Callable[[Result], None]) -> None:
    """A finished task's results (any the queue has not brought yet), or its jobs failed with the reason."""
    error = future.exception()
    if error is None:
        for result in future.result():
            deliver(result)
        return
    for _, job in task.entries:
        deliver(Result.failed(job.id, f"the worker process stopped ({type(error).__name__}: {error}); "
                                      "--resume solves it again"))


_results: multiprocessing.Queue | None = None


def _pool_init(results: multiprocessing.Queue) -> None:
    global _results
    _results = results


def _pool_task(task: Task) -> list[Result]:
    """In a pool worker: each result goes to the queue at once, and all of them come back with the task."""
    return solve_task(task, _results.put if _results is not None else None)

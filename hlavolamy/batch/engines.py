"""Where tasks run with nothing extra installed: in this process, or a local pool of worker processes.

An engine takes the tasks and a :class:`Listener`; it hands every job's
result to :meth:`Listener.add` exactly once, calls :meth:`Listener.tick`
about once a second while it waits, and returns when every job is answered or
reported. The Dask engine is :mod:`hlavolamy.batch.cluster`.
"""

from __future__ import annotations

import multiprocessing
import queue
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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


RETRIES = 1
"""Times a task is solved again after a worker process died while it ran (as the Dask engine's ``retries``)."""


class Pool:
    """``jobs`` worker processes of this machine (``--jobs N``); each result streams back as its job ends.

    A worker process that dies (killed, out of memory) breaks a
    :class:`~concurrent.futures.ProcessPoolExecutor`: every job not answered
    by then would be lost. So the pool is started again with the tasks left
    (less the jobs their results already answered), and only a task that was
    running each time its worker died, :data:`RETRIES` + 1 times, is given
    up: its jobs are reported with the reason, and ``--resume`` tries them
    in a later run.
    """

    def __init__(self, jobs: int):
        self.jobs = jobs

    def run(self, tasks: list[Task], listener: Listener) -> None:
        answered: set[str] = set()

        def deliver(result: Result) -> None:
            if result.id not in answered:
                answered.add(result.id)
                listener.add(result)

        deaths = [0] * len(tasks)
        left = list(range(len(tasks)))
        while left:
            left, charged = self._round({k: tasks[k] for k in left}, deliver, listener)
            for k in charged:
                deaths[k] += 1
            tasks = [_unanswered(task, answered) for task in tasks]
            for k in [k for k in left if deaths[k] > RETRIES]:
                for _, job in tasks[k].entries:
                    deliver(Result.failed(job.id, f"its worker process died {deaths[k]} times while solving it "
                                                  "(killed, or out of memory); --resume solves it again"))
            left = [k for k in left if deaths[k] <= RETRIES and tasks[k].entries]

    def _round(self, tasks: dict[int, Task], deliver: Callable[[Result], None],
               listener: Listener) -> tuple[list[int], list[int]]:
        """Run ``tasks`` on a new pool until each is done or the pool breaks.

        Returns the tasks a break left unfinished and, among them, those
        running when it came (charged a retry); the others had not started
        and run again for free.
        """
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        left: list[int] = []
        with ProcessPoolExecutor(self.jobs, mp_context=context, initializer=_pool_init, initargs=(results,)) as pool:
            futures: dict[Future, int] = {pool.submit(_pool_task, task): k for k, task in tasks.items()}
            running: set[int] = set()
            look = 0.0
            while futures:
                try:
                    deliver(results.get(timeout=TICK))
                except queue.Empty:
                    listener.tick()
                if time.monotonic() < look:
                    continue  # results stream in: the futures are looked over once a tick, not at each result
                look = time.monotonic() + TICK
                running |= {k for f, k in futures.items() if f.running()}
                for future in [f for f in futures if f.done()]:
                    k = futures.pop(future)
                    if isinstance(future.exception(), BrokenProcessPool):
                        left.append(k)
                    else:
                        _finish(future, tasks[k], deliver)
        _drain(results, deliver)
        seen = [k for k in left if k in running]
        # none seen running (a death within a tick): the pool starts tasks in order, so it was among the first left
        return left, seen or sorted(left)[:self.jobs]


def _unanswered(task: Task, answered: set[str]) -> Task:
    """``task`` less the jobs already answered (a retried task solves only what its dead worker had not sent)."""
    return Task([(source, job) for source, job in task.entries if job.id not in answered], task.code)


def _drain(results: multiprocessing.Queue, deliver: Callable[[Result], None]) -> None:
    """Deliver what the workers had put on the queue before their pool ended."""
    while True:
        try:
            deliver(results.get(timeout=0.1))
        except (queue.Empty, OSError, EOFError):
            return


def _finish(future: Future, task: Task, deliver: Callable[[Result], None]) -> None:
    """A finished task's results (any the queue has not brought yet), or its jobs failed with the reason."""
    error = future.exception()
    if error is None:
        for result in future.result():
            deliver(result)
        return
    for _, job in task.entries:
        deliver(Result.failed(job.id, f"the worker failed ({type(error).__name__}: {error})"))


_results: multiprocessing.Queue | None = None


def _pool_init(results: multiprocessing.Queue) -> None:
    global _results
    _results = results


def _pool_task(task: Task) -> list[Result]:
    """In a pool worker: each result goes to the queue at once, and all of them come back with the task."""
    return solve_task(task, _results.put if _results is not None else None)

"""The local pool engine (``--jobs N``) when its worker processes die: the batch goes on, nothing answered is lost."""

from __future__ import annotations

import multiprocessing
import os
import signal

from hlavolamy.batch.engines import RETRIES, Pool
from hlavolamy.batch.model import Job, PuzzleSource, Result
from hlavolamy.batch.plan import tasks
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from tests.conftest import PUZZLES


class Killer:
    """A listener that SIGKILLs the pool's worker processes as each of its first ``kills`` results arrives."""

    def __init__(self, kills: int):
        self.kills = kills
        self.results: list[Result] = []

    def add(self, result: Result) -> None:
        self.results.append(result)
        if self.kills > 0:
            self.kills -= 1
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)

    def tick(self) -> None:
        pass

    def note(self, text: str) -> None:
        pass


def _entries(count: int) -> list[tuple[PuzzleSource, Job]]:
    source = PuzzleSource(load_puzzle(PUZZLES / "rubik2.json").puzzle)
    out = []
    for k in range(count):
        turns = random_scramble(source.puzzle, 6, k)
        start = State.solved(source.puzzle).apply(turns).perm
        out.append((source, Job(f"p{k}", start, exact=True, strategy="phases")))
    return out


def test_a_killed_worker_costs_one_retry_and_the_batch_is_complete():
    killer = Killer(kills=1)
    Pool(2).run(tasks(_entries(12), chunk=3), killer)
    by_id = {r.id: r for r in killer.results}
    assert len(killer.results) == len(by_id) == 12  # each job answered exactly once
    assert all(r.ok for r in by_id.values()), [r.error for r in by_id.values() if not r.ok]


def test_a_task_whose_worker_dies_every_time_is_given_up_with_the_reason_and_the_rest_kept():
    killer = Killer(kills=RETRIES + 1)  # one worker, one task: it dies on every attempt
    Pool(1).run(tasks(_entries(40), chunk=40), killer)
    by_id = {r.id: r for r in killer.results}
    assert len(killer.results) == len(by_id) == 40
    solved = [r for r in by_id.values() if r.ok]
    failed = [r for r in by_id.values() if not r.ok]
    assert len(solved) >= RETRIES + 1  # the answers that came before each death are kept, not solved again
    assert failed and all(f"died {RETRIES + 1} times" in r.error and "--resume" in r.error for r in failed)

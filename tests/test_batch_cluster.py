"""``hlavolamy batch`` on a 2-worker Dask LocalCluster: a batch answered, a worker killed, the client killed."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hlavolamy.cli import main
from hlavolamy.formats import santa
from tests.batch_helpers import CHEAP_STRATEGIES, cheap_puzzles, replayed, write_positions
from tests.conftest import REPO

distributed = pytest.importorskip("distributed", reason="Dask distributed (the 'cluster' extra) is not installed")


def test_fifty_positions_over_four_puzzles_on_two_workers_with_an_empty_cache(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("HLAVOLAMY_CACHE_DIR", str(cache))  # the workers start with nothing built
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 50, cheap_puzzles(tmp_path), strategies=CHEAP_STRATEGIES)
    assert main(["batch", str(source), "-o", str(out), "--cluster", "local:2"]) == 0
    rows = replayed(inputs, out)
    assert set(rows) == {line["id"] for line in inputs} and all("moves" in row for row in rows.values())
    err = capsys.readouterr().err
    assert "Dask: a local cluster of 2 workers" in err and "50/50 done" in err
    assert any(cache.iterdir())  # the tables the workers built went to the shared cache folder


def test_a_worker_killed_mid_run_loses_only_its_task(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 24, cheap_puzzles(tmp_path), strategies=CHEAP_STRATEGIES)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        pids = client.run(os.getpid)
        killed: list[str] = []

        def kill_a_busy_worker() -> None:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                busy = [worker for worker, keys in client.processing().items() if keys and worker in pids]
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(busy[0])
                    return
                time.sleep(0.05)

        killer = threading.Thread(target=kill_a_busy_worker, daemon=True)
        killer.start()
        code = main(["batch", str(source), "-o", str(out), "--scheduler", cluster.scheduler_address])
        killer.join()
    assert killed, "no worker was seen busy"
    assert code == 0
    rows = replayed(inputs, out)
    assert set(rows) == {line["id"] for line in inputs} and all("moves" in row for row in rows.values())


def test_resume_after_the_client_is_killed_keeps_every_verified_line(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 40, cheap_puzzles(tmp_path), strategies=CHEAP_STRATEGIES)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "hlavolamy.cli", "batch", str(source), "-o", str(out), "--cluster", "local:2"]
    client = subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while client.poll() is None and time.monotonic() < deadline and len(_lines(out)) < 3:
            time.sleep(0.05)
        running = client.poll() is None
    finally:
        os.killpg(client.pid, signal.SIGKILL)  # the client, its local cluster and workers: one session
        client.wait()
    before = _lines(out)
    assert running and before, "the client ended, or wrote nothing, before the kill"
    replayed(inputs, out)  # every line written so far is a verified answer
    assert main(["batch", str(source), "-o", str(out), "--resume"]) == 0
    after = _lines(out)
    assert set(before) <= set(after)  # kept as they were
    rows = replayed(inputs, out)
    assert set(rows) == {line["id"] for line in inputs} and all("moves" in row for row in rows.values())


def _lines(path: Path) -> list[str]:
    """The output's complete lines with an answer (the file is replaced whole, never seen half written)."""
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if "moves" in json.loads(line)]


def test_santa_runs_on_the_same_cluster_engine(tmp_path, capsys):
    info, cases, out = tmp_path / "puzzle_info.csv", tmp_path / "puzzles.csv", tmp_path / "submission.csv"
    info.write_text("puzzle_type,allowed_moves\n\"toy_6\",\"{'r': [1, 2, 3, 4, 0, 5], 's': [0, 1, 2, 3, 5, 4]}\"\n")
    cases.write_text("id,puzzle_type,solution_state,initial_state,num_wildcards\n"
                     "0,toy_6,A;B;C;D;E;F,B;C;D;E;A;F,0\n1,toy_6,A;B;C;D;E;F,A;B;C;D;E;F,0\n")
    assert main(["santa", "--info", str(info), "--puzzles", str(cases), "--out", str(out), "--cluster", "local:2"]) == 0
    rows = santa.read_submission(out)
    assert list(rows) == ["0", "1"] and rows["1"]  # a solved case still gets a (harmless) move
    assert "Dask: a local cluster of 2 workers" in capsys.readouterr().err


def test_a_scheduler_that_goes_away_ends_the_run_with_its_results_kept(tmp_path):
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    inputs = write_positions(source, 200, cheap_puzzles(tmp_path), strategies=CHEAP_STRATEGIES)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster:
        command = [sys.executable, "-m", "hlavolamy.cli", "batch", str(source), "-o", str(out),
                   "--scheduler", cluster.scheduler_address]
        client = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True)
        deadline = time.monotonic() + 300
        while client.poll() is None and time.monotonic() < deadline and not _lines(out):
            time.sleep(0.05)
    _, err = client.communicate(timeout=300)  # the cluster is closed: the client must end on its own
    assert client.returncode == 2 and "lost the Dask scheduler" in err and "--resume continues" in err
    before = _lines(out)
    assert before and len(before) < len(inputs)
    replayed(inputs, out)
    assert main(["batch", str(source), "-o", str(out), "--resume"]) == 0
    assert set(before) <= set(_lines(out)) and len(_lines(out)) == len(inputs)


def test_the_local_cluster_gives_each_worker_one_task_at_a_time_and_no_memory_limit():
    """Two queued tasks on one worker leave the other idle at a run's end; Dask's pause or restart at its memory
    limit would stall or kill a big cube's worker (its tables are not Dask's to spill)."""
    from hlavolamy.batch.cluster import Cluster

    with Cluster(workers=2)._client(distributed) as client:
        assert client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.WORKER_SATURATION) == 1.0
        workers = client.scheduler_info()["workers"].values()
        assert len(workers) == 2 and all(not worker["memory_limit"] for worker in workers)
        import dask

        ticks = client.run(lambda: dask.config.get("distributed.admin.tick.interval"))
        assert list(ticks.values()) == ["1s", "1s"]  # the workers' own config: their 20 ms tick was a tenth of a core


class _LostOnTheWay:
    """A future Dask showed finished whose result left with its worker, then the scheduler went away (a CI run)."""

    status = "finished"

    class client:
        status = "running"  # the client has not noticed yet

    def result(self):
        from distributed.client import FutureCancelledError

        raise FutureCancelledError("solve_task-1", reason="scheduler-connection-lost")


class _Failing(_LostOnTheWay):
    def result(self):
        worker = type("WorkerState", (), {"address": "tcp://127.0.0.1:1"})()
        raise distributed.KilledWorker("solve_task-2", worker, 3)


def test_a_finished_task_cancelled_while_its_result_is_fetched_is_a_lost_scheduler_and_a_failure_is_not():
    from hlavolamy.batch.cluster import ClusterLost, _finish
    from hlavolamy.batch.model import Task

    task, added = Task(entries=[(None, type("Job", (), {"id": "job-1"})())]), []
    listener = type("Listener", (), {"add": lambda self, result: added.append(result)})()
    with pytest.raises(ClusterLost, match="lost the Dask scheduler.*--resume continues"):
        _finish(_LostOnTheWay(), task, listener)
    assert added == []
    _finish(_Failing(), task, listener)
    assert [(result.id, "KilledWorker" in result.error) for result in added] == [("job-1", True)]

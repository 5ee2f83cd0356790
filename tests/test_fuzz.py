"""Fuzzing every entry point of the core and the CLI: only project errors come out (issue 13).

Each entry point gets a bounded number of hypothesis examples here; the
thousands-per-entry-point run with counts is ``tests/fuzz/run_fuzz.py``.
The inputs and runners are in ``tests/fuzz/cases.py``.
"""

from __future__ import annotations

import pytest
from fuzz.cases import ENTRY_POINTS, Workspace
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = {"cli-solve": 60, "cli-info": 80, "cli-cache": 80}
"""Fewer examples where one costs a solve or an analysis; 150 elsewhere."""


@pytest.fixture(scope="module")
def workspace():
    ws = Workspace()
    yield ws
    ws.close()


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_only_project_errors_come_out(name, workspace):
    entry = ENTRY_POINTS[name]

    @settings(max_examples=EXAMPLES.get(name, 150), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data):
        assert entry.run(workspace, data.draw) in ("ok", "clean")

    check()

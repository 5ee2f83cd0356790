"""Fuzzed importer input (issue 13): damaged files give a one-line project error, never a traceback.

A hundred cases per entry point here; ``tests/fuzz/fuzz_importers.py`` runs thousands.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import ENTRIES, Edit, Workspace, apply_edits, edit_strategy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.errors import HlavolamyError


@pytest.fixture(scope="module")
def work() -> Iterator[Workspace]:
    with tempfile.TemporaryDirectory() as folder:
        yield Workspace(Path(folder))


def test_seeds_import_cleanly(work: Workspace) -> None:
    """Undamaged, every seed reads: the fuzz cases start from valid files."""
    for entry in ENTRIES:
        for seed in work.seeds[entry]:
            work.run(entry, seed)


@pytest.mark.parametrize("entry", ENTRIES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_file_gives_only_project_errors(work: Workspace, entry: str, data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(work.seeds[entry]), label="seed")
    edits: list[Edit] = data.draw(st.lists(edit_strategy(entry), min_size=1, max_size=4), label="edits")
    try:
        work.run(entry, apply_edits(seed, edits))
    except HlavolamyError as exc:
        assert "\n" not in str(exc), str(exc)

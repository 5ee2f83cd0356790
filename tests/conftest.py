"""Shared fixtures: puzzles every test module may use."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import HealthCheck, settings  # noqa: E402

from hlavolamy.core.puzzle import Puzzle  # noqa: E402

if os.environ.get("CI") == "true":  # a fresh CI machine: Qt's system libraries before any test imports Qt
    from system_packages import apt_install, missing_libraries

    apt_install(missing_libraries())

settings.register_profile("hlavolamy", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hlavolamy")
"""Property tests judge results, never speed: no per-example deadline, no "too slow" failure on a busy machine."""

REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles"
SANTA = next((folder / "shared" / "bench" / "santa2023" for folder in REPO.parents
              if (folder / "shared" / "bench" / "santa2023").is_dir()), REPO.parent / "shared" / "bench" / "santa2023")
"""The shared Santa 2023 data, beside the checkout or beside the folder of worktrees holding it."""


@pytest.fixture(scope="session", autouse=True)
def private_disk_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Tables built by the tests go to a directory of this session, never to the user's disk cache."""
    folder = tmp_path_factory.mktemp("hlavolamy-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HLAVOLAMY_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture
def tiny_puzzle() -> Puzzle:
    """The issue's minimal plain puzzle: two swaps of four cells."""
    return Puzzle(colours=["A", "A", "B", "B"], moves={"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]})


def scrambled_by_steps(puzzle: Puzzle, seed: int, length: int = 60):
    """The position after ``length`` seeded random single steps (a generator each)."""
    import numpy as np

    from hlavolamy.analysis.independent import generators
    from hlavolamy.core.state import State

    rng = np.random.default_rng(seed)
    gens = generators(puzzle)
    return State(puzzle, puzzle.perm_of([gens[k] for k in rng.integers(0, len(gens), length)]))

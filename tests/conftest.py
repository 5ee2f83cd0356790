"""Shared fixtures: puzzles every test module may use."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import sys
from collections.abc import Callable, Iterator
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


def shipped(name: str) -> Puzzle:
    """The puzzle shipped as ``puzzles/NAME.json``."""
    from hlavolamy.core.fileformat import load_puzzle

    return load_puzzle(PUZZLES / f"{name}.json").puzzle


@pytest.fixture(scope="module")
def rubik3() -> Puzzle:
    """The shipped 3x3x3, once per test module (its analysis caches are kept between the module's tests)."""
    return shipped("rubik3")


@pytest.fixture(scope="module")
def cubes():
    """The cubes plugin's geometry (``cubes.build(size=N)``), loaded from ``plugins/`` once per test module."""
    from hlavolamy.plugins.manager import PluginHost

    return PluginHost([REPO / "plugins"], entry_points=False).geometry("cubes")


def scrambled_colours(puzzle: Puzzle, seed: int, length: int = 200):
    """The colours shown after ``length`` seeded random turns (a position by colours, as Santa's cases are)."""
    import numpy as np

    from hlavolamy.core.scramble import random_scramble

    return np.asarray(puzzle.colour_ids)[puzzle.perm_of(random_scramble(puzzle, length, seed))]


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


FAKE_PLUGINS = Path(__file__).parent / "fake_plugins"


class FakeDistribution(importlib.metadata.Distribution):
    """An installed distribution that exists only in memory, declaring entry points."""

    def __init__(self, name: str, entry_points: dict[str, str]):
        self._name = name
        self._entry_points = "[hlavolamy.plugins]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items())

    def read_text(self, filename: str) -> str | None:
        if filename == "METADATA":
            return f"Metadata-Version: 2.1\nName: {self._name}\nVersion: 1.2\n"
        if filename == "entry_points.txt":
            return self._entry_points
        return None

    def locate_file(self, path):  # pragma: no cover - nothing is read from disk
        return Path(path)


@pytest.fixture
def fake_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Install fake distributions whose entry points name modules (copies of ``fake_plugins/``) on ``sys.path``.

    ``install(name, {entry point: module}, {module: fake plugin file})``; the
    installed distribution is the only one :mod:`importlib.metadata` sees.
    """

    def install(name: str, entry_points: dict[str, str], modules: dict[str, str]) -> None:
        site = tmp_path / "site"
        site.mkdir(exist_ok=True)
        for module, fake in modules.items():
            shutil.copy(FAKE_PLUGINS / fake, site / f"{module}.py")
            monkeypatch.delitem(sys.modules, module, raising=False)
        monkeypatch.syspath_prepend(str(site))
        dist = FakeDistribution(name, entry_points)
        monkeypatch.setattr(importlib.metadata, "distributions", lambda **kw: iter([dist]))

    return install

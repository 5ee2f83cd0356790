"""Shared fixtures: puzzles every test module may use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hlavolamy.core.puzzle import Puzzle  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles"
SANTA = REPO.parent / "shared" / "bench" / "santa2023"


@pytest.fixture
def tiny_puzzle() -> Puzzle:
    """The issue's minimal plain puzzle: two swaps of four cells."""
    return Puzzle(colours=["A", "A", "B", "B"], moves={"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]})

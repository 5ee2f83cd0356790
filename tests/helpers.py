"""Small hand-made puzzles and hypothesis strategies for the core tests.

Each puzzle is small enough to check by hand; together they cover commuting
and non-commuting moves, move names ending in digits, aliases and blockings.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import PluginRecord, Puzzle

MINIMAL_FILE = {
    "format": "hlavolamy",
    "version": 1,
    "cells": 4,
    "colours": ["A", "A", "B", "B"],
    "moves": {"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]},
}
"""The issue's minimal plain file: a swap and a 3-cycle of four cells."""


def minimal_puzzle() -> Puzzle:
    return Puzzle(MINIMAL_FILE["colours"], MINIMAL_FILE["moves"])


def ring_puzzle() -> Puzzle:
    """Eight cells: L turns 0..3, R turns 2..5 (they overlap), M swaps 6 and 7 (commutes with both).

    Aliases: ``LR`` = L R, and ``R2`` (a name that reads like R squared).
    """
    n = 8
    return Puzzle(
        colours=["W", "W", "Y", "Y", "R", "R", "G", "G"],
        moves={
            "L": P.from_cycles(n, [[0, 1, 2, 3]]),
            "R": P.from_cycles(n, [[2, 3, 4, 5]]),
            "M": P.from_cycles(n, [[6, 7]]),
        },
        name="ring",
        description="two overlapping 4-cycles and a separate swap",
        aliases={"LR": "L R", "R2": "R R"},
        palette={"W": "#ffffff", "Y": "#ffff00", "R": "#ff0000", "G": "#00ff00"},
        plugin=PluginRecord("circles", {"radius": 1.5, "centres": [[0, 0], [1, 0]]}),
        cell_data=[{"x": i / 8, "y": 0.5, "label": str(i)} for i in range(n)],
    )


def santa_like_puzzle() -> Puzzle:
    """Move names that end in digits (``f0``, ``f1``, ``r1``) as in the Santa 2023 files."""
    n = 6
    return Puzzle(
        colours=list("AABBCC"),
        moves={
            "f0": P.from_cycles(n, [[0, 1, 2]]),
            "f1": P.from_cycles(n, [[2, 3, 4]]),
            "r1": P.from_cycles(n, [[4, 5], [0, 1]]),
        },
    )


def bandaged_puzzle() -> Puzzle:
    """Six cells, L = (0 1 2), R = (3 4 5), X swaps 2 and 3; cells 1 and 2 are fused.

    Solved, X is blocked (it would take cell 2 away from cell 1); after ``L``
    the fused pair sits at positions 0 and 1 and X is legal.
    """
    n = 6
    return Puzzle(
        colours=list("AAABBB"),
        moves={
            "L": P.from_cycles(n, [[0, 1, 2]]),
            "R": P.from_cycles(n, [[3, 4, 5]]),
            "X": P.from_cycles(n, [[2, 3]]),
        },
        blockings=[[1, 2]],
    )


def write_json(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- hypothesis strategies -------------------------------------------------------
@st.composite
def perms(draw: st.DrawFn, n: int | None = None, max_n: int = 10) -> np.ndarray:
    """A permutation of ``n`` cells (``n`` drawn when not given)."""
    size = draw(st.integers(1, max_n)) if n is None else n
    return P.as_perm(draw(st.permutations(range(size))))


@st.composite
def perm_tuples(draw: st.DrawFn, count: int, max_n: int = 10) -> tuple[np.ndarray, ...]:
    """``count`` permutations of the same size."""
    size = draw(st.integers(1, max_n))
    return tuple(draw(perms(size)) for _ in range(count))


move_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,2}|[0-9]{1,2}[A-Za-z_][A-Za-z0-9_]?", fullmatch=True)
"""Move names as puzzles may have them: ``R``, ``f1``, ``2R``, ``x_2``."""


@st.composite
def random_puzzles(draw: st.DrawFn, max_moves: int = 4, max_n: int = 7) -> Puzzle:
    """A puzzle with random move names (some ending in digits) and random permutations."""
    n = draw(st.integers(2, max_n))
    names = draw(st.lists(move_names, min_size=1, max_size=max_moves, unique=True))
    moves = {name: draw(perms(n)) for name in names}
    return Puzzle(colours=[str(i % 3) for i in range(n)], moves=moves)

"""Shared pieces of the analysis tests: cubes from the plugin, small random groups, brute force."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import strategies as st

from hlavolamy.core.puzzle import Puzzle


@cache
def cube(n: int, centre_slices: bool = False) -> Puzzle:
    """An NxNxN cube from the cubes plugin (built once per test session)."""
    from hlavolamy.plugins.manager import get_plugin_host

    return get_plugin_host().geometry("cubes").build(size=n, centre_slices=centre_slices)


def fresh_cube(n: int, centre_slices: bool = False) -> Puzzle:
    """The cube with an empty cache, for tests that must not see earlier results."""
    p = cube(n, centre_slices)
    return Puzzle(p.colours, p.moves, name=p.name)


@st.composite
def random_puzzles(draw: st.DrawFn) -> Puzzle:
    """Random groups: 4..12 cells, 1..3 random generators."""
    n = draw(st.integers(4, 12))
    moves = {f"g{i}": list(draw(st.permutations(range(n)))) for i in range(draw(st.integers(1, 3)))}
    colours = draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n))
    return Puzzle(colours=colours, moves=moves)


@st.composite
def piece_puzzles(draw: st.DrawFn) -> Puzzle:
    """Small groups with pieces: 2..4 pieces of 1..3 cells that generators move and turn
    cyclically, plus sometimes a second orbit of 2..3 cells and a fixed cell. Colours are drawn
    from few labels, so identical pieces occur."""
    n_pieces, size = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    extra = draw(st.sampled_from([0, 2, 3]))
    fixed = draw(st.integers(0, 1))
    n = n_pieces * size + extra + fixed
    moves = {}
    for k in range(draw(st.integers(1, 3))):
        sigma = draw(st.permutations(range(n_pieces)))
        turns = [draw(st.integers(0, size - 1)) for _ in range(n_pieces)]
        m = list(range(n))
        for q in range(n_pieces):
            for j in range(size):
                m[q * size + j] = sigma[q] * size + (j + turns[q]) % size
        if extra:
            tail = draw(st.permutations(range(extra)))
            m[n_pieces * size:n_pieces * size + extra] = [n_pieces * size + t for t in tail]
        moves[f"g{k}"] = m
    colours = draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n))
    return Puzzle(colours=colours, moves=moves)


def bfs_group(p: Puzzle, limit: int = 20000) -> set[bytes] | None:
    """Every reachable permutation (as bytes of int32 arrays), or None past ``limit``."""
    start = np.arange(p.n_cells, dtype=np.int32)
    seen = {start.tobytes()}
    frontier = [start]
    gens = [m.astype(np.int32) for m in p.moves.values()]
    while frontier:
        nxt = []
        for s in frontier:
            for m in gens:
                t = s[m]
                key = t.tobytes()
                if key not in seen:
                    seen.add(key)
                    nxt.append(t)
                    if len(seen) > limit:
                        return None
        frontier = nxt
    return seen


def as_perm(key: bytes) -> np.ndarray:
    return np.frombuffer(key, dtype=np.int32).astype(np.int64)

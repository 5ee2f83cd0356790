"""The shipped blocking puzzles: bandaged 3x3x3 and fused Rashkey agree with their plugins, analyse and solve."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from hlavolamy.analysis.blocking import analyse_blocking
from hlavolamy.core.fileformat import load_puzzle
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.scramble import scrambled
from hlavolamy.core.state import State
from hlavolamy.errors import IllegalMoveError, UnreachableError
from hlavolamy.plugins.manager import PluginHost
from hlavolamy.solve import solve
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from hlavolamy.solve.strategies.blocked import quick_blocked

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def host():
    return PluginHost(folders=[REPO / "plugins"], entry_points=False)


@pytest.fixture(scope="module")
def bandaged3():
    return load_puzzle(REPO / "puzzles" / "bandaged3.json").puzzle


@pytest.fixture(scope="module")
def rashkey_fused():
    return load_puzzle(REPO / "puzzles" / "rashkey-fused.json").puzzle


def test_bandaged3_is_the_plugin_cube_with_whole_cubies_fused(host, bandaged3):
    cube = host.geometry("cubes").build(size=3)
    assert {m: p.tolist() for m, p in bandaged3.moves.items()} == {m: p.tolist() for m, p in cube.moves.items()}
    geometry = sys.modules["hlavolamy_plugin_cubes.geometry"]
    _, x, y, z = geometry.facelet_coords(3)
    cubie = {i: (int(x[i]), int(y[i]), int(z[i])) for i in range(54)}
    layer = {"U": y == 2, "D": y == 0, "L": x == 0, "R": x == 2, "F": z == 2, "B": z == 0}
    for move in bandaged3.moves:
        assert bandaged3.turned_part(move) == frozenset(np.flatnonzero(layer[move]).tolist())
    assert len(bandaged3.blockings) == 3
    for fused in bandaged3.blockings:
        cubies = {cubie[c] for c in fused}
        assert len(cubies) == 2  # two cubies glued, each with all its facelets
        assert all({c for c in range(54) if cubie[c] == q} <= fused for q in cubies)


def test_bandaged3_analysis(bandaged3):
    result = analyse_blocking(bandaged3)
    assert result.legal_at_solved == ["U", "R", "F"]
    assert set(result.blocked_at_solved) == {"D", "L", "B"}
    assert result.shapes_complete and result.n_shapes == 800
    assert result.reachable == result.n_shapes * result.stabiliser_order


def test_bandaged3_refuses_a_blocked_turn(bandaged3):
    with pytest.raises(IllegalMoveError, match="'D' is blocked"):
        State.solved(bandaged3).apply("D")


def test_rashkey_fused_is_the_rashkey_with_two_cells_fused(host, rashkey_fused):
    rashkey = load_puzzle(REPO / "puzzles" / "rashkey.json").puzzle
    assert rashkey_fused.fingerprint != rashkey.fingerprint
    assert {m: p.tolist() for m, p in rashkey_fused.moves.items()} == {m: p.tolist() for m, p in rashkey.moves.items()}
    assert rashkey_fused.blockings == (frozenset({10, 11}),)
    design = sys.modules["hlavolamy_plugin_circles.design"].Design.from_data(rashkey.plugin.data)
    assert [design.cells[c].id for c in (10, 11)] == ["+cut2+cut3-cut10", "+B+cut3-cut4"]
    emitted = host.geometry("circles").turned_parts(rashkey.plugin.data)
    assert {m: frozenset(c) for m, c in emitted.items()} == {m: rashkey_fused.turned_part(m) for m in rashkey.moves}
    result = analyse_blocking(rashkey_fused)
    assert result.legal_at_solved == ["A"] and result.blocked_at_solved == {"B": [(10, 11)]}


def test_rashkey_fused_pair_swapped_is_unreachable(rashkey_fused):
    from hlavolamy.solve.strategies.blocked import find_blocked_solution

    perm = np.arange(33)
    perm[[10, 11]] = [11, 10]
    with pytest.raises(UnreachableError):
        find_blocked_solution(rashkey_fused, State(rashkey_fused, perm), budget=CancelToken())


def _round_trip(puzzle, seed: int, n_moves: int) -> None:
    state = scrambled(puzzle, n_moves, seed)
    solution = solve(puzzle, state)
    assert state.apply(solution.moves, check_legal=True).is_solved()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_bandaged3_round_trip(bandaged3, seed):
    _round_trip(bandaged3, seed, 30)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_rashkey_fused_round_trip(rashkey_fused, seed):
    _round_trip(rashkey_fused, seed, 30)


@pytest.mark.parametrize("name", ["bandaged3", "four-disks-45", "rashkey-fused"])
def test_the_quick_first_answer_replays_legally(name):
    """The anytime solve's first route on a blocked puzzle: two phases with a quick chain, legal on every step."""
    puzzle = load_puzzle(REPO / "puzzles" / f"{name}.json").puzzle
    state = scrambled(puzzle, 200, 1)
    problem = Problem.from_input(puzzle, state)
    assert quick_blocked(problem, Context(CancelToken())) == "blocked: shape home, then a quick chain"
    assert state.apply(problem.turns, check_legal=True).is_solved()


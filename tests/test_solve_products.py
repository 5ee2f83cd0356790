"""Product commutators ``[X, u Y u']``: the table's 3-cycles, a step playing all its pairs', and the pass."""

from __future__ import annotations

import numpy as np
import pytest

from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.solve.macros.products import MIN_RATE, Choice, play_products, product_table, step_word
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context
from tests.conftest import scrambled_colours


@pytest.fixture(scope="module")
def cube6(cubes) -> Puzzle:
    return cubes.build(size=6)


def _cycle(puzzle: Puzzle, choice: Choice, k: int) -> tuple[list, np.ndarray, np.ndarray]:
    """The single commutator of pair ``k`` of ``choice`` with the 3-cycle the table holds for it."""
    table = product_table(puzzle)
    word = step_word(choice, choice.row[k:k + 1], choice.col[k:k + 1])
    return word, table.positions[choice.first + k], table.sources[choice.first + k]


def test_every_pair_meeting_in_one_cell_is_a_3_cycle(cube6):
    table = product_table(cube6)
    assert table is not None and table.positions.shape[0] > 1000
    rng = np.random.default_rng(0)
    ident = np.arange(cube6.n_cells)
    for c in rng.choice(len(table.choices), size=20, replace=False):
        choice = table.choices[int(c)]
        for k in rng.choice(choice.row.size, size=3, replace=False):
            word, pos, src = _cycle(cube6, choice, int(k))
            perm = cube6.perm_of(word)
            assert sorted(np.flatnonzero(perm != ident).tolist()) == sorted(pos.tolist())
            assert np.array_equal(perm[pos], src)
            x, y = choice.xs[choice.row[k]], choice.ys[choice.col[k]]
            assert cube6.length(word) == 2 * cube6.turn_cost(x) + 2 * cube6.turn_cost(y) + choice.u_cost


def test_a_step_plays_every_pairs_3_cycle_at_once(cube6):
    """Two slices with two slices around a face turn: four 3-cycles for 12 turns, where each alone costs 8."""
    table = product_table(cube6)
    found = 0
    for choice in table.choices:
        if choice.u is None or choice.u_cost != 4:
            continue
        pairs = {(int(r), int(c)): k for k, (r, c) in enumerate(zip(choice.row, choice.col))}
        quarter_x = [r for r in range(len(choice.xs)) if abs(choice.xs[r].power) == 1]
        quarter_y = [c for c in range(len(choice.ys)) if abs(choice.ys[c].power) == 1]
        for r1 in quarter_x:
            for r2 in quarter_x:
                ys = [c for c in quarter_y if (r1, c) in pairs and (r2, c) in pairs]
                if choice.x_member[r1] >= choice.x_member[r2] or len(ys) < 2:
                    continue
                y1 = ys[0]
                y2 = next((c for c in ys if choice.y_member[c] != choice.y_member[y1]), None)
                if y2 is None:
                    continue
                word = step_word(choice, np.array([r1, r2]), np.array([y1, y2]))
                assert cube6.length(word) == 12
                want = np.arange(cube6.n_cells)
                for r in (r1, r2):
                    for c in (y1, y2):
                        k = pairs[(r, c)]
                        want[table.positions[choice.first + k]] = table.sources[choice.first + k]
                assert np.array_equal(cube6.perm_of(word), want)
                found += 1
                break
            if found >= 5:
                return
    assert found >= 5


@pytest.mark.parametrize("seed", [1, 2])
def test_the_pass_replays_gains_and_is_deterministic(cubes, seed):
    """On a 10x10x10 by colours (on a 6x6x6 no step makes 0.7 cells right per turn)."""
    cube10 = cubes.build(size=10)
    colours = scrambled_colours(cube10, seed)
    runs = []
    for _ in range(2):
        problem = Problem.from_input(cube10, colours)
        before = problem.wrong()
        played = play_products(problem, cancel=CancelToken())
        assert played == cube10.length(problem.turns) > 0
        assert np.array_equal(colours[cube10.perm_of(problem.turns)], problem.labels)
        assert before - problem.wrong() >= MIN_RATE * played
        runs.append(problem.turns)
    assert runs[0] == runs[1]


def test_puzzles_without_classes_of_commuting_moves_play_nothing(cubes):
    two = Puzzle(list(range(4)), {"a": [1, 0, 2, 3], "b": [0, 2, 1, 3]})
    assert product_table(two) is None
    assert play_products(Problem.from_input(two, [1, 0, 2, 3])) == 0
    cube3 = cubes.build(size=3)  # its slices meet in rows of cells, never in one
    assert product_table(cube3) is None


def test_only_big_puzzles_open_their_first_attempt_with_products(cubes, monkeypatch):
    from hlavolamy.solve.strategies import insertion

    cube5 = cubes.build(size=5)
    played = []
    real = insertion.play_products
    monkeypatch.setattr(insertion, "play_products", lambda problem, cancel: played.append(real(problem, cancel=cancel)))
    for limit in (cube5.n_cells, 0):
        monkeypatch.setattr(insertion, "PRODUCT_CELLS", limit)
        problem = Problem.from_input(cube5, scrambled_colours(cube5, 3))
        insertion.solve_by_insertion(problem, Context(CancelToken()))
        assert problem.replays_to_goal(problem.turns)
    assert len(played) == 1

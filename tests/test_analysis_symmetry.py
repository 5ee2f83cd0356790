"""Symmetries found from the moves: relabellings of the cells under which every move is a move again."""

import numpy as np

from hlavolamy.analysis.symmetry import symmetries
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.scramble import random_scramble
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn


def test_the_3x3x3_has_its_48_rotations_and_mirrors(rubik3):
    found = symmetries(rubik3)
    assert len(found) == 48
    assert np.array_equal(found[0].cells, np.arange(rubik3.n_cells))  # the identity first
    for view in found:
        back = np.argsort(view.cells)
        for move, (image, sign) in view.moves.items():
            target = rubik3.moves[image] if sign > 0 else np.argsort(rubik3.moves[image])
            assert np.array_equal(back[rubik3.moves[move][view.cells]], target)
    # a mirror turns every face the other way: U to U' (or to D')
    assert any(all(sign < 0 for _, sign in view.moves.values()) for view in found)


def test_an_answer_to_the_conjugate_relabelled_back_solves_the_position(rubik3):
    scramble = random_scramble(rubik3, 30, 5)
    position = State.solved(rubik3).apply(scramble).perm
    undo = [Turn(t.move, -t.power) for t in reversed(scramble)]
    for view in symmetries(rubik3)[:12]:
        conjugate = view.conjugate(position)
        answer = [Turn(view.moves[t.move][0], view.moves[t.move][1] * t.power) for t in undo]
        assert np.array_equal(State(rubik3, conjugate).apply(answer).perm, np.arange(rubik3.n_cells))
        assert view.turns_back(answer) == undo


def test_moves_of_different_shapes_are_never_swapped():
    # a 3-cycle and a 5-cycle sharing a cell: each may only be mirrored (turned the other way), never swapped
    puzzle = Puzzle(list("ABCDEFG"), {"a": [1, 2, 0, 3, 4, 5, 6], "b": [0, 1, 3, 4, 5, 6, 2]})
    found = symmetries(puzzle)
    assert sorted(tuple(sorted(view.moves.items())) for view in found) == sorted(
        (("a", ("a", s)), ("b", ("b", t))) for s in (1, -1) for t in (1, -1))

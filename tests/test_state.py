"""State: applying sequences, solved tests, colours, and blockings legality."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import bandaged_puzzle, minimal_puzzle, ring_puzzle

from hlavolamy.core import perm as P
from hlavolamy.core.state import State, fused_sets_torn
from hlavolamy.core.turns import Turn
from hlavolamy.errors import IllegalMoveError, PermutationError


def test_solved_state_and_apply_forms_agree():
    p = ring_puzzle()
    s = State.solved(p)
    assert s.is_solved() and s.is_colour_solved()
    by_text = s.apply("L R'")
    by_list = s.apply([Turn("L"), Turn("R", -1)])
    by_turns = s.apply(Turn("L")).apply(Turn("R", -1))
    assert by_text == by_list == by_turns
    assert np.array_equal(by_text.perm, p.perm_of(p.parse("L R'")))
    assert by_text.apply("R L'").is_solved()


def test_apply_moves_contents_by_the_convention():
    s = State.solved(minimal_puzzle()).apply("R")
    # new[i] = old[R[i]] with R = [0, 2, 3, 1]
    assert s.perm.tolist() == [0, 2, 3, 1]
    assert s.colours() == ["A", "B", "B", "A"]
    assert s.colour_ids().tolist() == [0, 1, 1, 0]


def test_colour_solved_without_being_solved():
    s = State.solved(minimal_puzzle()).apply("L")
    assert not s.is_solved()
    assert s.is_colour_solved()


def test_order_many_turns_return_to_solved():
    p = ring_puzzle()
    for name in p.moves:
        s = State.solved(p).apply([Turn(name, p.move_order(name))])
        assert s.is_solved()


def test_states_compare_by_puzzle_and_perm():
    p = minimal_puzzle()
    a, b = State(p, [1, 0, 2, 3]), State.solved(p).apply("L")
    assert a == b and hash(a) == hash(b)
    assert a != State(minimal_puzzle(), [1, 0, 2, 3])  # another puzzle object
    assert repr(a) == "State([1, 0, 2, 3])"


def test_a_state_must_be_a_permutation_of_the_cells():
    with pytest.raises(PermutationError, match="state: has 3 entries, expected 4"):
        State(minimal_puzzle(), [0, 1, 2])
    with pytest.raises(PermutationError, match="state: value 1 appears"):
        State(minimal_puzzle(), [1, 1, 2, 3])


def test_a_move_that_tears_a_fused_set_is_illegal():
    p = bandaged_puzzle()
    solved = State.solved(p)
    assert fused_sets_torn(p, solved.perm, "X") == [frozenset({1, 2})]
    with pytest.raises(IllegalMoveError, match=r"move 'X' is blocked here.*\[1, 2\]"):
        solved.apply("X")
    assert fused_sets_torn(p, solved.perm, "L") == []
    assert fused_sets_torn(p, solved.perm, "R") == []


def test_legality_depends_on_the_position():
    p = bandaged_puzzle()
    after_l = State.solved(p).apply("L")  # the fused cells 1, 2 now sit at positions 0, 1
    assert sorted(P.inverse(after_l.perm)[[1, 2]].tolist()) == [0, 1]
    after_x = after_l.apply("X")
    assert not after_x.is_solved()
    # Back at the start X is blocked again, even as the last step of a longer sequence.
    with pytest.raises(IllegalMoveError):
        after_x.apply("X L' X")


def test_each_step_of_a_power_is_checked_and_check_legal_can_be_waived():
    p = bandaged_puzzle()
    with pytest.raises(IllegalMoveError):
        State.solved(p).apply("X2")
    assert State.solved(p).apply("X2", check_legal=False).is_solved()

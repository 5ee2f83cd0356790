"""Move notation: the grammar, every parse error with its column, and round trips."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import move_names, random_puzzles, ring_puzzle, santa_like_puzzle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hlavolamy.core import perm as P
from hlavolamy.core.notation import (
    MAX_POWER,
    Commutator,
    Conjugate,
    Group,
    Name,
    flatten,
    format_tree,
    format_turns,
    parse,
    parse_tree,
)
from hlavolamy.core.turns import Turn, invert
from hlavolamy.errors import NotationError

MOVES = ["R", "U", "F", "f1", "f12", "2R", "x_y"]
R, U, F = Turn("R"), Turn("U"), Turn("F")


def turns(text: str, aliases: dict | None = None) -> list[Turn]:
    return parse(text, MOVES, aliases or {})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("   ", []),
        ("R U", [R, U]),
        ("R'", [Turn("R", -1)]),
        ("-R", [Turn("R", -1)]),
        ("R2 R'3 R3' R^2 R^-1", [Turn("R", 2), Turn("R", -3), Turn("R", -3), Turn("R", 2), Turn("R", -1)]),
        ("R'U", [Turn("R", -1), U]),  # a quote ends the name
        ("2R 2R2 2R'", [Turn("2R"), Turn("2R", 2), Turn("2R", -1)]),
        ("f1 f12 f1^2 f1' -f12", [Turn("f1"), Turn("f12"), Turn("f1", 2), Turn("f1", -1), Turn("f12", -1)]),
        ("f1.f12.-R", [Turn("f1"), Turn("f12"), Turn("R", -1)]),
        ("x_y3", [Turn("x_y", 3)]),
        ("(R U)2", [R, U, R, U]),
        ("(R U)'", [Turn("U", -1), Turn("R", -1)]),
        ("-(R U)", [Turn("U", -1), Turn("R", -1)]),
        ("(R U)2'", [Turn("U", -1), Turn("R", -1)] * 2),
        ("(R U)^-2", [Turn("U", -1), Turn("R", -1)] * 2),
        ("[R, U]", [R, U, Turn("R", -1), Turn("U", -1)]),
        ("[R: U]", [R, U, Turn("R", -1)]),
        ("[R U: F2]", [R, U, Turn("F", 2), Turn("U", -1), Turn("R", -1)]),
        ("[R, U]2", [R, U, Turn("R", -1), Turn("U", -1)] * 2),
        ("[R: [U, F]]", [R, U, F, Turn("U", -1), Turn("F", -1), Turn("R", -1)]),
        ("[R, U]'", [U, R, Turn("U", -1), Turn("R", -1)]),
        ("(R(U)F)", [R, U, F]),
        ("-R'", [R]),
    ],
)
def test_parse(text, expected):
    assert turns(text) == expected


def test_a_whole_name_wins_over_a_power():
    moves = ["R", "R2"]
    assert parse("R2", moves, {}) == [Turn("R2")]
    assert parse("R^2 R2'", moves, {}) == [Turn("R", 2), Turn("R2", -1)]
    assert format_turns([Turn("R", 2), Turn("R", -2), Turn("R2", 2)], moves) == "R^2 R^-2 R2^2"


def test_aliases_expand_with_powers_and_inverse():
    aliases = {"sexy": [R, U, Turn("R", -1), Turn("U", -1)]}
    assert parse("sexy", MOVES, aliases) == aliases["sexy"]
    assert parse("sexy2", MOVES, aliases) == aliases["sexy"] * 2
    assert parse("sexy'", MOVES, aliases) == invert(aliases["sexy"])
    assert parse("[F: sexy]", MOVES, aliases) == [F, *aliases["sexy"], Turn("F", -1)]


def test_tree_keeps_groups_and_columns():
    tree = parse_tree("R [U, F]2 -(R U)'", MOVES)
    assert tree == (
        Name("R"),
        Commutator((Name("U"),), (Name("F"),), 2),
        Group((Name("R"), Name("U")), 1),
    )
    assert [node.column for node in tree] == [1, 3, 11]
    assert format_tree(tree, MOVES) == "R [U, F]2 (R U)"
    conj = parse_tree("[f1: f12^2]'", MOVES)[0]
    assert conj == Conjugate((Name("f1"),), (Name("f12", 2),), -1)
    assert format_tree([conj], MOVES) == "[f1: f12^2]'"


def test_format_turns_uses_the_shortest_tokens():
    out = format_turns([R, Turn("R", -1), Turn("R", 2), Turn("R", -2), Turn("f1", 2), Turn("f1", -1), Turn("f1", -3)], MOVES)
    assert out == "R R' R2 R2' f1^2 f1' f1^-3"
    assert format_turns([R, Turn("f1", -1)], MOVES, separator=".") == "R.f1'"
    assert format_turns([R, Turn("U", 0), F], MOVES) == "R F"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("R Q", 3, "unknown move 'Q'; known names: "),
        ("R f33", 3, "unknown move 'f33'"),
        ("r", 1, "unknown move 'r'; did you mean 'R'"),
        ("Ux", 1, "did you mean 'U'"),
        ("f1 f13", 4, "unknown move 'f13'; did you mean"),
        ("R U)", 4, r"unmatched '\)'"),
        ("R ]", 3, "unmatched ']'"),
        ("(R U", 1, r"'\(' is never closed"),
        ("[R, U", 1, r"'\[' is never closed"),
        ("(R U]", 5, r"'\]' does not close '\(' \(opened at column 1\)"),
        ("[R, U)", 6, r"'\)' does not close '\['"),
        ("R ()", 3, r"empty group '\(\)'"),
        ("[R U]", 5, "expected ',' .* or ':'"),
        ("[, U]", 2, "nothing before ','"),
        ("[R: ]", 5, "nothing after ':'"),
        ("[R, U, F]", 6, "expected ']'"),
        ("[R: U: F]", 6, "expected ']'"),
        ("R^", 2, "bad power: '\\^' must be followed by a whole number"),
        ("R^x", 2, "bad power"),
        ("R^-", 2, "bad power"),
        ("R0", 2, "bad power 0"),
        ("(R U)0", 6, "bad power 0"),
        (f"R{MAX_POWER + 1}", 2, "bad power"),
        ("R2^2", 3, "a power is given twice"),
        ("(R)2 3", 6, "number '3' without a move"),
        ("R''", 3, "\"'\" is given twice"),
        ("R, U", 2, "',' outside brackets"),
        ("R: U", 2, "':' outside brackets"),
        ("R # U", 3, "unexpected character '#'"),
        ("R U +", 5, "unexpected character '\\+'"),
        ("- R", 2, "'-' must be followed by a move or a group"),
        (".R", 1, "'.' must stand between two turns"),
        ("R..U", 3, "'.' must stand between two turns"),
        ("R.", 2, "'.' must stand between two turns"),
        ("((R U)1000)1000", 1, "more than 1000000 turns"),
    ],
)
def test_every_parse_error_has_the_column(text, column, message):
    with pytest.raises(NotationError, match=message) as info:
        turns(text)
    assert info.value.column == column
    assert info.value.text == text
    assert f"at column {column}" in str(info.value)


def test_unknown_move_on_a_big_puzzle_does_not_list_every_name():
    names = [f"m{i}" for i in range(99)]
    with pytest.raises(NotationError, match="did you mean 'm1'") as info:
        parse("m1x", names, {})
    assert "m98" not in str(info.value)
    with pytest.raises(NotationError, match="99 move and alias names"):
        parse("zzz", names, {})


# -- properties ----------------------------------------------------------------
RELAXED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
"""The machine running the suite may be busy: no per-example deadline, no data-generation speed check."""

def trees(names: list[str], min_size: int = 0, max_leaves: int = 6) -> st.SearchStrategy:
    """Random trees over ``names``: names with powers, groups, commutators, conjugates, nested."""
    powers = st.integers(-3, 3).filter(bool)
    leaves = st.builds(Name, st.sampled_from(names), powers)

    def branches(children: st.SearchStrategy) -> st.SearchStrategy:
        seqs = st.lists(children, min_size=1, max_size=3).map(tuple)
        return st.one_of(
            st.builds(Group, seqs, powers),
            st.builds(Commutator, seqs, seqs, powers),
            st.builds(Conjugate, seqs, seqs, powers),
        )

    return st.lists(st.recursive(leaves, branches, max_leaves=max_leaves), min_size=min_size, max_size=4).map(tuple)


@settings(max_examples=60, **RELAXED)
@given(st.data(), st.lists(move_names, min_size=1, max_size=5, unique=True))
def test_print_then_parse_gives_the_same_turns(data, names):
    tree = data.draw(trees(names))
    flat = flatten(tree)
    text = format_tree(tree, names)
    assert parse(text, names, {}) == flat
    assert parse_tree(text, names) == tree
    assert parse(format_turns(flat, names), names, {}) == flat
    assert parse(format_turns(flat, names, separator="."), names, {}) == flat


@settings(**RELAXED)
@given(st.lists(move_names, min_size=1, max_size=5, unique=True), st.data())
def test_format_turns_round_trip_on_flat_lists(names, data):
    flat = data.draw(st.lists(st.builds(Turn, st.sampled_from(names), st.integers(-30, 30).filter(bool))))
    assert parse(format_turns(flat, names), names, {}) == flat


@settings(max_examples=40, **RELAXED)
@given(random_puzzles(), st.data())
def test_commutator_and_conjugate_are_the_group_expressions(puzzle, data):
    names = list(puzzle.moves)
    tree = trees(names, min_size=1, max_leaves=4)
    a_text = format_tree(data.draw(tree), names)
    b_text = format_tree(data.draw(tree), names)
    a, b = puzzle.perm_of(puzzle.parse(a_text)), puzzle.perm_of(puzzle.parse(b_text))
    commutator = puzzle.perm_of(puzzle.parse(f"[{a_text}, {b_text}]"))
    conjugate = puzzle.perm_of(puzzle.parse(f"[{a_text}: {b_text}]"))
    assert np.array_equal(commutator, P.compose(a, b, P.inverse(a), P.inverse(b)))
    assert np.array_equal(conjugate, P.compose(a, b, P.inverse(a)))
    inverse = puzzle.perm_of(puzzle.parse(f"({a_text})'"))
    assert np.array_equal(inverse, P.inverse(a))


def test_puzzle_level_parse_and_format_with_digit_names():
    p = santa_like_puzzle()
    seq = p.parse("f0.f1.-r1.f0^2")
    assert seq == [Turn("f0"), Turn("f1"), Turn("r1", -1), Turn("f0", 2)]
    assert p.format(seq) == "f0 f1 r1' f0^2"
    assert p.parse(p.format(seq)) == seq


def test_commutator_of_overlapping_cycles():
    # Two 4-cycles sharing two neighbouring cells: their commutator is two swaps.
    p = ring_puzzle()
    c = p.perm_of(p.parse("[L, R]"))
    assert P.cycle_type(c) == {2: 2}
    assert P.is_identity(p.perm_of(p.parse("[L, R]2")))

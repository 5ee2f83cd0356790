"""GAP cycle notation: reading GAP's cube example, direction, products, round trips, errors."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.combinatorics import Permutation, PermutationGroup

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import FileFormatError
from hlavolamy.formats import gap

# GAP's classic example (Schönert, "Analyzing Rubik's Cube with GAP"), as pasted from a session.
GAP_CUBE = """
gap> # the 48 moving facelets of the cube
gap> U := ( 1, 3, 8, 6)( 2, 5, 7, 4)( 9,33,25,17)(10,34,26,18)(11,35,27,19);;
gap> L := ( 9,11,16,14)(10,13,15,12)( 1,17,41,40)( 4,20,44,37)( 6,22,46,35);;
gap> F := (17,19,24,22)(18,21,23,20)( 6,25,43,16)( 7,28,42,13)( 8,30,41,11);;
gap> R := (25,27,32,30)(26,29,31,28)( 3,38,43,19)( 5,36,45,21)( 8,33,48,24);;
gap> B := (33,35,40,38)(34,37,39,36)( 3, 9,46,32)( 2,12,47,29)( 1,14,48,27);;
gap> D := (41,43,48,46)(42,45,47,44)(14,22,30,38)(15,23,31,39)(16,24,32,40);;
gap> cube := Group( U, L, F, R, B, D );;
gap> Size( cube );
"""


def group_order(puzzle: Puzzle) -> int:
    return PermutationGroup([Permutation(m.tolist()) for m in puzzle.moves.values()]).order()


def test_gap_cube_example() -> None:
    puzzle = gap.parse(GAP_CUBE)
    assert list(puzzle.moves) == ["U", "L", "F", "R", "B", "D"]
    assert puzzle.n_cells == 48
    assert len(set(puzzle.colours)) == 48
    assert group_order(puzzle) == 43252003274489856000
    assert all(puzzle.move_order(m) == 4 for m in puzzle.moves)


def test_direction_piece_at_i_goes_to_i_to_the_g() -> None:
    puzzle = gap.parse("a := (1,2,3);")
    state = State.solved(puzzle).apply("a")
    # GAP: 1^a = 2, so the piece from cell 1 (0-based 0) now sits at cell 2 (0-based 1).
    assert state.perm[1] == 0 and state.perm[2] == 1 and state.perm[0] == 2


def test_products_and_powers_follow_gap() -> None:
    # In GAP (1,2)(2,3) = (1,3,2) and (1,2,3)^-1 = (1,3,2); a*b applies a first.
    puzzle = gap.parse("a := (1,2)(2,3); b := (1,2,3)^-1; c := (1,2)*(2,3); d := PermList([3,1,2]);")
    expected = gap.parse("e := (1,3,2);").moves["e"]
    for name in "abcd":
        assert np.array_equal(puzzle.moves[name], expected), name
    assert gap.gap_cycles(expected) == "(1,3,2)"


def test_group_with_anonymous_and_listed_generators() -> None:
    puzzle = gap.parse("x := (1,2);\nG := Group(x, (2,3), x*(3,4));")
    assert list(puzzle.moves) == ["x", "g2", "g3"]
    listed = gap.parse("x := (1,2); y := (3,4); Group([x, y]);")
    assert list(listed.moves) == ["x", "y"]


def test_colours_list_sets_cells_and_survives_round_trip() -> None:
    text = 'colours := ["W", "W", "R", "R", "B"];\nt := (1,3);\nGroup(t);'
    puzzle = gap.parse(text)
    assert puzzle.colours == ("W", "W", "R", "R", "B")
    again = gap.parse(gap.dumps(puzzle))
    assert again.colours == puzzle.colours
    assert np.array_equal(again.moves["t"], puzzle.moves["t"])


def test_dump_writes_named_generators_and_group(tiny_puzzle: Puzzle, tmp_path) -> None:
    path = tmp_path / "tiny.g"
    gap.dump(tiny_puzzle, path)
    text = path.read_text()
    assert "L := (1,2);" in text and "R := (2,4,3);" in text and "Group(L, R)" in text
    back = gap.load(path)
    assert back.colours == tiny_puzzle.colours
    assert all(np.array_equal(back.moves[k], tiny_puzzle.moves[k]) for k in tiny_puzzle.moves)


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    n = draw(st.integers(2, 12))
    k = draw(st.integers(1, 4))
    moves = {f"m{i}": draw(st.permutations(range(n))) for i in range(k)}
    colours = draw(st.lists(st.sampled_from(["red", "blue", 'q"uote', "a b"]), min_size=n, max_size=n))
    return Puzzle(colours, moves)


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_round_trip_is_exact(puzzle: Puzzle) -> None:
    back = gap.parse(gap.dumps(puzzle))
    assert back.colours == puzzle.colours
    assert list(back.moves) == list(puzzle.moves)
    for name, m in puzzle.moves.items():
        assert np.array_equal(back.moves[name], m)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("U := (1,2,0);", "line 1, column 11", "point"),
        ("U := (1,2,2);", "line 1, column 11", "twice"),
        ("U := (1,2;", "line 1, column 10", "expected ','"),
        ("\n\nG := Group(U);", "line 3, column 12", "not a permutation defined"),
        ("U := (1,2) $;", "line 1, column 12", "expected ';', found '$'"),
        ("U := (1,2)^x;", "line 1, column 12", "integer power"),
        ('colours := ["a"];\nU := (1,2);', "", "colours list has 1 entries"),
        ("Size(G);", "", "no generators"),
        ("U := PermList([1,1]);", "line 1", "each of 1..n"),
        ("Print(1;", "line 1, column 6", "'(' opened here is not closed"),
        ("x := 1);", "line 1, column 7", "unexpected ')'"),
        ("for i in [1..3] do\n  Print(i);\n", "line 1, column 17", "'do' opened here is not closed"),
        ("U := (1," + "9" * 5000 + ");", "line 1, column 9", "point 999999999999... (5000 digits) is more than 1,000,000"),
        ("U := (1,1000000000);", "line 1, column 9", "point 1000000000 is more than 1,000,000"),
        ("U := (1,2)^" + "9" * 5000 + ";", "line 1, column 12", "power 999999999999... (5000 digits) is more"),
        ("".join(f"M{k} := (1,1000000);" for k in range(21)), "", "1000000 points and 42 permutation steps"),
        ("Gen := [(1,2), 3];", "line 1, column 16", "expected a permutation, found '3'"),
        ("Gen := [(1,2), Q];", "line 1, column 16", "'Q' is not a permutation defined above"),
    ],
)
def test_errors_say_where(text: str, where: str, what: str) -> None:
    with pytest.raises(FileFormatError) as info:
        gap.parse(text, "bad.g")
    message = str(info.value)
    assert what in message and "bad.g" in message
    assert where in message


def test_keyword_move_name_is_refused_on_export() -> None:
    with pytest.raises(FileFormatError, match="GAP keyword"):
        gap.dumps(Puzzle("ab", {"in": [1, 0]}))


def test_move_names_starting_with_digits(tmp_path) -> None:
    puzzle = Puzzle("abcd", {"2R": [1, 0, 2, 3], "10R": [0, 1, 3, 2], "R": [1, 2, 3, 0]})
    back = gap.parse(gap.dumps(puzzle))
    assert list(back.moves) == ["2R", "10R", "R"]
    assert all(np.array_equal(back.moves[k], puzzle.moves[k]) for k in puzzle.moves)


GAP_DATA = Path(__file__).resolve().parent / "data" / "gap"
CUBE_ORDER = 43252003274489856000
FIXTURES = [
    # file, the generators as GAP names them, our move names, cells, the group's order (None: not checked)
    ("pg_cube3.g", "Gen", ["U", "L", "F", "R", "B", "D"], 48, CUBE_ORDER),
    ("pg_layers.g", "Gen", ["F", "2F", "D", "2D"], 9, None),
    ("gens_then_group.g", "GeneratorsOfGroup(cube)", ["U", "L", "F", "R", "B", "D"], 48, CUBE_ORDER),
    ("group_literal_list.g", "GeneratorsOfGroup(G)", ["g1", "g2"], 5, 120),
    ("continuation.g", "GeneratorsOfGroup(twoGen)", ["U", "R"], 48, 73483200),
    ("products.g", "gens", ["R", "U", "sune", "g4", "Rinv"], 48, 73483200),
    ("script.g", "GeneratorsOfGroup(cube)", ["U", "L", "F", "R", "B", "D"], 48, CUBE_ORDER),
    ("colours.g", "GeneratorsOfGroup(ring)", ["rot", "swap"], 6, 720),
    ("permlist.g", "GeneratorsOfGroup(G)", ["a", "b"], 5, 60),
    ("strings_and_numbers.g", "GeneratorsOfGroup(G)", ["U", "R"], 48, 73483200),
    ("session.txt", None, ["U", "R"], 48, 73483200),
]


@pytest.mark.parametrize(("name", "gap_generators", "moves", "cells", "order"), FIXTURES)
def test_files_as_gap_users_and_tools_write_them(name: str, gap_generators, moves, cells: int, order) -> None:
    puzzle = gap.load(GAP_DATA / name)
    assert list(puzzle.moves) == moves
    assert puzzle.n_cells == cells
    if order is not None:
        assert group_order(puzzle) == order


def test_colours_list_of_a_file() -> None:
    assert gap.load(GAP_DATA / "colours.g").colours == ("red", "red", "green", "green", "blue", "blue")


@pytest.mark.skipif(shutil.which("gap") is None, reason="GAP is not installed")
def test_generators_are_the_ones_gap_reads(tmp_path: Path) -> None:
    """GAP itself reads every file; each generator's image list must be the inverse of our move."""
    checked = [f for f in FIXTURES if f[1] is not None]
    script = "".join(f'Read("{GAP_DATA / name}");\nPrint("file {name}\\n");\n'
                     f'for g in {generators} do Print(ListPerm(g, {cells}), "\\n"); od;\n'
                     for name, generators, _, cells, _ in checked)
    (tmp_path / "check.g").write_text(script + "QUIT;\n")
    out = subprocess.run(["gap", "-q", "-b", str(tmp_path / "check.g")], capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL).stdout
    for name, *_ in checked:
        block = out.split(f"file {name}\n")[1].split("file ")[0]
        lists = [ast.literal_eval(text) for text in re.findall(r"\[[^\]]*\]", block)]
        assert lists == [(P.inverse(m) + 1).tolist() for m in gap.load(GAP_DATA / name).moves.values()], name


def test_pasted_session_output_lines_and_other_statements_are_skipped() -> None:
    text = ("gap> G := Group((1,2,3), (3,4));\nGroup([ (1,2,3), (3,4) ])\ngap> x := [1..10];;\n"
            "gap> IsBound(x[3]); rec( a := 1 );\n")
    assert list(gap.parse(text).moves) == ["g1", "g2"]


def test_m_prefix_is_kept_when_dropping_it_would_clash() -> None:
    assert list(gap.parse("M_F := (1,2); F := (2,3); Gen := [M_F, F];").moves) == ["M_F", "F"]
    assert list(gap.parse("M_F := (1,2); M_ := (2,3); Gen := [M_F, M_];").moves) == ["M_F", "M_"]

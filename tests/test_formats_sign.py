"""SiGN cube notation on the cube plugin's names and on the Santa 2023 names."""

from __future__ import annotations

import ast
import csv
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy import formats
from hlavolamy.core.fileformat import save_puzzle
from hlavolamy.errors import FileFormatError, NotationError
from hlavolamy.formats import sign
from hlavolamy.plugins.manager import PluginHost

REPO = Path(__file__).resolve().parents[1]
SANTA_INFO = REPO.parent / "shared" / "bench" / "santa2023" / "puzzle_info.csv"
SIZES = (2, 3, 4, 5)


@pytest.fixture(scope="module")
def cubes():
    return PluginHost([REPO / "plugins"], entry_points=False).geometry("cubes")


@pytest.fixture(scope="module")
def santa_cubes(cubes) -> dict[int, Puzzle]:
    """The competition's cube_N/N/N moves (f0.., r0.., d0..), coloured like our cubes."""
    if not SANTA_INFO.exists():
        pytest.skip("the Santa 2023 benchmark data is not here")
    wanted = {f"cube_{n}/{n}/{n}": n for n in SIZES}
    csv.field_size_limit(sys.maxsize)
    out = {}
    with open(SANTA_INFO, newline="") as handle:
        for row in csv.DictReader(handle):
            n = wanted.get(row["puzzle_type"])
            if n is not None:
                out[n] = Puzzle(cubes.build(size=n).colours, ast.literal_eval(row["allowed_moves"]), name=row["puzzle_type"])
    return out


TEXTS = ["R U' F2 B2' L D", "Rw 2R' r 3r2", "x y' z2", "M E' S2", "2-3Rw 2-2r' 2-3U", "(R U R' U')3", "[R, U] [F: R2]",
         "R  // a comment\n U'"]


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("text", TEXTS)
def test_plugin_and_santa_names_give_the_same_permutation(cubes, santa_cubes, n: int, text: str) -> None:
    cube = cubes.build(size=n, centre_slices=True)
    santa = santa_cubes[n]
    assert np.array_equal(cube.perm_of(sign.parse(cube, text)), santa.perm_of(sign.parse(santa, text)))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sign_agrees_with_the_plugin_aliases(cubes, n: int) -> None:
    cube = cubes.build(size=n, centre_slices=True)
    for alias in ("Rw", "Lw", "Uw", "x", "y", "z"):
        assert np.array_equal(cube.perm_of(sign.parse(cube, alias)), cube.perm_of(cube.parse(alias))), alias


def test_layers_and_santa_directions(santa_cubes) -> None:
    santa = santa_cubes[4]
    assert sign.parse(santa, "F B U D R L") == [Turn("f0", 1), Turn("f3", -1), Turn("d3", -1), Turn("d0", 1),
                                                Turn("r0", 1), Turn("r3", -1)]
    assert sign.parse(santa, "2F 3F Rw'") == [Turn("f1", 1), Turn("f2", 1), Turn("r0", -1), Turn("r1", -1)]
    assert sign.parse(santa, "M") == [Turn("r2", -1), Turn("r1", -1)]
    assert sign.parse(santa, "R2'") == [Turn("r0", -2)]
    assert sign.format_turns(santa, [Turn("f3", 1), Turn("d1", -1), Turn("r0", 1), Turn("r1", 1)]) == "B' 2D' Rw"


@pytest.mark.parametrize("text", TEXTS)
def test_sign_to_turns_to_sign(santa_cubes, text: str) -> None:
    santa = santa_cubes[5]
    turns = sign.parse(santa, text)
    printed = sign.format_turns(santa, turns)
    assert sign.parse(santa, printed) == turns
    assert sign.format_turns(santa, sign.parse(santa, printed)) == printed


def test_plain_sequences_print_as_typed(cubes) -> None:
    cube = cubes.build(size=4)
    for text in ("R U' F2 B2' L D", "Rw U2 3Lw' 2F"):
        assert sign.format_turns(cube, sign.parse(cube, text)) == text


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SIZES), st.data())
def test_turns_to_sign_to_turns(santa_cubes, n: int, data: st.DataObject) -> None:
    santa = santa_cubes[n]
    names = list(santa.moves)
    turns = data.draw(st.lists(st.builds(Turn, st.sampled_from(names), st.sampled_from([1, -1, 2, -2, 3])), max_size=25))
    assert sign.parse(santa, sign.format_turns(santa, turns)) == turns
    assert sign.parse(santa, sign.format_turns(santa, turns, wide=False)) == turns


@pytest.mark.parametrize(
    ("text", "column", "what"),
    [
        ("R Q", 3, "not a SiGN move"),
        ("R 4R", 3, "layers 1..3"),
        ("(R U", 1, "not closed"),
        ("[R U]", 5, "expected ','"),
        ("0R", 1, "counted from 1"),
        ("3-2Rw", 1, "run upwards"),
        ("R2'2", 2, "written once"),
    ],
)
def test_errors_give_the_column(cubes, text: str, column: int, what: str) -> None:
    cube = cubes.build(size=3)
    with pytest.raises(NotationError) as info:
        sign.parse(cube, text)
    assert what in str(info.value) and f"column {column}" in str(info.value)


def test_missing_layer_and_non_cube(cubes, tiny_puzzle: Puzzle) -> None:
    cube = cubes.build(size=3)  # no centre slices: the middle layers are not moves
    with pytest.raises(NotationError, match="layer 2 of L is not a move"):
        sign.parse(cube, "M")
    with pytest.raises(NotationError, match="NxNxN cube"):
        sign.parse(tiny_puzzle, "R")


@pytest.mark.parametrize(
    ("text", "column", "what"),
    [
        ("R (R U)4294967296", 8, "bad power 4294967296"),
        ("R (R U)1000000", 3, "more than 1000000 turns"),
        ("((R U)1000)1000", 1, "more than 1000000 turns"),
        ("(R)1000000 (R)1000000 U", 12, "more than 1000000 turns"),
        ("R" + "9" * 5000, 2, "bad power 999999999999... (5000 digits)"),
        ("R1000001", 2, "up to 1,000,000"),
        ("99999999999999999999R", 1, "layer 99999999999999999999 of R: a 3x3x3 cube has layers 1..3"),
        ("2-1000000000Rw", 1, "layer 1000000000 of R"),
        ("1000000000Rw", 1, "layer 1000000000 of R"),
        ("(" * 101 + "R" + ")" * 101, 101, "nested more than 100 deep"),
        ("[R: " * 200 + "U" + "]" * 200, 401, "nested more than 100 deep"),
    ],
)
def test_sizes_are_bounded(cubes, text: str, column: int, what: str) -> None:
    with pytest.raises(NotationError) as info:
        sign.parse(cubes.build(size=3), text)
    message = str(info.value)
    assert what in message and f"column {column}" in message


def test_file_error_names_file_line_and_column_without_echoing_the_file(cubes, tmp_path) -> None:
    cube = tmp_path / "cube.json"
    save_puzzle(cube, cubes.build(size=3))
    path = tmp_path / "alg.txt"
    path.write_text("R U R' U' " * 50 + "\n  (R U)4294967296\n")
    with pytest.raises(FileFormatError) as info:
        formats.import_file("sign", path, puzzle=str(cube))
    assert str(info.value) == f"{path}, line 2, column 8: bad power 4294967296: a power is a whole number up to 1,000,000"

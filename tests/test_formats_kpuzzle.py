"""cubing.js KPuzzle JSON: conventions, variants, piece structure, round trips, errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.combinatorics import Permutation, PermutationGroup

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import FileFormatError
from hlavolamy.formats import kpuzzle, pieces
from hlavolamy.plugins.manager import PluginHost

REPO = Path(__file__).resolve().parents[1]

# A made-up puzzle in the current schema: three pieces that twist (3 orientations) and a pair
# of pieces without orientation.
TRIANGLE = {
    "name": "triangle",
    "orbits": [
        {"orbitName": "TIPS", "numPieces": 3, "numOrientations": 3},
        {"orbitName": "PAIR", "numPieces": 2, "numOrientations": 1},
    ],
    "defaultPattern": {
        "TIPS": {"pieces": [0, 1, 2], "orientation": [0, 0, 0]},
        "PAIR": {"pieces": [0, 1], "orientation": [0, 0]},
    },
    "moves": {
        "a": {"TIPS": {"permutation": [1, 2, 0], "orientationDelta": [0, 0, 1]},
              "PAIR": {"permutation": [1, 0], "orientationDelta": [0, 0]}},
        "b": {"TIPS": {"permutation": [0, 2, 1], "orientationDelta": [2, 1, 0]}},
        "x": {"TIPS": {"permutation": [1, 2, 0], "orientationDelta": [0, 0, 0]}},
    },
    "derivedMoves": {"ab": "a b", "bad": "a ?"},
}


@pytest.fixture(scope="module")
def cubes():
    return PluginHost([REPO / "plugins"], entry_points=False).geometry("cubes")


def group_order(puzzle: Puzzle) -> int:
    return PermutationGroup([Permutation(m.tolist()) for m in puzzle.moves.values()]).order()


def kpattern_after(definition: dict, moves: list[str]) -> dict[str, tuple[list[int], list[int]]]:
    """cubing.js semantics, written out: new.pieces[i] = old.pieces[p[i]], new.ori[i] = old.ori[p[i]] + d[i]."""
    state = {o["orbitName"]: (list(range(o["numPieces"])), [0] * o["numPieces"]) for o in definition["orbits"]}
    k = {o["orbitName"]: o["numOrientations"] for o in definition["orbits"]}
    for name in moves:
        for orbit, t in definition["moves"][name].items():
            old_p, old_o = state[orbit]
            state[orbit] = ([old_p[j] for j in t["permutation"]],
                            [(old_o[j] + d) % k[orbit] for j, d in zip(t["permutation"], t["orientationDelta"])])
    return state


def decode(puzzle: Puzzle, state: State) -> dict[str, tuple[list[int], list[int]]]:
    """Read pieces and orientations back off a cell state: slot i shows the facet o - r at cell (i, o)."""
    out: dict[str, tuple[list[int], list[int]]] = {}
    keys = [d[pieces.PIECE_KEY] for d in puzzle.cell_data]
    for cell, (orbit, slot, facet) in enumerate(keys):
        if facet != 0:
            continue
        k = 1 + max(f for o, _, f in keys if o == orbit)
        _, piece, shown = keys[int(state.perm[cell])]
        p, r = out.setdefault(orbit, ([], []))
        p.append(piece)
        r.append((0 - shown) % k)
    return out


def test_moves_act_as_cubing_js_applies_them() -> None:
    puzzle = kpuzzle.from_dict(TRIANGLE)
    for seq in (["a"], ["b"], ["a", "b"], ["b", "a", "a", "b"]):
        state = State.solved(puzzle).apply(" ".join(seq))
        assert decode(puzzle, state) == kpattern_after(TRIANGLE, seq), seq


def test_rotations_skipped_unless_asked_and_derived_moves_become_aliases() -> None:
    puzzle = kpuzzle.from_dict(TRIANGLE)
    assert list(puzzle.moves) == ["a", "b"]
    assert puzzle.aliases == {"ab": "a b"}
    assert "bad" in puzzle.description
    assert "x" in kpuzzle.from_dict(TRIANGLE, rotations=True).moves


def test_cells_and_colours() -> None:
    puzzle = kpuzzle.from_dict(TRIANGLE)
    assert puzzle.n_cells == 3 * 3 + 2
    assert puzzle.colours[:3] == ("TIPS:0.0", "TIPS:0.1", "TIPS:0.2")
    assert puzzle.colours[-2:] == ("PAIR:0", "PAIR:1")
    assert puzzle.cell_data[4][pieces.PIECE_KEY] == ["TIPS", 1, 1]
    points = {(d["x"], d["y"]) for d in puzzle.cell_data}
    assert len(points) == puzzle.n_cells  # drawing hints: every cell its own place


def test_older_variant_reads_the_same() -> None:
    old = {
        "name": "triangle",
        "orbits": {o["orbitName"]: {"numPieces": o["numPieces"], "numOrientations": o["numOrientations"]}
                   for o in TRIANGLE["orbits"]},
        "startPieces": {name: {"permutation": p["pieces"], "orientation": p["orientation"]}
                        for name, p in TRIANGLE["defaultPattern"].items()},
        "moves": {name: {orbit: {"permutation": t["permutation"], "orientation": t["orientationDelta"]}
                         for orbit, t in move.items()} for name, move in TRIANGLE["moves"].items()},
    }
    a, b = kpuzzle.from_dict(TRIANGLE), kpuzzle.from_dict(old)
    assert a.colours == b.colours
    assert all(np.array_equal(a.moves[k], b.moves[k]) for k in a.moves)


def test_identical_pieces_and_orientation_mod_give_shared_colours_and_export_back() -> None:
    d = copy.deepcopy(TRIANGLE)
    d["defaultPattern"]["TIPS"] = {"pieces": [0, 0, 1], "orientation": [0, 0, 0], "orientationMod": [0, 0, 1]}
    del d["derivedMoves"]
    puzzle = kpuzzle.from_dict(d)
    assert puzzle.colours[:9] == ("TIPS:0.0", "TIPS:0.1", "TIPS:0.2") * 2 + ("TIPS:1",) * 3
    out = kpuzzle.to_dict(puzzle)
    assert out["defaultPattern"]["TIPS"] == d["defaultPattern"]["TIPS"]
    assert out["orbits"] == d["orbits"]
    assert out["moves"]["a"] == d["moves"]["a"]


def test_import_export_import_is_exact(tmp_path) -> None:
    d = copy.deepcopy(TRIANGLE)
    del d["derivedMoves"], d["moves"]["x"]
    d["moves"]["b"]["PAIR"] = {"permutation": [0, 1], "orientationDelta": [0, 0]}
    puzzle = kpuzzle.from_dict(d)
    assert kpuzzle.to_dict(puzzle) == d
    path = tmp_path / "t.kpuzzle.json"
    kpuzzle.dump(puzzle, path)
    assert json.loads(path.read_text()) == d
    again = kpuzzle.load(path)
    assert again.colours == puzzle.colours and all(np.array_equal(again.moves[k], puzzle.moves[k]) for k in d["moves"])


def relabelling(original: Puzzle, imported: Puzzle) -> np.ndarray:
    """Cell of ``imported`` for each cell of ``original``, matched by their (orbit, slot, facet)."""
    s = pieces.structure_of(original)
    where = {tuple(d[pieces.PIECE_KEY]): cell for cell, d in enumerate(imported.cell_data)}
    return np.array([where[(s.orbits[s.orbit[c]].name, int(s.slot[c]), int(s.facet[c]))]
                     for c in range(original.n_cells)])


def assert_same_up_to_relabelling(original: Puzzle, imported: Puzzle) -> None:
    f = relabelling(original, imported)
    assert sorted(f.tolist()) == list(range(original.n_cells))
    assert list(imported.moves) == list(original.moves)
    for name, m in original.moves.items():
        assert np.array_equal(imported.moves[name][f], f[m]), name
    # a KPuzzle colours by piece: each imported colour lies inside one original colour
    pairs = set(zip(original.colours, np.array(imported.colours)[f].tolist()))
    assert len(pairs) == len(set(imported.colours))


@pytest.mark.parametrize(("size", "centre_slices"), [(2, False), (3, False), (3, True), (4, False), (5, True)])
def test_cube_export_import_round_trip(cubes, size: int, centre_slices: bool) -> None:
    cube = cubes.build(size=size, centre_slices=centre_slices)
    d = json.loads(kpuzzle.dumps(cube))
    imported = kpuzzle.from_dict(d)
    assert_same_up_to_relabelling(cube, imported)
    assert kpuzzle.to_dict(imported) == d


def test_cube3_orbits_and_group_order(cubes) -> None:
    cube = cubes.build(size=3)
    d = kpuzzle.to_dict(cube)
    shapes = sorted((o["numPieces"], o["numOrientations"]) for o in d["orbits"])
    assert shapes == [(6, 1), (8, 3), (12, 2)]  # centres (fixed), corners, edges
    assert all(not any(p["orientation"]) for p in d["defaultPattern"].values())
    assert group_order(kpuzzle.from_dict(d)) == 43252003274489856000


def test_non_cyclic_pieces_fall_back_to_single_cells() -> None:
    # Two blocks of three cells; inside block 0 the moves act as all of S3 (not a rotation group).
    swap = [3, 4, 5, 0, 1, 2]
    puzzle = Puzzle("abcdef", {"s": swap, "t": [1, 0, 2, 3, 4, 5], "u": [0, 2, 1, 3, 4, 5]})
    d = kpuzzle.to_dict(puzzle)
    assert all(o["numOrientations"] == 1 for o in d["orbits"])
    assert_same_up_to_relabelling(puzzle, kpuzzle.from_dict(d))


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    n = draw(st.integers(2, 9))
    moves = {f"m{i}": draw(st.permutations(range(n))) for i in range(draw(st.integers(1, 3)))}
    colours = draw(st.lists(st.sampled_from("AB"), min_size=n, max_size=n))
    return Puzzle(colours, moves)


@settings(max_examples=40, deadline=None)
@given(puzzles())
def test_any_puzzle_round_trips(puzzle: Puzzle) -> None:
    imported = kpuzzle.from_dict(json.loads(kpuzzle.dumps(puzzle)))
    assert_same_up_to_relabelling(puzzle, imported)


@pytest.mark.parametrize(
    ("change", "pointer", "what"),
    [
        (lambda d: d.pop("orbits"), "/orbits", "missing 'orbits'"),
        (lambda d: d["orbits"][0].pop("numPieces"), "/orbits/0", "numPieces"),
        (lambda d: d["moves"]["a"]["TIPS"].update(permutation=[0, 0, 1]), "/moves/a/TIPS", "appears at entries"),
        (lambda d: d["moves"]["a"]["TIPS"].update(permutation=[0, 1]), "/moves/a/TIPS/permutation", "2 entries"),
        (lambda d: d["moves"]["a"].update(EDGES={}), "/moves/a/EDGES", "unknown orbit"),
        (lambda d: d["defaultPattern"]["TIPS"].update(orientation=[0, 3, 0]), "/defaultPattern/TIPS/orientation/1",
         "not in 0..2"),
        (lambda d: d["defaultPattern"]["TIPS"].update(orientationMod=[0, 2, 0]), "orientationMod/1", "divisor"),
        (lambda d: d["moves"].update({"R++": d["moves"]["a"]}), "", "letters, digits"),
    ],
)
def test_errors_name_the_json_path(change, pointer: str, what: str) -> None:
    d = copy.deepcopy(TRIANGLE)
    change(d)
    with pytest.raises(FileFormatError) as info:
        kpuzzle.from_dict(d, "t.json")
    assert what in str(info.value) and pointer in str(info.value) and "t.json" in str(info.value)


def test_invalid_json_file(tmp_path) -> None:
    path = tmp_path / "bad.kpuzzle.json"
    path.write_text('{"orbits": [}')
    with pytest.raises(FileFormatError, match="line 1"):
        kpuzzle.load(path)


def test_stale_piece_structure_is_ignored() -> None:
    """A puzzle edited after import (a move now splits a piece) exports from the moves, still exactly."""
    imported = kpuzzle.from_dict(TRIANGLE)
    split = np.arange(imported.n_cells)
    split[[0, 3]] = [3, 0]  # swaps one facet of piece 0 with one of piece 1
    edited = Puzzle(imported.colours, {**imported.moves, "c": split}, cell_data=imported.cell_data)
    assert pieces.stored_structure(edited) is None
    assert_same_up_to_relabelling(edited, kpuzzle.from_dict(kpuzzle.to_dict(edited)))


@pytest.mark.parametrize(
    ("change", "pointer", "what"),
    [
        (lambda d: d["moves"]["a"]["TIPS"].update(permutation=[99999999999999999999, 2, 0]),
         "/moves/a/TIPS/permutation/0", "99999999999999999999 is too large"),
        (lambda d: d["moves"]["a"]["TIPS"].update(orientationDelta=[0, -(10**400), 0]),
         "/moves/a/TIPS/orientationDelta/1", "-about 10^400 is too large"),
        (lambda d: d["defaultPattern"]["TIPS"].update(pieces=[0, 1, 2**40]), "/defaultPattern/TIPS/pieces/2",
         "too large"),
        (lambda d: d["orbits"][0].update(numOrientations=1_000_000), "/orbits/0/numOrientations",
         "1000000 orientations is more than the 1000"),
        (lambda d: d["orbits"][0].update(numPieces=10**30), "/orbits/0/numPieces", "is more than the 1,000,000 cells"),
        (lambda d: d["orbits"][0].update(numPieces=999_999), "/orbits", "2999999 cells is more than"),
    ],
)
def test_huge_numbers_and_sizes_are_refused(change, pointer: str, what: str) -> None:
    d = copy.deepcopy(TRIANGLE)
    change(d)
    with pytest.raises(FileFormatError) as info:
        kpuzzle.from_dict(d, "t.json")
    message = str(info.value)
    assert what in message and pointer in message and "\n" not in message


def test_number_over_python_digit_limit(tmp_path) -> None:
    path = tmp_path / "big.kpuzzle.json"
    path.write_text(json.dumps(TRIANGLE).replace('"numPieces": 3', '"numPieces": ' + "9" * 5000))
    with pytest.raises(FileFormatError) as info:
        kpuzzle.load(path)
    message = str(info.value)
    assert "big.kpuzzle.json" in message and "invalid JSON" in message and "digits" in message and "\n" not in message

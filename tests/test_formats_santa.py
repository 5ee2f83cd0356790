"""Santa 2023 CSVs through the format registry: puzzle types, cases as positions, submissions."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from hlavolamy import formats
from hlavolamy.core.fileformat import PuzzleFile, load_puzzle, save_puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import FileFormatError
from hlavolamy.formats import sign

REPO = Path(__file__).resolve().parents[1]
SANTA = REPO.parent / "shared" / "bench" / "santa2023"


@pytest.fixture
def toy(tmp_path: Path) -> tuple[Path, Path]:
    """A two-type puzzle_info.csv and a puzzles.csv with two cases."""
    info = tmp_path / "puzzle_info.csv"
    info.write_text(
        "puzzle_type,allowed_moves\n"
        "\"ring_4\",\"{'r': [1, 2, 3, 0], 's': [1, 0, 2, 3]}\"\n"
        "\"pair_2\",\"{'t': [1, 0]}\"\n"
    )
    cases = tmp_path / "puzzles.csv"
    cases.write_text(
        "id,puzzle_type,solution_state,initial_state,num_wildcards\n"
        "0,ring_4,A;A;B;C,C;A;A;B,0\n"
        "1,pair_2,A;B,B;A,1\n"
    )
    return info, cases


def test_case_becomes_a_position_showing_its_start_colours(toy) -> None:
    info, cases = toy
    loaded = formats.import_file("santa", cases, id="0", info=str(info))
    assert loaded.puzzle.colours == ("A", "A", "B", "C")
    assert loaded.state.colours() == ["C", "A", "A", "B"]
    assert loaded.extra["santa"] == {"id": "0", "puzzle_type": "ring_4", "num_wildcards": 0,
                                     "initial_state": "C;A;A;B"}
    # the start colours are r' away from solved: the stored permutation is that position
    assert loaded.state.apply("r").is_colour_solved()


def test_solution_history_becomes_a_submission_row(toy, tmp_path: Path) -> None:
    info, cases = toy
    out = tmp_path / "submission.csv"
    for case_id, moves in (("1", "t"), ("0", "r s s")):
        loaded = formats.import_file("santa", cases, id=case_id, info=str(info))
        turns = loaded.puzzle.parse(moves)
        solved = PuzzleFile(loaded.puzzle, loaded.state.apply(turns), turns, loaded.extra)
        formats.export_file("santa", solved, out)
    rows = list(csv.reader(out.open()))
    assert rows == [["id", "moves"], ["0", "r.s.s"], ["1", "t"]]


def test_submission_needs_a_case_and_a_history(toy, tmp_path: Path) -> None:
    info, cases = toy
    loaded = formats.import_file("santa", cases, id="0", info=str(info))
    with pytest.raises(FileFormatError, match="no moves"):
        formats.export_file("santa", loaded, tmp_path / "s.csv")
    with pytest.raises(FileFormatError, match="not a Santa case"):
        formats.export_file("santa", loaded.puzzle, tmp_path / "s.csv")
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    history = PuzzleFile(loaded.puzzle, loaded.state, loaded.puzzle.parse("r"), loaded.extra)
    with pytest.raises(FileFormatError, match="is not a id,moves file"):
        formats.export_file("santa", history, tmp_path / "other.csv")


def test_puzzle_type_import_and_export(toy, tmp_path: Path) -> None:
    info, cases = toy
    with pytest.raises(FileFormatError, match="name the puzzle type"):
        formats.import_file("santa-info", info)
    plain = formats.import_file("santa-info", info, type="ring_4")
    assert plain.puzzle.colours == ("0", "1", "2", "3")
    coloured = formats.import_file("santa-info", info, type="ring_4", puzzles=str(cases))
    assert coloured.puzzle.colours == ("A", "A", "B", "C")
    out = tmp_path / "info.csv"
    formats.export_file("santa-info", coloured, out)
    formats.export_file("santa-info", formats.import_file("santa-info", info, type="pair_2"), out)
    back = formats.import_file("santa-info", out, type="ring_4")
    assert all(np.array_equal(back.puzzle.moves[k], coloured.puzzle.moves[k]) for k in ("r", "s"))
    assert "pair_2" in out.read_text()


def test_unknown_case_and_type(toy) -> None:
    info, cases = toy
    with pytest.raises(FileFormatError, match="no case with id '9'"):
        formats.import_file("santa", cases, id="9", info=str(info))
    with pytest.raises(FileFormatError, match="needs its id"):
        formats.import_file("santa", cases)
    with pytest.raises(FileFormatError, match="no puzzle type 'cube'"):
        formats.import_file("santa-info", info, type="cube")


def test_colours_that_cannot_show_are_refused(toy, tmp_path: Path) -> None:
    info, _ = toy
    bad = tmp_path / "bad.csv"
    bad.write_text("id,puzzle_type,solution_state,initial_state,num_wildcards\n5,ring_4,A;A;B;C,A;A;A;B,0\n")
    with pytest.raises(FileFormatError, match="case 5: colour counts differ"):
        formats.import_file("santa", bad, id="5", info=str(info))


@pytest.mark.slow
def test_real_cube_case_solution_in_sign_and_back(tmp_path: Path) -> None:
    """A Santa cube case, a sequence typed in SiGN, the submission row, and the SiGN export."""
    loaded = formats.import_file("santa", SANTA / "puzzles.csv", id="30", info=str(SANTA / "puzzle_info.csv"))
    puzzle = loaded.puzzle
    assert puzzle.name == "cube_3/3/3"
    path = tmp_path / "case.json"
    save_puzzle(path, puzzle, State.solved(puzzle), [], loaded.extra)
    moves = tmp_path / "moves.sign"
    moves.write_text("R U R' U' x M2\n")
    played = formats.import_file("sign", moves, puzzle=str(path))
    assert played.history == sign.parse(puzzle, "R U R' U' x M2")
    formats.export_file("santa", played, tmp_path / "submission.csv")
    row = list(csv.reader((tmp_path / "submission.csv").open()))[1]
    assert row[0] == "30" and row[1].startswith("r0.-d2.-r0.d2")
    formats.export_file("sign", played, tmp_path / "back.sign")
    assert sign.parse(puzzle, (tmp_path / "back.sign").read_text()) == played.history
    assert load_puzzle(path).puzzle.n_cells == 54


INFO_HEADER = "puzzle_type,allowed_moves\n"
CASES_HEADER = "id,puzzle_type,solution_state,initial_state,num_wildcards\n"


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (INFO_HEADER.encode() + b"ring,\"{'r': [1, 0]}\"\n\xff\xfe,x\n", "not UTF-8"),
        (INFO_HEADER + "ring\n", "line 2: expected 2 fields (puzzle_type,allowed_moves), found 1"),
        (INFO_HEADER + "ring,\"{'a': 5}\"\n", "line 2: allowed_moves of 'ring': move 'a' is not a list of integers"),
        (INFO_HEADER + "ring,\"{[1]: [0]}\"\n", "is not a dict literal {'name': [cells...], ...} (unhashable type: 'list')"),
        (INFO_HEADER + "ring,\"{1: [0]}\"\n", "line 2: allowed_moves of 'ring': the move name 1 is not a string"),
        (INFO_HEADER + "ring,\"[1, 0]\"\n", "must be a non-empty dict, not list"),
        (INFO_HEADER + "ring,\"{'a': [99999999999999999999, 0]}\"\n", "move 'a' has cell 99999999999999999999, not in 0..1"),
        (INFO_HEADER + "ring,\"{'a': [" + "9" * 5000 + "]}\"\n", "is not a dict literal"),
        (INFO_HEADER + "ring,\"{'a': [1, 0], 'b': [0]}\"\n", "move 'b' has 1 cells, the first move 2"),
        (INFO_HEADER + "ring,\"" + "[" * 1000 + "\"\n", "is not a dict literal"),
        (INFO_HEADER + "ring,\"{'a': [1, 0]}\"\nring,\"{'a': [1, 0]}\"\n", "line 3: puzzle type 'ring' appears twice"),
        (INFO_HEADER, "no puzzle types"),
    ],
)
def test_bad_puzzle_info_is_one_line_naming_file_and_line(tmp_path: Path, content: str | bytes, what: str) -> None:
    path = tmp_path / "info.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(FileFormatError) as info:
        formats.import_file("santa-info", path)
    message = str(info.value)
    assert what in message and str(path) in message and "\n" not in message


@pytest.mark.parametrize(
    ("row", "what"),
    [
        ("0,ring_4,A;A;B;C\n", "line 2: expected 5 fields"),
        ("0,ring_4,A;A;B;C,C;A;A;B,99999999999999999999\n", "num_wildcards 99999999999999999999 is more than 4"),
        ("0,ring_4,A;A;B;C,C;A;A;B,\u0663\n", "num_wildcards '\u0663' is not a whole number"),
        ("0,ring_4,A;A;B;C,C;A;A;B,-1\n", "is not a whole number"),
        ("0,ring_9,A;A;B;C,C;A;A;B,0\n", "line 2: case '0': unknown puzzle type 'ring_9'"),
        ("0,ring_4,A;A;B,C;A;A,0\n", "line 2: case '0': 3 cells, but 'ring_4' has 4"),
    ],
)
def test_bad_case_is_one_line_naming_file_and_line(toy, tmp_path: Path, row: str, what: str) -> None:
    info, _ = toy
    path = tmp_path / "cases.csv"
    path.write_text(CASES_HEADER + row)
    with pytest.raises(FileFormatError) as caught:
        formats.import_file("santa", path, id="0", info=str(info))
    message = str(caught.value)
    assert what in message and str(path) in message and "\n" not in message


@pytest.mark.parametrize("text", [
    "{'r': [1, 0], 'b': [0, 1]}",  # Santa's own form: read as JSON
    "{'r': [1, 0,], 'b': (0, 1)}",  # Python only (a trailing comma, a tuple)
    "{\"it's\": [1, 0]}",  # a quote inside a name
    "{'a\\'b': [1, 0]}",  # an escaped quote
])
def test_allowed_moves_read_as_python_reads_them(text: str) -> None:
    """The JSON shortcut for Santa's dict literals must read every literal as ``ast.literal_eval`` does."""
    import ast

    from hlavolamy.formats.santa import _literal

    assert _literal(text) == ast.literal_eval(text)

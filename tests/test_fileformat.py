"""Puzzle files: the minimal file, round trips, the compact layout, atomic saves, every load error."""

from __future__ import annotations

import copy
import json
import os
import re
import stat
from pathlib import Path

import numpy as np
import pytest
from helpers import MINIMAL_FILE, bandaged_puzzle, ring_puzzle, write_json

from hlavolamy.core import fileformat
from hlavolamy.core.fileformat import (
    PuzzleFile,
    dumps_puzzle,
    load_puzzle,
    loads_puzzle,
    pointer,
    puzzle_from_dict,
    puzzle_to_dict,
    save_puzzle,
)
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.errors import FileFormatError


def test_the_minimal_file_loads(tmp_path):
    pf = load_puzzle(write_json(tmp_path / "min.json", MINIMAL_FILE))
    assert isinstance(pf, PuzzleFile)
    assert pf.puzzle.n_cells == 4 and list(pf.puzzle.moves) == ["L", "R"]
    assert pf.puzzle.colours == ("A", "A", "B", "B")
    assert pf.puzzle.plugin is None and pf.state is None and pf.history == [] and pf.extra == {}
    assert pf.puzzle.perm_of(pf.puzzle.parse("R L'")).tolist() == [2, 0, 3, 1]


def test_minimal_file_round_trips_to_the_same_dict():
    assert puzzle_to_dict(puzzle_from_dict(copy.deepcopy(MINIMAL_FILE)).puzzle) == MINIMAL_FILE


def full_round_trip(tmp_path, puzzle, state=None, history=(), extra=None):
    path = tmp_path / "p.json"
    save_puzzle(path, puzzle, state, history, extra)
    return path, load_puzzle(path)


def test_everything_survives_a_round_trip(tmp_path):
    p = ring_puzzle()
    history = p.parse("L R' M L2")
    state = State.solved(p).apply(history)
    extra = {"x-author": "Jana", "x-notes": {"tags": ["ring", "demo"]}}
    path, pf = full_round_trip(tmp_path, p, state, history, extra)
    q = pf.puzzle
    assert q.fingerprint == p.fingerprint
    assert (q.name, q.description) == (p.name, p.description)
    assert list(q.moves) == list(p.moves)
    assert q.aliases == p.aliases and q.palette == p.palette
    assert q.plugin == p.plugin and q.cell_data == p.cell_data
    assert np.array_equal(pf.state.perm, state.perm) and pf.state.puzzle is q
    assert pf.history == history
    assert pf.extra == extra
    # Saving what was loaded writes the same bytes.
    text = path.read_text()
    save_puzzle(path, q, pf.state, pf.history, pf.extra)
    assert path.read_text() == text


def test_blockings_and_turned_parts_round_trip(tmp_path):
    p = bandaged_puzzle()
    p2 = Puzzle(p.colours, p.moves, blockings=p.blockings, turned_parts={"L": [0, 1, 2, 3]})
    _, pf = full_round_trip(tmp_path, p2)
    assert pf.puzzle.blockings == p2.blockings
    assert pf.puzzle.turned_parts == p2.turned_parts


def test_move_order_is_preserved(tmp_path):
    moves = {name: [1, 0] for name in ["z", "a", "m", "B"]}
    _, pf = full_round_trip(tmp_path, Puzzle("AB", moves))
    assert list(pf.puzzle.moves) == ["z", "a", "m", "B"]


def test_unicode_names_and_labels(tmp_path):
    p = Puzzle(["červená", "modrá ", "", "\"q\""], {"Ř": [1, 0, 2, 3], "x": [0, 1, 3, 2]}, name="Hlavolam č. 1")
    path, pf = full_round_trip(tmp_path, p)
    assert pf.puzzle.colours == p.colours and pf.puzzle.name == p.name
    assert "červená" in path.read_text(encoding="utf-8")


def test_layout_is_one_line_per_move_and_per_plugin_key():
    text = dumps_puzzle(ring_puzzle())
    lines = text.splitlines()
    for name, m in ring_puzzle().moves.items():
        assert f'    "{name}": {json.dumps(m.tolist())}' in {line.rstrip(",") for line in lines}
    assert '  "colours": ["W", "W", "Y", "Y", "R", "R", "G", "G"],' in lines
    assert lines.index('      "centres": [') + 1 == lines.index("        [0, 0],")
    assert '    {"x": 0.0, "y": 0.5, "label": "0"},' in lines
    assert text.endswith("}\n")
    assert json.loads(text)["format"] == "hlavolamy"


def test_a_big_puzzle_stays_one_line_per_move(tmp_path):
    rng = np.random.default_rng(7)
    n = 6 * 33 * 33
    moves = {f"m{i}": rng.permutation(n) for i in range(99)}
    p = Puzzle([str(i % 6) for i in range(n)], moves)
    path, pf = full_round_trip(tmp_path, p, State(p, rng.permutation(n)))
    assert pf.puzzle.fingerprint == p.fingerprint
    assert len(path.read_text().splitlines()) == 99 + 9  # header, cells, colours, moves braces, position


# -- atomic saves -----------------------------------------------------------------
def test_a_failed_save_leaves_the_original_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "p.json"
    save_puzzle(path, ring_puzzle())
    before = path.read_bytes()

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileformat.os, "fsync", broken_fsync)
    with pytest.raises(FileFormatError, match="p.json: cannot write: No space left"):
        save_puzzle(path, bandaged_puzzle())
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["p.json"]


def test_an_unwritable_extra_fails_before_touching_the_file(tmp_path):
    path = tmp_path / "p.json"
    save_puzzle(path, ring_puzzle())
    before = path.read_bytes()
    with pytest.raises(TypeError):
        save_puzzle(path, ring_puzzle(), extra={"x-bad": {1, 2}})
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["p.json"]


def test_extra_keys_must_not_shadow_format_keys():
    with pytest.raises(ValueError, match="'moves' is a key of the format"):
        puzzle_to_dict(ring_puzzle(), extra={"moves": {}})


def test_saving_through_a_symbolic_link_replaces_its_target(tmp_path):
    target = tmp_path / "real.json"
    save_puzzle(target, ring_puzzle())
    link = tmp_path / "link.json"
    link.symlink_to(target)
    save_puzzle(link, bandaged_puzzle())
    assert link.is_symlink()
    assert load_puzzle(target).puzzle.fingerprint == bandaged_puzzle().fingerprint


def test_save_keeps_permissions_of_an_existing_file(tmp_path):
    path = tmp_path / "p.json"
    save_puzzle(path, ring_puzzle())
    assert stat.S_IMODE(path.stat().st_mode) & 0o044  # not the private mode of a temporary file
    path.chmod(0o640)
    save_puzzle(path, ring_puzzle())
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


# -- load errors -----------------------------------------------------------------
def minimal(**changes):
    data = copy.deepcopy(MINIMAL_FILE)
    for key, value in changes.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "where", "message"),
    [
        ([1, 2], "", "a puzzle file is a JSON object, not a list"),
        (minimal(format=None), "", 'missing key "format"'),
        (minimal(format="cube"), "/format", "expected 'hlavolamy', found 'cube'"),
        (minimal(version=2), "/version", "format version 2, written by a newer Hlavolamy; this one reads version 1"),
        (minimal(version=0), "/version", "unknown format version 0"),
        (minimal(version="1"), "/version", "must be an integer, not the string '1'"),
        (minimal(version=None), "", "missing key 'version'"),
        (minimal(cells=None), "", "missing key 'cells'"),
        (minimal(cells=True), "/cells", "must be an integer, not true"),
        (minimal(cells=4.0), "/cells", "must be an integer, not the number 4.0"),
        (minimal(cells=0), "/cells", "must be at least 1"),
        (minimal(cells=5), "/colours", 'has 4 labels but "cells" is 5'),
        (minimal(colours=None), "", "missing key 'colours'"),
        (minimal(colours="AABB"), "/colours", "must be a list, not the string 'AABB'"),
        (minimal(colours=["A", "A", 2, "B"]), "/colours/2", "a colour label must be a string, not the number 2"),
        (minimal(moves=None), "", "missing key 'moves'"),
        (minimal(moves=[[1, 0, 2, 3]]), "/moves", "must be an object, not a list"),
        (minimal(moves={}), "/moves", "at least one move"),
        (minimal(moves={"R'": [0, 1, 2, 3]}), "/moves/R'", "bad name \"R'\""),
        (minimal(moves={"12": [0, 1, 2, 3]}), "/moves/12", "not only digits"),
        (minimal(moves={"R": "0123"}), "/moves/R", "must be a list of 4 cell indices, not the string"),
        (minimal(moves={"R": [0, 2, 3]}), "/moves/R", "has 3 entries; a permutation of the 4 cells has 4"),
        (minimal(moves={"R": [0, 2, 3, 4]}), "/moves/R/3", "4 is out of range: cells are 0..3"),
        (minimal(moves={"R": [0, 2, -1, 1]}), "/moves/R/2", "-1 is out of range"),
        (minimal(moves={"R": [0, 2, 10**30, 1]}), "", r"line 1, column \d+: the integer 1000.* has 31 digits; at most 18"),
        (minimal(moves={"R": [0, 2, 2, 1]}), "/moves/R/2", "2 appears twice \\(also at entry 1\\): not a permutation"),
        (minimal(moves={"R": [0, 2, 1.0, 1]}), "/moves/R/2", "must be a cell index \\(an integer\\), not the number 1.0"),
        (minimal(moves={"R": [0, 2, None, 1]}), "/moves/R/2", "not null"),
        (minimal(name=3), "/name", "must be a string"),
        (minimal(description=[]), "/description", "must be a string, not a list"),
        (minimal(palette={"A": "red"}), "/palette/A", 'must be a colour "#rrggbb", not \'red\''),
        (minimal(palette=["#ff0000"]), "/palette", "must be an object"),
        (minimal(aliases={"x": "L Q"}), "/aliases/x", "unknown move 'Q'.* at column 3"),
        (minimal(aliases={"L": "R"}), "/aliases/L", "has the name of a move"),
        (minimal(aliases={"x": ["L"]}), "/aliases/x", "an alias is notation text, not a list"),
        (minimal(aliases={"a b": "L"}), "/aliases/a b", "bad name"),
        (minimal(blockings=[0, 1]), "/blockings/0", "must be a list of cell indices, not the number 0"),
        (minimal(blockings=[[0]]), "/blockings/0", "fuses 1 cell\\(s\\)"),
        (minimal(blockings=[[0, 4]]), "/blockings/0/1", "4 is out of range"),
        (minimal(blockings=[[0, "1"]]), "/blockings/0/1", "must be a cell index"),
        (minimal(blockings=[[0, 0]]), "/blockings/0/1", "cell 0 is listed twice"),
        (minimal(blockings=[[0, 1], [2, 1]]), "/blockings/1/1", "cell 1 is already fused in blocking 0"),
        (minimal(turned_parts={"U": [0]}), "/turned_parts/U", "not a move"),
        (minimal(turned_parts={"L": [0]}), "/turned_parts/L", r"leaves out cells the move moves: \[1\]"),
        (minimal(turned_parts={"L": [0, 1, 7]}), "/turned_parts/L/2", "out of range"),
        (minimal(plugin="cubes"), "/plugin", "must be an object"),
        (minimal(plugin={"data": {}}), "/plugin", "missing key 'name'"),
        (minimal(plugin={"name": "cubes", "data": [3]}), "/plugin/data", "must be an object, not a list"),
        (minimal(cell_data=[{}] * 3), "/cell_data", 'has 3 entries but "cells" is 4'),
        (minimal(cell_data=[{}, {}, [], {}]), "/cell_data/2", "must be an object, not a list"),
        (minimal(position=[0, 1, 2]), "/position", "has 3 entries"),
        (minimal(position=[0, 1, 1, 2]), "/position/2", "1 appears twice"),
        (minimal(position={"perm": [0, 1, 2, 3]}), "/position", "must be a list of 4 cell indices, not an object"),
        (minimal(history="L R U"), "/history", "unknown move 'U'.* at column 5"),
        (minimal(history="L (R"), "/history", r"'\(' is never closed at column 3"),
        (minimal(history=["L"]), "/history", "must be a string"),
    ],
)
def test_every_load_error_names_file_pointer_and_problem(tmp_path, data, where, message):
    path = write_json(tmp_path / "bad.json", data)
    with pytest.raises(FileFormatError, match=message) as info:
        load_puzzle(path)
    err = info.value
    assert err.path == str(path) and err.pointer == where
    assert str(err).startswith(f"{path}, {where}: " if where else f"{path}: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "hlavolamy",\n  "version": 1,,}', "invalid JSON at line 2, column 16: Expecting property name"),
        ("", "invalid JSON at line 1, column 1"),
        ('{"a": 1, "a": 2}', "invalid JSON: the key 'a' appears twice"),
        ('{"a": NaN}', "invalid JSON: NaN is not a number JSON allows"),
    ],
)
def test_invalid_json_is_reported_with_its_place(text, message):
    with pytest.raises(FileFormatError, match=message) as info:
        loads_puzzle(text, "pasted.json")
    assert str(info.value).startswith("pasted.json: ")


def test_unreadable_files_are_file_format_errors(tmp_path):
    with pytest.raises(FileFormatError, match="cannot read the file") as info:
        load_puzzle(tmp_path / "missing.json")
    assert "missing.json" in str(info.value)
    (tmp_path / "latin1.json").write_bytes(b'{"name": "\xe8"}')
    with pytest.raises(FileFormatError, match="not UTF-8 text"):
        load_puzzle(tmp_path / "latin1.json")


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(MINIMAL_FILE).encode())
    assert load_puzzle(path).puzzle.n_cells == 4


def test_json_pointer_escapes():
    assert pointer("moves", "R", 3) == "/moves/R/3"
    assert pointer("x", "a/b~c") == "/x/a~1b~0c"


def test_the_examples_in_the_documentation_load():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "file-format.md").read_text(encoding="utf-8")
    examples = re.findall(r"```json\n(.*?)```", doc, re.S)
    assert len(examples) == 2
    for text in examples:
        pf = loads_puzzle(text, "docs/file-format.md")
        assert pf.puzzle.perm_of(pf.history).tolist() == (pf.state.perm.tolist() if pf.state else [0, 1, 2, 3])

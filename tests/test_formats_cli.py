"""The format registry and the ``hlavolamy import`` / ``hlavolamy export`` commands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hlavolamy import formats
from hlavolamy.cli import main
from hlavolamy.core.fileformat import load_puzzle, save_puzzle
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError
from hlavolamy.plugins.manager import PluginHost

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def cube_file(tmp_path: Path) -> Path:
    cube = PluginHost([REPO / "plugins"], entry_points=False).geometry("cubes").build(size=3)
    path = tmp_path / "cube3.json"
    save_puzzle(path, cube)
    return path


def test_registry_lists_formats_and_guesses_by_suffix() -> None:
    assert {"kpuzzle", "ksolve", "gap", "santa", "santa-info", "sign"} <= set(formats.FORMATS)
    assert formats.guess("x/3x3x3.kpuzzle.json").name == "kpuzzle"
    assert formats.guess("cube.TWS").name == "ksolve"
    assert formats.guess("cube.g").name == "gap"
    assert formats.guess("cube.json") is None
    assert all(f.description and f.can_import and f.can_export for f in formats.FORMATS.values())
    with pytest.raises(FileFormatError, match="unknown format 'xml'; known: kpuzzle"):
        formats.get("xml")


def test_registry_refuses_unknown_options(tiny_puzzle: Puzzle, tmp_path: Path) -> None:
    formats.export_file("gap", tiny_puzzle, tmp_path / "t.g")
    with pytest.raises(FileFormatError, match="format 'gap' has no option 'type'"):
        formats.import_file("gap", tmp_path / "t.g", type="x")


@pytest.mark.parametrize(("fmt", "suffix"), [("kpuzzle", ".kpuzzle.json"), ("ksolve", ".tws"), ("gap", ".g")])
def test_export_then_import_through_the_cli(cube_file: Path, tmp_path: Path, capsys, fmt: str, suffix: str) -> None:
    exported = tmp_path / f"cube{suffix}"
    assert main(["export", fmt, str(cube_file), "-o", str(exported)]) == 0
    assert main(["import", fmt, str(exported), "-o", str(tmp_path / "back.json")]) == 0
    out = capsys.readouterr().out
    assert f"wrote {exported}" in out and "54 cells, 6 moves" in out
    original, back = load_puzzle(cube_file).puzzle, load_puzzle(tmp_path / "back.json").puzzle
    assert [back.move_order(m) for m in back.moves] == [original.move_order(m) for m in original.moves]
    word = "R U F' D2 L B' R"
    assert sorted(np.unique(back.perm_of(back.parse(word)) != np.arange(54), return_counts=True)[1].tolist()) == \
        sorted(np.unique(original.perm_of(original.parse(word)) != np.arange(54), return_counts=True)[1].tolist())


def test_sign_through_the_cli(cube_file: Path, tmp_path: Path, capsys) -> None:
    moves = tmp_path / "alg.sign"
    moves.write_text("R U R' U'\n")
    played = tmp_path / "played.json"
    assert main(["import", "sign", str(moves), "--puzzle", str(cube_file), "-o", str(played)]) == 0
    assert "with a position" in capsys.readouterr().out
    loaded = load_puzzle(played)
    assert loaded.state is not None and not loaded.state.is_solved()
    assert main(["export", "sign", str(played), "-o", str(tmp_path / "again.sign")]) == 0
    assert (tmp_path / "again.sign").read_text() == "R U R' U'\n"


def test_cli_errors_are_one_line_and_exit_2(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.g"
    bad.write_text("U := (1,2;\n")
    assert main(["import", "gap", str(bad), "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1, column 10" in err and "bad.g" in err
    assert main(["import", "gap", str(bad), "--id", "3", "-o", str(tmp_path / "x.json")]) == 2
    assert "has no option 'id'" in capsys.readouterr().err
    assert main(["import", "sign", str(bad), "-o", str(tmp_path / "x.json")]) == 2
    assert "--puzzle" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()

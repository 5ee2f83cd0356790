"""Issue 20, item 6: no input can take unbounded memory or time; each ends in one clean error line.

Bounded work is checked by what the code touches (bytes read from a stream
that never ends, a parser or expander that must not be reached), never by
timing. Slow plugins and unusable cache folders are tested in
tests/test_plugins.py and tests/test_diskcache.py.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hlavolamy import cli, formats
from hlavolamy.core import fileformat, notation
from hlavolamy.core.fileformat import read_stream, read_text
from hlavolamy.core.limits import MAX_TURNS
from hlavolamy.errors import FileFormatError, NotationError, cut, quoted

REPO = Path(__file__).resolve().parents[1]
RUBIK2 = str(REPO / "puzzles" / "rubik2.json")
IMPORTS = sorted(name for name, f in formats.FORMATS.items() if f.can_import)
OPTIONS = {"santa": ["--id", "0", "--info", "/dev/zero"], "sign": ["--puzzle", RUBIK2]}
"""What an import needs besides its file (the Santa case's moves, the cube a SiGN sequence is played on)."""


class Endless(io.RawIOBase):
    """A stream that never ends (like ``/dev/zero`` or ``yes``), counting what it was asked for."""

    def __init__(self, byte: bytes = b"x"):
        self.byte = byte
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:
        buffer[:] = self.byte * len(buffer)
        self.given += len(buffer)
        return len(buffer)


def one_error_line(capsys, *argv: str) -> str:
    """Exit 2 and exactly one short ``hlavolamy CMD: error:`` line."""
    assert cli.main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"hlavolamy {argv[0]}: error: "), err[:300]
    assert len(err) < cli.ERROR_LINE_LIMIT + 100
    return err


def stdin_of(monkeypatch, data: bytes | io.RawIOBase) -> None:
    """Standard input as a text stream over ``data``, strict UTF-8 as under ``PYTHONIOENCODING=utf-8:strict``."""
    raw = io.BytesIO(data) if isinstance(data, bytes) else data
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(raw), encoding="utf-8", errors="strict"))


# -- one bounded reader -------------------------------------------------------------------------
def test_an_endless_stream_is_refused_at_the_cap(monkeypatch):
    monkeypatch.setattr(fileformat, "MAX_FILE_BYTES", 3 * 2**20)
    stream = Endless()
    with pytest.raises(FileFormatError, match=r"endless: larger than the 3 MiB a file may have \(docs/limits.md\)"):
        read_stream(stream, "endless")
    assert stream.given <= 4 * 2**20  # the cap and one chunk, not more


def test_a_nul_byte_stops_reading_at_once():
    stream = Endless(b"\0")
    with pytest.raises(FileFormatError, match="binary data, not a text file .a NUL byte at byte 0"):
        read_stream(stream, "zeros")
    assert stream.given <= 2**20


def test_bytes_that_are_not_utf8_are_named_by_offset_even_across_chunks():
    for data, offset in ((b"\xff\xfegarbage", 0), (b"a" * (2**20 - 1) + "é".encode() + b"\xff", 2**20 + 1)):
        with pytest.raises(FileFormatError, match=rf"not UTF-8 text \(byte {offset}\)"):
            read_stream(io.BytesIO(data), "bad")
    with pytest.raises(FileFormatError, match=r"not UTF-8 text \(byte 3\)"):  # cut in the middle of a character
        read_stream(io.BytesIO(b"abc\xc3"), "cut")
    assert read_stream(io.BytesIO("\ufeffčau".encode()), "bom") == "čau"


def test_a_file_over_the_cap_is_refused_before_it_is_held(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fileformat, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 1001)
    assert "larger than the 0.000953674 MiB" in one_error_line(capsys, "apply", str(big), "R")
    with pytest.raises(FileFormatError, match="big.json: larger than"):
        read_text(big)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", [["apply", "/dev/zero", "L"], ["info", "/dev/zero"], ["scramble", "/dev/zero"],
                                     ["apply", RUBIK2, "R", "--from-state", "@/dev/zero"],
                                     *(["import", name, "/dev/zero", "-o", "out.json", *OPTIONS.get(name, [])]
                                       for name in IMPORTS)])
def test_dev_zero_is_one_error_line_for_every_reader(command, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "/dev/zero: binary data, not a text" in one_error_line(capsys, *command)


@pytest.mark.parametrize("name", IMPORTS)
def test_every_import_format_reads_standard_input_through_the_bounded_reader(name, capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(fileformat, "MAX_FILE_BYTES", 2**20)
    endless = Endless()
    stdin_of(monkeypatch, endless)
    options = [o.replace("/dev/zero", "-") for o in OPTIONS.get(name, [])]
    err = one_error_line(capsys, "import", name, "-", "-o", str(tmp_path / "out.json"), *options)
    assert "<stdin>: larger than the 1 MiB a file may have" in err
    assert endless.given <= 3 * 2**20


@pytest.mark.parametrize(("data", "reason"), [(b"\xff\xfe\x00garbage", "a NUL byte at byte 2"),
                                               (b"\xff\xfegarbage", "not UTF-8 text (byte 0)")])
def test_undecodable_standard_input_is_one_error_line(data, reason, capsys, monkeypatch):
    stdin_of(monkeypatch, data)
    assert "<stdin>: " in (err := one_error_line(capsys, "apply", "-", "L")) and reason in err


def test_the_probe_on_standard_input_in_a_real_process():
    """``printf '\\xff\\xfe\\x00garbage' | PYTHONIOENCODING=utf-8:strict hlavolamy apply - L``."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "HLAVOLAMY_CACHE_DIR": "off"}
    result = subprocess.run([sys.executable, "-m", "hlavolamy.cli", "apply", "-", "L"], input=b"\xff\xfe\x00garbage",
                            capture_output=True, cwd=REPO, env=env, timeout=120, check=False)
    assert result.returncode == 2
    assert result.stderr.decode() == "hlavolamy apply: error: <stdin>: binary data, not a text file (a NUL byte at byte 2)\n"


# -- short error lines ---------------------------------------------------------------------------
def test_quoted_input_is_cut_whatever_its_size():
    assert quoted("R") == "'R'" and quoted("x" * 10_000_000) == repr("x" * 42) + "... (10000000 characters)"
    assert quoted(10**5000) == "an integer of 16610 bits" and quoted(list(range(100))).endswith("...")
    assert cut("9" * 5000, 30, "digits") == "999999999999... (5000 digits)" and cut("short") == "short"


def test_an_unknown_ten_million_character_move_is_one_short_line(capsys):
    err = one_error_line(capsys, "apply", RUBIK2, "x" * 10_000_000)
    assert "unknown move 'xxxx" in err and "(10000000 characters)" in err


def test_an_error_line_is_cut_whatever_the_message(capsys, monkeypatch):
    def shout(args):
        raise FileFormatError("y" * 100_000)

    monkeypatch.setattr("hlavolamy.cli.apply.run", shout)
    assert "(100000 characters)" in one_error_line(capsys, "apply", RUBIK2, "R")


# -- expansion counted before it is done ---------------------------------------------------------
def nested(depth: int) -> str:
    text = "R"
    for _ in range(depth):
        text = f"[{text}, U]"
    return text


@pytest.fixture
def no_expanding(monkeypatch):
    """Expanding a long tree fails the test: refusals must come from counting (a puzzle's short aliases may expand)."""
    expand = notation._Flattener.sequence

    def sequence(self, items):
        out = expand(self, items)
        assert len(out) <= 1000, "a long tree was expanded before its length was counted"
        return out

    monkeypatch.setattr(notation._Flattener, "sequence", sequence)


@pytest.mark.parametrize("text", [nested(25), nested(40), "(R U)500000 R", "[(R U)300000, (F B)300000]",
                                  "((R U)1000)1000"])
def test_an_expansion_over_the_limit_is_refused_from_the_tree(text, no_expanding, capsys):
    with pytest.raises(NotationError, match=f"expands to more than {MAX_TURNS} turns"):
        notation.parse(text, ["R", "U", "F", "B"], {})
    assert "expands to more than" in one_error_line(capsys, "apply", RUBIK2, text)


def test_an_alias_counts_its_length(no_expanding):
    aliases = {"S": [notation.Turn("R", 1)] * 1000}
    with pytest.raises(NotationError, match="expands to more than"):
        notation.parse("S1000 R", ["R"], aliases)


def test_the_count_is_exact_at_the_limit():
    assert len(notation.parse("(R U)500000", ["R", "U"], {})) == MAX_TURNS


def test_a_million_and_one_names_are_refused_before_parsing(monkeypatch, capsys):
    def parsed(self):
        raise AssertionError("the text was parsed")

    monkeypatch.setattr(notation._Parser, "parse", parsed)
    for text in ("R " * (MAX_TURNS + 1), "R'" * (MAX_TURNS + 1)):
        with pytest.raises(NotationError, match=f"more than {MAX_TURNS} moves at column {2 * MAX_TURNS + 1}"):
            notation.parse_tree(text, ["R"])
    monkeypatch.undo()  # the command parses the puzzle file's aliases
    assert "more than 1000000 moves" in one_error_line(capsys, "apply", RUBIK2, "R " * (MAX_TURNS + 1))


# -- a sequence that looks like options ----------------------------------------------------------
@pytest.mark.parametrize("sequence", ["----R", "-" * 1000 + "R", "--R U", "---(R U)"])
def test_a_sequence_of_dashes_gets_the_notations_reason(sequence, capsys):
    err = one_error_line(capsys, "apply", RUBIK2, sequence)
    assert "'-' must be followed by a move or a group" in err and "required" not in err


def test_options_and_their_abbreviations_still_work(capsys):
    assert cli.main(["apply", RUBIK2, "--js", "-R"]) == 0
    assert capsys.readouterr().out.startswith('{"sequence": "R\'"')
    assert cli.main(["apply", RUBIK2, "R", "--from-state=[0, 1]"]) == 2
    assert "has 2 entries" in capsys.readouterr().err

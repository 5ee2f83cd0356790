"""SiGN, the common cube notation, on any NxNxN cube puzzle whose moves are layer turns.

Read: face turns ``R U' F2 B2'``; inner layers ``2R`` (the 2nd layer from R);
wide turns ``Rw`` = ``r`` (2 layers), ``3Rw`` = ``3r`` (3 layers); ranges
``2-3Rw`` (= ``2-3r`` = ``2-3R``: layers 2 to 3); slices ``M`` (the layers
between L and R, turned as L), ``E`` (as D), ``S`` (as F); rotations ``x``
(as R), ``y`` (as U), ``z`` (as F); powers ``R2``, ``R3``, ``R2'``; groups
``(R U R' U')3``, commutators ``[R, U]`` and conjugates ``[R: U]``;
comments ``//`` to the end of the line.

Every SiGN layer is mapped to the puzzle's own generator for that layer, so
it works on two naming schemes:

* our cube plugin: ``U D L R F B``, inner layers ``2R``... counted from
  either face, middle layers ``M E S`` when they are generators;
* the Santa 2023 scheme: ``f0..f{N-1}``, ``r0..r{N-1}``, ``d0..d{N-1}``, where
  ``f_i`` turns the layer at depth ``i`` from the front clockwise seen from the
  front (so ``f0 = F``, ``f{N-1} = B'``), and likewise ``r`` from R, ``d`` from D.

A layer the puzzle has no generator for (``M`` on a 3x3x3 without centre
slices, so also ``x``) is an error naming the layer. Printing writes each
generator turn as the SiGN layer nearest its face (``f2`` on a 3x3x3 is
``B'``) and joins runs ``R 2R`` into ``Rw``; reading that text gives back the
very same turns.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hlavolamy.core.fileformat import PuzzleFile, load_puzzle
from hlavolamy.core.limits import MAX_NESTING, MAX_POWER, MAX_TURNS, int_within
from hlavolamy.core.notation import power_suffix
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn, invert
from hlavolamy.errors import FileFormatError, NotationError, quoted
from hlavolamy.formats.limits import shown
from hlavolamy.formats.textsource import at, read_text, write_text

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L", "F": "B", "B": "F"}
SLICES = {"M": "L", "E": "D", "S": "F"}
ROTATIONS = {"x": "R", "y": "U", "z": "F"}
SANTA = {"f": "F", "r": "R", "d": "D"}
FACE_ORDER = "URFDLB"

_PLUGIN_NAME = re.compile(r"(\d*)([UDLRFB])")
_SANTA_NAME = re.compile(r"([frd])(\d+)")


class SignError(NotationError):
    """A mistake at ``column`` of a SiGN text; the text is quoted only when short (it may be a whole file)."""

    def __init__(self, message: str, text: str, column: int):
        self.message = message
        self.full_text = text
        super().__init__(message, text if len(text) <= 80 else "", column)

    def as_file_error(self, path: str | Path) -> FileFormatError:
        """The same mistake as a line and column of the file ``path`` whose text was parsed."""
        offset = self.column - 1 if self.column else 0
        line = self.full_text.count("\n", 0, offset) + 1
        return FileFormatError(self.message, str(path), at(line, offset - self.full_text.rfind("\n", 0, offset)))


@dataclass(frozen=True)
class Layer:
    """Layer ``depth`` (1 = the face itself) counted from ``face``, turned clockwise seen from ``face``."""

    face: str
    depth: int


class CubeLayers:
    """Which generator turn is each layer turn of an NxNxN cube puzzle."""

    def __init__(self, puzzle: Puzzle):
        n = math.isqrt(puzzle.n_cells // 6)
        if n < 2 or 6 * n * n != puzzle.n_cells:
            raise NotationError(f"SiGN needs an NxNxN cube (6*N*N cells); this puzzle has {puzzle.n_cells} cells")
        self.n = n
        self.puzzle = puzzle
        self.turn: dict[Layer, Turn] = {}
        self.layers: dict[str, list[tuple[Layer, int]]] = {}
        for name in puzzle.moves:
            layer = self._layer_of(name)
            if layer is not None:
                self._add(name, layer)
        if not self.turn:
            raise NotationError("no move of this puzzle is a cube layer (U D L R F B, 2R..., M E S, or f0/r0/d0...)")

    def _layer_of(self, name: str) -> Layer | None:
        n = self.n
        if m := _PLUGIN_NAME.fullmatch(name):
            depth = int(m.group(1) or 1)
            return Layer(m.group(2), depth) if 1 <= depth <= n and not (m.group(1) and depth == 1) else None
        if name in SLICES and n % 2:
            return Layer(SLICES[name], (n + 1) // 2)
        if m := _SANTA_NAME.fullmatch(name):
            depth = int(m.group(2)) + 1
            return Layer(SANTA[m.group(1)], depth) if depth <= n else None
        return None

    def _add(self, name: str, layer: Layer) -> None:
        mirror = Layer(OPPOSITE[layer.face], self.n + 1 - layer.depth)
        for side, sign in ((layer, 1), (mirror, -1)):
            self.turn.setdefault(side, Turn(name, sign))
            self.layers.setdefault(name, []).append((side, sign))

    def turns(self, face: str, depths: Sequence[int], power: int, text: str, column: int) -> list[Turn]:
        """Generator turns for turning ``depths`` of ``face`` by ``power`` quarter turns."""
        out = []
        for d in depths:
            if not 1 <= d <= self.n:
                raise SignError(f"layer {d} of {face}: a {self.n}x{self.n}x{self.n} cube has layers 1..{self.n}", text, column)
            t = self.turn.get(Layer(face, d))
            if t is None:
                raise SignError(f"layer {d} of {face} is not a move of this puzzle", text, column)
            out.append(Turn(t.move, t.power * power))
        return out

    def nearest(self, move: str) -> tuple[Layer, int]:
        """The SiGN layer for a generator: the nearer face (ties: the face first in U R F D L B)."""
        options = self.layers.get(move)
        if not options:
            raise NotationError(f"move {quoted(move)} is not a cube layer, so it has no SiGN name")
        return min(options, key=lambda o: (o[0].depth, FACE_ORDER.index(o[0].face)))


# -- reading -------------------------------------------------------------------------
_TOKEN = re.compile(
    r"""(?:(?P<lo>\d+)-(?P<hi>\d+)|(?P<depth>\d+))?
        (?:(?P<face>[UDLRFB])(?P<wide>w)?|(?P<lower>[udlrfb]))
      |(?P<slice>[MES])|(?P<rot>[xyz])""",
    re.VERBOSE,
)
_SUFFIX = re.compile(r"(\d*)('?)(\d*)")


class _Parser:
    def __init__(self, layers: CubeLayers, text: str):
        self.layers = layers
        self.text = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)
        self.original = text
        self.pos = 0
        self.depth = 0
        """Brackets open at ``pos``."""

    def fail(self, message: str, pos: int | None = None) -> NotationError:
        return SignError(message, self.original, (self.pos if pos is None else pos) + 1)

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def sequence(self, closers: str = "") -> list[Turn]:
        out: list[Turn] = []
        while True:
            self.skip_space()
            if self.pos >= len(self.text) or self.text[self.pos] in closers:
                return out
            start = self.pos
            out.extend(self.item())
            if len(out) > MAX_TURNS:
                raise self.fail(f"the sequence expands to more than {MAX_TURNS} turns", start)

    def power(self) -> int:
        """``2``, ``'``, ``2'``, ``'2``: the amount, negative for an inverse."""
        m = _SUFFIX.match(self.text, self.pos)
        amount_text = m.group(1) or m.group(3)
        if m.group(1) and m.group(3):
            raise self.fail("a power is written once: R2' or R'2, not both")
        amount = int_within(amount_text, MAX_POWER) if amount_text else 1
        if amount is None:
            raise self.fail(f"bad power {shown(amount_text)}: a power is a whole number up to {MAX_POWER:,}")
        self.pos = m.end()
        return -amount if m.group(2) else amount

    def layer(self, digits: str, face: str, start: int) -> int:
        """A layer number of ``face``, at most the cube's size."""
        n = self.layers.n
        value = int_within(digits, n)
        if value is None:
            raise self.fail(f"layer {shown(digits)} of {face}: a {n}x{n}x{n} cube has layers 1..{n}", start)
        return value

    def repeated(self, turns: list[Turn], power: int, start: int) -> list[Turn]:
        if len(turns) * abs(power) > MAX_TURNS:
            raise self.fail(f"the sequence expands to more than {MAX_TURNS} turns", start)
        return _repeat(turns, power)

    def item(self) -> list[Turn]:
        start = self.pos
        ch = self.text[self.pos]
        if ch in "([":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise self.fail(f"brackets nested more than {MAX_NESTING} deep", start)
            turns = self.group(start)
            self.depth -= 1
            return turns
        m = _TOKEN.match(self.text, self.pos)
        if m is None or m.end() == start:
            raise self.fail(f"unexpected {quoted(ch)}: not a SiGN move")
        self.pos = m.end()
        power = self.power()
        face, depths = self.layers_of(m, start)
        return self.layers.turns(face, depths, power, self.original, start + 1)

    def group(self, start: int) -> list[Turn]:
        """``(...)``, ``[a, b]`` or ``[a: b]``, with its power."""
        if self.text[start] == "(":
            self.pos += 1
            inner = self.sequence(")")
            self.expect(")", start)
            return self.repeated(inner, self.power(), start)
        self.pos += 1
        a = self.sequence(",:]")
        if self.pos >= len(self.text) or self.text[self.pos] not in ",:":
            raise self.fail("expected ',' (commutator) or ':' (conjugate) inside [ ]")
        kind = self.text[self.pos]
        self.pos += 1
        b = self.sequence("]")
        self.expect("]", start)
        body = a + b + invert(a) + (invert(b) if kind == "," else [])
        return self.repeated(body, self.power(), start)

    def expect(self, closer: str, opened: int) -> None:
        if self.pos >= len(self.text) or self.text[self.pos] != closer:
            raise self.fail(f"{quoted(self.text[opened])} opened here is not closed by {quoted(closer)}", opened)
        self.pos += 1

    def layers_of(self, m: re.Match[str], start: int) -> tuple[str, list[int]]:
        n = self.layers.n
        if m.group("slice"):
            if n < 3:
                raise self.fail(f"{m.group('slice')} needs a cube of size 3 or more", start)
            return SLICES[m.group("slice")], list(range(2, n))
        if m.group("rot"):
            return ROTATIONS[m.group("rot")], list(range(1, n + 1))
        face = m.group("face") or m.group("lower").upper()
        wide = bool(m.group("wide") or m.group("lower"))
        if m.group("lo"):
            lo, hi = (self.layer(m.group(g), face, start) for g in ("lo", "hi"))
            if not 1 <= lo <= hi:
                raise self.fail(f"layer range {lo}-{hi} must run upwards from 1", start)
            return face, list(range(lo, hi + 1))
        depth = self.layer(m.group("depth"), face, start) if m.group("depth") else None
        if wide:
            return face, list(range(1, (depth or 2) + 1))
        if depth == 0:
            raise self.fail("layers are counted from 1", start)
        return face, [depth or 1]


def _repeat(turns: list[Turn], power: int) -> list[Turn]:
    block = turns if power > 0 else invert(turns)
    return block * abs(power)


def parse(puzzle: Puzzle, text: str) -> list[Turn]:
    """SiGN text -> the puzzle's generator turns (errors give the column)."""
    parser = _Parser(CubeLayers(puzzle), text)
    out = parser.sequence()
    if parser.pos < len(parser.text):
        raise parser.fail(f"unexpected {quoted(parser.text[parser.pos])}")
    return out


# -- printing ------------------------------------------------------------------------
def format_turns(puzzle: Puzzle, turns: Sequence[Turn], *, wide: bool = True) -> str:
    """Generator turns -> SiGN; :func:`parse` of the result gives ``turns`` back exactly.

    With ``wide``, a run of turns of layers 1..k of one face with one power,
    in that order, is written ``Rw`` / ``kRw`` (on a 4x4x4, ``L 2L 2R'`` is ``3Lw``).
    """
    layers = CubeLayers(puzzle)
    words: list[str] = []
    i = 0
    while i < len(turns):
        layer, sign = layers.nearest(turns[i].move)
        power = turns[i].power * sign
        run = 1
        while wide and layer.depth == 1 and i + run < len(turns) and (
                _as_layer(layers, turns[i + run], Layer(layer.face, run + 1)) == power):
            run += 1
        if run >= 2:
            words.append((f"{layer.face}w" if run == 2 else f"{run}{layer.face}w") + power_suffix(power))
        else:
            words.append((f"{layer.depth}{layer.face}" if layer.depth > 1 else layer.face) + power_suffix(power))
        i += run
    return " ".join(words)


def _as_layer(layers: CubeLayers, turn: Turn, layer: Layer) -> int | None:
    """The power of ``turn`` written as a turn of ``layer``, or None if it turns another layer."""
    for option, sign in layers.layers.get(turn.move, ()):
        if option == layer:
            return turn.power * sign
    return None


# -- files: a sequence in SiGN for a given cube puzzle --------------------------------
def load_file(path: str | Path, *, puzzle: str = "") -> PuzzleFile:
    """A SiGN text file played on the cube puzzle file ``puzzle``: its position and history."""
    if not puzzle:
        raise FileFormatError("SiGN is a sequence, not a puzzle: name the cube puzzle file it is for (--puzzle)",
                              str(path))
    base = load_puzzle(puzzle)
    text = read_text(path)
    try:
        turns = parse(base.puzzle, text)
    except SignError as exc:
        raise exc.as_file_error(path) from None
    except NotationError as exc:
        raise FileFormatError(str(exc), str(path)) from None
    start = base.state or State.solved(base.puzzle)
    return PuzzleFile(base.puzzle, start.apply(turns), list(base.history) + turns, dict(base.extra))


def dump_file(source: PuzzleFile, path: str | Path) -> None:
    """The puzzle file's move history in SiGN, one line."""
    write_text(path, format_turns(source.puzzle, source.history) + "\n")

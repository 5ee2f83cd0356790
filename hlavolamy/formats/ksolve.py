"""ksolve / twsearch puzzle definitions (``.tws``, ``.def``): Sets of pieces and Move blocks.

Example::

    Name 2x2x2
    Set CORNERS 8 3            # name, pieces, orientations
    Solved                     # piece ids 1..; then (optional) orientations
    CORNERS
    1 2 3 4 5 6 7 8
    0 0 0 0 0 0 0 0
    End
    Move U
    CORNERS
    4 1 2 3 5 6 7 8            # permutation, 1-based: piece from slot p[i] comes to slot i
    0 0 0 0 0 0 0 0            # orientation change, indexed by the piece's old slot
    End

Conventions, as twsearch documents them (its ``arch.md``): permutations
are "passive" -- slot ``i`` receives the piece from slot ``p[i]`` -- which
is our ``new[i] = s[m[i]]``. A ``Move`` block's orientation line is indexed
by the piece (its slot before the move): our per-slot twist is
``twist[i] = o[p[i]]``. twsearch's ``StartState`` and ``MoveTransformation``
blocks are 0-based and give orientations per destination slot; both are read.
An orientation ``?`` in the solved state means "not visible": all of that
piece's cells get one colour. Sets not listed in a block are left unchanged.
Whole-puzzle rotations (``x``, ``Uv``...) are skipped unless asked for, as
twsearch does not use them as moves. Export writes ``Solved`` and ``Move``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hlavolamy.core.limits import MAX_CELLS
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError, HlavolamyError, quoted
from hlavolamy.formats.kpuzzle import is_rotation
from hlavolamy.formats.limits import MAX_ORIENTATIONS, check_digits, check_size
from hlavolamy.formats.pieces import Orbit, OrbitMove, OrbitPattern, PieceModel, check_orbit_move, from_puzzle, to_puzzle
from hlavolamy.formats.textsource import at, error, read_text, write_text

_BLOCKS = {"Solved", "StartState", "Move", "MoveTransformation"}


@dataclass(frozen=True)
class _Tok:
    text: str
    line: int


class _Reader:
    def __init__(self, text: str, path: str | Path | None):
        self.path = path
        self.lines: list[list[_Tok]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            words = raw.split("#", 1)[0].split()
            if words:
                self.lines.append([_Tok(w, number) for w in words])
        self.i = 0

    def fail(self, message: str, line: int) -> FileFormatError:
        return error(message, self.path, line)

    def last_line(self) -> int:
        return self.lines[-1][0].line if self.lines else 1

    def next_line(self) -> list[_Tok] | None:
        if self.i >= len(self.lines):
            return None
        self.i += 1
        return self.lines[self.i - 1]

    def numbers(self, count: int, what: str, start: int, allow_wild: bool = False) -> list[_Tok]:
        """``count`` tokens from the following line(s)."""
        out: list[_Tok] = []
        while len(out) < count:
            line = self.next_line()
            if line is None:
                raise self.fail(f"{what}: expected {count} numbers, the file ended after {len(out)}", self.last_line())
            if not _is_number(line[0].text, allow_wild):
                raise self.fail(f"{what}: expected {count} numbers, found {quoted(line[0].text)} after {len(out)}", line[0].line)
            out.extend(line)
        if len(out) > count:
            raise self.fail(f"{what}: expected {count} numbers, found {len(out)}", out[count].line)
        for tok in out:
            if not _is_number(tok.text, allow_wild):
                raise self.fail(f"{what}: {quoted(tok.text)} is not a number", tok.line)
        return out

    def peek_is_number(self) -> bool:
        return self.i < len(self.lines) and _is_number(self.lines[self.i][0].text, True)


def _is_number(text: str, allow_wild: bool) -> bool:
    return (text.isascii() and text.isdigit()) or (allow_wild and text == "?")


def _ints(toks: list[_Tok], base: int, path: str | Path | None) -> list[int]:
    """The numbers, each at most :data:`MAX_CELLS` (a piece, slot or orientation; more is a mistake)."""
    return [_int(t, "the number", path) - base for t in toks]


def _int(tok: _Tok, what: str, path: str | Path | None, limit: int = MAX_CELLS) -> int:
    return check_digits(tok.text, limit, what, str(path) if path else None, at(tok.line))


@dataclass
class _Block:
    kind: str
    name: str
    line: int
    orbits: dict[str, tuple[list[_Tok], list[_Tok] | None, int]]


def _read_block(r: _Reader, kind: str, name: str, line: int, sets: dict[str, Orbit]) -> _Block:
    block = _Block(kind, name, line, {})
    while True:
        words = r.next_line()
        if words is None:
            raise r.fail(f"{kind} {name}".strip() + " has no End", line)
        head = words[0]
        if head.text == "End":
            return block
        if len(words) != 1 or head.text not in sets:
            raise r.fail(f"expected a set name ({', '.join(sets)}) or End, found {quoted(' '.join(w.text for w in words))}", head.line)
        if head.text in block.orbits:
            raise r.fail(f"set {quoted(head.text)} appears twice in this block", head.line)
        orbit = sets[head.text]
        perm = r.numbers(orbit.pieces, f"set {orbit.name}", head.line)
        ori = r.numbers(orbit.pieces, f"set {orbit.name} orientation", head.line, allow_wild=True) if r.peek_is_number() else None
        block.orbits[orbit.name] = (perm, ori, head.line)


def _parse(text: str, path: str | Path | None) -> tuple[str, list[Orbit], list[_Block]]:
    r = _Reader(text, path)
    name = Path(path).stem if path else ""
    sets: dict[str, Orbit] = {}
    blocks: list[_Block] = []
    while (words := r.next_line()) is not None:
        cmd = words[0]
        if cmd.text == "Name":
            if len(words) < 2:
                raise r.fail("Name needs a name", cmd.line)
            name = " ".join(w.text for w in words[1:])
        elif cmd.text == "Set":
            if len(words) != 4 or not _is_number(words[2].text, False) or not _is_number(words[3].text, False):
                raise r.fail("expected 'Set NAME PIECES ORIENTATIONS'", cmd.line)
            if blocks:
                raise r.fail("Set after Solved or Move; define every set first", cmd.line)
            if words[1].text in sets:
                raise r.fail(f"set {quoted(words[1].text)} is defined twice", cmd.line)
            n = _int(words[2], f"set {quoted(words[1].text)}: the number of pieces", path)
            k = _int(words[3], f"set {quoted(words[1].text)}: the number of orientations", path, MAX_ORIENTATIONS)
            if n < 1 or k < 1:
                raise r.fail("a set needs at least one piece and one orientation", cmd.line)
            sets[words[1].text] = Orbit(words[1].text, n, k)
            check_size(sum(o.cells for o in sets.values()), 0, str(path) if path else None, at(cmd.line))
        elif cmd.text in _BLOCKS:
            needs_name = cmd.text.startswith("Move")
            if len(words) != (2 if needs_name else 1):
                raise r.fail(f"expected '{cmd.text}{' NAME' if needs_name else ''}' alone on its line", cmd.line)
            if not sets:
                raise r.fail(f"{cmd.text} before any Set", cmd.line)
            blocks.append(_read_block(r, cmd.text, words[1].text if needs_name else "", cmd.line, sets))
        else:
            raise r.fail(f"unsupported command {quoted(cmd.text)} (read: Name, Set, Solved, StartState, Move, "
                         "MoveTransformation)", cmd.line)
    if not sets:
        raise FileFormatError("no Set defined", str(path) if path else None)
    check_size(sum(o.cells for o in sets.values()), sum(b.kind.startswith("Move") for b in blocks),
               str(path) if path else None)
    return name, list(sets.values()), blocks


def _pattern(orbit: Orbit, data: tuple[list[_Tok], list[_Tok] | None, int], base: int,
             path: str | Path | None) -> OrbitPattern:
    ids_tok, ori_tok, line = data
    ids = _ints(ids_tok, base, path)
    distinct = sorted(set(ids))
    if distinct != list(range(len(distinct))):
        raise error(f"set {orbit.name}: piece ids must be {base}..{base + len(distinct) - 1} without gaps", path, line)
    k = orbit.orientations
    orientation, mods = [], []
    for tok in ori_tok or []:
        wild = tok.text == "?"
        value = 0 if wild else _int(tok, f"set {orbit.name}: orientation", path)
        if value >= k:
            raise error(f"set {orbit.name}: orientation {value} is not in 0..{k - 1}", path, tok.line)
        orientation.append(value)
        mods.append(1 if wild else k)
    if ori_tok is None:
        orientation, mods = [0] * orbit.pieces, [k] * orbit.pieces
    return OrbitPattern(tuple(ids), tuple(orientation), tuple(mods))


def _move(orbit: Orbit, block: _Block, path: str | Path | None) -> OrbitMove:
    perm_tok, ori_tok, line = block.orbits[orbit.name]
    zero_based = block.kind == "MoveTransformation"
    perm = _ints(perm_tok, 0 if zero_based else 1, path)
    if ori_tok is not None and any(t.text == "?" for t in ori_tok):
        bad = next(t for t in ori_tok if t.text == "?")
        raise error("'?' is allowed in a solved state only, not in a move", path, bad.line)
    ori = _ints(ori_tok, 0, path) if ori_tok is not None else [0] * orbit.pieces
    try:
        checked = check_orbit_move(orbit, block.name, perm, ori)
    except HlavolamyError as exc:
        raise error(str(exc), path, line) from None
    if not zero_based:  # ksolve: orientation indexed by the piece's old slot
        checked = OrbitMove(checked.perm, checked.twist[checked.perm])
    return checked


def parse(text: str, path: str | Path | None = None, *, rotations: bool = False) -> Puzzle:
    """A puzzle from ksolve/twsearch definition text."""
    name, orbits, blocks = _parse(text, path)
    solved: dict[str, OrbitPattern] | None = None
    moves: dict[str, dict[str, OrbitMove]] = {}
    for block in blocks:
        if block.kind in ("Solved", "StartState"):
            if solved is not None:
                raise error("a second solved state", path, block.line)
            base = 1 if block.kind == "Solved" else 0
            solved = {o.name: _pattern(o, block.orbits[o.name], base, path) for o in orbits if o.name in block.orbits}
        else:
            if block.name in moves:
                raise error(f"move {quoted(block.name)} is defined twice", path, block.line)
            if is_rotation(block.name) and not rotations:
                continue
            moves[block.name] = {o.name: _move(o, block, path) for o in orbits if o.name in block.orbits}
    if not moves:
        raise FileFormatError("no Move blocks (other than whole-puzzle rotations)", str(path) if path else None)
    try:
        return to_puzzle(PieceModel(name, orbits, moves, solved or {}))
    except HlavolamyError as exc:
        raise FileFormatError(str(exc), str(path) if path else None) from None


def load(path: str | Path, *, rotations: bool = False) -> Puzzle:
    return parse(read_text(path), path, rotations=rotations)


def _row(values: Iterator[int] | np.ndarray | list) -> str:
    return " ".join(str(v) for v in values)


def dumps(puzzle: Puzzle) -> str:
    """ksolve text: Name, Sets, the Solved block and one Move block per move."""
    model = from_puzzle(puzzle)
    out = [f"# {puzzle.name or 'puzzle'}: exported by Hlavolamy ({puzzle.n_cells} cells)",
           "Name " + (re.sub(r"\s+", "_", model.name) or "puzzle"), ""]
    out += [f"Set {o.name} {o.pieces} {o.orientations}" for o in model.orbits]
    out += ["", "Solved"]
    for orbit in model.orbits:
        p = model.pattern(orbit)
        ori = ["?" if mod == 1 and orbit.orientations > 1 else str(r) for r, mod in zip(p.orientation, p.orientation_mod)]
        out += [orbit.name, _row(i + 1 for i in p.pieces), " ".join(ori)]
    out.append("End")
    for name in model.moves:
        out += ["", f"Move {name}"]
        for orbit in model.orbits:
            m = model.orbit_move(name, orbit)
            if np.array_equal(m.perm, np.arange(orbit.pieces)) and not m.twist.any():
                continue
            by_piece = np.empty_like(m.twist)
            by_piece[m.perm] = m.twist
            out += [orbit.name, _row(m.perm + 1), _row(by_piece)]
        out.append("End")
    return "\n".join(out) + "\n"


def dump(puzzle: Puzzle, path: str | Path) -> None:
    write_text(path, dumps(puzzle))

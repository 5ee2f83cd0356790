"""cubing.js KPuzzle definitions (JSON): orbits of pieces with orientation.

Current schema (written on export)::

    {"name": "3x3x3",
     "orbits": [{"orbitName": "EDGES", "numPieces": 12, "numOrientations": 2}, ...],
     "defaultPattern": {"EDGES": {"pieces": [...], "orientation": [...], "orientationMod": [...]}},
     "moves": {"U": {"EDGES": {"permutation": [...], "orientationDelta": [...]}, ...}},
     "derivedMoves": {"Rw": "R M'"}}

Older variants are read too: ``orbits`` as an object ``{name: {numPieces,
numOrientations}}``, the pattern under ``startStateData`` or ``startPieces``
(with ``permutation`` for ``pieces``), and ``orientation`` or
``orientation_delta`` for ``orientationDelta``.

cubing.js applies a move exactly as we do: ``new.pieces[i] =
old.pieces[perm[i]]`` and ``new.orientation[i] = old.orientation[perm[i]] +
orientationDelta[i]``. See :mod:`hlavolamy.formats.pieces` for how pieces
become cells and back. Whole-puzzle rotations (``x``, ``y``, ``z``, ``Uv``...)
are left out unless asked for: they are not moves of the puzzle. Derived
moves become aliases when our notation reads them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hlavolamy.core.fileformat import parse_json, pointer
from hlavolamy.core.limits import MAX_CELLS
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import FileFormatError, HlavolamyError, quoted
from hlavolamy.formats.limits import MAX_ORIENTATIONS, check_size, shown
from hlavolamy.formats.pieces import Orbit, OrbitPattern, PieceModel, check_orbit_move, from_puzzle, to_puzzle
from hlavolamy.formats.textsource import read_text, write_text

_ROTATION = re.compile(r"[A-Z_]+v|[xyz]")
"""Whole-puzzle rotations, named as twsearch and cubing.js name them."""


_LARGEST = 2**31 - 1
"""Largest piece id, permutation entry or orientation read (they are array entries)."""

_NAME = re.compile(r"\w+", re.ASCII)
"""A name our puzzles accept for a move or alias (letters, digits, '_'; not digits only)."""


def is_rotation(name: str) -> bool:
    return bool(_ROTATION.fullmatch(name))


class _Reader:
    def __init__(self, data: Any, source: str | None):
        self.data = data
        self.source = source

    def fail(self, message: str, *where: str | int) -> FileFormatError:
        return FileFormatError(message, self.source, pointer(*where))

    def get(self, container: Any, key: str, kind: type, *where: str | int) -> Any:
        if not isinstance(container, dict) or key not in container:
            raise self.fail(f"missing {quoted(key)}", *where)
        value = container[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise self.fail(f"must be {'an object' if kind is dict else 'a list' if kind is list else kind.__name__}",
                            *where, key)
        return value

    def ints(self, values: Any, n: int, *where: str | int) -> list[int]:
        """A list of ``n`` integers, each small enough for an array (anything larger is a mistake)."""
        if not isinstance(values, list) or any(not isinstance(v, int) or isinstance(v, bool) for v in values):
            raise self.fail("must be a list of integers", *where)
        if len(values) != n:
            raise self.fail(f"has {len(values)} entries, expected {n}", *where)
        big = next((k for k, v in enumerate(values) if abs(v) > _LARGEST), None)
        if big is not None:
            raise self.fail(f"{shown(values[big])} is too large", *where, big)
        return values

    def orbits(self) -> list[Orbit]:
        raw = self.data.get("orbits") if isinstance(self.data, dict) else None
        if isinstance(raw, dict):
            items = [(name, spec, ("orbits", name)) for name, spec in raw.items()]
        elif isinstance(raw, list):
            items = [(self.get(spec, "orbitName", str, "orbits", k), spec, ("orbits", k)) for k, spec in enumerate(raw)]
        else:
            raise self.fail("missing 'orbits' (a list of {orbitName, numPieces, numOrientations})", "orbits")
        out = []
        for name, spec, where in items:
            n = self.get(spec, "numPieces", int, *where)
            k = self.get(spec, "numOrientations", int, *where)
            if n < 1 or k < 1:
                raise self.fail("numPieces and numOrientations must be at least 1", *where)
            if k > MAX_ORIENTATIONS:
                raise self.fail(f"{shown(k)} orientations is more than the {MAX_ORIENTATIONS} a piece may have",
                                *where, "numOrientations")
            if n > MAX_CELLS:
                raise self.fail(f"{shown(n)} pieces is more than the {MAX_CELLS:,} cells a puzzle may have",
                                *where, "numPieces")
            out.append(Orbit(name, n, k))
        if not out:
            raise self.fail("no orbits", "orbits")
        moves = self.data.get("moves")
        check_size(sum(o.cells for o in out), len(moves) if isinstance(moves, dict) else 0, self.source, "/orbits")
        if len({o.name for o in out}) != len(out):
            raise self.fail("two orbits have the same name", "orbits")
        return out

    def pattern(self, orbits: list[Orbit]) -> dict[str, OrbitPattern]:
        key = next((k for k in ("defaultPattern", "startStateData", "startPieces") if k in self.data), None)
        if key is None:
            return {}
        raw = self.get(self.data, key, dict)
        out = {}
        for orbit in orbits:
            if orbit.name not in raw:
                continue
            spec = raw[orbit.name]
            where = (key, orbit.name)
            piece_key = "pieces" if isinstance(spec, dict) and "pieces" in spec else "permutation"
            pieces = self.ints(self.get(spec, piece_key, list, *where), orbit.pieces, *where, piece_key)
            if any(p < 0 for p in pieces):
                raise self.fail("piece ids must not be negative", *where, piece_key)
            k = orbit.orientations
            ori = self.ints(spec.get("orientation", [0] * orbit.pieces), orbit.pieces, *where, "orientation")
            mods = self.ints(spec.get("orientationMod", [0] * orbit.pieces), orbit.pieces, *where, "orientationMod")
            for i, m in enumerate(mods):
                if m < 0 or (m and k % m):
                    raise self.fail(f"{m} is not 0 or a divisor of {k}", *where, "orientationMod", i)
            mods = [m or k for m in mods]
            for i, (r, m) in enumerate(zip(ori, mods)):
                if not 0 <= r < m:
                    raise self.fail(f"orientation {r} is not in 0..{m - 1}", *where, "orientation", i)
            out[orbit.name] = OrbitPattern(tuple(pieces), tuple(ori), tuple(mods))
        return out

    def moves(self, orbits: list[Orbit], rotations: bool) -> dict:
        raw = self.get(self.data, "moves", dict)
        by_name = {o.name: o for o in orbits}
        out = {}
        for name, spec in raw.items():
            if is_rotation(name) and not rotations:
                continue
            if not isinstance(spec, dict):
                raise self.fail("must be an object {orbitName: {permutation, orientationDelta}}", "moves", name)
            per_orbit = {}
            for orbit_name, data in spec.items():
                where = ("moves", name, orbit_name)
                if orbit_name not in by_name:
                    raise self.fail(f"unknown orbit {quoted(orbit_name)}", *where)
                orbit = by_name[orbit_name]
                perm = self.ints(self.get(data, "permutation", list, *where), orbit.pieces, *where, "permutation")
                key = next((k for k in ("orientationDelta", "orientation", "orientation_delta") if k in data), None)
                twist = self.ints(data[key], orbit.pieces, *where, key) if key else [0] * orbit.pieces
                twist = [t % orbit.orientations for t in twist]
                try:
                    per_orbit[orbit_name] = check_orbit_move(orbit, name, perm, twist)
                except HlavolamyError as exc:
                    raise self.fail(str(exc), *where) from None
            out[name] = per_orbit
        if not out:
            raise self.fail("no moves (other than whole-puzzle rotations)", "moves")
        return out

    def derived(self) -> dict[str, str]:
        for key in ("derivedMoves", "experimentalDerivedMoves"):
            raw = self.data.get(key)
            if isinstance(raw, dict):
                return {k: v for k, v in raw.items() if isinstance(v, str)}
        return {}


def from_dict(data: Any, source: str | None = None, *, rotations: bool = False) -> Puzzle:
    """A puzzle from a decoded KPuzzle definition (any supported variant)."""
    if not isinstance(data, dict):
        raise FileFormatError("a KPuzzle definition is a JSON object", source)
    reader = _Reader(data, source)
    orbits = reader.orbits()
    moves = reader.moves(orbits, rotations)
    name = data.get("name") if isinstance(data.get("name"), str) else (Path(source).stem if source else "")
    model = PieceModel(name, orbits, moves, reader.pattern(orbits))
    try:
        puzzle = to_puzzle(model)
    except HlavolamyError as exc:
        raise FileFormatError(str(exc), source) from None
    return _with_aliases(puzzle, reader.derived())


def _with_aliases(puzzle: Puzzle, derived: Mapping[str, str]) -> Puzzle:
    """Keep the derived moves our notation reads as aliases; name the rest in the description."""
    aliases, skipped = {}, []
    for alias, text in derived.items():
        usable = _NAME.fullmatch(alias) and not alias.isdigit() and alias not in puzzle.moves
        try:
            if usable:
                puzzle.parse(text)
                aliases[alias] = text
                continue
        except HlavolamyError:
            pass
        skipped.append(alias)
    if not aliases and not skipped:
        return puzzle
    return Puzzle(puzzle.colours, puzzle.moves, name=puzzle.name, aliases=aliases, cell_data=puzzle.cell_data,
                  description=("derived moves not imported: " + ", ".join(skipped)) if skipped else "")


def load(path: str | Path, *, rotations: bool = False) -> Puzzle:
    try:
        data = parse_json(read_text(path), str(path))
    except FileFormatError:
        raise
    except ValueError:  # json turning a number of over 4300 digits into an int
        raise FileFormatError("invalid JSON: a number has more than 4300 digits", str(path)) from None
    return from_dict(data, str(path), rotations=rotations)


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """The KPuzzle definition of a puzzle (current schema); orbits from the stored or found pieces."""
    model = from_puzzle(puzzle)
    pattern: dict[str, Any] = {}
    for orbit in model.orbits:
        p = model.pattern(orbit)
        entry: dict[str, Any] = {"pieces": list(p.pieces), "orientation": list(p.orientation)}
        mods = [0 if m == orbit.orientations else m for m in p.orientation_mod]
        if any(mods):
            entry["orientationMod"] = mods
        pattern[orbit.name] = entry
    out: dict[str, Any] = {
        "name": model.name,
        "orbits": [{"orbitName": o.name, "numPieces": o.pieces, "numOrientations": o.orientations} for o in model.orbits],
        "defaultPattern": pattern,
        "moves": {
            name: {o: {"permutation": m.perm.tolist(), "orientationDelta": m.twist.tolist()} for o, m in per_orbit.items()}
            for name, per_orbit in model.moves.items()
        },
    }
    if model.aliases:
        out["derivedMoves"] = dict(model.aliases)
    return out


def dumps(puzzle: Puzzle) -> str:
    return _json(to_dict(puzzle), "") + "\n"


def _json(value: Any, indent: str) -> str:
    """Indented JSON with every list of numbers on one line."""
    inner = indent + "  "
    if isinstance(value, dict) and value:
        rows = [f"{inner}{json.dumps(k)}: {_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(rows) + "\n" + indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + _json(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def dump(puzzle: Puzzle, path: str | Path) -> None:
    write_text(path, dumps(puzzle))

"""Puzzles as orbits of pieces with orientation: the model behind KPuzzle and ksolve.

Both cubing.js KPuzzle JSON and ksolve/twsearch text describe a puzzle as
*orbits* (ksolve: *sets*) of ``n`` pieces that each have ``k`` orientations;
a move gives per orbit a permutation and an orientation change per slot. Our
puzzles are plain permutations of cells, so a piece with ``k`` orientations
becomes ``k`` cells: cell ``(slot, facet)`` for ``facet`` in ``0..k-1``.

Conventions (the same as cubing.js and twsearch's internal form):

* ``perm[i] = j``: the piece in slot ``j`` moves to slot ``i`` -- exactly our
  ``new[i] = s[m[i]]``.
* ``twist[i]`` (cubing.js ``orientationDelta``) is added to the orientation of
  the piece arriving in slot ``i``: ``new_ori[i] = old_ori[perm[i]] + twist[i]``.
* A piece in orientation ``r`` shows its facet ``f`` at cell ``(slot, f + r)``,
  so a move is the cell permutation
  ``m[(i, o)] = (perm[i], (o - twist[i]) mod k)``; composing moves composes the
  cell permutations (a group homomorphism), so nothing is lost.

The piece structure is kept in :attr:`Puzzle.cell_data` under the key
:data:`PIECE_KEY` as ``[orbit, slot, facet]``, so an export restores the
orbits exactly. Without it, :func:`structure_of` finds pieces from the moves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import PuzzleError, quoted

PIECE_KEY = "piece"
"""``cell_data[cell][PIECE_KEY] == [orbit name, slot, facet]``."""


@dataclass(frozen=True)
class Orbit:
    """``pieces`` slots whose pieces have ``orientations`` orientations each."""

    name: str
    pieces: int
    orientations: int

    @property
    def cells(self) -> int:
        return self.pieces * self.orientations


@dataclass(frozen=True)
class OrbitMove:
    """A move on one orbit: ``perm[i]`` is the slot whose piece comes to ``i``, ``twist[i]`` its turn."""

    perm: np.ndarray
    twist: np.ndarray


@dataclass(frozen=True)
class OrbitPattern:
    """The solved look of an orbit: a piece id per slot, its orientation, and what orientation shows.

    ``orientation_mod[i]`` is how many orientations of the piece in slot ``i``
    look different (1: any turn is invisible; ``k``: all are visible).
    """

    pieces: tuple[int, ...]
    orientation: tuple[int, ...]
    orientation_mod: tuple[int, ...]


@dataclass
class PieceModel:
    """A puzzle as orbits of pieces; see the module docstring for the conventions."""

    name: str
    orbits: list[Orbit]
    moves: dict[str, dict[str, OrbitMove]]
    solved: dict[str, OrbitPattern] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    def orbit_move(self, move: str, orbit: Orbit) -> OrbitMove:
        """The move on ``orbit``; an orbit a move does not mention stays put."""
        found = self.moves[move].get(orbit.name)
        if found is not None:
            return found
        return OrbitMove(np.arange(orbit.pieces), np.zeros(orbit.pieces, dtype=np.int64))

    def pattern(self, orbit: Orbit) -> OrbitPattern:
        found = self.solved.get(orbit.name)
        if found is not None:
            return found
        k = orbit.orientations
        return OrbitPattern(tuple(range(orbit.pieces)), (0,) * orbit.pieces, (k,) * orbit.pieces)


def check_orbit_move(orbit: Orbit, move: str, perm: Sequence[int], twist: Sequence[int]) -> OrbitMove:
    """Validate one orbit of one move (0-based) and return it as arrays."""
    what = f"move {quoted(move)}, orbit {quoted(orbit.name)}"
    p = P.as_perm(perm, f"{what}: permutation", orbit.pieces).astype(np.int64)
    t = np.asarray(twist, dtype=np.int64)
    if t.shape != (orbit.pieces,):
        raise PuzzleError(f"{what}: orientation has {t.size} entries, expected {orbit.pieces}")
    if np.any(t < 0) or np.any(t >= orbit.orientations):
        bad = int(np.flatnonzero((t < 0) | (t >= orbit.orientations))[0])
        raise PuzzleError(f"{what}: orientation entry {bad} is {int(t[bad])}, not in 0..{orbit.orientations - 1}")
    return OrbitMove(p, t)


# -- pieces -> cells --------------------------------------------------------------
def _bases(orbits: Sequence[Orbit]) -> list[int]:
    starts = np.cumsum([0] + [o.cells for o in orbits]).tolist()
    return starts[:-1]


def cell_move(orbit: Orbit, move: OrbitMove) -> np.ndarray:
    """The orbit's local cell permutation: ``m[(i, o)] = (perm[i], (o - twist[i]) mod k)``."""
    k = orbit.orientations
    slot = np.repeat(np.arange(orbit.pieces), k)
    facet = np.tile(np.arange(k), orbit.pieces)
    return move.perm[slot] * k + (facet - move.twist[slot]) % k


def _colours(orbit: Orbit, pattern: OrbitPattern) -> list[str]:
    """A colour label per cell: orbit, piece id and the facet shown (modulo what is visible)."""
    k = orbit.orientations
    out = []
    for slot in range(orbit.pieces):
        piece, r, mod = pattern.pieces[slot], pattern.orientation[slot], pattern.orientation_mod[slot]
        for o in range(k):
            facet = (o - r) % k % mod
            out.append(f"{orbit.name}:{piece}" + (f".{facet}" if mod > 1 else ""))
    return out


def to_puzzle(model: PieceModel) -> Puzzle:
    """Expand pieces x orientations into cells; the piece structure goes into ``cell_data``."""
    if not model.orbits:
        raise PuzzleError("the puzzle defines no orbits")
    bases = _bases(model.orbits)
    n = sum(o.cells for o in model.orbits)
    moves: dict[str, np.ndarray] = {}
    for name in model.moves:
        m = np.arange(n, dtype=np.int64)
        for orbit, base in zip(model.orbits, bases):
            m[base:base + orbit.cells] = base + cell_move(orbit, model.orbit_move(name, orbit))
        moves[name] = m
    colours: list[str] = []
    for orbit in model.orbits:
        colours += _colours(orbit, model.pattern(orbit))
    return Puzzle(colours, moves, name=model.name, aliases=model.aliases, cell_data=_cell_data(model.orbits))


def _cell_data(orbits: Sequence[Orbit]) -> list[dict]:
    """Each cell's ``[orbit, slot, facet]`` (no drawing hints: the generic view groups cells by piece itself)."""
    return [{PIECE_KEY: [orbit.name, *divmod(c, orbit.orientations)]} for orbit in orbits for c in range(orbit.cells)]


# -- cells -> pieces --------------------------------------------------------------
@dataclass(frozen=True)
class Structure:
    """Where every cell sits: ``orbit``, ``slot`` and ``facet`` arrays (``orbit`` indexes ``orbits``)."""

    orbits: list[Orbit]
    orbit: np.ndarray
    slot: np.ndarray
    facet: np.ndarray


def stored_structure(puzzle: Puzzle) -> Structure | None:
    """The piece structure an import left in ``cell_data``, if every cell has one and it is consistent."""
    data = puzzle.cell_data
    if data is None or any(PIECE_KEY not in d for d in data):
        return None
    entries = [d[PIECE_KEY] for d in data]
    if any(not isinstance(e, (list, tuple)) or len(e) != 3 for e in entries):
        return None
    index_of = {name: i for i, name in enumerate(dict.fromkeys(str(e[0]) for e in entries))}
    names = list(index_of)
    orbit = np.array([index_of[str(e[0])] for e in entries], dtype=np.int64)
    try:
        slot = np.array([int(e[1]) for e in entries], dtype=np.int64)
        facet = np.array([int(e[2]) for e in entries], dtype=np.int64)
    except (TypeError, ValueError):
        return None
    orbits = []
    for index, name in enumerate(names):
        mine = orbit == index
        n, k = int(slot[mine].max()) + 1, int(facet[mine].max()) + 1
        keys = slot[mine] * k + facet[mine]
        if mine.sum() != n * k or np.unique(keys).size != n * k or slot[mine].min() < 0 or facet[mine].min() < 0:
            return None
        orbits.append(Orbit(name, n, k))
    structure = Structure(orbits, orbit, slot, facet)
    return structure if _moves_respect(puzzle, structure) else None


def _moves_respect(puzzle: Puzzle, s: Structure) -> bool:
    """Every move maps each piece onto one piece with a constant facet shift."""
    for m in puzzle.moves.values():
        src = m.astype(np.int64)
        if np.any(s.orbit[src] != s.orbit):
            return False
        k = np.array([o.orientations for o in s.orbits])[s.orbit]
        shift = (s.facet - s.facet[src]) % k
        key = s.orbit * (puzzle.n_cells + 1) + s.slot
        for values in (s.slot[src], shift):
            order = np.lexsort((values, key))
            same_piece = key[order][1:] == key[order][:-1]
            if np.any(same_piece & (values[order][1:] != values[order][:-1])):
                return False
    return True


def _cells_by_slot(s: Structure) -> list[np.ndarray]:
    """Per orbit, the ``(pieces, orientations)`` array of cells at each slot and facet."""
    out = []
    for oi, orbit in enumerate(s.orbits):
        table = np.empty((orbit.pieces, orbit.orientations), dtype=np.int64)
        mine = np.flatnonzero(s.orbit == oi)
        table[s.slot[mine], s.facet[mine]] = mine
        out.append(table)
    return out


def _natural(label: str) -> tuple:
    """Sort key comparing digit runs as numbers (``p.2`` before ``p.10``)."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", label))


def _look(labels: Sequence[str]) -> tuple[tuple[str, ...], int, int]:
    """``(canonical rotation, r, period)`` of a piece's colour sequence.

    The canonical rotation is the least by natural label order; the sequence
    is it rotated right by ``r`` (``seq[o] == canon[(o - r) % k]``), and
    repeats after ``period`` facets.
    """
    seq = tuple(labels)
    k = len(seq)
    rotated = [seq[-r:] + seq[:-r] if r else seq for r in range(k)]
    canon = min(rotated, key=lambda t: tuple(map(_natural, t)))
    r = next(r for r in range(k) if (canon[-r:] + canon[:-r] if r else canon) == seq)
    period = next(d for d in range(1, k + 1) if k % d == 0 and seq[d:] + seq[:d] == seq)
    return canon, r % period, period


def _rebased(puzzle: Puzzle, s: Structure) -> Structure:
    """The same pieces with facets renumbered so every solved piece has orientation 0."""
    facet = s.facet.copy()
    for orbit, table in zip(s.orbits, _cells_by_slot(s)):
        for row in table:
            _, r, _ = _look([puzzle.colours[c] for c in row])
            facet[row] = (s.facet[row] - r) % orbit.orientations
    return Structure(s.orbits, s.orbit, s.slot, facet)


def structure_of(puzzle: Puzzle) -> Structure:
    """The stored piece structure, else pieces found from the moves (see :mod:`.piecefinder`),
    numbered so that the solved pieces all have orientation 0."""
    stored = stored_structure(puzzle)
    if stored is not None:
        return stored
    from hlavolamy.formats.piecefinder import derive_structure

    return _rebased(puzzle, derive_structure(puzzle))


def from_puzzle(puzzle: Puzzle, structure: Structure | None = None) -> PieceModel:
    """The puzzle as orbits of pieces; the solved colours become the default pattern."""
    s = structure or structure_of(puzzle)
    tables = _cells_by_slot(s)
    moves: dict[str, dict[str, OrbitMove]] = {}
    for name, m in puzzle.moves.items():
        per_orbit = {}
        for orbit, table in zip(s.orbits, tables):
            src = m[table[:, 0]]
            per_orbit[orbit.name] = OrbitMove(s.slot[src], (0 - s.facet[src]) % orbit.orientations)
        moves[name] = per_orbit
    solved = {orbit.name: _pattern(puzzle, table) for orbit, table in zip(s.orbits, tables)}
    return PieceModel(puzzle.name or "puzzle", list(s.orbits), moves, solved, dict(puzzle.aliases))


def _pattern(puzzle: Puzzle, table: np.ndarray) -> OrbitPattern:
    """Piece ids, orientations and orientation mods that reproduce the solved colours.

    Pieces whose colour sequences agree up to rotation share an id (numbered
    in order of first appearance); a sequence that repeats after ``d`` facets
    shows only ``d`` orientations.
    """
    ids: dict[tuple[str, ...], int] = {}
    pieces, orientation, mods = [], [], []
    for row in table:
        canon, r, period = _look([puzzle.colours[c] for c in row])
        pieces.append(ids.setdefault(canon, len(ids)))
        orientation.append(r)
        mods.append(period)
    return OrbitPattern(tuple(pieces), tuple(orientation), tuple(mods))

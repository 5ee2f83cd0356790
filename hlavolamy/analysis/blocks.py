"""Blocks and pieces: cells that always travel together.

A block system of an orbit is a partition the moves map onto itself (a block
goes wholly to a block). The finest non-trivial one is found with
Atkinson's algorithm: for a fixed cell ``alpha`` and each other cell
``beta``, the smallest invariant partition joining them is the closure of
``{alpha, beta}`` under the generators; the closure with the most classes
is a minimal block system. All ``beta`` are closed at once as rows of one
numpy union-find (:mod:`hlavolamy.analysis.unionfind`).

Pieces are the minimal blocks, with blocks of different orbits merged when
they move in lockstep: the two block actions are equivalent, i.e. a
bijection between the blocks commutes with every move (the two facelets of
a 4x4x4 wing sit in two orbits of 24). Each piece orbit gets reference
tuples of cells, transported from one base piece along the moves, so that
a move's effect on a piece is a permutation of the reference indices drawn
from one small group, the orientation group (Z3 for a cube's corners, Z2
for its edges).

>>> from hlavolamy.core.puzzle import Puzzle
>>> p = Puzzle(colours="ABCDEF", moves={"t": [2, 3, 4, 5, 0, 1], "f": [1, 0, 2, 3, 4, 5]})
>>> minimal_block_system(p, (0, 1, 2, 3, 4, 5))
[(0, 1), (2, 3), (4, 5)]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hlavolamy.analysis.memo import memo
from hlavolamy.analysis.orbits import distinct_generators, move_matrix, orbits, restrict
from hlavolamy.analysis.unionfind import merge_pairs
from hlavolamy.core.puzzle import Puzzle

_BATCH_ENTRIES = 4_000_000
"""Largest union-find (generators x betas x cells) closed in one batch."""


def _closures(gens: np.ndarray, alpha: int, betas: np.ndarray) -> np.ndarray:
    """Row ``b``: the finest generator-invariant partition joining ``alpha`` and ``betas[b]``.

    Each row labels every local cell with the smallest cell of its class.
    Invariance means ``i ~ root(i)`` implies ``g(i) ~ g(root(i))``; pairs
    are added until a round adds nothing.
    """
    n = gens.shape[1]
    rows = betas.size
    offsets = (np.arange(rows, dtype=np.int64) * n)[:, None]
    labels = merge_pairs(np.arange(rows * n, dtype=np.int64), offsets[:, 0] + alpha, offsets[:, 0] + betas)
    while True:
        local = labels.reshape(rows, n) - offsets
        joined = local != np.arange(n)
        u = (offsets + gens[:, None, :])[:, joined]
        v = (offsets + gens[:, local])[:, joined]
        merged = merge_pairs(labels, u.ravel(), v.ravel())
        if np.array_equal(merged, labels):
            return local
        labels = merged


def minimal_block_labels(gens: np.ndarray) -> np.ndarray:
    """Local block label (smallest cell of the block) per cell of a transitive action.

    ``gens`` are the generators on ``0..n-1``; all singletons when the
    action is primitive.
    """
    n = gens.shape[1]
    best = np.arange(n)
    best_count = 1
    betas = np.arange(1, n)
    batch = max(1, _BATCH_ENTRIES // max(1, n * max(1, len(gens))))
    for start in range(0, betas.size, batch):
        closures = _closures(gens, 0, betas[start:start + batch])
        counts = np.array([np.unique(row).size for row in closures])
        k = int(np.argmax(counts))
        if counts[k] > best_count:
            best, best_count = closures[k], int(counts[k])
        if best_count == n // 2:
            break  # blocks of two: nothing finer is non-trivial
    return best if best_count > 1 else np.arange(n)


def _group_cells(cells: np.ndarray, labels: np.ndarray) -> list[tuple[int, ...]]:
    """Cells grouped by label: each group sorted, groups sorted by first cell."""
    groups: dict[int, list[int]] = defaultdict(list)
    for c, lab in zip(cells.tolist(), labels.tolist()):
        groups[lab].append(c)
    return sorted(tuple(sorted(g)) for g in groups.values())


def minimal_block_system(puzzle: Puzzle, orbit: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The finest non-trivial block system of the moves on ``orbit`` (singletons if primitive)."""
    return _minimal_block_system(move_matrix(puzzle), orbit, puzzle.n_cells)


def _minimal_block_system(moves: np.ndarray, orbit: tuple[int, ...], n_cells: int) -> list[tuple[int, ...]]:
    gens = distinct_generators(restrict(moves, orbit, n_cells))
    return _group_cells(np.asarray(orbit), minimal_block_labels(gens))


def is_block_system(moves: np.ndarray, blocks: list[tuple[int, ...]], n_cells: int) -> bool:
    """Every move maps every block wholly onto a block."""
    block_of = np.full(n_cells, -1, dtype=np.int64)
    for k, b in enumerate(blocks):
        block_of[list(b)] = k
    for b in blocks:
        images = block_of[moves[:, list(b)]]
        if np.any(images != images[:, :1]):
            return False
    return True


# -- pieces -------------------------------------------------------------------


@dataclass(frozen=True)
class PieceOrbit:
    """Pieces that can travel to each other, with how every move carries and turns them.

    ``cells[q]`` is the reference tuple of piece slot ``q``. Under move
    ``k`` the piece arriving at slot ``q`` comes from slot ``perms[k, q]``
    (the cell convention ``new[i] = s[m[i]]`` lifted to pieces), and the cell
    arriving at ``cells[q, j]`` comes from ``cells[perms[k, q], twists[k, q, j]]``.
    Every ``twists[k, q]`` lies in ``orientation_group`` (identity first).
    When that group is cyclic, ``twist_order`` is its order and
    ``twist_values[k, q]`` the exponent of the move's twist on slot ``q``;
    ``twist_order`` is 0 when the group is not cyclic.
    """

    orbits: tuple[int, ...]
    cells: np.ndarray
    perms: np.ndarray
    twists: np.ndarray
    orientation_group: tuple[tuple[int, ...], ...]
    twist_order: int
    twist_values: np.ndarray | None

    @property
    def n_pieces(self) -> int:
        return int(self.cells.shape[0])

    @property
    def piece_size(self) -> int:
        return int(self.cells.shape[1])

    @property
    def pieces(self) -> list[tuple[int, ...]]:
        return [tuple(row) for row in self.cells.tolist()]

    @cached_property
    def _lookup(self) -> tuple[np.ndarray, np.ndarray]:
        flat = self.cells.ravel()
        order = np.argsort(flat)
        return flat[order], order

    def slot_and_index(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Slot and reference index of each cell in ``cells`` (-1, -1 for cells not in these pieces)."""
        sorted_cells, order = self._lookup
        pos = np.clip(np.searchsorted(sorted_cells, cells), 0, sorted_cells.size - 1)
        found = sorted_cells[pos] == cells
        slot, index = np.divmod(order[pos], self.piece_size)
        return np.where(found, slot, -1), np.where(found, index, -1)

    @cached_property
    def _exponent_codes(self) -> tuple[np.ndarray, np.ndarray]:
        exps = _cyclic_exponents(self.orientation_group) or {}
        codes = np.array([_code(np.array(t), self.piece_size) for t in exps])
        order = np.argsort(codes)
        return codes[order], np.array(list(exps.values()), dtype=np.int64)[order]

    def twist_exponents(self, turns: np.ndarray) -> np.ndarray:
        """Exponent of each index permutation (rows of ``turns``) in the cyclic orientation group.

        Raises ValueError naming the first row that is not in the group (or
        when the group is not cyclic).
        """
        codes, values = self._exponent_codes
        if not codes.size:
            raise ValueError("the orientation group of these pieces is not cyclic")
        row_codes = _code(turns, self.piece_size)
        pos = np.clip(np.searchsorted(codes, row_codes), 0, codes.size - 1)
        bad = codes[pos] != row_codes
        if bad.any():
            q = int(np.flatnonzero(bad)[0])
            raise ValueError(f"the piece at cells {self.pieces[q]} is turned in a way no move sequence turns "
                             f"a piece (its cells are in the order {turns[q].tolist()})")
        return values[pos]

    def locate(self, perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For a state ``perm``: the slot each slot's piece came from, and its index permutation.

        ``(slots[q], turns[q])``: the cell now at ``cells[q, j]`` is originally
        ``cells[slots[q], turns[q, j]]``. Raises ValueError when the state
        moves a cell out of these pieces or splits a piece.
        """
        slots, turns = self.slot_and_index(np.asarray(perm)[self.cells])
        if np.any(slots < 0):
            q, j = np.argwhere(slots < 0)[0]
            raise ValueError(f"cell {int(perm[self.cells[q, j]])} at position {int(self.cells[q, j])} "
                             f"does not belong to these pieces")
        if np.any(slots != slots[:, :1]):
            q = int(np.flatnonzero(np.any(slots != slots[:, :1], axis=1))[0])
            raise ValueError(f"the piece at cells {self.pieces[q]} holds cells of different pieces "
                             f"{sorted(set(perm[list(self.pieces[q])].tolist()))}")
        return slots[:, 0], turns


@dataclass(frozen=True)
class PieceStructure:
    """Orbits, their minimal block systems, the piece orbits and the dependent orbits.

    ``block_systems[i]`` is the minimal block system of ``orbits[i]``;
    ``dependent`` holds ``(i, j)`` when orbit ``i``'s positions are
    determined by orbit ``j``'s (solving ``j`` solves ``i``).
    """

    move_names: tuple[str, ...]
    orbits: list[tuple[int, ...]]
    block_systems: list[list[tuple[int, ...]]]
    piece_orbits: list[PieceOrbit]
    dependent: list[tuple[int, int]]

    @property
    def moved_cells(self) -> int:
        """How many cells some move moves (those of the orbits): what the solver's size limits count."""
        return sum(len(o) for o in self.orbits)

    def orbit_of(self, n_cells: int) -> np.ndarray:
        """Per cell of a puzzle of ``n_cells``, the index of its orbit (-1: no move moves it)."""
        out = np.full(n_cells, -1, dtype=np.int64)
        for i, orbit in enumerate(self.orbits):
            out[list(orbit)] = i
        return out

    def piece_orbits_holding(self, cells: np.ndarray) -> list[PieceOrbit]:
        """The piece orbits with at least one of ``cells``."""
        return [po for po in self.piece_orbits if np.isin(po.cells, cells).any()]

    def piece_orbit_of(self, orbit_index: int) -> int:
        """Index of the piece orbit made (partly) of orbit ``orbit_index``."""
        return next(k for k, po in enumerate(self.piece_orbits) if orbit_index in po.orbits)


def _block_action(moves: np.ndarray, blocks: list[tuple[int, ...]], n_cells: int) -> np.ndarray:
    """``(n_moves, n_blocks)``: the block the move brings to each block (``m`` on first cells)."""
    block_of = np.full(n_cells, -1, dtype=np.int64)
    for k, b in enumerate(blocks):
        block_of[list(b)] = k
    return block_of[moves[:, [b[0] for b in blocks]]]


def _signature(action: np.ndarray) -> bytes:
    """Invariant of an action up to equivalence: fixed points of each move and its square and cube."""
    p2 = np.take_along_axis(action, action, axis=1)
    p3 = np.take_along_axis(action, p2, axis=1)
    ids = np.arange(action.shape[1])
    counts = np.stack([(action == ids).sum(1), (p2 == ids).sum(1), (p3 == ids).sum(1)])
    return bytes([action.shape[1] % 256]) + counts.astype(np.int64).tobytes()


def equivalence(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """A bijection ``f`` with ``f[a[k]] == b[k][f]`` for every move ``k``, or None.

    Both actions are transitive, so ``f`` is fixed by ``f[0]``: try each
    candidate, spread it along the moves, and verify.
    """
    n = a.shape[1]
    if b.shape != a.shape:
        return None
    fixed_a = a[:, 0] == 0
    for c in np.flatnonzero(np.all((b == np.arange(n)) == fixed_a[:, None], axis=0)):
        f = _spread(a, b, int(c))
        if f is not None and np.unique(f).size == n and np.array_equal(f[a], np.take_along_axis(b, np.broadcast_to(f, a.shape), 1)):
            return f
    return None


def _spread(a: np.ndarray, b: np.ndarray, c: int) -> np.ndarray | None:
    """The map forced by ``f[0] = c`` and ``f[a[k][x]] = b[k][f[x]]``; None on a contradiction."""
    f = np.full(a.shape[1], -1, dtype=np.int64)
    f[0] = c
    frontier = np.array([0])
    while frontier.size:
        targets = a[:, frontier].ravel()
        values = b[:, f[frontier]].ravel()
        known = f[targets] >= 0
        if np.any(f[targets[known]] != values[known]):
            return None
        targets, first = np.unique(targets[~known], return_index=True)
        values = values[~known][first]
        f[targets] = values
        frontier = targets
    return f if np.all(f >= 0) else None


def _transport(both: np.ndarray, base: np.ndarray, slot_of: np.ndarray, n_slots: int) -> np.ndarray:
    """Reference tuples for every slot: ``base`` carried along the moves and their inverses ``both``."""
    refs = np.full((n_slots, base.size), -1, dtype=np.int64)
    refs[slot_of[base[0]]] = base
    frontier = refs[slot_of[base[0]]][None, :]
    while frontier.size:
        images = both[:, frontier].reshape(-1, base.size)
        slots = slot_of[images[:, 0]]
        new = refs[slots, 0] < 0
        slots, images = slots[new], images[new]
        slots, first = np.unique(slots, return_index=True)
        refs[slots] = images[first]
        frontier = images[first]
    return refs


def _orientation_group(twists: np.ndarray, limit: int = 40320) -> tuple[tuple[int, ...], ...]:
    """All index permutations generated by the moves' twists (identity first)."""
    s = twists.shape[-1]
    flat = twists.reshape(-1, s)
    _, first = np.unique(_code(flat, s), return_index=True)
    gens = [tuple(r) for r in flat[first].tolist()]
    ident = tuple(range(s))
    seen = {ident: None}
    frontier = [ident]
    while frontier and len(seen) <= limit:
        nxt = []
        for h in frontier:
            for g in gens:
                hg = tuple(h[i] for i in g)
                if hg not in seen:
                    seen[hg] = None
                    nxt.append(hg)
        frontier = nxt
    return tuple(seen)


def _code(turns: np.ndarray, size: int) -> np.ndarray:
    """Index permutations (last axis) as integers, digits in base ``size`` (Python ints past int64)."""
    if size**size < 2**62:
        return (np.asarray(turns, dtype=np.int64) * size ** np.arange(size, dtype=np.int64)).sum(-1)
    weights = np.array([size**k for k in range(size)], dtype=object)
    return (np.asarray(turns).astype(object) * weights).sum(-1)


def _cyclic_exponents(group: tuple[tuple[int, ...], ...]) -> dict[tuple[int, ...], int] | None:
    """Exponent of every element w.r.t. a generator when the group is cyclic, else None."""
    size = len(group)
    ident = group[0]
    for g in sorted(group):
        power, exps = ident, {}
        for e in range(size):
            exps[power] = e
            power = tuple(power[i] for i in g)
        if len(exps) == size:
            return exps
    return None


def _piece_orbit(moves: np.ndarray, both: np.ndarray, members: list[tuple[int, list[tuple[int, ...]], np.ndarray]],
                 n_cells: int) -> PieceOrbit:
    """Build a piece orbit from orbits with equivalent block actions.

    ``members``: ``(orbit index, blocks, f)`` with ``f`` mapping the first
    member's blocks to this member's blocks.
    """
    n_slots = len(members[0][1])
    slot_of = np.full(n_cells, -1, dtype=np.int64)
    for _, blocks, f in members:
        for q in range(n_slots):
            slot_of[list(blocks[f[q]])] = q
    base = np.concatenate([np.array(blocks[f[0]]) for _, blocks, f in members])
    cells = _transport(both, base, slot_of, n_slots)
    index_in_piece = np.full(n_cells, -1, dtype=np.int64)
    index_in_piece[cells] = np.arange(cells.shape[1])
    sources = moves[:, cells]  # (n_moves, slots, size)
    perms = slot_of[sources[:, :, 0]]
    if np.any(slot_of[sources] != perms[:, :, None]):
        raise AssertionError("piece structure: a move splits a piece (block computation is wrong)")
    twists = index_in_piece[sources]
    group = _orientation_group(twists)
    exps = _cyclic_exponents(group)
    values = None
    if exps is not None:
        s = cells.shape[1]
        codes = np.array([_code(np.array(t), s) for t in exps])
        order = np.argsort(codes)
        exponents = np.array(list(exps.values()), dtype=np.int64)[order]
        values = exponents[np.searchsorted(codes[order], _code(twists, s))]
    for arr in (cells, perms, twists) + ((values,) if values is not None else ()):
        arr.flags.writeable = False
    return PieceOrbit(
        orbits=tuple(m[0] for m in members),
        cells=cells,
        perms=perms,
        twists=twists,
        orientation_group=group,
        twist_order=len(group) if exps is not None else 0,
        twist_values=values,
    )


def _lockstep_classes(actions: list[np.ndarray], sizes: list[int]) -> list[list[tuple[int, np.ndarray]]]:
    """Orbits grouped by equivalent block actions: ``[(orbit, f from the first member)]``.

    The first member of a class has the largest blocks, so a dependent orbit
    (blocks of one cell) is never the reference.
    """
    buckets: dict[bytes, list[int]] = defaultdict(list)
    for i, act in enumerate(actions):
        buckets[_signature(act)].append(i)
    classes = []
    for members in buckets.values():
        rest = sorted(members, key=lambda i: (-sizes[i], i))
        while rest:
            ref, rest = rest[0], rest[1:]
            cls = [(ref, np.arange(actions[ref].shape[1]))]
            left = []
            for i in rest:
                f = equivalence(actions[ref], actions[i])
                (cls.append((i, f)) if f is not None else left.append(i))
            rest = left
            classes.append(cls)
    return sorted(classes, key=lambda c: min(i for i, _ in c))


def _dependents(moves: np.ndarray, cls: list[tuple[int, np.ndarray]], orbit_list: list[tuple[int, ...]],
                sizes: list[int], n_cells: int) -> list[tuple[int, int]]:
    """Orbits of a lockstep class whose cells are fixed by the class's first orbit."""
    ref = cls[0][0]
    out = []
    for i, _ in cls[1:]:
        if sizes[i] == 1:
            out.append((i, ref))
            continue
        a = restrict(moves, orbit_list[ref], n_cells)
        b = restrict(moves, orbit_list[i], n_cells)
        if equivalence(a, b) is not None:
            out.append((i, ref))
    return out


def pieces(puzzle: Puzzle) -> PieceStructure:
    """Orbits, minimal blocks, lockstep pieces with orientation, and dependent orbits (cached per moves)."""
    return memo(puzzle, "analysis.pieces", lambda: _pieces(puzzle))


def _pieces(puzzle: Puzzle) -> PieceStructure:
    moves = move_matrix(puzzle)
    n = puzzle.n_cells
    orbit_list = orbits(puzzle)
    systems = [_minimal_block_system(moves, o, n) for o in orbit_list]
    actions = [_block_action(moves, blocks, n) for blocks in systems]
    sizes = [len(blocks[0]) for blocks in systems]
    both = np.concatenate([moves, np.argsort(moves, axis=1)])
    piece_orbits, dependent = [], []
    for cls in _lockstep_classes(actions, sizes):
        members = [(i, systems[i], f) for i, f in cls]
        piece_orbits.append(_piece_orbit(moves, both, members, n))
        dependent.extend(_dependents(moves, cls, orbit_list, sizes, n))
    return PieceStructure(tuple(puzzle.moves), orbit_list, systems, piece_orbits, sorted(dependent))

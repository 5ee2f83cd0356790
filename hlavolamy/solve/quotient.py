"""Phase 0: put right what no macro can, with plain moves found by breadth-first search.

Conjugated macros preserve the parities (and twist sums) of every orbit and
piece orbit, and never move a group that has no macro of its own (a 3x3x3's
centres). So before them, the position is brought to a "quotient" that
matches the goal: the labels on those frozen cells, and — for exact
positions — the invariant vector of :mod:`hlavolamy.analysis.invariants`.
Both are images of homomorphisms, so a breadth-first search over the pairs
(frozen labels, vector) with single moves finds a shortest fix. When that
space is too big (a big cube has hundreds of parity bits), the frozen cells
are fixed first and the parities then by linear algebra over GF(2) on the
moves that leave frozen cells alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.invariants import CELL_PARITY, invariants, vectors
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.problem import Problem

MAX_NODES = 300_000
"""Most quotient states one breadth-first search visits."""


class QuotientTooBig(Exception):
    """The search space outgrew :data:`MAX_NODES`."""


def invariant_vector(puzzle: Puzzle, perm: np.ndarray) -> np.ndarray:
    inv = invariants(puzzle)
    return vectors(pieces(puzzle), inv.components, np.asarray(perm))[0] % _moduli(puzzle)


def _moduli(puzzle: Puzzle) -> np.ndarray:
    return np.array([c.modulus for c in invariants(puzzle).components], dtype=np.int64)


def _turn_vectors(puzzle: Puzzle, gens: Sequence[Turn]) -> np.ndarray:
    inv = invariants(puzzle)
    row = {name: k for k, name in enumerate(inv.move_names)}
    mod = _moduli(puzzle)
    out = np.array([inv.move_vectors[row[g.move]] * g.power for g in gens], dtype=np.int64).reshape(len(gens), mod.size)
    return out % mod if mod.size else out


def bfs_quotient(problem: Problem, frozen: np.ndarray, use_vector: bool, *, gens: Sequence[Turn] | None = None,
                 care: np.ndarray | None = None, cancel: CancelToken | None = None) -> list[Turn]:
    """Shortest turns making the frozen cells' labels and (if ``use_vector``) the invariant vector match the goal.

    With ``care`` (cells) only the invariants of orbits inside ``care`` count.

    Raises :class:`QuotientTooBig` beyond :data:`MAX_NODES` states and
    ValueError when no word reaches the goal (the position is unreachable).
    """
    puzzle = problem.puzzle
    gens = list(generators(puzzle)) if gens is None else list(gens)
    index = np.full(puzzle.n_cells, -1, dtype=np.int64)
    index[frozen] = np.arange(frozen.size)
    local = [index[puzzle.turn_perm(g)[frozen]] for g in gens]
    if any(np.any(lp < 0) for lp in local):
        raise ValueError("frozen cells are not a union of orbits")
    keep = components_inside(puzzle, care) if use_vector else np.zeros(0, dtype=bool)
    mod = _moduli(puzzle)[keep] if use_vector else np.zeros(0, dtype=np.int64)
    gvec = _turn_vectors(puzzle, gens)[:, keep] if use_vector else np.zeros((len(gens), 0), dtype=np.int64)
    start_vec = invariant_vector(puzzle, problem.labels)[keep] if use_vector else np.zeros(0, dtype=np.int64)
    goal_labels = problem.goal[frozen]
    start = (problem.labels[frozen].copy(), start_vec)

    def key(labels: np.ndarray, vec: np.ndarray) -> bytes:
        return labels.tobytes() + b"|" + vec.tobytes()

    def done(labels: np.ndarray, vec: np.ndarray) -> bool:
        return bool(np.array_equal(labels, goal_labels) and not np.any(vec))

    if done(*start):
        return []
    parent: dict[bytes, tuple[bytes | None, int]] = {key(*start): (None, -1)}
    frontier = [start]
    while frontier:
        nxt = []
        for labels, vec in frontier:
            k0 = key(labels, vec)
            for g, (lp, gv) in enumerate(zip(local, gvec)):
                new = (labels[lp], (vec + gv) % mod if mod.size else vec)
                k1 = key(*new)
                if k1 in parent:
                    continue
                parent[k1] = (k0, g)
                if done(*new):
                    return _path(parent, k1, gens)
                nxt.append(new)
            if len(parent) > MAX_NODES:
                raise QuotientTooBig(f"more than {MAX_NODES} quotient states")
        if cancel is not None:
            cancel.check()
        frontier = nxt
    raise ValueError("no sequence of moves fixes the frozen cells and parities together")


def components_inside(puzzle: Puzzle, care: np.ndarray | None) -> np.ndarray:
    """Which invariant components belong to orbits lying inside the cells ``care`` (all if None)."""
    comps = invariants(puzzle).components
    if care is None:
        return np.ones(len(comps), dtype=bool)
    structure = pieces(puzzle)
    inside = np.zeros(puzzle.n_cells, dtype=bool)
    inside[care] = True

    def orbits_of(comp) -> list[int]:
        return [comp.index] if comp.kind == CELL_PARITY else list(structure.piece_orbits[comp.index].orbits)

    return np.array([all(inside[list(structure.orbits[i])].all() for i in orbits_of(c)) for c in comps], dtype=bool)


def _path(parent: dict[bytes, tuple[bytes | None, int]], k: bytes, gens: Sequence[Turn]) -> list[Turn]:
    out = []
    while True:
        prev, g = parent[k]
        if prev is None:
            return out[::-1]
        out.append(gens[g])
        k = prev


def fix_parities_linear(problem: Problem, frozen: np.ndarray) -> list[Turn]:
    """Moves leaving ``frozen`` alone whose vectors sum to minus the state's, by elimination over GF(2).

    Only for invariants that are all mod 2; raises ValueError otherwise or when no combination exists.
    """
    puzzle = problem.puzzle
    mod = _moduli(puzzle)
    if np.any(mod != 2):
        raise ValueError("linear parity fixing needs every invariant mod 2")
    target = invariant_vector(puzzle, problem.labels) % 2
    if not target.any():
        return []
    frozen_mask = np.zeros(puzzle.n_cells, dtype=bool)
    frozen_mask[frozen] = True
    gens = [Turn(name, 1) for name in puzzle.moves
            if not np.any(frozen_mask & (puzzle.moves[name] != np.arange(puzzle.n_cells)))]
    choice = _gf2_solve(_turn_vectors(puzzle, gens) % 2, target)
    if choice is None:
        raise ValueError("no combination of moves fixes the parities")
    return [gens[i] for i in choice]


def _gf2_solve(rows: np.ndarray, target: np.ndarray) -> list[int] | None:
    """Indices of rows summing to ``target`` over GF(2), by Gaussian elimination with row tracking."""
    m = rows.shape[0]
    mat = np.concatenate([rows.astype(np.uint8) % 2, np.eye(m, dtype=np.uint8)], axis=1)
    ncol = rows.shape[1]
    pivots: list[tuple[int, int]] = []
    r = 0
    for c in range(ncol):
        hit = np.flatnonzero(mat[r:, c]) + r
        if hit.size == 0:
            continue
        mat[[r, hit[0]]] = mat[[hit[0], r]]
        others = np.flatnonzero(mat[:, c])
        others = others[others != r]
        mat[others] ^= mat[r]
        pivots.append((r, c))
        r += 1
        if r == m:
            break
    residual = target.astype(np.uint8) % 2
    combo = np.zeros(m, dtype=np.uint8)
    for row, c in pivots:
        if residual[c]:
            residual ^= mat[row, :ncol]
            combo ^= mat[row, ncol:]
    if residual.any():
        return None
    return np.flatnonzero(combo).tolist()

"""Invariants: parities and twist sums, what the moves can change and what they cannot.

Every position has an invariant vector: the permutation parity of each
orbit's cells, the parity of each piece orbit's pieces (when pieces have
more than one cell) and the twist sum of each piece orbit whose orientation
group is cyclic (Z3 for cube corners). These are homomorphisms, so the
reachable vectors are the subgroup the moves' vectors generate
(:class:`~hlavolamy.analysis.modular.Span`), and the relations of that
subgroup are the laws every reachable position obeys — on a 3x3x3: corner
twist sum = 0 (mod 3), edge flip sum = 0 (mod 2), corner parity = edge parity.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hlavolamy.analysis.blocks import PieceOrbit, PieceStructure, pieces
from hlavolamy.analysis.memo import memo
from hlavolamy.analysis.modular import Span
from hlavolamy.analysis.orbits import move_matrix
from hlavolamy.analysis.unionfind import merge_pairs
from hlavolamy.core.puzzle import Puzzle

CELL_PARITY, PIECE_PARITY, TWIST_SUM = "cell parity", "piece parity", "twist sum"


@dataclass(frozen=True)
class Component:
    """One coordinate of the invariant vector: ``kind`` of orbit or piece orbit ``index``, mod ``modulus``."""

    kind: str
    index: int
    modulus: int
    name: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "index": self.index, "modulus": self.modulus, "name": self.name}


def parities(perms: np.ndarray, group_of_cell: np.ndarray, n_groups: int) -> np.ndarray:
    """``(rows, n_groups)``: parity of each row of ``perms`` restricted to each group of cells.

    Parity is (cells - cycles) mod 2; the cycles of all rows are counted in
    one batched union-find. Cells with group -1 are ignored; each group must
    be mapped onto itself.
    """
    perms = np.atleast_2d(np.asarray(perms, dtype=np.int64))
    rows, n = perms.shape
    offsets = (np.arange(rows, dtype=np.int64) * n)[:, None]
    flat = np.arange(rows * n, dtype=np.int64)
    labels = merge_pairs(flat, flat, (perms + offsets).ravel()).reshape(rows, n) - offsets
    is_root = labels == np.arange(n)
    counted = group_of_cell >= 0
    groups = np.broadcast_to(group_of_cell, (rows, n))[:, counted]
    row_ids = np.broadcast_to(np.arange(rows)[:, None], (rows, n))[:, counted]
    cycles = np.zeros((rows, n_groups), dtype=np.int64)
    np.add.at(cycles, (row_ids[is_root[:, counted]], groups[is_root[:, counted]]), 1)
    sizes = np.bincount(group_of_cell[counted], minlength=n_groups)
    return (sizes - cycles) % 2


def components(structure: PieceStructure) -> list[Component]:
    """The coordinates of the invariant vector of a puzzle with this structure."""
    out = []
    for i, orbit in enumerate(structure.orbits):
        out.append(Component(CELL_PARITY, i, 2, f"cell parity of orbit {i} ({len(orbit)} cells)"))
    for j, po in enumerate(structure.piece_orbits):
        label = f"piece orbit {j} ({po.n_pieces} pieces of {po.piece_size} cells)"
        if po.piece_size > len(po.orbits):
            out.append(Component(PIECE_PARITY, j, 2, f"piece parity of {label}"))
        if po.twist_order > 1:
            out.append(Component(TWIST_SUM, j, po.twist_order, f"twist sum of {label}"))
    return out


def _orbit_of_cell(structure: PieceStructure, n_cells: int) -> np.ndarray:
    group = np.full(n_cells, -1, dtype=np.int64)
    for i, orbit in enumerate(structure.orbits):
        group[list(orbit)] = i
    return group


def _piece_parity(po: PieceOrbit, slots: np.ndarray) -> np.ndarray:
    return parities(slots, np.zeros(po.n_pieces, dtype=np.int64), 1)[:, 0]


def vectors(structure: PieceStructure, comps: list[Component], perms: np.ndarray, *,
            moves: bool = False) -> np.ndarray:
    """Invariant vectors of permutations (rows) that keep every orbit and piece together.

    With ``moves=True`` the rows are the puzzle's moves in order and the
    piece data comes straight from the structure. Raises ValueError when a
    row splits a piece or turns one impossibly.
    """
    perms = np.atleast_2d(perms)
    n = perms.shape[1]
    cell = parities(perms, _orbit_of_cell(structure, n), len(structure.orbits))
    out = np.zeros((perms.shape[0], len(comps)), dtype=np.int64)
    for c, comp in enumerate(comps):
        if comp.kind == CELL_PARITY:
            out[:, c] = cell[:, comp.index]
            continue
        po = structure.piece_orbits[comp.index]
        if moves:
            slots, twist = po.perms, po.twist_values
        else:
            located = [po.locate(p) for p in perms]
            slots = np.array([s for s, _ in located])
            twist = np.array([po.twist_exponents(t) for _, t in located]) if comp.kind == TWIST_SUM else None
        if comp.kind == PIECE_PARITY:
            out[:, c] = _piece_parity(po, slots)
        else:
            out[:, c] = twist.sum(axis=1) % comp.modulus
    return out


def describe_relation(coeffs: dict[int, int], modulus: int, comps: list[Component]) -> str:
    """A relation in words: "A is always even", "A = B", "2·A + B ≡ 0 (mod 3)"."""
    terms = list(coeffs.items())
    if len(terms) == 1 and terms[0][1] % modulus:
        comp = comps[terms[0][0]]
        if modulus == 2 and comp.kind != TWIST_SUM:
            return f"{comp.name} is always even"
        return f"{comp.name} is always 0 (mod {modulus})"
    if modulus == 2 and len(terms) == 2:
        return f"{comps[terms[0][0]].name} = {comps[terms[1][0]].name}"
    expr = " + ".join((f"{c}·" if c != 1 else "") + comps[i].name for i, c in terms)
    return f"{expr} ≡ 0 (mod {modulus})"


def _value_words(comp: Component, value: int, modulus: int) -> str:
    if modulus == 2 and comp.kind != TWIST_SUM:
        return "odd" if value % 2 else "even"
    return f"{value % modulus} (mod {modulus})"


def explain_violation(coeffs: dict[int, int], modulus: int, comps: list[Component], x: np.ndarray) -> str | None:
    """Why ``x`` breaks the relation, in words; None when it holds."""
    total = sum(c * int(x[i]) for i, c in coeffs.items()) % modulus
    if total == 0:
        return None
    terms = list(coeffs)
    if len(terms) == 1:
        comp = comps[terms[0]]
        must = "even" if modulus == 2 and comp.kind != TWIST_SUM else "0"
        return f"{comp.name} is {_value_words(comp, int(x[terms[0]]), modulus)}, must be {must}"
    if modulus == 2 and len(terms) == 2:
        a, b = (comps[i] for i in terms)
        return (f"{a.name} is {_value_words(a, int(x[terms[0]]), 2)} but {b.name} is "
                f"{_value_words(b, int(x[terms[1]]), 2)}; they must be equal")
    return f"{describe_relation(coeffs, modulus, comps)} fails: the sum is {total}"


@dataclass(frozen=True)
class Invariants:
    """The invariant coordinates, each move's vector, the reachable subgroup and its laws."""

    components: list[Component]
    move_names: tuple[str, ...]
    move_vectors: np.ndarray
    span: Span
    notes: list[str]

    @property
    def relations(self) -> list[tuple[dict[int, int], int]]:
        return self.span.relations

    def laws(self) -> list[str]:
        """Every relation in words."""
        return [describe_relation(c, m, self.components) for c, m in self.relations]

    def violations(self, x: np.ndarray) -> list[str]:
        """Why the invariant vector ``x`` is not reachable (empty when it is)."""
        reasons = [r for c, m in self.relations if (r := explain_violation(c, m, self.components, x))]
        if not reasons and not self.span.contains(x):
            values = ", ".join(f"{comp.name} = {int(v)}" for comp, v in zip(self.components, x) if v)
            reasons.append(f"this combination of invariants is not reachable: {values}")
        return reasons

    def to_json(self) -> dict:
        return {
            "components": [c.to_json() for c in self.components],
            "moves": {name: vec.tolist() for name, vec in zip(self.move_names, self.move_vectors)},
            "reachable_combinations": self.span.order,
            "relations": [
                {"coefficients": {str(i): c for i, c in coeffs.items()}, "modulus": m,
                 "text": describe_relation(coeffs, m, self.components)}
                for coeffs, m in self.relations
            ],
            "notes": self.notes,
        }


def invariants(puzzle: Puzzle) -> Invariants:
    """Each move's invariant vector and the subgroup of reachable combinations (cached per moves)."""
    return memo(puzzle, "analysis.invariants", lambda: _invariants(puzzle))


def _invariants(puzzle: Puzzle) -> Invariants:
    structure = pieces(puzzle)
    comps = components(structure)
    move_vectors = vectors(structure, comps, move_matrix(puzzle), moves=True)
    notes = [
        f"piece orbit {j}: the orientation group (order {len(po.orientation_group)}) is not cyclic, "
        "so its twists are not summarised by one number"
        for j, po in enumerate(structure.piece_orbits) if po.twist_order == 0
    ]
    span = Span([c.modulus for c in comps], move_vectors)
    return Invariants(comps, structure.move_names, move_vectors, span, notes)

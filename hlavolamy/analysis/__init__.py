"""Structure analysis of a puzzle from its move permutations alone.

:func:`analyse` runs everything once per puzzle and caches it in
``analysis_cache(puzzle).analysis`` (:mod:`.memo`): orbits (:mod:`.orbits`), minimal blocks and
pieces with orientation (:mod:`.blocks`), parities and twist laws
(:mod:`.invariants`), the group order (:mod:`.membership`) and, when asked,
the 3-cycle library (:mod:`.commutators`). The GUI, the CLI and the solver
share the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Any

import numpy as np

from hlavolamy.analysis.blocks import PieceStructure, pieces
from hlavolamy.analysis.invariants import Invariants, invariants
from hlavolamy.analysis.membership import GroupOrder, group_order
from hlavolamy.analysis.memo import analysis_cache
from hlavolamy.analysis.orbits import format_cells, move_matrix
from hlavolamy.analysis.unionfind import merge_pairs
from hlavolamy.core.progress import CancelToken, ProgressCallback, report
from hlavolamy.core.puzzle import Puzzle

__all__ = ["Analysis", "analyse"]


@dataclass(frozen=True)
class MoveInfo:
    """A generator's order and cycle type."""

    name: str
    order: int
    cycle_type: dict[int, int]
    moved: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "order": self.order, "moved": self.moved,
                "cycle_type": {str(k): v for k, v in self.cycle_type.items()}}


@dataclass(frozen=True)
class Analysis:
    """Everything the analysis found; ``three_cycles`` is None when the library was not built."""

    name: str
    n_cells: int
    moves: list[MoveInfo]
    structure: PieceStructure
    invariants: Invariants
    order: GroupOrder
    three_cycles: list[dict[str, Any]] | None

    def to_json(self) -> dict[str, Any]:
        """The stable schema of ``hlavolamy info --json`` (documented in docs/cli.md)."""
        s = self.structure
        out: dict[str, Any] = {
            "name": self.name,
            "cells": self.n_cells,
            "moves": [m.to_json() for m in self.moves],
            "orbits": [list(o) for o in s.orbits],
            "blocks": [[list(b) for b in system] for system in s.block_systems],
            "pieces": [
                {"orbits": list(po.orbits), "pieces": po.n_pieces, "piece_size": po.piece_size,
                 "cells": po.cells.tolist(), "orientation_group_order": len(po.orientation_group),
                 "twist_order": po.twist_order}
                for po in s.piece_orbits
            ],
            "dependent": [{"orbit": i, "follows": j} for i, j in s.dependent],
            "order": self.order.decimal,
            "order_exact": self.order.exact,
            "order_method": self.order.method,
            "invariants": self.invariants.to_json(),
        }
        if self.three_cycles is not None:
            out["three_cycles"] = self.three_cycles
        return out

    def report(self) -> str:
        """A readable account of the structure."""
        s = self.structure
        lines = [f"Puzzle {self.name or '(unnamed)'}: {self.n_cells} cells, {len(self.moves)} moves"]
        for m in self.moves:
            cyc = " ".join(f"{k}^{v}" if v > 1 else f"{k}" for k, v in m.cycle_type.items()) or "identity"
            lines.append(f"  {m.name:<8} order {m.order:<3} cycles {cyc} ({m.moved} cells moved)")
        fixed = self.n_cells - sum(len(o) for o in s.orbits)
        lines.append(f"Orbits: {len(s.orbits)}" + (f" ({fixed} cells never move)" if fixed else ""))
        for i, (orbit, system) in enumerate(zip(s.orbits, s.block_systems)):
            blocks = f"blocks: {len(system)} of {len(system[0])} cells" if len(system[0]) > 1 else "no blocks (primitive)"
            lines.append(f"  orbit {i}: {len(orbit)} cells {format_cells(orbit, 4)}; {blocks}")
        lines.append(f"Pieces: {len(s.piece_orbits)} piece orbits")
        for j, po in enumerate(s.piece_orbits):
            group = len(po.orientation_group)
            turn = (f"orientation Z{po.twist_order}" if po.twist_order > 1 else
                    "no orientation" if group == 1 else f"orientation group of order {group} (not cyclic)")
            where = "orbit" + ("s " if len(po.orbits) > 1 else " ") + ", ".join(map(str, po.orbits))
            lines.append(f"  piece orbit {j}: {po.n_pieces} pieces of {po.piece_size} cells ({where}); {turn}")
        for i, j in s.dependent:
            lines.append(f"  orbit {i} is totally dependent on orbit {j}: solving {j} solves {i}")
        laws = self.invariants.laws()
        lines.append(f"Invariants: {len(self.invariants.components)} coordinates, "
                     f"{self.invariants.span.order} reachable combinations; laws of every reachable position:")
        lines.extend(f"  {law}" for law in laws)
        lines.extend(f"  note: {note}" for note in self.invariants.notes)
        kind = "exact, Schreier–Sims" if self.order.exact else self.order.method
        lines.append(f"Group order: {self.order.decimal} ({kind})")
        if self.three_cycles is not None:
            lines.append(f"3-cycle library: {len(self.three_cycles)} macros")
            lines.extend(f"  {c['kind']:<20} {c['moves']}  cells {c['cells']}" for c in self.three_cycles[:20])
        return "\n".join(lines)


def _move_info(puzzle: Puzzle) -> list[MoveInfo]:
    """Order and cycle type of every move: cycle lengths of all moves from one batched union-find."""
    moves = move_matrix(puzzle)
    rows, n = moves.shape
    offsets = (np.arange(rows, dtype=np.int64) * n)[:, None]
    flat = np.arange(rows * n, dtype=np.int64)
    labels = merge_pairs(flat, flat, (moves + offsets).ravel())
    lengths = np.bincount(labels, minlength=rows * n).reshape(rows, n)
    out = []
    for name, row in zip(puzzle.moves, lengths):
        kinds, counts = np.unique(row[row > 1], return_counts=True)
        cycle_type = dict(zip(kinds.tolist(), counts.tolist()))
        out.append(MoveInfo(name, lcm(*cycle_type) if cycle_type else 1, cycle_type, int(row[row > 1].sum())))
    return out


LIBRARY_SECONDS = 10.0
"""Time budget of the 3-cycle library in a report (the solver asks for its complete library separately)."""


def _three_cycles(puzzle: Puzzle, cancel: CancelToken | None) -> list[dict[str, Any]]:
    """The 3-cycle library (:mod:`~hlavolamy.analysis.commutators`) as JSON, within :data:`LIBRARY_SECONDS`."""
    from hlavolamy.analysis.commutators import three_cycle_library

    return [{"moves": puzzle.format(m.turns), "length": puzzle.length(m.turns), "cells": list(m.cells),
             "kind": m.kind, "orbit": m.orbit}
            for m in three_cycle_library(puzzle, time_budget=LIBRARY_SECONDS, cancel=cancel)]


def analyse(puzzle: Puzzle, *, three_cycles: bool = True, progress: ProgressCallback | None = None,
            cancel: CancelToken | None = None) -> Analysis:
    """Analyse ``puzzle`` (cached; a cached result without 3-cycles is extended when they are asked for)."""
    cached: Analysis | None = analysis_cache(puzzle).analysis
    if cached is not None and (cached.three_cycles is not None or not three_cycles):
        return cached
    if cached is None:
        report(progress, 0.0, "orbits and blocks")
        structure = pieces(puzzle)
        _check(cancel)
        report(progress, 0.3, "parities and twists")
        inv = invariants(puzzle)
        _check(cancel)
        report(progress, 0.4, "group order")
        order = group_order(puzzle, progress=lambda f, m: report(progress, 0.4 + 0.3 * f, m), cancel=cancel)
        cached = Analysis(puzzle.name, puzzle.n_cells, _move_info(puzzle), structure, inv, order, None)
        analysis_cache(puzzle).analysis = cached
    if three_cycles:
        report(progress, 0.7, "3-cycles")
        library = _three_cycles(puzzle, cancel)
        cached = Analysis(cached.name, cached.n_cells, cached.moves, cached.structure, cached.invariants,
                          cached.order, library)
        analysis_cache(puzzle).analysis = cached
    report(progress, 1.0, "done")
    return cached


_COSTLY_PARTS = ("analysis.pieces", "analysis.invariants", "analysis.order")
"""Memoised parts a solve computes on its way; with all of them cached, :func:`analyse` takes milliseconds."""


def cached_analysis(puzzle: Puzzle) -> Analysis | None:
    """The analysis when it, or each of its costly parts, is already cached (a solve leaves them); else None.

    Never computes anything costly, so a GUI thread may call it.
    """
    cache = analysis_cache(puzzle)
    if cache.analysis is None and not all(key in cache.memo for key in _COSTLY_PARTS):
        return None
    return analyse(puzzle, three_cycles=cache.library is not None or cache.complete_library is not None)


def _check(cancel: CancelToken | None) -> None:
    if cancel is not None:
        cancel.check()

"""The Santa plugin: the globes and wreaths of the Santa 2023 benchmark, drawn as a person sees them.

Two geometries, ``globe`` (a sphere of latitude rows and longitude columns;
rows turn, half-globes flip) and ``wreath`` (two rings of cells crossing in
two shared cells). Their moves are the benchmark's, cell for cell and name
for name, so ``hlavolamy import santa`` of any globe or wreath is recognised
(:func:`hlavolamy_recognise`) and drawn. The cells and moves live in
:mod:`.geometry`; the Qt drawings in :mod:`.globe_view` and
:mod:`.wreath_view`, imported only when the GUI asks for a view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl
from hlavolamy.plugins.recognise import move_correspondence

from . import geometry as G

if TYPE_CHECKING:
    from hlavolamy.plugins.hookspecs import View


def _listed(moves: Mapping[str, Any]) -> dict[str, list[int]]:
    return {name: perm.tolist() for name, perm in moves.items()}


class GlobeGeometry(Geometry):
    """A globe: ``rows`` latitude bands of ``columns`` cells; ``r_i`` turns a row, ``f_j`` flips a half-globe."""

    name = "globe"
    title = "Globe (Santa 2023)"
    description = (
        "A sphere cut into latitude rows and longitude columns: r0, r1, ... turn a row by one column, "
        "f0, f1, ... turn the half-globe starting at that column upside down. Santa's globe_a/b has "
        "a + 1 rows and 2b columns."
    )
    parameters = (
        Parameter("rows", int, 4, minimum=2, maximum=G.MAX_ROWS, help="latitude rows of cells (globe_a/b: a + 1)"),
        Parameter("columns", int, 8, minimum=2, maximum=G.MAX_COLUMNS,
                  help="cells round each row, even (globe_a/b: 2b)"),
    )

    def build(self, **params: Any) -> Puzzle:
        data = self.load_data(self.coerce(params))
        rows, columns = data["rows"], data["columns"]
        colours, palette = G.globe_colours(rows, columns)
        return Puzzle(
            colours, G.globe_moves(rows, columns), name=G.globe_name(rows, columns),
            description=f"globe of {rows} rows x {columns} columns (Santa 2023 {G.globe_name(rows, columns)})",
            palette=palette, plugin=PluginRecord(self.name, data),
        )

    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        data = self.load_data(data)
        return _listed(G.globe_moves(data["rows"], data["columns"]))

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return G.check_globe(data)

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return G.check_globe(data)

    def view(self, puzzle: Puzzle) -> View | None:
        """The sphere and its flat net; None when the record's shape does not fit the puzzle's cells."""
        try:
            data = G.check_globe(puzzle.plugin.data) if puzzle.plugin else None
        except ValueError:
            return None
        if data is None or puzzle.n_cells != data["rows"] * data["columns"]:
            return None
        from .globe_view import GlobeView  # Qt only here

        return GlobeView(puzzle, data["rows"], data["columns"])


class WreathGeometry(Geometry):
    """A wreath: two rings of ``size`` cells sharing two cells; ``l`` and ``r`` shift a ring by one."""

    name = "wreath"
    title = "Wreath (Santa 2023)"
    description = (
        "Two rings of cells crossing in two shared cells (Santa's wreath_a/a): l and r shift the left "
        "and the right ring by one cell."
    )
    parameters = (Parameter("size", int, 12, minimum=G.MIN_WREATH, maximum=G.MAX_WREATH, help="cells in each ring"),)

    def build(self, **params: Any) -> Puzzle:
        data = self.load_data(self.coerce(params))
        size = data["size"]
        return Puzzle(
            G.wreath_colours(size), G.wreath_moves(size), name=G.wreath_name(size),
            description=f"wreath of two {size}-cell rings sharing two cells (Santa 2023 {G.wreath_name(size)})",
            palette=G.WREATH_PALETTE, plugin=PluginRecord(self.name, data),
        )

    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return _listed(G.wreath_moves(self.load_data(data)["size"]))

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return G.check_wreath(data)

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return G.check_wreath(data)

    def view(self, puzzle: Puzzle) -> View | None:
        """The two rings; None when the record's size does not fit the puzzle's cells."""
        try:
            size = G.check_wreath(puzzle.plugin.data)["size"] if puzzle.plugin else 0
        except ValueError:
            return None
        if puzzle.n_cells != 2 * size - 2:
            return None
        from .wreath_view import WreathView  # Qt only here

        return WreathView(puzzle, size)


@hookimpl
def hlavolamy_geometries() -> list[Geometry]:
    return [GlobeGeometry(), WreathGeometry()]


def candidates(puzzle: Puzzle) -> list[PluginRecord]:
    """Globe and wreath shapes whose cell and move counts fit the puzzle."""
    n, m = puzzle.n_cells, len(puzzle.moves)
    out = []
    if m == 2 and n % 2 == 0 and G.MIN_WREATH <= n // 2 + 1 <= G.MAX_WREATH:
        out.append(PluginRecord(WreathGeometry.name, {"size": n // 2 + 1}))
    # rows + columns = m and rows * columns = n: the roots of x^2 - m x + n
    root = math.isqrt(max(0, m * m - 4 * n))
    if root * root == m * m - 4 * n and (m - root) % 2 == 0:
        for rows in sorted({(m - root) // 2, (m + root) // 2}):
            columns = m - rows
            if 2 <= rows <= G.MAX_ROWS and 2 <= columns <= G.MAX_COLUMNS and columns % 2 == 0:
                out.append(PluginRecord(GlobeGeometry.name, {"rows": rows, "columns": columns}))
    return out


@hookimpl
def hlavolamy_recognise(puzzle: Puzzle) -> PluginRecord | None:
    """The globe or wreath whose moves are the puzzle's (names and directions aside), if any.

    The counts leave at most three shapes; their moves are compared here so
    that one record is answered (the host checks it again).
    """
    geometries = {g.name: g for g in (GlobeGeometry(), WreathGeometry())}
    for record in candidates(puzzle):
        if move_correspondence(geometries[record.name].moves(record.data), puzzle) is not None:
            return record
    return None

"""The Square-1 plugin: a Square-1 (Cube21) built from 30° wedges, corners fused from two.

The geometry (cells, moves, fused corners, turned parts) lives in
:mod:`.geometry`; the Qt drawing in :mod:`.view`, imported only when the GUI
asks for a view. The slash ``T`` is legal only when no corner straddles the
cut, which the core enforces from the blockings and turned parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl

from . import geometry as G

if TYPE_CHECKING:
    from hlavolamy.plugins.hookspecs import View


def build_puzzle(data: Mapping[str, Any]) -> Puzzle:
    """The Square-1 described by ``data`` (see :func:`.geometry.check_data`)."""
    data = G.check_data(data)
    middle = data["middle"]
    return Puzzle(
        G.piece_names(middle),
        G.moves(middle),
        name="Square-1",
        description=(
            "Square-1 (Cube21): U and D turn a layer by 30°, T is the slash '/' (the right half by 180°), "
            "legal only when no corner straddles the cut. '(x, y) /' is 'U^x D^y T'."
        ),
        palette=G.palette(middle),
        blockings=G.blockings(middle),
        turned_parts=G.turned_parts(middle),
        plugin=PluginRecord(Square1Geometry.name, data),
        cell_data=G.cell_points(middle),
    )


class Square1Geometry(Geometry):
    """Square-1: 24 layer wedges (8 corners of two fused wedges, 8 edges) and a middle layer in two halves."""

    name = "square1"
    title = "Square-1 (Cube21)"
    description = (
        "The Square-1: top and bottom layers of 30° wedges turn freely, the slash turns the right half "
        "and is blocked while a corner straddles the cut."
    )
    parameters = (
        Parameter("middle", bool, True, help="model the middle layer's two halves (the slash flips the right one)"),
    )

    def build(self, **params: Any) -> Puzzle:
        return build_puzzle(self.coerce(params))

    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {name: perm.tolist() for name, perm in G.moves(G.check_data(data)["middle"]).items()}

    def turned_parts(self, data: Mapping[str, Any]) -> dict[str, list[int]]:
        """Cells each move turns (a whole layer; the whole right half for the slash), for the blockings."""
        return {name: list(cells) for name, cells in G.turned_parts(G.check_data(data)["middle"]).items()}

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return G.check_data(data)

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return G.check_data(data)

    def view(self, puzzle: Puzzle) -> View | None:
        from .view import Square1View  # Qt only here

        return Square1View(puzzle, G.check_data(puzzle.plugin.data)["middle"]) if puzzle.plugin else None


@hookimpl
def hlavolamy_geometries() -> list[Geometry]:
    return [Square1Geometry()]

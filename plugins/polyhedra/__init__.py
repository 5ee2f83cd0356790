"""The polyhedra plugin: any Platonic solid cut by planes (cube, megaminx, pyraminx, skewb, FTO, dino, ...).

A puzzle is a PuzzleGeometry description (``d f 0.7``): :mod:`.description`
reads it, :mod:`.solids` holds the five solids, :mod:`.cutting` cuts the faces
into stickers and pieces, :mod:`.turns` finds every grip's permutation and
:mod:`.model` names them and makes the :class:`Puzzle`. The Qt drawing and
the designer are in :mod:`.view` and :mod:`.designer`, imported only when the
GUI asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.errors import PuzzleError
from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl

from .model import PLUGIN, Polyhedron
from .presets import PRESETS
from .recognise import recognise

if TYPE_CHECKING:
    from hlavolamy.plugins.hookspecs import Designer, View


class PolyhedraGeometry(Geometry):
    """Platonic solids cut by planes parallel to faces or across corner and edge axes."""

    name = PLUGIN
    title = "Polyhedron"
    description = (
        "A Platonic solid cut by planes, in the PuzzleGeometry description language: a shape "
        "(c t d o i: cube, tetrahedron, dodecahedron, octahedron, icosahedron) then cuts "
        "f|v|e DISTANCE (across face, corner or edge axes; faces lie at distance 1). "
        "Examples: 'c f 0.333333333' is the 3x3x3, 'd f 0.7' the megaminx."
    )
    parameters = (
        Parameter("preset", str, "3x3x3", help="a named puzzle", choices=tuple(PRESETS)),
        Parameter("description", str, "", help="a PuzzleGeometry description such as 'd f 0.7' (overrides preset)"),
    )

    def build(self, **params: Any) -> Puzzle:
        params = self.coerce(params)
        text = params["description"].strip()
        if text:
            return Polyhedron.from_data({"description": text}).puzzle()
        title, text = PRESETS[params["preset"]]
        return Polyhedron.from_data({"description": text}).puzzle(name=title)

    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {name: perm.tolist() for name, perm in Polyhedron.from_data(data).moves().items()}

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return Polyhedron.from_data(data).to_data()

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return Polyhedron.from_data(data).to_data()

    def view(self, puzzle: Puzzle) -> View | None:
        """The 3D picture and net; None when the data is bad or does not fit the puzzle's cells."""
        if puzzle.plugin is None or puzzle.plugin.name != PLUGIN:
            return None
        try:
            model = Polyhedron.from_data(puzzle.plugin.data)
            cells = len(model.cells) if model.cells is not None else len(model.cutting.stickers)
            model.move_names  # noqa: B018 - raises on bad names
        except PuzzleError:
            return None
        if cells != puzzle.n_cells:
            return None
        from .view import PolyhedronView  # Qt only here

        return PolyhedronView(model)

    def designer(self, puzzle: Puzzle | None) -> Designer | None:
        """The cut designer, from this plugin's puzzle or from a bare cube (an empty design).

        None for an import we only draw: its cells and moves are another tool's, and a
        design edit would replace them with ours.
        """
        from .designer import PolyhedronDesigner  # Qt only here

        ours = puzzle is not None and puzzle.plugin is not None and puzzle.plugin.name == PLUGIN
        if ours and "cells" in puzzle.plugin.data:
            return None
        data = puzzle.plugin.data if ours else {"description": "c"}
        return PolyhedronDesigner(data, name=puzzle.name if ours else "")


@hookimpl
def hlavolamy_geometries() -> list[Geometry]:
    return [PolyhedraGeometry()]


@hookimpl
def hlavolamy_recognise(puzzle: Puzzle) -> PluginRecord | None:
    """An imported puzzle that is one of the presets up to relabelling gets our drawing."""
    data = recognise(puzzle)
    return PluginRecord(PLUGIN, data) if data is not None else None

"""The circles plugin: puzzles drawn as turning disks and cut circles (the Rashkey and friends).

The Qt-free geometry is in :mod:`.arrangement` (regions of a set of circles),
:mod:`.symmetry` (what a turn does, and jams) and :mod:`.design` (the data and
the puzzle it defines); :mod:`.presets` draws the shipped puzzles; the Qt
drawing and editing in :mod:`.view`, imported only when the GUI asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import PuzzleError
from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl

from .design import PLUGIN, Design
from .presets import PRESETS, preset

if TYPE_CHECKING:
    from hlavolamy.plugins.hookspecs import Designer, View


class CirclesGeometry(Geometry):
    """Intersecting circles: turning circles give moves, coloured regions are the cells."""

    name = PLUGIN
    title = "Circles"
    description = (
        "Puzzles drawn with circles, like the Rashkey: turning circles turn by a fixed angle and carry "
        "every region inside; cut circles only cut; the coloured regions are the cells."
    )
    parameters = (
        Parameter("preset", str, "rashkey", help="the design to start from", choices=tuple(PRESETS)),
    )
    defines_moves = False

    def build(self, **params: Any) -> Puzzle:
        params = self.coerce(params)
        title, design = preset(params["preset"])
        return design.puzzle(name=title, description=PRESETS[params["preset"]])

    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return {m.name: m.perm for m in Design.from_data(data).moves()}

    def turned_parts(self, data: Mapping[str, Any]) -> dict[str, list[int]]:
        """Per move, every cell inside its circle (those the turn leaves in place too), for blockings."""
        return {m.name: sorted(m.turned) for m in Design.from_data(data).moves()}

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        design = Design.from_data(data)
        design.cells  # noqa: B018 - raises when a coloured region does not exist
        return design.to_data()

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return Design.from_data(data).to_data()

    def view(self, puzzle: Puzzle) -> View | None:
        if puzzle.plugin is None or puzzle.plugin.name != PLUGIN:
            return None
        try:
            design = Design.from_data(puzzle.plugin.data)
            cells = len(design.puzzle_cells)
        except PuzzleError:  # bad data: the file still plays, the host draws plain cells
            return None
        if cells != puzzle.n_cells:
            return None
        from .view import CirclesView  # Qt only here

        return CirclesView(design)

    def designer(self, puzzle: Puzzle | None) -> Designer | None:
        from .view import CirclesDesigner  # Qt only here

        data = puzzle.plugin.data if puzzle is not None and puzzle.plugin is not None and puzzle.plugin.name == PLUGIN else {}
        return CirclesDesigner(Design.from_data(data), name=puzzle.name if puzzle is not None else "")


@hookimpl
def hlavolamy_geometries() -> list[Geometry]:
    return [CirclesGeometry()]

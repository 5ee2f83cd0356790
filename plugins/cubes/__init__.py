"""The cube plugin: NxNxN cubes (2x2x2 and up) in the Santa 2023 cell layout.

The geometry (cells, layer turns, names) lives in :mod:`.geometry`; the Qt
drawing in :mod:`.view`, imported only when the GUI asks for a view.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl

from .geometry import PALETTE, aliases, check_data, cube_moves, layer_names, solved_colours

if TYPE_CHECKING:
    from hlavolamy.plugins.hookspecs import View

MAX_SIZE = 100


class CubeGeometry(Geometry):
    """NxNxN cubes: 6·N² facelets, one generator per layer of each axis."""

    name = "cubes"
    title = "NxNxN cube"
    description = (
        "Rubik-type cubes of any size. Facelets in the Santa 2023 layout (faces U F R B L D); "
        "generators U D L R F B and inner layers 2R, 2L, ...; wide turns and x y z rotations as aliases."
    )
    parameters = (
        Parameter("size", int, 3, minimum=2, maximum=MAX_SIZE, help="layers per edge (3 is the Rubik's cube)"),
        Parameter(
            "centre_slices",
            bool,
            False,
            help="odd sizes: make the middle layers M E S generators (the centres then move)",
        ),
    )

    def build(self, **params: Any) -> Puzzle:
        data = check_data(self.coerce(params))
        n = data["size"]
        centre = ", middle layers M E S turn" if data["centre_slices"] and n % 2 else ""
        return Puzzle(
            solved_colours(n),
            cube_moves(n, data["centre_slices"]),
            name=f"{n}x{n}x{n} cube",
            description=f"{n}x{n}x{n} cube ({6 * n * n} facelets{centre})",
            aliases=aliases(n, layer_names(n, data["centre_slices"])),
            palette=PALETTE,
            plugin=PluginRecord(self.name, data),
        )

    def moves(self, data: Mapping[str, Any]) -> dict[str, Any]:
        data = check_data(data)
        return {name: perm.tolist() for name, perm in cube_moves(data["size"], data["centre_slices"]).items()}

    def load_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return check_data(data)

    def dump_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return check_data(data)

    def view(self, puzzle: Puzzle) -> View | None:
        """The 3D picture and net; None when the puzzle's data or cell count is not a cube's."""
        try:
            size = check_data(puzzle.plugin.data)["size"] if puzzle.plugin else 0
        except ValueError:
            return None
        if puzzle.n_cells != 6 * size * size:
            return None
        from .view import CubeView  # Qt only here

        return CubeView(puzzle, size)


@hookimpl
def hlavolamy_geometries() -> list[Geometry]:
    return [CubeGeometry()]


@hookimpl
def hlavolamy_recognise(puzzle: Puzzle) -> PluginRecord | None:
    """An NxNxN cube in our cell layout (a Santa ``cube_N/N/N``): 6·N² cells, one move per layer (3N, or 3N − 3).

    Only the counts are looked at; the host checks the moves themselves.
    """
    size = math.isqrt(puzzle.n_cells // 6)
    if not 2 <= size <= MAX_SIZE or 6 * size * size != puzzle.n_cells:
        return None
    moves = len(puzzle.moves)
    if moves == 3 * size or (moves == 3 * size - 3 and size % 2):
        return PluginRecord(CubeGeometry.name, {"size": size, "centre_slices": moves == 3 * size})
    return None

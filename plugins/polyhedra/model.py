"""A polyhedron puzzle from its data: the description, the move names, and the :class:`Puzzle` it makes.

The plugin record's data is ``{"description": "d f 0.7"}`` plus, when the
designer renamed moves, ``"names": {"generated name": "chosen name"}``, and
when it repainted, ``"palette": {"label": "#rrggbb"}`` (colours of face labels
or new labels) and ``"paint": {"sticker": "label"}`` (stickers that do not show
their face's label). Everything else (stickers, pieces, permutations) is recomputed from it.

An imported puzzle drawn by this plugin (see :mod:`.recognise`) keeps its own
cells and moves; its data adds ``"cells"`` (the sticker showing each cell) and
``"moves"`` (each move as a block turn ``[kind, axis, first layer, last layer,
steps]``), from which its permutations are rebuilt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from typing import Any

import numpy as np

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.errors import PuzzleError

from .cutting import Cutting
from .description import Description, DescriptionError, parse
from .recognise import relabelled_moves
from .turns import Grip, grips

PLUGIN = "polyhedra"

PALETTES = {
    "cube": ("#ffffff", "#009b48", "#b71234", "#0046ad", "#ff5800", "#ffd500"),
    "tetrahedron": ("#00a651", "#0046ad", "#d7282f", "#ffd500"),
    "octahedron": ("#ffffff", "#d7282f", "#00a651", "#8a2be2", "#ffd500", "#ff7f00", "#0046ad", "#9c9c9c"),
    "dodecahedron": ("#ffffff", "#00a651", "#d7282f", "#ffd500", "#7f3fbf", "#0046ad", "#ff9ecf", "#b8e986",
                     "#ff7f00", "#4fc3f7", "#fff59d", "#9c9c9c"),
}
ICOSAHEDRON_COLOURS = ("#ffffff", "#d7282f", "#00a651", "#0046ad", "#ffd500", "#ff7f00", "#7f3fbf", "#ff9ecf",
                       "#b8e986", "#4fc3f7", "#8b4513", "#9c9c9c", "#006064", "#fff59d", "#c62828", "#283593",
                       "#2e7d32", "#f9a825", "#ad1457", "#000000")
"""Face colours by face, in the solid's face order."""

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+[A-Za-z_][A-Za-z0-9_]*")


class Polyhedron:
    """A described, cut solid with its named grips."""

    def __init__(self, description: Description, names: Mapping[str, str] | None = None):
        self.description = description
        self.cutting = Cutting(description)
        self.renames = dict(names or {})
        self.palette_edits: dict[str, str] = {}
        self.paint: dict[int, str] = {}
        self.imported: dict[str, np.ndarray] | None = None
        """The moves of an imported puzzle drawn by this plugin (None for our own puzzles)."""
        self.cells: list[int] | None = None
        self.specs: dict[str, list[Any]] | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Polyhedron:
        """Check and read plugin data; PuzzleError names the key that is wrong."""
        if not isinstance(data, Mapping):
            raise PuzzleError(f"polyhedra data must be an object, not {type(data).__name__}")
        unknown = set(data) - {"description", "names", "palette", "paint", "cells", "moves"}
        if unknown:
            raise PuzzleError(f"polyhedra data: unknown key {sorted(unknown)[0]!r} "
                              "(known: description, names, palette, paint, cells, moves)")
        if "description" not in data:
            raise PuzzleError("polyhedra data: no description (such as \"c f 0.333333333\")")
        names = data.get("names") or {}
        if not isinstance(names, Mapping) or not all(isinstance(k, str) and isinstance(v, str)
                                                     for k, v in names.items()):
            raise PuzzleError("polyhedra data: names must map generated move names to chosen ones (text to text)")
        model = cls(parse(data["description"]), names)
        model._repaint(data.get("palette") or {}, data.get("paint") or {})
        if "cells" in data or "moves" in data:
            model._adopt(data.get("cells"), data.get("moves"))
        return model

    def _repaint(self, palette: Any, paint: Any) -> None:
        """Take the designer's colours: a palette of ``#rrggbb`` and labels painted on stickers."""
        n = len(self.cutting.stickers)
        if not isinstance(palette, Mapping) or not all(
                isinstance(k, str) and isinstance(v, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", v)
                for k, v in palette.items()):
            raise PuzzleError("polyhedra data: palette must map colour labels to #rrggbb")
        if not isinstance(paint, Mapping) or not all(
                isinstance(k, str) and k.isdigit() and int(k) < n and isinstance(v, str) and v
                for k, v in paint.items()):
            raise PuzzleError(f"polyhedra data: paint must map sticker numbers 0..{n - 1} (as text) to labels")
        self.palette_edits = dict(palette)
        self.paint = {int(k): v for k, v in paint.items()}

    def _adopt(self, cells: Any, specs: Any) -> None:
        """Take an imported puzzle's cell map and block turns, checked against the stickers."""
        n = len(self.cutting.stickers)
        if (not isinstance(cells, list) or not all(isinstance(c, int) and 0 <= c < n for c in cells)
                or len(set(cells)) != len(cells)):
            raise PuzzleError(f"polyhedra data: cells must list distinct stickers 0..{n - 1}, one per cell")
        if not isinstance(specs, Mapping) or not specs:
            raise PuzzleError("polyhedra data: moves must map each move to [kind, axis, first, last, steps]")
        try:
            self.imported = relabelled_moves(self.cutting, cells, specs)
        except (ValueError, TypeError) as exc:
            raise PuzzleError(f"polyhedra data: moves: {exc}") from None
        self.cells = list(cells)
        self.specs = {name: list(spec) for name, spec in specs.items()}

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"description": self.description.text()}
        if self.renames:
            data["names"] = dict(self.renames)
        if self.palette_edits:
            data["palette"] = dict(self.palette_edits)
        if self.paint:
            data["paint"] = {str(k): v for k, v in sorted(self.paint.items())}
        if self.imported is not None:
            data["cells"], data["moves"] = list(self.cells), {k: list(v) for k, v in self.specs.items()}
        return data

    @cached_property
    def grips(self) -> list[Grip]:
        found = grips(self.cutting)
        if not found:
            raise DescriptionError(f"polyhedra description {self.description.text()!r} has no turning layer: "
                                   "add a cut")
        return found

    @cached_property
    def move_names(self) -> list[str]:
        """The name of every grip's move, after the designer's renames (checked: words, all different)."""
        generated = [g.name for g in self.grips]
        stray = sorted(set(self.renames) - set(generated))
        if stray:
            raise PuzzleError(f"polyhedra data: names renames {stray[0]!r}, which is not a move "
                              f"(the moves are {', '.join(generated)})")
        out = [self.renames.get(n, n) for n in generated]
        for name in out:
            if not NAME.fullmatch(name):
                raise PuzzleError(f"polyhedra data: move name {name!r} is not a word (letters, digits, _)")
        if len(set(out)) != len(out):
            twice = next(n for n in out if out.count(n) > 1)
            raise PuzzleError(f"polyhedra data: two moves are named {twice!r}")
        return out

    def moves(self) -> dict[str, np.ndarray]:
        if self.imported is not None:
            return dict(self.imported)
        return dict(zip(self.move_names, (g.perm for g in self.grips)))

    def aliases(self) -> dict[str, str]:
        """Wide turns: ``Uw`` turns layers 1-2 from U (a pyraminx's big U), ``3Uw`` layers 1-3, where all are moves."""
        names = dict(zip(((g.kind, g.axis, g.layer) for g in self.grips), self.move_names))
        shape = self.cutting.solid
        out: dict[str, str] = {}
        for (kind, axis, layer), _name in names.items():
            if layer != 1:
                continue
            end = {"f": shape.face_names, "v": shape.vertex_names, "e": shape.edge_names}[kind][axis]
            k = 2
            while (kind, axis, k) in names:
                alias = f"{end}w" if k == 2 else f"{k}{end}w"
                if alias not in self.move_names:
                    out[alias] = " ".join(names[(kind, axis, j)] for j in range(1, k + 1))
                k += 1
        return out

    @property
    def colours(self) -> list[str]:
        """The face name of every sticker: the solved colouring."""
        names = self.cutting.solid.face_names
        return [self.paint.get(i, names[s.face]) for i, s in enumerate(self.cutting.stickers)]

    @property
    def face_palette(self) -> dict[str, str]:
        """The default colour of every face label."""
        shape = self.cutting.solid
        return dict(zip(shape.face_names, PALETTES.get(shape.name, ICOSAHEDRON_COLOURS)))

    @property
    def palette(self) -> dict[str, str]:
        """Face colours with the designer's edits."""
        return {**self.face_palette, **self.palette_edits}

    def puzzle(self, name: str = "", description: str = "") -> Puzzle:
        text = self.description.text()
        return Puzzle(self.colours, self.moves(), name=name or f"{self.description.solid_name} {text}",
                      description=description or f"{self.description.solid_name} cut as {text!r} "
                      f"({len(self.cutting.stickers)} stickers, {len(self.cutting.pieces)} pieces)",
                      aliases=self.aliases(), palette=self.palette, plugin=PluginRecord(PLUGIN, self.to_data()))

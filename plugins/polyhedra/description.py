"""The PuzzleGeometry description language: a shape letter, then cuts ``f|v|e <distance>``.

``c f 0.333333333`` is the 3x3x3 (a cube cut by planes parallel to its faces
at a third of the way from the centre), ``d f 0.7`` the megaminx, ``t v
0.333333333 v 1.66666666666667`` the pyraminx. Distances are measured from the
centre of a solid whose faces lie at distance 1; a ``v`` or ``e`` cut is
perpendicular to the line from the centre to a corner or to an edge's midpoint.
"""

from __future__ import annotations

from dataclasses import dataclass

from hlavolamy.errors import PuzzleError

from .solids import SHAPES

CUT_KINDS = {"f": "face", "v": "vertex", "e": "edge"}


class DescriptionError(PuzzleError):
    """A description that does not parse, or names a cut that cuts nothing."""


@dataclass(frozen=True)
class Cut:
    """Planes perpendicular to every face (``f``), corner (``v``) or edge (``e``) axis at ``depth`` from the centre."""

    kind: str
    depth: float

    def text(self) -> str:
        return f"{self.kind} {self.depth:.15g}"


@dataclass(frozen=True)
class Description:
    """A solid and its cuts."""

    shape: str
    cuts: tuple[Cut, ...]

    @property
    def solid_name(self) -> str:
        return SHAPES[self.shape]

    def text(self) -> str:
        return " ".join([self.shape, *(c.text() for c in self.cuts)])


def parse(text: str) -> Description:
    """Read a description; the error names the word that is wrong and its position."""
    if not isinstance(text, str):
        raise DescriptionError(f"polyhedra description must be text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise DescriptionError("polyhedra description is empty; it starts with a shape: c, t, d, o or i")
    shape = _shape(words[0])
    if len(words) % 2 == 0:
        raise DescriptionError(f"polyhedra description {text!r}: cut {words[-1]!r} has no distance")
    cuts = []
    for i in range(1, len(words), 2):
        kind, value = words[i], words[i + 1]
        if kind not in CUT_KINDS:
            raise DescriptionError(f"polyhedra description {text!r}: word {i + 1} {kind!r} is not a cut "
                                   f"(f, v or e)")
        try:
            depth = float(value)
        except ValueError:
            raise DescriptionError(f"polyhedra description {text!r}: word {i + 2} {value!r} is not a number") from None
        if depth != depth or abs(depth) == float("inf"):
            raise DescriptionError(f"polyhedra description {text!r}: word {i + 2} {value!r} is not a finite number")
        cuts.append(Cut(kind, depth))
    return Description(shape, tuple(cuts))


def _shape(word: str) -> str:
    """A shape letter, or the solid's full name."""
    by_name = {name: letter for letter, name in SHAPES.items()}
    if word in SHAPES:
        return word
    if word in by_name:
        return by_name[word]
    raise DescriptionError(f"polyhedra description: {word!r} is not a shape (c, t, d, o, i: cube, tetrahedron, "
                           f"dodecahedron, octahedron, icosahedron)")

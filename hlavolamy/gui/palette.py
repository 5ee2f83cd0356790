"""Screen colours for a puzzle's colour labels.

Labels are any strings. A label the puzzle's palette maps to ``#rrggbb`` gets
that; a label that is a colour name Qt knows ("red", "#f80") is itself; the
rest get well-spread hues in order of appearance, so every puzzle is readable.
"""

from __future__ import annotations

from PyQt6.QtGui import QColor

from hlavolamy.core.puzzle import Puzzle

# Common one-letter cube labels, so a plain file with U/R/F... or W/Y/R... still looks like a cube.
_LETTERS = {
    "W": "#f5f5f5", "Y": "#ffd500", "R": "#c41e3a", "O": "#ff5800", "G": "#009e60", "B": "#0051ba",
}
_GOLDEN = 0.618033988749895


def spread_colour(index: int) -> QColor:
    """The ``index``-th of a sequence of hues that stay distinguishable."""
    hue = (index * _GOLDEN) % 1.0
    lightness = 0.5 if index % 2 == 0 else 0.62
    return QColor.fromHslF(hue, 0.7, lightness)


def label_colour(puzzle: Puzzle, label: str, index: int) -> QColor:
    """The colour used for ``label`` (the ``index``-th label of ``puzzle``)."""
    if label in puzzle.palette and QColor(puzzle.palette[label]).isValid():
        return QColor(puzzle.palette[label])
    if label in _LETTERS:
        return QColor(_LETTERS[label])
    if len(label) > 1 and QColor.isValidColorName(label):
        return QColor(label)
    return spread_colour(index)


def colour_map(puzzle: Puzzle) -> dict[str, str]:
    """Every label of ``puzzle`` -> ``#rrggbb``, for :class:`DrawOptions.colours`."""
    return {label: label_colour(puzzle, label, i).name() for i, label in enumerate(puzzle.colour_labels)}

"""Named puzzles: their PuzzleGeometry descriptions, as published in cubing.js's table of puzzles."""

from __future__ import annotations

PRESETS: dict[str, tuple[str, str]] = {
    "2x2x2": ("2x2x2 cube", "c f 0"),
    "3x3x3": ("3x3x3 cube", "c f 0.333333333333333"),
    "4x4x4": ("4x4x4 cube", "c f 0.5 f 0"),
    "megaminx": ("Megaminx", "d f 0.7"),
    "gigaminx": ("Gigaminx", "d f 0.64 f 0.82"),
    "pentultimate": ("Pentultimate", "d f 0"),
    "pyraminx": ("Pyraminx", "t v 0.333333333333333 v 1.66666666666667"),
    "tetraminx": ("Tetraminx", "t v 0.333333333333333"),
    "master-pyraminx": ("Master pyraminx", "t v 0 v 1 v 2"),
    "pyramorphix": ("Pyramorphix", "t e 0"),
    "skewb": ("Skewb", "c v 0"),
    "dino": ("Dino cube", "c v 0.577350269189626"),
    "helicopter": ("Helicopter cube (half turns)", "c e 0.707106781186547"),
    "fto": ("Face-turning octahedron", "o f 0.333333333333333"),
    "skewb-diamond": ("Skewb diamond", "o f 0"),
    "icosamate": ("Icosamate", "i v 0"),
    "radio-chop": ("Radio chop", "i f 0"),
}
"""Preset name -> (title, description)."""

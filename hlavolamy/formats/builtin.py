"""The built-in formats plugin: every format that ships, through the hook a third-party plugin implements.

:mod:`hlavolamy.formats` loads it when imported, exactly as the plugin host
feeds it a plugin's formats (:func:`~hlavolamy.formats.add_plugin`), so the
built-in formats come first and keep their names. ``load``/``dump`` name a
module of :mod:`hlavolamy.formats` and a function in it, imported on first use.
"""

from __future__ import annotations

from hlavolamy.formats import Format, Option, hookimpl

_ROTATIONS = Option("rotations", "also read whole-puzzle rotations (x, y, z, Uv...) as moves", bool)


@hookimpl
def hlavolamy_formats() -> list[Format]:
    """The built-in formats, in menu order."""
    return [
        Format("kpuzzle", "cubing.js KPuzzle definition (JSON): orbits of pieces with orientation",
               (".kpuzzle.json", ".kpuzzle"), "kpuzzle:load", "kpuzzle:dump", (_ROTATIONS,)),
        Format("ksolve", "ksolve / twsearch puzzle definition (Set, Solved, Move blocks)",
               (".tws", ".def", ".ksolve"), "ksolve:load", "ksolve:dump", (_ROTATIONS,)),
        Format("gap", "GAP permutation group: generators in cycle notation", (".g", ".gap"), "gap:load", "gap:dump"),
        Format("santa-info", "Santa 2023 puzzle_info.csv: one puzzle type's moves", (), "santacsv:load_info",
               "santacsv:dump_info",
               (Option("type", "puzzle type, e.g. cube_3/3/3 (needed when the file has several)"),
                Option("puzzles", "puzzles.csv to take the solved colours from", "path"))),
        Format("santa", "Santa 2023 case from puzzles.csv (import); the solution as a submission.csv row (export)",
               (), "santacsv:load_case", "santacsv:dump_submission",
               (Option("id", "the case's id"), Option("info", "the puzzle_info.csv with its moves", "path")),
               whole_file=True),
        Format("sign", "a move sequence in SiGN cube notation (R U' Rw 2R x) for a cube puzzle",
               (".sign", ".txt"), "sign:load_file", "sign:dump_file",
               (Option("puzzle", "the cube puzzle file the sequence is played on", "path"),), whole_file=True),
    ]

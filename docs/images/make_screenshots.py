"""Regenerate the user guide's screenshots with the real app (offscreen).

    python docs/images/make_screenshots.py

Finished puzzles are shot with ``hlavolamy gui PUZZLE --screenshot``; the
design walk-through drives the real main window with the same mouse gestures
a person makes (the Designer tools), then grabs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SIZE = "1200x800"

SHOTS = {  # file -> hlavolamy gui arguments
    "play-rashkey.png": ["puzzles/rashkey.json", "--scramble", "12", "--seed", "2", "--solved"],
    "rashkey-colouring.png": ["puzzles/rashkey.json", "--tab", "colouring"],
    "rashkey-moves.png": ["puzzles/rashkey.json", "--tab", "moves"],
    "rashkey-analysis.png": ["puzzles/rashkey.json", "--side", "analysis", "--analyse", "--numbers",
                             "--orbit", "3"],
    "rashkey-solve.png": ["puzzles/rashkey.json", "--side", "solve", "--scramble", "20", "--seed", "5", "--solve",
                          "--steps", "6"],
    "cube-play.png": ["puzzles/rubik3.json", "--play", "R U R' U' F2 D", "--solved"],
    "cube-solve.png": ["puzzles/rubik3.json", "--side", "solve", "--scramble", "25", "--seed", "1", "--solve"],
    "cube-fields.png": ["puzzles/rubik4.json", "--tab", "fields"],
}


POLYHEDRA_SHOTS = {  # file -> (hlavolamy new polyhedra arguments, hlavolamy gui arguments)
    "polyhedra-cube.png": (["--preset", "3x3x3"], ["--play", "R U F' L D2", "--solved"]),
    "polyhedra-pyraminx.png": (["--preset", "pyraminx"], ["--scramble", "10", "--seed", "3", "--solved"]),
    "polyhedra-fto.png": (["--preset", "fto"], ["--scramble", "12", "--seed", "4", "--solved"]),
    "polyhedra-megaminx.png": (["--preset", "megaminx"], ["--scramble", "12", "--seed", "2", "--solved"]),
    "polyhedra-icosahedron.png": (["--description", "i f 0"], ["--scramble", "8", "--seed", "1", "--solved"]),
    "polyhedra-analysis.png": (["--preset", "master-pyraminx"], ["--side", "analysis", "--analyse", "--orbit", "2"]),
    "polyhedra-designer.png": (["--description", "d f 0.7 v 0.93"], ["--tab", "fields"]),
}
"""The polyhedra plugin's pages: a puzzle made with ``hlavolamy new polyhedra`` (into a temporary folder), then shot."""


def shoot_polyhedra(name: str, new_args: list[str], gui_args: list[str]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "puzzle.json")
        subprocess.run([sys.executable, "-m", "hlavolamy.cli", "new", "polyhedra", *new_args, "-o", path],
                       cwd=REPO, check=True)
        shoot(name, [path, *gui_args])


def shoot(name: str, args: list[str]) -> None:
    command = [sys.executable, "-m", "hlavolamy.cli", "gui", *args, "--size", SIZE, "--screenshot", str(HERE / name)]
    subprocess.run(command, cwd=REPO, check=True)


def design_walkthrough() -> None:
    """New → Circles (empty) → two turning circles → quarter turns → Complete cuts → first colours."""
    from PyQt6.QtCore import QEvent, QPoint, QSettings, Qt
    from PyQt6.QtTest import QTest

    from hlavolamy.gui.app import application
    from hlavolamy.gui.window import MainWindow
    from hlavolamy.plugins.manager import get_plugin_host

    app = application()
    window = MainWindow(QSettings(str(HERE / ".screenshots.ini"), QSettings.Format.IniFormat))
    window.resize(1200, 800)
    window.show()
    window.document.new_design(get_plugin_host().geometry("circles"))
    window.tabs.setCurrentWidget(window.fields_tab)

    def at(panel, x: float, y: float) -> QPoint:
        panel.canvas.grab()
        return panel.canvas.designer.frame.to_widget(x, y).toPoint()

    def gesture(panel, tool: str, start: tuple[float, float], end: tuple[float, float] | None = None) -> None:
        panel.select_tool(tool)
        QTest.mousePress(panel.canvas, Qt.MouseButton.LeftButton, pos=at(panel, *start))
        QTest.mouseMove(panel.canvas, at(panel, *(end or start)))
        QTest.mouseRelease(panel.canvas, Qt.MouseButton.LeftButton, pos=at(panel, *(end or start)))
        app.sendEvent(panel.canvas, QEvent(QEvent.Type.Leave))  # the mouse leaves: no hover highlight

    def save(name: str) -> None:
        app.processEvents()
        window.grab().save(str(HERE / name))

    fields = window.fields_tab.design
    gesture(fields, "turn", (0, 0), (4, 0))
    gesture(fields, "turn", (4, 0), (8, 0))
    save("design-1-circles.png")

    moves = window.moves_tab
    window.tabs.setCurrentWidget(moves)
    for inside in ((-2, 0), (6, 0)):
        gesture(moves.design, "pick-circle", inside)
        moves.steps.setValue(4)
        moves.apply_circle_move()
    window.tabs.setCurrentWidget(window.fields_tab)
    fields.select_tool("complete")  # an instant tool: the button itself adds the cuts
    save("design-2-cuts.png")

    colouring = window.colouring_tab
    window.tabs.setCurrentWidget(colouring)
    colouring.palette_list.setCurrentRow(list(colouring.palette).index("white"))
    gesture(colouring.design, "paint", (2, 0.5))
    colouring.palette_list.setCurrentRow(list(colouring.palette).index("red"))
    gesture(colouring.design, "paint", (-3.5, 0))
    save("design-3-paint.png")
    window.document.undo_stack.setClean()
    window.close()
    (HERE / ".screenshots.ini").unlink(missing_ok=True)


if __name__ == "__main__":
    only = set(sys.argv[1:])
    for file, arguments in SHOTS.items():
        if not only or file in only:
            shoot(file, arguments)
    for file, (new_args, gui_args) in POLYHEDRA_SHOTS.items():
        if not only or file in only or "polyhedra" in only:
            shoot_polyhedra(file, new_args, gui_args)
    if not only or "design" in only:
        design_walkthrough()

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
import tempfile
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
    "jumble-play-blocked.png": ["puzzles/four-disks-45.json", "--play", "A"],
    "jumble-gears57.png": ["puzzles/gears57.json", "--scramble", "6", "--seed", "3", "--solved"],
}


SANTA = next((folder / "shared" / "bench" / "santa2023" for folder in REPO.parents
              if (folder / "shared" / "bench" / "santa2023" / "puzzles.csv").exists()), None)
"""The Santa 2023 data (not in the repository): its shots are skipped where it is absent."""


def santa_case(case: str) -> list[str]:
    return ["import", "santa", str(SANTA / "puzzles.csv"), "--id", case, "--info", str(SANTA / "puzzle_info.csv")]


MADE = {  # file -> (hlavolamy command that writes the puzzle, gui arguments): puzzles made on the spot
    "globe-play.png": (["new", "globe", "--rows", "4", "--columns", "8"], ["--scramble", "5", "--seed", "4"]),
    "wreath-play.png": (["new", "wreath", "--size", "12"], ["--scramble", "6", "--seed", "2", "--numbers"]),
    "generic-fto.png": (["import", "ksolve", "tests/data/FTO.tws"], ["--scramble", "8", "--seed", "1"]),
}
if SANTA is not None:
    MADE["santa-globe_8_25.png"] = (santa_case("396"), ["--solved"])
    MADE["santa-wreath_100.png"] = (santa_case("337"), ["--solved"])
POLYHEDRON = ["new", "polyhedra"]
MADE.update({  # the polyhedra plugin's page
    "polyhedra-cube.png": ([*POLYHEDRON, "--preset", "3x3x3"], ["--play", "R U F' L D2", "--solved"]),
    "polyhedra-pyraminx.png": ([*POLYHEDRON, "--preset", "pyraminx"], ["--scramble", "10", "--seed", "3", "--solved"]),
    "polyhedra-fto.png": ([*POLYHEDRON, "--preset", "fto"], ["--scramble", "12", "--seed", "4", "--solved"]),
    "polyhedra-megaminx.png": ([*POLYHEDRON, "--preset", "megaminx"], ["--scramble", "12", "--seed", "2", "--solved"]),
    "polyhedra-icosahedron.png": ([*POLYHEDRON, "--description", "i f 0"],
                                  ["--scramble", "8", "--seed", "1", "--solved"]),
    "polyhedra-analysis.png": ([*POLYHEDRON, "--preset", "master-pyraminx"],
                               ["--side", "analysis", "--analyse", "--orbit", "2"]),
    "polyhedra-designer.png": ([*POLYHEDRON, "--description", "d f 0.7 v 0.93"], ["--tab", "fields"]),
    "polyhedra-import.png": (["import", "ksolve", "tests/data/twsearch/pyraminx.tws"],
                             ["--scramble", "8", "--seed", "2", "--solved"]),
})


def shoot(name: str, args: list[str]) -> None:
    command = [sys.executable, "-m", "hlavolamy.cli", "gui", *args, "--size", SIZE, "--screenshot", str(HERE / name)]
    subprocess.run(command, cwd=REPO, check=True)


def make_and_shoot(name: str, make: list[str], args: list[str]) -> None:
    """Write the puzzle with ``hlavolamy MAKE -o`` into a temporary folder, then shoot it."""
    with tempfile.TemporaryDirectory() as folder:
        puzzle = str(Path(folder) / "puzzle.json")
        subprocess.run([sys.executable, "-m", "hlavolamy.cli", *make, "-o", puzzle], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
        shoot(name, [puzzle, *args])


class _Walk:
    """The real main window with a fresh circles design, driven by mouse gestures as a person makes them."""

    def __init__(self) -> None:
        from PyQt6.QtCore import QSettings

        from hlavolamy.gui.app import application
        from hlavolamy.gui.window import MainWindow
        from hlavolamy.plugins.manager import get_plugin_host

        self.app = application()
        self.window = MainWindow(QSettings(str(HERE / ".screenshots.ini"), QSettings.Format.IniFormat))
        self.window.resize(1200, 800)
        self.window.show()
        self.window.document.new_design(get_plugin_host().geometry("circles"))
        self.window.tabs.setCurrentWidget(self.window.fields_tab)

    def at(self, panel, x: float, y: float):
        panel.canvas.grab()
        return panel.canvas.designer.frame.to_widget(x, y).toPoint()

    def gesture(self, panel, tool: str, start: tuple[float, float], end: tuple[float, float] | None = None) -> None:
        from PyQt6.QtCore import QEvent, Qt
        from PyQt6.QtTest import QTest

        panel.select_tool(tool)
        QTest.mousePress(panel.canvas, Qt.MouseButton.LeftButton, pos=self.at(panel, *start))
        QTest.mouseMove(panel.canvas, self.at(panel, *(end or start)))
        QTest.mouseRelease(panel.canvas, Qt.MouseButton.LeftButton, pos=self.at(panel, *(end or start)))
        self.app.sendEvent(panel.canvas, QEvent(QEvent.Type.Leave))  # the mouse leaves: no hover highlight

    def save(self, name: str) -> None:
        from PyQt6.QtCore import QEventLoop

        while self.window.tasks.busy:  # a jumbling design's closure runs in the background: picture its end
            self.app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        self.app.processEvents()
        self.window.grab().save(str(HERE / name))

    def close(self) -> None:
        self.window.document.undo_stack.setClean()
        self.window.close()
        (HERE / ".screenshots.ini").unlink(missing_ok=True)


def design_walkthrough() -> None:
    """New → Circles (empty) → two turning circles → quarter turns → Complete cuts → first colours."""
    walk = _Walk()
    window = walk.window
    fields = window.fields_tab.design
    walk.gesture(fields, "turn", (0, 0), (4, 0))
    walk.gesture(fields, "turn", (4, 0), (8, 0))
    walk.save("design-1-circles.png")

    moves = window.moves_tab
    window.tabs.setCurrentWidget(moves)
    for inside in ((-2, 0), (6, 0)):
        walk.gesture(moves.design, "pick-circle", inside)
        moves.steps.setValue(4)
        moves.apply_circle_move()
    window.tabs.setCurrentWidget(window.fields_tab)
    fields.select_tool("complete")  # an instant tool: the button itself adds the cuts
    walk.save("design-2-cuts.png")

    colouring = window.colouring_tab
    window.tabs.setCurrentWidget(colouring)
    colouring.palette_list.setCurrentRow(list(colouring.palette).index("white"))
    walk.gesture(colouring.design, "paint", (2, 0.5))
    colouring.palette_list.setCurrentRow(list(colouring.palette).index("red"))
    walk.gesture(colouring.design, "paint", (-3.5, 0))
    walk.save("design-3-paint.png")
    walk.close()


def jumble_walkthrough() -> None:
    """Two turning circles of radius 3, four apart: at 72° the jumbling closure closes; at 30° it does not."""
    walk = _Walk()
    window = walk.window

    def angle(text: str) -> None:
        moves = window.moves_tab
        window.tabs.setCurrentWidget(moves)
        for inside in ((-2, 0), (6, 0)):
            walk.gesture(moves.design, "pick-circle", inside)
            moves.angle.setText(text)
            moves.apply_circle_move()
        window.tabs.setCurrentWidget(window.fields_tab)

    fields = window.fields_tab.design
    walk.gesture(fields, "turn", (0, 0), (3, 0))
    walk.gesture(fields, "turn", (4, 0), (7, 0))
    angle("72")
    fields.select_tool("jumble")  # an instant tool: off -> every turn cuts
    walk.save("jumble-design-closes.png")
    angle("360/12")
    walk.save("jumble-fractal.png")
    walk.close()


if __name__ == "__main__":
    only = set(sys.argv[1:])
    for file, arguments in SHOTS.items():
        if not only or file in only:
            shoot(file, arguments)
    for file, (make, arguments) in MADE.items():
        if not only or file in only:
            make_and_shoot(file, make, arguments)
    if not only or "design" in only:
        design_walkthrough()
    if not only or "jumble" in only:
        jumble_walkthrough()

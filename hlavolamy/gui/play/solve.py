"""Side-panel page "Solve": seeded scrambles, random positions, the solver, and stepping through its answer."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np
from PyQt6.QtCore import QTimer, pyqtSignal
from PyQt6.QtWidgets import (
    QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
    QSpinBox, QStyle, QVBoxLayout, QWidget,
)

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn, invert
from hlavolamy.errors import Cancelled

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow
    from hlavolamy.plugins.manager import PluginHost

MODES = (
    ("whole", "Whole puzzle", "Solve every cell"),
    ("orbit-keep", "One orbit, keep the others", "Solve the chosen orbit without disturbing the rest"),
    ("orbit-only", "One orbit alone", "Solve the chosen orbit; other orbits may be scrambled"),
)
STEP_INTERVAL_MS = 300
RANDOM_WALK = 1000
SYNC_SCRAMBLE_MOVES = 2000
"""Scrambles up to this many moves run at once (a few tens of ms); longer ones in the background."""
SHOWN_SCRAMBLE_MOVES = 60
"""The status bar shows at most this many turns of a scramble."""
"""Turns of the random walk used when the group is too big for exact uniform sampling."""


def solver_strategies(host: PluginHost) -> tuple[str, ...]:
    """The strategies the solver offers (``auto`` first): asked of the loaded plugin host, so a plugin's are there."""
    return tuple(record.name for record in host.strategies())


def random_position(puzzle: Puzzle, seed: int, cancel: CancelToken | None = None) -> tuple[State, str]:
    """A random reachable position and how it was drawn.

    Uniform when the analysis has a stabiliser chain for the group (small
    enough puzzles): one uniformly chosen coset representative per level of
    the chain, multiplied deepest level first, hits every group element with
    the same probability. Otherwise (a group too big for the chain, or a
    bandaged puzzle whose positions are no group) a long random walk of legal
    turns, close to uniform but not exactly; the returned text says which.
    """
    from hlavolamy.analysis.membership import whole_group
    from hlavolamy.core.scramble import random_scramble

    rng = random.Random(seed)
    chain = None if puzzle.blockings else whole_group(puzzle)
    if cancel is not None:
        cancel.check()
    if chain is None:
        why = "blockings: the positions are not a group" if puzzle.blockings else "the group is too big to sample exactly"
        turns = random_scramble(puzzle, RANDOM_WALK, rng)
        return State.solved(puzzle).apply(turns), f"a random walk of {RANDOM_WALK} legal turns ({why})"
    cells = np.asarray(chain.cells, dtype=np.int64)
    perm = np.arange(puzzle.n_cells)
    perm[cells] = cells[chain.element(rng.choice)]
    return State(puzzle, perm), f"uniform over all {chain.order:,} positions"


class SolutionPlayer:
    """A solution and the positions along it, so stepping knows where it is."""

    def __init__(self, start: State, turns: list[Turn]):
        self.turns = turns
        self.states = [start]
        for t in turns:
            self.states.append(self.states[-1].apply(t, check_legal=False))
        self.index = 0

    def locate(self, state: State | None) -> bool:
        """Find the current position on the path (after undo/redo); False when it left the path."""
        if state is None:
            return False
        if np.array_equal(self.states[self.index].perm, state.perm):
            return True
        for k, s in enumerate(self.states):
            if np.array_equal(s.perm, state.perm):
                self.index = k
                return True
        return False


def advice(message: str) -> str:
    """What to try after a solve ended without an answer, from the reason given."""
    text = message.lower()
    if "unreachable" in text or "not in the group" in text or "not a position" in text:
        return ("The position cannot be reached with the puzzle's moves: undo back to a reachable position, "
                "or check the colours painted.")
    if "time limit" in text:
        return ("Try a longer time limit (or none), or strategy auto, which answers first by its cheapest "
                "route; tables built so far are kept, so a second try starts further on.")
    if "cancelled" in text:
        return ("Solve again; with strategy auto a first answer usually comes within seconds, and "
                "\"Use this answer\" takes the best one found while the search goes on.")
    return "Try strategy auto or chain, another mode, or a longer time limit."


class SolvePage(QWidget):
    """Scramble (N moves or a random position, seeded) and solve, then step or apply."""

    solved = pyqtSignal()
    """A solution arrived (the solver may have cached the puzzle's analysis on the way)."""
    improved = pyqtSignal(object, object)
    """(start state, Improvement): a better answer while a solve goes on (emitted in the solver's thread)."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        from hlavolamy.solve.registry import RaceRecords

        self.records = RaceRecords()
        """This session's race records (what ``auto`` learnt about costly rivals), owned by the page."""
        self.best: tuple[State, Any] | None = None
        """The best answer told while the running solve goes on: (start, Improvement)."""
        self.ending = ""
        """Why the running solve ended without a result ("used": the held answer was taken; else the reason)."""
        self.used_message = ""
        self.improved.connect(self._improved)
        self.player: SolutionPlayer | None = None
        self.off_path = False
        """The position is not on the player's path (a move was made beside it)."""
        self.summary = ""
        self.busy = False
        """A background job runs: Scramble, Random position and Solve wait for it."""
        self.orbits: list[list[int]] = []
        self.timer = QTimer(self)
        self.timer.setInterval(STEP_INTERVAL_MS)
        self.timer.timeout.connect(self._animate)

        # scramble
        self.scramble_moves = QSpinBox()
        self.scramble_moves.setRange(1, 100000)
        self.scramble_moves.setValue(30)
        self.scramble_moves.setToolTip("Number of random moves")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.seed.setToolTip("Same seed, same scramble")
        new_seed = QPushButton("New seed")
        new_seed.clicked.connect(lambda: self.seed.setValue(random.randrange(2**31)))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(new_seed)
        self.scramble_button = QPushButton("Scramble")
        self.scramble_button.setToolTip("Play N random moves from the solved position")
        self.scramble_button.clicked.connect(self.scramble)
        self.random_button = QPushButton("Random position")
        self.random_button.setToolTip("Jump to a uniformly random reachable position")
        self.random_button.clicked.connect(self.random_position)
        buttons = QHBoxLayout()
        buttons.addWidget(self.scramble_button)
        buttons.addWidget(self.random_button)
        scramble_group = QGroupBox("Scramble")
        form = QFormLayout(scramble_group)
        form.addRow("Moves", self.scramble_moves)
        form.addRow("Seed", seed_row)
        form.addRow(buttons)

        # solve
        self.mode = QComboBox()
        for key, label, tip in MODES:
            self.mode.addItem(label, key)
            self.mode.setItemData(self.mode.count() - 1, tip, 3)  # 3 = ToolTipRole
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.orbit = QComboBox()
        self.orbit.setToolTip("Orbits come from the analysis (Analysis page)")
        self.strategy = QComboBox()
        self.strategy.addItems(solver_strategies(app.plugins))
        self.strategy.setToolTip("Solver strategy; auto picks one for the puzzle")
        self.time_limit = QDoubleSpinBox()
        self.time_limit.setRange(0, 3600)
        self.time_limit.setValue(30)
        self.time_limit.setSuffix(" s")
        self.time_limit.setSpecialValueText("none")
        self.solve_button = QPushButton("Solve")
        self.solve_button.setToolTip("Find a sequence that solves the current position (in the background)")
        self.solve_button.clicked.connect(self.solve)
        self.use_button = QPushButton("Use this answer")
        self.use_button.setToolTip("Stop the search and take the best answer found so far")
        self.use_button.clicked.connect(self.use_best)
        self.use_button.setEnabled(False)
        solve_row = QHBoxLayout()
        solve_row.addWidget(self.solve_button, 1)
        solve_row.addWidget(self.use_button)
        solve_group = QGroupBox("Solve")
        solve_form = QFormLayout(solve_group)
        solve_form.addRow("Mode", self.mode)
        solve_form.addRow("Orbit", self.orbit)
        solve_form.addRow("Strategy", self.strategy)
        solve_form.addRow("Time limit", self.time_limit)
        solve_form.addRow(solve_row)

        # solution
        self.solution_text = QPlainTextEdit()
        self.solution_text.setReadOnly(True)
        self.solution_text.setPlaceholderText("The solution appears here")
        self.solution_info = QLabel()
        self.solution_info.setWordWrap(True)
        style = self.style()
        icons = QStyle.StandardPixmap
        self.first_button = QPushButton(style.standardIcon(icons.SP_MediaSkipBackward), "")
        self.back_button = QPushButton(style.standardIcon(icons.SP_MediaSeekBackward), "")
        self.forward_button = QPushButton(style.standardIcon(icons.SP_MediaSeekForward), "")
        self.last_button = QPushButton(style.standardIcon(icons.SP_MediaSkipForward), "")
        self.animate_button = QPushButton("Play")
        self.apply_button = QPushButton("Apply all")
        for button, tip, slot in (
            (self.first_button, "Back to the start of the solution", self.step_first),
            (self.back_button, "One turn back", self.step_back),
            (self.forward_button, "One turn forward", self.step_forward),
            (self.last_button, "To the end of the solution", self.step_last),
            (self.animate_button, "Play the rest of the solution turn by turn", self.toggle_animation),
            (self.apply_button, "Apply the rest of the solution at once", self.apply_all),
        ):
            button.setToolTip(tip)
            button.clicked.connect(slot)
        steps = QHBoxLayout()
        for button in (self.first_button, self.back_button, self.forward_button, self.last_button):
            steps.addWidget(button)
        steps.addWidget(self.animate_button)
        steps.addWidget(self.apply_button)
        solution_group = QGroupBox("Solution")
        solution_layout = QVBoxLayout(solution_group)
        solution_layout.addWidget(self.solution_text, 1)
        solution_layout.addWidget(self.solution_info)
        solution_layout.addLayout(steps)

        layout = QVBoxLayout(self)
        layout.addWidget(scramble_group)
        layout.addWidget(solve_group)
        layout.addWidget(solution_group, 1)
        self._mode_changed()
        self._update_steps()

    # -- document and analysis updates ---------------------------------------
    def puzzle_changed(self) -> None:
        self.stop_animation()
        self.player = None
        self.off_path = False
        self.orbits = []
        self.orbit.clear()
        self.solution_text.clear()
        self.solution_info.clear()
        self._mode_changed()
        self._update_steps()

    def set_orbits(self, orbits: list[list[int]]) -> None:
        """Orbits from the analysis, for the orbit modes."""
        self.orbits = orbits
        self.orbit.clear()
        for k, cells in enumerate(orbits):
            preview = ", ".join(map(str, cells[:6])) + (", …" if len(cells) > 6 else "")
            self.orbit.addItem(f"{k}: {len(cells)} cells ({preview})", k)
        self._mode_changed()

    def state_changed(self) -> None:
        """Follow the position along the solution; off its path, stepping pauses until undo returns."""
        if self.player is not None:
            self.off_path = not self.player.locate(self.app.document.state)
            if self.off_path:
                self.stop_animation()
                self.solution_info.setText("The position left this solution's path: undo back onto it, "
                                           "or solve again.")
        self._update_steps()

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.scramble_button.setEnabled(not busy)
        self.random_button.setEnabled(not busy)
        self._mode_changed()

    def _mode_changed(self) -> None:
        needs_orbit = self.mode.currentData() != "whole"
        self.orbit.setEnabled(needs_orbit and bool(self.orbits))
        self.solve_button.setEnabled(not self.busy and (not needs_orbit or bool(self.orbits)))
        self.solve_button.setToolTip("Analyse the puzzle first to choose an orbit" if needs_orbit and not self.orbits
                                     else "Find a sequence that solves the current position (in the background)")

    def _update_steps(self) -> None:
        p = None if self.off_path else self.player
        at_start = p is None or p.index == 0
        at_end = p is None or p.index == len(p.turns)
        for button in (self.first_button, self.back_button):
            button.setEnabled(not at_start)
        for button in (self.forward_button, self.last_button, self.animate_button, self.apply_button):
            button.setEnabled(not at_end or (button is self.animate_button and self.timer.isActive()))
        if p is not None:
            puzzle = p.states[0].puzzle
            done = puzzle.format(p.turns[:p.index])
            rest = puzzle.format(p.turns[p.index:])
            self.solution_text.setPlainText(f"{done}  ▌  {rest}".strip() if p.index else rest)
            self.solution_text.setToolTip(f"Step {p.index} of {len(p.turns)}")
            self.solution_info.setText(f"Turn {p.index} of {len(p.turns)} · {self.summary}")

    # -- scramble --------------------------------------------------------------
    def scramble(self) -> None:
        from hlavolamy.core.scramble import random_scramble

        puzzle = self.app.document.puzzle
        if puzzle is None:
            return
        n, seed = self.scramble_moves.value(), self.seed.value()

        def scrambled(progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> tuple[State, list[Turn]]:
            turns = list(random_scramble(puzzle, n, seed))
            return State.solved(puzzle).apply(turns), turns

        def done(result: tuple[State, list[Turn]]) -> None:
            state, turns = result
            self.app.document.set_state(state, f"Scramble {n} (seed {seed})")
            shown = puzzle.format(turns) if n <= SHOWN_SCRAMBLE_MOVES else f"{puzzle.format(turns[:SHOWN_SCRAMBLE_MOVES])} …"
            self.app.status(f"Scrambled with {n} moves, seed {seed}: {shown}")

        if n <= SYNC_SCRAMBLE_MOVES:
            done(scrambled())
        else:  # a long scramble takes a second: off the GUI thread
            self.app.run_task("Scrambling", scrambled, done)

    def random_position(self) -> None:
        puzzle = self.app.document.puzzle
        if puzzle is None:
            return
        seed = self.seed.value()

        def done(result: tuple[State, str]) -> None:
            state, how = result
            self.app.document.set_state(state, f"Random position (seed {seed})")
            self.app.status(f"Random position, seed {seed}: {how}")

        self.app.run_task("Random position", lambda progress, cancel: random_position(puzzle, seed, cancel), done)

    # -- solve -------------------------------------------------------------------
    def solve(self) -> None:
        from hlavolamy.solve import solve

        document = self.app.document
        state = document.state
        if state is None:
            return
        mode = self.mode.currentData()
        orbit = self.orbit.currentData() if mode != "whole" else None
        strategy = self.strategy.currentText()
        limit = self.time_limit.value() or None
        self.stop_animation()

        self.best, self.ending = None, ""
        self.use_button.setEnabled(False)

        def job(progress: ProgressCallback, cancel: CancelToken) -> Any:
            try:
                return solve(state.puzzle, state, strategy=strategy, mode=mode, orbit=orbit,
                             time_limit=limit, progress=progress, cancel=cancel, records=self.records,
                             on_answer=lambda news: self.improved.emit(state, news))
            except Cancelled as exc:
                self.ending = self.ending or str(exc)
                raise

        if self.app.run_task("Solving", job, lambda solution: self.show_solution(state, solution),
                             on_failure=self._failed, on_cancel=self._cancelled):
            self.player = None
            self.solution_text.setPlainText("Solving…")
            self.solution_info.setText(f"Strategy {strategy}" + (f", time limit {limit:g} s" if limit else ""))
            self._update_steps()

    def _improved(self, start: State, news: Any) -> None:
        """A better answer arrived while solving: offer it ("Use this answer")."""
        if not self.app.tasks.busy or self.ending:
            return
        self.best = (start, news)
        self.use_button.setEnabled(True)
        self.solution_text.setPlainText(start.puzzle.format(list(news.moves)))
        self.solution_info.setText(f"{news.message} after {news.elapsed:.1f} s · still searching for a shorter "
                                   "one: \"Use this answer\" takes it now")
        self.app.status(f"Solving: {news.message}")

    def use_best(self) -> None:
        """Stop the search and keep the best answer held so far."""
        if self.best is None or not self.app.tasks.busy:
            return
        self.ending = "used"
        start, news = self.best
        self.app.tasks.cancel()
        self._show(start, list(news.moves), news.length,
                   f"{news.length} moves, {news.elapsed:.2f} s, strategy {news.strategy}, verified by replay "
                   "(taken while the search went on)")
        self.used_message = f"Using the answer found so far: {news.length} moves"
        self.app.status(self.used_message)

    def _done(self) -> None:
        self.best = None
        self.use_button.setEnabled(False)

    def _failed(self, message: str) -> None:
        self._done()
        self.player = None
        self.solution_text.setPlainText(f"No solution: {message}\n\n{advice(message)}")
        self.solution_info.setText("Solve failed")
        self.app.status(f"Solve failed: {message}")
        self._update_steps()

    def _cancelled(self) -> None:
        reason, self.ending = self.ending, ""
        self._done()
        if reason == "used":
            self.app.status(self.used_message)  # not "cancelled": the search stopped because an answer was taken
            return
        self.player = None
        if "time limit" in reason:
            text = (f"No answer within the time limit ({self.time_limit.value():g} s, and the extra CPU seconds the "
                    "first answer may take).")
            status = "Solve stopped: time limit reached, no answer"
        else:
            text, status = "Solving cancelled: nothing was applied.", "Solve cancelled"
        self.solution_text.setPlainText(f"{text}\n\n{advice(reason or 'cancelled')}")
        self.solution_info.setText(status)
        self.app.status(f"{status}. {advice(reason or 'cancelled')}")
        self._update_steps()

    def show_solution(self, start: State, solution: Any) -> None:
        """Keep a solution for stepping (only if the position is still the one solved)."""
        self._done()
        cut = getattr(solution, "cut", False)
        first = ""
        if solution.first_time is not None and solution.first_length != solution.length:
            first = f", first answer {solution.first_length} moves after {solution.first_time:.2f} s"
        summary = (f"{solution.length} moves, {solution.time:.2f} s, strategy {solution.strategy}{first}, "
                   "verified by replay" + (" — the best found within the time limit" if cut else ""))
        self._show(start, list(solution.moves), solution.length, summary)
        self.app.status(f"Solved in {solution.length} moves" +
                        (" (time limit reached: the best answer found; a longer limit may find a shorter one)"
                         if cut else ""))

    def _show(self, start: State, turns: list[Turn], length: int, summary: str) -> None:
        self.player = SolutionPlayer(start, turns)
        self.summary = summary
        self.state_changed()
        self.solved.emit()
        self._update_steps()
        if not turns:
            self.solution_text.setPlainText("(already solved)")

    # -- stepping ------------------------------------------------------------------
    def _go_to(self, index: int) -> None:
        p = self.player
        if p is None or not 0 <= index <= len(p.turns) or index == p.index:
            return
        if index > p.index:
            turns, text = p.turns[p.index:index], "Solution forward"
        else:
            turns, text = invert(p.turns[index:p.index]), "Solution back"
        if self.app.play(turns, text if len(turns) > 1 else f"{text}: {p.states[0].puzzle.format(turns)}"):
            p.index = index
            self._update_steps()

    def step_forward(self) -> None:
        if self.player is not None:
            self._go_to(self.player.index + 1)

    def step_back(self) -> None:
        if self.player is not None:
            self._go_to(self.player.index - 1)

    def step_first(self) -> None:
        self._go_to(0)

    def step_last(self) -> None:
        if self.player is not None:
            self._go_to(len(self.player.turns))

    def apply_all(self) -> None:
        self.stop_animation()
        self.step_last()

    def toggle_animation(self) -> None:
        if self.timer.isActive():
            self.stop_animation()
        else:
            self.animate_button.setText("Pause")
            self.timer.start()
        self._update_steps()

    def stop_animation(self) -> None:
        self.timer.stop()
        self.animate_button.setText("Play")

    def _animate(self) -> None:
        p = self.player
        if p is None or p.index >= len(p.turns):
            self.stop_animation()
            self._update_steps()
            return
        self.step_forward()

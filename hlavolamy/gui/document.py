"""The open puzzle: puzzle, position, move history and design, with undo.

Every change (a move, a new position, a colour, a blocking, a designer edit)
goes through :meth:`Document.commit`, which pushes a :class:`SnapshotCommand`
on the undo stack. Snapshots are cheap: puzzles and states are immutable
values shared between snapshots, so undo simply restores the earlier ones.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from PyQt6.QtCore import QObject, pyqtSignal
from PyQt6.QtGui import QUndoCommand, QUndoStack

from hlavolamy.core.fileformat import PuzzleFile, load_puzzle, save_puzzle
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.state import State
from hlavolamy.core.turns import Turn
from hlavolamy.errors import FileFormatError, HlavolamyError, PuzzleError
from hlavolamy.plugins.hookspecs import Designer, Geometry, View

SHIPPED_PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
"""The repository's own puzzles: they open read-only, so a scrambled position never overwrites one."""


def is_read_only(path: Path) -> bool:
    """Saving over ``path`` is refused (Save becomes Save As): a shipped puzzle, or a file the user cannot write."""
    resolved = path.resolve()
    if resolved.is_relative_to(SHIPPED_PUZZLES.resolve()):
        return True
    return resolved.exists() and not os.access(resolved, os.W_OK)


@dataclass(frozen=True)
class Snapshot:
    """Everything undo restores."""

    puzzle: Puzzle | None
    state: State | None
    history: tuple[Turn, ...] = ()
    design: Mapping[str, Any] | None = None
    design_error: str = ""
    """Why the design does not make a puzzle yet (then ``puzzle`` is None)."""

    def same_as(self, other: Snapshot) -> bool:
        return (
            self.puzzle is other.puzzle
            and self.history == other.history
            and self.design == other.design
            and (self.state is other.state or (self.state is not None and other.state is not None
                                               and np.array_equal(self.state.perm, other.state.perm)))
        )


class SnapshotCommand(QUndoCommand):
    """One undo step: restore ``before`` on undo and ``after`` on redo."""

    def __init__(self, document: Document, before: Snapshot, after: Snapshot, text: str):
        super().__init__(text)
        self._document = document
        self.before = before
        self.after = after

    def redo(self) -> None:
        self._document.restore(self.after)

    def undo(self) -> None:
        self._document.restore(self.before)


def make_view(geometry: Geometry | None, puzzle: Puzzle) -> View:
    """The plugin's drawing of ``puzzle`` (its handles playing the puzzle's moves), or discs when no plugin draws it."""
    from hlavolamy.gui.fallback_view import DiscView
    from hlavolamy.plugins.recognise import speaking_puzzle_moves

    view = geometry.view(puzzle) if geometry is not None else None
    if view is None:
        return DiscView(puzzle)
    assert geometry is not None
    return speaking_puzzle_moves(view, geometry, puzzle)


def geometry_of(puzzle: Puzzle) -> Geometry | None:
    """The installed geometry that made ``puzzle``; None for plain puzzles or a missing plugin."""
    from hlavolamy.plugins.manager import puzzle_geometry

    return puzzle_geometry(puzzle)


class Document(QObject):
    """The puzzle being edited and played; signals tell the widgets what changed."""

    opened = pyqtSignal()
    """A new document replaced the old one (New, Open, Import): forget per-document choices."""
    puzzle_changed = pyqtSignal()
    """A different puzzle (or none): rebuild views, move buttons, analysis."""
    state_changed = pyqtSignal()
    """The position or the move history changed."""
    design_changed = pyqtSignal()
    """The designer's data changed (undo/redo or a new document)."""
    file_changed = pyqtSignal()
    """The file path or the saved/unsaved flag changed."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(lambda _clean: self.file_changed.emit())
        self.geometry: Geometry | None = None
        self.designer: Designer | None = None
        self.path: Path | None = None
        self.extra: dict[str, Any] = {}
        """Top-level file keys this version does not know: kept from Open to Save, never edited."""
        self.snap = Snapshot(None, None)
        self._saved = self.snap
        """The snapshot the file holds (at open or the last save): what "changed" is measured against."""

    # -- read access -----------------------------------------------------
    @property
    def puzzle(self) -> Puzzle | None:
        return self.snap.puzzle

    @property
    def state(self) -> State | None:
        return self.snap.state

    @property
    def history(self) -> tuple[Turn, ...]:
        return self.snap.history

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def definition_modified(self) -> bool:
        """The puzzle itself (cells, colours, moves, blockings, design) differs from the file's.

        Turning, scrambling and solving change only the position: :attr:`modified` but not this.
        """
        return self.modified and (self.snap.puzzle is not self._saved.puzzle or self.snap.design != self._saved.design)

    @property
    def read_only(self) -> bool:
        """Save must go to a new file (see :func:`is_read_only`)."""
        return self.path is not None and is_read_only(self.path)

    def title(self) -> str:
        if self.path is not None:
            return self.path.name
        if self.puzzle is not None and self.puzzle.name:
            return self.puzzle.name
        return "Untitled"

    def require_puzzle(self) -> Puzzle:
        """The puzzle, or a PuzzleError saying why the design is not playable yet."""
        if self.puzzle is None:
            raise PuzzleError(self.snap.design_error or "no puzzle is open")
        return self.puzzle

    # -- whole documents -------------------------------------------------
    def reset(self, puzzle: Puzzle | None, *, geometry: Geometry | None = None, designer: Designer | None = None,
              state: State | None = None, history: Sequence[Turn] = (), path: Path | None = None,
              design_error: str = "", extra: Mapping[str, Any] | None = None) -> None:
        """Start over with a new document (no undo across documents)."""
        self.geometry = geometry
        self.designer = designer
        self.path = path
        self.extra = copy.deepcopy(dict(extra or {}))
        design = copy.deepcopy(designer.data()) if designer is not None else None
        if puzzle is not None and state is None:
            state = State.solved(puzzle)
        self.undo_stack.clear()
        self.snap = self._saved = Snapshot(puzzle, state, tuple(history), design, design_error)
        self.undo_stack.setClean()
        self.opened.emit()
        self.puzzle_changed.emit()
        self.design_changed.emit()
        self.state_changed.emit()
        self.file_changed.emit()

    def open(self, path: str | Path) -> None:
        """Load a puzzle file; its plugin (when installed) supplies the view and the designer.

        A plugin that refuses the file's geometry data is a fault of the file: the message names it.
        """
        loaded = load_puzzle(path)
        try:
            self.load(loaded, path=Path(path))
        except PuzzleError as exc:
            raise FileFormatError(str(exc), str(path), "/plugin/data") from exc

    def load(self, loaded: PuzzleFile, path: Path | None) -> None:
        """A loaded or imported puzzle file as the new document (``path`` None: untitled)."""
        from hlavolamy.plugins.manager import attach_geometry

        loaded = attach_geometry(loaded)  # an imported file gets the drawing of a plugin that knows it
        geometry = geometry_of(loaded.puzzle)
        designer = geometry.designer(loaded.puzzle) if geometry is not None else None
        self.reset(loaded.puzzle, geometry=geometry, designer=designer, state=loaded.state,
                   history=loaded.history or (), path=path, extra=loaded.extra)

    def new(self, geometry: Geometry, params: Mapping[str, Any]) -> None:
        """A puzzle from a geometry's parameters (the New dialog)."""
        from hlavolamy.plugins.manager import build_puzzle

        puzzle = build_puzzle(geometry, params)
        self.reset(puzzle, geometry=geometry, designer=geometry.designer(puzzle))

    def new_design(self, geometry: Geometry) -> None:
        """An empty design to draw in the Fields tab."""
        designer = geometry.designer(None)
        if designer is None:
            raise PuzzleError(f"geometry {geometry.name!r} has no designer; create it from parameters")
        puzzle, error = _build_design(designer)
        self.reset(puzzle, geometry=geometry, designer=designer, design_error=error)

    def save(self, path: str | Path) -> None:
        """Write the puzzle, position, history and the file's unknown keys atomically; marks the document saved."""
        save_puzzle(path, self.require_puzzle(), self.state, list(self.history), self.extra)
        self.path = Path(path)
        self._saved = self.snap
        self.undo_stack.setClean()
        self.file_changed.emit()

    # -- edits (each one undo step) --------------------------------------
    def commit(self, after: Snapshot, text: str) -> None:
        if not after.same_as(self.snap):
            self.undo_stack.push(SnapshotCommand(self, self.snap, after, text))

    def play(self, turns: Sequence[Turn], text: str) -> None:
        """Play turns from the current position; IllegalMoveError when a blocking forbids one."""
        state = self.state
        if state is None:
            raise PuzzleError(self.snap.design_error or "no puzzle is open")
        turns = list(turns)
        if not turns:
            return
        self.commit(replace(self.snap, state=state.apply(turns), history=self.history + tuple(turns)), text)

    def set_state(self, state: State, text: str, *, history: Sequence[Turn] = ()) -> None:
        """Jump to a position (scramble, typed permutation); the history restarts."""
        self.commit(replace(self.snap, state=state, history=tuple(history)), text)

    def replace_puzzle(self, puzzle: Puzzle, text: str) -> None:
        """A new puzzle from an edit (colours, moves, blockings, size).

        The position is kept when it still fits (same cells, legal), else solved.
        """
        state = self.state
        keep = state is not None and puzzle.n_cells == state.puzzle.n_cells and not puzzle.blockings
        new_state = State(puzzle, state.perm) if keep and state is not None else State.solved(puzzle)
        history = self.history if keep else ()
        self.commit(replace(self.snap, puzzle=puzzle, state=new_state, history=history, design_error=""), text)

    def design_edited(self, text: str) -> None:
        """The designer changed its data: rebuild the puzzle (or record why it cannot) as one step."""
        designer = self.designer
        if designer is None:
            return
        design = copy.deepcopy(designer.data())
        if design == self.snap.design:
            return
        puzzle, error = _build_design(designer)
        state = State.solved(puzzle) if puzzle is not None else None
        self.commit(Snapshot(puzzle, state, (), design, error), text)

    def design_work_done(self) -> None:
        """The designer's background work ended (or was cancelled): the current snapshot, when it waited
        for it, gets its puzzle or the reason there is none, in place (no new undo step: the edit was one).

        The undo steps that hold the waiting snapshot get the new one too, so Undo then Redo comes back to
        the puzzle, not to the wait. A snapshot of another design (the user edited meanwhile) is left alone:
        its own work runs when it is current again.
        """
        designer = self.designer
        snap = self.snap
        if designer is not None and snap.puzzle is None and snap.design == designer.data():
            self._settle(snap, *_build_design(designer))
        self.design_changed.emit()  # the drawing shows what the work found

    def _settle(self, snap: Snapshot, puzzle: Puzzle | None, error: str) -> None:
        """Put the built puzzle (or the new reason) in place of ``snap``, wherever it is held."""
        if puzzle is None and error == snap.design_error:
            return
        done = replace(snap, puzzle=puzzle, state=State.solved(puzzle) if puzzle is not None else None, design_error=error)
        for i in range(self.undo_stack.count()):
            command = self.undo_stack.command(i)
            if isinstance(command, SnapshotCommand):
                command.before = done if command.before is snap else command.before
                command.after = done if command.after is snap else command.after
        if self._saved is snap:
            self._saved = done
        self.snap = done
        self.puzzle_changed.emit()
        self.state_changed.emit()

    def restore(self, snap: Snapshot) -> None:
        """Make ``snap`` current (undo/redo) and tell the widgets what changed."""
        before = self.snap
        self.snap = snap
        if self.designer is not None and snap.design is not None and snap.design != self.designer.data():
            self.designer.set_data(copy.deepcopy(dict(snap.design)))
        if snap.design != before.design:
            self.design_changed.emit()
        if snap.puzzle is not before.puzzle:
            self.puzzle_changed.emit()
        self.state_changed.emit()


def _build_design(designer: Designer) -> tuple[Puzzle | None, str]:
    """The designer's puzzle, or None and the reason it is not a puzzle yet.

    While the design needs background work (:meth:`Designer.pending_work`) the puzzle waits for it
    (:meth:`Document.design_work_done`): building now would do that work on the GUI thread.
    """
    work = designer.pending_work()
    if work is not None:
        return None, f"{work.name.lower()} in the background (the status bar shows how far; Esc cancels)"
    try:
        return designer.build(), ""
    except (HlavolamyError, ValueError) as exc:
        return None, str(exc)

"""A design's long work (a jumbling circle design's closure) off the GUI thread, on the window's task bar.

A designer says what its current design still needs through
:meth:`Designer.pending_work`; until that work is done the document holds
the edit without a puzzle (:func:`hlavolamy.gui.document._build_design`).
:class:`DesignWorkRunner` starts the work whenever the design changes
(an edit, Undo, Redo, a new document) and the task bar is free, shows its
progress there with Cancel (Esc), and then lets the document build the
puzzle (:meth:`Document.design_work_done`).

- An edit while work runs for another design cancels that run quietly and
  starts the new design's work once the bar is free: a run can only ever
  serve the design it was made for (the designer keeps results by key).
- A user's Cancel ends the run; the design stays editable, and the
  designer's message says what that means (and the Fields tab shows it).
- A run that fails is not started again for the same design (the error is
  shown once): a bug must not turn into a loop.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from hlavolamy.gui.errors import show_error
from hlavolamy.plugins.hookspecs import DesignWork

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow
    from hlavolamy.gui.workers import Task


class DesignWorkRunner:
    """Keeps the designer's pending work running for the design shown, one run at a time."""

    def __init__(self, window: MainWindow):
        self.window = window
        self.running: tuple[Task, DesignWork] | None = None
        """The run under way and the work it does."""
        self._superseded: Task | None = None
        """A run cancelled because the design changed: its end is no news for the user."""
        self._failed: Hashable | None = None
        window.document.design_changed.connect(self.update)
        window.tasks.idle.connect(self.update)

    def update(self) -> None:
        """Start the current design's work, or cancel a run that no longer serves it."""
        designer = self.window.document.designer
        work = designer.pending_work() if designer is not None else None
        if self.running is not None:
            task, doing = self.running
            if (work is None or work.key != doing.key) and self._superseded is not task:
                self._superseded = task
                task.cancel()  # the new design's work starts when the bar is idle again
            return
        if work is None or work.key == self._failed or self.window.tasks.busy:
            return  # a solve or an analysis runs: the work follows it (the bar's idle signal)
        task = self.window.tasks.start(work.name, work.job, self._succeeded, self._failed_with, self._cancelled)
        self.running = (task, work)

    def _end(self) -> DesignWork | None:
        """Forget the run; its work unless it was superseded (then nobody waits for it)."""
        if self.running is None:
            return None
        task, work = self.running
        self.running = None
        return None if self._superseded is task else work

    def _succeeded(self, _result: Any) -> None:
        if self._end() is not None:
            self.window.guarded(self.window.document.design_work_done)

    def _failed_with(self, message: str) -> None:
        work = self._end()
        if work is not None:
            self._failed = work.key
            show_error(self.window, f"{work.name} failed", message)

    def _cancelled(self) -> None:
        work = self._end()
        if work is None:
            return
        message = work.cancelled()
        self.window.guarded(self.window.document.design_work_done)
        self.window.status(f"{work.name} cancelled: {message}")

"""Long work (analysis, solving, reachability checks) off the GUI thread.

A :class:`Task` runs ``job(progress, cancel)`` in its own ``QThread``; the
job is library code taking the usual ``progress`` callback and
:class:`CancelToken`. Results, errors and cancellation come back as signals,
delivered in the GUI thread. :class:`TaskBar` shows one task at a time with
a progress bar and a Cancel button.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PyQt6.QtCore import QThread, pyqtSignal
from PyQt6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.errors import Cancelled, HlavolamyError
from hlavolamy.gui.errors import describe

Job = Callable[[ProgressCallback, CancelToken], Any]

log = logging.getLogger(__name__)

PROGRESS_STEPS = 1000


class Task(QThread):
    """One background job; emits ``succeeded``, ``failed`` or ``cancelled`` exactly once."""

    progressed = pyqtSignal(float, str)
    succeeded = pyqtSignal(object)
    failed = pyqtSignal(str)
    cancelled = pyqtSignal()

    def __init__(self, name: str, job: Job, parent: QWidget | None = None):
        super().__init__(parent)
        self.name = name
        self.job = job
        self.token = CancelToken()
        self._last_report = 0.0

    def _report(self, fraction: float, message: str = "") -> None:
        """Throttled: at most ~20 progress signals a second reach the GUI."""
        now = time.monotonic()
        if now - self._last_report >= 0.05 or fraction >= 1.0:
            self._last_report = now
            self.progressed.emit(float(fraction), message)

    def run(self) -> None:
        try:
            result = self.job(self._report, self.token)
        except Cancelled:
            self.cancelled.emit()
            return
        except Exception as exc:  # every failure reaches the user as a message, never a crash
            if not isinstance(exc, HlavolamyError):  # a bug: keep the trace for a report
                log.error("background task %r failed", self.name, exc_info=exc)
            self.failed.emit(describe(exc))
            return
        if self.token.cancelled:
            self.cancelled.emit()
        else:
            self.succeeded.emit(result)

    def cancel(self) -> None:
        self.token.cancel()


class TaskBar(QWidget):
    """Progress, message and Cancel for the running task; hidden while idle."""

    idle = pyqtSignal()
    busy_changed = pyqtSignal(bool)
    """True when a task starts, False when it ends (done, failed or cancelled): buttons that start jobs follow it."""
    task_failed = pyqtSignal(str)
    """Any task's failure message (besides the caller's own handler)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.task: Task | None = None
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, PROGRESS_STEPS)
        self.bar.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the running job (Esc)")
        self.cancel_button.clicked.connect(self.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar, 2)
        layout.addWidget(self.cancel_button)
        self.setVisible(False)

    @property
    def busy(self) -> bool:
        return self.task is not None

    def start(self, name: str, job: Job, on_success: Callable[[Any], None],
              on_failure: Callable[[str], None], on_cancel: Callable[[], None] | None = None) -> Task:
        """Run ``job`` in the background; only one task runs at a time."""
        if self.task is not None:
            raise RuntimeError("a task is already running")
        task = Task(name, job, self)
        task.progressed.connect(self._progress)
        task.succeeded.connect(on_success)
        task.failed.connect(on_failure)
        task.failed.connect(self.task_failed)
        if on_cancel is not None:
            task.cancelled.connect(on_cancel)
        task.finished.connect(lambda: self._finished(task))
        self.task = task
        self.label.setText(f"{name}…")
        self.bar.setRange(0, 0)  # busy indicator until the job reports a fraction: an empty bar looks stuck
        self.cancel_button.setEnabled(True)
        self.setVisible(True)
        self.busy_changed.emit(True)
        task.start()
        return task

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.cancel_button.setEnabled(False)
            self.label.setText(f"Cancelling {self.task.name.lower()}…")

    def _progress(self, fraction: float, message: str) -> None:
        if fraction > 0:
            self.bar.setRange(0, PROGRESS_STEPS)
            self.bar.setValue(int(fraction * PROGRESS_STEPS))
        if message and self.task is not None:
            self.label.setText(f"{self.task.name}: {message}")

    def _finished(self, task: Task) -> None:
        if self.task is task:
            self.task = None
            self.setVisible(False)
            self.busy_changed.emit(False)
            self.idle.emit()
        task.deleteLater()

    def shutdown(self) -> None:
        """Cancel and wait (window closing): no thread outlives the window."""
        if self.task is not None:
            self.task.cancel()
            self.task.wait()

"""Errors as dialogs, never tracebacks.

A user-facing :class:`HlavolamyError` is shown with its message; anything else
(a bug) is shown as "internal error" with a one-line reason, and its traceback
is logged (on stderr unless logging is configured otherwise) for a bug report.
"""

from __future__ import annotations

import logging
import sys
from types import TracebackType

from PyQt6.QtWidgets import QApplication, QMessageBox, QWidget

from hlavolamy.errors import HlavolamyError

log = logging.getLogger(__name__)


def describe(exc: BaseException) -> str:
    """The text a user sees for an exception."""
    if isinstance(exc, HlavolamyError):
        return str(exc)
    if isinstance(exc, OSError):
        name = f" {exc.filename!r}" if exc.filename else ""
        return f"cannot access{name}: {exc.strerror or exc}"
    return f"internal error ({type(exc).__name__}: {exc})"


def show_error(parent: QWidget | None, title: str, exc: BaseException | str) -> None:
    """A modal message box with the reason (suppressed when no application exists)."""
    text = exc if isinstance(exc, str) else describe(exc)
    if QApplication.instance() is None:
        print(f"{title}: {text}", file=sys.stderr)
        return
    QMessageBox.warning(parent, title, text)


def install_excepthook() -> None:
    """Route uncaught exceptions in slots to a dialog so the app never dies with a traceback."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if not isinstance(exc, HlavolamyError):
            log.error("uncaught exception", exc_info=(kind, exc, tb))
        if issubclass(kind, KeyboardInterrupt):
            QApplication.quit()
            return
        show_error(QApplication.activeWindow(), "Hlavolamy", exc)

    sys.excepthook = hook

"""Debian packages the GUI tests need (Qt's libraries, Xvfb), installed with apt-get where that is allowed.

Only as root with apt-get, e.g. in CI on a fresh machine; one process at a
time (pytest-xdist workers share a lock file), as apt itself allows one.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from hlavolamy.gui.preflight import QT_LIBRARIES, XCB_LIBRARIES, loadable

LOCK = Path(tempfile.gettempdir()) / "hlavolamy-tests-apt.lock"


def missing_libraries(rows: tuple[tuple[str, str, str], ...] = QT_LIBRARIES + XCB_LIBRARIES) -> list[str]:
    """Debian packages of the libraries in ``rows`` that the dynamic loader cannot find."""
    return list(dict.fromkeys(row[1] for row in rows if not loadable(row[0])))


def apt_install(packages: list[str]) -> str:
    """Install ``packages``; '' on success, else why not (not root, no apt-get, apt's last error line)."""
    if not packages:
        return ""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "not root with apt-get"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    apt = ["apt-get", "-q", "-o", "DPkg::Lock::Timeout=600"]
    install = [*apt, "install", "-y", "--no-install-recommends", *packages]
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run(install, env=env, capture_output=True, text=True)
        if done.returncode != 0:  # a fresh machine has no package lists yet
            subprocess.run([*apt, "update"], env=env, capture_output=True)
            done = subprocess.run(install, env=env, capture_output=True, text=True)
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["apt-get failed"])[-1]

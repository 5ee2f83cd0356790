"""The app in a real X server: real_window_scenario.py run under Xvfb with Qt's xcb platform plugin.

The other GUI tests draw offscreen, which never loads the xcb plugin nor its
system libraries; this one does what a user's desktop does. Xvfb and the
libraries (README's apt line) are installed with apt-get when missing and this
runs as root (as in CI); elsewhere the test is skipped and says what is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PATIENCE_MS, REPO
from system_packages import apt_install, missing_libraries

pytestmark = pytest.mark.gui

SCENARIO = Path(__file__).with_name("real_window_scenario.py")


@pytest.fixture(scope="module")
def x_display() -> Iterator[str]:
    """A private Xvfb display (``:N``), with Xvfb and the xcb plugin's libraries installed first when possible."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the real-window test runs Xvfb, which is for Linux")
    wanted = (["xvfb"] if shutil.which("Xvfb") is None else []) + missing_libraries()
    if wanted:
        why = apt_install(wanted)
        if why:
            pytest.skip(f"cannot install {' '.join(wanted)} ({why}): the app is not tried in a real X window")
    assert shutil.which("Xvfb") and not missing_libraries(), "apt-get installed the packages, yet they are missing"
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(write)
    with os.fdopen(read) as announced:
        number = announced.readline().strip()  # Xvfb writes its display number once it accepts clients
    if not number.isdigit():
        server.kill()
        pytest.fail(f"Xvfb did not start: {server.communicate()[1].decode(errors='replace')[-500:]}")
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait()


def test_the_whole_app_in_a_real_x_window(x_display: str) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("WAYLAND_DISPLAY", "PYTEST_XDIST_WORKER")}
    env.update(DISPLAY=x_display, QT_QPA_PLATFORM="xcb", HLAVOLAMY_REAL_WINDOW="1")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", str(SCENARIO), "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-W",
         "ignore::pytest.PytestUnknownMarkWarning"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=PATIENCE_MS / 1000,
    )
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]

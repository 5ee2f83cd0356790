"""`hlavolamy gui` without a screen or without the xcb plugin's libraries: one line and exit 2, before Qt starts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from hlavolamy.cli import main
from hlavolamy.gui import preflight
from hlavolamy.gui.preflight import APT_LINE, window_problem, x_server_answers

REPO = Path(__file__).resolve().parents[1]


def every_library(_name: str) -> bool:
    return True


def without(*sonames: str):
    return lambda name: name not in sonames


def test_no_display_names_what_to_do() -> None:
    problem = window_problem({}, platform="linux", load=every_library)
    assert problem is not None
    assert "no display" in problem and "DISPLAY" in problem
    assert "QT_QPA_PLATFORM=offscreen" in problem and "command line" in problem
    assert "\n" not in problem


@pytest.mark.parametrize("value", ["offscreen", "minimal", "offscreen:fontengine=freetype", "vnc;xcb"])
def test_a_headless_platform_needs_no_display(value: str) -> None:
    assert window_problem({"QT_QPA_PLATFORM": value}, platform="linux", load=without("libxcb-icccm.so.4")) is None


def test_macos_and_windows_need_nothing() -> None:
    for platform in ("darwin", "win32"):
        assert window_problem({}, platform=platform, load=lambda name: False) is None


def test_missing_xcb_libraries_are_named_with_their_packages() -> None:
    problem = window_problem({"DISPLAY": ":0"}, platform="linux",
                             load=without("libxcb-icccm.so.4", "libxcb-keysyms.so.1"))
    assert problem is not None
    assert "needs libxcb-icccm.so.4, libxcb-keysyms.so.1, not installed" in problem
    assert APT_LINE in problem and {"libxcb-icccm4", "libxcb-keysyms1"} <= set(APT_LINE.split())
    assert preflight.DNF_LINE in problem and {"xcb-util-wm", "xcb-util-keysyms"} <= set(preflight.DNF_LINE.split())
    assert "QT_QPA_PLATFORM=offscreen" in problem and "\n" not in problem


def test_a_library_qt_needs_everywhere_is_checked_offscreen_too() -> None:
    problem = window_problem({"QT_QPA_PLATFORM": "offscreen"}, platform="linux", load=without("libEGL.so.1"))
    assert problem is not None and "Qt needs libEGL.so.1, not installed" in problem and "libegl1" in problem


def test_many_missing_libraries_are_counted_not_listed() -> None:
    problem = window_problem({"DISPLAY": ":0"}, platform="linux", load=lambda name: False)
    assert problem is not None and "needs libGL.so.1, libEGL.so.1, libfontconfig.so.1 and 22 more" in problem


def test_a_plugin_that_does_not_load_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    monkeypatch.setattr(preflight, "xcb_plugin", lambda: plugin)
    problem = window_problem({"DISPLAY": ":0"}, platform="linux", load=lambda name: name != str(plugin))
    assert problem is not None and f"({plugin}) does not load" in problem and f"ldd {plugin}" in problem


def test_no_x_server_at_the_display() -> None:
    free = f":{60000 + uuid.uuid4().int % 5000}"
    problem = window_problem({"DISPLAY": free}, platform="linux", load=every_library)
    assert problem is not None and f"no X server answers at DISPLAY={free}" in problem


def test_an_x_server_on_the_local_socket_or_tcp_answers() -> None:
    number = 60000 + uuid.uuid4().int % 5000
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(f"\0/tmp/.X11-unix/X{number}")  # the abstract socket an X server opens on Linux
        server.listen(1)
        assert x_server_answers(f":{number}")
        assert x_server_answers(f"unix:{number}.0")
    assert not x_server_answers(f":{number}")
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        if port >= 6000:
            assert x_server_answers(f"127.0.0.1:{port - 6000}")


def test_the_readme_installs_every_library_the_check_wants() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    fenced = readme.split("```")[1::2]
    apt = set(next(block for block in fenced if "apt-get install" in block).split())
    dnf = set(next(line for line in readme.splitlines() if "dnf install" in line).strip("`;").split())
    for row in preflight.QT_LIBRARIES + preflight.XCB_LIBRARIES:
        assert row[1] in apt and row[2] in dnf, row


def test_cli_gui_reports_a_missing_library_in_one_line(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.setattr(preflight.sys, "platform", "linux")
    monkeypatch.setattr(preflight, "loadable", without("libxcb-cursor.so.0"))
    assert main(["gui", str(REPO / "puzzles" / "rashkey.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hlavolamy gui: error: cannot open a window")
    assert "libxcb-cursor.so.0" in err and "libxcb-cursor0" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check is for Linux")
@pytest.mark.parametrize("args", [["gui", "puzzles/rashkey.json"], []])
def test_without_a_display_the_app_says_so_and_exits_2_before_importing_qt(args: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    code = ("import sys; from hlavolamy.cli import main; rc = main(sys.argv[1:]); "
            "print('qt imported' if 'PyQt6.QtGui' in sys.modules else 'qt not imported'); sys.exit(rc)")
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 2, result.stderr
    assert result.stdout.strip() == "qt not imported"
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]

"""Can Qt open a window here? Checked before Qt is imported, so a missing screen or library is one line, not an abort.

Without a display, or with a library of Qt's X11 platform plugin ("xcb")
missing, Qt prints several lines and aborts (exit 134) — after up to a minute
on a busy machine. :func:`window_problem` finds both cases in milliseconds:
it looks at the environment, tries the X server's socket, and asks the dynamic
loader for the plugin's libraries (``dlopen`` by soname, as Qt itself will).
It imports nothing of Qt. On macOS and Windows Qt brings its own platform
plugin and needs nothing extra, so nothing is checked there.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

HEADLESS_PLATFORMS = frozenset({"offscreen", "minimal", "minimalegl", "vnc", "linuxfb", "eglfs", "vkkhrdisplay"})
"""Qt platform plugins that need no display server."""

QT_LIBRARIES: tuple[tuple[str, str, str], ...] = (
    # (soname, Debian/Ubuntu package, Fedora package): what QtGui loads on any platform.
    ("libGL.so.1", "libgl1", "libglvnd-glx"),
    ("libEGL.so.1", "libegl1", "libglvnd-egl"),
    ("libfontconfig.so.1", "libfontconfig1", "fontconfig"),
    ("libfreetype.so.6", "libfreetype6", "freetype"),
    ("libxkbcommon.so.0", "libxkbcommon0", "libxkbcommon"),
    ("libglib-2.0.so.0", "libglib2.0-0", "glib2"),
    ("libdbus-1.so.3", "libdbus-1-3", "dbus-libs"),
)
XCB_LIBRARIES: tuple[tuple[str, str, str], ...] = (
    # What the xcb platform plugin (libqxcb.so and libQt6XcbQpa) loads besides those.
    ("libX11.so.6", "libx11-6", "libX11"),
    ("libX11-xcb.so.1", "libx11-xcb1", "libX11-xcb"),
    ("libxcb.so.1", "libxcb1", "libxcb"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "libxkbcommon-x11"),
    ("libxcb-cursor.so.0", "libxcb-cursor0", "xcb-util-cursor"),
    ("libxcb-icccm.so.4", "libxcb-icccm4", "xcb-util-wm"),
    ("libxcb-image.so.0", "libxcb-image0", "xcb-util-image"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1", "xcb-util-keysyms"),
    ("libxcb-render-util.so.0", "libxcb-render-util0", "xcb-util-renderutil"),
    ("libxcb-util.so.1", "libxcb-util1", "xcb-util"),
    ("libxcb-randr.so.0", "libxcb-randr0", "libxcb"),
    ("libxcb-render.so.0", "libxcb-render0", "libxcb"),
    ("libxcb-shape.so.0", "libxcb-shape0", "libxcb"),
    ("libxcb-shm.so.0", "libxcb-shm0", "libxcb"),
    ("libxcb-sync.so.1", "libxcb-sync1", "libxcb"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0", "libxcb"),
    ("libxcb-xkb.so.1", "libxcb-xkb1", "libxcb"),
    ("libxcb-glx.so.0", "libxcb-glx0", "libxcb"),
)


def _packages(column: int) -> str:
    names = dict.fromkeys(row[column] for row in QT_LIBRARIES + XCB_LIBRARIES)
    return " ".join(names)


APT_LINE = f"sudo apt-get install -y {_packages(1)}"
"""The Debian/Ubuntu line installing every library the app's window needs (README.md shows it)."""
DNF_LINE = f"sudo dnf install -y {_packages(2)}"
"""The Fedora equivalent."""
WITHOUT_A_SCREEN = ("without a screen, QT_QPA_PLATFORM=offscreen or the command line "
                    "(hlavolamy info, apply, solve) work")

Loader = Callable[[str], bool]


def loadable(name: str) -> bool:
    """True when the dynamic loader finds and loads ``name`` (a soname or a path), as Qt's own dlopen would."""
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def window_problem(environ: Mapping[str, str] | None = None, *, platform: str | None = None,
                   load: Loader | None = None) -> str | None:
    """Why Qt cannot open a window here (one line saying what to do), or None when it can."""
    environ = os.environ if environ is None else environ
    load = load or loadable
    platform = sys.platform if platform is None else platform
    if not platform.startswith("linux"):
        return None
    missing = [row for row in QT_LIBRARIES if not load(row[0])]
    wanted = _platform_names(environ.get("QT_QPA_PLATFORM", ""))
    if wanted and wanted[0] in HEADLESS_PLATFORMS:
        return _missing_libraries(missing, "Qt") if missing else None
    if environ.get("WAYLAND_DISPLAY") and (not wanted or wanted[0] == "wayland"):
        return _missing_libraries(missing, "Qt") if missing else None
    if wanted and wanted[0] not in ("xcb", "wayland"):
        return None  # a platform plugin of the user's choosing: let Qt judge it
    display = environ.get("DISPLAY", "")
    if not display:
        return ("cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set; under Xvfb run "
                f"`xvfb-run -a hlavolamy gui`, after `sudo apt-get install -y xvfb`); {WITHOUT_A_SCREEN}")
    missing += [row for row in XCB_LIBRARIES if not load(row[0])]
    if missing:
        return _missing_libraries(missing, 'the Qt platform plugin "xcb"')
    plugin = xcb_plugin()
    if plugin is not None and not load(str(plugin)):
        return (f'cannot open a window: the Qt platform plugin "xcb" ({plugin}) does not load: a library it needs '
                f"is missing (`ldd {plugin}` names it); `{APT_LINE}` installs the usual ones; {WITHOUT_A_SCREEN}")
    if not x_server_answers(display):
        return (f"cannot open a window: no X server answers at DISPLAY={display} (is it running? under Xvfb "
                f"run `xvfb-run -a hlavolamy gui`); {WITHOUT_A_SCREEN}")
    return None


def _platform_names(value: str) -> list[str]:
    """``QT_QPA_PLATFORM`` as Qt reads it: plugins to try in order, each with optional ``:options``."""
    return [part.split(":", 1)[0].strip().lower() for part in value.split(";") if part.strip()]


def _missing_libraries(missing: list[tuple[str, str, str]], who: str, shown: int = 3) -> str:
    """Names the first few missing libraries; the lines install all the app needs (a second run finds no more)."""
    names = ", ".join(row[0] for row in missing[:shown])
    more = f" and {len(missing) - shown} more" if len(missing) > shown else ""
    return (f"cannot open a window: {who} needs {names}{more}, not installed; on Debian/Ubuntu `{APT_LINE}`, "
            f"on Fedora `{DNF_LINE}`; {WITHOUT_A_SCREEN}")


def xcb_plugin() -> Path | None:
    """The xcb platform plugin of the installed PyQt6 wheel (found without importing PyQt6), if it is there."""
    spec = importlib.util.find_spec("PyQt6")
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        plugin = Path(folder) / "Qt6" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def x_server_answers(display: str, timeout: float = 0.5) -> bool:
    """True when something listens where ``DISPLAY`` points (the local socket, or TCP 6000+N on a host).

    A form this does not understand counts as answering: Qt then gives its own message.
    """
    host, _, rest = display.rpartition(":")
    number = rest.split(".", 1)[0]
    if not number.isdigit() or host.startswith("/"):
        return True  # e.g. a launchd socket path on macOS' XQuartz
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        return any(_connects_unix(address, timeout) for address in ("\0" + path, path))
    try:
        socket.create_connection((host.strip("[]"), 6000 + int(number)), timeout).close()
    except OSError:
        return False
    return True


def _connects_unix(address: str, timeout: float) -> bool:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(address)
    except OSError:
        return False
    return True

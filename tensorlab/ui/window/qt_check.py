"""Can Qt open a window here? Say what is missing, and how to install it, instead of a core dump.

Qt aborts the process (SIGABRT, a core dump) when its platform plugin cannot start:
no display, or X11 libraries that the xcb plugin needs are not installed
(`libxcb-cursor0` since Qt 6.5). :func:`problems` finds these cases before Qt is
asked, with nothing but the standard library, so the app can print a clear message
and exit with status 1.
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

__all__ = ["DEBIAN_PACKAGES", "problems", "missing_libraries", "explain", "no_core_dumps"]

# The shared libraries Qt's xcb platform plugin links (readelf -d of libqxcb.so and libQt6XcbQpa.so.6),
# and the Debian/Ubuntu package of each.
DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4", "libxcb-util.so.1": "libxcb-util1",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1", "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-render.so.0": "libxcb-render0", "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1", "libX11-xcb.so.1": "libx11-xcb1", "libX11.so.6": "libx11-6",
    "libxkbcommon.so.0": "libxkbcommon0", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libGL.so.1": "libgl1",
    "libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0",
}
_HEADLESS = ("offscreen", "minimal", "vnc", "eglfs", "linuxfb")
_MISSING = re.compile(r"([\w.+-]+\.so[\w.]*): cannot open shared object file")


def _loadable(name: str) -> bool:
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def xcb_plugin() -> Path | None:
    """Qt's X11 platform plugin shipped with PySide6, if there is one."""
    try:
        import PySide6  # the package only: no Qt library is loaded here
    except ImportError:
        return None
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def missing_libraries(names: Mapping[str, str] = DEBIAN_PACKAGES, plugin: Path | None = None) -> list[str]:
    """Shared libraries the xcb plugin needs that cannot be loaded here."""
    missing = [name for name in names if not _loadable(name)]
    plugin = plugin if plugin is not None else xcb_plugin()
    if not missing and plugin is not None:
        try:
            ctypes.CDLL(str(plugin), mode=getattr(os, "RTLD_LAZY", 1))
        except OSError as exc:
            found = _MISSING.search(str(exc))
            missing.append(found.group(1) if found else str(exc))
    return missing


def _x_server_answers(display: str) -> bool:
    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return False
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    failed = xcb.xcb_connection_has_error(connection)
    xcb.xcb_disconnect(connection)
    return not failed


def problems(env: Mapping[str, str] | None = None) -> list[str]:
    """What keeps Qt from opening a window here (empty: nothing known)."""
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux"):
        return []
    platform = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0]
    if platform in _HEADLESS:
        return []
    display, wayland = env.get("DISPLAY", ""), env.get("WAYLAND_DISPLAY", "")
    if platform == "wayland" or (not platform and not display and wayland):
        return [] if wayland else ["no Wayland display was found (WAYLAND_DISPLAY is not set)"]
    if not display:
        return ["no display was found (DISPLAY is not set): there is no screen to open a window on"]
    missing = missing_libraries()
    if missing:
        return [f"Qt's X11 (xcb) platform plugin needs libraries that are not installed: {', '.join(missing)}"]
    if not _x_server_answers(display):
        return [f"the X server at DISPLAY={display} does not answer"]
    return []


def explain(found: list[str]) -> str:
    """The message printed before exiting with status 1."""
    lines = [f"tensorlab: the window cannot open: {found[0]}."]
    packages = sorted({DEBIAN_PACKAGES[n] for n in DEBIAN_PACKAGES if n in found[0]})
    if packages:
        lines += ["  On Debian or Ubuntu:  sudo apt-get install " + " ".join(packages),
                  "  On Fedora:            sudo dnf install xcb-util-cursor xcb-util-wm xcb-util-keysyms "
                  "xcb-util-image xcb-util-renderutil libxkbcommon-x11"]
    lines += ["  Without a display, the headless commands work: tensorlab run, tensorlab lessons, tensorlab export;",
              "  and `tensorlab --screenshot out.png` renders the window offscreen."]
    return "\n".join(lines) + "\n"


def no_core_dumps() -> None:
    """If Qt aborts anyway, leave no core file behind (the message above says why)."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
    except (ImportError, ValueError, OSError):
        pass

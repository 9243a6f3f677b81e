"""The one function that builds a window: QApplication, settings, the controller and its worker, the lesson.

The launcher (:mod:`tensorlab.gui.launch`) and the offscreen renderer
(:mod:`tensorlab.ui.window.offscreen`) both build their window here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tensorlab.core.lessons.lesson import LessonError, builtin_lessons, find_lesson
from tensorlab.core.lessons.source_import import is_source_file
from tensorlab.core.protocol.device_names import DeviceError, canonical_device
from tensorlab.core.protocol.limits import STEP_SECONDS

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from tensorlab.core.protocol.limits import Limits
    from tensorlab.ui.window.main_window import MainWindow

__all__ = ["application", "build_window", "first_size"]


def application() -> Any:
    """The QApplication of this process (made once)."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("TensorLab")
        app.setOrganizationName("TensorLab")
    return app


_FRAME, _SIDE = 40, 16   # a title bar and borders, before the window manager says how large they are


def first_size(screen_width: int, screen_height: int) -> tuple[int, int]:
    """The window's size (without its frame) at a first start on a screen whose available area is this:
    on a 1280x720 screen 1203x636, the size the stage's tests measure "at 1280x720"."""
    width = min(screen_width - _SIDE, max(int(screen_width * 0.94), min(1024, screen_width)))
    height = min(screen_height - _FRAME, max(int(screen_height * 0.94) - _FRAME, 480))
    return width, height


def _fit_screen(window: MainWindow, first_start: bool) -> None:
    """A first start fills most of the screen's available area, title bar included; later ones stay on it."""
    screen = window.screen().availableGeometry()
    geometry = window.geometry()
    if first_start or geometry.width() + _SIDE > screen.width() or geometry.height() + _FRAME > screen.height():
        width, height = first_size(screen.width(), screen.height())
        window.resize(width, height)
        window.move(screen.left() + (screen.width() - width - _SIDE) // 2,
                    screen.top() + max(0, (screen.height() - height - _FRAME) // 2))


def build_window(settings: QSettings | None = None, *, lesson: str | None = None, device: str | None = None,
                 language: str | None = None, wait: bool = True, data_dir: str | Path | None = None,
                 limits: Limits | None = None, memory_limit: int | None = None,
                 time_limit: float | None = STEP_SECONDS, run_time_limit: float | None = None) -> MainWindow:
    """The main window, first (or remembered) lesson loading, without entering the event loop.

    ``settings`` is a QSettings (tests pass an isolated one); by default the user's.
    ``data_dir``: where the steps you added are kept (default: the user data folder).
    ``wait``: return once the worker has loaded the lesson (tools, tests); the app
    itself shows the window at once and lets the worker catch up. ``limits`` and
    ``memory_limit`` (bytes) bound the session (default: the settings, else 2 GB
    or a quarter of memory); ``time_limit`` each step (as in ``tensorlab run``: a step over it is
    stopped and is that step's ``WorkerTimeout``; Esc stops one sooner) and ``run_time_limit`` all
    the worker runs (``export --png``; the window itself has none).
    """
    application()
    from PySide6.QtCore import QSettings

    from tensorlab.ui.program.controller import LabController
    from tensorlab.ui.widgets.i18n import set_language
    from tensorlab.ui.widgets.settings import SCRATCHPAD, Settings
    from tensorlab.ui.window.main_window import MainWindow

    if settings is None:
        settings = QSettings("TensorLab", "TensorLab")
    remembered = Settings(settings)
    # The language first, so that every text is made in it.
    set_language(language or remembered.language or "en")
    lessons = builtin_lessons()
    wanted_device = device or remembered.device or "cpu"
    try:
        wanted_device = canonical_device(wanted_device)
    except DeviceError:
        wanted_device = "cpu"  # a remembered device that makes no sense: fall back, never crash
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS
    from tensorlab.ui.window.preferences import remembered_memory_limit

    if memory_limit is None:
        memory_limit = remembered_memory_limit(remembered)
    controller = LabController(device=wanted_device, limits=limits or DEFAULT_LIMITS, memory_limit=memory_limit,
                               time_limit=time_limit, run_time_limit=run_time_limit)
    window = MainWindow(controller, lessons, settings, data_dir=Path(data_dir) if data_dir is not None else None)
    first_start = remembered.geometry is None
    window.restore_settings()
    _fit_screen(window, first_start)
    chosen = None
    key = lesson or remembered.lesson or (lessons[0].id if lessons else SCRATCHPAD)
    kept = next((l for l in window.lessons if l.id == key and all(l is not b for b in lessons)), None)   # a diagnosis
    source = kept is None and is_source_file(key) and os.path.lexists(key)
    if kept is not None:
        chosen = kept
    elif source:
        chosen = lessons[0] if lessons else None   # shown until the file, parsed in the worker, opens in its place
    elif key != SCRATCHPAD:
        try:
            chosen = find_lesson(key)
            if all(chosen is not l for l in lessons) and os.path.lexists(key):
                window.editing.opened_from(chosen, key)   # a lesson file: its steps are filed by its path
        except LessonError:
            chosen = lessons[0] if lessons else None
        if chosen is not None and chosen.id not in {l.id for l in window.lessons}:
            window.lessons.append(chosen)
            window.fill_lessons()
    window.open_lesson(chosen)
    if source:
        window.open_lesson_file(key)
    if wait:
        controller.wait_idle()
    return window

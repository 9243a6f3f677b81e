"""What the window remembers between runs: geometry, mode and layout, lesson, device, class vote.

(Zoom is kept by :class:`~tensorlab.ui.widgets.text_zoom.TextZoom`, each mode's dock layout by
:class:`~tensorlab.ui.window.layouts.LayoutModes`, the steps you added by
:class:`~tensorlab.ui.program.user_steps.UserSteps`.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray

if TYPE_CHECKING:
    from tensorlab.ui.window.main_window import MainWindow

__all__ = ["restore", "save", "keep_on_screen", "SCRATCHPAD"]

SCRATCHPAD = "scratchpad"   # the lesson picker's key (and the settings' value) for the scratchpad


def _flag(window: MainWindow, key: str) -> bool:
    return str(window.settings.value(key, "false")).lower() == "true"


def restore(window: MainWindow) -> None:
    """Geometry, the mode and its layout, the class vote, from ``window.settings``."""
    geometry = window.settings.value("window/geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    window.layouts.projector = _flag(window, "window/presentation")
    window.presentation_action.setChecked(window.layouts.projector)
    window.layouts.restore()
    window.apply_text_scale()
    window.set_class_vote(_flag(window, "narration/class_vote"))


def save(window: MainWindow) -> None:
    """Geometry, this mode's layout, the mode, lesson and device, into ``window.settings``."""
    state = window.controller.state
    settings = window.settings
    settings.setValue("window/geometry", window.saveGeometry())
    window.layouts.remember()
    settings.setValue("window/presentation", "true" if window.layouts.projector else "false")
    settings.setValue("session/lesson", SCRATCHPAD if state.lesson is None else state.lesson.id)
    settings.setValue("session/device", state.device)
    settings.sync()


def keep_on_screen(window: MainWindow) -> None:
    """Once the window manager has framed the window: shrink and move it into the screen's available area."""
    from PySide6.QtGui import QGuiApplication

    if QGuiApplication.platformName() == "offscreen":
        return   # no window manager, no real screen: screenshots and tests choose their own size
    screen = window.screen().availableGeometry()
    frame = window.frameGeometry()
    if screen.contains(frame):
        return
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    width = min(window.width(), screen.width() - extra_w)
    height = min(window.height(), screen.height() - extra_h)
    window.resize(width, height)
    window.move(max(screen.left(), min(frame.left(), screen.right() - width - extra_w)),
                max(screen.top(), min(frame.top(), screen.bottom() - height - extra_h)))

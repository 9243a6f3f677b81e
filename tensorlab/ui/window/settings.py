"""The window on screen between runs: kept inside the screen's available area.

What the window remembers (geometry, mode and layout, lesson, device, class vote, zoom, language,
memory budget) is read and written through :class:`~tensorlab.ui.widgets.settings.Settings`, the one
typed facade over QSettings; :meth:`MainWindow.restore_settings` and ``save_settings`` apply it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from tensorlab.ui.widgets.settings import SCRATCHPAD, Settings

__all__ = ["keep_on_screen", "SCRATCHPAD", "Settings"]


def keep_on_screen(window: QWidget) -> None:
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

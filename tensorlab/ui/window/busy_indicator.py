"""The status bar's busy look: a progress bar and Cancel, for work still running after a moment.

A step takes milliseconds: the bar, Cancel and the disabled controls appear only for
work still running after :data:`BUSY_AFTER_MS`, so ordinary steps neither flicker
nor lay the status bar out twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QProgressBar, QSizePolicy, QToolButton

from tensorlab.ui.widgets.i18n import tr

if TYPE_CHECKING:
    from tensorlab.ui.window.main_window import MainWindow

__all__ = ["BUSY_AFTER_MS", "BusyIndicator"]

BUSY_AFTER_MS = 150   # work still running after this long shows the busy bar and Cancel


class BusyIndicator(QObject):
    """Shows ``window.busy_bar`` and ``window.cancel_button`` while the controller works; calls
    ``changed`` when they appear or go (the window enables its controls again)."""

    def __init__(self, window: MainWindow, changed: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self.changed = changed
        self.shown = False             # the busy look is on show
        self._progress_shown = False   # a replay's progress is in the status bar
        window.busy_bar = QProgressBar()
        window.busy_bar.setObjectName("busyIndicator")
        window.busy_bar.setAccessibleName("Running")
        window.busy_bar.setMaximumWidth(160)
        window.busy_bar.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        window.busy_bar.setRange(0, 0)
        window.busy_bar.hide()
        window.cancel_button = QToolButton()
        window.cancel_button.setObjectName("cancelButton")
        window.cancel_button.setDefaultAction(window.cancel_action)
        window.cancel_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        window.cancel_button.hide()
        window.statusBar().addPermanentWidget(window.busy_bar)
        window.statusBar().addPermanentWidget(window.cancel_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(BUSY_AFTER_MS)
        self._timer.timeout.connect(lambda: self._show(True))
        window.controller.busyChanged.connect(self._busy_changed)
        window.controller.progressChanged.connect(self._progress)

    def _busy_changed(self, busy: bool) -> None:
        if busy:
            self._timer.start()
            return
        self._timer.stop()
        if self.shown:
            self._show(False)
        elif self._progress_shown:
            self.window.statusBar().showMessage(tr("Ready"))
        self._progress_shown = False

    def _show(self, busy: bool) -> None:
        busy = busy and self.window.controller.busy
        self.shown = busy
        self.window.busy_bar.setVisible(busy)
        self.window.busy_bar.setRange(0, 0)
        self.window.cancel_button.setVisible(busy)
        self.window.statusBar().showMessage(tr("Running…") if busy else tr("Ready"))
        self.changed()

    def _progress(self, done: int, total: int) -> None:
        if total > 1:
            self.window.busy_bar.setRange(0, total)
            self.window.busy_bar.setValue(done)
            self.window.statusBar().showMessage(tr("Replaying step {done} of {total}… (Esc cancels)")
                                                .format(done=done, total=total))
            self._progress_shown = True

"""The status bar's busy look: a progress bar and Cancel, for work still running after a moment.

A step takes milliseconds: the bar, Cancel and the disabled controls appear only for
work still running after :data:`BUSY_AFTER_MS`, so ordinary steps neither flicker
nor lay the status bar out twice.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QProgressBar, QSizePolicy, QStatusBar, QToolButton

from tensorlab.ui.program.controller import LabController
from tensorlab.ui.widgets.i18n import tr

__all__ = ["BUSY_AFTER_MS", "BusyIndicator"]

BUSY_AFTER_MS = 150   # work still running after this long shows the busy bar and Cancel


class BusyIndicator(QObject):
    """Shows ``busy_bar`` and ``cancel_button`` in ``status_bar`` while ``controller`` works; calls
    ``changed`` when they appear or go (the window enables its controls again)."""

    def __init__(self, status_bar: QStatusBar, controller: LabController, cancel: QAction,
                 changed: Callable[[], None]) -> None:
        super().__init__(status_bar)
        self.status_bar = status_bar
        self.controller = controller
        self.changed = changed
        self.shown = False             # the busy look is on show
        self._progress_shown = False   # a replay's progress is in the status bar
        self.busy_bar = QProgressBar()
        self.busy_bar.setObjectName("busyIndicator")
        self.busy_bar.setAccessibleName("Running")
        self.busy_bar.setMaximumWidth(160)
        self.busy_bar.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.busy_bar.setRange(0, 0)
        self.busy_bar.hide()
        self.cancel_button = QToolButton()
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.setDefaultAction(cancel)
        self.cancel_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.cancel_button.hide()
        status_bar.addPermanentWidget(self.busy_bar)
        status_bar.addPermanentWidget(self.cancel_button)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(BUSY_AFTER_MS)
        self._timer.timeout.connect(lambda: self._show(True))
        controller.busyChanged.connect(self._busy_changed)
        controller.progressChanged.connect(self._progress)

    def _busy_changed(self, busy: bool) -> None:
        if busy:
            self._timer.start()
            return
        self._timer.stop()
        if self.shown:
            self._show(False)
        elif self._progress_shown:
            self.status_bar.showMessage(tr("Ready"))
        self._progress_shown = False

    def _show(self, busy: bool) -> None:
        busy = busy and self.controller.busy
        self.shown = busy
        self.busy_bar.setVisible(busy)
        self.busy_bar.setRange(0, 0)
        self.cancel_button.setVisible(busy)
        self.status_bar.showMessage(tr("Running…") if busy else tr("Ready"))
        self.changed()

    def _progress(self, done: int, total: int) -> None:
        if total > 1:
            self.busy_bar.setRange(0, total)
            self.busy_bar.setValue(done)
            self.status_bar.showMessage(tr("Replaying step {done} of {total}… (Esc cancels)")
                                                .format(done=done, total=total))
            self._progress_shown = True

"""How the Measure and Copy matrix docks behave (the window's panel registry makes them).

They start hidden (the View menu shows them). Both need more room than a side
dock has, so the first time each is shown it floats over the window, large;
after that it stays where the user puts it (the window's saved layout).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QDockWidget, QStatusBar, QWidget

from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.widgets.settings import Settings

__all__ = ["place_lab_docks", "LabWindow"]


class LabWindow(Protocol):
    """What the lab docks use of the main window (a ``MainWindow``)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def storage_map(self) -> QWidget: ...

    def activateWindow(self) -> None: ...  # noqa: N802 - Qt's name
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def geometry(self) -> QRect: ...


def place_lab_docks(window: LabWindow, measure: QDockWidget, copy_matrix: QDockWidget) -> None:
    """The Measure and Copy matrix docks of ``window``: hidden, floated large when first shown, in front
    when chosen in View; a Copy matrix row loaded into the scratchpad hands the keys back to the map."""
    for dock in (measure, copy_matrix):
        dock.hide()
        dock.visibilityChanged.connect(_when_shown(window, dock))
        # Chosen in the View menu: in front, even where it shares a tab bar.
        dock.toggleViewAction().triggered.connect(lambda checked, d=dock: checked and d.raise_())
    panel = copy_matrix.widget()
    if isinstance(panel, CopyMatrixPanel):
        panel.loaded.connect(lambda operation: _show_scratchpad(window, copy_matrix, operation))


def _when_shown(window: LabWindow, dock: QDockWidget) -> Callable[[bool], None]:
    """What places ``dock`` the first time it is shown."""

    def shown(visible: bool) -> None:
        if visible:
            _place_first_time(window, dock)

    return shown


def _show_scratchpad(window: LabWindow, dock: QDockWidget, operation: str) -> None:
    """A row is in the scratchpad: out of the way of the map, and → on the map steps through it."""
    from tensorlab.ui.widgets.i18n import tr

    if dock.isFloating():
        dock.hide()  # View → Copy matrix brings it back where it was
    window.activateWindow()
    window.storage_map.setFocus(Qt.FocusReason.OtherFocusReason)
    window.statusBar().showMessage(tr("In the scratchpad: press → to run each statement, down to y = {operation}.")
                                   .format(operation=operation), 15000)


def _place_first_time(window: LabWindow, dock: QDockWidget) -> None:
    """Float ``dock`` over the window, nearly as large, once (remembered in the settings)."""
    settings = window.settings
    if settings.dock_placed(dock.objectName()):
        return
    settings.set_dock_placed(dock.objectName())
    frame = window.geometry()
    width, height = int(frame.width() * 0.9), int(frame.height() * 0.85)
    dock.setFloating(True)
    dock.resize(width, height)
    dock.move(frame.x() + (frame.width() - width) // 2, frame.y() + (frame.height() - height) // 2)

"""The Measure and Copy matrix docks, added to the main window in one call.

They start hidden (the View menu shows them). Both need more room than a side
dock has, so the first time each is shown it floats over the window, large;
after that it stays where the user puts it (the window's saved layout).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QByteArray, QRect, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QStatusBar, QWidget

from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.tools.measure_panel import MeasurePanel
from tensorlab.ui.tools.tool_controller import ToolController

__all__ = ["add_lab_docks", "LabWindow"]


class LabWindow(Protocol):
    """What the lab docks use of the main window (a ``MainWindow``); the two panels are set on it."""

    measure_panel: MeasurePanel
    copy_matrix: CopyMatrixPanel

    @property
    def controller(self) -> ToolController: ...
    @property
    def settings(self) -> QSettings: ...
    @property
    def storage_map(self) -> QWidget: ...

    def add_dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea = ...) -> QDockWidget: ...
    def activateWindow(self) -> None: ...  # noqa: N802 - Qt's name
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def geometry(self) -> QRect: ...


def add_lab_docks(window: LabWindow) -> list[QDockWidget]:
    """Create the Measure and Copy matrix docks on ``window`` (a MainWindow, which lists them in its docks)."""
    window.measure_panel = MeasurePanel(window.controller)
    window.copy_matrix = CopyMatrixPanel(window.controller)
    docks = []
    for title, name, panel in (("Measure", "measureDock", window.measure_panel),
                               ("Copy matrix", "copyMatrixDock", window.copy_matrix)):
        dock = window.add_dock(title, name, panel, Qt.DockWidgetArea.RightDockWidgetArea)
        dock.setProperty("onDemand", True)  # the layouts keep it hidden until chosen in View
        dock.hide()
        dock.visibilityChanged.connect(_when_shown(window, dock))
        # Chosen in the View menu: in front, even where it shares a tab bar.
        dock.toggleViewAction().triggered.connect(lambda checked, d=dock: checked and d.raise_())
        docks.append(dock)
    window.copy_matrix.loaded.connect(lambda operation: _show_scratchpad(window, docks[1], operation))
    return docks


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
    key = f"docks/{dock.objectName()}/placed"
    settings = window.settings
    if str(settings.value(key, "false")).lower() == "true":
        return
    settings.setValue(key, "true")
    if isinstance(settings.value("window/state"), QByteArray) and dock.isFloating():
        return
    frame = window.geometry()
    width, height = int(frame.width() * 0.9), int(frame.height() * 0.85)
    dock.setFloating(True)
    dock.resize(width, height)
    dock.move(frame.x() + (frame.width() - width) // 2, frame.y() + (frame.height() - height) // 2)

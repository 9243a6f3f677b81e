"""The Measure and Copy matrix docks, added to the main window in one call.

They start hidden (the View menu shows them) and open beside the autograd graph.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from tensorlab.ui.copy_matrix import CopyMatrixPanel
from tensorlab.ui.measure_panel import MeasurePanel

__all__ = ["add_lab_docks"]


def add_lab_docks(window: Any) -> list[QDockWidget]:
    """Create the Measure and Copy matrix docks on ``window`` (a MainWindow); the docks, for its View menu."""
    window.measure_panel = MeasurePanel(window.controller)
    window.copy_matrix = CopyMatrixPanel(window.controller)
    # After a row is put into the scratchpad, → on the storage map steps through it.
    window.copy_matrix.loaded.connect(lambda _: window.storage_map.setFocus(Qt.FocusReason.OtherFocusReason))
    neighbour = window.findChild(QDockWidget, "graphDock")
    docks = []
    for title, name, panel in (("Measure", "measureDock", window.measure_panel),
                               ("Copy matrix", "copyMatrixDock", window.copy_matrix)):
        dock = QDockWidget(window)
        dock.setObjectName(name)
        window.i18n.bind(dock.setWindowTitle, title)
        dock.setWidget(panel)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        if neighbour is not None:
            window.tabifyDockWidget(neighbour, dock)
        dock.hide()
        docks.append(dock)
    return docks

"""How the Measure, Copy matrix and Diagnose docks behave (the window's panel registry makes them).

They start hidden (the View menu shows them). Both need more room than a side
dock has, so the first time each is shown in a mode it floats over the window, on
the screen and large enough for its plot; after that it stays where the user puts
it. That it was placed is saved with the window's layout, at once (the window's
``place_tool``), so a session that does not quit cleanly cannot leave the flag without
the layout. A floating tool restored with the layout is brought back in front of the
window, on a screen (:func:`bring_back_floating`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QDockWidget, QScrollArea, QStatusBar, QWidget

from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.widgets.settings import Settings

__all__ = ["place_lab_docks", "bring_back_floating", "LabWindow"]


class LabWindow(Protocol):
    """What the lab docks use of the main window (a ``MainWindow``)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def storage_map(self) -> QWidget: ...

    def activateWindow(self) -> None: ...  # noqa: N802 - Qt's name
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def geometry(self) -> QRect: ...
    def screen(self) -> QScreen: ...
    def tool_placed(self, dock: str) -> bool: ...   # the tool has its place in this mode's layout
    def place_tool(self, dock: str) -> None: ...    # it has one now: saved with the layout, at once


def place_lab_docks(window: LabWindow, measure: QDockWidget, copy_matrix: QDockWidget,
                    *others: QDockWidget) -> None:
    """The Measure and Copy matrix docks (and ``others``: Diagnose) of ``window``: hidden, floated large when
    first shown, in front when chosen in View; a Copy matrix row loaded into the scratchpad hands the keys
    back to the map."""
    for dock in (measure, copy_matrix, *others):
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
    """Float ``dock`` over the window, large enough for its plot and on the screen, once in each mode
    (saved with the window's layout)."""
    name = dock.objectName()
    if window.tool_placed(name) or name in _PLACING:
        return
    _PLACING.add(name)   # floating it shows it again, and says so: placed once
    try:
        _float_over(window, dock)
    finally:
        _PLACING.discard(name)
    window.place_tool(name)


_PLACING: set[str] = set()


def _float_over(window: LabWindow, dock: QDockWidget) -> None:
    frame = window.geometry()
    screen = window.screen().availableGeometry()
    panel = dock.widget()
    # What the tool asks for: a scrolling tool, what its content asks (its controls and its plot).
    inner = panel.widget() if isinstance(panel, QScrollArea) else panel
    wanted = inner.sizeHint() if inner is not None else QSize(0, 0)
    # Nearly as large as the window, at least as large as the tool asks (its plot shown whole), never
    # larger than the screen.
    width = min(max(int(frame.width() * 0.9), wanted.width() + 24), screen.width() - 16)
    height = min(max(int(frame.height() * 0.92), wanted.height() + 48), screen.height() - 48)
    dock.setFloating(True)
    dock.resize(width, height)
    dock.move(frame.x() + (frame.width() - width) // 2, frame.y() + (frame.height() - height) // 2)
    _onto_screen(dock, screen)


def _onto_screen(dock: QDockWidget, screen: QRect) -> None:
    """Move (and shrink) a floating ``dock`` so that it lies inside ``screen``, title bar included."""
    size = dock.size().boundedTo(QSize(screen.width() - 16, screen.height() - 48))
    if size != dock.size():
        dock.resize(size)
    left = min(max(dock.x(), screen.left() + 8), screen.right() - size.width() - 8)
    top = min(max(dock.y(), screen.top() + 32), screen.bottom() - size.height() - 8)
    if (left, top) != (dock.x(), dock.y()):
        dock.move(left, top)


def bring_back_floating(window: LabWindow, docks: list[QDockWidget]) -> None:
    """The window is shown: a floating dock its layout restored is put on a screen and in front of it (shown
    before the window was, a window manager stacked it behind: View said Measure while nothing showed)."""
    for dock in docks:
        if not dock.isFloating() or dock.isHidden():
            continue
        screen = dock.screen().availableGeometry() if dock.screen() is not None else QRect()
        if not screen.intersects(dock.frameGeometry()):
            screen = window.screen().availableGeometry()
        _onto_screen(dock, screen)
        dock.hide()
        dock.show()
        dock.raise_()

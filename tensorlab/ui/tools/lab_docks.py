"""How the Measure, Copy matrix and Diagnose docks behave (the window's panel registry makes them).

They start hidden (the View menu shows them). Both need more room than a side
dock has, so the first time each is shown in a mode it floats over the window, on
the screen, sized for its content (its plot, its table's columns) and clear of the other floating
tools; after that it stays where the user puts
it. That it was placed is saved with the window's layout, at once (the window's
``place_tool``), so a session that does not quit cleanly cannot leave the flag without
the layout. A floating tool restored with the layout is brought back in front of the
window, on a screen (:func:`bring_back_floating`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QDockWidget, QScrollArea, QStatusBar, QWidget

from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.widgets.settings import Settings

__all__ = ["place_lab_docks", "bring_back_floating", "free_spot", "LabWindow"]


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
    tools = [measure, copy_matrix, *others]
    for dock in tools:
        dock.setProperty(_TOOL, True)
    panel = copy_matrix.widget()
    if isinstance(panel, CopyMatrixPanel):
        panel.loaded.connect(lambda operation: _show_scratchpad(window, copy_matrix, operation))
        panel.contentChanged.connect(lambda: _grow_for_content(copy_matrix))


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


_TOOL = "tensorlabTool"   # the property that marks a lab dock (the floating tools a new one keeps clear of)
_GAP = 8
TOOL_FLOOR = QSize(560, 420)   # no floating tool smaller (its controls and a readable plot or table)


def _wanted(dock: QDockWidget) -> QSize:
    """The size ``dock`` floats at: what its content asks (a scrolling tool's inner widget, its controls and
    its plot), no smaller than a tool's readable floor."""
    panel = dock.widget()
    inner = panel.widget() if isinstance(panel, QScrollArea) else panel
    asked = inner.sizeHint() if inner is not None else QSize(0, 0)
    # The frame of a floating dock: its title bar and borders (and a vertical scroll bar a tool may need).
    return QSize(max(asked.width() + 24, TOOL_FLOOR.width()), max(asked.height() + 48, TOOL_FLOOR.height()))


def _others(dock: QDockWidget) -> list[QRect]:
    """Where the other floating tools shown now are (a new tool is placed clear of them)."""
    return [other.frameGeometry() for other in _other_docks(dock)]


def free_spot(size: QSize, frame: QRect, screen: QRect, taken: list[QRect]) -> QRect:
    """Where a floating tool of ``size`` goes: on ``screen``, at the top right of the window's ``frame`` when that
    is clear of the ``taken`` rectangles (the other floating tools), else beside one of them, in a corner of
    the screen or centred; where nothing is clear, where it covers least of them.

    (At the side first, not centred: a first tool in the middle leaves no room for a second one clear of it.)
    """
    size = size.boundedTo(QSize(screen.width() - 2 * _GAP, screen.height() - 32 - _GAP))
    w, h = size.width(), size.height()
    candidates = [QPoint(frame.right() - _GAP - w, frame.top() + 32)]
    for other in taken:
        candidates += [QPoint(other.right() + _GAP, other.top()), QPoint(other.left() - _GAP - w, other.top()),
                       QPoint(other.left(), other.bottom() + _GAP), QPoint(other.left(), other.top() - _GAP - h)]
    candidates += [QPoint(screen.right() - _GAP - w, screen.top() + 32),
                   QPoint(screen.left() + _GAP, screen.top() + 32),
                   QPoint(screen.right() - _GAP - w, screen.bottom() - _GAP - h),
                   QPoint(screen.left() + _GAP, screen.bottom() - _GAP - h),
                   QPoint(frame.x() + (frame.width() - w) // 2, frame.y() + (frame.height() - h) // 2)]

    def on_screen(point: QPoint) -> QRect:
        left = min(max(point.x(), screen.left() + _GAP), screen.right() - w - _GAP)
        top = min(max(point.y(), screen.top() + 32), screen.bottom() - h - _GAP)
        return QRect(left, top, w, h)

    def covered(rect: QRect) -> int:
        return sum(rect.intersected(other).width() * rect.intersected(other).height()
                   for other in taken if rect.intersects(other))

    spots = [on_screen(point) for point in candidates]
    return min(spots, key=covered)   # the first clear one (min keeps the first of equals)


TOOL_MIN = QSize(400, 300)   # a tool placed beside another in what room the screen has: no smaller


def room_beside(size: QSize, screen: QRect, taken: list[QRect]) -> QRect | None:
    """The largest part of ``screen`` clear of every ``taken`` rectangle, left or right of one, above or below
    it, for a tool of at most ``size``; None when none is at least TOOL_MIN."""
    inner = screen.adjusted(_GAP, 32, -_GAP, -_GAP)
    regions = []
    for other in taken:
        regions += [QRect(inner.topLeft(), QPoint(other.left() - _GAP - 1, inner.bottom())),
                    QRect(QPoint(other.right() + _GAP + 1, inner.top()), inner.bottomRight()),
                    QRect(inner.topLeft(), QPoint(inner.right(), other.top() - _GAP - 1)),
                    QRect(QPoint(inner.left(), other.bottom() + _GAP + 1), inner.bottomRight())]
    clear = [r for r in regions if r.isValid() and not any(r.intersects(t) for t in taken)]
    best = max(clear, key=lambda r: min(r.width(), size.width()) * min(r.height(), size.height()), default=None)
    if best is None or best.width() < TOOL_MIN.width() or best.height() < TOOL_MIN.height():
        return None
    return QRect(best.topLeft(), size.boundedTo(best.size()))


def halves(screen: QRect, first: QSize, second: QSize) -> tuple[QRect, QRect] | None:
    """``screen`` in two, side by side, each part at least as wide as its tool's smallest size (``first``,
    ``second``) and as near half as that allows, with the gaps kept; None when they do not fit."""
    inner = screen.adjusted(_GAP, 32, -_GAP, -_GAP)
    room = inner.width() - _GAP
    if first.width() + second.width() <= room:
        left = min(max(room // 2, first.width()), room - second.width())
        return (QRect(inner.left(), inner.top(), left, inner.height()),
                QRect(inner.left() + left + _GAP, inner.top(), room - left, inner.height()))
    return None   # (not above and below: a tool's plot under its controls needs the height)


def _float_over(window: LabWindow, dock: QDockWidget) -> None:
    frame = window.geometry()
    screen = window.screen().availableGeometry()
    # Sized for its content (the plot shown whole, every column of the table), not for the window: at
    # 1920x1080 a tool took 90% of it. Placed on the screen, clear of the other floating tools (Copy matrix
    # opened exactly over Measure).
    wanted, taken = _wanted(dock), _others(dock)
    spot = free_spot(wanted, frame, screen, taken)
    if any(spot.intersects(other) for other in taken):
        # No room for it whole clear of the others (1024x768): beside them in the room left, else the screen
        # in two, the tool it would cover most in one part and this one in the other (Copy matrix opened over
        # Measure). Only a screen too small for both at their smallest leaves them covering least.
        beside = room_beside(wanted, screen, taken)
        covered = max(_other_docks(dock), key=lambda d: _overlap(spot, d.frameGeometry()))
        parts = halves(screen, covered.minimumSizeHint().expandedTo(covered.minimumSize()).expandedTo(TOOL_MIN),
                       dock.minimumSizeHint().expandedTo(dock.minimumSize()).expandedTo(TOOL_MIN))
        if beside is not None:
            spot = beside
        elif parts is not None:
            first, second = parts
            covered.resize(covered.size().boundedTo(first.size()))
            covered.move(first.topLeft())
            spot = QRect(second.topLeft(), wanted.boundedTo(second.size()))
    dock.setFloating(True)
    dock.resize(spot.size())
    dock.move(spot.topLeft())
    _onto_screen(dock, screen)


def _other_docks(dock: QDockWidget) -> list[QDockWidget]:
    window = dock.parentWidget()
    if window is None:
        return []
    return [other for other in window.findChildren(QDockWidget)
            if other is not dock and other.property(_TOOL) and other.isFloating() and other.isVisible()]


def _overlap(a: QRect, b: QRect) -> int:
    both = a.intersected(b)
    return both.width() * both.height() if a.intersects(b) else 0


def _grow_for_content(dock: QDockWidget) -> None:
    """A floating tool whose content grew (the Copy matrix's rows are in) grows to show it, never beyond its
    screen; moved only if it then leaves the screen or covers another floating tool."""
    if not dock.isFloating() or dock.screen() is None:
        return
    screen = dock.screen().availableGeometry()
    wanted = _wanted(dock).expandedTo(dock.size()).boundedTo(QSize(screen.width() - 16, screen.height() - 48))
    if wanted == dock.size():
        return
    grown = QRect(dock.pos(), wanted)
    taken = _others(dock)
    if screen.contains(grown) and not any(grown.intersects(other) for other in taken):
        dock.resize(wanted)
        return
    spot = free_spot(wanted, dock.frameGeometry(), screen, taken)
    if any(spot.intersects(other) for other in taken):
        # No room to grow clear of the other tools: into the room beside them when that is larger, else as it is
        # (never over another tool).
        spot = room_beside(wanted, screen, taken) or QRect()
        if spot.width() * spot.height() <= dock.width() * dock.height():
            return
    dock.resize(spot.size())
    dock.move(spot.topLeft())


def _onto_screen(dock: QDockWidget, screen: QRect) -> None:
    """Move (and shrink) a floating ``dock`` so that it lies inside ``screen``, title bar included."""
    size = dock.size().boundedTo(QSize(screen.width() - 16, screen.height() - 48))
    if size != dock.size():
        dock.resize(size)
    left = min(max(dock.x(), screen.left() + 8), screen.right() - size.width() - 8)
    top = min(max(dock.y(), screen.top() + 32), screen.bottom() - size.height() - 8)
    if (left, top) != (dock.x(), dock.y()):
        dock.move(left, top)


def _stage(window: LabWindow) -> QRect:
    """Where the window's storage map is on the screen (global coordinates): what the class must see."""
    view = window.storage_map
    return QRect(view.mapToGlobal(QPoint(0, 0)), view.size())


def bring_back_floating(window: LabWindow, docks: list[QDockWidget]) -> None:
    """The window is shown: a floating dock its layout restored is put on a screen and in front of it (shown
    before the window was, a window manager stacked it behind: View said Measure while nothing showed).

    One that would cover the storage map comes back hidden, where it was: View brings it back there (a launch
    into a lesson at 1024x768 opened the Measure tool over the map and the question until it was closed: h17z
    item 7). The status bar says so."""
    hidden = []
    for dock in docks:
        if not dock.isFloating() or dock.isHidden():
            continue
        screen = dock.screen().availableGeometry() if dock.screen() is not None else QRect()
        if not screen.intersects(dock.frameGeometry()):
            screen = window.screen().availableGeometry()
        _onto_screen(dock, screen)
        dock.hide()
        if window.storage_map.isVisible() and dock.frameGeometry().intersects(_stage(window)):
            hidden.append(dock.windowTitle().replace("&", ""))
            continue
        dock.show()
        dock.raise_()
    if hidden:
        from tensorlab.ui.widgets.i18n import tr

        window.statusBar().showMessage(tr("{tools}: hidden, so as not to cover the map; View brings it back where "
                                          "it was.").format(tools=", ".join(hidden)), 15000)

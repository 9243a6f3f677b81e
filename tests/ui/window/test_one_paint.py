"""A state shown paints the window once, with every panel it changed (issue #16, item 4): the drawn panels'
scenes no longer paint the window one after the other, and no paint asked for meanwhile is lost."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

from tensorlab.ui.window.offscreen import isolated_window
from tests.ui.conftest import idle


class _Paints(QObject):
    """The window's widgets painted, and those painted while its paints were held (none should be)."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window = window
        self.painted: set[QWidget] = set()
        self.while_held: list[QWidget] = []
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and isinstance(watched, QWidget) and watched.window() is self.window:
            self.painted.add(watched)
            if self.window.one_paint.holding:
                self.while_held.append(watched)
        return False

    def stop(self) -> None:
        app = QApplication.instance()
        assert app is not None
        app.removeEventFilter(self)


def _settle(qtbot, win) -> None:
    idle(qtbot, win)
    QApplication.processEvents()
    qtbot.waitUntil(lambda: not win.one_paint.holding, timeout=5_000)
    QApplication.processEvents()


def test_a_step_paints_nothing_while_its_panels_are_drawn_and_then_every_panel_it_changed(qtbot):
    """A training step forward (a model, an optimizer): no part of the window is painted while the panels draw
    the new state (each drawn panel's scene used to paint the window as soon as it had processed its items),
    and then the map, the table and the code are painted with it."""
    with isolated_window(lesson="the-optimizer-takes-the-same-step", size=(1280, 720), flashes=False) as win:
        qtbot.addWidget(win)
        qtbot.waitExposed(win)
        _settle(qtbot, win)
        win.controller.go_to(3)
        _settle(qtbot, win)
        paints = _Paints(win)
        try:
            win.commands.step_forward.trigger()
            _settle(qtbot, win)
        finally:
            paints.stop()
        assert win.controller.state.position == 4
        assert paints.while_held == []
        for panel in (win.storage_map, win.table, win.code_view):
            assert panel.viewport() in paints.painted


def test_a_paint_asked_for_while_a_state_is_drawn_comes_when_it_is_drawn(window, qtbot):
    """An update() of any widget while the window's paints are held is painted once the hold ends."""
    _settle(qtbot, window)
    label = window.position_label
    paints = _Paints(window)
    try:
        with window.one_paint.held():
            label.update()
            QApplication.sendPostedEvents(window, QEvent.Type.UpdateRequest)   # what a scene does: held
            assert label not in paints.painted
        _settle(qtbot, window)
    finally:
        paints.stop()
    assert label in paints.painted
    assert not window.one_paint.holding

"""Keys pressed while the first lesson still loads (issue 17, Build 3; review r17c finding 26): F5 too is kept, and
the loading's end never undoes the mode it chose."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication


def _post(target, key, text=""):
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        QApplication.postEvent(target, QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, text))


@pytest.mark.parametrize("to", ["map", "window"])
def test_f5_pressed_while_the_lesson_loads_is_kept_and_the_loadings_end_keeps_projector_mode(qtbot, settings, to):
    """F5 then End, right after show(): projector mode at the end, the lesson at its end; the key sent to the
    focused map, or to the window itself (under X a window not yet activated has no focused widget)."""
    from tensorlab.ui.window.build import build_window

    win = build_window(settings, lesson="expand-is-not-repeat", wait=False)
    qtbot.addWidget(win)
    win.show()
    assert win.controller.busy and not win.controller.state.program   # nothing loaded yet
    target = win.storage_map if to == "map" else win.windowHandle()
    _post(target, Qt.Key.Key_F5)
    _post(target, Qt.Key.Key_End)
    program = lambda: len(win.controller.state.program)   # noqa: E731
    qtbot.waitUntil(lambda: program() > 0 and win.controller.state.position == program()
                    and not win.controller.busy, timeout=30_000)
    qtbot.wait(300)
    QApplication.processEvents()
    assert win.layouts.projector and win.commands.presentation.isChecked()
    assert win.narration.title_with_question is True or win.layouts.projector
    win.close()

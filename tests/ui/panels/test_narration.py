"""The narration panel as shown: the question's choices keep their size (issue 17, item 2)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo

from tests.ui.conftest import idle
from tests.ui.support import go


def _choice_px(narration) -> set[int]:
    """The pixel sizes of every choice's number and text, as drawn."""
    return {QFontInfo(widget.font()).pixelSize()
            for button in narration.choice_buttons for widget in (button.key, button.label)}


@pytest.mark.parametrize("mode", ["normal", "zoomed", "projector"])
@pytest.mark.parametrize("class_vote", [False, True])
def test_choices_keep_their_size_through_mark_reveal_and_the_next_question(window, qtbot, mode, class_vote):
    if mode == "projector":
        qtbot.keyClick(window, Qt.Key.Key_F5)
    elif mode == "zoomed":
        qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    if class_vote:
        window.commands.class_vote.trigger()
    idle(qtbot, window)
    program = window.controller.state.program
    asks = [i for i, step in enumerate(program) if step.ask is not None]
    assert len(asks) >= 2
    go(window, qtbot, asks[0])
    narration = window.narration
    first = _choice_px(narration)
    assert len(first) == 1, first
    assert first.pop() == QFontInfo(narration.font()).pixelSize()
    size = QFontInfo(narration.font()).pixelSize()
    if mode != "normal":
        assert size > 12   # the zoom or the projector really made the text larger
    qtbot.keyClick(window.storage_map, Qt.Key.Key_2)         # marked (class vote) or revealed
    assert _choice_px(narration) == {size}
    if class_vote:
        qtbot.keyClick(window.storage_map, Qt.Key.Key_Return)   # revealed, and the step runs
        idle(qtbot, window)
        go(window, qtbot, asks[0])
        assert _choice_px(narration) == {size}
    go(window, qtbot, asks[1])                                 # the next question, in reused buttons
    assert narration.question.isVisible()
    assert _choice_px(narration) == {size}
    qtbot.keyClick(window.storage_map, Qt.Key.Key_1)
    assert _choice_px(narration) == {size}

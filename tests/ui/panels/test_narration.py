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


def _choices_panel(qtbot, texts: list[str], width: int):
    from PySide6.QtWidgets import QApplication, QWidget

    from tensorlab.ui.panels.narration import ChoiceButton, ChoicesLayout
    from tensorlab.ui.widgets.html import breakable_code
    box = QWidget()
    qtbot.addWidget(box)
    layout = ChoicesLayout(box)
    buttons = [ChoiceButton(i + 1, text, box) for i, text in enumerate(texts)]
    for button in buttons:
        layout.addWidget(button)
    box.resize(width, layout.heightForWidth(width))
    box.show()
    QApplication.processEvents()
    assert all(b.label.text() == breakable_code(t) for b, t in zip(buttons, texts, strict=True))
    return box, layout, buttons


def test_choices_go_two_side_by_side_when_that_is_less_tall_and_the_height_asked_is_the_height_used(qtbot):
    short = ["tensor([2., 4., 6.])", "tensor([1., 4., 9.])", "None", "RuntimeError"]
    box, layout, buttons = _choices_panel(qtbot, short, 600)
    assert layout.columns() == 2
    assert buttons[0].y() == buttons[1].y() < buttons[2].y() == buttons[3].y()   # 1 2 / 3 4
    assert buttons[1].x() > buttons[0].x() + buttons[0].width() - 1
    assert max(b.geometry().bottom() for b in buttons) <= layout.heightForWidth(600)
    assert all(b.geometry().right() < 600 for b in buttons)
    assert layout.heightForWidth(600) < sum(b.heightForWidth(600) for b in buttons)


def test_a_choice_whose_word_would_be_cut_at_half_the_width_keeps_the_choices_stacked(qtbot):
    # "requires_grad=True인" does not break: at half of a narrow dock it would stand out of its button.
    texts = ["RuntimeError — requires_grad=True인 리프 텐서는 옮길 수 없다", "a", "b", "c"]
    box, layout, buttons = _choices_panel(qtbot, texts, 300)
    assert layout.columns() == 1
    assert len({b.x() for b in buttons}) == 1


def test_the_verdict_does_not_end_a_quoted_choice_that_ends_its_own_sentence_with_a_second_period(qtbot):
    # Review r18n 4.1: "✘ Not quite: the answer is “… in an in-place operation.”." (a doubled period).
    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="inplace-on-a-leaf", size=(1280, 720)) as window:
        qtbot.addWidget(window)
        go(window, qtbot, 1)   # step 2's question is open: its right choice ends with "operation."
        ask = window.controller.state.program[1].ask
        wrong = next(i for i in range(len(ask.choices)) if i != ask.answer)
        window.narration.choose(wrong)
        qtbot.keyClick(window, Qt.Key.Key_Right)   # the step runs: the answer stays above the next note
        idle(qtbot, window)
        qtbot.waitUntil(lambda: window.narration.answer.isVisible(), timeout=5_000)
        text = window.narration.answer.text()
        assert "operation.”" in text and "operation.”." not in text, text
        # The choices are gone: the right one by its number too (review helper-159, D4).
        assert f"the answer is {ask.answer + 1}, “" in text, text

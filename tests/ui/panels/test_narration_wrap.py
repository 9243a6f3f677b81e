"""Narration text never wider than its dock (issue 17 review, item 1): code spans break at a call."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument, QTextOption
from PySide6.QtWidgets import QApplication, QLabel

from tensorlab.ui.widgets.html import ZWSP, breakable, breakable_code
from tensorlab.ui.window.offscreen import isolated_window
from tests.ui.support import go, open_lesson


def test_code_breaks_before_a_calls_dot_after_brackets_and_commas_and_nowhere_else():
    shown = breakable_code("y.detach().clone().requires_grad_(True)")
    assert shown.replace(ZWSP, "") == "y.detach().clone().requires_grad_(True)"
    assert shown.split(ZWSP) == ["y", ".detach()", ".clone()", ".requires_grad_(", "True)"]
    assert breakable_code("f() + 1.5") == "f() + 1.5"          # never between `(` and `)`, nor in a number
    html = breakable("see <code>x.detach()</code> and <b>y.clone()</b> x.detach().clone().requires_grad_()")
    assert html == ("see <code>x" + ZWSP + ".detach()</code> and <b>y.clone()</b> x" + ZWSP + ".detach()"
                    + ZWSP + ".clone()" + ZWSP + ".requires_grad_()")
    assert breakable_code("x &lt; 3.5") == "x &lt; 3.5"       # escaped HTML stays whole
    # Review r17c 10: "net[" / "1].weight.grad" and "net[1]" / ".weight.grad" in a note: one name, kept whole.
    assert breakable_code("net[1].weight.grad") == "net[1].weight.grad"
    assert breakable_code("model[0].weight.requires_grad_(False)").split(ZWSP) == [
        "model[0].weight", ".requires_grad_(", "False)"]


def _text_width(label: QLabel, width: int) -> float:
    """The widest line of ``label``'s text laid out at ``width`` (an unbreakable word sticks out)."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    doc.setDefaultTextOption(option)
    if label.textFormat() == Qt.TextFormat.PlainText:
        doc.setPlainText(label.text())
    else:
        doc.setHtml(label.text())
    doc.setTextWidth(width)
    return doc.idealWidth()


def _overflows(window) -> list[str]:
    narration = window.narration
    viewport = narration.viewport()
    bad = []
    inner = narration.widget()
    if inner.width() > viewport.width():
        bad.append(f"content {inner.width()} > viewport {viewport.width()}")
    for label in inner.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        right = label.mapTo(viewport, label.rect().topRight()).x()
        width = _text_width(label, label.contentsRect().width())
        if right > viewport.width() or width > label.contentsRect().width() + 1:
            bad.append(f"{label.objectName() or label.parent().objectName()}: text {width:.0f} in "
                       f"{label.contentsRect().width()}, right {right} of {viewport.width()}: {label.text()[:60]!r}")
    return bad


@pytest.mark.parametrize("language", ["en", "ko"])
def test_making_a_new_leaf_end_fits_the_dock_at_1024x768_projector(qtbot, language):
    # The review's case: `y.detach().clone().requires_grad_(True)` widened the text past the dock.
    with isolated_window(lesson="making-a-new-leaf", size=(1024, 768), language=language) as window:
        qtbot.addWidget(window)
        window.set_presentation(True)
        QApplication.processEvents()
        go(window, qtbot, len(window.controller.state.program))
        assert _overflows(window) == []


def _lessons(window) -> list[str]:
    picker = window.lesson_picker
    ids = [picker.itemData(i) for i in range(picker.count())]
    return [i for i in ids if isinstance(i, str) and i and i != "scratchpad"]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_no_narration_text_is_wider_than_its_viewport_at_1024x768_projector(qtbot, language):
    bad = []
    with isolated_window(lesson="making-a-new-leaf", size=(1024, 768), language=language) as window:
        qtbot.addWidget(window)
        window.set_presentation(True)
        QApplication.processEvents()
        lessons = _lessons(window)
        assert len(lessons) > 20
        if language == "ko":
            lessons = lessons[::2]   # every other lesson in Korean (the English run covers them all)
        for lesson_id in lessons:
            open_lesson(window, qtbot, lesson_id)
            for position in range(len(window.controller.state.program) + 1):
                go(window, qtbot, position)
                bad += [f"{lesson_id} step {position}: {b}" for b in _overflows(window)]
    assert bad == []

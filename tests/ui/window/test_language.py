"""English and Korean: the window, the lessons and the explanations follow the language."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt

from tensorlab.core.lessons.lesson import builtin_lessons, find_lesson
from tensorlab.ui.widgets import i18n
from tensorlab.ui.window.build import build_window
from tests.ui.conftest import idle

# Texts that read the same in both languages (code words and operand names).
SAME_IN_KOREAN = {"a", "b", "k", "dtype", "backward", "Backward", "requires grad"}


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    i18n.set_language("en")


def _choose(window, code):
    picker = window.language_picker
    picker.setCurrentIndex(picker.findData(code))
    picker.activated.emit(picker.currentIndex())


def test_switching_to_korean_and_back(window, qtbot):
    settings = window.settings.store
    for _ in range(2):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
    _choose(window, "ko")
    assert window.commands.step_forward.text() == "단계"
    assert window.findChild(type(window.docks[0]), "tensorsDock").windowTitle() == "텐서"
    assert window.builders.create.button.text() == "만들기"
    lesson = find_lesson("inplace-on-a-leaf")
    assert window.narration.note.text().startswith("x[0]은 x의 뷰(view)이고")
    assert lesson.text("title", "ko") in window.narration.title.text()
    assert window.lesson_picker.currentText() == lesson.text("title", "ko")
    output = window.output_view.toPlainText()
    assert "쉽게 말하면" in output and "뷰를 통한 리프 텐서의 인플레이스 변경" in output
    # torch's own message is never translated.
    assert "a view of a leaf Variable that requires grad is being used in an in-place operation." in output
    assert any("메모리" in text for text in window.storage_map.texts())
    assert settings.value("session/language") == "ko"
    _choose(window, "en")
    assert window.commands.step_forward.text() == "Step"
    assert window.narration.note.text().startswith("x[0] is a view of x")


def test_the_language_is_remembered(qtbot, settings):
    settings.setValue("session/language", "ko")
    window = build_window(settings)
    qtbot.addWidget(window)
    assert window.commands.reset.text() == "처음으로"
    assert window.language_picker.currentData() == "ko"
    window.close()


def test_every_text_the_window_asks_for_has_a_korean_translation(qtbot, settings, tmp_path):
    i18n.requested = set()
    try:
        window = build_window(settings, language="ko")
        qtbot.addWidget(window)
        window.show()
        for lesson in builtin_lessons():
            window.open_lesson(lesson)
            idle(qtbot, window)
            window.controller.run_to_end()
            idle(qtbot, window)
            for name in [t.name for t in window.controller.state.snapshot.tensors]:
                window.table.select_name(name)
            for index in range(len(lesson.steps)):
                window.controller.go_to(index)
                idle(qtbot, window)
                window.narration.choose(0)
        window.open_lesson(None)
        idle(qtbot, window)
        window.builders.code_line.request()
        window.builders.compute.backward_button.click()
        window.open_lesson_file(tmp_path / "missing.toml")
        window.busy_indicator._progress(1, 3)
        window._problem("cancelled")
        window.close()
        asked = set(i18n.requested)
    finally:
        i18n.requested = None
    untranslated = sorted(t for t in asked
                          if QCoreApplication.translate(i18n.CONTEXT, t) == t and t not in SAME_IN_KOREAN)
    assert untranslated == []
    assert len(asked) > 60

"""English and Korean: the window, the lessons and the explanations follow the language."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, Qt

from tensorlab.core.lang.builder_code import COPY_OPERATIONS, DTYPES, FACTORIES, MUTATIONS
from tensorlab.core.lessons.lesson import builtin_lessons, find_lesson
from tensorlab.core.lessons.tensor_rows import COLUMNS
from tensorlab.core.messages.catalogue import render
from tensorlab.ui.widgets import i18n
from tensorlab.ui.window.build import build_window
from tests.core.messages.korean_only import latin_words
from tests.ui.conftest import idle

# Texts that read the same in both languages (code words and operand names).
SAME_IN_KOREAN = {"a", "b", "k", "dtype", "backward"}


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
    # The advice's label is worded as in the text form (`run`, exports): "대신:", one catalogue entry.
    advice = next(line for line in output.splitlines() if line.startswith("대신"))
    assert advice.startswith("대신: ") and "대신: " in render("explain.paragraph_advice",
                                                             {"title": "t", "text": "x.", "advice": "a"}, "ko")
    # torch's own message is never translated.
    assert "a view of a leaf Variable that requires grad is being used in an in-place operation." in output
    assert any("메모리" in text for text in window.storage_map.texts())
    assert settings.value("session/language") == "ko"
    _choose(window, "en")
    assert window.commands.step_forward.text() == "Step"
    assert window.narration.note.text().startswith("x[0] is a view of x")
    assert any(line.startswith("Instead: ") for line in window.output_view.toPlainText().splitlines())


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


def _visible_texts(window) -> list[tuple[str, str]]:
    """(where, text) for every text a user of ``window`` can read now: labels, buttons, titles, choices,
    placeholders, column headers, tooltips and the menus (not the cells of a table: those are data)."""
    import html
    import re

    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QDockWidget,
        QGroupBox,
        QLabel,
        QLineEdit,
        QTabBar,
        QWidget,
    )

    def plain(text: str) -> str:
        # A header hyphenates a word over two lines ("ver-\nsion"); a label may be rich text.
        text = text.replace("-\n", "").replace("_\n", "_").replace("\u200b", "")   # a code label's break points
        # Code shown as code (`<code>with torch.no_grad(): ...</code>`) is code, as a backticked span is.
        text = re.sub(r"<code>(.*?)</code>", lambda m: "`" + re.sub(r"<[^>]+>", " ", m.group(1)).replace("`", "") + "`",
                      text, flags=re.S)
        return html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("&", "")

    found: list[tuple[str, str]] = []
    for widget in window.findChildren(QWidget):
        if not widget.isVisibleTo(window):
            continue
        where = f"{type(widget).__name__} {widget.objectName()}"
        texts = [widget.toolTip(), widget.accessibleName()]
        if isinstance(widget, QLabel | QAbstractButton | QLineEdit):
            texts.append(widget.text() if not isinstance(widget, QLineEdit) else widget.placeholderText())
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QDockWidget):
            texts.append(widget.windowTitle())
        if isinstance(widget, QComboBox) and widget.objectName() != "languagePicker":   # each language's own name
            texts += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QTabBar):
            texts += [widget.tabText(i) for i in range(widget.count())]
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            try:
                columns = model.columnCount()
            except TypeError:   # a list model keeps columnCount private: one column, no header
                columns = 0
            texts += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(columns)]
        found += [(where, plain(text)) for text in texts if text]
    menus = [action for action in window.menuBar().actions()]
    while menus:
        action = menus.pop()
        found += [("menu", plain(action.text())), ("menu tip", plain(action.toolTip()))]
        if action.menu() is not None:
            menus += action.menu().actions()
    return found


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "projector"])
def test_every_visible_text_of_the_korean_window_is_korean(qtbot, presentation):
    """One language per output, for the window: after code, torch's names and the glossary's kept terms,
    no English word is left anywhere a Korean user can read (a lesson played into its question)."""
    from tensorlab.ui.window.offscreen import isolated_window

    # Code a Korean window shows as code: the builders' factories, copies and mutations, the dtypes, and
    # the tensor attributes the table's columns are named after (`req.\ngrad` is requires_grad).
    code = set(FACTORIES) | set(COPY_OPERATIONS) | set(MUTATIONS) | set(DTYPES) | set(COLUMNS) | {"req.", "grad"}
    with isolated_window(lesson="inplace-on-a-leaf", language="ko", presentation=presentation) as window:
        for _ in range(4):
            window.commands.step_forward.trigger()
            idle(qtbot, window)
        english = {(where, text, tuple(left)) for where, text in _visible_texts(window)
                   if (left := latin_words(text, names=code))}
    assert english == set()


@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "projector"])
def test_every_dock_page_builder_and_drawn_label_of_the_korean_window_is_korean(qtbot, presentation):
    """Beyond the page shown: every dock brought forward in turn (the Build panel with every builder, its
    Backward part and a refusal under a field), and the texts the storage map and the graph draw (their
    labels "stride … offset", a saved tensor's state), in a lesson played past a failing backward()."""
    from PySide6.QtWidgets import QDockWidget

    from tensorlab.ui.window.offscreen import isolated_window

    code = set(FACTORIES) | set(COPY_OPERATIONS) | set(MUTATIONS) | set(DTYPES) | set(COLUMNS) | {"req.", "grad"}
    found: set[tuple[str, str, tuple[str, ...]]] = set()

    def look(window, names) -> None:
        texts = _visible_texts(window)
        texts += [("storage map", t) for t in window.storage_map.texts()]
        texts += [("graph", t) for t in window.graph_view.texts()]
        found.update((where, text, tuple(left)) for where, text in texts
                     if (left := latin_words(text, names=code | names)))

    with isolated_window(lesson="saved-tensors", language="ko", presentation=presentation) as window:
        window.controller.run_to_end()
        idle(qtbot, window)
        names = {t.name for t in window.controller.state.snapshot.tensors}
        for tensor in names:
            window.table.select_name(tensor)
            idle(qtbot, window)
            look(window, names)
        window.builders.mutate.no_grad.setChecked(True)
        for dock in window.findChildren(QDockWidget):
            if dock.isVisibleTo(window) or dock.toggleViewAction().isChecked():
                dock.raise_()
                idle(qtbot, window)
                look(window, names)
        # The bands' labels: shape, stride (a name the glossary keeps), offset, version.
        labels = [t for t in window.storage_map.texts() if " stride (" in t]
        assert labels and all("오프셋" in t and "offset" not in t for t in labels)
    assert found == set()

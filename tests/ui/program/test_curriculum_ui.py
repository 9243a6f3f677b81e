"""The course in the window: chapters in the picker, lesson checks on Open and Save, Korean messages."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tensorlab.core.lessons.lesson import builtin_lessons, dump_lesson, find_lesson
from tensorlab.ui.widgets import i18n
from tests.ui.conftest import idle


def test_the_picker_groups_lessons_under_chapter_headings(window):
    picker = window.lesson_picker
    model = picker.model()
    items = [(picker.itemText(i), picker.itemData(i), model.item(i).isEnabled()) for i in range(picker.count())]
    headings = [text for text, data, enabled in items if data is None]
    lessons = builtin_lessons()
    assert headings == list(dict.fromkeys(l.chapter for l in lessons))
    assert all(not enabled for text, data, enabled in items if data is None)
    assert [data for _, data, _ in items if data is not None] == [l.id for l in lessons] + ["scratchpad"]
    # Each lesson sits under its own chapter's heading.
    current = None
    chapter_of = {l.id: l.chapter for l in lessons}
    for text, data, _ in items:
        if data is None:
            current = text
        elif data in chapter_of:
            assert chapter_of[data] == current


def test_opening_a_lesson_with_a_wrong_answer_warns_in_the_output(window, qtbot, tmp_path):
    text = dump_lesson(find_lesson("expand-is-not-repeat")).replace("answer = 2", "answer = 0", 1)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    assert window.open_lesson_file(path) is True
    qtbot.waitUntil(lambda: "Lesson checks found a problem:" in window.output_view.toPlainText(), timeout=30_000)
    output = window.output_view.toPlainText()
    assert "step 2: choice 3 is the true one" in output
    # The status bar says it once the job is done (the result comes just before).
    qtbot.waitUntil(lambda: "Lesson checks found" in window.statusBar().currentMessage(), timeout=5_000)


def test_a_good_lesson_passes_its_checks(window, qtbot, tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(dump_lesson(find_lesson("clone-detach-order")), encoding="utf-8")
    assert window.open_lesson_file(path) is True
    qtbot.waitUntil(lambda: "Lesson checks found no problems" in window.statusBar().currentMessage(), timeout=30_000)


def test_saving_checks_the_saved_lesson(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "saved.toml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.commands.save.trigger()
    assert path.exists()
    qtbot.waitUntil(lambda: "Lesson checks found no problems" in window.statusBar().currentMessage(), timeout=30_000)


def test_refusals_read_in_korean(window, qtbot):
    try:
        window.set_language("ko")
        window.builders.code_line.edit.setText("open('f')")
        window.builders.code_line.request()
        idle(qtbot, window)
        refusal = window.builders.code_line.problem.text()
        assert refusal == "1번째 줄, 1번째 글자: TensorLab에서는 `open`을 쓸 수 없습니다"
        window.builders.create.name.setText("1x")
        window.builders.create.request()
        assert window.builders.create.problem.text().startswith("`1x`는 올바른 이름이 아닙니다")
    finally:
        i18n.set_language("en")


def test_korean_particles_follow_the_names_in_the_panels(window, qtbot):
    try:
        window.set_language("ko")
        for code in ["m = torch.zeros(3)", "n = m.view(3)"]:   # another tensor over the memory: shared
            window.builders.code_line.edit.setText(code)
            window.builders.code_line.request()
            idle(qtbot, window)
        texts = " ".join(window.storage_map.texts())
        assert "m, n이 공유" in texts
        window.builders.code_line.edit.setText("x = m.view(3)")
        window.builders.code_line.request()
        idle(qtbot, window)
        assert "m, n, x가 공유" in " ".join(window.storage_map.texts())
        window.builders.code_line.edit.setText("y = m")   # the same object under a second name: not "shared"
        window.builders.code_line.request()
        idle(qtbot, window)
        assert "m is y, n, x가 공유" in " ".join(window.storage_map.texts())
    finally:
        i18n.set_language("en")
    qtbot.keyClick(window, Qt.Key.Key_Home)

"""The Diagnose panel (issue 20): paste an error, read it in plain words, step through its reproduction.

Real widgets and a real window; the diagnosis itself is TensorLab's (``tensorlab.core.diagnose``) where the
test is about the whole path, and a stand-in with the same interface where the test is about the panel
(a diagnosis that runs until cancelled, one whose texts carry HTML).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QPushButton

from tensorlab.core.messages.catalogue import Message, verbatim
from tensorlab.ui.tools.diagnose_panel import DiagnosePanel, diagnosis_html
from tensorlab.ui.widgets import i18n
from tests.ui.conftest import idle

REPRODUCTION = ("x = torch.randn(27, 32, requires_grad=True)", "y = torch.relu(x)", "y.add_(1)",
                "y.sum().backward()")
TRACEBACK = """Traceback (most recent call last):
  File "train.py", line 12, in <module>
    loss.backward()
RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: \
[torch.FloatTensor [27, 32]], which is output 0 of ReluBackward0, is at version 1; expected version 0 instead. \
Hint: enable anomaly detection to find the operation that failed to compute its gradient, with \
torch.autograd.set_detect_anomaly(True).
"""


@dataclass(frozen=True)
class FakeDiagnosis:
    """A diagnosis with the interface of ``tensorlab.core.diagnose.Diagnosis``."""

    explained: bool = True
    kind: str | None = "error"
    type: str | None = "RuntimeError"
    message: str | None = "one of the variables needed for gradient computation has been modified"
    line: str | None = "loss.backward()"
    facts: Mapping[str, Any] = field(default_factory=lambda: {
        "tensor_type": "torch.FloatTensor", "shape": [27, 32], "node": "ReluBackward0", "output_index": 0,
        "version": 1, "expected_version": 0})
    lessons: Sequence[str] = ()
    reproduction: Sequence[str] | None = REPRODUCTION
    needs: str | None = None
    runs_here: bool = True
    scaled_down: bool = False
    title: Message | None = verbatim("A saved tensor was changed in place")
    text: Message | None = verbatim("relu saved its output; y.add_(1) changed it before backward.")
    advice: Message | None = verbatim("Use y = y + 1 instead of y.add_(1).")


def fake(diagnosis: FakeDiagnosis) -> Callable[..., FakeDiagnosis]:
    def run(text: str, cancelled: Callable[[], bool], progress: Callable[..., None]) -> FakeDiagnosis:
        progress(1, 1)
        return diagnosis
    return run


def panel_with(qtbot, diagnoser) -> DiagnosePanel:
    panel = DiagnosePanel(diagnoser=diagnoser)
    qtbot.addWidget(panel)
    panel.resize(600, 700)
    panel.show()
    return panel


def diagnose(qtbot, panel: DiagnosePanel, text: str) -> None:
    """Paste ``text`` and press Enter, as a user does; wait for the diagnosis."""
    panel.paste.setPlainText(text)
    panel.paste.setFocus()
    with qtbot.waitSignal(panel.diagnosed, timeout=20_000):
        qtbot.keyClick(panel.paste, Qt.Key.Key_Return)


def diagnose_in_window(window, qtbot, diagnoser) -> DiagnosePanel:
    """Open the window's Diagnose panel (Help menu), paste the traceback and press Enter, with ``diagnoser``."""
    window.diagnose()
    panel = window.diagnose_panel
    panel.diagnoser = diagnoser
    diagnose(qtbot, panel, TRACEBACK)
    return panel


def open_its_reproduction(window, qtbot, panel: DiagnosePanel):
    """Click the panel's reproduction button, as a user does; the window's state once it is open."""
    qtbot.mouseClick(panel.open_button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    return window.controller.state


def dock(window) -> QDockWidget:
    return window.findChild(QDockWidget, "diagnoseDock")


# -- the panel on its own --------------------------------------------------------------------------------------------
def test_enter_diagnoses_and_shows_the_explanation_facts_line_and_the_reproduction_button(qtbot):
    panel = panel_with(qtbot, fake(FakeDiagnosis(lessons=("inplace-on-a-leaf",))))
    diagnose(qtbot, panel, TRACEBACK)
    shown = panel.result.toPlainText()
    assert "A saved tensor was changed in place" in shown
    assert "relu saved its output" in shown and "Use y = y + 1" in shown
    assert "loss.backward()" in shown                    # the user's own failing line
    assert "[27, 32]" in shown and "ReluBackward0" in shown and "torch.FloatTensor" in shown
    assert "autograd node" in shown and "version now" in shown
    assert panel.open_button.isVisible()
    assert not panel.progress.isVisible() and panel.button.isEnabled()
    # The lesson that shows this error, by its title; clicking it asks the window to open it.
    assert "Lessons that show this error" in shown
    with qtbot.waitSignal(panel.lessonRequested) as asked:
        panel.result.anchorClicked.emit(QUrl("lesson:inplace-on-a-leaf"))
    assert asked.args == ["inplace-on-a-leaf"]


def test_shift_enter_is_a_new_line_and_an_empty_paste_diagnoses_nothing(qtbot):
    calls = []
    panel = panel_with(qtbot, lambda text, c, p: calls.append(text) or FakeDiagnosis())
    panel.paste.setFocus()
    qtbot.keyClick(panel.paste, Qt.Key.Key_Return)      # nothing pasted
    qtbot.keyClicks(panel.paste, "a")
    qtbot.keyClick(panel.paste, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(panel.paste, "b")
    assert panel.paste.toPlainText() == "a\nb" and calls == [] and not panel.running


def test_an_unrelated_error_is_said_to_be_not_explained_with_no_lesson_and_no_reproduction(qtbot):
    unrelated = FakeDiagnosis(explained=False, type="KeyError", message="'label'", line=None, facts={},
                              lessons=(), reproduction=None, title=None, text=None, advice=None)
    panel = panel_with(qtbot, fake(unrelated))
    diagnose(qtbot, panel, "Traceback (most recent call last):\n  File \"data.py\", line 3\nKeyError: 'label'\n")
    shown = panel.result.toPlainText()
    assert "TensorLab does not explain this text." in shown
    assert "KeyError: 'label'" in shown
    assert "Lessons" not in shown and not panel.open_button.isVisible()
    assert panel.status.text() == "Not explained."


def test_cancel_really_stops_the_diagnosis_and_its_thread_ends(qtbot):
    started, checks = threading.Event(), []

    def slow(text, cancelled, progress):
        started.set()
        for n in range(10**7):           # a diagnosis that would take minutes, checking the flag as it reads
            if cancelled():
                checks.append(n)
                raise RuntimeError("cancelled")
            progress(n, 10**7)
            time.sleep(0.001)
        return FakeDiagnosis()

    panel = panel_with(qtbot, slow)
    panel.paste.setPlainText(TRACEBACK)
    assert panel.start()
    assert started.wait(10)
    qtbot.waitUntil(lambda: panel.progress.bar.maximum() == 10**7, timeout=10_000)   # progress is shown
    assert panel.progress.isVisible() and not panel.button.isEnabled()
    qtbot.mouseClick(panel.progress.cancel_button, Qt.MouseButton.LeftButton)
    assert panel.status.text() == "Stopped: the diagnosis was cancelled."
    assert not panel.progress.isVisible() and panel.button.isEnabled()
    qtbot.waitUntil(lambda: not panel.running, timeout=10_000)   # the thread itself stopped
    assert checks and panel.diagnosis is None and not panel.open_button.isVisible()
    qtbot.wait(50)   # its outcome, delivered after the cancel, is dropped
    assert panel.status.text() == "Stopped: the diagnosis was cancelled." and panel.result.toPlainText() == ""
    # A new paste diagnoses again.
    panel.diagnoser = fake(FakeDiagnosis())
    diagnose(qtbot, panel, TRACEBACK)
    assert panel.status.text() == "Diagnosed." and panel.open_button.isVisible()


def test_a_failing_diagnosis_is_said_by_its_type_never_with_the_pasted_text(qtbot, caplog):
    def broken(text, cancelled, progress):
        raise ValueError(text)

    panel = panel_with(qtbot, broken)
    diagnose(qtbot, panel, "secret-token-123 RuntimeError: x")
    assert panel.status.text() == "The diagnosis failed (ValueError)."
    assert "secret-token-123" not in caplog.text and "secret-token-123" not in panel.status.text()


@pytest.mark.parametrize("where", ["message", "line", "facts"])
def test_html_in_the_paste_is_shown_as_text(qtbot, where):
    hostile = "<b>bold</b><img src='x'><a href='lesson:x'>link</a>&amp;\u202e\x1b[31m"
    diagnosis = FakeDiagnosis(**{where: {"node": hostile, "shape": [2]} if where == "facts" else hostile})
    panel = panel_with(qtbot, fake(diagnosis))
    diagnose(qtbot, panel, TRACEBACK)
    shown = panel.result.toPlainText()
    assert "<b>bold</b><img src='x'><a href='lesson:x'>link</a>&amp;" in shown   # as text, every character
    assert "\\u202e" in shown and "\\x1b" in shown and "\u202e" not in shown and "\x1b" not in shown
    html = panel.result.toHtml()
    assert "<img" not in html and "href=\"lesson:x\"" not in html


def test_a_very_long_pasted_message_is_shown_bounded(qtbot):
    panel = panel_with(qtbot, fake(FakeDiagnosis(message="m" * 100_000)))
    diagnose(qtbot, panel, TRACEBACK)
    shown = panel.result.toPlainText()
    assert "more characters" in shown and shown.count("m") < 5_000


def test_a_cuda_only_error_says_so_and_the_reproduction_is_its_cpu_analogue(qtbot):
    panel = panel_with(qtbot, fake(FakeDiagnosis(needs="cuda")))
    diagnose(qtbot, panel, TRACEBACK)
    shown = panel.result.toPlainText()
    assert "This error needs a CUDA GPU." in shown and "CPU analogue" in shown
    assert panel.open_button.isVisible()


def test_a_reproduction_that_needs_cuda_on_a_machine_without_it_is_not_offered(qtbot):
    panel = panel_with(qtbot, fake(FakeDiagnosis(needs="cuda", runs_here=False)))   # no controller: the CPU only
    diagnose(qtbot, panel, TRACEBACK)
    shown = panel.result.toPlainText()
    assert "This machine has no CUDA GPU, so the reproduction cannot run here." in shown
    assert "Open the reproduction to step" not in shown and not panel.open_button.isVisible()
    with qtbot.assertNotEmitted(panel.reproductionRequested):
        panel.open_reproduction()
    html = diagnosis_html(FakeDiagnosis(needs="cuda", runs_here=False), "en", devices=("cpu", "cuda:0"))
    assert "This machine has a CUDA GPU: the reproduction runs on it." in html


def test_the_panels_own_texts_in_english_and_korean(qtbot):
    before = i18n.current_language()
    panel = panel_with(qtbot, fake(FakeDiagnosis()))
    diagnose(qtbot, panel, TRACEBACK)
    english = (panel.hint.text(), panel.button.text(), panel.open_button.text(), panel.result.toPlainText())
    assert english[1] == "Diagnose" and english[2] == "Open the reproduction"
    try:
        assert i18n.set_language("ko")
        qtbot.waitUntil(lambda: panel.button.text() != "Diagnose")
        korean = (panel.hint.text(), panel.button.text(), panel.open_button.text(), panel.result.toPlainText())
        assert korean[1] == "진단" and korean[2] == "재현 코드 열기"
        assert "붙여 넣고" in korean[0] and "해결 방법:" in korean[3] and "저장할 때의 버전" in korean[3]
        assert panel.status.text() == "진단했습니다."
        # One language: the panel's own texts hold no English word (the facts' labels included).
        from tests.core.messages.korean_only import latin_words

        own = [panel.hint.text(), panel.button.text(), panel.open_button.text(), panel.status.text(),
               panel.paste.placeholderText(), panel.progress.cancel_button.text()]
        own += [line for line in korean[3].splitlines()
                if not any(part in line for part in ("loss.backward()", "torch.FloatTensor", "ReluBackward0",
                                                     "one of the variables", "RuntimeError", "A saved tensor",
                                                     "relu saved", "Use y"))]
        assert [(text, latin_words(text)) for text in own if latin_words(text)] == []
        unexplained = FakeDiagnosis(explained=False, reproduction=None, title=None, text=None, advice=None)
        html = diagnosis_html(unexplained, "ko")
        assert "TensorLab이 설명하지 않는 텍스트입니다." in html
    finally:
        i18n.set_language(before)


# -- in the window ---------------------------------------------------------------------------------------------------
def test_ctrl_shift_d_in_the_help_menu_opens_the_panel_with_the_cursor_in_its_paste_box(window, qtbot):
    action = window.findChild(QAction, "diagnoseAction")
    assert QKeySequence("Ctrl+Shift+D") in action.shortcuts()
    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    assert [m.title() for m in menus if action in m.actions()] == ["&Help"]
    assert dock(window).isHidden()
    action.trigger()
    qtbot.waitUntil(lambda: dock(window).isVisible())
    paste = window.diagnose_panel.paste
    qtbot.waitUntil(lambda: paste.window().focusWidget() is paste)
    assert dock(window).isFloating()        # over the window, large enough to read a traceback


def test_paste_a_traceback_press_enter_the_reproduction_opens_as_its_own_program_and_steps(window, qtbot):
    panel = diagnose_in_window(window, qtbot, fake(FakeDiagnosis()))
    state = open_its_reproduction(window, qtbot, panel)
    assert state.lesson is not None and state.lesson.title == "Diagnosis: A saved tensor was changed in place"
    assert [s.code for s in state.program] == list(REPRODUCTION) and state.position == 0
    assert window.lesson_picker.currentText() == "Diagnosis: A saved tensor was changed in place"
    # Before the first step the narration says what the error means, as a lesson's summary does.
    assert "relu saved its output" in window.narration.note.text()
    # It steps like a lesson: → runs each statement; the in-place step bumps y's version; backward fails.
    for _ in REPRODUCTION:
        window.step_forward()
        idle(qtbot, window)
    state = window.controller.state
    assert state.position == len(REPRODUCTION)
    versions = [r.snapshot.tensor("y").version for r in state.results[1:3]]
    assert versions[1] == versions[0] + 1
    last = state.last
    assert not last.ok and "modified by an inplace operation" in last.error.message
    assert "ReluBackward0" in last.error.message or "Relu" in last.error.message
    # A lesson the diagnosis names opens from its link, as the lesson picker opens it.
    panel.result.anchorClicked.emit(QUrl("lesson:saved-tensors"))
    idle(qtbot, window)
    assert window.controller.state.lesson.id == "saved-tensors"
    assert window.lesson_picker.currentData() == "saved-tensors"


def test_a_program_from_a_diagnosis_leaves_the_scratchpads_steps_and_comes_back_after_a_restart(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    from tensorlab.ui.window.build import build_window
    from tests.ui.support import open_lesson, run_line

    settings = QSettings(str(tmp_path / "tensorlab.ini"), QSettings.Format.IniFormat)
    settings.setValue("session/lesson", "scratchpad")
    data = tmp_path / "data"
    first = build_window(settings, data_dir=data)
    qtbot.addWidget(first)
    run_line(first, qtbot, "s = torch.arange(4.0)")
    first.editing.flush()
    saved_before = (data / "user-steps.toml").read_text(encoding="utf-8")
    assert "s = torch.arange(4.0)" in saved_before
    panel = first.diagnose_panel
    panel.diagnoser = fake(FakeDiagnosis())
    diagnose(qtbot, panel, TRACEBACK)
    panel.open_reproduction()
    idle(qtbot, first)
    lesson = first.controller.state.lesson
    assert lesson is not None and lesson.id.startswith("diagnosis-")
    first.step_forward()
    idle(qtbot, first)
    run_line(first, qtbot, "z = x * 2")           # a step of yours in the diagnosis's program, after its first
    open_lesson(first, qtbot, "scratchpad")
    assert [s.code for s in first.controller.state.program] == ["s = torch.arange(4.0)"]
    open_lesson(first, qtbot, lesson.id)
    first.close()
    text = (data / "user-steps.toml").read_text(encoding="utf-8")
    assert 'source = "diagnosis"' in text and 'source = "scratchpad"' in text

    second = build_window(settings, data_dir=data)   # the restart: the diagnosis's program is where it was
    qtbot.addWidget(second)
    state = second.controller.state
    assert state.lesson is not None and state.lesson.id == lesson.id
    assert [s.code for s in state.program] == [*REPRODUCTION[:1], "z = x * 2", *REPRODUCTION[1:]]
    assert state.lesson.title == "Diagnosis: A saved tensor was changed in place"
    assert second.lesson_picker.findData(lesson.id) >= 0
    open_lesson(second, qtbot, "scratchpad")
    assert [s.code for s in second.controller.state.program] == ["s = torch.arange(4.0)"]
    second.close()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
def test_the_dock_floats_on_the_screen_with_room_for_a_traceback_at_each_size(qtbot, settings, size):
    from tests.ui.support import fresh_window

    window = fresh_window(qtbot, settings, size)
    window.diagnose()
    qtbot.waitUntil(lambda: dock(window).isVisible())
    panel = window.diagnose_panel
    assert dock(window).isFloating()
    assert window.screen().availableGeometry().contains(dock(window).frameGeometry())
    # Room to read a traceback: the paste box and the diagnosis each some lines of a readable width.
    for widget in (panel.paste, panel.result):
        assert widget.width() >= 300 and widget.height() >= 100, (size, widget.objectName(), widget.size())
    assert panel.findChild(QPushButton, "diagnoseButton").isVisible()
    # Opening the reproduction puts the floating dock away: the map, where the steps run, is in front.
    panel.diagnoser = fake(FakeDiagnosis())
    diagnose(qtbot, panel, TRACEBACK)
    panel.open_reproduction()
    idle(qtbot, window)
    assert dock(window).isHidden() and window.focusWidget() is window.storage_map
    window.close()


# -- with TensorLab's own diagnosis (tensorlab.core.diagnose) ---------------------------------------------------------
def test_tensorlabs_diagnosis_of_an_unrelated_error_says_not_explained(qtbot):
    panel = panel_with(qtbot, None)      # the panel's default: tensorlab.core.diagnose
    diagnose(qtbot, panel, "Traceback (most recent call last):\n  File \"load.py\", line 9, in <module>\n"
                           "    label = row['label']\nKeyError: 'label'\n")
    assert panel.diagnosis is not None and not panel.diagnosis.explained
    assert panel.status.text() == "Not explained."
    shown = panel.result.toPlainText()
    assert "Not an error TensorLab explains" in shown
    assert "Lessons" not in shown and not panel.open_button.isVisible()


def test_an_unreadable_paste_says_why(qtbot):
    panel = panel_with(qtbot, None)
    diagnose(qtbot, panel, "RuntimeError: " + "x" * 1_000_001)   # over the 1 MB a traceback can be
    assert "more than the 1000000 bytes a traceback can be" in panel.status.text()
    assert panel.diagnosis is None and not panel.open_button.isVisible() and panel.result.toPlainText() == ""


def test_tensorlabs_diagnosis_of_a_pasted_traceback_opens_a_reproduction_that_steps_to_the_same_error(window, qtbot):
    panel = diagnose_in_window(window, qtbot, None)     # None: TensorLab's own diagnosis
    diagnosis = panel.diagnosis
    assert diagnosis is not None and diagnosis.explained, panel.result.toPlainText()
    assert "loss.backward()" in panel.result.toPlainText()
    state = open_its_reproduction(window, qtbot, panel)
    assert state.lesson is not None and state.lesson.title.startswith("Diagnosis: ")
    assert [s.code for s in state.program] == list(diagnosis.reproduction)
    versions = []
    for _ in diagnosis.reproduction:
        window.step_forward()
        idle(qtbot, window)
        versions.append([t for t in window.storage_map.texts() if t.startswith("version ")])
    # The map shows the saved tensor's version going up at the culprit step (y.add_(1)), then the failure.
    culprit = list(diagnosis.reproduction).index("y.add_(1)")
    assert "version 1" not in versions[culprit - 1] and "version 1" in versions[culprit]
    last = window.controller.state.last
    assert not last.ok and last.error.type == "RuntimeError"
    assert "[torch.FloatTensor [27, 32]]" in last.error.message and "is at version 1; expected version 0" in \
        last.error.message


def test_a_layout_saved_before_the_diagnose_dock_existed_is_kept_and_the_dock_floats_when_first_shown(qtbot,
                                                                                                      tmp_path):
    import shutil
    from pathlib import Path

    from PySide6.QtCore import QSettings

    from tensorlab.ui.window.build import build_window

    fixture = Path(__file__).resolve().parents[2] / "data" / "settings-0.1.0.ini"
    shutil.copy(fixture, tmp_path / "tensorlab.ini")
    settings = QSettings(str(tmp_path / "tensorlab.ini"), QSettings.Format.IniFormat)
    window = build_window(settings, data_dir=tmp_path / "data")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    try:
        assert window.layouts.reset_notice == ""          # the user's arrangement, not the default
        assert dock(window).isHidden()
        window.commands.diagnose.trigger()
        qtbot.waitUntil(lambda: dock(window).isVisible())
        assert dock(window).isFloating()
    finally:
        window.close()
        i18n.set_language("en")


def test_esc_in_the_window_cancels_a_diagnosis_that_runs(window, qtbot):
    started = threading.Event()

    def slow(text, cancelled, progress):
        started.set()
        while not cancelled():
            time.sleep(0.001)
        raise RuntimeError("cancelled")

    window.diagnose()
    panel = window.diagnose_panel
    panel.diagnoser = slow
    panel.paste.setPlainText(TRACEBACK)
    assert panel.start() and started.wait(10)
    window.commands.cancel.trigger()
    assert panel.status.text() == "Stopped: the diagnosis was cancelled."
    qtbot.waitUntil(lambda: not panel.running, timeout=10_000)


def test_a_newly_opened_program_clears_the_code_lines_old_refusal(window, qtbot):
    """A refusal typed in one program ("`x` is not defined") does not stay over the next one's status bar."""
    line = window.builders.code_line

    def refuse() -> None:
        line.edit.setText("q = x * 3")
        line.edit.setFocus()
        qtbot.keyClick(line.edit, Qt.Key.Key_Return)
        idle(qtbot, window)
        assert line.problem.isVisible() and "not defined" in line.problem.text()

    refuse()
    window.diagnose()
    panel = window.diagnose_panel
    panel.diagnoser = fake(FakeDiagnosis())
    diagnose(qtbot, panel, TRACEBACK)
    qtbot.mouseClick(panel.open_button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    assert window.controller.state.lesson is not None and not line.problem.isVisible()
    window.open_lesson(None)       # back to the scratchpad, where x is not defined either
    idle(qtbot, window)
    refuse()
    window.open_lesson_id("saved-tensors")     # a lesson
    idle(qtbot, window)
    assert window.controller.state.lesson.id == "saved-tensors" and not line.problem.isVisible()

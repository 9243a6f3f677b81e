"""The docks keep their places from question to question (issue 17, Build 1 and 5; review r17c findings 1, 6, 7,
16, 33, 35): a question never moves a dock sideways, the narration's height is back after it, the choices' columns
follow the width alone, and after a failing step the panel that explains it comes forward without hiding the
verdict."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

from tensorlab.ui.panels.narration import ChoiceButton, ChoicesLayout
from tests.ui.conftest import idle
from tests.ui.support import fresh_window, go, open_lesson


def _settle(qtbot, ms: int = 40) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def _dock(window, name: str) -> QDockWidget:
    return window.findChild(QDockWidget, name)


def _in_front(window, name: str) -> bool:
    return not _dock(window, name).visibleRegion().isEmpty()


def _widths(window) -> dict[str, tuple[int, int]]:
    """Every dock shown: its left edge and its width (what moves sideways)."""
    return {d.objectName(): (d.x(), d.width()) for d in window.docks
            if d.isVisible() and not d.isFloating() and not d.visibleRegion().isEmpty()}


def _walk(window, qtbot, answer: int = 0):
    """Every step of the lesson, answering each question with choice ``answer``: yields (position, asking)."""
    narration = window.narration
    while True:
        _settle(qtbot)
        asking = not narration.question.isHidden()
        yield window.controller.state.position, asking
        if asking and narration.choice_buttons and not narration.revealed:
            narration.choose_key(answer)
            _settle(qtbot)
            yield window.controller.state.position, asking
        if window.controller.state.position >= len(window.controller.state.program):
            return
        window.step_forward()
        idle(qtbot, window)


@pytest.mark.parametrize("size,projector,lesson,zoom", [
    ((1280, 720), False, "what-step-and-zero-grad-do", 0), ((1024, 768), True, "detach-shares-memory", 0),
    ((1280, 720), True, "detach-shares-memory", 1), ((1024, 768), True, "what-step-and-zero-grad-do", 2),
    ((1024, 768), False, "freezing-no-grad-and-eval", 1)])
def test_no_question_moves_a_dock_sideways(qtbot, settings, size, projector, lesson, zoom):
    """Before: a question widened the narration (by ~65 px in projector mode, to 62% of the window in normal
    mode), and a new tensor's name widened the table: the map, code and output jumped at every question."""
    window = fresh_window(qtbot, settings, size, projector)
    open_lesson(window, qtbot, lesson)
    for _ in range(zoom):
        window.zoom.zoom_in()
    _settle(qtbot, 100)
    first = None
    asked = 0
    for position, asking in _walk(window, qtbot):
        asked += asking
        now = _widths(window)
        if first is None:
            first = now
        for name in ("narrationDock", "codeDock", "outputDock", "tensorsDock"):
            if name in first and name in now:
                assert abs(now[name][0] - first[name][0]) <= 1 and abs(now[name][1] - first[name][1]) <= 1, (
                    position, asking, name, first[name], now[name])
    assert asked >= 2
    window.close()


@pytest.mark.parametrize("language", ["en", "ko"])
def test_after_a_question_the_narration_is_back_within_10_px_of_its_height(qtbot, settings, language):
    window = fresh_window(qtbot, settings, (1280, 720), False, language=language)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    narration = window.narration
    dock = narration.parentWidget()
    rest = None
    grew = 0
    for position, asking in _walk(window, qtbot):
        if not asking:
            if rest is None:
                rest = dock.height()
            assert abs(dock.height() - rest) <= 10, (position, rest, dock.height())
        else:
            grew = max(grew, dock.height() - (rest or dock.height()))
    window.close()


def test_the_choices_columns_follow_the_width_not_the_text(qtbot):
    """Two choices of one word each and two long ones, at one width: the same columns (before, a long word took
    one column and the next question two)."""
    box = QWidget()
    qtbot.addWidget(box)
    layout = ChoicesLayout(box)
    short = [ChoiceButton(i + 1, t, box) for i, t in enumerate(["yes", "no", "maybe", "never"])]
    long = [ChoiceButton(i + 5, "torch.Tensor.requires_grad_ " * 3, box) for i in range(4)]
    columns = {}
    for width in (200, 900):
        for name, buttons in (("short", short), ("long", long)):
            for button in short + long:
                button.setVisible(button in buttons)
            while layout.count():
                layout.takeAt(0)
            for button in buttons:
                layout.addWidget(button)
            box.resize(width, 400)
            columns[name, width] = layout._arranged(width)[0]
    assert columns["short", 200] == columns["long", 200] == 1
    assert columns["short", 900] == columns["long", 900] == 2


def _to_failing_backward(window, qtbot) -> None:
    """saved-tensors: step 5, ``y.sum().backward()``, fails (p changed after ``y = p * w`` saved it); its question
    answered first."""
    go(window, qtbot, 4)
    _settle(qtbot)
    window.narration.choose_key(0)   # the answer shows at once (no class vote)
    _settle(qtbot)
    window.step_forward()
    idle(qtbot, window)
    _settle(qtbot)
    assert window.controller.state.position == 5 and not window.controller.state.last.ok


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_in_projector_mode_the_verdict_first_then_the_next_key_brings_the_failing_graph(qtbot, settings, size):
    window = fresh_window(qtbot, settings, size, True)
    open_lesson(window, qtbot, "saved-tensors")
    _to_failing_backward(window, qtbot)
    assert _in_front(window, "narrationDock") and not _in_front(window, "graphDock")   # the verdict
    assert window.graph_waiting()
    window.step_forward()                # →: the graph, the step not run
    _settle(qtbot)
    assert window.controller.state.position == 5
    assert _in_front(window, "graphDock") and not _in_front(window, "narrationDock")
    qtbot.waitUntil(lambda: "MulBackward0" in " ".join(window.graph_view.texts()), timeout=10_000)
    window.step_forward()                # → again: the next step, and its note in front
    idle(qtbot, window)
    _settle(qtbot)
    assert window.controller.state.position == 6
    assert _in_front(window, "narrationDock") and not window.graph_waiting()
    window.close()


def test_in_normal_mode_the_failing_graph_comes_forward_at_once_beside_the_verdict(qtbot, settings):
    window = fresh_window(qtbot, settings, (1280, 720), False)
    open_lesson(window, qtbot, "saved-tensors")
    _to_failing_backward(window, qtbot)
    assert _in_front(window, "graphDock") and _in_front(window, "narrationDock")
    assert not window.graph_waiting()
    window.step_forward()                # → runs the next step
    idle(qtbot, window)
    assert window.controller.state.position == 6
    window.close()


def test_going_back_after_a_failing_step_lets_the_right_arrow_step_again(qtbot, settings):
    window = fresh_window(qtbot, settings, (1280, 720), True)
    open_lesson(window, qtbot, "saved-tensors")
    _to_failing_backward(window, qtbot)
    assert window.graph_waiting()
    go(window, qtbot, 4)
    window.step_forward()
    idle(qtbot, window)
    assert window.controller.state.position == 5
    window.close()

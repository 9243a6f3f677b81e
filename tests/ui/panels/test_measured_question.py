"""A measured question in the window: a choice asks for a measurement (the window runs it in the worker), the
narration shows its progress and Cancel, then marks the choice of the verdict measured. The measurement is
stubbed here (the narration's request is caught and a synthetic verdict handed back): no test times anything."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from tensorlab.core.protocol.measure_results import QUESTION_JOB, MeasuredQuestion
from tests.core.protocol.test_measured_question import stub_result
from tests.ui.support import go, open_lesson


def _caught(window) -> tuple[list, list]:
    """The narration's requests, caught instead of run (the window's own connections cut)."""
    narration = window.narration
    narration.measureRequested.disconnect()
    narration.measureCancelRequested.disconnect()
    asked, cancelled = [], []
    narration.measureRequested.connect(asked.append)
    narration.measureCancelRequested.connect(lambda: cancelled.append(True))
    return asked, cancelled


def test_a_choice_is_measured_then_the_measured_verdicts_choice_is_marked(window, qtbot):
    open_lesson(window, qtbot, "clone-detach-order")
    asked, _ = _caught(window)
    go(window, qtbot, 7)
    narration = window.narration
    ask = window.controller.state.program[7].ask
    assert ask is not None and ask.measured is not None and ask.measured.size == 10
    assert narration.question.isVisible() and len(narration.choice_buttons) == 3
    narration.choose(0)
    assert asked == [ask.measured.params().to_dict()]          # the window is asked to measure, nothing more
    assert narration.measure_row.isVisible() and "Measuring" in narration.feedback.text()
    assert [b.look for b in narration.choice_buttons] == ["marked", "plain", "plain"]
    narration.choose(1)                                         # no second choice while it measures
    assert len(asked) == 1 and narration.choice_buttons[1].look == "plain"
    narration.measure_progress(QUESTION_JOB, 2, 6)
    assert narration.measure_row.bar.value() == 2 and narration.measure_row.bar.maximum() == 6
    narration.measure_progress("measure", 5, 6)                  # the Measure dock's own job: not this question's
    assert narration.measure_row.bar.value() == 2
    narration.measure_finished(QUESTION_JOB, stub_result("same"), "")
    assert not narration.measure_row.isVisible()
    # "same" is the second choice of this question: it is right, the one chosen (the first) is not.
    assert [b.look for b in narration.choice_buttons] == ["wrong", "right", "plain"]
    feedback = narration.feedback.text()
    assert "Not quite: the answer is 2" in feedback and "Measured on cpu: no measurable difference" in feedback
    go(window, qtbot, 8)                                        # the step runs; the measured answer stays above
    assert narration.answer.isVisible() and "no measurable difference" in narration.answer.text()


def test_cancel_leaves_the_question_open_and_a_failure_is_said(window, qtbot):
    open_lesson(window, qtbot, "clone-detach-order")
    asked, cancelled = _caught(window)
    go(window, qtbot, 8)
    narration = window.narration
    assert window.controller.state.program[8].ask.measured.size == 10**7
    narration.choose(2)
    cancel = narration.measure_row.findChild(QPushButton, "askMeasureCancel")
    assert cancel is not None and cancel.isVisible()
    cancel.click()
    assert cancelled == [True]
    narration.measure_finished(QUESTION_JOB, None, "cancelled")
    assert "cancelled" in narration.feedback.text() and not narration.measure_row.isVisible()
    assert all(b.look == "plain" for b in narration.choice_buttons)   # nothing revealed: choose again
    narration.choose(1)
    assert len(asked) == 2
    narration.measure_finished(QUESTION_JOB, None, "the worker stopped")
    assert "The measurement failed: the worker stopped" in narration.feedback.text()
    narration.choose(1)
    narration.measure_finished(QUESTION_JOB, stub_result("slower", size=10**7), "")
    # "slower" (clone().detach() takes longer) is this question's third choice.
    assert [b.look for b in narration.choice_buttons] == ["plain", "wrong", "right"]


def test_the_verdict_measured_once_answers_the_question_again_without_measuring(window, qtbot):
    open_lesson(window, qtbot, "clone-detach-order")
    asked, _ = _caught(window)
    go(window, qtbot, 7)
    narration = window.narration
    narration.choose(1)
    narration.measure_finished(QUESTION_JOB, stub_result("faster"), "")
    assert [b.look for b in narration.choice_buttons] == ["plain", "wrong", "right"]
    go(window, qtbot, 6)
    go(window, qtbot, 7)                                        # asked again: the verdict measured then
    narration.choose(2)
    assert len(asked) == 1 and narration.choice_buttons[2].look == "right"
    assert MeasuredQuestion(10, ("slower", "same", "faster")).choice(stub_result("faster")) == 2

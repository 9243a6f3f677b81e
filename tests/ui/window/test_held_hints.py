"""A question must not be answerable from the screen (#18, #21 item 4): while a prediction is open, the
panels hold back exactly the hint that would answer it, and show it again once it is answered.

On real widgets of a real window, at every lesson step where a panel said the answer before the question:
the Autograd graph's "changed in place" / "freed by backward()" of the tensor whose backward() the
question is about, the Output panel's note that a hidden write goes unnoticed by backward(), the Values
panel's "only leaves … keep .grad"."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tensorlab.ui.widgets.held_hints import Held
from tensorlab.ui.widgets.i18n import set_language
from tests.ui.conftest import idle
from tests.ui.support import fresh_window, go, open_lesson

# (lesson, step with the question (1-based), the tensor whose graph the class looks at, the give-away)
GRAPH = [
    ("what-step-and-zero-grad-do", 14, "loss", "changed in place"),
    ("inplace-on-a-saved-output", 4, "y", "changed in place"),
    ("saved-tensors", 5, "y", "changed in place"),
    ("data-and-numpy-bypass", 10, "y", "changed in place"),
    ("backward-twice", 4, "y", "freed by backward()"),
]
KO_GRAPH = {"changed in place": "인플레이스 연산으로 바뀜", "freed by backward()": "메모리를 해제함"}
HELD_LINE = "(what each node saved: shown once you answer the question)"


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    set_language("en")


@pytest.fixture
def lab(qtbot, settings):
    window = fresh_window(qtbot, settings, (1280, 720))
    yield window
    window.close()


def _at_question(window, qtbot, lesson: str, step: int, tensor: str | None = None,
                 panel: str = "graphDock") -> None:
    """The lesson opened, the steps before ``step`` run, its question open; ``tensor`` selected and ``panel``'s
    tab raised, as the class looks at it (a panel behind another's tab draws only when it is raised)."""
    window.show_panel(panel)
    open_lesson(window, qtbot, lesson)
    for _ in range(3):   # a go_to asked while the lesson's first state is still coming is asked again
        go(window, qtbot, step - 1)
        if window.controller.state.position == step - 1:
            break
    narration = window.narration
    # The state the worker reached is shown with its question (the signal can come a moment after idle).
    try:
        qtbot.waitUntil(lambda: narration._ask_step == step - 1 and narration.question.isVisible(), timeout=30_000)
    except Exception as error:   # say where it stands (a worker under load, a state not shown)
        state = window.controller.state
        raise AssertionError((state.position, state.last and state.last.error, narration._ask_step,
                              narration.question.isHidden(), narration.isVisible(), window.problem)) from error
    assert not narration.is_answered(step - 1, narration._ask_code)
    if tensor is not None:
        _select(window, qtbot, tensor)
    qtbot.wait(20)
    QApplication.processEvents()


def _select(window, qtbot, tensor: str) -> None:
    """Select ``tensor`` (as a click on its row) and wait for its graph, read by the worker on demand."""
    window._selection_changed(tensor)
    idle(qtbot, window)
    qtbot.waitUntil(lambda: "Reading the graph" not in _graph_text(window) and "그래프를 읽는 중" not in
                    _graph_text(window), timeout=30_000)


def _graph_text(window) -> str:
    return "\n".join(window.graph_view.texts())


def _answer(window, qtbot) -> None:
    """Choose the question's right answer (any choice answers it)."""
    narration = window.narration
    narration.choose(narration._ask.answer)
    idle(qtbot, window)
    QApplication.processEvents()


@pytest.mark.parametrize(("lesson", "step", "tensor", "giveaway"), GRAPH)
def test_the_graph_holds_the_saved_tensors_state_until_the_question_is_answered(lab, qtbot, lesson, step, tensor,
                                                                               giveaway):
    _at_question(lab, qtbot, lesson, step, tensor)
    text = _graph_text(lab)
    assert lab.graph_view.info is not None and lab.graph_view.info.name == tensor
    assert HELD_LINE in text             # it says what is held, and until when ...
    drawn = text.replace(HELD_LINE, "")  # ... and no saved tensor: which it is, its state, its versions
    assert "saved " not in drawn and giveaway not in drawn and "version" not in drawn and "freed" not in drawn
    assert lab.graph_view.graph.nodes[0].name in drawn   # the nodes are drawn
    _answer(lab, qtbot)
    text = _graph_text(lab)
    assert giveaway in text and HELD_LINE not in text


def test_the_held_graph_says_nothing_false_and_comes_back_when_the_step_runs_or_is_asked_again(lab, qtbot):
    lesson, step, tensor, giveaway = GRAPH[0]
    _at_question(lab, qtbot, lesson, step, tensor)
    saved = [s for node in lab.graph_view.graph.nodes for s in node.saved]
    text = _graph_text(lab)
    # No saved tensor is listed (which one a node keeps answers such a question), only the held line.
    assert saved and text.count("saved") == HELD_LINE.count("saved")
    # Running the step (without answering) shows the state again: the question is gone with it.
    lab.step_forward()
    idle(qtbot, lab)
    assert not lab.panels.view.held
    go(lab, qtbot, step - 1)     # step back: the question is open again, the hint held again
    _select(lab, qtbot, tensor)
    assert giveaway not in _graph_text(lab)
    _answer(lab, qtbot)
    assert giveaway in _graph_text(lab)


def test_in_korean_too(qtbot, settings):
    window = fresh_window(qtbot, settings, (1280, 720), language="ko")
    lesson, step, tensor, giveaway = GRAPH[0]
    _at_question(window, qtbot, lesson, step, tensor)
    text = _graph_text(window)
    assert KO_GRAPH[giveaway] not in text and "버전" not in text
    assert "답하면 표시됩니다" in text
    _answer(window, qtbot)
    assert KO_GRAPH[giveaway] in _graph_text(window)
    window.close()


def test_a_question_the_graph_cannot_answer_holds_only_the_code_after_it(lab, qtbot):
    """A question on a step that neither runs backward() nor reads a .grad (relu-inplace step 4,
    `r = relu(s)`) holds no panel's hint: every panel says all it knows, but the lines after the asked one."""
    _at_question(lab, qtbot, "relu-inplace", 4)
    assert lab.panels.view.held == Held(later_code=True)


# (lesson, step with the question (1-based)): the line after it is its retry under no_grad or its fix, which says
# the asked one raises (reviews r18ae, r18af, r18ag).
RETRIES = [("a-hand-written-sgd-step", 4), ("backward-of-a-non-scalar", 3), ("copy-into-a-tensor", 6)]


@pytest.mark.parametrize(("lesson", "step"), RETRIES)
def test_the_code_panel_shows_no_line_after_the_asked_one_until_it_is_answered(lab, qtbot, lesson, step):
    _at_question(lab, qtbot, lesson, step)
    program = lab.controller.state.program
    code = lab.code_view
    shown = code.lines   # a line per step shown
    asked, after = program[step - 1].code, program[step].code
    assert len(shown) == step and shown[-1].endswith(asked)
    assert code.toPlainText().endswith("\n… the rest once you answer") and after not in code.toPlainText()
    assert code.count() == step + 1 and code.visualItemRect(code.item(step)).isValid()   # the held line is seen
    _answer(lab, qtbot)
    assert len(code.lines) == len(program) and code.lines[step] == after
    assert "… the rest once you answer" not in code.toPlainText()


def test_the_code_panel_holds_nothing_while_the_narration_is_closed(lab, qtbot):
    lesson, step = RETRIES[0]
    open_lesson(lab, qtbot, lesson)
    lab.panels.dock_of("narration").close()
    go(lab, qtbot, step - 1)
    assert len(lab.code_view.lines) == len(lab.controller.state.program)


@pytest.mark.parametrize(("lesson", "step"), [("data-and-numpy-bypass", 6), ("detach-and-the-version-counter", 10)])
def test_the_output_holds_the_note_that_backward_will_not_notice(lab, qtbot, lesson, step):
    _at_question(lab, qtbot, lesson, step)
    text = lab.output_view.toPlainText()
    # Not even its box: it comes only after a write autograd cannot see, so its heading alone answered (r18y).
    assert "TensorLab noticed" not in text
    assert "silently wrong" not in text and "behind autograd" not in text
    _answer(lab, qtbot)
    text = lab.output_view.toPlainText()
    assert "TensorLab noticed" in text and "silently wrong" in text


def test_the_values_panel_holds_why_a_grad_is_none(lab, qtbot):
    """clone-keeps-the-graph step 8 asks whether reading y.grad (y not a leaf) warns."""
    _at_question(lab, qtbot, "clone-keeps-the-graph", 8, "y", panel="valuesDock")
    note = lab.values_view.grad_plot.note.text()
    assert "only leaves" not in note and note.startswith("None")
    _answer(lab, qtbot)
    assert "only leaves" in lab.values_view.grad_plot.note.text()


_AGAIN = '''
[lesson]
id = "held-culprit"
title = "A second backward after a failing one"
[[step]]
code = "x = torch.ones(3, requires_grad=True)"
[[step]]
code = "p = x * 2"
[[step]]
code = "y = (p * p).sum()"
[[step]]
code = "p.mul_(2)"
[[step]]
code = "y.backward()"
[[step]]
code = "y.backward()"
[step.ask]
question = "Does y.backward() fail again?"
check = "error"
choices = ["no error", "RuntimeError: one of the variables needed for gradient computation has been modified"]
answer = 1
'''


def test_the_maps_culprit_mark_is_held_while_a_question_on_the_next_backward_is_open(lab, qtbot):
    """A teacher's lesson asks, after a failing backward(), whether the next one fails: the map's mark of the
    write that broke it (#21 item 4) would answer it, so it is held until the question is answered."""
    from tensorlab.core.lessons.lesson import parse_lesson

    lab.controller.load_lesson(parse_lesson(_AGAIN))
    idle(qtbot, lab)
    go(lab, qtbot, 5)
    assert lab.controller.state.last.error is not None and lab.narration.question.isVisible()
    assert lab.storage_map.culprit_items() == []
    _answer(lab, qtbot)
    assert lab.storage_map.culprit_items()
    go(lab, qtbot, 4)   # back, and forward to the failing backward again: its question is open again
    go(lab, qtbot, 5)
    assert lab.storage_map.culprit_items() == []


def test_a_class_vote_holds_the_hint_until_the_vote_is_revealed(lab, qtbot):
    """A class vote marks a choice first: the question is still open, the hint still held; → reveals it
    and runs the step, which shows the state (the failed backward) as always."""
    lesson, step, tensor, giveaway = GRAPH[0]
    lab.set_class_vote(True)
    _at_question(lab, qtbot, lesson, step, tensor)
    lab.narration.choose(lab.narration._ask.answer)
    idle(qtbot, lab)
    assert lab.narration.pending_vote and lab.panels.view.held.saved_states
    assert giveaway not in _graph_text(lab)
    lab.step_forward()
    idle(qtbot, lab)
    assert lab.controller.state.position == step and not lab.panels.view.held
    _select(lab, qtbot, tensor)
    assert giveaway in _graph_text(lab)
    lab.set_class_vote(False)


def test_nothing_is_held_while_the_narration_is_closed(lab, qtbot):
    """No question is asked while the narration's dock is closed: every hint is shown."""
    lesson, step, tensor, giveaway = GRAPH[0]
    open_lesson(lab, qtbot, lesson)
    lab.panels.dock_of("narration").close()
    lab.show_panel("graphDock")
    go(lab, qtbot, step - 1)
    _select(lab, qtbot, tensor)
    assert not lab.panels.view.held and giveaway in _graph_text(lab)

"""Which hints an open question holds back (tensorlab.ui.widgets.held_hints): those its step would reveal."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tensorlab.core.lessons.lesson import Ask
from tensorlab.ui.widgets.held_hints import HOLD_NOTHING, Held, held_hints, reads_grad, runs_backward


def _state(code: str, check: str | None, position: int = 0):
    """A player state at ``position`` whose next step is ``code``, with a question on ``check`` (None: none)."""
    ask = None if check is None else Ask("?", ("a", "b"), 0, check=check)
    return SimpleNamespace(program=(SimpleNamespace(code=code, ask=ask),), position=position)


@pytest.mark.parametrize("code", ["loss.backward()", "y.sum().backward()", "z.backward(retain_graph=True)",
                                  "torch.autograd.backward(y)", "g = torch.autograd.grad(y, x)",
                                  "for _ in range(3):\n    loss = net(x).sum()\n    loss.backward()"])
def test_a_backward_step_holds_the_saved_tensors_states_the_grad_reasons_and_the_notes(code):
    assert runs_backward(code)
    assert held_hints(_state(code, "error"), answered=False) == Held(True, True, True, later_code=True)
    assert held_hints(_state(code, "x.grad"), answered=False) == Held(True, True, True, later_code=True)


@pytest.mark.parametrize(("code", "check"), [("print(y.grad)", "warning"), ("w.grad = None", "w.grad"),
                                             ("opt.zero_grad()", "net[1].weight.grad")])
def test_a_step_about_a_gradient_holds_only_why_a_grad_is_none(code, check):
    assert held_hints(_state(code, check), answered=False) == Held(grad_reasons=True, later_code=True)


@pytest.mark.parametrize(("code", "check"), [("r = relu(s)", "error"), ("b = a.grad_fn", "b"),
                                             ("x.requires_grad_()", "x.requires_grad"), ("y = x * 2", "y.grad_fn")])
def test_other_questions_hold_only_the_code_after_the_asked_step(code, check):
    assert not reads_grad(code) and not reads_grad(check) and not runs_backward(code)
    assert held_hints(_state(code, check), answered=False) == Held(later_code=True)
    assert not HOLD_NOTHING


def test_nothing_is_held_once_answered_without_a_question_or_at_the_end():
    assert held_hints(_state("loss.backward()", "error"), answered=True) is HOLD_NOTHING
    assert held_hints(_state("loss.backward()", None), answered=False) is HOLD_NOTHING
    assert held_hints(_state("loss.backward()", "error", position=1), answered=False) is HOLD_NOTHING


def test_names_that_only_contain_the_words_are_not_steps_that_run_backward():
    assert not runs_backward("backward_hook = 1") and not runs_backward("x.grad_fn")
    assert not reads_grad("x.grad_fn") and not reads_grad("x.requires_grad") and reads_grad("x.grad")


def test_every_question_of_the_course_a_graph_answers_holds_the_saved_states():
    """Played in a real session: a question whose step fails because of a saved tensor (changed in place, or
    freed by an earlier backward) is one the graph answers before it runs: each such question of every built-in
    lesson holds the saved tensors' states (a new lesson whose step of another kind fails so fails here)."""
    from tensorlab.core.lessons.lesson import builtin_lessons
    from tensorlab.core.protocol.snapshot import SavedStatus
    from tensorlab.core.session.session import Session

    alarming = (SavedStatus.CHANGED, SavedStatus.FREED)
    because_of_saved = ("modified by an inplace operation", "backward through the graph a second time")
    found = []
    for lesson in builtin_lessons():
        session = Session()
        for index, step in enumerate(lesson.steps):
            shown = False
            if step.ask is not None:
                snapshot = session.take_snapshot(True)
                shown = any(saved.status in alarming for info in snapshot.tensors if info.graph is not None
                            for node in info.graph.nodes for saved in node.saved)
            result = session.execute(step.statement)
            if shown and result.error is not None and any(t in result.error.text("en") for t in because_of_saved):
                found.append((lesson.id, index + 1))
                state = SimpleNamespace(program=tuple(lesson.steps), position=index)
                assert held_hints(state, answered=False).saved_states, (lesson.id, index + 1, step.code)
    # The lessons the give-away was found in (#18/#21 follow-up) are among them (relu-inplace step 5 no longer
    # asks: its error is stated, review r18t F8).
    assert {("what-step-and-zero-grad-do", 14), ("inplace-on-a-saved-output", 4),
            ("backward-twice", 4), ("saved-tensors", 5), ("data-and-numpy-bypass", 10)} <= set(found)

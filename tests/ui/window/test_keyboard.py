"""Keyboard flow, pickers and the narration's questions (issue 6, items 3 and 5)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from tests.ui.conftest import idle
from tests.ui.support import go, open_lesson, run_line


def test_after_a_builder_click_the_arrow_keys_step_again(window, qtbot):
    go(window, qtbot, 1)
    name = window.builders.create.name
    name.setFocus()
    name.clear()
    qtbot.keyClicks(name, "q")        # typing in a field is typing
    assert name.text() == "q"
    qtbot.mouseClick(window.builders.create.button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    assert QApplication.focusWidget() is window.storage_map
    position = window.controller.state.position
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    idle(qtbot, window)
    assert window.controller.state.position == position + 1


def test_enter_in_a_builder_field_runs_that_builder(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    shape = window.builders.create.shape
    shape.setFocus()
    shape.setText("3")
    qtbot.keyClick(shape, Qt.Key.Key_Return)
    idle(qtbot, window)
    assert [s.code for s in window.controller.state.program] == ["x = torch.ones(3, requires_grad=True)"]
    target = window.builders.copy.target
    target.setFocus()
    qtbot.keyClick(target, Qt.Key.Key_Enter)
    idle(qtbot, window)
    assert window.controller.state.program[-1].code == "y = x.detach()"


def test_backward_targets_the_newest_scalar_and_pickers_the_newest_tensor(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "x = torch.ones(3, requires_grad=True)")
    run_line(window, qtbot, "s = (x * 2).sum()")
    compute = window.builders.compute
    assert compute.backward_target.currentText() == "s"
    qtbot.mouseClick(compute.backward_button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    run_line(window, qtbot, "b = (x * 3).sum()")
    assert compute.backward_target.currentText() == "b"
    qtbot.mouseClick(compute.backward_button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    assert window.controller.state.program[-1].code == "b.backward()"
    assert window.controller.state.snapshot.tensor("x").grad == (5.0, 5.0, 5.0)   # 2 + 3, not 2 + 2
    run_line(window, qtbot, "v = x.detach()")
    assert window.builders.copy.source.currentText() == "v"
    assert window.builders.mutate.target.currentText() == "v"
    assert compute.a.currentText() == "v"
    window.builders.copy.source.setCurrentText("x")   # a choice the user made stays on a redraw
    window.show_state(window.controller.state)
    assert window.builders.copy.source.currentText() == "x"


def test_keys_1_to_4_choose_an_answer(window, qtbot):
    go(window, qtbot, 1)
    narration = window.narration
    assert narration.question.isVisible() and len(narration.choice_buttons) >= 2
    qtbot.keyClick(window.storage_map, Qt.Key.Key_2)
    assert narration.feedback.isVisible()
    assert ("Right" in narration.feedback.text()) == (narration._ask.answer == 1)


def test_class_vote_marks_a_choice_and_the_arrow_reveals_and_runs(window, qtbot):
    settings = window.settings.store
    go(window, qtbot, 1)
    window.commands.class_vote.trigger()
    assert settings.value("narration/class_vote") == "true"
    narration = window.narration
    qtbot.keyClick(window.storage_map, Qt.Key.Key_1)
    assert "Marked" in narration.feedback.text()
    assert narration.choice_buttons[0].look == "marked"
    assert "Right" not in narration.feedback.text() and "Not quite" not in narration.feedback.text()
    assert window.controller.state.position == 1
    qtbot.keyClick(window.storage_map, Qt.Key.Key_Return)      # Enter (or →) reveals, then runs the step
    idle(qtbot, window)
    assert window.controller.state.position == 2
    assert narration.answer.isVisible()
    answer = narration.answer.text()
    assert ("Right" in answer) == (window.controller.state.program[1].ask.answer == 0)


def test_a_reveal_keeps_the_narrations_dock_and_shows_the_verdict_at_1280x720(window, qtbot):
    """Normal mode at 1280x720; projector mode (text half as large again) at 1920x1080. The reveal used to
    grow the dock for the verdict (review r17: the map's share fell to 23%): it keeps it, and the verdict is in
    view (scrolled to when it does not fit)."""
    from tests.ui.support import in_viewport

    for projector in (False, True):
        window.set_presentation(projector)
        window.resize(*((1920, 1080) if projector else (1280, 720)))
        for lesson in ("inplace-on-a-leaf", "clone-keeps-the-graph", "detach-and-the-version-counter"):
            open_lesson(window, qtbot, lesson)
            steps = window.controller.state.program
            for position, step in enumerate(steps):
                if step.ask is None:
                    continue
                go(window, qtbot, position)
                narration = window.narration
                qtbot.wait(50)   # the dock made room for the question (a moment after the step)
                dock = narration.parentWidget().size()
                window.narration.choose(len(step.ask.choices) - 1)
                # The reveal keeps the dock's size (the map keeps its share, the choices their places) and
                # scrolls to the verdict when it does not fit below them.
                qtbot.waitUntil(lambda n=narration: in_viewport(n.feedback, n), timeout=2000)
                assert narration.parentWidget().size() == dock
    assert not window.findChildren(QPushButton, "askChoice0")


def test_keys_pressed_before_the_first_state_is_shown_are_queued_not_lost(qtbot, settings):
    """→ → and a choice key pressed right after show(), while the worker still loads the lesson."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QKeyEvent

    from tensorlab.ui.window.build import build_window

    win = build_window(settings, wait=False)
    qtbot.addWidget(win)
    win.show()
    assert win.controller.busy and not win.controller.state.program   # nothing loaded yet
    # Sent, not posted: a posted key waits for the event loop, where the worker's first state (already in the pipe
    # when a worker is warm) may be dispatched before it (glib orders its sources freely); the key then came after
    # the first state, which is not what this test is about (seen 1 run in 4 under load).
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_1):
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(win.storage_map, QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier,
                                                              "1" if key == Qt.Key.Key_1 else ""))
    # The first window starts its worker (import torch) and loads the lesson before the keys apply: on a machine
    # loaded by other processes that took 70 s (four copies of this test at once, load 15), so the limit is
    # generous; what the test checks is that the keys arrive, not how soon.
    qtbot.waitUntil(lambda: win.controller.state.position == 2 and not win.controller.busy, timeout=180_000)
    narration = win.narration
    if narration.question.isVisible():          # the third key chose an answer of step 2's question
        assert narration.feedback.isVisible()
    # Ctrl+L and a line typed at once: the letters (a space too, not a step) go to the code line, Enter runs it.
    win.close()
    again = build_window(settings, wait=False)
    qtbot.addWidget(again)
    again.show()
    none = Qt.KeyboardModifier.NoModifier
    keys = [(Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier, ""), (Qt.Key.Key_Q, none, "q"),
            (Qt.Key.Key_Space, none, " "), (Qt.Key.Key_Equal, none, "="), (Qt.Key.Key_2, none, "2"),
            (Qt.Key.Key_Return, none, "\r")]
    assert again.controller.busy and not again.controller.state.program
    for key, modifiers, text in keys:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(again.storage_map, QKeyEvent(kind, key, modifiers, text))
    qtbot.waitUntil(lambda: "q =2" in [step.code for step in again.controller.state.program], timeout=180_000)
    win = again
    idle(qtbot, win)
    go(win, qtbot, 2)
    # Keys after the first state go straight to their actions again.
    qtbot.keyClick(win.storage_map, Qt.Key.Key_Left)
    idle(qtbot, win)
    assert win.controller.state.position == 1

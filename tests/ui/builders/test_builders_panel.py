"""The build panel does what you mean (issue 17, item 6): a picker keeps your choice, `*2` is a
follow-up, Compute proposes the tensors you made last."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import idle
from tests.ui.support import open_lesson


def _click(qtbot, window, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    idle(qtbot, window)


def _type(qtbot, edit, text: str) -> None:
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


def _preview(builder) -> str:
    """The builder's "will run:" line as read (its break hints removed)."""
    return builder.preview.text().replace("\u200b", "")


def _codes(window) -> list[str]:
    return [step.code for step in window.controller.state.program]


def test_the_copy_builders_source_stays_what_you_chose_and_then_takes_star_2(window, qtbot):
    """The post's demo (b): two copies of x, `* 2` then `* 3` (the second one became `y.clone() * 3`)."""
    open_lesson(window, qtbot, "scratchpad")
    builders = window.builders
    create = builders.create
    _type(qtbot, create.name, "x")
    _type(qtbot, create.shape, "3")
    create.requires_grad.setChecked(True)
    _click(qtbot, window, create.button)
    copy = builders.copy
    assert copy.source.currentText() == "x"
    copy.operation.setCurrentIndex(copy.operation.findData("clone()"))
    _type(qtbot, copy.follow_up, "*2")
    _type(qtbot, copy.target, "y")
    assert not copy.problem.isVisible()
    assert "y = x.clone() * 2" in _preview(copy)
    _click(qtbot, window, copy.button)
    assert _codes(window)[-1] == "y = x.clone() * 2"
    assert copy.source.currentText() == "x"            # not the y it just made
    for follow_up, code in (("* 3", "z = x.clone() * 3"), (".mul(4)", "w = x.clone().mul(4)")):
        _type(qtbot, copy.follow_up, follow_up)
        _type(qtbot, copy.target, code[0])
        assert not copy.problem.isVisible(), copy.problem.text()
        _click(qtbot, window, copy.button)
        assert _codes(window)[-1] == code
        assert copy.source.currentText() == "x"
    # A source picked from the list stays picked after another builder's step.
    copy.source.setFocus()
    copy.source.setCurrentText("y")
    _type(qtbot, create.name, "q")
    _click(qtbot, window, create.button)
    assert _codes(window)[-1].startswith("q = ")
    assert copy.source.currentText() == "y"


def test_compute_proposes_an_expression_of_the_tensors_made_last(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    for code in ("x = torch.ones(3, requires_grad=True)", "y = x * 2", "z = x * 3"):
        window.builders.code_line.edit.setText(code)
        qtbot.keyClick(window.builders.code_line.edit, Qt.Key.Key_Return)
        idle(qtbot, window)
    compute = window.builders.compute
    assert compute.operation.currentText() == "(a + b).sum()"
    assert "s = (z + y).sum()" in _preview(compute)
    _click(qtbot, window, compute.button)
    assert _codes(window)[-1] == "s = (z + y).sum()"


def _run(qtbot, window, code: str) -> None:
    window.builders.code_line.edit.setText(code)
    qtbot.keyClick(window.builders.code_line.edit, Qt.Key.Key_Return)
    idle(qtbot, window)


def test_after_a_training_step_the_pickers_default_to_plain_names_and_show_no_error(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    builders = window.builders
    for code in ("import torch.nn as nn", "import torch.optim as optim",
                 "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))", "x = torch.ones(4, 2)",
                 "opt = optim.SGD(net.parameters(), lr=0.1)", "sd = net.state_dict()",
                 "loss = net(x).pow(2).mean()", "loss.backward()", "opt.step()", "parts = x.unbind()"):
        _run(qtbot, window, code)
        assert window.controller.state.last is None or window.controller.state.last.error is None, code
        # The first tensors are a module's rows: what the panel picks then builds, with no error shown.
        for builder in builders.builders:
            assert not builder.problem.isVisible(), (code, builder.problem.text())
    assert "net[2].bias" in [builders.copy.source.itemText(i) for i in range(builders.copy.source.count())]
    _click(qtbot, window, builders.copy.button)
    assert window.controller.state.last.error is None, _codes(window)[-1]


def test_a_row_picked_as_a_source_builds_its_expression(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    for code in ("import torch.nn as nn", "net = nn.Sequential(nn.Linear(2, 2))", "parts = torch.ones(4).unbind()"):
        _run(qtbot, window, code)
    copy = window.builders.copy
    copy.source.setCurrentText("net[0].weight")
    copy.operation.setCurrentIndex(copy.operation.findData("detach()"))
    _type(qtbot, copy.target, "w")
    assert not copy.problem.isVisible(), copy.problem.text()
    _click(qtbot, window, copy.button)
    assert _codes(window)[-1] == "w = net[0].weight.detach()"
    snapshot = window.controller.state.snapshot
    assert snapshot.tensor("w").storage == snapshot.tensor("net[0].weight").storage
    mutate = window.builders.mutate
    mutate.target.setCurrentText("parts[1]")
    mutate.operation.setCurrentIndex(mutate.operation.findText("add_(v)"))
    assert not mutate.problem.isVisible(), mutate.problem.text()
    assert "parts[1].add_(" in _preview(mutate)


def test_the_wheel_over_the_build_panel_scrolls_it_and_never_changes_a_choice(qtbot):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="inplace-on-a-leaf", size=(1280, 720)) as window:
        qtbot.addWidget(window)
        QApplication.processEvents()
        combo = window.builders.create.dtype
        before = combo.currentText()
        assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
        for _ in range(10):
            centre = QPointF(combo.rect().center())
            event = QWheelEvent(centre, QPointF(combo.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                                QPoint(0, -120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                Qt.ScrollPhase.NoScrollPhase, False)
            QApplication.sendEvent(combo, event)
        assert combo.currentText() == before
        # Focused (clicked or tabbed to), it takes the wheel as a combo does, once the column's scroll is over.
        window.builders.end_column_scroll()
        combo.setFocus()
        qtbot.waitUntil(combo.hasFocus, timeout=5_000)
        centre = QPointF(combo.rect().center())
        QApplication.sendEvent(combo, QWheelEvent(centre, QPointF(combo.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                                                  QPoint(0, -120), Qt.MouseButton.NoButton,
                                                  Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                                                  False))
        assert combo.currentText() != before


def test_mutate_offers_on_a_module_row_only_what_the_language_accepts_there(window, qtbot):
    """`net[0].weight += 1` is refused by the language (an attribute target): on such a row the builder does not
    offer `+= v`; everything it offers builds a line the language accepts, and the change runs as in torch."""
    import torch

    from tensorlab.core.lang.builder_code import MUTATIONS
    from tensorlab.core.lang.parse import check_names, parse_one

    open_lesson(window, qtbot, "scratchpad")
    for code in ("import torch.nn as nn", "net = nn.Sequential(nn.Linear(2, 2))", "x = torch.ones(3)"):
        _run(qtbot, window, code)
    mutate = window.builders.mutate

    def offered() -> list[str]:
        return [mutate.operation.itemText(i) for i in range(mutate.operation.count())]

    mutate.target.setCurrentText("x")
    mutate.operation.setCurrentIndex(mutate.operation.findText("+= v"))
    assert offered() == list(MUTATIONS) and mutate.operation.currentText() == "+= v"
    mutate.target.setCurrentText("net[0].weight")
    assert "+= v" not in offered() and mutate.operation.currentText() == "x[i] = v"
    assert mutate.form.isRowVisible(mutate.index)   # the rows shown follow the operation the box moved to
    names = window.controller.state.names
    for operation in offered():
        mutate.operation.setCurrentIndex(mutate.operation.findText(operation))
        for no_grad in (False, True):
            mutate.no_grad.setChecked(no_grad)
            assert not mutate.problem.isVisible(), (operation, no_grad, mutate.problem.text())
            statement = parse_one(mutate.code())   # what the language accepts, before anything runs
            check_names([statement], names)
    mutate.operation.setCurrentIndex(mutate.operation.findText("add_(v)"))
    _type(qtbot, mutate.value, "2")
    mutate.no_grad.setChecked(True)
    before = window.controller.state.snapshot.tensor("net[0].weight")
    _click(qtbot, window, mutate.button)
    assert _codes(window)[-1] == "with torch.no_grad():\n    net[0].weight.add_(2)"
    after = window.controller.state.snapshot.tensor("net[0].weight")
    assert window.controller.state.last.error is None
    expected = torch.tensor(before.values)
    with torch.no_grad():
        expected.add_(2)
    assert torch.tensor(after.values).equal(expected) and after.version == before.version + 1
    mutate.target.setCurrentText("x")
    assert offered() == list(MUTATIONS)


def test_mutate_proposes_fill_for_a_0d_tensor_never_an_index(window, qtbot):
    """`total[0] = 5` on a 0-d tensor is torch's IndexError: the builder proposes `total.fill_(5)`, which runs."""
    import torch

    open_lesson(window, qtbot, "scratchpad")
    for code in ("x = torch.ones(3)", "total = x.sum()"):
        _run(qtbot, window, code)
    mutate = window.builders.mutate
    assert mutate.target.currentText() == "total"
    offered = [mutate.operation.itemText(i) for i in range(mutate.operation.count())]
    assert "x[i] = v" not in offered
    assert mutate.operation.currentText() == "fill_(v)" and not mutate.form.isRowVisible(mutate.index)
    assert mutate.code() == "total.fill_(5)"
    total = torch.ones(3).sum()
    total.fill_(5)                       # what torch does with it (and `total[0] = 5` raises)
    _click(qtbot, window, mutate.button)
    assert window.controller.state.last.ok
    assert window.controller.state.snapshot.tensor("total").values == float(total)
    mutate.target.setCurrentText("x")    # a 1-d tensor: a write at an index again
    assert "x[i] = v" in [mutate.operation.itemText(i) for i in range(mutate.operation.count())]


def test_a_focused_box_does_not_take_the_wheel_that_scrolls_the_column_past_it(qtbot):
    # Review r17o finding 6: a clicked box (its list closed with Esc) kept focus; scrolling the column from above
    # it, the box took the wheel when it passed under the pointer and detach() became view(...).
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.window.offscreen import isolated_window

    def wheel(widget, down=True):
        centre = QPointF(widget.rect().center())
        QApplication.sendEvent(widget, QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())),
                                                   QPoint(0, 0), QPoint(0, -120 if down else 120),
                                                   Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                                                   Qt.ScrollPhase.NoScrollPhase, False))

    with isolated_window(lesson="inplace-on-a-leaf", size=(1280, 720)) as window:
        qtbot.addWidget(window)
        QApplication.processEvents()
        panel = window.builders
        for combo in (panel.copy.operation, panel.create.dtype, panel.mutate.operation):
            combo.setFocus()
            qtbot.waitUntil(combo.hasFocus, timeout=5_000)
            before = combo.currentText()
            wheel(panel.viewport())   # the column scrolls, the wheel turned above the box ...
            for _ in range(3):
                wheel(combo)          # ... and goes on turning as the box passes under the pointer
            assert combo.currentText() == before, combo.objectName()
            assert combo.hasFocus()
            panel.end_column_scroll()   # the wheel rested: the focused box under the pointer takes it now
            wheel(combo)
            assert combo.currentText() != before
            combo.setCurrentText(before)

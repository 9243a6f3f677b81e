"""The code line: a bar across the window, wide enough to read what you type (issue 17, item 3), and
completing the names contract 3 gives tensors inside containers and modules (issue 16)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QPushButton

from tensorlab.ui.builders.code_line import CodeLineEdit, CodeLinePanel
from tests.ui.conftest import idle


def _shown_width(window) -> int:
    """The code line's width as the window shows it (its visible part, inside the window)."""
    edit = window.builders.code_line.edit
    assert edit.isVisible()
    region = edit.visibleRegion().boundingRect()
    top_left = edit.mapTo(window, region.topLeft())
    return QRect(top_left, region.size()).intersected(window.rect()).width()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("projector", [False, True])
def test_the_code_line_is_a_wide_bar_in_both_modes(window, qtbot, size, projector):
    window.set_presentation(projector)
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=5_000)
    qtbot.wait(20)
    width = _shown_width(window)
    assert width >= 300 and width >= 0.5 * size[0], width
    # Typed from the keyboard (Ctrl+L), it runs with Enter and the keys go back to the map.
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    edit = window.builders.code_line.edit
    assert edit.hasFocus()
    qtbot.keyClicks(edit, "q = torch.ones(3)")
    assert edit.text() == "q = torch.ones(3)"
    assert edit.cursorRect().right() < edit.width()             # the end of what was typed is shown
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    idle(qtbot, window)
    assert window.controller.state.snapshot.tensor("q") is not None
    assert window.storage_map.hasFocus()
    assert edit.mapTo(window, QPoint(0, 0)).y() > window.height() // 2   # under the map and the docks


def test_the_code_line_completes_parts_keys_and_parameters(qtbot):
    line = CodeLineEdit()
    qtbot.addWidget(line)
    line.names = ("x", "parts", "sd", "net")
    line.rows = ("parts[0]", "parts[1]", "sd['weight']", "net[0].weight", "net[0].bias")
    assert "parts[0]" in line.candidates("par") and "parts" in line.candidates("par")
    assert line.candidates("parts[") == ["parts[0]", "parts[1]"]
    assert line.candidates("sd[") == ["sd['weight']"]
    assert line.candidates("net[0].") [:2] == ["net[0].weight", "net[0].bias"]
    assert line.token("y = parts[").group(0) == "parts["
    assert line.token("y = l[x").group(0) == "x"     # not a row: the plain name before the cursor
    line.setText("y = parts[")
    line.setCursorPosition(len(line.text()))
    line.insert_completion("parts[1]")
    assert line.text() == "y = parts[1]"


def _offered(line: CodeLineEdit, token: str) -> list[str]:
    """What the popup lists for ``token`` (the completer keeps the candidates that start with it)."""
    return [c for c in line.candidates(token) if c.startswith(token)]


def test_the_code_line_completes_the_training_steps_names_by_type(qtbot):
    line = CodeLineEdit()
    qtbot.addWidget(line)
    line.names = ("x", "net", "opt", "sd", "lst")
    line.rows = ("net[0].weight", "net[0].bias", "sd['0.weight']")
    line.types = {"net": "Sequential", "opt": "SGD", "sd": "OrderedDict", "lst": "list", "m": "Linear"}
    assert _offered(line, "opt.ze") == ["opt.zero_grad"]
    assert "opt.step" in _offered(line, "opt.") and "opt.param_groups" in _offered(line, "opt.")
    assert "nn.Linear" in _offered(line, "nn.Lin") and "nn.Sequential" in _offered(line, "nn.")
    assert "F.relu" in _offered(line, "F.") and "F.mse_loss" in _offered(line, "F.")
    assert _offered(line, "optim.").count("optim.Adam") == 1 and "optim.SGD" in _offered(line, "optim.")
    members = _offered(line, "net.")
    assert {"net.parameters", "net.zero_grad", "net.state_dict", "net.eval"} <= set(members)
    assert "net.add_" not in members
    assert {"m.weight", "m.bias", "m.in_features"} <= set(_offered(line, "m."))
    assert "net[0].zero_grad" in _offered(line, "net[0].")    # a layer of the module
    assert "net[0].weight.grad" in _offered(line, "net[0].weight.")    # a row is a tensor
    assert "sd.keys" in _offered(line, "sd.") and "sd.add_" not in _offered(line, "sd.")
    assert _offered(line, "lst.") == []                       # lists have no methods in the subset
    assert "x.add_" in _offered(line, "x.")
    assert {"nn", "F", "optim", "torch", "copy"} <= set(_offered(line, ""))


def test_the_panel_gives_the_code_line_the_types_of_the_snapshot(window, qtbot):
    for code in ["import torch.nn as nn", "import torch.optim as optim", "net = nn.Sequential(nn.Linear(2, 2))",
                 "opt = optim.SGD(net.parameters(), lr=0.1)"]:
        assert window.controller.submit(code) is None
        idle(qtbot, window)
    edit = window.builders.code_line.edit
    assert edit.types.get("opt") == "SGD" and edit.types.get("net") == "Sequential"
    assert _offered(edit, "opt.ze")[0] == "opt.zero_grad"


def test_the_window_gives_the_code_line_the_rows_a_state_dict_and_a_module_reach(window, qtbot):
    # Review r16b: typed in the window, `sd['` offered nothing (the panel filled the rows with every tensor's name
    # as a bound name, so no row was left to complete from its bracket).
    from PySide6.QtTest import QTest

    for code in ["net = nn.Sequential(nn.Linear(2, 1))", "sd = net.state_dict()"]:
        assert window.controller.submit(code) is None
        idle(qtbot, window)
    edit = window.builders.code_line.edit
    assert "sd['0.weight']" in edit.rows and "net[0].bias" in edit.rows and "sd" in edit.names
    edit.setFocus()
    QTest.keyClicks(edit, "y = sd['0.w")
    qtbot.waitUntil(lambda: edit.completer_.popup().isVisible(), timeout=5_000)
    assert edit.completer_.currentCompletion() == "sd['0.weight']"


def test_a_refused_line_does_not_resize_the_docks_at_1024x768_korean(qtbot):
    from PySide6.QtWidgets import QApplication, QDockWidget

    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="inplace-on-a-leaf", size=(1024, 768), language="ko") as window:
        qtbot.addWidget(window)
        QApplication.processEvents()
        docks = [d for d in window.findChildren(QDockWidget) if d.isVisible()]
        before = {d.objectName(): d.size() for d in docks}
        bar = window.builders.code_bar.height()
        line = window.builders.code_line
        line.edit.setText("y = x.foo()")
        line.request()
        qtbot.waitUntil(lambda: line.problem.isVisible(), timeout=30_000)
        QApplication.processEvents()
        assert line.problem.text()
        assert window.builders.code_bar.height() == bar
        assert {d.objectName(): d.size() for d in docks} == before
        # Shown under the line, inside the window, and gone when the line is edited.
        top_left = line.problem.mapTo(window, line.problem.rect().topLeft())
        assert top_left.y() >= line.mapTo(window, line.rect().bottomLeft()).y()
        assert window.rect().contains(line.problem.geometry())
        qtbot.keyClick(line.edit, "x")
        assert not line.problem.isVisible()


def test_the_code_line_completes_the_full_forms_of_nn_f_and_optim(qtbot):
    """`torch.nn.Linear(...)` is the subset too (after `import torch`): `torch.`, `torch.nn.`,
    `torch.nn.functional.` and `torch.optim.` complete what `nn.`, `F.` and `optim.` may name."""
    from tensorlab.core.lang import allowlist as allow

    line = CodeLineEdit()
    qtbot.addWidget(line)
    assert {"torch.nn", "torch.optim"} <= set(_offered(line, "torch."))
    assert set(_offered(line, "torch.nn.")) == {f"torch.nn.{n}" for n in allow.NN_CLASSES} | {"torch.nn.functional"}
    assert set(_offered(line, "torch.nn.functional.")) == {f"torch.nn.functional.{n}" for n in allow.FUNCTIONAL}
    assert _offered(line, "torch.optim.S") == ["torch.optim.SGD"]
    line.setText("net = torch.nn.Li")
    assert line.token(line.text()).group(0) == "torch.nn.Li"


def _typed(qtbot, text: str, names=(), types=None) -> CodeLinePanel:
    panel = CodeLinePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.edit.names, panel.edit.types = tuple(names), dict(types or {})
    panel.edit.setFocus()
    qtbot.keyClicks(panel.edit, text)
    return panel


@pytest.mark.parametrize("typed, names, types, completed", [
    ("opt.st", ("opt",), {"opt": "SGD"}, "opt.step"),
    ("net.we", ("net",), {"net": "Linear"}, "net.weight"),
    ("x.unsq", ("x",), {}, "x.unsqueeze"),
])
def test_tab_accepts_the_popups_completion_and_keeps_the_focus(qtbot, typed, names, types, completed):
    panel = _typed(qtbot, typed, names, types)
    popup = panel.edit.completer_.popup()
    assert popup.isVisible()
    qtbot.keyClick(popup, Qt.Key.Key_Tab)   # the pop-up has the keyboard while it is shown
    assert panel.edit.text() == completed
    assert not popup.isVisible()
    # Tab went no further: the focus did not move on to the Run button.
    assert QApplication.focusWidget() not in panel.findChildren(QPushButton)


def test_tab_accepts_the_completion_picked_with_the_arrows(qtbot):
    panel = _typed(qtbot, "opt.", ("opt",), {"opt": "SGD"})
    popup = panel.edit.completer_.popup()
    assert popup.isVisible()
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    picked = popup.currentIndex().data()
    qtbot.keyClick(popup, Qt.Key.Key_Tab)
    assert picked and panel.edit.text() == picked


def test_a_name_no_step_binds_is_offered_no_tensor_members(qtbot):
    line = CodeLineEdit()
    qtbot.addWidget(line)
    line.names = ("x",)
    assert _offered(line, "opt.") == [] and _offered(line, "opt.st") == []
    assert "x.storage_offset" in _offered(line, "x.st")     # a bound tensor keeps its members
    panel = _typed(qtbot, "opt.st", ("x",))
    assert not panel.edit.completer_.popup().isVisible()

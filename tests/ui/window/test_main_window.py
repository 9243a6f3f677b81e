"""The main window, driven through its real widgets with qtbot."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPushButton, QWidget

from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.core.protocol.snapshot import to_plain
from tensorlab.ui.panels.tensor_table import COLUMNS
from tensorlab.ui.window.build import build_window
from tests.core.reference import run_plain
from tests.ui.conftest import idle

NAMES = ["lessonPicker", "devicePicker", "positionLabel", "createName", "createFactory", "createShape",
         "createDtype", "createRequiresGrad", "createButton", "copySource", "copyOperation", "copyTarget",
         "copyButton", "mutateTarget", "mutateOperation", "mutateIndex", "mutateValue", "mutateButton",
         "codeLine", "runCodeButton", "storageMap", "tensorTable", "valuesView", "graphView", "narration",
         "codeView", "outputView"]
ACTIONS = ["stepBackAction", "stepForwardAction", "runToEndAction", "resetAction"]


def child(win, name, kind=QWidget):
    found = win.findChild(kind, name)
    assert found is not None, name
    return found


def table_rows(win):
    """Each row's cells by its tensor's name (a second name of one tensor object shows `b is a` in its cell)."""
    from tensorlab.core.lessons.tensor_rows import same_tensor

    model = win.table.table_model
    same = same_tensor(model.snapshot)
    rows = {}
    for r in range(model.rowCount()):
        name = model.snapshot.tensors[r].name
        shown = model.data(model.index(r, 0))
        assert shown == (name if name not in same else f"{name} is {same[name]}")
        rows[name] = {COLUMNS[c]: model.data(model.index(r, c)) for c in range(len(COLUMNS))}
    return rows


def test_every_named_widget_and_action_exists(window):
    from PySide6.QtGui import QAction

    for name in NAMES:
        widget = child(window, name)
        assert widget.accessibleName(), name
    for name in ACTIONS:
        action = window.findChild(QAction, name)
        assert action is not None and action.shortcuts(), name
    assert child(window, "positionLabel", QLabel).text() == "0 / 8"
    assert child(window, "lessonPicker", QComboBox).currentData() == "inplace-on-a-leaf"
    header = window.table.table_model
    assert [header.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.AccessibleTextRole)
            for i in range(header.columnCount())] == list(COLUMNS)


def _expected_grad_fn(ref):
    return "None" if ref["grad_fn"] is None else ref["grad_fn"]


@pytest.mark.parametrize("lesson", builtin_lessons(), ids=lambda l: l.id)
def test_each_lesson_steps_to_the_end_and_back_showing_what_torch_holds(window, qtbot, lesson):
    picker = child(window, "lessonPicker", QComboBox)
    picker.setCurrentIndex(picker.findData(lesson.id))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)
    reference = run_plain([s.code for s in lesson.steps])
    for number, (step, ref) in enumerate(zip(lesson.steps, reference), start=1):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
        assert child(window, "positionLabel", QLabel).text() == f"{number} / {len(lesson.steps)}"
        rows = table_rows(window)
        assert list(rows) == list(ref["tensors"])
        for name, facts in ref["tensors"].items():
            row = rows[name]
            assert row["shape"] == "[" + ", ".join(map(str, facts["shape"])) + "]"
            assert row["requires_grad"] == str(facts["requires_grad"])
            # torch refuses to say for a split output whose base changed in place: "Invalid", as grad_fn says.
            assert row["is_leaf"] == ("Invalid" if facts["is_leaf"] is None else str(facts["is_leaf"]))
            assert row["grad_fn"] == _expected_grad_fn(facts)
            # An inference tensor has no version counter: the table shows "-".
            assert row["version"] == ("-" if facts["version"] is None else str(facts["version"]))
            assert row["storage"] == facts["storage"]
            assert row["grad"] == ("None" if facts["grad"] is None else str(facts["grad"]))
        output = window.output_view.toPlainText()
        if ref["error"] is not None:
            assert ref["error"]["message"] in output
            assert "In plain words" in output
        for line in ref["output"].splitlines():
            assert line in output
        # The label's HTML, without the zero-width break opportunities code spans are shown with.
        narration = window.narration.note.text().replace("\u200b", "")
        assert narration
        if step.note:
            assert step.note.split(".")[0].replace("`", "")[:30] in narration.replace("<code>", "").replace(
                "</code>", "").replace("&gt;", ">").replace("&lt;", "<").replace("&quot;", '"')
        assert window.code_view.lines[number - 1].startswith("▶ ")
        # No panel is left empty.
        assert window.storage_map.texts()
        # The graph, behind the Values tab, draws the state when its tab is raised (and Values again).
        window.show_panel("graphDock")
        assert window.graph_view.texts()
        window.show_panel("valuesDock")
        assert window.output_view.toPlainText().strip()
        assert window.code_view.toPlainText().strip()
        if ref["tensors"]:
            selected = window.values_view.info
            assert selected is not None and selected.name in ref["tensors"]
            assert window.values_view.values_plot.labels or selected.values is None
    for number in range(len(lesson.steps) - 1, -1, -1):
        qtbot.keyClick(window, Qt.Key.Key_Left)
        idle(qtbot, window)
        assert child(window, "positionLabel", QLabel).text() == f"{number} / {len(lesson.steps)}"
        if number:
            assert list(table_rows(window)) == list(reference[number - 1]["tensors"])
    assert table_rows(window) == {}


def _scratchpad(window, qtbot):
    picker = child(window, "lessonPicker", QComboBox)
    picker.setCurrentIndex(picker.findData("scratchpad"))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)


def test_build_detach_and_mutate_with_the_widgets(window, qtbot):
    _scratchpad(window, qtbot)
    name = child(window, "createName", QLineEdit)
    name.clear()
    qtbot.keyClicks(name, "x")
    shape = child(window, "createShape", QLineEdit)
    shape.clear()
    qtbot.keyClicks(shape, "5")
    child(window, "createRequiresGrad", QCheckBox).setChecked(False)
    qtbot.mouseClick(child(window, "createButton", QPushButton), Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    assert "x" in table_rows(window)
    child(window, "copySource", QComboBox).setCurrentText("x")
    child(window, "copyOperation", QComboBox).setCurrentText("detach()")
    target = child(window, "copyTarget", QLineEdit)
    target.clear()
    qtbot.keyClicks(target, "y")
    assert "y = x.detach()" in window.builders.copy.preview.text().replace("\u200b", "")
    qtbot.mouseClick(child(window, "copyButton", QPushButton), Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    child(window, "mutateTarget", QComboBox).setCurrentText("y")
    child(window, "mutateOperation", QComboBox).setCurrentText("x[i] = v")
    index = child(window, "mutateIndex", QLineEdit)
    index.clear()
    qtbot.keyClicks(index, "0")
    value = child(window, "mutateValue", QLineEdit)
    value.clear()
    qtbot.keyClicks(value, "5")
    qtbot.mouseClick(child(window, "mutateButton", QPushButton), Qt.MouseButton.LeftButton)
    idle(qtbot, window)
    rows = table_rows(window)
    assert rows["x"]["storage"] == rows["y"]["storage"]
    assert rows["x"]["version"] == rows["y"]["version"] == "1"
    state = window.controller.state
    assert state.snapshot.tensor("x").values == (5.0, 1.0, 1.0, 1.0, 1.0)
    x = torch.ones(5)
    y = x.detach()
    y[0] = 5
    assert list(state.snapshot.tensor("x").values) == x.tolist()
    assert len([s for s in state.snapshot.storages if {"x", "y"} <= set(s.tensors)]) == 1
    assert "shared by x, y" in " ".join(window.storage_map.texts())
    assert [c.code for c in state.program] == ["x = torch.ones(5)", "y = x.detach()", "y[0] = 5"]


def test_a_rejected_code_line_shows_why_and_changes_nothing(window, qtbot):
    before = window.controller.state
    line = child(window, "codeLine", QLineEdit)
    qtbot.keyClicks(line, "open('/etc/passwd')")
    qtbot.mouseClick(child(window, "runCodeButton", QPushButton), Qt.MouseButton.LeftButton)
    problem = window.builders.code_line.problem
    assert problem.isVisible()
    assert "`open` is not available in TensorLab" in problem.text()
    assert not window.controller.busy
    assert window.controller.state is before
    assert line.text() == "open('/etc/passwd')"  # the user's text is kept to fix it


def test_the_code_line_runs_with_ctrl_return_and_completes_names(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Right)
    idle(qtbot, window)
    line = child(window, "codeLine", QLineEdit)
    assert "x" in line.candidates("x")
    assert "x.clone" in line.candidates("x.cl")
    assert "torch.ones" in line.candidates("torch.on")
    qtbot.keyClicks(line, "q = x.clone() * 2")
    qtbot.keyClick(line, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    assert "q" in table_rows(window)
    assert line.text() == ""
    assert table_rows(window)["q"]["grad_fn"] == "MulBackward0"


def test_a_step_that_raises_shows_torchs_message_and_its_explanation(window, qtbot):
    for _ in range(2):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
    text = window.output_view.toPlainText()
    assert "a view of a leaf Variable that requires grad is being used in an in-place operation." in text
    assert "In plain words" in text and "torch.no_grad()" in text
    assert "✗" in window.code_view.toPlainText()


def test_keyboard_shortcuts_step(window, qtbot):
    label = child(window, "positionLabel", QLabel)
    qtbot.keyClick(window, Qt.Key.Key_Space)
    idle(qtbot, window)
    assert label.text() == "1 / 8"
    qtbot.keyClick(window, Qt.Key.Key_End)
    idle(qtbot, window)
    assert label.text() == "8 / 8"
    qtbot.keyClick(window, Qt.Key.Key_Left)
    idle(qtbot, window)
    assert label.text() == "7 / 8"
    qtbot.keyClick(window, Qt.Key.Key_Home)
    idle(qtbot, window)
    assert label.text() == "0 / 8"


def test_stepping_back_shows_the_earlier_state_immediately(window, qtbot):
    for _ in range(5):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_Left)
    # Before the replay in the worker has finished, the panels already show step 4.
    assert child(window, "positionLabel", QLabel).text() == "4 / 8"
    assert list(table_rows(window)) == ["x"]
    idle(qtbot, window)
    assert list(table_rows(window)) == ["x"]


def test_device_change_replays_to_the_same_position(window, qtbot):
    for _ in range(3):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
    before = table_rows(window)
    picker = child(window, "devicePicker", QComboBox)
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)
    assert child(window, "positionLabel", QLabel).text() == "3 / 8"
    assert table_rows(window) == before


def test_settings_restore_lesson_device_and_presentation(qtbot, settings):
    first = build_window(settings)
    qtbot.addWidget(first)
    picker = first.lesson_picker
    picker.setCurrentIndex(picker.findData("detach-shares-memory"))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, first)
    first.commands.presentation.trigger()
    first.close()
    second = build_window(settings)
    qtbot.addWidget(second)
    assert second.lesson_picker.currentData() == "detach-shares-memory"
    assert second.commands.presentation.isChecked()
    assert second.device_picker.currentText() == "cpu"
    second.close()


def test_steps_you_added_are_kept_when_you_switch_lessons(window, qtbot):
    window.builders.code_line.edit.setText("k = torch.zeros(2)")
    window.builders.code_line.request()
    idle(qtbot, window)
    picker = window.lesson_picker
    picker.setCurrentIndex(picker.findData("clone-detach-order"))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)
    picker.setCurrentIndex(picker.findData("inplace-on-a-leaf"))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)
    assert [s.code for s in window.controller.state.program][0] == "k = torch.zeros(2)"
    assert child(window, "positionLabel", QLabel).text() == "0 / 9"


def test_predict_before_you_run(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Right)
    idle(qtbot, window)
    assert window.narration.question.isVisible()
    wrong = window.findChild(QWidget, "askChoice0")
    qtbot.mouseClick(wrong, Qt.MouseButton.LeftButton)
    assert "Not quite" in window.narration.feedback.text()


def test_values_and_graph_panels_show_the_selected_tensor(window, qtbot):
    picker = window.lesson_picker
    picker.setCurrentIndex(picker.findData("clone-keeps-the-graph"))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)
    window.controller.go_to(6)
    idle(qtbot, window)
    window.table.select_name("x")
    assert window.values_view.values_plot.labels == ["1.0"] * 5
    assert window.values_view.grad_plot.labels == ["5.0"] * 5
    window.show_panel("graphDock")   # its tab raised: a panel behind a tab draws when it is shown
    window.table.select_name("total")
    # The graph is read from the worker for the selected tensor.
    qtbot.waitUntil(lambda: "SumBackward0" in " ".join(window.graph_view.texts()), timeout=10_000)
    texts = " ".join(window.graph_view.texts())
    assert "SumBackward0" in texts and "CloneBackward0" in texts and "x.grad" in texts
    window.table.select_name("x")
    assert "leaf" in " ".join(window.graph_view.texts())


def test_screenshot_command(tmp_path):
    out = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "tensorlab", "--lesson", "detach-shares-memory", "--step", "3",
                           "--screenshot", str(out), "--size", "1280x720"], capture_output=True, text=True,
                          env=env, timeout=180)
    assert done.returncode == 0, done.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1280, 720)


def test_opening_lesson_files_good_and_bad(window, qtbot, tmp_path):
    qtbot.keyClick(window, Qt.Key.Key_Right)
    idle(qtbot, window)
    before = window.controller.state
    bad = tmp_path / "bad.toml"
    bad.write_text('[lesson]\nid = "b"\ntitle = "B"\n[[step]]\ncod = "x = 1"\n')
    assert window.open_lesson_file(bad) is False
    idle(qtbot, window)
    assert "bad.toml, step 1: unknown key `cod`" in window.output_view.toPlainText()
    assert window.controller.state.position == before.position == 1
    good = tmp_path / "mine.toml"
    good.write_text('[lesson]\nid = "mine"\ntitle = "Mine"\n[[step]]\ncode = "m = torch.zeros(3)"\n')
    assert window.open_lesson_file(good) is True
    idle(qtbot, window)
    assert window.lesson_picker.currentData() == "mine"
    qtbot.keyClick(window, Qt.Key.Key_Right)
    idle(qtbot, window)
    assert list(table_rows(window)) == ["m"]


def test_save_steps_as_a_lesson_round_trips(window, qtbot, tmp_path):
    window.builders.code_line.edit.setText("k = torch.ones(2)")
    window.builders.code_line.request()
    idle(qtbot, window)
    from tensorlab.core.lessons.lesson import load_lesson, save_lesson

    path = tmp_path / "saved.toml"
    save_lesson(window.current_as_lesson(), path)
    lesson = load_lesson(path)
    assert lesson.steps[0].code == "k = torch.ones(2)"
    assert len(lesson.steps) == 9


def test_docks_close_and_reopen_from_the_view_menu_and_the_layout_is_remembered(qtbot, settings):
    first = build_window(settings)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    graph_dock = first.findChild(QWidget, "graphDock")
    output_dock = first.findChild(QWidget, "outputDock")
    view_actions = {a.text(): a for a in first.view_menu.actions()}
    view_actions["Output"].trigger()
    assert not output_dock.isVisible()
    view_actions["Output"].trigger()
    assert output_dock.isVisible()
    view_actions["Autograd graph"].trigger()
    assert not graph_dock.isVisible()
    first.close()
    second = build_window(settings)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    assert not second.findChild(QWidget, "graphDock").isVisible()
    assert second.findChild(QWidget, "outputDock").isVisible()
    second.close()


def test_the_background_replay_after_going_back_keeps_the_controls_and_shows_busy(window, qtbot):
    """Once ← settles the worker rebuilds the state there in the background: the window says it is busy (the
    busy bar), the step actions and the code line stay enabled (stepping on stops it), nothing shown changes,
    and a line typed then reads that state, as plain torch does."""
    window.controller.prepare_after_ms = 60_000   # asked for below, at a known moment
    for _ in range(5):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_Left)
    idle(qtbot, window)
    shown = window.controller.state
    assert window.controller.away
    window.controller.prepare()
    assert window.controller.preparing and window.controller.busy
    window.busy_indicator._show(True)   # as its timer does for work still running after a moment
    assert window.busy_bar.isVisible() and window.commands.step_back.isEnabled()
    assert window.commands.step_forward.isEnabled() and window.builders.code_line.edit.isEnabled()
    idle(qtbot, window)
    assert not window.controller.away and not window.busy_bar.isVisible()
    assert window.controller.state is shown and child(window, "positionLabel", QLabel).text() == "4 / 8"
    codes = [step.code for step in shown.program[:4]]
    window.focus_code_line()
    qtbot.keyClicks(window.builders.code_line.edit, "w = x * 1")
    qtbot.keyClick(window.builders.code_line.edit, Qt.Key.Key_Return)
    idle(qtbot, window)
    plain = run_plain(codes + ["w = x * 1"])[-1]["tensors"]
    state = window.controller.state
    assert state.position == 5 and list(table_rows(window)) == list(plain)
    for name, facts in plain.items():   # the values torch holds after the four steps (not after the fifth)
        assert to_plain(state.snapshot.tensor(name).values) == facts["values"], name

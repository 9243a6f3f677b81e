"""Edit what you added (issue 6, item 6): delete, undo, clear, click a line; kept across restarts."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tensorlab.ui.program.user_steps import FILE_NAME
from tensorlab.ui.window.build import build_window
from tests.ui.conftest import idle
from tests.ui.support import go, open_lesson, run_line


def _codes(window):
    return [s.code for s in window.controller.state.program]


def _origins(window):
    return [s.origin for s in window.controller.state.program]


def test_delete_key_and_context_menu_remove_a_step_you_added(window, qtbot):
    go(window, qtbot, 2)
    run_line(window, qtbot, "k = torch.zeros(2)")
    run_line(window, qtbot, "m = k + 1")
    assert _codes(window)[2:4] == ["k = torch.zeros(2)", "m = k + 1"]
    code = window.code_view
    code.setCurrentRow(0)                 # a lesson step: Delete does nothing
    qtbot.keyClick(code, Qt.Key.Key_Delete)
    idle(qtbot, window)
    assert len(_codes(window)) == 10
    code.setCurrentRow(3)
    qtbot.keyClick(code, Qt.Key.Key_Delete)
    idle(qtbot, window)
    assert _codes(window)[2:4] == ["k = torch.zeros(2)", "x.add_(1)"]
    assert window.controller.state.position == 3
    code._menu(code.visualItemRect(code.item(2)).center())
    remove = [a for a in code.context_menu.actions() if a.text() == "Remove this step"][0]
    assert remove.isEnabled()
    remove.trigger()
    idle(qtbot, window)
    assert "k = torch.zeros(2)" not in _codes(window) and len(_codes(window)) == 8
    code._menu(code.visualItemRect(code.item(0)).center())
    assert not [a for a in code.context_menu.actions() if a.text() == "Remove this step"][0].isEnabled()
    code.context_menu.close()


def test_ctrl_z_undoes_the_last_step_you_added_and_clear_removes_them_all(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    for line in ("a = torch.ones(2)", "b = a * 3", "c = b + a"):
        run_line(window, qtbot, line)
    go(window, qtbot, 1)
    run_line(window, qtbot, "d = a - 1")          # inserted at position 1: the last one added
    assert _codes(window) == ["a = torch.ones(2)", "d = a - 1", "b = a * 3", "c = b + a"]
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)
    assert _codes(window) == ["a = torch.ones(2)", "b = a * 3", "c = b + a"]
    window.commands.clear_steps.trigger()
    idle(qtbot, window)
    assert _codes(window) == []


def test_clear_my_steps_keeps_the_lesson(window, qtbot):
    go(window, qtbot, 3)
    run_line(window, qtbot, "k = torch.zeros(2)")
    run_line(window, qtbot, "k2 = k * 2")
    window.commands.clear_steps.trigger()
    idle(qtbot, window)
    assert set(_origins(window)) == {"lesson"} and len(_codes(window)) == 8
    assert window.controller.state.position == 3


def test_a_click_anywhere_on_a_code_line_goes_there(window, qtbot):
    go(window, qtbot, 6)
    code = window.code_view
    rect = code.line_rect(2)
    qtbot.mouseClick(code.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(rect.right() - 10, rect.center().y()))
    idle(qtbot, window)
    assert window.controller.state.position == 3


def test_steps_you_added_come_back_after_a_restart(qtbot, settings):
    first = build_window(settings)
    qtbot.addWidget(first)
    first.show()
    go(first, qtbot, 2)
    run_line(first, qtbot, "k = torch.zeros(2)")
    open_lesson(first, qtbot, "scratchpad")
    run_line(first, qtbot, "s = torch.arange(4.0)")
    open_lesson(first, qtbot, "inplace-on-a-leaf")
    first.close()
    second = build_window(settings)
    qtbot.addWidget(second)
    second.show()
    assert _codes(second)[2] == "k = torch.zeros(2)" and _origins(second)[2] == "user"
    assert len(_codes(second)) == 9
    open_lesson(second, qtbot, "scratchpad")
    assert _codes(second) == ["s = torch.arange(4.0)"]
    second.close()


def test_a_saved_program_that_no_longer_parses_is_set_aside_alone_with_a_message(qtbot, settings, tmp_path):
    from tensorlab.ui.window.main_window import default_data_dir

    folder = default_data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / FILE_NAME).write_text('format = "tensorlab-user-steps"\nversion = 1\n[[program]]\nlesson = ""\n'
                                    '[[program.step]]\ncode = "import os"\norigin = "user"\n'
                                    '[[program]]\nlesson = "inplace-on-a-leaf@inplace-on-a-leaf.toml"\nstep = ['
                                    '{ code = "x = torch.ones(5, requires_grad=True)", origin = "lesson" },'
                                    '{ code = "k = torch.zeros(2)", origin = "user" }]\n')
    window = build_window(settings)
    qtbot.addWidget(window)
    window.show()
    QApplication.processEvents()
    assert "set aside" in window.output_view.toPlainText()
    aside = [p for p in folder.iterdir() if p.name.startswith(FILE_NAME + ".set-aside")]
    assert len(aside) == 1 and "import os" in aside[0].read_text(encoding="utf-8")
    assert "import os" not in (folder / FILE_NAME).read_text(encoding="utf-8")
    assert window.controller.state.lesson is not None      # the app started as usual
    assert _codes(window)[1] == "k = torch.zeros(2)"        # with the other program's steps
    window.close()


def test_a_step_of_yours_is_written_in_the_background_and_a_failed_write_says_why(qtbot, settings, tmp_path):
    saved = tmp_path / "kept"
    window = build_window(settings, data_dir=saved)
    qtbot.addWidget(window)
    window.show()
    run_line(window, qtbot, "k = torch.zeros(2)")
    window.editing.flush()
    assert "k = torch.zeros(2)" in (saved / FILE_NAME).read_text(encoding="utf-8")
    window.close()

    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    window = build_window(settings, data_dir=blocked)
    qtbot.addWidget(window)
    window.show()
    run_line(window, qtbot, "k = torch.zeros(2)")
    window.editing.flush()
    qtbot.waitUntil(lambda: "could not be saved" in window.output_view.toPlainText(), timeout=5000)
    assert "k = torch.zeros(2)" in _codes(window)   # the step itself stands
    window.close()

"""Saved work in the window is never lost and never refused on the next start (issue 15, class 7):
two windows on one data folder, a lesson file that looks like a built-in lesson, programs the loader would
refuse, a lock held by another window, and messages seen in every layout."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

from PySide6.QtCore import QLockFile, QSettings
from PySide6.QtWidgets import QApplication

from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.ui.program.user_steps import FILE_NAME, LOCK_NAME, UserSteps, program_key
from tensorlab.ui.window.build import build_window
from tests.ui.support import go, open_lesson, run_line

LESSONS = Path(__file__).resolve().parents[3] / "tensorlab" / "resources" / "lessons"


def _settings(tmp_path: Path, name: str) -> QSettings:
    settings = QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat)
    settings.setValue("session/lesson", "inplace-on-a-leaf")
    return settings


def _window(qtbot, tmp_path: Path, name: str, data: Path, **options):
    window = build_window(_settings(tmp_path, name), data_dir=data, **options)
    qtbot.addWidget(window)
    window.show()
    return window


def _mine(window) -> list[str]:
    return [s.code for s in window.controller.state.program if s.origin == "user"]


def _saved(data: Path) -> dict[str, list[str]]:
    store = UserSteps(data)
    store.load()
    assert store.problems == []
    return {key: [s.code for s in program.steps] for key, program in store.saved.items()}


def test_two_windows_on_one_data_folder_keep_each_others_steps(qtbot, tmp_path):
    data = tmp_path / "data"
    first = _window(qtbot, tmp_path, "first", data)
    second = _window(qtbot, tmp_path, "second", data)
    go(first, qtbot, 2)
    run_line(first, qtbot, "k = torch.zeros(2)")              # the first window: a lesson
    open_lesson(second, qtbot, "scratchpad")
    run_line(second, qtbot, "s = torch.arange(4.0)")          # the second: the scratchpad
    first.editing.flush()
    second.editing.flush()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["k = torch.zeros(2)"],
                            "scratchpad": ["s = torch.arange(4.0)"]}
    run_line(first, qtbot, "k2 = k * 2")                       # the one that saves last erases nothing
    first.editing.flush()
    assert _saved(data)["scratchpad"] == ["s = torch.arange(4.0)"]
    # The first window opens the scratchpad: it sees what the second one saved meanwhile.
    open_lesson(first, qtbot, "scratchpad")
    assert _mine(first) == ["s = torch.arange(4.0)"]
    second.close()
    first.close()
    third = _window(qtbot, tmp_path, "third", data)
    assert _mine(third) == ["k = torch.zeros(2)", "k2 = k * 2"]
    open_lesson(third, qtbot, "scratchpad")
    assert _mine(third) == ["s = torch.arange(4.0)"]
    third.close()
    assert not (data / LOCK_NAME).exists()


def test_two_windows_changing_the_same_program_keep_both_windows_steps_and_say_so(qtbot, tmp_path):
    """Both windows add steps to the same lesson: the per-step merge keeps both, and the window whose save met
    the other's steps says so (not modal); where both added after the same lesson step, both stay, in order."""
    data = tmp_path / "data"
    first = _window(qtbot, tmp_path, "first", data)
    second = _window(qtbot, tmp_path, "second", data)
    go(first, qtbot, 2)
    go(second, qtbot, 2)
    run_line(first, qtbot, "k = torch.zeros(2)")
    first.editing.flush()
    run_line(second, qtbot, "s = torch.ones(3)")              # after the same lesson step: a conflict, both kept
    second.editing.flush()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["s = torch.ones(3)", "k = torch.zeros(2)"]}
    notice = second.editing.notice
    assert notice is not None and notice.isVisible() and not notice.isModal()
    assert "Another TensorLab window" in notice.text() and "both are kept" in notice.text()
    go(first, qtbot, 4)
    run_line(first, qtbot, "k2 = k * 2")                       # a later anchor: merged without a conflict
    first.editing.flush()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["s = torch.ones(3)", "k = torch.zeros(2)", "k2 = k * 2"]}
    assert "Another TensorLab window changed" in first.editing.notice.text()
    window_steps = _mine(second)
    assert window_steps == ["s = torch.ones(3)"]               # the window's own program, as its user left it
    second.controller.remove_step(second.controller.state.program.index(
        next(st for st in second.controller.state.program if st.code == "s = torch.ones(3)")))
    qtbot.waitUntil(lambda: not second.controller.busy, timeout=30_000)
    second.editing.flush()
    # Its removal removes only its step; the first window's stay.
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["k = torch.zeros(2)", "k2 = k * 2"]}
    second.close()
    first.close()
    third = _window(qtbot, tmp_path, "third", data)
    assert _mine(third) == ["k = torch.zeros(2)", "k2 = k * 2"]
    third.close()


def test_a_lesson_file_with_a_built_in_lessons_id_and_name_keeps_its_steps_apart(qtbot, tmp_path):
    data = tmp_path / "data"
    window = _window(qtbot, tmp_path, "window", data)
    go(window, qtbot, 2)
    run_line(window, qtbot, "k = torch.zeros(2)")              # steps of the built-in lesson
    copy = tmp_path / "lessons" / "inplace-on-a-leaf.toml"
    copy.parent.mkdir()
    shutil.copy(LESSONS / "inplace-on-a-leaf.toml", copy)      # same id, same file name
    assert window.open_lesson_file(copy)
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=30_000)
    assert window.controller.state.lesson is not find_lesson("inplace-on-a-leaf")
    window.editing.flush()
    assert _mine(window) == []                                  # not the built-in lesson's steps
    run_line(window, qtbot, "w = torch.ones(4)")
    window.commands.clear_steps.trigger()                       # ...and clearing them there
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=30_000)
    window.editing.flush()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["k = torch.zeros(2)"]}
    open_lesson(window, qtbot, "inplace-on-a-leaf")
    window.close()


def test_a_program_the_loader_would_refuse_is_never_saved_and_the_window_says_why(qtbot, tmp_path):
    data = tmp_path / "data"
    limits = dataclasses.replace(DEFAULT_LIMITS, max_lesson_steps=11)   # the lesson has 8 steps
    window = _window(qtbot, tmp_path, "window", data, limits=limits)
    go(window, qtbot, 2)
    for line in ("k = torch.zeros(2)", "m = k + 1", "n = m + 1"):
        run_line(window, qtbot, line)
    assert len(window.controller.state.program) == 11
    assert window.controller.submit("o = n + 1") is not None   # a 12th step is refused before it runs
    assert "at most 11 steps" in window.controller.submit("o = n + 1")
    window.editing.flush()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["k = torch.zeros(2)", "m = k + 1", "n = m + 1"]}
    assert window.editing.remove(2)                             # `k = ...`: `m = k + 1` reads a name no step binds
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=30_000)
    window.editing.flush()
    assert "not saved" in window.output_view.toPlainText()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["k = torch.zeros(2)", "m = k + 1", "n = m + 1"]}
    window.close()
    again = _window(qtbot, tmp_path, "again", data, limits=limits)   # starts, on the last program it could load
    assert _mine(again) == ["k = torch.zeros(2)", "m = k + 1", "n = m + 1"]
    again.close()


def test_a_program_set_aside_is_said_in_a_box_seen_in_the_projector_layout(qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / FILE_NAME).write_text('format = "tensorlab-user-steps"\nversion = 2\n[[program]]\n'
                                  'source = "builtin"\nlesson = "inplace-on-a-leaf"\n'
                                  'step = [{ code = "k = torch.zeros(2)", after = "no such step" }]\n')
    settings = _settings(tmp_path, "projector")
    settings.setValue("window/projector", True)
    window = build_window(settings, data_dir=data)
    qtbot.addWidget(window)
    window.show()
    window.set_presentation(True)
    QApplication.processEvents()
    box = window.editing.notice
    assert box is not None and box.isVisible() and not box.isModal()
    assert "set aside" in box.text() and "no such step" in box.text()
    assert window.controller.state.lesson is not None and _mine(window) == []
    box.accept()                                               # the user dismisses it
    assert not box.isVisible()
    window.close()


def test_a_lock_another_window_holds_is_said_and_the_steps_are_saved_when_it_is_free(qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    window = _window(qtbot, tmp_path, "window", data)
    window.editing.store.lock_timeout_ms = 200
    other = QLockFile(str(data / LOCK_NAME))                    # another window, saving (held, alive)
    assert other.tryLock(1000)
    go(window, qtbot, 2)
    run_line(window, qtbot, "k = torch.zeros(2)")
    window.editing._last_save.result(10)
    qtbot.waitUntil(lambda: "another TensorLab window" in window.output_view.toPlainText(), timeout=5000)
    assert window.editing.notice is not None and window.editing.notice.isVisible()
    assert window.editing.store.pending and not (data / FILE_NAME).exists()
    other.unlock()
    run_line(window, qtbot, "m = k + 1")                        # the next change saves both
    window.editing.flush()
    assert _saved(data) == {"builtin:inplace-on-a-leaf": ["k = torch.zeros(2)", "m = k + 1"]}
    assert window.editing.store.pending == {}
    window.close()


def test_steps_a_closing_window_cannot_merge_are_kept_and_come_back(qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    window = _window(qtbot, tmp_path, "window", data)
    window.editing.store.lock_timeout_ms = 200
    other = QLockFile(str(data / LOCK_NAME))
    assert other.tryLock(1000)
    go(window, qtbot, 2)
    run_line(window, qtbot, "k = torch.zeros(2)")
    window.close()                                              # the lock is still held: kept aside
    assert [p.name for p in data.iterdir() if p.name.startswith(FILE_NAME + ".unsaved-")]
    other.unlock()
    again = _window(qtbot, tmp_path, "again", data)
    assert _mine(again) == ["k = torch.zeros(2)"]
    assert not [p.name for p in data.iterdir() if ".unsaved-" in p.name]
    again.close()
    assert program_key(find_lesson("inplace-on-a-leaf")) in _saved(data)


def test_a_tool_that_opens_the_scratchpad_keeps_the_steps_saved_there(qtbot, tmp_path):
    from tensorlab.ui.tools.scratchpad_loader import ScratchpadLoader

    data = tmp_path / "data"
    first = _window(qtbot, tmp_path, "first", data)
    open_lesson(first, qtbot, "scratchpad")
    run_line(first, qtbot, "s = torch.arange(4.0)")
    first.close()
    window = _window(qtbot, tmp_path, "window", data)          # on a lesson: the scratchpad not opened yet
    loader = ScratchpadLoader(window.controller)
    with qtbot.waitSignal(loader.finished, timeout=30_000):
        assert loader.load(["w = torch.ones(2)"])
    assert _mine(window) == ["s = torch.arange(4.0)", "w = torch.ones(2)"]
    window.editing.flush()
    assert _saved(data)["scratchpad"] == ["s = torch.arange(4.0)", "w = torch.ones(2)"]
    window.close()

"""The saved steps file: today's files load, and a file that cannot be used never stops the app."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from tensorlab.core.engine.player import StepOrigin
from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.ui.program import user_steps
from tensorlab.ui.program.user_steps import FILE_NAME, UserSteps

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "migration" / "user-steps-v1.toml"
HEAD = 'format = "tensorlab-user-steps"\nversion = 1\n'
STEP = HEAD + '[[program]]\nlesson = ""\n[[program.step]]\n'


def _store(tmp_path: Path, text: str | bytes | None = None) -> UserSteps:
    if isinstance(text, str):
        (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
    elif isinstance(text, bytes):
        (tmp_path / FILE_NAME).write_bytes(text)
    store = UserSteps(tmp_path)
    store.load()
    return store


def _set_aside(tmp_path: Path) -> list[str]:
    return [p.name for p in tmp_path.iterdir() if p.name.startswith(FILE_NAME + ".set-aside")]


def test_a_file_written_by_the_release_before_issue_14_loads_every_step(tmp_path):
    shutil.copy(FIXTURE, tmp_path / FILE_NAME)
    store = UserSteps(tmp_path)
    store.load()
    assert store.problems == []
    leaf, first = find_lesson("inplace-on-a-leaf"), find_lesson("assignment-is-not-a-copy")

    program = store.program(leaf)
    assert program is not None and len(program) == len(leaf.steps) + 2
    assert [(s.code, s.origin) for s in program if s.origin == StepOrigin.USER] == [
        ("k = torch.zeros(2)", "user"), ("m = k + 1", "user")]
    assert [s.origin for s in program[:4]] == ["lesson", "lesson", "user", "user"]
    assert [s.code for s in program if s.origin == StepOrigin.LESSON] == [s.code for s in leaf.steps]
    assert program[0].note == leaf.steps[0].note      # the lesson's own steps, with their notes

    scratch = store.program(None)
    assert scratch is not None
    assert [(s.code, s.origin) for s in scratch] == [
        ("s = torch.arange(4.0)", StepOrigin.USER), ("t = s.view(2, 2)", StepOrigin.USER),
        ('print("héllo — 안녕")', StepOrigin.USER)]

    other = store.program(first)
    assert other is not None and [s.code for s in other][:2] == ["a = torch.zeros(3)",
                                                                "q = torch.ones(3, requires_grad=True)"]
    assert store.problems == []


def test_saving_a_loaded_file_again_writes_the_same_bytes(tmp_path):
    shutil.copy(FIXTURE, tmp_path / FILE_NAME)
    store = UserSteps(tmp_path)
    store.load()
    store.save()
    assert (tmp_path / FILE_NAME).read_bytes() == FIXTURE.read_bytes()
    assert all(isinstance(o, StepOrigin) for steps in store.saved.values() for _, o in steps)


BAD = {
    "a 5,000-digit integer": HEAD + "n = " + "9" * 5000 + "\n",
    "a 5,000-digit integer where a step is": HEAD + '[[program]]\nlesson = ""\nstep = ' + "1" * 5000 + "\n",
    "arrays nested past the parser": HEAD + "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "not UTF-8": b"\xff\xfe" + HEAD.encode(),
    "not TOML": "this is [not toml",
    "an origin that is a list": STEP + 'code = "a = 1"\norigin = ["user"]\n',
    "an origin from no release": STEP + 'code = "a = 1"\norigin = "mine"\n',
    "another format": 'format = "tensorlab-lesson"\nversion = 1\n',
    "a later version": 'format = "tensorlab-user-steps"\nversion = 2\n',
    "a refused step": STEP + 'code = "import os"\norigin = "user"\n',
}


@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_a_file_that_cannot_be_used_is_set_aside_with_a_message_and_nothing_raises(tmp_path, text):
    store = _store(tmp_path, text)
    assert store.saved == {}
    assert len(store.problems) == 1 and "set aside" in store.problems[0]
    assert not (tmp_path / FILE_NAME).exists() and len(_set_aside(tmp_path)) == 1


def test_the_5000_digit_integer_message_says_what_is_wrong(tmp_path):
    store = _store(tmp_path, BAD["a 5,000-digit integer"])
    assert "an integer of 5,000 digits" in store.problems[0]


def test_an_exception_nobody_foresaw_sets_the_file_aside_too(tmp_path, monkeypatch):
    def broken(data, limits):
        raise RuntimeError("something new")

    monkeypatch.setattr(user_steps, "parse_steps_file", broken)
    store = _store(tmp_path, HEAD)
    assert "RuntimeError: something new" in store.problems[0] and _set_aside(tmp_path)


def test_no_file_is_no_steps_and_no_message(tmp_path):
    store = _store(tmp_path)
    assert store.saved == {} and store.problems == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and FIFOs")
def test_a_link_or_a_fifo_is_set_aside_unread(tmp_path):
    target = tmp_path / "elsewhere.toml"
    target.write_text(HEAD)
    (tmp_path / FILE_NAME).symlink_to(target)
    store = _store(tmp_path)
    assert store.problems and target.exists() and _set_aside(tmp_path)
    assert "symbolic link" in store.problems[0]   # said as it is, not "too many levels of symbolic links"

    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / FILE_NAME)
    store = _store(fifo)            # would wait forever for a writer if it were opened for reading
    assert store.problems and "FIFO" in store.problems[0]


def test_the_reason_a_file_was_set_aside_is_in_the_windows_language(tmp_path, qapp):
    from tensorlab.ui.widgets import i18n

    (tmp_path / FILE_NAME).write_bytes(HEAD.encode() + b"\n# \xff\xfe not UTF-8\n")
    i18n.set_language("ko")
    try:
        store = _store(tmp_path)
    finally:
        i18n.set_language("en")
    assert store.problems and "UTF-8 텍스트 파일이 아닙니다" in store.problems[0]
    assert "not UTF-8" not in store.problems[0]


def test_a_file_over_the_size_limit_is_set_aside(tmp_path):
    store = UserSteps(tmp_path)
    (tmp_path / FILE_NAME).write_text(HEAD + "# " + "x" * (store.limits.max_lesson_bytes * 4) + "\n")
    store.load()
    assert "larger than" in store.problems[0]


def test_the_window_starts_on_the_saved_steps_of_the_release_before(qtbot, settings, tmp_path):
    from tensorlab.ui.window.build import build_window
    from tests.ui.support import open_lesson

    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(FIXTURE, data / FILE_NAME)
    window = build_window(settings, data_dir=data)      # opens "inplace-on-a-leaf" (the settings say so)
    qtbot.addWidget(window)
    window.show()
    program = window.controller.state.program
    assert [(s.code, s.origin) for s in program[2:4]] == [("k = torch.zeros(2)", "user"), ("m = k + 1", "user")]
    open_lesson(window, qtbot, "scratchpad")
    assert [s.code for s in window.controller.state.program] == [
        "s = torch.arange(4.0)", "t = s.view(2, 2)", 'print("héllo — 안녕")']
    assert "set aside" not in window.output_view.toPlainText()
    window.close()

"""The saved steps file: files of every release load, only a program that fails is set aside, and a
file that cannot be used never stops the app (issue 15, class 7)."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from pathlib import Path

import pytest

from tensorlab.core.engine.player import ProgramStep, StepOrigin, program_from
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.lessons.lesson import find_lesson, parse_lesson
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.ui.program import user_steps
from tensorlab.ui.program.user_steps import (
    FILE_NAME,
    Anchor,
    SavedProgram,
    SavedStep,
    UserSteps,
    anchored,
    program_key,
    rebase,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "migration"
FIXTURE = DATA / "user-steps-v1.toml"
MIGRATED = DATA / "user-steps-v2-migrated.toml"
HEAD = 'format = "tensorlab-user-steps"\nversion = 1\n'
HEAD2 = 'format = "tensorlab-user-steps"\nversion = 2\n'
STEP = HEAD + '[[program]]\nlesson = ""\n[[program.step]]\n'
LEAF = "builtin:inplace-on-a-leaf"


def _store(tmp_path: Path, text: str | bytes | None = None, **options) -> UserSteps:
    if isinstance(text, str):
        (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
    elif isinstance(text, bytes):
        (tmp_path / FILE_NAME).write_bytes(text)
    store = UserSteps(tmp_path, **options)
    store.load()
    return store


def _set_aside(tmp_path: Path) -> list[str]:
    return [p.name for p in tmp_path.iterdir() if p.name.startswith(FILE_NAME + ".set-aside")]


def _user(code: str) -> ProgramStep:
    return ProgramStep(code, parse_one(code), origin=StepOrigin.USER)


def _with(lesson, at: int, *codes: str) -> list[ProgramStep]:
    """The program of ``lesson`` with ``codes`` of yours inserted after its first ``at`` steps."""
    program = program_from(lesson)
    return program[:at] + [_user(c) for c in codes] + program[at:]


# -- the file of the release before (version 1), migrated once -------------------------------------------------
def test_a_file_written_by_the_release_before_loads_every_step_and_is_migrated_once(tmp_path):
    shutil.copy(FIXTURE, tmp_path / FILE_NAME)
    store = UserSteps(tmp_path)
    store.load()
    assert store.problems == []
    leaf, first = find_lesson("inplace-on-a-leaf"), find_lesson("assignment-is-not-a-copy")

    program = store.program(program_key(leaf), leaf)
    assert program is not None and len(program) == len(leaf.steps) + 2
    assert [(s.code, s.origin) for s in program if s.origin == StepOrigin.USER] == [
        ("k = torch.zeros(2)", "user"), ("m = k + 1", "user")]
    assert [s.origin for s in program[:4]] == ["lesson", "lesson", "user", "user"]
    assert [s.code for s in program if s.origin == StepOrigin.LESSON] == [s.code for s in leaf.steps]
    assert program[0].note == leaf.steps[0].note      # the lesson's own steps, with their notes

    scratch = store.program(program_key(None), None)
    assert scratch is not None
    assert [(s.code, s.origin) for s in scratch] == [
        ("s = torch.arange(4.0)", StepOrigin.USER), ("t = s.view(2, 2)", StepOrigin.USER),
        ('print("héllo — 안녕")', StepOrigin.USER)]

    other = store.program(program_key(first), first)
    assert other is not None and [s.code for s in other][:2] == ["a = torch.zeros(3)",
                                                                "q = torch.ones(3, requires_grad=True)"]
    assert store.problems == [] and store.pending == {}
    # Migrated once: the file is version 2 now (exactly the committed fixture), the original kept beside it.
    assert (tmp_path / FILE_NAME).read_bytes() == MIGRATED.read_bytes()
    assert (tmp_path / f"{FILE_NAME}.version-1").read_bytes() == FIXTURE.read_bytes()
    again = _store(tmp_path)
    assert again.saved == store.saved and again.problems == []
    assert (tmp_path / FILE_NAME).read_bytes() == MIGRATED.read_bytes()


def test_saving_a_loaded_file_again_writes_the_same_bytes(tmp_path):
    shutil.copy(MIGRATED, tmp_path / FILE_NAME)
    store = _store(tmp_path)
    store.saved_as(store.save({key: program for key, program in store.saved.items()}))
    assert (tmp_path / FILE_NAME).read_bytes() == MIGRATED.read_bytes()


def test_the_migration_files_a_built_in_lessons_steps_by_its_id_and_any_other_by_its_file(tmp_path):
    text = HEAD + ('[[program]]\nlesson = "my-lesson@my-lesson.toml"\n'
                   '[[program.step]]\ncode = "z = torch.ones(2)"\norigin = "user"\n')
    store = _store(tmp_path, text)
    assert list(store.saved) == ["file-name:my-lesson@my-lesson.toml"]
    lesson = parse_lesson('[lesson]\nid = "my-lesson"\ntitle = "Mine"\n[[step]]\ncode = "a = torch.ones(1)"\n',
                          "my-lesson.toml")
    path = tmp_path / "lessons" / "my-lesson.toml"
    key = program_key(lesson, path)
    program = store.program(key, lesson)      # opened from its path: the steps follow it there
    assert [s.code for s in program] == ["z = torch.ones(2)", "a = torch.ones(1)"]
    assert list(store.saved) == [key] and store.pending["file-name:my-lesson@my-lesson.toml"] is None
    store.saved_as(store.save())
    assert list(_store(tmp_path).saved) == [key]


# -- where a lesson came from ------------------------------------------------------------------------------------
def test_a_lesson_file_with_a_built_in_lessons_id_and_file_name_never_touches_its_steps(tmp_path):
    builtin = find_lesson("inplace-on-a-leaf")
    copy = parse_lesson((Path(user_steps.__file__).parents[2] / "resources" / "lessons"
                         / "inplace-on-a-leaf.toml").read_bytes(), "inplace-on-a-leaf.toml")
    assert (copy.id, copy.source) == (builtin.id, builtin.source) and copy is not builtin
    store = UserSteps(tmp_path)
    assert store.update(program_key(builtin), builtin, _with(builtin, 2, "k = torch.zeros(2)"))
    store.saved_as(store.save())
    file_key = program_key(copy, tmp_path / "inplace-on-a-leaf.toml")
    assert file_key != program_key(builtin) and program_key(copy) != program_key(builtin)
    assert store.program(file_key, copy) is None          # nothing of the built-in lesson's
    assert store.update(file_key, copy, _with(copy, 1, "w = torch.ones(4)"))
    store.saved_as(store.save())
    assert store.update(file_key, copy, program_from(copy))    # every step of yours removed from the file's
    store.saved_as(store.save())
    again = _store(tmp_path)
    kept = again.program(program_key(builtin), builtin)
    assert [s.code for s in kept if s.origin == StepOrigin.USER] == ["k = torch.zeros(2)"]
    assert again.program(file_key, copy) is None


# -- rebased when the lesson changes -----------------------------------------------------------------------------
LESSON = """[lesson]
id = "rebased"
title = "Rebased"
[[step]]
code = "a = torch.zeros(3)"
[[step]]
code = "b = a + 1"
[[step]]
code = "b = a + 1"
[[step]]
code = "c = b * 2"
"""


def _lesson(text: str):
    return parse_lesson(text, "rebased.toml")


def test_your_steps_follow_their_lesson_steps_when_steps_are_inserted_and_removed_around_them(tmp_path):
    old = _lesson(LESSON)
    program = old_program = _with(old, 3, "m = b - 1")            # after the second `b = a + 1`
    program = program[:1] + [_user("z = a * 0")] + program[1:]     # after `a = torch.zeros(3)`
    steps = anchored(program)
    assert steps == (SavedStep("z = a * 0", Anchor("a = torch.zeros(3)")),
                     SavedStep("m = b - 1", Anchor("b = a + 1", 2)))
    assert len(old_program) == 5
    # The rewritten lesson: a step before everything, one between, the last one removed.
    new = _lesson(LESSON.replace('[[step]]\ncode = "c = b * 2"\n', "").replace(
        '[[step]]\ncode = "a = torch.zeros(3)"\n',
        '[[step]]\ncode = "w = torch.ones(1)"\n[[step]]\ncode = "a = torch.zeros(3)"\n[[step]]\ncode = "v = a"\n'))
    rebased = rebase(new, SavedProgram("file", "rebased", "/x/rebased.toml", steps))
    assert [s.code for s in rebased] == ["w = torch.ones(1)", "a = torch.zeros(3)", "z = a * 0", "v = a",
                                        "b = a + 1", "b = a + 1", "m = b - 1"]
    assert [s.origin for s in rebased].count(StepOrigin.USER) == 2


def test_when_an_anchor_is_gone_only_that_program_is_set_aside_with_a_message(tmp_path):
    builtin = find_lesson("inplace-on-a-leaf")
    store = UserSteps(tmp_path)
    store.update(program_key(builtin), builtin, _with(builtin, 2, "k = torch.zeros(2)"))
    old = _lesson(LESSON)
    key = program_key(old, tmp_path / "rebased.toml")
    store.update(key, old, _with(old, 4, "d = c + 1"))
    store.saved_as(store.save())

    again = _store(tmp_path)
    new = _lesson(LESSON.replace('code = "c = b * 2"', 'code = "c = b * 3"'))   # the anchor's code changed
    assert again.program(key, new) is None
    assert len(again.problems) == 1 and "set aside" in again.problems[0] and "c = b * 2" in again.problems[0]
    assert "“Rebased”" in again.problems[0]
    aside = _set_aside(tmp_path)
    assert len(aside) == 1 and "d = c + 1" in (tmp_path / aside[0]).read_text(encoding="utf-8")
    again.saved_as(again.save())
    third = _store(tmp_path)
    assert list(third.saved) == [program_key(builtin)] and third.problems == []   # the other program stays


def test_a_program_that_no_longer_checks_against_its_lesson_is_set_aside_alone(tmp_path):
    old = _lesson(LESSON)
    key = program_key(old, tmp_path / "rebased.toml")
    store = UserSteps(tmp_path)
    store.update(key, old, _with(old, 1, "e = a.sum()"))
    store.saved_as(store.save())
    new = _lesson(LESSON.replace('code = "a = torch.zeros(3)"', 'code = "q = torch.zeros(3)"').replace(
        'code = "b = a + 1"', 'code = "b = q + 1"'))
    again = _store(tmp_path)
    assert again.program(key, new) is None and "set aside" in again.problems[0]


# -- validated before saving; on load only the program that fails goes ----------------------------------------
def test_a_program_the_loader_would_refuse_is_not_saved_and_says_why(tmp_path):
    limits = dataclasses.replace(DEFAULT_LIMITS, max_lesson_steps=4)
    store = UserSteps(tmp_path, limits)
    scratch = [_user("a = torch.ones(2)"), _user("b = a + 1")]
    assert store.update("scratchpad", None, scratch)
    store.saved_as(store.save())
    too_long = scratch + [_user(f"c{i} = b * {i}") for i in range(3)]          # 5 steps, at most 4
    assert not store.update("scratchpad", None, too_long)
    assert "not saved" in store.problems[-1] and "5 steps" in store.problems[-1]
    orphan = [_user("b = a + 1")]                                               # `a = ...` was removed
    assert not store.update("scratchpad", None, orphan)
    assert "not saved" in store.problems[-1] and "`a`" in store.problems[-1]
    assert store.pending == {}
    kept = _store(tmp_path, limits=limits)
    assert [s.code for s in kept.program("scratchpad", None)] == ["a = torch.ones(2)", "b = a + 1"]


PROGRAMS = HEAD2 + """
[[program]]
source = "scratchpad"
step = [{ code = "s = torch.arange(4.0)" }]

[[program]]
source = "builtin"
lesson = "inplace-on-a-leaf"
step = [{ code = "import os", after = "x[0] = 2" }]

[[program]]
source = "builtin"
lesson = "assignment-is-not-a-copy"
step = [{ code = "q = a * 2", after = "a = torch.zeros(3)" }]
"""


def test_on_load_only_the_program_that_fails_is_set_aside(tmp_path):
    store = _store(tmp_path, PROGRAMS)
    assert sorted(store.saved) == ["builtin:assignment-is-not-a-copy", "scratchpad"]
    assert len(store.problems) == 1 and "set aside" in store.problems[0] and "inplace-on-a-leaf" in store.problems[0]
    aside = _set_aside(tmp_path)
    assert len(aside) == 1 and "import os" in (tmp_path / aside[0]).read_text(encoding="utf-8")
    text = (tmp_path / FILE_NAME).read_text(encoding="utf-8")
    assert "import os" not in text and "q = a * 2" in text and "s = torch.arange(4.0)" in text
    assert _store(tmp_path).problems == []


def test_a_program_that_cannot_be_set_aside_stays_in_the_file_unused(tmp_path, monkeypatch):
    monkeypatch.setattr(user_steps, "_unique", lambda folder, stem: folder / "no-such-folder" / stem)
    store = _store(tmp_path, PROGRAMS)
    assert sorted(store.saved) == ["builtin:assignment-is-not-a-copy", "scratchpad"]
    assert len(store.problems) == 1 and "stay in" in store.problems[0]
    assert (tmp_path / FILE_NAME).read_text(encoding="utf-8") == PROGRAMS    # nothing written without it
    store.pending["scratchpad"] = None
    with pytest.raises(OSError):
        store.save()                                # a save would drop it: refused, the change stays pending
    assert "import os" in (tmp_path / FILE_NAME).read_text(encoding="utf-8") and store.pending


def test_a_start_while_another_window_holds_the_lock_reads_the_file_and_moves_nothing(tmp_path):
    from PySide6.QtCore import QLockFile

    (tmp_path / FILE_NAME).write_text(PROGRAMS, encoding="utf-8")
    (tmp_path / f".{FILE_NAME}.abcd1234.tmp").write_text("another window's save, in progress")
    other = QLockFile(str(tmp_path / user_steps.LOCK_NAME))
    assert other.tryLock(1000)
    try:
        store = _store(tmp_path, lock_timeout_ms=100)
    finally:
        other.unlock()
    assert sorted(store.saved) == ["builtin:assignment-is-not-a-copy", "scratchpad"]
    assert len(store.problems) == 1 and "stay in" in store.problems[0]
    assert (tmp_path / FILE_NAME).read_text(encoding="utf-8") == PROGRAMS and not _set_aside(tmp_path)
    assert (tmp_path / f".{FILE_NAME}.abcd1234.tmp").exists()       # not removed without the lock


PER_PROGRAM = {
    "an origin that is a list": STEP + 'code = "a = 1"\norigin = ["user"]\n',
    "an origin from no release": STEP + 'code = "a = 1"\norigin = "mine"\n',
    "a refused step": STEP + 'code = "import os"\norigin = "user"\n',
    "a name read before it is bound": STEP + 'code = "b = a + 1"\norigin = "user"\n',
    "a 501-step program": HEAD + '[[program]]\nlesson = ""\nstep = [' + ", ".join(
        ['{ code = "a = 1", origin = "user" }'] * 501) + "]\n",
    "a version 2 step with unknown keys": HEAD2 + '[[program]]\nsource = "scratchpad"\nstep = [{ code = "a = 1", '
                                                  'origin = "user" }]\n',
    "a version 2 anchor number that is text": HEAD2 + '[[program]]\nsource = "builtin"\nlesson = "x"\nstep = '
                                                      '[{ code = "a = 1", after = "b", occurrence = "2" }]\n',
    "a version 2 program of no source": HEAD2 + '[[program]]\nsource = "web"\nstep = []\n',
}

@pytest.mark.parametrize("text", PER_PROGRAM.values(), ids=PER_PROGRAM.keys())
def test_a_program_that_cannot_be_used_is_set_aside_alone_with_a_message(tmp_path, text):
    store = _store(tmp_path, text)
    assert store.saved == {}
    assert len(store.problems) == 1 and "set aside" in store.problems[0]
    assert (tmp_path / FILE_NAME).exists() and len(_set_aside(tmp_path)) == 1
    assert _store(tmp_path).problems == []      # the next start finds nothing wrong


# -- a file that cannot be read at all: set aside whole -----------------------------------------------------------
BAD = {
    "a 5,000-digit integer": HEAD + "n = " + "9" * 5000 + "\n",
    "a 5,000-digit integer where a step is": HEAD + '[[program]]\nlesson = ""\nstep = ' + "1" * 5000 + "\n",
    "a 5,000-digit anchor number": HEAD2 + '[[program]]\nsource = "scratchpad"\nstep = [{ code = "a = 1", '
                                           'after = "b", occurrence = ' + "7" * 5000 + " }]\n",
    "arrays nested past the parser": HEAD + "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "not UTF-8": b"\xff\xfe" + HEAD.encode(),
    "not TOML": "this is [not toml",
    "another format": 'format = "tensorlab-lesson"\nversion = 1\n',
    "a later version": 'format = "tensorlab-user-steps"\nversion = 3\n',
    "a version that is text": 'format = "tensorlab-user-steps"\nversion = "2"\n',
    "programs that are not a list": HEAD2 + 'program = "all of them"\n',
}


@pytest.mark.parametrize("text", BAD.values(), ids=BAD.keys())
def test_a_file_that_cannot_be_used_is_set_aside_with_a_message_and_nothing_raises(tmp_path, text):
    store = _store(tmp_path, text)
    assert store.saved == {}
    assert len(store.problems) == 1 and "set aside" in store.problems[0]
    assert not (tmp_path / FILE_NAME).exists() and len(_set_aside(tmp_path)) == 1


def test_the_5000_digit_integer_message_says_what_is_wrong(tmp_path):
    """Said to be fixed before issue 15: confirmed (any exception while reading sets the file aside)."""
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
    store = _store(tmp_path / "not-made-yet")
    assert store.saved == {} and store.problems == [] and not (tmp_path / "not-made-yet").exists()


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


def test_the_reason_a_file_was_set_aside_is_in_the_windows_language(qapp, tmp_path):
    from tensorlab.ui.widgets import i18n

    (tmp_path / FILE_NAME).write_bytes(HEAD.encode() + b"\n# \xff\xfe not UTF-8\n")
    i18n.set_language("ko")
    try:
        store = _store(tmp_path)
    finally:
        i18n.set_language("en")
    assert store.problems and "UTF-8 텍스트 파일이 아닙니다" in store.problems[0]
    assert "not UTF-8" not in store.problems[0]


def test_the_format_errors_of_the_file_are_said_in_korean_too(qapp, tmp_path):
    from tensorlab.ui.widgets import i18n

    i18n.set_language("ko")
    try:
        (tmp_path / "b").mkdir()
        whole = _store(tmp_path / "b", 'format = "tensorlab-user-steps"\nversion = 3\n')
        (tmp_path / "c").mkdir()
        program = _store(tmp_path / "c", PER_PROGRAM["an origin from no release"])
    finally:
        i18n.set_language("en")
    assert "이 TensorLab이 읽을 수 있는 버전이 아닙니다(버전 3)" in whole.problems[0]
    assert "연습장에 직접 추가한 단계를 쓸 수 없습니다" in program.problems[0]
    assert "`origin`은 `lesson` 또는 `user`여야 합니다" in program.problems[0]
    assert "must" not in program.problems[0]


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

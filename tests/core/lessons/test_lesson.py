"""Bad lesson files are rejected with the file, the step and what is wrong."""

from __future__ import annotations

import dataclasses

import pytest

from tensorlab.core.lessons.lesson import (
    LessonError,
    builtin_lessons,
    dump_lesson,
    find_lesson,
    load_lesson,
    parse_lesson,
    save_lesson,
)

GOOD = '[lesson]\nid = "t"\ntitle = "T"\n\n[[step]]\ncode = "x = torch.ones(2)"\n'


def _write(tmp_path, text, name="bad.toml"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


BAD = {
    "empty": ("", "bad.toml: the file is empty"),
    "not utf-8": (b"\xff\xfe[lesson]", "not UTF-8"),
    "invalid toml": ("[lesson\nid=", "not valid TOML"),
    "no lesson table": ('[[step]]\ncode = "x = 1"\n', "[lesson] table is missing"),
    "no id": ('[lesson]\ntitle = "T"\n[[step]]\ncode="x = 1"\n', "`id` in [lesson] is missing"),
    "bad id": ('[lesson]\nid = "Bad Id"\ntitle = "T"\n[[step]]\ncode="x = 1"\n', "`id` must use only"),
    "no title": ('[lesson]\nid = "t"\n[[step]]\ncode="x = 1"\n', "`title` in [lesson] is missing"),
    "no steps": ('[lesson]\nid = "t"\ntitle = "T"\n', "has no [[step]]"),
    "no code": (GOOD + '\n[[step]]\nnote = "n"\n', "bad.toml, step 2: `code` in [[step]] is missing"),
    "typo key": (GOOD + '\n[[step]]\ncod = "x = 1"\n', "bad.toml, step 2: unknown key `cod`"),
    "unknown lesson key": ('[lesson]\nid = "t"\ntitle = "T"\nauthor = "me"\n[[step]]\ncode="x = 1"\n',
                           "unknown key `author`"),
    "does not parse": (GOOD + '\n[[step]]\ncode = "x = ("\n', "step 2: line 1"),
    "two statements": (GOOD + '\n[[step]]\ncode = "x = 1; y = 2"\n', "step 2: line 1, col 8: expected one statement"),
    "forbidden name": (GOOD + '\n[[step]]\ncode = "open(\'f\')"\n', "step 2: line 1, col 1: `open` is not available"),
    "dunder": (GOOD + '\n[[step]]\ncode = "y = x.__class__"\n', "double underscores"),
    "lambda": (GOOD + '\n[[step]]\ncode = "f = lambda: 0"\n', "lambda is not available"),
    "loop": (GOOD + '\n[[step]]\ncode = """while x:\n    y = 1"""\n', "while loop is not available"),
    "use before definition": (GOOD + '\n[[step]]\ncode = "y = z * 2"\n', "step 2: line 1, col 5: `z` is not defined"),
    "too large": (GOOD + '\n[[step]]\ncode = "y = torch.zeros(10**9)"\n',
                  "step 2: line 1, col 5: torch.zeros(...) would have"),
    "bad answer": (GOOD + '\n[step.ask]\nquestion = "q"\nchoices = ["a", "b"]\nanswer = 2\n', "`answer` in [step.ask]"),
    "code not text": ('[lesson]\nid = "t"\ntitle = "T"\n[[step]]\ncode = 5\n', "must be text, not int"),
}


@pytest.mark.parametrize("text,message", BAD.values(), ids=list(BAD))
def test_bad_files_are_rejected_with_a_clear_message(tmp_path, text, message):
    with pytest.raises(LessonError) as caught:
        load_lesson(_write(tmp_path, text))
    assert message in str(caught.value)
    assert str(caught.value).startswith("bad.toml")


def test_missing_file_is_a_lesson_error(tmp_path):
    with pytest.raises(LessonError, match="cannot read the file"):
        load_lesson(tmp_path / "nope.toml")


def test_builtin_lessons_load_in_teaching_order():
    from tensorlab.core.files.package_data import lessons_dir
    from tensorlab.core.lessons.course import COURSE_FILE, builtin_course

    ids = [l.id for l in builtin_lessons()]
    assert ids == list(builtin_course().order)
    assert sorted(ids) == sorted(p.stem for p in lessons_dir().glob("*.toml") if p.name != COURSE_FILE)
    assert find_lesson("clone-keeps-the-graph").title == "Does clone() keep the graph?"


def test_translations_and_questions_round_trip(tmp_path):
    lesson = find_lesson("inplace-on-a-leaf")
    assert lesson.text("title", "ko") != lesson.title
    assert lesson.text("title", "fr") == lesson.title
    path = tmp_path / "copy.toml"
    save_lesson(lesson, path)
    again = load_lesson(path)
    assert dump_lesson(again) == dump_lesson(lesson)
    assert again.steps[1].ask.answer == 1
    assert [s.code for s in again.steps] == [s.code for s in lesson.steps]


def test_a_good_minimal_file(tmp_path):
    lesson = parse_lesson(GOOD, "t.toml")
    assert lesson.id == "t" and len(lesson.steps) == 1


# -- the course's keys: check, facts, chapter, prerequisites ---------------------------------------------

NEW = '''[lesson]
id = "n"
title = "N"
chapter = "Basics"
chapter_ko = "기초"
prerequisites = ["assignment-is-not-a-copy"]

[[step]]
code = "x = torch.ones(2)"
facts = ["x is a leaf"]

[step.ask]
question = "q"
check = "x"
choices = ["tensor([1., 1.])", "None"]
answer = 0
'''


def test_the_new_keys_are_read():
    lesson = parse_lesson(NEW, "n.toml")
    assert lesson.chapter == "Basics" and lesson.text("chapter", "ko") == "기초"
    assert lesson.prerequisites == ("assignment-is-not-a-copy",)
    assert lesson.steps[0].facts == ("x is a leaf",)
    assert lesson.steps[0].ask.check == "x"


def test_old_files_without_the_new_keys_still_load():
    old = GOOD + '\n[[step]]\ncode = "y = x * 2"\n\n[step.ask]\nquestion = "q"\nchoices = ["a", "b"]\nanswer = 1\n'
    lesson = parse_lesson(old, "old.toml")
    assert lesson.chapter == "" and lesson.prerequisites == () and lesson.steps[1].ask.check == ""


@pytest.mark.parametrize("text,message", [
    (NEW.replace('check = "x"', 'checks = "x"'), "unknown key `checks` in [step.ask]"),
    (NEW.replace('chapter = "Basics"', 'chapters = "Basics"'), "unknown key `chapters` in [lesson]"),
    (NEW.replace('facts = ["x is a leaf"]', 'fact = ["x is a leaf"]'), "unknown key `fact` in [[step]]"),
    (NEW.replace('prerequisites = ["assignment-is-not-a-copy"]', 'prerequisites = "a"'),
     "`prerequisites` in [lesson] must be a list of text"),
    (NEW.replace('prerequisites = ["assignment-is-not-a-copy"]', 'prerequisites = ["Not An Id"]'),
     "`prerequisites` must be lesson ids"),
    (NEW.replace('check = "x"', "check = 3"), "`check` in [step.ask] must be text"),
    (NEW.replace('facts = ["x is a leaf"]', "facts = [1]"), "`facts` in [[step]] must be a list of text"),
    (NEW.replace('chapter = "Basics"', "chapter = 1"), "`chapter` in [lesson] must be text"),
])
def test_new_keys_are_checked_and_unknown_keys_refused(text, message):
    with pytest.raises(LessonError) as caught:
        parse_lesson(text, "n.toml")
    assert message in str(caught.value)


# -- files that must not hang, exhaust or crash the reader -----------------------------------------------

@pytest.mark.parametrize("body,message", [
    ("x = " + "9" * 5000, "an integer of 5,000 digits; TensorLab reads integers of at most 4,300 digits"),
    ("x = " + "[" * 5000 + "]" * 5000, "nests arrays or tables too deeply"),
    ("x = " + "{a = " * 5000 + "1" + "}" * 5000, "nests arrays or tables too deeply"),
])
def test_hostile_toml_is_a_lesson_error(tmp_path, body, message):
    path = _write(tmp_path, GOOD + body + "\n")
    with pytest.raises(LessonError) as caught:
        load_lesson(path)
    assert message in str(caught.value) and str(caught.value).startswith("bad.toml: ")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    import os

    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(LessonError, match="a named pipe \\(FIFO\\), not a lesson file"):
        load_lesson(fifo)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_without_reading_them(device):
    with pytest.raises(LessonError, match="this is a device, not a lesson file"):
        load_lesson(device)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(LessonError, match="a folder, not a lesson file|cannot read the file"):
        load_lesson(tmp_path)


def test_at_most_the_limit_is_read(tmp_path):
    from tensorlab.core.files.bounded_read import read_regular_file
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS

    path = _write(tmp_path, GOOD + "#" * 100)
    limits = dataclasses.replace(DEFAULT_LIMITS, max_lesson_bytes=50)
    with pytest.raises(LessonError, match="larger than 50 bytes"):
        load_lesson(path, limits)
    assert len(read_regular_file(path, 10_000)) == len(GOOD) + 100


@pytest.mark.parametrize("kind", ["int", "array", "fifo", "zero", "urandom"])
def test_the_cli_exits_2_with_a_message_and_no_traceback(tmp_path, capsys, kind):
    import os

    from tensorlab.cli.main import main

    if kind == "int":
        path = str(_write(tmp_path, GOOD + "x = " + "9" * 5000 + "\n"))
    elif kind == "array":
        path = str(_write(tmp_path, GOOD + "x = " + "[" * 5000 + "]" * 5000 + "\n"))
    elif kind == "fifo":
        path = str(tmp_path / "pipe.toml")
        os.mkfifo(path)
    else:
        path = f"/dev/{kind}"
    assert main(["run", path, "--in-process"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tensorlab: ") and "Traceback" not in err


# -- writing: tomli-w, exact round trip, atomic ----------------------------------------------------------

TRICKY = ['say "hi"', "back\\slash", "two\nlines", "crlf\r\nline", "tab\there", "한국어 텍스트", "'''", '"""',
          "trailing\n", "\nleading", "x = 1 # not a comment"]


@pytest.mark.parametrize("text", TRICKY)
def test_any_text_round_trips_exactly(tmp_path, text):
    from tensorlab.core.lang.parse import parse_one
    from tensorlab.core.lessons.lesson import Ask, Lesson, LessonStep, lesson_data

    step = LessonStep("x = torch.ones(2)", parse_one("x = torch.ones(2)"), text, Ask(text, (text, "b"), 0, text,
                      {"question_ko": text}, "x"), {"note_ko": text}, (text,))
    lesson = Lesson("t", text, (step,), text, {"title_ko": text}, chapter=text, prerequisites=("a-b",))
    path = tmp_path / "t.toml"
    save_lesson(lesson, path)
    again = load_lesson(path)
    assert lesson_data(again) == lesson_data(lesson)
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def test_saving_replaces_the_file_whole(tmp_path):
    lesson = find_lesson("clone-detach-order")
    path = tmp_path / "lesson.toml"
    path.write_text("old content that is longer than nothing " * 1000)
    save_lesson(lesson, path)
    assert load_lesson(path).id == "clone-detach-order"
    assert dump_lesson(load_lesson(path)) == dump_lesson(lesson)

"""Bad lesson files are rejected with the file, the step and what is wrong."""

from __future__ import annotations

import pytest

from tensorlab.core.lessons import (
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
    "loop": (GOOD + '\n[[step]]\ncode = """for i in x:\n    pass"""\n', "for loop is not available"),
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
    from tensorlab.core.lessons import _ORDER
    from tensorlab.paths import lessons_dir

    ids = [l.id for l in builtin_lessons()]
    assert ids == _ORDER
    assert sorted(ids) == sorted(p.stem for p in lessons_dir().glob("*.toml"))
    assert find_lesson("clone-keeps-the-graph").title == "clone() keeps the graph"


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

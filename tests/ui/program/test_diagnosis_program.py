"""A diagnosis's reproduction is a program of its own in the saved steps (issue 20): filed under
``diagnosis:<id>``, kept with no step of yours, back after a restart, never the scratchpad's or a lesson's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tensorlab.core.engine.player import ProgramStep, StepOrigin, program_from
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.messages.catalogue import verbatim
from tensorlab.ui.program.diagnosis_program import program_titles
from tensorlab.ui.program.user_steps import (
    FILE_NAME,
    SCRATCHPAD,
    StepsFileError,
    UserSteps,
    diagnosis_id,
    diagnosis_lesson,
    is_diagnosis,
    merge_program,
    parse_steps_file,
    program_key,
)

CODES = ("x = torch.randn(27, 32, requires_grad=True)", "y = torch.relu(x)", "y.add_(1)", "y.sum().backward()")
TITLES = {"en": "Diagnosis: a saved tensor changed", "ko": "진단: 저장된 텐서가 바뀌었습니다"}


def _store(folder: Path) -> UserSteps:
    store = UserSteps(folder)
    store.load()
    return store


def _user(code: str) -> ProgramStep:
    return ProgramStep(code, parse_one(code), origin=StepOrigin.USER)


def test_a_diagnosis_lesson_has_its_own_key_title_chapter_and_steps():
    lesson = diagnosis_lesson(CODES, TITLES)
    assert lesson.id == diagnosis_id(CODES) and lesson.id.startswith("diagnosis-") and len(lesson.id) == 22
    assert is_diagnosis(lesson) and program_key(lesson) == f"diagnosis:{lesson.id}"
    assert program_key(lesson) not in (SCRATCHPAD, f"builtin:{lesson.id}")
    assert [s.code for s in lesson.steps] == list(CODES)
    assert lesson.text("title", "en") == TITLES["en"] and lesson.text("title", "ko") == TITLES["ko"]
    assert lesson.text("chapter", "en") == "Your diagnosed errors"
    assert lesson.text("chapter", "ko") == "직접 진단한 오류"
    # The same statements make the same program; others another.
    assert diagnosis_lesson(CODES, {"en": "other"}).id == lesson.id
    assert diagnosis_lesson(CODES[:3], TITLES).id != lesson.id
    assert not is_diagnosis(find_lesson("inplace-on-a-leaf")) and not is_diagnosis(None)


@pytest.mark.parametrize("codes", [(), ("y = x + 1",), ("import os",), ("x = torch.ones(2)",) * 10_000])
def test_a_reproduction_that_is_no_program_is_refused(codes):
    with pytest.raises(StepsFileError):
        diagnosis_lesson(codes, TITLES)


def test_the_titles_are_one_bounded_line_in_each_language():
    titles = program_titles(verbatim("A saved\ntensor\u202e changed " + "x" * 500))
    assert set(titles) == {"en", "ko"}
    assert titles["en"].startswith("Diagnosis: A saved tensor\\u202e changed") and titles["ko"].startswith("진단: ")
    assert all(len(t) <= 200 and "\n" not in t and "\u202e" not in t for t in titles.values())


def test_kept_with_no_step_of_yours_saved_and_back_after_a_restart_the_scratchpad_untouched(tmp_path):
    store = _store(tmp_path)
    store.update(SCRATCHPAD, None, [_user("s = torch.arange(4.0)")])
    summaries = {"en": "relu saved its output.", "ko": "relu가 출력을 저장했습니다."}
    lesson = diagnosis_lesson(CODES, TITLES, summaries=summaries)
    assert store.keep_diagnosis(lesson)
    assert not store.keep_diagnosis(lesson)          # kept already
    store.saved_as(store.save())
    text = (tmp_path / FILE_NAME).read_text(encoding="utf-8")
    assert 'source = "diagnosis"' in text and 'source = "scratchpad"' in text

    again = _store(tmp_path)                          # a restart
    [kept] = again.diagnoses()
    assert kept.id == lesson.id and kept.title == TITLES["en"] and kept.text("title", "ko") == TITLES["ko"]
    assert kept.summary == "relu saved its output." and kept.text("summary", "ko") == "relu가 출력을 저장했습니다."
    assert [s.code for s in again.program(program_key(kept), kept)] == list(CODES)
    assert [s.code for s in again.program(SCRATCHPAD, None)] == ["s = torch.arange(4.0)"]
    # Your steps in it are kept after the step they follow; removing them all keeps the diagnosis.
    program = program_from(kept)
    mine = program[:1] + [_user("z = x * 2")] + program[1:]
    assert again.update(program_key(kept), kept, mine)
    again.saved_as(again.save())
    third = _store(tmp_path)
    [kept] = third.diagnoses()
    assert [s.code for s in third.program(program_key(kept), kept)] == [CODES[0], "z = x * 2", *CODES[1:]]
    assert third.update(program_key(kept), kept, program_from(kept))
    third.saved_as(third.save())
    assert [l.id for l in _store(tmp_path).diagnoses()] == [lesson.id]
    assert [s.code for s in _store(tmp_path).program(SCRATCHPAD, None)] == ["s = torch.arange(4.0)"]


def test_two_windows_merging_keep_a_diagnosis_with_no_steps():
    lesson = diagnosis_lesson(CODES, TITLES)
    store = UserSteps("/nonexistent")
    store.update(program_key(lesson), lesson, program_from(lesson))
    saved = store.saved[program_key(lesson)]
    merged, conflict = merge_program(None, saved, None)
    assert merged == saved and not conflict


@pytest.mark.parametrize("change", [
    ('lesson = "diagnosis-0123456789ab"', 'lesson = "diagnosis-000000000000"'),   # an id not its steps'
    ('title = { en = "T" }', 'title = "T"'),
    ('title = { en = "T" }', 'title = {}'),
    ('"y.add_(1)"', '"import os"'),
    ('"y = torch.relu(x)", ', ''),                                                  # an id not its steps'
    ('"x = torch.randn(2)", ', ''),                                                  # y reads x, unbound
    ('step = []', 'summary = { en = "" }\nstep = []'),
    ('step = []', 'summary = "what it means"\nstep = []'),
])
def test_a_damaged_diagnosis_program_is_set_aside_alone(tmp_path, change):
    codes = ["x = torch.randn(2)", "y = torch.relu(x)", "y.add_(1)"]
    good = diagnosis_id(codes)
    program = ('[[program]]\nsource = "diagnosis"\nlesson = "diagnosis-0123456789ab"\ntitle = { en = "T" }\n'
               'lesson_steps = ["x = torch.randn(2)", "y = torch.relu(x)", "y.add_(1)"]\nstep = []\n')
    program = program.replace('"diagnosis-0123456789ab"', f'"{good}"')
    old, new = change
    damaged = program.replace(old.replace("diagnosis-0123456789ab", good), new) if old.startswith("lesson") \
        else program.replace(old, new)
    assert damaged != program
    head = 'format = "tensorlab-user-steps"\nversion = 2\n'
    scratch = '[[program]]\nsource = "scratchpad"\nstep = [{ code = "s = torch.ones(1)" }]\n'
    assert len(parse_steps_file((head + program + scratch).encode()).programs) == 2
    document = parse_steps_file((head + damaged + scratch).encode())
    assert list(document.programs) == [SCRATCHPAD] and len(document.failed) == 1


def test_a_title_on_another_kind_of_program_is_refused():
    text = ('format = "tensorlab-user-steps"\nversion = 2\n[[program]]\nsource = "scratchpad"\ntitle = { en = "T" }\n'
            'step = [{ code = "s = torch.ones(1)" }]\n')
    assert len(parse_steps_file(text.encode()).failed) == 1


def test_every_reproduction_of_the_diagnose_corpus_opens_as_a_program():
    """The corpus of tracebacks (tests/data/diagnose): each reproduction is a program the window can open and
    keep (statements of the subset, every name bound, a bounded title and summary in both languages)."""
    from tensorlab.core.diagnose import diagnose, read_input
    from tensorlab.ui.program.diagnosis_program import program_summaries

    corpus = sorted((Path(__file__).resolve().parents[2] / "data" / "diagnose").rglob("*.txt"))
    opened = 0
    for path in corpus:
        diagnosis = diagnose(read_input(path.read_bytes()))
        if not diagnosis.reproduction:
            continue
        titles = program_titles(diagnosis.title)
        lesson = diagnosis_lesson(diagnosis.reproduction, titles,
                                  summaries=program_summaries(diagnosis.text, diagnosis.advice))
        assert is_diagnosis(lesson) and [s.code for s in lesson.steps] == list(diagnosis.reproduction), path.name
        assert all(0 < len(t) <= 200 for t in titles.values()) and lesson.text("summary", "ko"), path.name
        opened += 1
    assert opened >= 20

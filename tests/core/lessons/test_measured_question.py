"""A question answered by a measurement (``check = "verdict"``, issue 18): its fields are checked when the file
is read, it stores no answer, and it reads back as written. No test here times anything."""

from __future__ import annotations

import pytest

from tensorlab.core.checks.lesson_checks import check_lesson
from tensorlab.core.checks.text_rules import FindingKind, lesson_text_findings, right_is_longest
from tensorlab.core.lessons.lesson import VERDICT_CHECK, LessonError, dump_lesson, find_lesson, parse_lesson
from tensorlab.core.protocol.measure_results import MAX_SIZE, VERDICT_KINDS

HEAD = '''
[lesson]
id = "timed"
title = "Timed"
[[step]]
code = "x = torch.ones(3, requires_grad=True)"
[step.ask]
question = "Which is faster?"
'''
GOOD = HEAD + '''check = "verdict"
size = 10
verdicts = ["same", "slower", "faster"]
choices = ["no measurable difference — the spreads overlap", "detach().clone() is faster — no node",
           "clone().detach() is faster — lower times"]
'''


def test_a_measured_question_stores_no_answer_and_reads_back_as_written():
    lesson = parse_lesson(GOOD)
    ask = lesson.steps[0].ask
    assert ask is not None and ask.check == VERDICT_CHECK and ask.answer is None
    assert ask.measured is not None
    assert (ask.measured.size, ask.measured.verdicts, ask.measured.requires_grad) == (
        10, ("same", "slower", "faster"), True)
    text = dump_lesson(lesson)
    assert "answer" not in text and "verdicts" in text
    assert parse_lesson(text) == lesson
    off = parse_lesson(GOOD.replace("size = 10", "size = 10\nrequires_grad = false"))
    assert off.steps[0].ask.measured.requires_grad is False
    assert parse_lesson(dump_lesson(off)) == off


@pytest.mark.parametrize("change", [
    ('size = 10', 'size = 10\nanswer = 0'),                              # an answer stored
    ('size = 10\n', ''),                                                 # no size
    ('size = 10', f'size = {MAX_SIZE + 1}'),                             # too large
    ('size = 10', 'size = true'),
    ('size = 10', 'size = "10"'),
    ('verdicts = ["same", "slower", "faster"]', 'verdicts = ["same", "same", "faster"]'),   # not each once
    ('verdicts = ["same", "slower", "faster"]', 'verdicts = ["same", "slower"]'),           # not one per choice
    ('verdicts = ["same", "slower", "faster"]', 'verdicts = ["same", "slower", "quicker"]'),
    ('verdicts = ["same", "slower", "faster"]\n', ''),                   # no verdicts
    ('size = 10', 'size = 10\nrequires_grad = 1'),
])
def test_a_measured_question_with_a_wrong_field_is_refused_with_the_step(change):
    with pytest.raises(LessonError) as caught:
        parse_lesson(GOOD.replace(*change))
    assert caught.value.step == 1


def test_measurement_fields_go_with_check_verdict_only():
    stored = HEAD + 'check = "x"\nsize = 10\nchoices = ["a", "b"]\nanswer = 0\n'
    with pytest.raises(LessonError):
        parse_lesson(stored)
    with pytest.raises(LessonError):   # a question answered by its check still needs its answer
        parse_lesson(HEAD + 'check = "x"\nchoices = ["a", "b"]\n')


def test_the_checks_read_a_measured_question_by_its_structure():
    lesson = parse_lesson(GOOD)
    ask = lesson.steps[0].ask
    assert not right_is_longest(ask)                 # no stored right choice to be longest
    assert lesson_text_findings(lesson) == []
    report = check_lesson(lesson, strict=True)
    assert tuple(report.findings) == () and tuple(report.asks) == ()   # nothing to derive: the device answers it
    # Any choice may be the right one, so none may be 1.5 times as long as every other.
    long = GOOD.replace('"clone().detach() is faster — lower times"',
                        '"clone().detach() is faster — its times are lower than the other order\'s, beyond the spread"')
    kinds = [f.kind for f in lesson_text_findings(parse_lesson(long))]
    assert FindingKind.LONG_ANSWER in kinds


def test_clone_detach_order_asks_at_10_and_at_10_to_the_7_elements():
    lesson = find_lesson("clone-detach-order")
    measured = [s.ask.measured for s in lesson.steps if s.ask is not None and s.ask.measured is not None]
    assert [m.size for m in measured] == [10, 10**7]
    for question in measured:
        assert sorted(question.verdicts) == sorted(VERDICT_KINDS) and question.requires_grad
    for step in lesson.steps:
        if step.ask is not None and step.ask.measured is not None:
            assert step.ask.answer is None and len(step.ask.choices) == len(step.ask.text("choices", "ko")) == 3
            # each choice's claim names the verdict it stands for, in both languages
            for verdict, en, ko in zip(step.ask.measured.verdicts, step.ask.choices, step.ask.text("choices", "ko")):
                said = {"slower": "detach().clone()", "faster": "clone().detach()", "same": None}[verdict]
                if said is None:
                    assert en.startswith("no measurable difference") and ko.startswith("측정으로 드러나는 차이 없음")
                else:
                    assert en.startswith(f"{said} is faster") and ko.startswith(said)

"""The built-in course: every answer derived from torch, hidden until its step, every note true.

Nothing here lists expected answers: each question's `check` is evaluated in a
TensorLab run and compared with its choices (tensorlab.core.checks.lesson_checks).
"""

from __future__ import annotations

from collections import Counter

import pytest

from tensorlab.core.checks.choice_claims import claim_of
from tensorlab.core.checks.findings import describe
from tensorlab.core.checks.lesson_checks import check_lesson
from tensorlab.core.lessons.course import builtin_course
from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.core.lessons.transcript import transcript

LESSONS = builtin_lessons()
IDS = [l.id for l in LESSONS]


def test_a_course_of_at_least_nineteen_lessons_in_chapters():
    assert len(LESSONS) >= 19
    assert IDS == list(builtin_course().order)
    chapters = [l.chapter for l in LESSONS]
    assert all(chapters)
    # Each chapter is one run of lessons in the teaching order (the picker groups them).
    runs = [c for i, c in enumerate(chapters) if i == 0 or chapters[i - 1] != c]
    assert len(runs) == len(set(runs)) >= 4


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_prerequisites_are_earlier_lessons(lesson):
    position = IDS.index(lesson.id)
    if position > 0:
        assert lesson.prerequisites, "every lesson after the first names what it builds on"
    for name in lesson.prerequisites:
        assert name in IDS, name
        assert IDS.index(name) < position, f"{name} is taught after {lesson.id}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_questions_have_four_choices_and_a_check(lesson):
    asks = [s.ask for s in lesson.steps if s.ask is not None]
    assert len(asks) >= 2
    for ask in asks:
        # A measured question has one choice per verdict (slower, same, faster): three.
        assert len(ask.choices) == (3 if ask.measured is not None else 4)
        assert ask.check
        assert len({claim_of(c) for c in ask.choices}) >= 3, ask.question
    # Answers are spread over the positions, not always the same one (measured ones: their verdicts).
    assert len({a.answer for a in asks if a.answer is not None}
               | {a.measured.verdicts.index("slower") for a in asks if a.measured is not None}) >= 2


def test_answers_are_spread_over_all_positions_in_the_course():
    counts = Counter(s.ask.answer for l in LESSONS for s in l.steps if s.ask is not None and s.ask.answer is not None)
    assert set(counts) == {0, 1, 2, 3}
    assert max(counts.values()) <= 2 * min(counts.values()) + 2


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_answer_is_derived_hidden_and_every_note_is_true(lesson):
    found = check_lesson(lesson, strict=True)
    assert [describe(f) for f in found.findings] == []
    asks = [s for s in lesson.steps if s.ask is not None and s.ask.measured is None]
    assert len(found.asks) == len(asks)   # a measured question is answered by the device when asked
    for report in found.asks:
        # Exactly one choice is true of what torch did, and it is the marked one.
        assert report.derived == report.answer, report
        assert not report.visible


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_summaries_ask_rather_than_conclude(lesson):
    for language in ("en", "ko"):
        assert "?" in lesson.text("summary", language)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_text_has_its_korean(lesson):
    for key in ("title", "summary", "chapter"):
        assert lesson.text(key, "ko") != getattr(lesson, key) or key == "title" and "(" in lesson.title, key
        assert f"{key}_ko" in lesson.translations, key
    for number, step in enumerate(lesson.steps, start=1):
        if step.note:
            assert "note_ko" in step.translations, number
        if step.ask is not None:
            for key in ("question", "choices", "explain"):
                assert f"{key}_ko" in step.ask.translations, (number, key)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_lesson_runs_to_the_end_in_both_languages(lesson):
    results = check_lesson(lesson).results
    assert len(results) == len(lesson.steps)
    for language in ("en", "ko"):
        text = transcript(lesson, "cpu", list(results), language=language)
        assert f"[{len(results)}/{len(results)}]" in text
        assert lesson.text("title", language) in text
        for step in lesson.steps:
            first = " ".join(step.text(language).split()[:3])
            assert first.split()[0] in text


def test_no_wrong_choice_stands_out_by_its_length():
    """A wrong choice far longer than every other one is a cue too: the class learns to drop it."""
    from tensorlab.core.checks.course_statistics import PADDED, padded_choices

    assert padded_choices(builtin_lessons()) == [], f"wrong choices over {PADDED}x as long as every other"

"""The course's answer-cue statistics, as the rules of :mod:`tensorlab.core.checks.text_rules` count them.

``python -m tensorlab.core.checks.course_statistics`` prints, for the built-in course: per language, in how
many of the questions with a stored answer the right choice is the longest and the shortest (ties counting
as longest, and as shortest); in how many error and warning questions "no error" (or "no warning") is the
right answer; in how many value questions that offer an error the error is right; and the questions with a
*padded* wrong choice, more than :data:`PADDED` times as long as every other choice (the answer cue reversed: a
class learns to drop the one that stands out), in displayed characters. A review
compares these figures before and after a round of rewriting; the rules themselves are the findings of
``tensorlab check`` and the tests.

This module imports no torch: it reads the lesson's texts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from tensorlab.core.checks.choice_claims import claim_of
from tensorlab.core.checks.text_rules import (
    LANGUAGES,
    displayed_length,
    error_form_choices,
    right_is_longest,
    right_is_shortest,
)
from tensorlab.core.lessons.lesson import Ask, Lesson, builtin_lessons

__all__ = ["CourseStatistics", "course_statistics", "padded_choices", "PADDED", "main"]

PADDED = 1.3   # a wrong choice more than this many times as long as every other choice stands out


@dataclass(frozen=True)
class CourseStatistics:
    """The figures of one course: ``longest``/``shortest`` and ``stored`` per language, the quiet answers
    (``quiet`` of ``outcome`` error and warning questions), and ``value_error`` of ``value_offering``."""

    stored: dict[str, int]
    longest: dict[str, int]
    shortest: dict[str, int]
    quiet: int
    outcome: int
    value_error: int
    value_offering: int


def _asks(lessons: Iterable[Lesson]) -> Iterator[tuple[str, int, Ask]]:
    for lesson in lessons:
        for number, step in enumerate(lesson.steps, start=1):
            if step.ask is not None:
                yield lesson.id, number, step.ask


def _has(ask: Ask, language: str) -> bool:
    return language == "en" or f"choices_{language}" in ask.translations


def _is_quiet(claim: str) -> bool:
    lower = claim.lower()
    return lower.startswith(("no error", "no warning"))


def course_statistics(lessons: Iterable[Lesson]) -> CourseStatistics:
    """The figures of ``lessons`` (questions with a stored answer; a measured question has none)."""
    asks = [ask for _, _, ask in _asks(lessons) if ask.answer is not None]
    stored = {lang: sum(_has(ask, lang) for ask in asks) for lang in LANGUAGES}
    longest = {lang: sum(_has(ask, lang) and right_is_longest(ask, lang) for ask in asks) for lang in LANGUAGES}
    shortest = {lang: sum(_has(ask, lang) and right_is_shortest(ask, lang) for ask in asks) for lang in LANGUAGES}
    outcome = [ask for ask in asks if ask.check in ("error", "warning") and 0 <= (ask.answer or 0) < len(ask.choices)]
    quiet = sum(_is_quiet(claim_of(ask.choices[ask.answer or 0])) for ask in outcome)
    values = [ask for ask in asks if ask.measured is None and bool(ask.check)
              and ask.check not in ("error", "warning", "output", "verdict") and error_form_choices(ask)]
    value_error = sum(ask.answer in error_form_choices(ask) for ask in values)
    return CourseStatistics(stored, longest, shortest, quiet, len(outcome), value_error, len(values))


def padded_choices(lessons: Iterable[Lesson], ratio: float = PADDED) -> list[tuple[str, int, str, float]]:
    """(lesson id, step, language, its length over the longest other) of each wrong choice more than ``ratio``
    times as long as every other choice of its question."""
    found: list[tuple[str, int, str, float]] = []
    for lesson_id, number, ask in _asks(lessons):
        for language in LANGUAGES:
            choices = ask.text("choices", language)
            if ask.answer is None or not _has(ask, language) or len(choices) < 2:
                continue
            lengths = [displayed_length(str(c)) for c in choices]
            for index, length in enumerate(lengths):
                others = max(n for j, n in enumerate(lengths) if j != index)
                if index != ask.answer and others > 0 and length > ratio * others:
                    found.append((lesson_id, number, language, length / others))
    return found


def main() -> None:
    """Print the built-in course's figures."""
    lessons = builtin_lessons()
    stats = course_statistics(lessons)
    for language in LANGUAGES:
        print(f"{language}: right choice longest in {stats.longest[language]}/{stats.stored[language]}, "
              f"shortest in {stats.shortest[language]}/{stats.stored[language]}")
    print(f"'no error' right in {stats.quiet}/{stats.outcome} error and warning questions")
    print(f"an error right in {stats.value_error}/{stats.value_offering} value questions that offer one")
    padded = padded_choices(lessons)
    print(f"a wrong choice over {PADDED}x as long as every other: {len(padded)}")
    for lesson_id, number, language, ratio in padded:
        print(f"  {lesson_id} s{number} {language}: {ratio:.2f}x")


if __name__ == "__main__":
    main()

"""What the lesson checks found, said in English or Korean.

A :class:`Finding` is plain data (a :class:`FindingKind`, the step, a few fields; the
``detail`` field is a catalogue :class:`~tensorlab.core.messages.catalogue.Message`),
and :func:`describe` turns it into one sentence for the Output panel, the status bar
or a test's failure message: the catalogue's ``finding.<kind>`` in the chosen language.
This module imports no torch.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from tensorlab.core.messages.catalogue import Message, msg

__all__ = ["Finding", "FindingKind", "describe", "finding_message"]


class FindingKind(enum.Enum):
    """What a lesson check can find (the value is the catalogue key's last part: ``finding.<value>``)."""

    NO_CHECK = "no_check"                # a question without `check`
    CHECK = "check"                      # the check cannot be used (detail: why)
    NOT_COMPARABLE = "not_comparable"    # a choice the check's value cannot be compared with
    NONE_TRUE = "none_true"
    SEVERAL_TRUE = "several_true"
    WRONG_ANSWER = "wrong_answer"
    VISIBLE = "visible"                  # the answer is on screen before the class predicts
    TRANSLATION = "translation"          # a translated choice claims something else
    FACT = "fact"                        # a listed fact that is false or cannot be checked
    NOTE = "note"                        # a note's sentence that is false
    NO_FACTS = "no_facts"                # strict: a note about leaves, versions or storage without facts
    QUOTE = "quote"                      # text quoted from torch that torch did not print
    NOT_RUN = "not_run"                  # the step crashed the worker, ran too long, or was past the time limit
    NOT_CHECKED = "not_checked"          # it ran in an earlier try, and the time limit came before its replay
    # The texts' own rules (checks/text_rules.py): answer cues, error questions, Korean.
    LONG_ANSWER = "long_answer"          # the right choice is over 1.5 times as long as every other
    ALWAYS_LONGEST = "always_longest"    # the right choice is the longest in every question of the lesson
    COURSE_LONGEST = "course_longest"    # ... in over a third of the course's questions
    SHORT_ANSWER = "short_answer"        # the right choice is under 2/3 of every other (issue 18, h18e)
    ALWAYS_SHORTEST = "always_shortest"  # the right choice is the shortest in every question of the lesson
    COURSE_SHORTEST = "course_shortest"  # ... in over a third of the course's questions
    COURSE_NO_ERROR = "course_no_error"  # "no error" is right in under a fifth of the course's error questions
    ERROR_CHOICES = "error_choices"      # an error question with fewer than two choices that claim an error
    ONLY_QUOTE = "only_quote"            # an error question whose right choice alone quotes torch
    ONLY_NO_ERROR = "only_no_error"      # an error question whose right choice alone claims no error (or no warning)
    ONLY_BARE = "only_bare"              # the right choice alone gives no reason after " — " (review helpers 153-156)
    ONLY_REASONED = "only_reasoned"      # ... alone gives one
    SAME_CLAIM = "same_claim"            # two choices claim the same outcome (review helper-157)
    LONE_ERROR_FORM = "lone_error_form"  # a value question with one choice claiming an error (issue 18, h18n)
    COURSE_VALUE_ERROR = "course_value_error"  # ... an error right in under half the value questions offering one
    BANNED_KO = "banned_ko"              # a phrase the glossary never writes
    GLOSS_KO = "gloss_ko"                # a term not glossed at its first use in the lesson
    UNLISTED_FACT = "unlisted_fact"      # strict: a note's sentence states a fact the step's `facts` do not list


@dataclass(frozen=True)
class Finding:
    """One thing a lesson check found: ``kind``, the 1-based ``step`` (or None), and its fields."""

    kind: FindingKind
    step: int | None
    fields: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = "") -> Any:
        """The field ``key``."""
        return dict(self.fields).get(key, default)


def finding_message(finding: Finding) -> Message:
    """``finding`` as a catalogue message (with its step, where it has one)."""
    fields = {"choice": "", "answer": "", "detail": "", **dict(finding.fields)}
    sentence = msg(f"finding.{finding.kind.value}", **fields)
    return sentence if finding.step is None else msg("finding.at_step", step=finding.step, text=sentence)


def describe(finding: Finding, language: str = "en") -> str:
    """``finding`` as one sentence in ``language`` (English for any language without a text)."""
    return finding_message(finding).render(language)

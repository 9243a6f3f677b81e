"""What the lesson checks found, said in English or Korean.

A :class:`Finding` is plain data (a kind, the step, a few fields); :func:`describe`
turns it into one sentence for the Output panel, the status bar or a test's
failure message. Korean names and numbers take their particles from
:mod:`tensorlab.core.messages.korean_particles`. This module imports no torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tensorlab.core.messages.korean_particles import ko

__all__ = ["Finding", "describe", "TEMPLATES"]


@dataclass(frozen=True)
class Finding:
    """One thing a lesson check found: ``kind``, the 1-based ``step`` (or None), and its fields."""

    kind: str
    step: int | None
    fields: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = "") -> Any:
        """The field ``key``."""
        return dict(self.fields).get(key, default)


# kind -> (English, Korean); fields: {choice}, {answer}, {detail}.
TEMPLATES: dict[str, tuple[str, str]] = {
    "no-check": (
        "the question has no `check`, so TensorLab cannot derive its answer from torch",
        "질문에 `check`가 없어서 TensorLab이 torch에서 답을 끌어낼 수 없습니다",
    ),
    "check": ("{detail}", "{detail}"),
    "not-comparable": (
        "choice {choice} (“{detail}”) cannot be compared with what the check reads",
        "{choice}번 선택지(“{detail}”)는 check가 읽은 값과 비교할 수 없습니다",
    ),
    "none-true": (
        "no choice is true: the check reads {detail}",
        "맞는 선택지가 없습니다. check가 읽은 값: {detail}",
    ),
    "several-true": (
        "choices {choice} are all true (the check reads {detail}): exactly one must be",
        "{choice}번 선택지가 모두 맞습니다(check가 읽은 값: {detail}). 맞는 선택지는 하나여야 합니다",
    ),
    "wrong-answer": (
        "choice {choice} is the true one (the check reads {detail}), but `answer` marks choice {answer}",
        "맞는 선택지는 {choice}번인데(check가 읽은 값: {detail}) `answer`는 {answer}번 선택지를 가리킵니다",
    ),
    "visible": (
        "the answer is on screen before the class predicts: {detail}",
        "학생들이 예측하기 전에 답이 이미 화면에 보입니다: {detail}",
    ),
    "translation": (
        "choice {choice} claims something else in translation ({detail})",
        "{choice}번 선택지가 번역에서 다른 것을 주장합니다({detail})",
    ),
    "fact": ("{detail}", "{detail}"),
    "note": ("{detail}", "{detail}"),
    "no-facts": (
        "the note speaks of leaves, versions or storage but the step lists no `facts` to check it",
        "설명이 리프 텐서, 버전, 저장소를 말하지만 이를 확인할 `facts`가 단계에 없습니다",
    ),
    "quote": (
        "the text quoted from torch (“{detail}”) is not what this torch printed in the lesson",
        "torch에서 인용한 문장(“{detail}”)이 이 레슨에서 지금 torch가 출력한 것과 다릅니다",
    ),
}


def describe(finding: Finding, language: str = "en") -> str:
    """``finding`` as one sentence in ``language`` (English for any language without a text)."""
    english, korean = TEMPLATES.get(finding.kind, ("{detail}", "{detail}"))
    fields = {"choice": "", "answer": "", "detail": "", **dict(finding.fields)}
    if language == "ko":
        where = "" if finding.step is None else f"{finding.step}단계: "
        return where + ko(korean, **fields)
    where = "" if finding.step is None else f"step {finding.step}: "
    return where + english.format(**fields)

"""What the built-in lesson tests share: a lesson run in TensorLab, and what plain torch raises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.worker.in_process import run_lesson


def run_by_code(lesson_id: str) -> tuple[dict[str, Any], list[Any]]:
    """The lesson's step results in TensorLab, by their code and in order."""
    results = run_lesson(find_lesson(lesson_id))
    return {r.code: r for r in results}, results


def raised(action: Callable[[], object]) -> str | None:
    """The message of what ``action`` raises when plain torch runs it here, or None."""
    try:
        action()
    except Exception as exc:  # noqa: BLE001 - the message is what is compared
        return str(exc)
    return None

"""Run a whole lesson headlessly (DESIGN.md contract 3)."""

from __future__ import annotations

from typing import Any

from tensorlab.core.lessons import Lesson
from tensorlab.core.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.session import Session, StepResult

__all__ = ["run_lesson", "lesson_json"]


def run_lesson(lesson: Lesson, device: str = "cpu", limits: Limits = DEFAULT_LIMITS) -> list[StepResult]:
    """Run every step of ``lesson`` from a fresh session seeded with 0."""
    session = Session(device=device, limits=limits, seed=0)
    return session.replay(lesson.statements)


def lesson_json(lesson: Lesson, device: str, results: list[StepResult]) -> dict[str, Any]:
    """The contract-3 JSON document of a run."""
    return {"lesson": lesson.id, "device": device, "steps": [r.to_json() for r in results]}

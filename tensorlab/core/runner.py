"""Run a whole lesson headlessly (DESIGN.md contract 3).

``tensorlab run`` uses a worker process (:class:`~tensorlab.core.worker.ProcessEngine`):
a step that crashes PyTorch or is killed (out of memory, over the time limit)
becomes that step's error (``WorkerCrash``, ``WorkerTimeout``); the worker is
restarted where it stood and the run goes on with the next step.
"""

from __future__ import annotations

import time
from typing import Any

from tensorlab.core.engine import Engine, EngineCrashed, LocalEngine
from tensorlab.core.lessons import Lesson
from tensorlab.core.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.results import ErrorInfo, StepResult
from tensorlab.core.snapshot import Snapshot

__all__ = ["run_lesson", "lesson_json"]


def run_lesson(lesson: Lesson, device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
               engine: Engine | None = None, time_limit: float | None = None) -> list[StepResult]:
    """Run every step of ``lesson`` from a fresh session seeded with 0.

    ``engine``: where to run (default: in this process). ``time_limit``: seconds
    for the whole run; steps not reached by then are reported as not run.
    """
    own = engine is None
    engine = engine if engine is not None else LocalEngine(device, limits)
    started = time.monotonic()
    results: list[StepResult] = []
    snapshot = Snapshot()
    try:
        for index, step in enumerate(lesson.steps):
            if time_limit is not None and time.monotonic() - started > time_limit:
                error = ErrorInfo("TimeLimit", f"not run: the run's time limit of {time_limit:g} s was reached")
                results.append(StepResult(index, step.code, error, (), "", None, snapshot))
                continue
            try:
                result = engine.run(step.code)
            except EngineCrashed as exc:
                result = StepResult(index, step.code, ErrorInfo(exc.kind, str(exc)), (), "", None, snapshot)
            else:
                if result.index != index:
                    # After a crash the worker has one step fewer: the index is the lesson's.
                    result = StepResult(index, result.code, result.error, result.warnings, result.output,
                                        result.value, result.snapshot, result.seconds, result.notes)
            snapshot = result.snapshot
            results.append(result)
    finally:
        if own:
            engine.close()
    return results


def lesson_json(lesson: Lesson, device: str, results: list[StepResult]) -> dict[str, Any]:
    """The contract-3 JSON document of a run."""
    return {"lesson": lesson.id, "device": device, "steps": [r.to_json() for r in results]}

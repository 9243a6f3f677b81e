"""Run a whole lesson headlessly (DESIGN.md contract 3).

``tensorlab run`` uses a worker process (:class:`~tensorlab.core.worker.ProcessEngine`):
a step that crashes PyTorch or is killed (out of memory, over the time limit)
becomes that step's error (``WorkerCrash``, ``WorkerTimeout``); the worker is
restarted where it stood and the run goes on with the next step.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import IO, Any

from tensorlab.core.engine import Engine, EngineCrashed, LocalEngine
from tensorlab.core.lessons import Lesson
from tensorlab.core.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.results import ErrorInfo, StepResult
from tensorlab.core.snapshot import Snapshot

__all__ = ["run_lesson", "iter_lesson", "lesson_json", "write_lesson_json", "MAX_RUN_VALUES"]

# Values written by one `run --json`, over every step: beyond it, values are null (the
# snapshot of each step lists every tensor again, so a long file could otherwise ask for gigabytes).
MAX_RUN_VALUES = 10_000_000


def run_lesson(lesson: Lesson, device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
               engine: Engine | None = None, time_limit: float | None = None) -> list[StepResult]:
    """Run every step of ``lesson`` from a fresh session seeded with 0.

    ``engine``: where to run (default: in this process). ``time_limit``: seconds
    for the whole run; steps not reached by then are reported as not run.
    """
    return list(iter_lesson(lesson, device, limits, engine, time_limit))


def iter_lesson(lesson: Lesson, device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
                engine: Engine | None = None, time_limit: float | None = None) -> Iterator[StepResult]:
    """Like :func:`run_lesson`, one step's result at a time (so a caller can write it at once)."""
    own = engine is None
    engine = engine if engine is not None else LocalEngine(device, limits)
    started = time.monotonic()
    snapshot = Snapshot()
    try:
        for index, step in enumerate(lesson.steps):
            if time_limit is not None and time.monotonic() - started > time_limit:
                error = ErrorInfo("TimeLimit", f"not run: the run's time limit of {time_limit:g} s was reached")
                yield StepResult(index, step.code, error, (), "", None, snapshot)
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
            yield result
    finally:
        if own:
            engine.close()


def lesson_json(lesson: Lesson, device: str, results: list[StepResult]) -> dict[str, Any]:
    """The contract-3 JSON document of a run."""
    return {"lesson": lesson.id, "device": device, "steps": [r.to_json() for r in results]}


def write_lesson_json(lesson: Lesson, device: str, results: Iterator[StepResult] | list[StepResult],
                      stream: IO[str], max_values: int = MAX_RUN_VALUES) -> None:
    """Write the contract-3 document step by step, as results come (memory stays flat).

    Once ``max_values`` values were written, later tensors' values (and grads) are null.
    """
    stream.write(json.dumps({"lesson": lesson.id, "device": device}, ensure_ascii=False)[:-1] + ', "steps": [')
    left = max_values
    for number, result in enumerate(results):
        step = result.to_json()
        for tensor in step["tensors"].values():
            for key in ("values", "grad"):
                count = _count(tensor[key])
                if count > left:
                    tensor[key] = None
                else:
                    left -= count
        stream.write(("," if number else "") + json.dumps(step, ensure_ascii=False, allow_nan=False))
    stream.write("]}\n")


def _count(values: Any) -> int:
    if values is None:
        return 0
    if isinstance(values, list):
        return sum(_count(v) for v in values) if values and isinstance(values[0], list) else len(values)
    return 1

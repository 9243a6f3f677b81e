"""Jobs that run beside the session, in the same engine (measurements, probes).

A job is a function ``(session, params, cancelled, progress) -> data`` that
returns plain data (types from a torch-free module listed in
:data:`tensorlab.core.protocol.wire.WIRE_MODULES`). It runs where the session runs: in
the worker process for the window, so it is cancellable and never blocks the GUI.
Jobs are named here and imported only when they run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tensorlab.core.messages.catalogue import MessageError, msg

__all__ = ["JOBS", "UnknownJob", "run_job"]


class UnknownJob(MessageError, KeyError):
    """A job name nobody registered (a KeyError, with its text from the catalogue)."""

    def __str__(self) -> str:
        return self.message.render("en")   # KeyError's own str() would quote the text

# name -> "module:function"
JOBS: dict[str, str] = {
    "measure": "tensorlab.core.tools.measure:measure_job",
    # A lesson's measured question (protocol.measure_results.QUESTION_JOB): the same timing, under a name of its
    # own so that the Measure dock does not take its result for one it asked for.
    "lesson_measure": "tensorlab.core.tools.measure:measure_job",
    "copies": "tensorlab.core.tools.copy_probe:copies_job",
    "export_errors": "tensorlab.core.export.step_errors:errors_job",
    # A lesson a teacher opens or saves: its questions and notes checked in a session of its own.
    "lesson_checks": "tensorlab.core.checks.lesson_checks:lesson_checks_job",
    # A learner's own .py or notebook the window opens (#21): parsed here, its parts sent back as data.
    "source_import": "tensorlab.core.lessons.source_import:source_import_job",
}


def run_job(name: str, session: Any, params: dict[str, Any], cancelled: Callable[[], bool],
            progress: Callable[[int, int], None]) -> Any:
    """Run job ``name`` on ``session``'s device; KeyError for a job nobody registered."""
    try:
        target = JOBS[name]
    except KeyError:
        raise UnknownJob(msg("engine.unknown_job", name=name)) from None
    module_name, _, function_name = target.partition(":")
    function = getattr(importlib.import_module(module_name), function_name)
    return function(session, params, cancelled, progress)

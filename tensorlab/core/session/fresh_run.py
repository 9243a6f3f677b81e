"""Run a program in a fresh, seeded session of its own, beside the live one: the one loop for it.

The worker's jobs that need a TensorLab run of a whole program (checking a lesson's questions
and notes, finding which steps of an export raise) run it here, in the worker process next to
the user's live session. A fresh session reseeds torch (``torch.manual_seed``, which reseeds
every device's generator), so :func:`random_state_kept` keeps torch's random state around the
run: afterwards the live session draws the random numbers a replay of it would draw.

A step that crashed the worker or ran past its limit in an earlier try of the same run is
``given``: it is not run again, and its result is the error it met (the window side's
:meth:`~tensorlab.core.engine.process_engine.ProcessEngine.job` retries a fresh-run job that way,
so a SIGFPE in torch is one step's content, as in ``tensorlab run``). ``seconds`` bounds the
whole run: steps not reached by then are not run, and say so (``TimeLimit``).

The headless ``tensorlab run`` plays a lesson through an engine instead (a worker process that
may crash and be restarted): :func:`tensorlab.core.lessons.play_through.iter_lesson`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

import torch

from tensorlab.core.lang.parse import Statement
from tensorlab.core.messages.catalogue import msg
from tensorlab.core.protocol.engine_api import NEVER, Cancelled, Progress
from tensorlab.core.protocol.history import History, history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.session.session import Session

__all__ = ["random_state_kept", "run_fresh", "not_run", "time_limit_error"]


@contextlib.contextmanager
def random_state_kept() -> Iterator[None]:
    """Torch's random generators as they were, after whatever ran inside (CPU, every CUDA device, MPS)."""
    with contextlib.ExitStack() as stack:
        cuda = list(range(torch.cuda.device_count())) if torch.cuda.is_available() else []
        stack.enter_context(torch.random.fork_rng(devices=cuda))
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            stack.enter_context(torch.random.fork_rng(device_type="mps"))
        yield


def time_limit_error(seconds: float) -> ErrorInfo:
    """The error of a step not run because the run's time limit (``seconds``) had passed."""
    why = msg("engine.time_limit", seconds=f"{seconds:g}")
    return ErrorInfo("TimeLimit", why.render("en"), None, why)


def not_checked_error(seconds: float) -> ErrorInfo:
    """The error of a step that ran in an earlier try of the run, whose replay the time limit came before."""
    why = msg("engine.not_checked", seconds=f"{seconds:g}")
    return ErrorInfo("TimeLimit", why.render("en"), None, why)


def not_run(index: int, code: str, error: ErrorInfo, before: StepResult | None) -> StepResult:
    """The result of a step that did not run (``error`` says why): the state stays that of ``before``."""
    from tensorlab.core.protocol.snapshot import Snapshot

    snapshot = before.snapshot if before is not None else Snapshot()
    return StepResult(index, code, error, (), "", None, snapshot)


def run_fresh(statements: Sequence[Statement], device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
              cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None,
              after: Callable[[Session, StepResult], None] | None = None,
              given: Mapping[int, ErrorInfo] | None = None, seconds: float | None = None,
              limit: float | None = None) -> list[StepResult]:
    """Run ``statements`` in order from a fresh, seeded session on ``device``; every step's result.

    ``after(session, result)`` is called after each step, while the session stands there (a
    check reads it). ``cancelled`` is polled before each step: :class:`Cancelled` (with the
    steps run so far as its position) ends the run. Torch's random state is kept
    (:func:`random_state_kept`), and the session's names are dropped at the end.
    ``given`` (index -> error): steps not run, whose result is that error (see the module
    docstring); ``seconds``: steps not reached by then are not run (``TimeLimit``); ``limit``: the run's
    whole time limit, which their error names (``seconds`` is what is left of it when a run is retried).
    Steps before the last ``given`` one ran in an earlier try: they run again while there is time;
    past ``seconds`` they are "ran, not checked again" (a step that ran is never reported not run).
    ``progress(done, total)`` is called after each step and its ``after``.
    """
    results: list[StepResult] = []
    # What the run keeps (here and in its session) stays within the budget's share for history.
    kept, in_session = History(history_allowance(limits)), History(history_allowance(limits))
    given = given or {}
    reached = max(given, default=-1)   # the furthest step an earlier try of this run reached
    deadline = None if seconds is None else time.monotonic() + seconds
    with random_state_kept():
        session = Session(device=device, limits=limits)
        if progress is not None:
            progress(0, len(statements))   # set up: from here each step's time is its own
        try:
            for index, statement in enumerate(statements):
                if cancelled():
                    raise Cancelled(len(results))
                before = results[-1] if results else None
                if index in given:
                    result = not_run(index, statement.source, given[index], before)
                elif index < reached and deadline is not None and seconds is not None \
                        and time.monotonic() > deadline:
                    # It ran in an earlier try (the runs go in order, and a later step was reached), but the
                    # run's time is up before this try could replay it: it is not "not run" (it ran), it
                    # was not checked again; and the run still ends within its limit.
                    result = not_run(index, statement.source, not_checked_error(limit or seconds), before)
                elif index < reached:
                    # It ran in an earlier try: replayed here, its result is this try's.
                    result = session.execute(statement)
                    if result.index != index:
                        result = dataclasses.replace(result, index=index)
                elif deadline is not None and seconds is not None and time.monotonic() > deadline:
                    result = not_run(index, statement.source, time_limit_error(limit or seconds), before)
                else:
                    result = session.execute(statement)
                    if result.index != index:   # the session did not run the steps given
                        result = dataclasses.replace(result, index=index)
                results.append(result)
                kept.trim(results)
                in_session.trim(session.results)
                session.guard.outside = kept.held + in_session.held
                if after is not None:
                    after(session, result)
                if progress is not None:
                    progress(len(results), len(statements))
        finally:
            session.reset()   # its tensors go now, not when the caller lets go of the session
    return results

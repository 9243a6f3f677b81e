"""The worker side run in this process: an engine over a live session, and bringing a session to a position.

:class:`LocalEngine` is the engine of tests, scripts and ``--in-process`` (no isolation);
:func:`restore_session` is shared with the worker process's serve loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.lessons.play_through import iter_lesson
from tensorlab.core.protocol.engine_api import NEVER, Cancelled, Progress
from tensorlab.core.protocol.history import History, history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import GraphInfo
from tensorlab.core.session.devices import available_devices
from tensorlab.core.session.session import Session
from tensorlab.core.worker.jobs import run_job

__all__ = ["LocalEngine", "restore_session", "run_lesson", "keep_history"]


class LocalEngine:
    """An engine whose session lives in this process (no isolation)."""

    def __init__(self, device: str = "cpu", limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.session = Session(device=device, limits=limits)
        self.device = self.session.device
        self.devices = tuple(available_devices())
        self.history = History(history_allowance(limits))

    @property
    def position(self) -> int:
        return self.session.position

    def reset(self) -> None:
        self.session.reset()

    def run(self, code: str, focus: Sequence[str] = (), cancelled: Callable[[], bool] = NEVER) -> StepResult:
        self.session.focus = frozenset(focus)
        result = self.session.execute(parse_one(code, self.limits))
        keep_history(self.session, self.history)
        return result

    def restore(self, codes: Sequence[str], results: Sequence[StepResult],
                cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> None:
        restore_session(self.session, codes, results, cancelled, progress)
        keep_history(self.session, self.history)

    def graph(self, name: str) -> GraphInfo | None:
        info = self.session.take_snapshot(graphs={name}).tensor(name)
        return None if info is None else info.graph

    def set_device(self, device: str) -> None:
        self.session = Session(device=device, limits=self.limits)
        self.device = self.session.device

    def job(self, name: str, params: dict[str, Any], cancelled: Callable[[], bool] = NEVER,
            progress: Progress | None = None) -> Any:
        return run_job(name, self.session, params, cancelled, progress or (lambda done, total: None))

    def close(self) -> None:
        self.session.reset()


def keep_history(session: Any, history: History, elsewhere: int = 0) -> None:
    """Trim what ``session`` keeps of its results to ``history``'s allowance; its guard counts what is left,
    and ``elsewhere``: what the window's process keeps of the same history (its engine and player)."""
    history.trim(session.results)
    session.guard.outside = history.held + elsewhere


def restore_session(session: Any, codes: Sequence[str], results: Sequence[StepResult],
                    cancelled: Callable[[], bool], progress: Progress | None) -> None:
    """Bring ``session`` to the state after ``codes`` (see :meth:`Engine.restore`).

    Where the session already ran a prefix of these statements since its last
    reset, only the missing ones run. Otherwise it replays from a fresh start,
    without snapshots where ``results`` already says what the steps did.
    """

    history = [s.source for s in session.statements]
    total = len(codes)
    continuing = (history == list(codes[: len(history)]) and len(session.results) == len(history)
                  and (history or not results))
    if not continuing:
        known = list(results[:total])
        statements = [parse_one(code, session.limits) for code in codes[: len(known)]]
        for done in session.restore(statements, known):
            if cancelled():
                # Stop at a consistent position: the statements run so far, with their results.
                session.results = known[:done]
                if session.results:
                    session._adopt_labels(session.results[-1].snapshot)
                raise Cancelled(done)
            if progress is not None:
                progress(done, total)
    for code in codes[session.position:]:
        if cancelled():
            raise Cancelled(session.position)
        session.execute(parse_one(code, session.limits))
        if progress is not None:
            progress(session.position, total)


def run_lesson(lesson: Lesson, device: str = "cpu", limits: Limits = DEFAULT_LIMITS) -> list[StepResult]:
    """Every step's result of ``lesson`` run in this process from a fresh session seeded with 0."""
    engine = LocalEngine(device, limits)
    try:
        return list(iter_lesson(lesson, engine))
    finally:
        engine.close()

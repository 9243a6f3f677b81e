"""Where steps run: an engine holds one live session and answers with plain data.

Two engines share one interface. :class:`LocalEngine` runs the session in this
process (tests, scripts). :class:`~tensorlab.core.engine.process_engine.ProcessEngine` runs it
in a worker process, so that a native crash or an out-of-memory kill in torch,
or a step that runs too long, costs a restart, never the caller. This module
imports no torch: the window process only ever holds data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import GraphInfo

__all__ = [
    "Engine",
    "LocalEngine",
    "EngineError",
    "EngineCrashed",
    "Cancelled",
    "NEVER",
    "Progress",
]

Progress = Callable[[int, int], None]


def NEVER() -> bool:  # noqa: N802 - a constant-like default
    """A `cancelled` callback for work that is never cancelled."""
    return False


class Cancelled(Exception):
    """Work was cancelled; the engine stopped at a consistent position (``position``)."""

    def __init__(self, position: int | None = None, message: str = "cancelled") -> None:
        super().__init__(message)
        self.position = position


class EngineError(Exception):
    """The engine failed in a way that is not content (an internal error, with its details)."""


class EngineCrashed(EngineError):
    """The worker process died while it ran a step; it was restarted at ``position``.

    ``reason`` says how it died (a signal, an out-of-memory kill, a time limit).
    """

    def __init__(self, position: int, reason: str, kind: str = "WorkerCrash") -> None:
        super().__init__(f"{reason}; the session was restarted at step {position}")
        self.position = position
        self.reason = reason
        self.kind = kind


class Engine(Protocol):
    """What the player needs from a place that runs steps."""

    device: str
    devices: tuple[str, ...]

    @property
    def position(self) -> int:
        """How many statements the live session has run since its last reset."""

    def reset(self) -> None:
        """A fresh, seeded session on the same device (position 0)."""

    def run(self, code: str, focus: Sequence[str] = (), cancelled: Callable[[], bool] = NEVER) -> StepResult:
        """Run one statement (already checked) and return what it did.

        ``focus``: names whose autograd graph the snapshot reads, besides the ones
        the statement assigns. ``cancelled`` is polled while the step runs where
        the engine can stop a step (a worker process); Cancelled if it did.
        """

    def restore(self, codes: Sequence[str], results: Sequence[StepResult],
                cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> None:
        """Reach the state after ``codes`` from a fresh session; ``results`` are theirs, known."""

    def graph(self, name: str) -> GraphInfo | None:
        """The autograd graph behind ``name`` now."""

    def set_device(self, device: str) -> None:
        """Move to ``device``: a fresh session there (position 0)."""

    def job(self, name: str, params: dict[str, Any], cancelled: Callable[[], bool] = NEVER,
            progress: Progress | None = None) -> Any:
        """Run a registered job (:mod:`tensorlab.core.worker.jobs`) beside the session; its result as data."""

    def close(self) -> None:
        """Stop the engine."""


class LocalEngine:
    """An engine whose session lives in this process (no isolation)."""

    def __init__(self, device: str = "cpu", limits: Limits = DEFAULT_LIMITS) -> None:
        from tensorlab.core.protocol.devices import available_devices
        from tensorlab.core.session.session import Session

        self.limits = limits
        self.session = Session(device=device, limits=limits)
        self.device = self.session.device
        self.devices = tuple(available_devices())

    @property
    def position(self) -> int:
        return self.session.position

    def reset(self) -> None:
        self.session.reset()

    def run(self, code: str, focus: Sequence[str] = (), cancelled: Callable[[], bool] = NEVER) -> StepResult:
        from tensorlab.core.lang.parse import parse_one

        self.session.focus = frozenset(focus)
        return self.session.execute(parse_one(code, self.limits))

    def restore(self, codes: Sequence[str], results: Sequence[StepResult],
                cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> None:
        restore_session(self.session, codes, results, cancelled, progress)

    def graph(self, name: str) -> GraphInfo | None:
        info = self.session.snapshot(graphs={name}).tensor(name)
        return None if info is None else info.graph

    def set_device(self, device: str) -> None:
        from tensorlab.core.session.session import Session

        self.session = Session(device=device, limits=self.limits)
        self.device = self.session.device

    def job(self, name: str, params: dict[str, Any], cancelled: Callable[[], bool] = NEVER,
            progress: Progress | None = None) -> Any:
        from tensorlab.core.worker.jobs import run_job

        return run_job(name, self.session, params, cancelled, progress or (lambda done, total: None))

    def close(self) -> None:
        self.session.reset()


def restore_session(session: Any, codes: Sequence[str], results: Sequence[StepResult],
                    cancelled: Callable[[], bool], progress: Progress | None) -> None:
    """Bring ``session`` to the state after ``codes`` (see :meth:`Engine.restore`).

    Where the session already ran a prefix of these statements since its last
    reset, only the missing ones run. Otherwise it replays from a fresh start,
    without snapshots where ``results`` already says what the steps did.
    """
    from tensorlab.core.lang.parse import parse_one

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

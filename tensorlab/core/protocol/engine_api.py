"""Where steps run: an engine holds one live session and answers with plain data.

Two engines share one interface. :class:`~tensorlab.core.worker.in_process.LocalEngine` runs
the session in this process (tests, scripts, ``--in-process``);
:class:`~tensorlab.core.engine.process_engine.ProcessEngine` runs it in a worker process,
so that a native crash or an out-of-memory kill in torch, or a step that runs too long,
costs a restart, never the caller. This module imports no torch: the window process only
ever holds data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, Protocol

from tensorlab.core.messages.catalogue import Message, MessageError, msg
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import GraphInfo

__all__ = [
    "Engine",
    "EngineError",
    "EngineCrashed",
    "Cancelled",
    "NEVER",
    "Progress",
    "Reply",
]

Progress = Callable[[int, int], None]


class Reply(StrEnum):
    """The kind of each message the worker sends the window (the first item of the pair).

    It crosses as its plain text (``Reply.OK.value``): the window's unpickler reads plain
    values only, and a ``str`` enum compares equal to the text it reads back.
    """

    READY = "ready"            # started: its devices and limits
    PROGRESS = "progress"      # (done, total) of the request in hand
    OK = "ok"                  # the request's answer
    FAILED = "failed"          # an internal error, with its traceback
    CANCELLED = "cancelled"    # stopped at a consistent position, between steps
    BAD_DEVICE = "baddevice"   # the device asked for is not here
    DIED = "died"              # never sent: the window's word for a worker that died or stopped answering


def NEVER() -> bool:  # noqa: N802 - a constant-like default
    """A `cancelled` callback for work that is never cancelled."""
    return False


class Cancelled(Exception):
    """Work was cancelled; the engine stopped at a consistent position (``position``).

    ``why`` says why in words when the engine stopped a step (None: the user cancelled).
    """

    def __init__(self, position: int | None = None, why: Message | None = None) -> None:
        super().__init__(Reply.CANCELLED.value if why is None else why.render("en"))
        self.position = position
        self.why = why


class EngineError(MessageError):
    """The engine failed in a way that is not content (an internal error, with its details)."""


class EngineCrashed(EngineError):
    """The worker process died while it ran a step; it was restarted at ``position``.

    ``why`` says how it died (a signal, an out-of-memory kill, a time limit); ``reason`` is that in English.
    """

    def __init__(self, position: int, why: Message, kind: str = "WorkerCrash") -> None:
        super().__init__(msg("engine.restarted", reason=why, position=position))
        self.position = position
        self.why = why
        self.reason = why.render("en")
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

"""What one step did, as plain data: its error, warnings, output and the snapshot after it.

Imports no torch: results cross from the worker process to the window as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tensorlab.core.messages.catalogue import Message, render
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["ErrorInfo", "WarningInfo", "StepResult"]


@dataclass(frozen=True)
class ErrorInfo:
    """An exception a step raised: torch's (or Python's) real text, and what it means.

    ``message`` is the text as it was raised (TensorLab's own in English); for TensorLab's
    own messages (a refusal, a limit, a crashed worker) ``own`` is the catalogue key and
    parameters, so that the window and the transcript say it in their language.

    ``origin`` says who raised it, from where it was raised (never from its text):
    ``"torch"`` when the step's own operation raised it (torch, or Python's own operator on the
    step's values), as plain Python would; ``"tensorlab"`` (the default) when TensorLab did (a
    refusal, a type check, the guard, a limit, a crash or time limit): the statement was refused.
    ``at``: the statement that was running, counted in source order from 1 (the step itself; a
    ``with`` block's lines after it); None when not known.
    """

    type: str
    message: str
    explanation: Explanation | None = None
    own: Message | None = None
    origin: str = "tensorlab"
    at: int | None = None
    partial: bool = False   # refused after some of the statement had run (the export stops there)
    line: int | None = None   # the line of the step (1: its first) of the statement that raised, where known

    @property
    def refused(self) -> bool:
        """True when TensorLab itself stopped the statement (it did not run as plain Python runs it)."""
        return self.origin != "torch"

    def text(self, language: str = "en") -> str:
        """The message in ``language``: TensorLab's own rendered in it, torch's as torch wrote it."""
        return self.message if self.own is None else self.own.render(language)

    def heading(self, language: str = "en") -> str:
        """Who raised it, in ``language``: "torch raised …" only for torch's; TensorLab's own say so.

        From ``origin`` (where it was raised), never from the text: a refusal, a type check or a
        limit is "TensorLab refused"; a time limit or a crashed worker is "TensorLab stopped".
        """
        if not self.refused:
            key = "error.torch_raised"
        elif self.type == "TimeLimit" or self.type.startswith("Worker"):
            key = "error.tensorlab_stopped"
        else:
            key = "error.tensorlab_refused"
        return render(key, {"type": self.type}, language)

    def to_json(self) -> dict[str, str]:
        """The contract-3 `error` object (English for TensorLab's messages, torch's text as it is)."""
        return {"type": self.type, "message": self.message}


@dataclass(frozen=True)
class WarningInfo:
    """A warning a step raised."""

    category: str
    message: str
    explanation: Explanation | None = None


@dataclass(frozen=True)
class StepResult:
    """What one step did: its code, error, warnings, output and the snapshot after it.

    ``notes`` are TensorLab's own observations about the step (for example, memory
    that changed while no version counter moved); they are not part of contract 3.
    """

    index: int
    code: str
    error: ErrorInfo | None
    warnings: tuple[WarningInfo, ...]
    output: str
    value: str | None          # repr of an expression statement's value, as a REPL echoes it
    snapshot: Snapshot
    seconds: float = 0.0
    notes: tuple[Explanation, ...] = ()
    memory: int = 0            # bytes the session's names hold after the step (what the budget counts)
    iterations: int | None = None  # a loop step: the iterations that ran to their end (contract 3's "iterations")

    @property
    def ok(self) -> bool:
        """True when the step raised nothing."""
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """The contract-3 JSON of this step."""
        return {
            "index": self.index,
            "code": self.code,
            "ok": self.ok,
            "error": None if self.error is None else self.error.to_json(),
            "warnings": [w.message for w in self.warnings],
            "output": self.output,
            **self.snapshot.to_json(),
            **({} if self.iterations is None else {"iterations": self.iterations}),
        }

"""A session: named results, the selected device, and running one step at a time.

Every torch exception and warning raised inside a step is captured into its
:class:`StepResult`; nothing escapes, and later steps still run. Stepping back is
replay: a fresh namespace, ``torch.manual_seed(seed)``, then the first k steps.
"""

from __future__ import annotations

import contextlib
import io
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import torch

from tensorlab.core.devices import resolve_device
from tensorlab.core.explain import Explanation, HistoryEntry, explain
from tensorlab.core.inspect import MAX_REPR, Snapshot, clean_message, take_snapshot
from tensorlab.core.interpreter import NO_VALUE, Interpreter
from tensorlab.core.language import Statement, check_names, parse_one
from tensorlab.core.limits import DEFAULT_LIMITS, Limits

__all__ = ["ErrorInfo", "WarningInfo", "StepResult", "Session"]


@dataclass(frozen=True)
class ErrorInfo:
    """An exception a step raised: torch's (or Python's) real text, and what it means."""

    type: str
    message: str
    explanation: Explanation | None = None

    def to_json(self) -> dict[str, str]:
        """The contract-3 `error` object."""
        return {"type": self.type, "message": self.message}


@dataclass(frozen=True)
class WarningInfo:
    """A warning a step raised."""

    category: str
    message: str
    explanation: Explanation | None = None


@dataclass(frozen=True)
class StepResult:
    """What one step did: its code, error, warnings, output and the snapshot after it."""

    index: int
    code: str
    error: ErrorInfo | None
    warnings: tuple[WarningInfo, ...]
    output: str
    value: str | None          # repr of an expression statement's value, as a REPL echoes it
    snapshot: Snapshot
    seconds: float = 0.0

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
        }


class Session:
    """A namespace of user names on one device, run one statement at a time.

    Not thread-safe: use a session from one thread at a time.
    """

    def __init__(self, device: str = "cpu", limits: Limits = DEFAULT_LIMITS, seed: int = 0) -> None:
        self.limits = limits
        self.seed = seed
        self._device = resolve_device(device)
        self._namespace: dict[str, Any] = {}
        self._output: io.StringIO = io.StringIO()
        self._interpreter = Interpreter(self._namespace, limits, self._write)
        self.results: list[StepResult] = []
        self.reset()

    # -- state -----------------------------------------------------------------
    @property
    def device(self) -> str:
        """The device factories create tensors on (`cpu`, `cuda:0`, `mps`)."""
        return self._device

    @property
    def names(self) -> tuple[str, ...]:
        """The names defined so far, in order of first binding."""
        return tuple(self._namespace)

    @property
    def statements(self) -> list[Statement]:
        """The statements run since the last reset, in order."""
        return list(self._history)

    def reset(self) -> None:
        """Forget every name and result; reseed torch's random generators."""
        self._namespace.clear()
        self.results.clear()
        self._history: list[Statement] = []
        torch.manual_seed(self.seed)

    def set_device(self, device: str) -> list[StepResult]:
        """Switch device and replay every step so far on it."""
        self._device = resolve_device(device)
        return self.replay(list(self._history))

    def snapshot(self) -> Snapshot:
        """A fresh snapshot of the namespace now."""
        return take_snapshot(self._namespace)

    # -- running ---------------------------------------------------------------
    def run(self, code: str) -> StepResult:
        """Parse and run one line typed by a user.

        Raises :class:`~tensorlab.core.language.LanguageError` (and runs nothing)
        when the line is outside the subset or reads a name nothing has bound.
        """
        statement = parse_one(code, self.limits)
        check_names([statement], self._namespace)
        return self.execute(statement)

    def execute(self, statement: Statement) -> StepResult:
        """Run one checked statement and capture everything it raised or printed."""
        self._output = io.StringIO()
        value: Any = NO_VALUE
        error: BaseException | None = None
        started = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warn_always = torch.is_warn_always_enabled()
            # Warn-once warnings must show on every replay, not just the first time.
            torch.set_warn_always(True)
            try:
                with self._device_context():
                    value = self._interpreter.execute(statement.node)
            except Exception as exc:  # every failure of a step is content, never a crash
                error = exc
            finally:
                torch.set_warn_always(warn_always)
        seconds = time.perf_counter() - started
        snapshot = take_snapshot(self._namespace)
        history = [HistoryEntry(r.index, r.code, r.snapshot) for r in self.results]
        history.append(HistoryEntry(len(self.results), statement.source, snapshot))
        error_info = None
        if error is not None:
            message = str(error)
            error_info = ErrorInfo(type(error).__name__, message,
                                   explain(message, type(error).__name__, history))
        warning_infos = tuple(
            WarningInfo(w.category.__name__, clean_message(str(w.message)),
                        explain(str(w.message), w.category.__name__, history))
            for w in caught
        )
        result = StepResult(
            index=len(self.results),
            code=statement.source,
            error=error_info,
            warnings=warning_infos,
            output=self._output.getvalue(),
            value=_echo(value),
            snapshot=snapshot,
            seconds=seconds,
        )
        self._history.append(statement)
        self.results.append(result)
        return result

    def replay(self, statements: Iterable[Statement]) -> list[StepResult]:
        """Reset, then run ``statements`` in order; the results of this run."""
        self.reset()
        return [self.execute(s) for s in statements]

    def iter_replay(self, statements: Iterable[Statement]) -> Iterator[StepResult]:
        """Like :meth:`replay`, one result at a time (for progress and cancelling)."""
        self.reset()
        for statement in statements:
            yield self.execute(statement)

    # -- helpers ---------------------------------------------------------------
    def _write(self, text: str) -> None:
        self._output.write(text)

    def _device_context(self) -> contextlib.AbstractContextManager[Any]:
        if self._device == "cpu":
            return contextlib.nullcontext()
        return torch.device(self._device)


def _echo(value: Any) -> str | None:
    if value is NO_VALUE or value is None:
        return None
    try:
        text = repr(value)
    except Exception as exc:
        return f"<repr failed: {exc}>"
    return text if len(text) <= MAX_REPR else text[:MAX_REPR] + " ..."

"""A session: named results, the selected device, and running one step at a time.

Every torch exception and warning raised inside a step is captured into its
:class:`StepResult`; nothing escapes, and later steps still run. Rebuilding the state
after k steps (the player does when it is needed after stepping back) is replay: a fresh
namespace, ``torch.manual_seed(seed)``, then the first k steps.
"""

from __future__ import annotations

import contextlib
import dis
import io
import os
import re
import time
import warnings
from collections.abc import Iterable, Iterator, MutableSequence
from typing import Any

import torch

from tensorlab.core.explain.explanations import HistoryEntry, explain, explain_own
from tensorlab.core.explain.hidden_writes import hidden_writes
from tensorlab.core.explain.torch_messages import parse_message
from tensorlab.core.lang.parse import Statement, check_names, parse_one
from tensorlab.core.messages.catalogue import MessageError
from tensorlab.core.observe.autograd_graph import saved_in_graphs
from tensorlab.core.observe.inspector import Inspector, clean_message, reached_tensors
from tensorlab.core.observe.reprs import bounded_repr
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo, StepResult, WarningInfo
from tensorlab.core.protocol.snapshot import MAX_REPR, SavedTensor, Snapshot
from tensorlab.core.sandbox.interpreter import NO_VALUE, Interpreter, raised_by_interpreter, raised_by_operation
from tensorlab.core.session.devices import resolve_device

__all__ = ["ErrorInfo", "WarningInfo", "StepResult", "Session", "origin_of"]

_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
_TENSORLAB_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep
_RAISES = frozenset({"RAISE_VARARGS", "RERAISE"})
_WORD = re.compile(r"[A-Za-z_]\w*")


def origin_of(error: BaseException) -> str:
    """Who raised ``error`` (see :data:`tensorlab.core.explain.explanations.ORIGINS`).

    Read from where it was raised: TensorLab's own messages are "tensorlab"; an error
    raised in torch's Python code, or by a compiled operator that TensorLab's interpreter
    called (no Python frame of its own), is "torch"; one a ``raise`` in TensorLab's code
    wrote in Python's words (``name 'y' is not defined``) is "interpreter".
    """
    if isinstance(error, MessageError):
        return "tensorlab"
    # The interpreter marks what it raised and what the step's own operation raised; the traceback
    # decides only for an error it did not mark.
    if raised_by_operation(error):
        return "torch"
    if raised_by_interpreter(error):
        return "interpreter"
    trace = error.__traceback__
    if trace is None:
        return "other"
    while trace.tb_next is not None:
        trace = trace.tb_next
    code = trace.tb_frame.f_code
    filename = os.path.abspath(code.co_filename)
    if filename.startswith(_TORCH_DIR):
        return "torch"
    if filename.startswith(_TENSORLAB_DIR):
        lasti = trace.tb_lasti
        op = dis.opname[code.co_code[lasti]] if 0 <= lasti < len(code.co_code) else ""
        return "interpreter" if op in _RAISES else "torch"
    return "other"


class Session:
    """A namespace of user names on one device, run one statement at a time.

    Not thread-safe: use a session from one thread at a time.
    """

    def __init__(self, device: str = "cpu", limits: Limits = DEFAULT_LIMITS, seed: int = 0) -> None:
        self.limits = limits
        self.seed = seed
        self._device = resolve_device(device)
        self._namespace: dict[str, Any] = {}
        self._output = _CappedOutput(limits.max_output_chars)
        self._interpreter = Interpreter(self._namespace, limits, self._write)
        self.inspector = Inspector()
        self.results: list[StepResult] = []
        # Names whose autograd graph every snapshot reads (the selected tensor), besides the
        # names each step assigns.
        self.focus: frozenset[str] = frozenset()
        self.reset()

    def watch_loops(self, watch: MutableSequence[int] | None) -> None:
        """Keep ``watch[0]`` at the iteration a running loop is in and ``watch[1]`` at its count (-1 unknown),
        0 outside a loop: shared memory the engine reads when it had to kill the worker mid-loop."""
        self._interpreter.loop_watch = watch

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
    def namespace(self) -> dict[str, Any]:
        """The live namespace (for the worker's probes; panels never see it)."""
        return self._namespace

    @property
    def guard(self) -> Any:
        """The guard of this session's interpreter (the worker tells it what the kept history holds)."""
        return self._interpreter.guard

    @property
    def statements(self) -> list[Statement]:
        """The statements run since the last reset, in order."""
        return list(self._history)

    @property
    def position(self) -> int:
        """How many statements have run since the last reset."""
        return len(self._history)

    def reset(self) -> None:
        """Forget every name and result; reseed torch's random generators."""
        self._namespace.clear()
        self.results.clear()
        self.inspector.reset()
        self._history: list[Statement] = []
        torch.manual_seed(self.seed)

    def set_device(self, device: str) -> list[StepResult]:
        """Switch device and replay every step so far on it."""
        self._device = resolve_device(device)
        return self.replay(list(self._history))

    def take_snapshot(self, graphs: Iterable[str] | bool = ()) -> Snapshot:
        """A fresh snapshot of the namespace now (reading the graphs of ``graphs``)."""
        return self.inspector.take(self._namespace, graphs if isinstance(graphs, bool) else set(graphs))

    # -- running ---------------------------------------------------------------
    def run(self, code: str) -> StepResult:
        """Parse and run one line typed by a user.

        Raises :class:`~tensorlab.core.lang.parse.LanguageError` (and runs nothing)
        when the line is outside the subset or reads a name nothing has bound.
        """
        statement = parse_one(code, self.limits)
        check_names([statement], self._namespace)
        return self.execute(statement)

    def _run_statement(self, statement: Statement) -> tuple[Any, BaseException | None, list[Any], float]:
        """Run ``statement``: (value, error, caught warnings, seconds). Nothing escapes."""
        self._output = _CappedOutput(self.limits.max_output_chars)
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
                    value = self._interpreter.run_statement(statement.node)
            except Exception as exc:  # every failure of a step is content, never a crash
                error = exc
            finally:
                torch.set_warn_always(warn_always)
        return value, error, list(caught), time.perf_counter() - started

    def execute(self, statement: Statement) -> StepResult:
        """Run one checked statement and capture everything it raised or printed."""
        value, error, caught, seconds = self._run_statement(statement)
        snapshot = self.inspector.take(self._namespace, set(statement.defines) | self.focus)
        # The steps so far, for explaining an error or a warning: made only when there is one to explain (a
        # list of every step at every step grew with the program).
        history: list[HistoryEntry] = []
        if error is not None or caught:
            history = [HistoryEntry(r.index, r.code, r.snapshot) for r in self.results]
            history.append(HistoryEntry(len(self.results), statement.source, snapshot))
        error_info = None
        if error is not None:
            message = str(error)
            saved: tuple[SavedTensor, ...] = ()
            if parse_message(message, type(error).__name__).kind == "saved_changed":
                # Every tensor a name reaches (a module's parameters too: an optimizer's step() changes them);
                # the graphs of the names the failing statement reads first.
                reached = reached_tensors(self._namespace)
                words = set(_WORD.findall(statement.source))
                saved = saved_in_graphs({n: v for n, (_, v) in reached.items()},
                                        [n for n, (root, _) in reached.items() if root in words])
            own = error.message if isinstance(error, MessageError) else None  # TensorLab's own: key and params
            explanation = (explain_own(own) if own is not None else
                           explain(message, type(error).__name__, history, saved, origin_of(error)))
            # The export's origin is the interpreter's mark alone: what no operation of the step raised
            # counts as refused (a script must never run on what TensorLab did not).
            by_torch = raised_by_operation(error)
            error_info = ErrorInfo(type(error).__name__, message, explanation, own,
                                   "torch" if by_torch else "tensorlab", self._interpreter.started or None,
                                   partial=not by_torch and self._interpreter.partly_ran(),
                                   line=self._interpreter.line)
        # A step cannot warn by itself (the subset has no `warnings`): every warning is torch's or Python's.
        warning_infos = tuple(
            WarningInfo(w.category.__name__, clean_message(str(w.message)),
                        explain(str(w.message), w.category.__name__, history))
            for w in caught
        )
        before = self.results[-1].snapshot if self.results else Snapshot()
        notes = hidden_writes(before, snapshot)
        stopped = self._interpreter.stopped_in
        if error is not None and stopped is not None:   # a loop stopped: say in which iteration
            if stopped[1] is None:   # the iteration limit itself: the object had no fixed length to name
                notes = (Explanation("explain.loop_stopped_at", (("iteration", f"{stopped[0]:,}"),)), *notes)
            else:
                notes = (Explanation("explain.loop_stopped", (("iteration", stopped[0]), ("count", stopped[1]))),
                         *notes)
        result = StepResult(
            index=len(self.results),
            code=statement.source,
            error=error_info,
            warnings=warning_infos,
            output=self._output.getvalue(),
            value=_echo(value),
            snapshot=snapshot,
            seconds=seconds,
            notes=notes,
            memory=self._interpreter.guard.memory_held(),
            iterations=self._interpreter.iterations,
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

    def restore(self, statements: Iterable[Statement], results: Iterable[StepResult]) -> Iterator[int]:
        """Reset and rerun ``statements`` without snapshots, adopting their known ``results``.

        Replay is deterministic (seeded, same statements), so the results of an
        earlier run of the same statements are the results of this one; only the
        live torch state is rebuilt. The storage labels are taken over from the
        last known snapshot, so that labels stay the same across the replay.
        Yields after each statement (for progress and cancelling).
        """
        known = list(results)  # before the reset: they may be this session's own results
        self.reset()
        # One context for the whole replay (what the steps print or warn is known already).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warn_always = torch.is_warn_always_enabled()
            torch.set_warn_always(True)
            try:
                with self._device_context():
                    for statement in statements:
                        self._output = _CappedOutput(self.limits.max_output_chars)
                        try:
                            self._interpreter.run_statement(statement.node)
                        except Exception:  # noqa: BLE001 - a step that raised raises again: known content
                            pass
                        self._history.append(statement)
                        yield len(self._history)
            finally:
                torch.set_warn_always(warn_always)
        self.results = known[: len(self._history)]
        if self.results:
            self._adopt_labels(self.results[-1].snapshot)

    def _adopt_labels(self, snapshot: Snapshot) -> None:
        """Give the live storages the labels ``snapshot`` (of the same state) gave them.

        Nothing is read: the next snapshot compares with what it reads then.
        """
        labelled, numbered = [], []
        reached = reached_tensors(self._namespace)   # `parts[0]` too: the names the snapshot lists
        for info in snapshot.tensors:
            value = reached.get(info.name, (None, None))[1]
            if isinstance(value, torch.Tensor) and info.storage is not None:
                labelled.append((value, info.storage))
            if isinstance(value, torch.Tensor) and info.object_id:
                # The same tensor of the same state: a step after the replay changes or makes only what it does.
                numbered.append((value, info.object_id))
        self.inspector.adopt_objects(numbered)
        used = [int(label[1:]) for result in self.results for label in
                (s.id for s in result.snapshot.storages) if label[1:].isdigit()]
        self.inspector.adopt_labels(labelled, max(used, default=-1) + 1)

    # -- helpers ---------------------------------------------------------------
    def _write(self, text: str, cut: bool = False) -> None:
        self._output.write(text, cut)

    def _device_context(self) -> contextlib.AbstractContextManager[Any]:
        if self._device == "cpu":
            return contextlib.nullcontext()
        return torch.device(self._device)


class _CappedOutput:
    """What a step prints, kept up to a limit; the rest is counted, not stored."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buffer = io.StringIO()
        self._size = 0
        self._dropped = 0
        self._cut = False

    def write(self, text: str, cut: bool = False) -> None:
        """Keep ``text`` while there is room; ``cut``: the text of a value was cut before it was built."""
        self._cut = self._cut or cut
        room = self.limit - self._size
        if len(text) <= room:
            self._buffer.write(text)
            self._size += len(text)
            return
        if room > 0:
            self._buffer.write(text[:room])
            self._size += room
        self._dropped += len(text) - max(room, 0)

    @property
    def room(self) -> int:
        """Characters that can still be kept."""
        return max(self.limit - self._size, 0)

    def getvalue(self) -> str:
        text = self._buffer.getvalue()
        if self._cut:
            # A value too long to print was cut while its text was made: how long it was is not known.
            text += f"\n… the rest was not printed (TensorLab keeps {self.limit:,} characters per step)\n"
        elif self._dropped:
            text += f"\n… {self._dropped:,} more characters (TensorLab keeps {self.limit:,} per step)\n"
        return text


def _echo(value: Any) -> str | None:
    if value is NO_VALUE or value is None:
        return None
    return bounded_repr(value, MAX_REPR)

"""Kept history within a budget: the values of old snapshots are dropped, and re-read by replay.

Every step's :class:`~tensorlab.core.protocol.results.StepResult` is kept by the worker (its
session), by the window's side (the engine, to replay a new worker; the player, to step back)
and by the window. Each snapshot holds the values of the tensors the step changed (up to
100,000 of them), so 490 steps that each change 100,000 values would keep ~50 million numbers
in every process. :class:`History` bounds that: once the values the kept snapshots hold pass
the allowance (:func:`history_allowance`, a share of the session's memory budget), the oldest
snapshots are replaced by copies without values (``Snapshot.trimmed``; names, shapes, storages,
versions and gradients' shapes stay). The last :data:`KEEP_LAST` snapshots are always whole
(the window shows the last one and highlights what changed since the one before).

A trimmed snapshot is re-read on demand: the player, going back to it, replays to there and
takes the snapshot again (:meth:`tensorlab.core.engine.player.Player.go_to`). ``tensorlab run
--json`` writes each result as it comes, before anything is trimmed (contract 3 stays full).
This module imports no torch.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import weakref
from collections.abc import MutableSequence
from typing import Any

from tensorlab.core.protocol.limits import Limits
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import MAX_STORAGE_CELLS, Snapshot, StorageInfo, TensorInfo

__all__ = ["History", "history_allowance", "without_values", "KEEP_LAST", "VALUE_BYTES"]

KEEP_LAST = 2            # snapshots at the end always kept whole
VALUE_BYTES = 32         # what one kept number costs in Python (the object and its slot in a tuple)
HISTORY_SHARE = 16       # the history may keep 1/16 of the session's memory budget ...
HISTORY_CEILING = 64 * 1024**2   # ... and at most this much in each process that keeps it


def history_allowance(limits: Limits | None) -> int:
    """Bytes of values the kept history of one process may hold: a share of the session's budget."""
    budget = limits.max_memory_bytes if limits is not None else None
    if budget is None:
        return HISTORY_CEILING
    return max(0, min(budget // HISTORY_SHARE, HISTORY_CEILING))


def _tensor_bytes(info: TensorInfo) -> int:
    numbers = 0
    if info.values is not None:
        numbers += info.numel
    if info.grad is not None and info.grad_shape is not None:
        numbers += math.prod(info.grad_shape)
    if info.dtype.startswith("complex"):
        numbers *= 3   # [re, im] pairs
    return numbers * VALUE_BYTES


def _storage_bytes(info: StorageInfo) -> int:
    return min(info.cell_count, MAX_STORAGE_CELLS) * VALUE_BYTES if info.cells else 0


def _part_bytes(part: Any) -> int:
    if isinstance(part, TensorInfo):
        return _tensor_bytes(part)
    if isinstance(part, StorageInfo):
        return _storage_bytes(part)
    return 0


def _parts(snapshot: Snapshot) -> tuple[Any, ...]:
    return snapshot.tensors + snapshot.storages


def own_bytes(snapshot: Snapshot, before: Snapshot | None) -> int:
    """Bytes of values ``snapshot`` holds that ``before`` does not share (unchanged parts are shared)."""
    shared = {id(part) for part in _parts(before)} if before is not None else set()
    return sum(_part_bytes(part) for part in _parts(snapshot) if id(part) not in shared)


def without_values(snapshot: Snapshot, memo: dict[int, Any] | None = None, keep_grad: bool = False) -> Snapshot:
    """``snapshot`` without the values of its tensors, gradients and storage cells (``trimmed``).

    ``memo`` (id of a part -> its trimmed copy) keeps parts that consecutive snapshots share shared;
    ``keep_grad`` keeps the gradients (the transcript's table shows them).
    """
    if snapshot.trimmed:
        return snapshot
    memo = {} if memo is None else memo

    def trim(part: Any) -> Any:
        copy = memo.get(id(part))
        if copy is None or copy[0]() is not part:
            if isinstance(part, TensorInfo):
                trimmed: Any = dataclasses.replace(part, values=None, grad=part.grad if keep_grad else None)
            else:
                trimmed = dataclasses.replace(part, cells=())
            copy = (weakref.ref(part), trimmed)
            memo[id(part)] = copy
        return copy[1]

    return Snapshot(tuple(trim(t) for t in snapshot.tensors), tuple(trim(s) for s in snapshot.storages),
                    snapshot.others, trimmed=True)


def trimmed_result(result: StepResult, memo: dict[int, Any] | None = None, keep_grad: bool = False) -> StepResult:
    """``result`` with its snapshot :func:`without_values` (its gradients too, unless ``keep_grad``)."""
    if result.snapshot.trimmed:
        return result
    return dataclasses.replace(result, snapshot=without_values(result.snapshot, memo, keep_grad))


class _Trimmed:
    """The trimmed copies made in this process, shared by every :class:`History` in it.

    The engine and the player keep the same results (the engine to replay a new worker, the player to step
    back): trimmed once, the two lists hold the same copies (one set of objects in memory, one copy made).
    Entries whose original is gone are dropped as trimming goes on.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.parts: dict[int, Any] = {}      # id(part) -> (weak reference to it, its trimmed copy)
        self.results: dict[int, tuple[weakref.ref[StepResult], StepResult]] = {}
        self._swept = 0    # entries left by the last sweep of dead ones

    def result(self, result: StepResult) -> StepResult:
        kept = self.results.get(id(result))
        if kept is not None and kept[0]() is result:
            return kept[1]
        trimmed = trimmed_result(result, self.parts)
        self.results[id(result)] = (weakref.ref(result), trimmed)
        return trimmed

    def forget_dead(self) -> None:
        # Swept only when the tables doubled since the last sweep: a sweep at every step went over every
        # part ever trimmed (quadratic in a long run); this way the sweeps cost as much as the trimming.
        if len(self.parts) + len(self.results) < 2 * self._swept + 256:
            return
        self.parts = {k: v for k, v in self.parts.items() if v[0]() is not None}
        self.results = {k: v for k, v in self.results.items() if v[0]() is not None}
        self._swept = len(self.parts) + len(self.results)


_TRIMMED = _Trimmed()


class History:
    """Keeps a list of results within :func:`history_allowance` bytes of values (see the module docstring)."""

    def __init__(self, allowance: int, keep_last: int = KEEP_LAST) -> None:
        self.allowance = allowance
        self.keep_last = keep_last
        # id(snapshot) -> (weak reference, bytes it holds that the snapshot before it did not)
        self._own: dict[int, tuple[weakref.ref[Snapshot], int]] = {}
        self._own_swept = 0
        self.trimmed_steps = 0     # how many steps at the start are trimmed now (after the last trim)
        self.held = 0              # bytes of values the whole results held after the last trim

    def _own_bytes(self, results: MutableSequence[StepResult], index: int) -> int:
        snapshot = results[index].snapshot
        kept = self._own.get(id(snapshot))
        if kept is not None and kept[0]() is snapshot:
            return kept[1]
        before = results[index - 1].snapshot if index > 0 else None
        size = own_bytes(snapshot, before)
        self._own[id(snapshot)] = (weakref.ref(snapshot), size)
        return size

    def trim(self, results: MutableSequence[StepResult]) -> int:
        """Trim the oldest results in place until the rest fit; how many were trimmed by this call."""
        total = 0
        cut = None
        index = len(results) - 1
        while index >= 0 and not results[index].snapshot.trimmed:
            size = self._own_bytes(results, index)
            if total + size > self.allowance and index < len(results) - self.keep_last:
                cut = index
                break
            total += size
            index -= 1
        count = 0
        if cut is not None:
            index = cut
            with _TRIMMED.lock:
                while index >= 0 and not results[index].snapshot.trimmed:
                    results[index] = _TRIMMED.result(results[index])
                    count += 1
                    index -= 1
                _TRIMMED.forget_dead()
            if len(self._own) > 2 * self._own_swept + 256:   # swept as the table doubles (see _Trimmed)
                self._own = {k: v for k, v in self._own.items() if v[0]() is not None}
                self._own_swept = len(self._own)
        self.held = total
        self.trimmed_steps = next((i + 1 for i in range(len(results) - 1, -1, -1) if results[i].snapshot.trimmed), 0)
        return count


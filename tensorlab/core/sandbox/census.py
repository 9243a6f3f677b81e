"""How much memory a session holds, for its budget.

Two measures, and the budget is checked against the larger:

- the bytes of the storages its names hold (tensors, their gradients, NumPy
  arrays and storages, also inside lists, tuples and dicts, a module's parameters and
  buffers, an optimizer's state, and what the autograd graphs behind them saved for
  backward), on any device;
- on Linux, how much the process's resident anonymous memory (not the files
  it maps: torch's code) grew since the session started: that also counts
  what no name holds but the session still keeps —
  tensors autograd saved for backward, Python lists, strings and numbers, and
  the tensor objects of a split.

Before it says the budget is exhausted, the census frees what it can (a garbage
collection, and returning freed heap to the system) and measures again.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
from collections.abc import Mapping
from typing import Any

import torch

__all__ = ["Census", "process_rss", "tensor_bytes"]

_MAX_ITEMS = 1_000    # items of one list or tuple looked into (the process measure sees the rest)
_MAX_WALK = 100_000   # items looked into in all (the process measure sees the rest)
_GC_AGAIN_AFTER = 16 << 20  # a full garbage collection again only once memory grew this much since the last


def process_rss() -> int | None:
    """Resident *anonymous* memory of this process in bytes (None where the system does not say): its heap,
    Python's objects, tensors' data; not the pages of files it maps.

    File-backed pages are left out (statm's resident minus its shared): they are torch's own code and data
    (libtorch is hundreds of MB), mapped in as a step first runs a kernel. A forked worker maps them again
    page by page, so a first ``torch.randn`` or ``backward()`` grew the resident figure by tens of MB that no
    program of the learner's holds (issue #21 review: "106 MB" for about 100 floats)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            fields = statm.read().split()
        return max(int(fields[1]) - int(fields[2]), 0) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def _release(collect: bool) -> None:
    """Collect garbage (if ``collect``) and give freed heap back to the system, so that RSS shows what is held."""
    if collect:
        gc.collect()
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):  # pragma: no cover - not glibc
            pass


def tensor_bytes(namespace: Mapping[str, Any]) -> tuple[int, int]:
    """(bytes, items looked at): the storages (and gradients, NumPy arrays, storages) ``namespace`` holds."""
    numpy = sys.modules.get("numpy")
    seen: set[tuple[str, int]] = set()
    total = 0
    walked = 0

    def add_storage(device: str, storage: Any) -> None:
        nonlocal total
        key = (device, storage.data_ptr() or id(storage))
        if key not in seen:
            seen.add(key)
            total += storage.nbytes()

    roots: list[Any] = []   # the autograd nodes behind the tensors found: what they saved is held too

    def add(value: Any) -> None:
        nonlocal total
        if isinstance(value, torch.Tensor):
            try:
                add_storage(str(value.device), value.untyped_storage())
            except (RuntimeError, NotImplementedError):
                return
            if value.requires_grad and len(roots) < _MAX_ITEMS:
                try:
                    node = value.grad_fn
                except RuntimeError:   # a split output whose base changed: torch refuses to say (DESIGN.md)
                    node = None
                if node is not None:
                    roots.append(node)
            try:
                grad = value.grad if value.is_leaf else None
            except RuntimeError:
                grad = None
            if grad is not None:
                add(grad)
        elif isinstance(value, (torch.UntypedStorage, torch.TypedStorage)):
            # A TypedStorage wraps an untyped one (it has no ``untyped_storage()``; ``untyped()`` warns).
            add_storage(str(value.device), value._untyped_storage if isinstance(value, torch.TypedStorage)
                        else value)
        elif numpy is not None and isinstance(value, numpy.ndarray) and value.base is None:
            key = ("numpy", id(value))
            if key not in seen:
                seen.add(key)
                total += value.nbytes

    holders: tuple[type, ...] = (torch.Tensor, torch.UntypedStorage, torch.TypedStorage)
    if numpy is not None:
        holders += (numpy.ndarray,)
    def tensors_of(value: Any) -> list[Any]:
        """The tensors a module (parameters, buffers), an optimizer (its params and state) or a dict holds."""
        if isinstance(value, torch.nn.Module):
            found: list[Any] = []
            for module in value.modules():   # each submodule once (the memo of modules())
                found.extend(module._parameters.values())
                found.extend(module._buffers.values())
                if len(found) > _MAX_ITEMS:
                    break
            return found
        if isinstance(value, torch.optim.Optimizer):
            found = [p for group in value.param_groups for p in group.get("params", [])][:_MAX_ITEMS]
            for state in list(value.state.values())[:_MAX_ITEMS]:
                found.extend(state.values() if isinstance(state, dict) else ())
            return found
        return list(value.values())[:_MAX_ITEMS]

    for value in list(namespace.values()):
        if walked > _MAX_WALK:
            break
        if isinstance(value, (dict, torch.nn.Module, torch.optim.Optimizer)):
            items = tensors_of(value)
            for item in items:
                if isinstance(item, holders):
                    add(item)
            walked += len(items) + 1
            continue
        if isinstance(value, (list, tuple)):
            for item in value[:_MAX_ITEMS]:
                if isinstance(item, holders):  # most items of a long list are numbers: skip the call
                    add(item)
            walked += min(len(value), _MAX_ITEMS)
        else:
            add(value)
        walked += 1
    walked += _saved_bytes(roots, add_storage, _MAX_GRAPH_NODES)
    return total, walked


_MAX_GRAPH_NODES = 20_000   # autograd nodes looked into in all (the process measure sees the rest)
_SAVED: dict[type, tuple[str, ...]] = {}   # each node type's `_saved_*` attributes (dir() is slow)


def _saved_bytes(roots: list[Any], add_storage: Any, limit: int) -> int:
    """Count the storages the graphs behind ``roots`` saved for backward (``total += loss`` in a loop keeps
    every iteration's graph); returns how many nodes it looked at. A saved tensor already freed by backward
    (or changed in place) reads as torch's error and holds nothing to count."""
    seen: set[int] = set()
    stack = list(roots)
    while stack and len(seen) < limit:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names = _SAVED.get(type(node))
        if names is None:
            names = _SAVED[type(node)] = tuple(a for a in dir(node) if a.startswith("_saved_"))
        for name in names:
            try:
                value = getattr(node, name)
            except (RuntimeError, AttributeError):
                continue
            for item in value if isinstance(value, tuple) else (value,):
                if isinstance(item, torch.Tensor):
                    try:
                        add_storage(str(item.device), item.untyped_storage())
                    except (RuntimeError, NotImplementedError):
                        continue
        stack.extend(next_node for next_node, _ in node.next_functions)
    return len(seen)


class Census:
    """Measures what one session holds (see the module docstring)."""

    def __init__(self) -> None:
        # Measured after returning freed heap, so that a later return of others' memory does not hide the
        # session's (a full garbage collection here would cost a test suite of many sessions dearly).
        _release(False)
        self.baseline = process_rss()
        self._after_gc: int | None = None   # resident memory right after the last full collection
        self.walked = 0                      # items the last measure looked at (its own cost)

    def restart(self) -> None:
        """The session holds nothing now (a reset, or before its first step): measure from here."""
        now = process_rss()
        if now is not None and (self.baseline is None or now < self.baseline):
            self.baseline = now

    def growth(self) -> int:
        """How much the process's resident memory grew since the session started (0 if unknown)."""
        now = process_rss()
        if now is None or self.baseline is None:
            return 0
        return max(now - self.baseline, 0)

    def held(self, namespace: Mapping[str, Any]) -> int:
        """Bytes the session holds now: the larger of its storages and its process's growth."""
        held, self.walked = tensor_bytes(namespace)
        return max(held, self.growth())

    def held_after_release(self, namespace: Mapping[str, Any]) -> int:
        """Like :meth:`held`, after freeing garbage (call before refusing: it takes a moment).

        A full garbage collection walks every object; it runs again only once memory
        grew since the last one (a session refused step after step stays fast).
        """
        now = process_rss()
        collect = self._after_gc is None or now is None or now > self._after_gc + _GC_AGAIN_AFTER
        _release(collect)
        if collect:
            self._after_gc = process_rss()
        return self.held(namespace)

"""What a snapshot holds: plain, immutable data about tensors, storages and other names.

This module imports no torch, so the window process can receive, keep and render
snapshots without loading PyTorch; :mod:`tensorlab.core.observe.inspector` reads them from
live torch objects (in the worker process).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "MAX_VALUES",
    "MAX_STORAGE_CELLS",
    "MAX_REPR",
    "SavedTensor",
    "GraphNode",
    "GraphInfo",
    "TensorInfo",
    "StorageInfo",
    "OtherInfo",
    "Snapshot",
    "to_plain",
    "covered_cells",
]

MAX_VALUES = 10_000          # tensors above this many elements have values = None
MAX_STORAGE_CELLS = 4_096    # cells of a storage kept for the storage map
MAX_REPR = 2_000             # characters of repr kept for non-tensor names

Nested = Any  # nested tuples of float | int | bool | str | (re, im)


class SavedStatus(StrEnum):
    """What became of a tensor a node saved for backward."""

    OK = "ok"
    CHANGED = "changed"             # modified in place after it was saved: backward will fail
    FREED = "freed"                 # freed by a backward() without retain_graph
    UNAVAILABLE = "unavailable"     # torch does not let it be read


@dataclass(frozen=True)
class SavedTensor:
    """A tensor a node saved for backward, as torch reports it now."""

    label: str                      # "self", "other", "result", ...
    status: SavedStatus
    who: str | None = None          # the name it is bound to, or "tensor [5]" (CHANGED: None when no name is it)
    version: int | None = None      # its version counter now
    # CHANGED only (read from torch's saved variable without unpacking it, and from torch's own error):
    saved_version: int | None = None    # the version autograd noted when it saved the tensor
    shape: tuple[int, ...] | None = None
    # Names over the same memory whose version is the saved tensor's now (it has no name of its own: a
    # view such as `weight.t()` inside a module, an output saved as an alias, a name bound again).
    shares: tuple[str, ...] = ()

    def describe(self) -> str:
        """English one-line description (the UI translates from the fields)."""
        if self.status is SavedStatus.CHANGED:
            if self.saved_version is not None and self.version is not None:
                who = self.who or ", ".join(self.shares) or "a tensor"
                return (f"{self.label}: {who}, changed in place after it was saved "
                        f"(saved at version {self.saved_version}, now at version {self.version})")
            return f"{self.label}: changed in place after it was saved"
        if self.status is SavedStatus.FREED:
            return f"{self.label}: freed by backward()"
        if self.status is SavedStatus.UNAVAILABLE:
            return f"{self.label}: unavailable"
        version = "" if self.version is None else f", version {self.version}"
        return f"{self.label}: {self.who}{version}"


@dataclass(frozen=True)
class GraphNode:
    """One node of the backward graph."""

    name: str                               # e.g. "MulBackward0", "AccumulateGrad"
    leaf: str | None = None                 # AccumulateGrad: the leaf's name (or its shape)
    saved: tuple[SavedTensor, ...] = ()     # what the node saved for backward


@dataclass(frozen=True)
class GraphInfo:
    """Nodes (index 0 is the tensor's grad_fn) and edges (from, to) in gradient-flow order."""

    nodes: tuple[GraphNode, ...]
    edges: tuple[tuple[int, int], ...]
    truncated: bool = False


@dataclass(frozen=True)
class TensorInfo:
    """What one name bound to a tensor holds, read at one moment.

    ``graph`` is read only where it was asked for (the selected tensor, the ones a
    step assigned): a tensor with a ``grad_fn`` whose ``graph`` is None has a graph
    that was not read, not an empty one.
    """

    name: str
    shape: tuple[int, ...]
    dtype: str
    device: str
    values: Nested | None
    requires_grad: bool
    is_leaf: bool | None            # None where torch refuses to say (see contract 3)
    grad_fn: str | None
    version: int | None
    grad: Nested | None
    grad_shape: tuple[int, ...] | None
    storage: str | None
    storage_offset: int | None
    stride: tuple[int, ...] | None
    numel: int
    element_size: int
    is_view: bool
    object_id: int = field(default=0, repr=False)
    graph: GraphInfo | None = field(default=None, repr=False, compare=False)
    retains_grad: bool = False
    # Bytes from the start of the storage id's memory to this tensor's own storage (not 0 only where
    # another storage object overlaps the same memory: `torch.from_numpy(x[1:].numpy())`); the storage
    # map adds it to `storage_offset`, which stays torch's own value.
    storage_start: int = 0
    # A buffer of a module a name holds (`bn.running_mean`): torch's own kernels may write it in place
    # without counting a version (batch norm's running statistics), which hidden_writes must say.
    buffer: bool = False
    # An opened file's statement that is not run may have changed it in Python (its line and cell, cell 0 in a .py):
    # what is shown is TensorLab's run without that statement (issue #21, review r21f; source_import.with_may_differ).
    may_differ: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        """The contract-3 JSON of this tensor (and ``"may_differ": {"line", "cell"}`` where :attr:`may_differ`)."""
        data = {
            "shape": list(self.shape),
            "dtype": self.dtype,
            "device": self.device,
            "values": to_plain(self.values),
            "requires_grad": self.requires_grad,
            "is_leaf": self.is_leaf,
            "grad_fn": self.grad_fn,
            "version": self.version,
            "grad": to_plain(self.grad),
            "storage": self.storage,
            "storage_offset": self.storage_offset,
            "stride": None if self.stride is None else list(self.stride),
        }
        if self.may_differ is not None:
            data["may_differ"] = {"line": self.may_differ[0], "cell": self.may_differ[1]}
        return data


@dataclass(frozen=True)
class StorageInfo:
    """One block of memory and the names that view it."""

    id: str
    nbytes: int                     # the extent of the memory (contract 3: overlapping storages are one)
    device: str
    tensors: tuple[str, ...]
    # For the storage map (not part of the JSON contract):
    dtype: str                      # dtype of the first tensor viewing it; cells are of this type
    element_size: int
    cells: Nested                   # the first MAX_STORAGE_CELLS elements, as values
    cell_count: int                 # elements of `dtype` in the whole storage
    version: int | None             # version counter of the first tensor viewing it
    key: tuple[str, int] = field(repr=False)  # (device, address where the memory starts)
    arrays: tuple[str, ...] = ()    # names of NumPy arrays over the same memory

    def to_json(self) -> dict[str, Any]:
        """The contract-3 JSON of this storage."""
        return {"id": self.id, "nbytes": self.nbytes, "device": self.device, "tensors": list(self.tensors)}


@dataclass(frozen=True)
class OtherInfo:
    """A name bound to something that is not a tensor."""

    name: str
    type: str
    repr: str
    storage: str | None = None      # a NumPy array over a storage the snapshot lists

    def to_json(self) -> dict[str, str]:
        """The contract-3 JSON of this value."""
        return {"type": self.type, "repr": self.repr}


@dataclass(frozen=True)
class Snapshot:
    """Every name of a session, as data."""

    tensors: tuple[TensorInfo, ...] = ()
    storages: tuple[StorageInfo, ...] = ()
    others: tuple[OtherInfo, ...] = ()
    # The values of its tensors, gradients and storage cells were dropped from kept history
    # (core/protocol/history.py); replaying to this step reads them again.
    trimmed: bool = False

    def tensor(self, name: str) -> TensorInfo | None:
        """The tensor bound to ``name``, or None."""
        return next((t for t in self.tensors if t.name == name), None)

    def storage(self, storage_id: str) -> StorageInfo | None:
        """The storage with id ``storage_id``, or None."""
        return next((s for s in self.storages if s.id == storage_id), None)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name bound (tensors first, then other values)."""
        return tuple(t.name for t in self.tensors) + tuple(o.name for o in self.others)

    def to_json(self) -> dict[str, Any]:
        """The `tensors`, `storages` and `others` of a contract-3 step."""
        return {
            "tensors": {t.name: t.to_json() for t in self.tensors},
            "storages": [s.to_json() for s in self.storages],
            "others": {o.name: o.to_json() for o in self.others},
        }


def to_plain(values: Nested | None) -> Any:
    """Nested tuples (as kept in a snapshot) back to JSON lists."""
    if isinstance(values, tuple):
        return [to_plain(v) for v in values]
    return values


def covered_cells(
    shape: tuple[int, ...], stride: tuple[int, ...], offset: int, limit: int = MAX_STORAGE_CELLS
) -> tuple[int, ...]:
    """Storage element indices a strided tensor reads, in its own element units.

    At most ``limit`` indices are listed (in row-major order of the tensor).
    """
    if any(s == 0 for s in shape):
        return ()
    cells: list[int] = []
    index = [0] * len(shape)
    while len(cells) < limit:
        cells.append(offset + sum(i * s for i, s in zip(index, stride)))
        axis = len(shape) - 1
        while axis >= 0:
            index[axis] += 1
            if index[axis] < shape[axis]:
                break
            index[axis] = 0
            axis -= 1
        if axis < 0:
            break
    return tuple(cells)

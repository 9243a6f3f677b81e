"""Side-effect-free snapshots of what torch holds.

A snapshot is plain immutable data: no live tensor survives in it. Taking one
bumps no version counter, records no graph node, accumulates no gradient and
raises or prints no warning: values are read through ``detach()``, ``.grad`` is
read only where torch reads it silently (leaves and tensors that retain grad).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from tensorlab.core.graph import GraphInfo, autograd_graph

__all__ = [
    "TensorInfo",
    "StorageInfo",
    "OtherInfo",
    "Snapshot",
    "take_snapshot",
    "to_plain",
    "dtype_name",
    "covered_cells",
]

MAX_VALUES = 10_000          # tensors above this many elements have values = None
MAX_STORAGE_CELLS = 4_096    # cells of a storage kept for the storage map
MAX_REPR = 2_000             # characters of repr kept for non-tensor names

Nested = Any  # nested tuples of float | int | bool | str | (re, im)


@dataclass(frozen=True)
class TensorInfo:
    """What one name bound to a tensor holds, read at one moment."""

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
    repr: str = field(repr=False)
    object_id: int = field(repr=False)
    graph: GraphInfo | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The contract-3 JSON of this tensor."""
        return {
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


@dataclass(frozen=True)
class StorageInfo:
    """One block of memory and the names that view it."""

    id: str
    nbytes: int
    device: str
    tensors: tuple[str, ...]
    # For the storage map (not part of the JSON contract):
    dtype: str                      # dtype of the first tensor viewing it; cells are of this type
    element_size: int
    cells: Nested                   # the first MAX_STORAGE_CELLS elements, as values
    cell_count: int                 # elements of `dtype` in the whole storage
    version: int | None             # version counter of the first tensor viewing it
    key: tuple[str, int] = field(repr=False)  # (device, address): same memory across snapshots

    def to_json(self) -> dict[str, Any]:
        """The contract-3 JSON of this storage."""
        return {"id": self.id, "nbytes": self.nbytes, "device": self.device, "tensors": list(self.tensors)}


@dataclass(frozen=True)
class OtherInfo:
    """A name bound to something that is not a tensor."""

    name: str
    type: str
    repr: str

    def to_json(self) -> dict[str, str]:
        """The contract-3 JSON of this value."""
        return {"type": self.type, "repr": self.repr}


@dataclass(frozen=True)
class Snapshot:
    """Every name of a session, as data."""

    tensors: tuple[TensorInfo, ...] = ()
    storages: tuple[StorageInfo, ...] = ()
    others: tuple[OtherInfo, ...] = ()

    def tensor(self, name: str) -> TensorInfo | None:
        """The tensor bound to ``name``, or None."""
        return next((t for t in self.tensors if t.name == name), None)

    def storage(self, storage_id: str) -> StorageInfo | None:
        """The storage with id ``storage_id``, or None."""
        return next((s for s in self.storages if s.id == storage_id), None)

    def to_json(self) -> dict[str, Any]:
        """The `tensors`, `storages` and `others` of a contract-3 step."""
        return {
            "tensors": {t.name: t.to_json() for t in self.tensors},
            "storages": [s.to_json() for s in self.storages],
            "others": {o.name: o.to_json() for o in self.others},
        }


def dtype_name(dtype: torch.dtype) -> str:
    """`float32` for torch.float32."""
    return str(dtype).removeprefix("torch.")


def _plain_number(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, complex):
        return (_plain_number(value.real), _plain_number(value.imag))
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    return value


def _freeze(values: Any) -> Nested:
    if isinstance(values, list):
        return tuple(_freeze(v) for v in values)
    return _plain_number(values)


def to_plain(values: Nested | None) -> Any:
    """Nested tuples (as kept in a snapshot) back to JSON lists."""
    if isinstance(values, tuple):
        return [to_plain(v) for v in values]
    return values


def _values(tensor: torch.Tensor, limit: int = MAX_VALUES) -> Nested | None:
    if tensor.is_sparse or tensor.device.type == "meta" or tensor.numel() > limit:
        return None
    data = tensor.detach()
    if data.device.type != "cpu":
        data = data.cpu()
    if data.dtype in (torch.bfloat16, torch.float16):
        data = data.float()
    return _freeze(data.tolist())


def _storage_key(tensor: torch.Tensor) -> tuple[str, int] | None:
    """Memory identity of ``tensor``'s storage: (device, address).

    Non-empty storages are the same when their address is; an empty storage has
    no address, so it is only ever the same as itself.
    """
    try:
        storage = tensor.untyped_storage()
    except (RuntimeError, NotImplementedError):
        return None
    pointer = storage.data_ptr()
    if storage.nbytes() == 0 or pointer == 0:
        return (f"{tensor.device}#empty", storage._cdata)
    return (str(tensor.device), pointer)


_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$")


def clean_message(message: str) -> str:
    """A warning's text without torch's "(Triggered internally at ...)" suffix."""
    return _TRIGGERED.sub("", message)


def _grad_fn_name(tensor: torch.Tensor) -> str | None:
    try:
        grad_fn = tensor.grad_fn
    except RuntimeError:
        return "Invalid"
    if grad_fn is None:
        return None
    # The name torch's repr shows (`grad_fn=<CopySlices>`); name() adds a C++ namespace to some nodes.
    return type(grad_fn).__name__


def _version(tensor: torch.Tensor) -> int | None:
    if tensor.is_inference():
        return None
    return tensor._version


def _is_leaf(tensor: torch.Tensor) -> bool | None:
    # A split/unbind output whose base was changed in place refuses to say.
    try:
        return tensor.is_leaf
    except RuntimeError:
        return None


def _grad(tensor: torch.Tensor, is_leaf: bool | None) -> torch.Tensor | None:
    # Only where torch reads `.grad` silently: leaves and tensors that retain grad.
    if is_leaf or tensor.retains_grad:
        return tensor.grad
    return None


def _short_repr(value: object) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a repr that raises is still shown, never crashes
        text = f"<{type(value).__name__}: repr failed: {exc}>"
    if len(text) > MAX_REPR:
        text = text[:MAX_REPR] + " ..."
    return text


def _storage_cells(tensor: torch.Tensor) -> tuple[Nested, int]:
    """The storage under ``tensor`` as elements of its dtype: (first cells, count)."""
    storage = tensor.untyped_storage()
    count = storage.nbytes() // tensor.element_size()
    if count == 0 or tensor.device.type == "meta":
        return (), count
    whole = tensor.detach().as_strided((count,), (1,), 0)
    return _values(whole[:MAX_STORAGE_CELLS], MAX_STORAGE_CELLS), count


def take_snapshot(namespace: Mapping[str, Any]) -> Snapshot:
    """Read every name of ``namespace`` without side effects."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.no_grad():
            return _take(namespace)


def _take(namespace: Mapping[str, Any]) -> Snapshot:
    tensors: list[TensorInfo] = []
    others: list[OtherInfo] = []
    storage_ids: dict[tuple[str, int], str] = {}
    members: dict[str, list[str]] = {}
    first_viewer: dict[str, torch.Tensor] = {}
    named_tensors = {n: v for n, v in namespace.items() if isinstance(v, torch.Tensor)}
    for name, value in namespace.items():
        if not isinstance(value, torch.Tensor):
            others.append(OtherInfo(name, type(value).__name__, _short_repr(value)))
            continue
        key = _storage_key(value)
        storage_id = None
        if key is not None:
            storage_id = storage_ids.setdefault(key, f"S{len(storage_ids)}")
            members.setdefault(storage_id, []).append(name)
            first_viewer.setdefault(storage_id, value)
        is_leaf = _is_leaf(value)
        grad = _grad(value, is_leaf)
        sparse = value.is_sparse
        tensors.append(
            TensorInfo(
                name=name,
                shape=tuple(value.shape),
                dtype=dtype_name(value.dtype),
                device=str(value.device),
                values=_values(value),
                requires_grad=value.requires_grad,
                is_leaf=is_leaf,
                grad_fn=_grad_fn_name(value),
                version=_version(value),
                grad=None if grad is None else _values(grad),
                grad_shape=None if grad is None else tuple(grad.shape),
                storage=storage_id,
                storage_offset=None if sparse else value.storage_offset(),
                stride=None if sparse else tuple(value.stride()),
                numel=value.numel(),
                element_size=value.element_size(),
                is_view=value._is_view(),
                repr=_short_repr(value),
                object_id=id(value),
                graph=autograd_graph(value, named_tensors),
            )
        )
    storages = []
    for key, storage_id in storage_ids.items():
        viewer = first_viewer[storage_id]
        cells, count = _storage_cells(viewer)
        storages.append(
            StorageInfo(
                id=storage_id,
                nbytes=viewer.untyped_storage().nbytes(),
                device=str(viewer.device),
                tensors=tuple(members[storage_id]),
                dtype=dtype_name(viewer.dtype),
                element_size=viewer.element_size(),
                cells=cells,
                cell_count=count,
                version=_version(viewer),
                key=key,
            )
        )
    return Snapshot(tuple(tensors), tuple(storages), tuple(others))


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

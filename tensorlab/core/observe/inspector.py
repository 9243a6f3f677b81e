"""Side-effect-free snapshots of what torch holds.

A snapshot is plain immutable data (:mod:`tensorlab.core.protocol.snapshot`): no live
tensor survives in it. Taking one bumps no version counter, records no graph
node, accumulates no gradient and raises or prints no warning: values are read
through ``detach()``, ``.grad`` is read only where torch reads it silently
(leaves and tensors that retain grad).

An :class:`Inspector` follows one namespace over time. It re-reads only what
changed (a tensor's values are compared with a copy of what was read last time,
so writes that bypass the version counter are seen too), reuses unchanged
:class:`TensorInfo` objects between snapshots (memory grows with the changes,
not with steps × names), and gives each storage a label that it keeps for as
long as a name views it, numbered in order of first appearance in the program.
"""

from __future__ import annotations

import dataclasses
import math
import re
import warnings
import weakref
from collections.abc import Collection, Mapping
from typing import Any, TypeVar

import torch

from tensorlab.core.observe.autograd_graph import autograd_graph
from tensorlab.core.observe.reprs import bounded_repr
from tensorlab.core.protocol.snapshot import (
    MAX_REPR,
    MAX_STORAGE_CELLS,
    MAX_VALUES,
    Nested,
    OtherInfo,
    Snapshot,
    StorageInfo,
    TensorInfo,
    covered_cells,
    to_plain,
)

__all__ = [
    "TensorInfo",
    "StorageInfo",
    "OtherInfo",
    "Snapshot",
    "Inspector",
    "take_snapshot",
    "to_plain",
    "dtype_name",
    "covered_cells",
    "clean_message",
    "MAX_VALUES",
    "MAX_STORAGE_CELLS",
    "MAX_REPR",
    "MAX_SNAPSHOT_VALUES",
]

# Values listed in one snapshot, over all tensors: beyond it, further tensors have values = None,
# so that many names over large tensors cannot make every step's snapshot huge.
MAX_SNAPSHOT_VALUES = 100_000


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
        if values and isinstance(values[0], float) and not isinstance(values[0], list):
            # The common case: a flat list of finite floats needs no conversion.
            if all(v - v == 0.0 for v in values):
                return tuple(values)
        return tuple(_freeze(v) for v in values)
    return _plain_number(values)


def _readable(tensor: torch.Tensor) -> torch.Tensor | None:
    """``tensor`` detached, as a tensor whose elements can be listed (None where they cannot)."""
    if tensor.is_sparse or tensor.device.type == "meta":
        return None
    return tensor.detach()


def _listed(data: torch.Tensor) -> Nested:
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


class _Read:
    """What was last read from one tensor object: a copy to compare with, and the values."""

    __slots__ = ("ref", "copy", "values")

    def __init__(self, ref: weakref.ref[torch.Tensor], copy: torch.Tensor | None, values: Nested) -> None:
        self.ref = ref
        self.copy = copy
        self.values = values


class _ValueCache:
    """Values of tensors, re-read only when their elements changed.

    Keyed by tensor object (held weakly): a second name for the same tensor, or a
    later step that left it alone, costs one comparison instead of a new list.
    Within one snapshot, tensors that view the same elements of the same memory the
    same way (thirty ``detach()`` aliases of one tensor) share one read.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._reads: dict[int, _Read] = {}
        self._same_view: dict[tuple[Any, ...], Nested] = {}

    def start(self) -> None:
        """A new snapshot begins: memory may have changed since the last one."""
        self._same_view = {}

    def values(self, tensor: torch.Tensor) -> Nested | None:
        if tensor.numel() > self.limit:
            return None
        data = _readable(tensor)
        if data is None:
            return None
        # Same address, element type, shape, strides and conj/neg bits: the same values, read once.
        view = _view_key(data)
        shared = self._same_view.get(view) if view is not None else None
        if shared is not None:
            return shared
        key = id(tensor)
        read = self._reads.get(key)
        if read is not None and read.ref() is tensor and _unchanged(read.copy, data):
            if view is not None:
                self._same_view[view] = read.values
            return read.values
        values = _listed(data)
        if view is not None:
            self._same_view[view] = values
        def forget(_: weakref.ref[torch.Tensor], key: int = key) -> None:
            self._reads.pop(key, None)

        try:
            ref = weakref.ref(tensor, forget)
        except TypeError:
            return values
        self._reads[key] = _Read(ref, data.clone(), values)
        return values


def _view_key(data: torch.Tensor) -> tuple[Any, ...] | None:
    """What fixes a tensor's values given its memory (None: do not share its read)."""
    if data.is_quantized or data.is_nested or not data.numel():
        return None   # a quantized tensor's values also depend on its scale; nested ones have no strides
    try:
        return (data.data_ptr(), data.dtype, data.device, data.layout, tuple(data.shape), tuple(data.stride()),
                data.is_conj(), data.is_neg())
    except (RuntimeError, NotImplementedError):
        return None


class _CellCache:
    """The first cells of each storage, re-read only when they changed (keyed by storage)."""

    def __init__(self) -> None:
        self._reads: dict[tuple[str, int], tuple[torch.Tensor, Nested]] = {}
        self._seen: dict[tuple[str, int], tuple[torch.Tensor, Nested]] = {}

    def values(self, key: tuple[str, int], cells: torch.Tensor) -> Nested:
        data = _readable(cells)
        if data is None:
            return ()
        read = self._reads.get(key)
        if read is not None and _unchanged(read[0], data):
            self._seen[key] = read
            return read[1]
        values = _listed(data)
        self._seen[key] = (data.clone(), values)
        return values

    def end_snapshot(self) -> None:
        """Keep only the storages the last snapshot listed."""
        self._reads, self._seen = self._seen, {}


def _unchanged(copy: torch.Tensor | None, data: torch.Tensor) -> bool:
    if copy is None or copy.dtype != data.dtype or copy.shape != data.shape or copy.device != data.device:
        return False
    if data.is_floating_point() or data.is_complex():
        # Bit for bit: torch.equal calls 0.0 and -0.0 equal (and NaN unequal to itself).
        try:
            return bool(torch.equal(copy.reshape(-1).view(torch.uint8), data.reshape(-1).view(torch.uint8)))
        except RuntimeError:
            pass
    return bool(torch.equal(copy, data))


_Part = TypeVar("_Part", StorageInfo, OtherInfo)


def _same_or(previous: _Part | None, part: _Part) -> _Part:
    """``previous`` if ``part`` says the same (the object the last snapshot held), else ``part``.

    Cells are compared as objects: the cell cache hands out the same tuple while the memory is
    unchanged bit for bit (``==`` would take -0.0 for 0.0)."""
    if previous is None:
        return part
    for field in dataclasses.fields(part):
        old, new = getattr(previous, field.name), getattr(part, field.name)
        if (old is not new) if field.name == "cells" else (old != new):
            return part
    return previous


class Inspector:
    """Snapshots of one namespace over time (see the module docstring).

    ``values_limit`` caps the elements read per tensor (contract 3: 10,000);
    ``snapshot_values`` caps the values listed per snapshot over all tensors.
    """

    def __init__(self, values_limit: int = MAX_VALUES, snapshot_values: int = MAX_SNAPSHOT_VALUES) -> None:
        self.values_limit = values_limit
        self.snapshot_values = snapshot_values
        self._values = _ValueCache(values_limit)
        self._grads = _ValueCache(values_limit)
        self._cells = _CellCache()
        self._labels: dict[tuple[str, int], str] = {}
        self._next_label = 0
        self._infos: dict[str, TensorInfo] = {}
        self._storages: dict[str, StorageInfo] = {}
        self._others: dict[str, OtherInfo] = {}

    def reset(self) -> None:
        """Forget every label and cached read (a new program starts)."""
        self.__init__(self.values_limit, self.snapshot_values)  # type: ignore[misc]

    def seed_labels(self, labels: Mapping[tuple[str, int], str], next_label: int) -> None:
        """Take over storage labels (after a replay in a fresh process, from the earlier snapshot)."""
        self._labels = dict(labels)
        self._next_label = next_label

    @property
    def next_label(self) -> int:
        """The number the next new storage will get."""
        return self._next_label

    def take(self, namespace: Mapping[str, Any], graphs: Collection[str] | bool = False) -> Snapshot:
        """Read every name of ``namespace`` without side effects.

        ``graphs``: the names whose autograd graph to read (True: every tensor's).
        """
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with torch.no_grad():
                return self._take(namespace, graphs)

    # -- reading ---------------------------------------------------------------
    def _label(self, key: tuple[str, int], seen: dict[tuple[str, int], str]) -> str:
        label = seen.get(key)
        if label is None:
            label = self._labels.get(key)
            if label is None:
                label = f"S{self._next_label}"
                self._next_label += 1
            seen[key] = label
        return label

    def _take(self, namespace: Mapping[str, Any], graphs: Collection[str] | bool) -> Snapshot:
        tensors: list[TensorInfo] = []
        others: list[OtherInfo] = []
        seen: dict[tuple[str, int], str] = {}
        members: dict[str, list[str]] = {}
        first_viewer: dict[str, torch.Tensor] = {}
        keys: dict[str, tuple[str, int]] = {}
        named_tensors = {n: v for n, v in namespace.items() if isinstance(v, torch.Tensor)}
        budget = self.snapshot_values
        self._values.start()
        self._grads.start()
        infos: dict[str, TensorInfo] = {}
        arrays: list[tuple[str, Any]] = []
        for name, value in namespace.items():
            if not isinstance(value, torch.Tensor):
                if _is_array(value):
                    arrays.append((name, value))
                others.append(OtherInfo(name, type(value).__name__, bounded_repr(value, MAX_REPR)))
                continue
            key = _storage_key(value)
            storage_id = None
            if key is not None:
                storage_id = self._label(key, seen)
                keys[storage_id] = key
                members.setdefault(storage_id, []).append(name)
                first_viewer.setdefault(storage_id, value)
            info = self._tensor_info(name, value, storage_id, budget, named_tensors,
                                     graphs is True or (not isinstance(graphs, bool) and name in graphs))
            if info.values is not None:
                budget -= info.numel
            infos[name] = info
            tensors.append(info)
        # A label lives as long as some name views its storage.
        self._labels = dict(seen)
        self._infos = infos
        array_storages = self._array_storages(arrays, keys, first_viewer) if arrays else {}
        if array_storages:
            others = [OtherInfo(o.name, o.type, o.repr, array_storages.get(o.name)) for o in others]
        others = [_same_or(self._others.get(o.name), o) for o in others]
        self._others = {o.name: o for o in others}
        storages = []
        for storage_id, key in keys.items():
            viewer = first_viewer[storage_id]
            cells, count = self._storage_cells(key, viewer)
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
                    arrays=tuple(n for n, s in array_storages.items() if s == storage_id),
                )
            )
        # Parts equal to the last snapshot's are that snapshot's objects: shared, they cross to the
        # window once and are kept once (a long program's snapshots stay linear in memory).
        storages = [_same_or(self._storages.get(s.id), s) for s in storages]
        self._storages = {s.id: s for s in storages}
        self._cells.end_snapshot()
        return Snapshot(tuple(tensors), tuple(storages), tuple(others))

    def _tensor_info(self, name: str, value: torch.Tensor, storage_id: str | None, budget: int,
                     named_tensors: Mapping[str, torch.Tensor], with_graph: bool) -> TensorInfo:
        is_leaf = _is_leaf(value)
        grad = _grad(value, is_leaf)
        sparse = value.is_sparse
        numel = value.numel()
        values = self._values.values(value) if numel <= budget else None
        grad_values = None if grad is None else self._grads.values(grad)
        info = TensorInfo(
            name=name,
            shape=tuple(value.shape),
            dtype=dtype_name(value.dtype),
            device=str(value.device),
            values=values,
            requires_grad=value.requires_grad,
            is_leaf=is_leaf,
            grad_fn=_grad_fn_name(value),
            version=_version(value),
            grad=grad_values,
            grad_shape=None if grad is None else tuple(grad.shape),
            storage=storage_id,
            storage_offset=None if sparse else int(value.storage_offset()),
            stride=None if sparse else tuple(value.stride()),
            numel=numel,
            element_size=value.element_size(),
            is_view=value._is_view(),
            object_id=id(value),
            graph=autograd_graph(value, named_tensors) if with_graph else None,
            retains_grad=bool(value.retains_grad),
        )
        old = self._infos.get(name)
        if old is not None and info.graph is None and old.graph is None and _same(old, info):
            return old  # unchanged: share it with the previous snapshot
        return info

    def _storage_cells(self, key: tuple[str, int], tensor: torch.Tensor) -> tuple[Nested, int]:
        """The storage under ``tensor`` as elements of its dtype: (first cells, count)."""
        storage = tensor.untyped_storage()
        count = storage.nbytes() // tensor.element_size()
        if count == 0 or tensor.device.type == "meta" or tensor.is_sparse:
            return (), count
        whole = tensor.detach().as_strided((count,), (1,), 0)
        return self._cells.values(key, whole[:MAX_STORAGE_CELLS]), count

    @staticmethod
    def _array_storages(arrays: list[tuple[str, Any]], keys: dict[str, tuple[str, int]],
                        viewers: dict[str, torch.Tensor]) -> dict[str, str]:
        """Which listed storage each NumPy array views (`x.numpy()` shares memory with `x`)."""
        found = {}
        for name, array in arrays:
            address = array.__array_interface__["data"][0]
            for storage_id, (device, start) in keys.items():
                if device != "cpu" or isinstance(start, int) and start == 0:
                    continue
                size = viewers[storage_id].untyped_storage().nbytes()
                if start <= address < start + size:
                    found[name] = storage_id
                    break
        return found


def _is_array(value: Any) -> bool:
    numpy = __import__("sys").modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _same(a: TensorInfo, b: TensorInfo) -> bool:
    """Equal facts, comparing values by identity (an unchanged read returns the same tuple)."""
    return (a.values is b.values and a.grad is b.grad and a.shape == b.shape and a.dtype == b.dtype
            and a.device == b.device and a.requires_grad == b.requires_grad and a.is_leaf == b.is_leaf
            and a.grad_fn == b.grad_fn and a.version == b.version and a.grad_shape == b.grad_shape
            and a.storage == b.storage and a.storage_offset == b.storage_offset and a.stride == b.stride
            and a.is_view == b.is_view and a.object_id == b.object_id and a.retains_grad == b.retains_grad)


def take_snapshot(namespace: Mapping[str, Any], graphs: Collection[str] | bool = True) -> Snapshot:
    """One snapshot of ``namespace`` (every graph read by default), with no earlier history."""
    return Inspector().take(namespace, graphs)

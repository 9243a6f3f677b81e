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

import contextlib
import dataclasses
import itertools
import math
import operator
import os
import re
import warnings
import weakref
from collections.abc import Collection, Iterable, Mapping
from typing import Any, TypeVar

import torch

from tensorlab.core.files.safe_text import visible
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
    "same_memory",
    "MAX_VALUES",
    "MAX_STORAGE_CELLS",
    "MAX_REPR",
    "MAX_SNAPSHOT_VALUES",
    "MAX_PARTS",
    "MAX_KEY_CHARS",
    "reached_tensors",
]

# Values listed in one snapshot, over all tensors: beyond it, further tensors have values = None,
# so that many names over large tensors cannot make every step's snapshot huge.
MAX_SNAPSHOT_VALUES = 100_000

# Contract 3 (issue #16): a tensor a name reaches inside a list, a tuple, a dict with string keys or a module
# is a row under the Python that reads it (`parts[0]`, `sd['weight']`, `net[0].bias`): the first MAX_PARTS
# items of each, a dict key written as its repr, escaped and cut to MAX_KEY_CHARS characters.
MAX_PARTS = 64
MAX_KEY_CHARS = 40


def _key_text(key: str) -> str:
    """``key`` as its repr in an index (`'weight'`), escaped and at most MAX_KEY_CHARS characters long."""
    text = visible(repr(key))
    if len(text) > MAX_KEY_CHARS:
        text = text[: MAX_KEY_CHARS - 2] + "…" + text[0]
    return text


def _module_path(path: str) -> str:
    """`0.weight` as `[0].weight`, `fc.bias` as `.fc.bias`: how Python reads a module's parameter."""
    return "".join(f"[{part}]" if part.isdigit() else f".{part}" for part in path.split("."))


def _parts(name: str, value: Any) -> Iterable[tuple[str, torch.Tensor]]:
    """The tensors ``value`` (bound to ``name``) holds, each under the expression that reads it."""
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(itertools.islice(value, MAX_PARTS)):
            if isinstance(item, torch.Tensor):
                yield f"{name}[{index}]", item
    elif isinstance(value, dict):
        for key, item in itertools.islice(value.items(), MAX_PARTS):
            if isinstance(key, str) and isinstance(item, torch.Tensor):
                yield f"{name}[{_key_text(key)}]", item
    elif isinstance(value, torch.nn.Module):
        # torch's own walk (a module of the subset has no code of the user's); its cost is bounded by the
        # cap on nesting the language keeps, and no more than MAX_PARTS entries of each are taken.
        for path, tensor in itertools.chain(itertools.islice(value.named_parameters(), MAX_PARTS),
                                            itertools.islice(value.named_buffers(), MAX_PARTS)):
            yield f"{name}{_module_path(path)}", tensor


def reached_tensors(namespace: Mapping[str, Any]) -> dict[str, tuple[str, torch.Tensor]]:
    """Every tensor a name of ``namespace`` reaches, by the expression that reads it, with the name:
    in order of the names, a container's tensors right after its name, in the container's own order."""
    found: dict[str, tuple[str, torch.Tensor]] = {}
    for name, value in namespace.items():
        if isinstance(value, torch.Tensor):
            found[name] = (name, value)
            continue
        for expression, tensor in _parts(name, value):
            unique, number = expression, 1
            while unique in found:   # two long keys cut to the same text
                number += 1
                unique = f"{expression}~{number}"
            found[unique] = (name, tensor)
    return found


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


def _tupled(values: Any) -> Nested:
    """``tolist()``'s nested lists as tuples, the numbers as they are (they need no conversion)."""
    if isinstance(values, list):
        if values and isinstance(values[0], list):
            return tuple(_tupled(v) for v in values)
        return tuple(values)
    return values


def _plain_already(data: torch.Tensor) -> bool:
    """Whether every element of ``data`` lists as a plain number (no NaN, infinity or complex pair to convert):
    asked of torch once, not of each of the Python numbers (a long run reads millions of them)."""
    if data.is_complex():
        return False
    if not data.is_floating_point():
        return True
    try:
        return bool(torch.isfinite(data).all())
    except (RuntimeError, TypeError):   # a dtype without isfinite: each number is looked at
        return False


def _listed(data: torch.Tensor) -> Nested:
    if data.device.type != "cpu":
        data = data.cpu()
    if data.dtype in (torch.bfloat16, torch.float16):
        data = data.float()
    if _plain_already(data):
        return _tupled(data.tolist())
    return _freeze(data.tolist())


class _Region:
    """One live storage's memory: ``[start, end)`` on ``device`` (an empty one: only itself)."""

    __slots__ = ("storage", "device", "start", "end", "empty")

    def __init__(self, storage: torch.UntypedStorage, device: str, start: int, end: int, empty: bool) -> None:
        self.storage = storage
        self.device = device
        self.start = start
        self.end = end
        self.empty = empty


def _region(tensor: torch.Tensor) -> _Region | None:
    """The memory ``tensor``'s storage occupies (None where torch has no storage for it: sparse)."""
    try:
        storage = tensor.untyped_storage()
    except (RuntimeError, NotImplementedError):
        return None
    pointer = storage.data_ptr()
    nbytes = storage.nbytes()
    empty = nbytes == 0 or pointer == 0   # no address (empty, meta): only the same as itself
    return _Region(storage, str(tensor.device), pointer, pointer + nbytes, empty)


def same_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether the storages of ``a`` and ``b`` overlap in memory (contract 3: then they share an id).

    ``torch.from_numpy(x[1:].numpy())`` has a storage object of its own, but its bytes are ``x``'s:
    the same memory. An empty storage is only the same as itself.
    """
    ra, rb = _region(a), _region(b)
    if ra is None or rb is None:
        return False
    if ra.storage is rb.storage:
        return True
    if ra.empty or rb.empty or ra.device != rb.device:
        return False
    return ra.start < rb.end and rb.start < ra.end


class _Group:
    """A connected group of overlapping live storages on one device: one storage id (contract 3)."""

    __slots__ = ("regions", "device", "start", "end", "names", "viewer")

    def __init__(self, region: _Region, name: str, viewer: torch.Tensor) -> None:
        self.regions = [region]
        self.device = region.device
        self.start = region.start
        self.end = region.end
        self.names = [name]
        self.viewer = viewer


def _groups(regions: list[tuple[str, torch.Tensor, _Region]]) -> list[_Group]:
    """The storage groups of ``regions`` (name, tensor, region), in order of first appearance.

    Two storages are one group when their byte ranges overlap, directly or through others
    (a sweep over the ranges sorted by start); an empty storage is a group of its own, shared
    only by the views of that same storage object.
    """
    parent = list(range(len(regions)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)   # the root is the earliest: order of first appearance

    by_object: dict[int, int] = {}
    addressed: list[int] = []
    for index, (_, _, region) in enumerate(regions):
        first = by_object.setdefault(id(region.storage), index)
        if first != index:
            join(first, index)
        elif not region.empty:
            addressed.append(index)
    # Overlapping ranges per device: sorted by start, a range joins the current run while it starts
    # before the run's end (adjacent ranges do not overlap).
    addressed.sort(key=lambda i: (regions[i][2].device, regions[i][2].start))
    head, device, end = -1, "", -1
    for index in addressed:
        region = regions[index][2]
        if head >= 0 and region.device == device and region.start < end:
            join(head, index)
            end = max(end, region.end)
        else:
            head, device, end = index, region.device, region.end
    groups: dict[int, _Group] = {}
    ordered: list[_Group] = []
    seen_storages: set[int] = set()
    for index, (name, tensor, region) in enumerate(regions):
        key = index if parent[index] == index else root(index)
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Group(region, name, tensor)
            ordered.append(group)
        else:
            group.names.append(name)
            if id(region.storage) not in seen_storages:
                group.regions.append(region)
                group.start = min(group.start, region.start)
                group.end = max(group.end, region.end)
        seen_storages.add(id(region.storage))
    return ordered


class _ObjectIds:
    """Numbers for live objects that are never given to another object (``id()`` is, once one dies).

    Keyed by ``id()`` but checked through a weak reference: a new tensor at a freed address gets a
    new number, so that a snapshot never takes it for the tensor that lived there.
    """

    # Per process (workers are forked from one server): numbers of one process never meet another's,
    # so that a snapshot taken before a worker restarted is not taken for one of the new worker's.
    _counter: tuple[int, itertools.count[int]] | None = None

    def __init__(self) -> None:
        self._ids: dict[int, tuple[weakref.ref[Any], int]] = {}

    @classmethod
    def _next(cls) -> int:
        pid = os.getpid()
        if cls._counter is None or cls._counter[0] != pid:
            cls._counter = (pid, itertools.count((pid & 0x3FFFFF) << 40 | 1))
        return next(cls._counter[1])

    def number(self, obj: Any) -> int:
        """``obj``'s number (the same for as long as it lives)."""
        key = id(obj)
        entry = self._ids.get(key)
        if entry is not None and entry[0]() is obj:
            return entry[1]
        number = self._next()
        try:
            ref = weakref.ref(obj, self._forget(key, number))
        except TypeError:
            return number
        self._ids[key] = (ref, number)
        return number

    def adopt(self, obj: Any, number: int) -> None:
        """Give ``obj`` the ``number`` an earlier snapshot of the same state gave the object in its place (after a
        replay rebuilt that state), so that the next snapshot does not take every tensor for a new one."""
        key = id(obj)
        try:
            self._ids[key] = (weakref.ref(obj, self._forget(key, number)), number)
        except TypeError:
            pass

    def _forget(self, key: int, number: int) -> Any:
        def forget(_: weakref.ref[Any]) -> None:
            entry = self._ids.get(key)
            if entry is not None and entry[1] == number:
                del self._ids[key]
        return forget


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


# Plain values whose repr cannot change while they are the same object.
_IMMUTABLE = frozenset({int, float, complex, str, bool, type(None), bytes})
# Items of a flat list or tuple that its bounded repr can show (each takes at least "1, ").
_SHOWN_ITEMS = MAX_REPR // 3 + 2
_HELD_ITEMS = 100_000


class _ReprCache:
    """The bounded repr of each non-tensor name, made again only when it may have changed.

    A name still bound to the same immutable value (held here, so its ``id()`` cannot be given to
    another object), or to the same flat list or tuple whose shown items are the same objects and
    whose length is the same, has the same repr: 500 names of lists cost 500 comparisons a step,
    not 500 reprs. Anything else (a list of tensors, an array) is written again.
    """

    def __init__(self) -> None:
        self._reads: dict[str, tuple[Any, tuple[Any, ...] | None, int, str]] = {}
        self._seen: dict[str, tuple[Any, tuple[Any, ...] | None, int, str]] = {}

    def text(self, name: str, value: Any) -> str:
        """``bounded_repr(value, MAX_REPR)``, from the last snapshot where it cannot have changed."""
        read = self._reads.get(name)
        kind = type(value)
        if read is not None and read[0] is value:
            if kind in _IMMUTABLE:
                self._seen[name] = read
                return read[3]
            if read[1] is not None and len(value) == read[2]:
                shown = value[:_SHOWN_ITEMS]
                if len(shown) == len(read[1]) and all(map(operator.is_, shown, read[1])):
                    self._seen[name] = read
                    return read[3]
        text = bounded_repr(value, MAX_REPR)
        head: tuple[Any, ...] | None = None
        if kind in (list, tuple):
            shown = tuple(value[:_SHOWN_ITEMS])
            if all(type(item) in _IMMUTABLE for item in shown):
                head = shown
        # Held until the next snapshot: only values small enough that keeping one a step longer is nothing.
        small = kind not in (str, bytes, list, tuple) or len(value) <= _HELD_ITEMS
        if small and (kind in _IMMUTABLE or head is not None):
            self._seen[name] = (value, head, len(value) if head is not None else 0, text)
        return text

    def end_snapshot(self) -> None:
        """Keep only what the last snapshot read (a name bound again lets its old value go)."""
        self._reads, self._seen = self._seen, {}


class _CellCache:
    """The first cells of each storage, re-read only when they changed (keyed by storage id)."""

    def __init__(self) -> None:
        self._reads: dict[str, tuple[torch.Tensor, Nested]] = {}
        self._seen: dict[str, tuple[torch.Tensor, Nested]] = {}

    def values(self, key: str, cells: torch.Tensor) -> Nested:
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
        # Bit for bit: torch.equal calls 0.0 and -0.0 equal (and NaN unequal to itself). Compared as
        # integers of the element's own width: torch.equal of bytes (uint8) takes a slow path, ~150x
        # slower than of int32 (4 ms for 10,000 floats), and it ran for every tensor at every step.
        bits = _SAME_WIDTH_INT.get(data.element_size(), torch.uint8)
        try:
            return bool(torch.equal(copy.reshape(-1).view(bits), data.reshape(-1).view(bits)))
        except RuntimeError:
            pass
    return bool(torch.equal(copy, data))


# An integer type of each element width, to compare floating values bit for bit (complex: two halves).
_SAME_WIDTH_INT = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64, 16: torch.int64}


_Part = TypeVar("_Part", StorageInfo, OtherInfo)


def _same_or(previous: _Part | None, part: _Part) -> _Part:
    """``previous`` if ``part`` says the same (the object the last snapshot held), else ``part``.

    Cells are compared as objects: the cell cache hands out the same tuple while the memory is
    unchanged bit for bit (``==`` would take -0.0 for 0.0)."""
    if previous is None:
        return part
    for name in _field_names(type(part)):
        old, new = getattr(previous, name), getattr(part, name)
        if (old is not new) if name == "cells" else (old != new):
            return part
    return previous


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    """The field names of a snapshot part's class (read once: ``dataclasses.fields`` builds a tuple per call,
    for every storage and name at every step)."""
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = tuple(field.name for field in dataclasses.fields(kind))
    return names


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
        # The label of every storage object the last snapshot listed, by id() and checked through a
        # weak reference: the label follows the memory's storage objects, never an address the
        # allocator may give to a new storage.
        self._labels: dict[int, tuple[weakref.ref[torch.UntypedStorage], str]] = {}
        self._array_labels: dict[int, tuple[weakref.ref[Any], str]] = {}
        self._next_label = 0
        self._objects = _ObjectIds()
        self._infos: dict[str, TensorInfo] = {}
        self._storages: dict[str, StorageInfo] = {}
        self._others: dict[str, OtherInfo] = {}
        self._reprs = _ReprCache()

    def reset(self) -> None:
        """Forget every label and cached read (a new program starts)."""
        self.__init__(self.values_limit, self.snapshot_values)  # type: ignore[misc]

    def adopt_labels(self, labelled: Iterable[tuple[torch.Tensor, str]], next_label: int) -> None:
        """Take over storage labels: each tensor's storage gets its label (after a replay in a fresh
        process, from the earlier snapshot of the same state)."""
        self._labels = {}
        for tensor, label in labelled:
            region = _region(tensor)
            if region is not None:
                self._remember(region.storage, label)
        self._next_label = next_label

    def adopt_objects(self, numbered: Iterable[tuple[Any, int]]) -> None:
        """Take over object numbers: each object gets the number an earlier snapshot of the same state gave it
        (after a replay: the tensors are new objects, the state they stand for is the same)."""
        for obj, number in numbered:
            self._objects.adopt(obj, number)

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
    def _remember(self, storage: torch.UntypedStorage, label: str) -> None:
        try:
            self._labels[id(storage)] = (weakref.ref(storage), label)
        except TypeError:  # pragma: no cover - torch's storages take weak references
            pass

    def _old_label(self, storage: torch.UntypedStorage) -> str | None:
        entry = self._labels.get(id(storage))
        if entry is not None and entry[0]() is storage:
            return entry[1]
        return None

    def _label_groups(self, groups: list[_Group], arrays: list[tuple[str, Any]]) -> list[str]:
        """A label per group: the lowest one a storage of it had (it keeps the memory's id while some
        name views it), else the next number (order of first appearance).

        A NumPy array is a name over the memory too: while one lives (it keeps its memory alive), the
        label it was seen under goes to the storage that views its memory again (``a = x.numpy()``,
        ``x = None``, ``y = torch.from_numpy(a)``: ``y`` is on ``x``'s memory, under its label).
        """
        starts = [(array, _array_start(array)) for _, array in arrays]
        labels: list[str] = []
        taken: set[str] = set()
        for group in groups:
            if len(group.regions) == 1 and not starts:   # the common case: one storage, no arrays
                label = self._old_label(group.regions[0].storage)
                if label is not None and label not in taken:
                    taken.add(label)
                    labels.append(label)
                    continue
            old = {label for region in group.regions if (label := self._old_label(region.storage))}
            if group.device == "cpu" and group.start < group.end:
                old |= {label for array, start in starts if group.start <= start < group.end
                        and (label := self._old_array_label(array)) is not None}
            label = next((o for o in sorted(old, key=_label_number) if o not in taken), None)
            if label is None:
                label = f"S{self._next_label}"
                self._next_label += 1
            taken.add(label)
            labels.append(label)
        array_labels: dict[int, tuple[weakref.ref[Any], str]] = {}
        for array, start in starts:
            label = next((lab for group, lab in zip(groups, labels) if group.device == "cpu"
                          and group.start <= start < group.end), None) or self._old_array_label(array)
            if label is not None:
                with contextlib.suppress(TypeError):
                    array_labels[id(array)] = (weakref.ref(array), label)
        self._array_labels = array_labels
        previous, self._labels = self._labels, {}
        for group, label in zip(groups, labels):
            for region in group.regions:
                key = id(region.storage)
                entry = previous.get(key)
                if entry is not None and entry[1] == label and entry[0]() is region.storage:
                    self._labels[key] = entry    # the same storage under the same label: keep its reference
                else:
                    self._remember(region.storage, label)
        return labels

    def _old_array_label(self, array: Any) -> str | None:
        entry = self._array_labels.get(id(array))
        if entry is not None and entry[0]() is array:
            return entry[1]
        return None

    def _take(self, namespace: Mapping[str, Any], graphs: Collection[str] | bool) -> Snapshot:
        tensors: list[TensorInfo] = []
        others: list[OtherInfo] = []
        reached = reached_tensors(namespace)
        named_tensors = {n: v for n, (_, v) in reached.items()}
        regions: list[tuple[str, torch.Tensor, _Region]] = []
        for name, value in named_tensors.items():
            region = _region(value)
            if region is not None:
                regions.append((name, value, region))
        groups = _groups(regions)
        arrays = [(n, v) for n, v in namespace.items() if not isinstance(v, torch.Tensor) and _is_array(v)]
        labels = self._label_groups(groups, arrays)
        region_of = {name: region for name, _, region in regions}
        where: dict[str, tuple[str, int]] = {}   # name -> (storage id, byte start of its storage in the group)
        for group, label in zip(groups, labels):
            for name in group.names:
                region = region_of[name]
                where[name] = (label, 0 if region.empty else region.start - group.start)
        budget = self.snapshot_values
        self._values.start()
        self._grads.start()
        infos: dict[str, TensorInfo] = {}
        # The buffers of the modules the names hold, by object (a buffer is a plain tensor: only its module knows).
        buffers = {id(b) for v in namespace.values() if isinstance(v, torch.nn.Module)
                   for b in itertools.islice(v.buffers(), MAX_PARTS)}
        for name, value in namespace.items():
            if not isinstance(value, torch.Tensor):
                others.append(OtherInfo(name, type(value).__name__, self._reprs.text(name, value)))
        for name, (root, value) in reached.items():
            storage_id, start = where.get(name, (None, 0))
            info = self._tensor_info(name, value, storage_id, start, budget, named_tensors,
                                     graphs is True or (not isinstance(graphs, bool)
                                                        and (name in graphs or root in graphs)),
                                     id(value) in buffers)
            if info.values is not None:
                budget -= info.numel
            infos[name] = info
            tensors.append(info)
        self._infos = infos
        array_storages = self._array_storages(arrays, groups, labels) if arrays else {}
        if array_storages:
            others = [OtherInfo(o.name, o.type, o.repr, array_storages.get(o.name)) for o in others]
        self._reprs.end_snapshot()
        others = [_same_or(self._others.get(o.name), o) for o in others]
        self._others = {o.name: o for o in others}
        storages = []
        for group, label in zip(groups, labels):
            viewer = group.viewer
            cells, count = self._storage_cells(label, group)
            storages.append(
                StorageInfo(
                    id=label,
                    nbytes=group.end - group.start,
                    device=group.device,
                    tensors=tuple(group.names),
                    dtype=dtype_name(viewer.dtype),
                    element_size=viewer.element_size(),
                    cells=cells,
                    cell_count=count,
                    version=_version(viewer),
                    key=(group.device, group.start),
                    arrays=tuple(n for n, s in array_storages.items() if s == label),
                )
            )
        # Parts equal to the last snapshot's are that snapshot's objects: shared, they cross to the
        # window once and are kept once (a long program's snapshots stay linear in memory).
        storages = [_same_or(self._storages.get(s.id), s) for s in storages]
        self._storages = {s.id: s for s in storages}
        self._cells.end_snapshot()
        return Snapshot(tuple(tensors), tuple(storages), tuple(others))

    def _tensor_info(self, name: str, value: torch.Tensor, storage_id: str | None, start: int, budget: int,
                     named_tensors: Mapping[str, torch.Tensor], with_graph: bool, buffer: bool = False) -> TensorInfo:
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
            object_id=self._objects.number(value),
            graph=autograd_graph(value, named_tensors) if with_graph else None,
            retains_grad=bool(value.retains_grad),
            storage_start=start,
            buffer=buffer,
        )
        old = self._infos.get(name)
        if old is not None and info.graph is None and old.graph is None and _same(old, info):
            return old  # unchanged: share it with the previous snapshot
        return info

    def _storage_cells(self, label: str, group: _Group) -> tuple[Nested, int]:
        """The group's memory as elements of its first viewer's dtype: (first cells, count).

        Read as bytes, the way memory holds them: never through a viewer's lazy conj/neg bit
        (an ``x.H`` view shows ``1-2j`` where memory holds ``1+2j``) nor its strides.
        """
        viewer = group.viewer
        size = viewer.element_size()
        count = (group.end - group.start) // size if size else 0
        if count == 0 or viewer.device.type == "meta" or viewer.is_sparse:
            return (), count
        raw = _group_bytes(group, min(count, MAX_STORAGE_CELLS) * size)
        if raw is None:
            return (), count
        try:
            cells = raw.view(_plain_dtype(viewer))
        except (RuntimeError, TypeError):
            return (), count
        return self._cells.values(label, cells), count

    @staticmethod
    def _array_storages(arrays: list[tuple[str, Any]], groups: list[_Group], labels: list[str]) -> dict[str, str]:
        """Which listed storage each NumPy array views (`x.numpy()` shares memory with `x`)."""
        found = {}
        for name, array in arrays:
            address = _array_start(array)
            for group, label in zip(groups, labels):
                if group.device != "cpu" or group.start == group.end:
                    continue
                if group.start <= address < group.end:
                    found[name] = label
                    break
        return found


def _label_number(label: str) -> int:
    return int(label[1:]) if label[1:].isdigit() else 1 << 62


def _plain_dtype(tensor: torch.Tensor) -> torch.dtype:
    """The dtype to show cells in: the viewer's, or for a quantized one the integers it stores."""
    if tensor.is_quantized:
        return {torch.quint8: torch.uint8, torch.qint8: torch.int8, torch.qint32: torch.int32}.get(
            tensor.dtype, torch.uint8)
    return tensor.dtype


def _group_bytes(group: _Group, nbytes: int) -> torch.Tensor | None:
    """The first ``nbytes`` of a group's memory as a uint8 tensor (None where torch cannot read them)."""
    if len(group.regions) == 1:   # the common case: one storage holds all of it, read in place
        region = group.regions[0]
        try:
            return torch.empty(0, dtype=torch.uint8, device=region.storage.device).set_(
                region.storage, 0, (nbytes,), (1,))
        except (RuntimeError, TypeError, NotImplementedError):
            return None
    pieces = []
    for region in sorted(group.regions, key=lambda r: r.start):
        offset = region.start - group.start
        if offset >= nbytes or region.empty:
            continue
        take = min(region.end - region.start, nbytes - offset)
        try:
            raw = torch.empty(0, dtype=torch.uint8, device=region.storage.device)
            raw.set_(region.storage, 0, (take,), (1,))
        except (RuntimeError, TypeError, NotImplementedError):
            return None
        if offset == 0 and take == nbytes:
            return raw     # one storage holds all of it: read in place
        pieces.append((offset, raw))
    if not pieces:
        return None
    buffer = torch.zeros(nbytes, dtype=torch.uint8, device=pieces[0][1].device)
    for offset, raw in pieces:
        buffer[offset:offset + raw.numel()] = raw
    return buffer


def _array_start(array: Any) -> int:
    """The address of a NumPy array's first element."""
    return int(array.__array_interface__["data"][0])


def _is_array(value: Any) -> bool:
    numpy = __import__("sys").modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _same(a: TensorInfo, b: TensorInfo) -> bool:
    """Equal facts, comparing values by identity (an unchanged read returns the same tuple)."""
    return (a.values is b.values and a.grad is b.grad and a.shape == b.shape and a.dtype == b.dtype
            and a.device == b.device and a.requires_grad == b.requires_grad and a.is_leaf == b.is_leaf
            and a.grad_fn == b.grad_fn and a.version == b.version and a.grad_shape == b.grad_shape
            and a.storage == b.storage and a.storage_offset == b.storage_offset and a.stride == b.stride
            and a.is_view == b.is_view and a.object_id == b.object_id and a.retains_grad == b.retains_grad
            and a.storage_start == b.storage_start and a.buffer == b.buffer)


def take_snapshot(namespace: Mapping[str, Any], graphs: Collection[str] | bool = True) -> Snapshot:
    """One snapshot of ``namespace`` (every graph read by default), with no earlier history."""
    return Inspector().take(namespace, graphs)

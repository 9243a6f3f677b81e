"""What the storage map draws, as data: strips (storages) with their cells and bands (tensors)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tensorlab.core.lessons.source_import import may_differ_mark
from tensorlab.core.lessons.tensor_rows import same_tensor
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import Snapshot, StorageInfo, TensorInfo, covered_cells
from tensorlab.ui.widgets.i18n import current_language, tr

__all__ = ["MAX_CELLS", "BandModel", "GradModel", "StripModel", "Culprit", "strip_models", "culprit_marks", "module_of",
           "module_groups", "sharing_text"]

MAX_CELLS = 12          # cells drawn per strip; the rest is counted


@dataclass(frozen=True)
class BandModel:
    """One tensor over one strip: which cells it covers, in the tensor's element order."""

    name: str
    color_index: int
    cells: tuple[int, ...]          # strip cell indices, in the tensor's element order
    label: str
    same_as: str | None = None      # the earlier band that is the same tensor object (`alias.weight is online.weight`)
    # The label as the map measures it: its version written with at least three digits, so that a version
    # counting up is a text update, never a wider name column (and every strip laid out again).
    wide_label: str = ""
    may_grad: bool = False          # a leaf that requires grad: a `.grad` may come under it (its name's room kept)


@dataclass(frozen=True)
class GradModel:
    """A tensor's ``.grad``: memory of its own, drawn as a band of its own next to its tensor's band."""

    owner: str                      # the tensor whose gradient it is
    color_index: int
    shape: tuple[int, ...]
    values: tuple[object, ...]      # its first elements, in order
    changed: frozenset[int]         # elements the last step set or changed (all of them: a new gradient)

    @property
    def name(self) -> str:
        """How the map labels it (``x.grad``)."""
        return f"{self.owner}.grad"


@dataclass(frozen=True)
class StripModel:
    """One storage as drawn: its cells, which changed, and its bands (and its tensors' gradients)."""

    storage: StorageInfo
    values: tuple[object, ...]
    changed: frozenset[int]
    new: bool
    bands: tuple[BandModel, ...]
    grads: tuple[GradModel, ...] = ()
    culprit: Culprit | None = None   # the earlier write that changed a saved tensor the failing backward needed


@dataclass(frozen=True)
class Culprit:
    """The cells an earlier step wrote into a saved tensor's memory, when the last step's backward() failed on it."""

    steps: tuple[int, ...]          # the steps (1-based, as the explanation names them)
    cells: frozenset[int]           # the strip's cells those steps wrote (the tensor's cells where not known)


def _band_cells(info: TensorInfo, storage: StorageInfo) -> tuple[int, ...]:
    if info.stride is None or info.storage_offset is None:
        return ()
    return _cells(info.shape, info.stride, info.storage_offset, info.element_size, storage.element_size,
                  info.storage_start)


@functools.lru_cache(maxsize=4096)
def _cells(shape: tuple[int, ...], stride: tuple[int, ...], offset: int, size: int, cell_size: int,
           start: int = 0) -> tuple[int, ...]:
    cells = covered_cells(shape, stride, offset, MAX_CELLS * 4)
    if size == cell_size and start == 0:
        return cells
    # A view with another element size (view_as_real, .view(dtype)), or a storage that starts inside
    # the memory (`torch.from_numpy(x[1:].numpy())`, `start` bytes in): map through bytes.
    return tuple((start + c * size) // cell_size for c in cells)


def _band_label(info: TensorInfo, wide: bool = False) -> str:
    shape = "[" + ", ".join(map(str, info.shape)) + "]"
    stride = "(" + ", ".join(map(str, info.stride or ())) + ")"
    version: object = info.version if info.version is not None else "-"
    if wide and info.version is not None:
        version = str(info.version).rjust(3, "0")   # digits are as wide as each other in the map's fonts
    # Translated when the model is made: a language change renders the snapshot again.
    # ("v" is the version counter: said in the chosen language, 버전 in Korean.)
    return tr("{shape} stride {stride} offset {offset} v{version}").format(
        shape=shape, stride=stride, offset=info.storage_offset, version=version)


def _flat(values: object, depth: int, limit: int = MAX_CELLS) -> tuple[object, ...]:
    """The first ``limit`` elements of ``depth``-deep nested tuples of values, in order (a complex value is
    a pair, so the depth, the tensor's number of dimensions, says where the elements are)."""
    out: list[object] = []

    def walk(value: object, level: int) -> None:
        if len(out) >= limit:
            return
        if level > 0 and isinstance(value, (tuple, list)):
            for item in value:
                walk(item, level - 1)
        else:
            out.append(value)

    walk(values, depth)
    return tuple(out)


def _grad_values(grad: object, depth: int) -> tuple[object, ...]:
    """:func:`_flat` of a gradient's values, kept by the values object (identity, a reference held): a gradient a
    step left alone is the same object in the next snapshot, so its first values stay the same tuple (which the
    map keeps its texts by)."""
    entry = _GRAD_VALUES.get((id(grad), depth))
    if entry is None or entry[0] is not grad:
        if len(_GRAD_VALUES) > 256:   # (each holds its values alive)
            _GRAD_VALUES.clear()
        entry = _GRAD_VALUES[(id(grad), depth)] = (grad, _flat(grad, depth))
    return entry[1]


_GRAD_VALUES: dict[tuple[int, int], tuple[object, tuple[object, ...]]] = {}


def _grad_model(info: TensorInfo, old: TensorInfo | None, color_index: int) -> GradModel | None:
    if info.grad is None:
        return None
    depth = len(info.grad_shape or ())
    values = _grad_values(info.grad, depth)
    before = _grad_values(old.grad, depth) if old is not None and old.grad is not None \
        and old.object_id == info.object_id else None
    if before is None:
        changed = frozenset(range(len(values)))
    else:
        changed = frozenset(i for i, v in enumerate(values) if i >= len(before) or before[i] != v)
    return GradModel(info.name, color_index, tuple(info.grad_shape or ()), values, changed)


def _written(storage_id: str, before: Snapshot, after: Snapshot) -> set[int]:
    """The cells of ``storage_id`` whose values differ from ``before`` to ``after`` (none when either lacks them)."""
    old, new = before.storage(storage_id), after.storage(storage_id)
    if old is None or new is None or before.trimmed or after.trimmed or old.dtype != new.dtype:
        return set()
    was, now = tuple(old.cells or ()), tuple(new.cells or ())
    return {i for i, v in enumerate(now) if i < len(was) and was[i] != v}


def culprit_marks(results: Sequence[StepResult]) -> dict[str, Culprit]:
    """Storage id → the culprit's mark, when the last step failed on a saved tensor an earlier step changed.

    The steps and the tensors come from the explanation (found from the recorded version counters, see
    :mod:`tensorlab.core.explain.version_culprit`); the cells are the ones those steps changed in the
    tensors' memory, compared between the snapshots before and after each (a storage keeps its label while
    it lives). Where that cannot be compared (values dropped from kept history, new memory, a write of the
    same values), the tensor's own cells are marked.
    """
    last = results[-1] if results else None
    explanation = last.error.explanation if last is not None and last.error is not None else None
    if explanation is None or not explanation.culprit_steps:
        return {}
    snapshot = last.snapshot if last is not None else Snapshot()
    marks: dict[str, tuple[set[int], set[int]]] = {}
    for name in explanation.culprit_names:
        info = snapshot.tensor(name)
        storage = snapshot.storage(info.storage) if info is not None and info.storage is not None else None
        if info is None or storage is None:
            continue
        steps, cells = marks.setdefault(storage.id, (set(), set()))
        for index in explanation.culprit_steps:
            if not 0 <= index < len(results):
                continue
            before = results[index - 1].snapshot if index > 0 else Snapshot()
            after = results[index].snapshot
            written = _written(storage.id, before, after) if after.storage(storage.id) is not None else set()
            if not written and after.tensor(name) is not None:
                written = set(_band_cells(info, storage))
            if written:
                steps.add(index + 1)
                cells |= written
    return {key: Culprit(tuple(sorted(steps)), frozenset(cells)) for key, (steps, cells) in marks.items() if cells}


def strip_models(snapshot: Snapshot, previous: Snapshot,
                 culprits: dict[str, Culprit] | None = None) -> list[StripModel]:
    """What the map draws for ``snapshot``, with cells changed since ``previous`` marked (and ``culprits``)."""
    order = {t.name: i for i, t in enumerate(snapshot.tensors)}
    infos = {t.name: t for t in snapshot.tensors}
    same = same_tensor(snapshot)
    old_infos = {t.name: t for t in previous.tensors}
    # The same tensor object under an earlier name: a name that only newly reaches it (`for p in
    # model.parameters(): print(p.grad)`) does not make its gradient changed.
    old_objects: dict[int, TensorInfo] = {}
    for earlier in previous.tensors:
        if earlier.object_id:
            old_objects.setdefault(earlier.object_id, earlier)
    # A storage keeps its label while it lives: the label is its identity across snapshots (its
    # address is not, once the worker restored the state in a new process).
    before = {s.id: s for s in previous.storages}
    strips = []
    new_allowed = bool(previous.tensors)
    language = current_language()
    for storage in snapshot.storages:
        old = before.get(storage.id)
        # Everything a strip is made of, by identity where it is an object of the snapshots (their infos are
        # frozen; a storage or tensor a step left alone is the same object in the next snapshot): the same, and
        # the strip of the last state with them is taken as it is.
        parts: list[object] = [storage, old, new_allowed, language, (culprits or {}).get(storage.id)]
        for name in storage.tensors:
            info = infos.get(name)
            first = same.get(name)
            old_info = old_infos.get(name)
            if info is not None and (old_info is None or old_info.object_id != info.object_id) and info.object_id:
                old_info = old_objects.get(info.object_id, old_info)
            parts += (info, order.get(name), first, order.get(first) if first is not None else None, old_info)
        kept = _STRIPS.get(storage.id)
        if kept is not None and len(kept[0]) == len(parts) and all(
                _same(a, b) for a, b in zip(kept[0], parts, strict=True)):
            strips.append(kept[1])
            continue
        strip = _strip_model(storage, old, infos, order, same, old_infos, old_objects, new_allowed, culprits)
        if len(_STRIPS) > 512:   # (each holds its snapshot's infos alive)
            _STRIPS.clear()
        _STRIPS[storage.id] = (tuple(parts), strip)
        strips.append(strip)
    return strips


# Storage id -> (what its last strip was made of, the strip): see strip_models.
_STRIPS: dict[str, tuple[tuple[object, ...], StripModel]] = {}


def _same(a: object, b: object) -> bool:
    """The same part of a strip: the same object, or an equal plain value (a name, an index, a culprit's mark)."""
    return a is b or (type(a) in (int, bool, str, Culprit) and a == b)


def _strip_model(storage: StorageInfo, old: StorageInfo | None, infos: dict[str, TensorInfo], order: dict[str, int],
                 same: dict[str, str], old_infos: dict[str, TensorInfo], old_objects: dict[int, TensorInfo],
                 new_allowed: bool, culprits: dict[str, Culprit] | None) -> StripModel:
    """One storage's strip (:func:`strip_models`)."""
    values = tuple(storage.cells or ())
    changed: set[int] = set()
    if old is not None and old.dtype == storage.dtype:
        old_values = tuple(old.cells or ())
        # Most storages are untouched by a step: one comparison in C says so.
        if old_values != values:
            changed = {i for i, v in enumerate(values) if i >= len(old_values) or old_values[i] != v}
    bands = []
    grads = []
    for name in storage.tensors:
        info = infos.get(name)
        if info is None:
            continue
        first = same.get(name)
        may_grad = bool(info.requires_grad and info.is_leaf)
        # A tensor a statement of an opened file that is not run may have changed: said first (as the table's
        # name cell says it), "may differ (line 7 not run) · [3] stride (1,) ..." (issue #21, review r21f).
        mark = "" if info.may_differ is None else may_differ_mark(info.may_differ, current_language()) + " · "
        if first is None:
            bands.append(BandModel(name, order[name], _band_cells(info, storage), mark + _band_label(info),
                                   wide_label=mark + _band_label(info, wide=True), may_grad=may_grad))
        else:   # the same object under a second name: the first's colour, and a label that says so
            same_text = mark + tr("{name} is {other}: the same tensor").format(name=name, other=first) + " · "
            bands.append(BandModel(name, order.get(first, order[name]), _band_cells(info, storage),
                                   same_text + _band_label(info), first,
                                   wide_label=same_text + _band_label(info, wide=True), may_grad=may_grad))
        old_info = old_infos.get(name)
        if (old_info is None or old_info.object_id != info.object_id) and info.object_id:
            old_info = old_objects.get(info.object_id, old_info)
        grad = _grad_model(info, old_info, order[name])
        if grad is not None:
            grads.append(grad)
    return StripModel(storage, values, frozenset(changed), old is None and new_allowed,
                      tuple(bands), tuple(grads), (culprits or {}).get(storage.id))


# A module's parameter or buffer as contract 3 names it (issue #16): its name, then indices and attributes,
# ending in an attribute: `net.weight`, `net[0].bias`, `model.fc.running_mean` (not `parts[0]`, `sd['w']`).
_MODULE_ROW = re.compile(r"([A-Za-z_]\w*)(?:\[\d+\]|\.[A-Za-z_]\w*)*\.[A-Za-z_]\w*")


def sharing_text(strip: StripModel) -> str:
    """The names over one strip, each tensor object once: ``online.weight is alias.weight`` joins the names of
    one object (the same tensor), a comma separates different tensors over the memory (``sd['weight']``)."""
    groups: dict[str, list[str]] = {}
    for band in strip.bands:
        groups.setdefault(band.same_as or band.name, []).append(band.name)
    listed = {n for names in groups.values() for n in names}
    # Names with no band (not shown) keep their place, each on its own.
    rest = [n for n in strip.storage.tensors if n not in listed]
    return ", ".join([" is ".join(names) for names in groups.values()] + rest)


def module_of(name: str, others: frozenset[str]) -> str | None:
    """The module ``name`` (a tensor row) is a parameter or buffer of, when ``others`` has that name."""
    match = _MODULE_ROW.fullmatch(name)
    if match is None or match.group(1) not in others:
        return None
    return match.group(1)


def module_groups(strips: list[StripModel], snapshot: Snapshot) -> list[tuple[str | None, list[StripModel]]]:
    """``strips`` in runs: each run of strips whose first band is a parameter of one module, under its name
    (the map draws them as one group that can be collapsed); every other strip on its own, under None."""
    others = frozenset(o.name for o in snapshot.others)
    runs: list[tuple[str | None, list[StripModel]]] = []
    for strip in strips:
        owner = module_of(strip.bands[0].name, others) if strip.bands else None
        if owner is not None and runs and runs[-1][0] == owner:
            runs[-1][1].append(strip)
        else:
            runs.append((owner, [strip]))
    return runs

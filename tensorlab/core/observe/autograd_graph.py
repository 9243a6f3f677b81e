"""The autograd graph behind a tensor, read from ``grad_fn.next_functions`` as data.

Nodes are walked breadth-first from the tensor's ``grad_fn``; an
``AccumulateGrad`` node names the leaf it accumulates into. Saved tensors are
described where torch exposes them (``_saved_*`` attributes): which name they
are, their version now, or that they were changed in place or freed. A saved
tensor that changed in place is read a second way, without unpacking it
(torch's ``_raw_saved_*`` saved variable and its ``data``, which makes no version
check and changes nothing): which name it is (or which names share its memory
and its version now), its shape, and, from torch's own error, the version autograd
noted when it saved it and the version it has now.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING

import torch

from tensorlab.core.explain.torch_messages import parse_message
from tensorlab.core.protocol.snapshot import GraphInfo, GraphNode, SavedStatus, SavedTensor

if TYPE_CHECKING:
    from torch.autograd.graph import Node

__all__ = ["SavedTensor", "GraphNode", "GraphInfo", "autograd_graph", "saved_in_graphs"]

MAX_NODES = 40

# The `_saved_*` attribute names of each node type (dir() is slow; node types are few).
_SAVED_ATTRIBUTES: dict[type, tuple[str, ...]] = {}


def _saved_attributes(node: object) -> tuple[str, ...]:
    kind = type(node)
    names = _SAVED_ATTRIBUTES.get(kind)
    if names is None:
        names = tuple(a for a in dir(node) if a.startswith("_saved_"))
        _SAVED_ATTRIBUTES[kind] = names
    return names


def _identify(tensor: torch.Tensor, tensors: Mapping[str, torch.Tensor]) -> str | None:
    """The namespace name that is ``tensor`` (or the same view of the same memory)."""
    for name, other in tensors.items():
        if other is tensor:
            return name
    try:
        pointer = tensor.untyped_storage().data_ptr()
    except RuntimeError:
        return None
    for name, other in tensors.items():
        try:
            if (other.untyped_storage().data_ptr() == pointer and other.shape == tensor.shape
                    and other.stride() == tensor.stride()
                    and other.storage_offset() == tensor.storage_offset() and pointer != 0):
                return name
        except RuntimeError:
            continue
    return None


def _raw_saved(node: object, label: str) -> torch.Tensor | None:
    """The tensor a node saved as ``label``, read without unpacking it (no version check, nothing changed).

    torch's ``_raw_saved_<label>`` is the saved variable itself; its ``data`` is the tensor it holds (for
    a saved output, an alias of it over the same memory and version counter). None where torch gives none.
    """
    try:
        raw = getattr(node, f"_raw_saved_{label}", None)
        data = getattr(raw, "data", None)
    except RuntimeError:
        return None
    return data if isinstance(data, torch.Tensor) else None


def _same_view(a: torch.Tensor, b: torch.Tensor) -> bool:
    try:
        pointer = a.untyped_storage().data_ptr()
        return (pointer != 0 and b.untyped_storage().data_ptr() == pointer and a.shape == b.shape
                and a.stride() == b.stride() and a.storage_offset() == b.storage_offset())
    except RuntimeError:
        return False


def _changed_saved(label: str, text: str, raw: torch.Tensor | None,
                   tensors: Mapping[str, torch.Tensor]) -> SavedTensor:
    """A saved tensor changed in place: the name that is it, the names sharing its memory and version, its shape,
    and its versions (torch's error says both: "is at version 1; expected version 0")."""
    facts = parse_message(text, "RuntimeError")
    now, expected, shape_text = facts.fact("now"), facts.fact("expected"), facts.fact("shape")
    # No shape where torch gave no raw tensor to read (what it is is then not known, not "no name").
    shape = (None if raw is None else tuple(int(s) for s in shape_text.split(",") if s.strip())
             if shape_text is not None else tuple(raw.shape))
    who: str | None = None
    shares: list[str] = []
    if raw is not None:
        version = raw._version
        for name, other in tensors.items():
            if other is raw:
                who = name
                break
        if who is None:
            # A saved input is the tensor itself (found above); a saved output is held as an alias of it over
            # the same view and counter, without requires_grad: that tensor (one that requires grad first, not
            # a detach() of it). A saved input no name holds (a name bound again) is not its detach().
            alike = [name for name, other in tensors.items() if _same_view(other, raw)
                     and other._version == version and (not raw.requires_grad or other.requires_grad)]
            who = next((n for n in alike if tensors[n].requires_grad), alike[0] if alike else None)
        try:
            pointer = raw.untyped_storage().data_ptr()
        except RuntimeError:
            pointer = 0
        for name, other in tensors.items():
            try:
                same = pointer != 0 and other.untyped_storage().data_ptr() == pointer
            except RuntimeError:
                continue
            # Views of one tensor (and its detach()) share its version counter; `.data` starts one of its
            # own, which the version then tells apart (a version that only happens to be equal is not).
            if same and name != who and other._version == version:
                shares.append(name)
    return SavedTensor(label, SavedStatus.CHANGED, who, int(now) if now is not None else None,
                       int(expected) if expected is not None else None, shape, tuple(shares))


def _describe_saved(node: object, tensors: Mapping[str, torch.Tensor]) -> tuple[SavedTensor, ...]:
    described = []
    for attribute in _saved_attributes(node):
        label = attribute.removeprefix("_saved_")
        try:
            value = getattr(node, attribute)
        except RuntimeError as exc:
            text = str(exc)
            kind = parse_message(text, type(exc).__name__).kind   # torch's own error, read by its form
            if kind == "saved_changed":
                described.append(_changed_saved(label, text, _raw_saved(node, label), tensors))
                continue
            status = SavedStatus.FREED if kind == "graph_used" else SavedStatus.UNAVAILABLE
            described.append(SavedTensor(label, status))
            continue
        if isinstance(value, torch.Tensor):
            who = _identify(value, tensors) or f"tensor {list(value.shape)}"
            version = None if value.is_inference() else value._version
            described.append(SavedTensor(label, SavedStatus.OK, who, version))
    return tuple(described)


def autograd_graph(tensor: torch.Tensor, tensors: Mapping[str, torch.Tensor],
                   max_nodes: int = MAX_NODES) -> GraphInfo | None:
    """The backward graph from ``tensor.grad_fn`` (None for a tensor outside any graph), up to ``max_nodes``."""
    try:
        root = tensor.grad_fn
    except RuntimeError:
        return None
    if root is None:
        return None
    index: dict[int, int] = {}
    nodes: list[GraphNode] = []
    edges: list[tuple[int, int]] = []
    queue = [root]
    keep: list[object] = []  # hold the nodes so their ids stay unique while walking
    truncated = False

    def add(node: Node) -> int | None:
        nonlocal truncated
        key = id(node)
        if key in index:
            return index[key]
        if len(nodes) >= max_nodes:
            truncated = True
            return None
        keep.append(node)
        leaf = None
        name = node.name().rsplit("::", 1)[-1]
        variable = getattr(node, "variable", None) if "AccumulateGrad" in name else None
        if isinstance(variable, torch.Tensor):
            leaf = _identify(variable, tensors) or f"leaf {list(variable.shape)}"
        index[key] = len(nodes)
        nodes.append(GraphNode(name, leaf, _describe_saved(node, tensors)))
        queue.append(node)
        return index[key]

    queue.clear()
    add(root)
    while queue:
        node = queue.pop(0)
        source = index[id(node)]
        for child, _ in getattr(node, "next_functions", ()):
            if child is None:
                continue
            target = add(child)
            if target is not None and (source, target) not in edges:
                edges.append((source, target))
    return GraphInfo(tuple(nodes), tuple(edges), truncated)


# Nodes read per graph when a backward failed (a training step's graph is longer than the panel's).
ERROR_NODES = 1_000


def saved_in_graphs(tensors: Mapping[str, torch.Tensor], roots: Collection[str] = ()) -> tuple[SavedTensor, ...]:
    """Every tensor the graphs behind ``tensors`` saved for backward, once each, as torch reports it now.

    ``roots``: the names whose graphs are read first (the failing statement's: `e.sum().backward()` is about
    `e`'s graph, not another name's that holds a changed tensor too); when none of their graphs holds a
    changed saved tensor, every name's graph is read.
    """
    def read(names: Collection[str]) -> tuple[SavedTensor, ...]:
        found: dict[SavedTensor, None] = {}
        for name in names:
            graph = autograd_graph(tensors[name], tensors, ERROR_NODES)
            if graph is None:
                continue
            for node in graph.nodes:
                found.update(dict.fromkeys(node.saved))
        return tuple(found)

    first = read([n for n in roots if n in tensors])
    if any(entry.status is SavedStatus.CHANGED for entry in first):
        return first
    return read(list(tensors))

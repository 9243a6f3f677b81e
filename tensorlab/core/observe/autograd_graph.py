"""The autograd graph behind a tensor, read from ``grad_fn.next_functions`` as data.

Nodes are walked breadth-first from the tensor's ``grad_fn``; an
``AccumulateGrad`` node names the leaf it accumulates into. Saved tensors are
described where torch exposes them (``_saved_*`` attributes): which name they
are, their version now, or that they were changed in place or freed.
"""

from __future__ import annotations

from collections.abc import Mapping
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


def _describe_saved(node: object, tensors: Mapping[str, torch.Tensor]) -> tuple[SavedTensor, ...]:
    described = []
    for attribute in _saved_attributes(node):
        label = attribute.removeprefix("_saved_")
        try:
            value = getattr(node, attribute)
        except RuntimeError as exc:
            text = str(exc)
            kind = parse_message(text, type(exc).__name__).kind   # torch's own error, read by its form
            status = (SavedStatus.CHANGED if kind == "saved_changed" else SavedStatus.FREED if kind == "graph_used"
                      else SavedStatus.UNAVAILABLE)
            described.append(SavedTensor(label, status))
            continue
        if isinstance(value, torch.Tensor):
            who = _identify(value, tensors) or f"tensor {list(value.shape)}"
            version = None if value.is_inference() else value._version
            described.append(SavedTensor(label, SavedStatus.OK, who, version))
    return tuple(described)


def autograd_graph(tensor: torch.Tensor, tensors: Mapping[str, torch.Tensor]) -> GraphInfo | None:
    """The backward graph from ``tensor.grad_fn`` (None for a tensor outside any graph)."""
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
        if len(nodes) >= MAX_NODES:
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


def saved_in_graphs(tensors: Mapping[str, torch.Tensor]) -> tuple[SavedTensor, ...]:
    """Every tensor the graphs behind ``tensors`` saved for backward, once each, as torch reports it now."""
    found: dict[SavedTensor, None] = {}
    for tensor in tensors.values():
        graph = autograd_graph(tensor, tensors)
        if graph is None:
            continue
        for node in graph.nodes:
            found.update(dict.fromkeys(node.saved))
    return tuple(found)

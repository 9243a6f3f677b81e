"""Which saved tensor a "modified by an inplace operation" error is about, and where it changed.

torch's message gives the shape of the tensor, its version now and the version
autograd noted when it saved it. The tensors a graph saved are listed, with the
name and version they had when the graph was built, in the autograd graphs of
the session's history (:class:`~tensorlab.core.protocol.snapshot.TensorInfo.graph` of
the names each step assigned). Only a tensor that the failing graph saved, that
has the message's shape, and whose version went from the noted one to the
current one is named (and, where the session's graphs were read at the error,
one that torch now reports as changed); when several fit, the explanation says
"one of". An
unrelated tensor that merely has the same shape and version is never blamed.
This module imports no torch.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.snapshot import GraphInfo, SavedStatus, SavedTensor, Snapshot

__all__ = ["version_culprit"]

_WORD = re.compile(r"[A-Za-z_]\w*")


def _graphs_of(names: Sequence[str], history: Sequence[Any]) -> list[tuple[int, str, GraphInfo]]:
    """The latest graph read for each of ``names`` before the failing step: (entry index, name, graph)."""
    found = []
    for name in names:
        for position in range(len(history) - 2, -1, -1):
            info = history[position].snapshot.tensor(name)
            if info is not None and info.graph is not None:
                found.append((position, name, info.graph))
                break
    return found


def _saved_names(graphs: list[tuple[int, str, GraphInfo]], history: Sequence[Any],
                 ) -> list[tuple[str, int, int, str]]:
    """(name, version when saved, object id then, label) of every named tensor the graphs saved."""
    saved: list[tuple[str, int, int, str]] = []
    for position, _, graph in graphs:
        snapshot: Snapshot = history[position].snapshot
        for node in graph.nodes:
            for entry in node.saved:
                if entry.status is not SavedStatus.OK or entry.who is None or entry.version is None:
                    continue
                info = snapshot.tensor(entry.who)
                found = (entry.who, entry.version, info.object_id if info is not None else 0, entry.label)
                if info is not None and found not in saved:
                    saved.append(found)
    return saved


def _culprits(shape: tuple[int, ...], now: int, expected: int, history: Sequence[Any],
              saved: Sequence[SavedTensor]) -> list[str]:
    # Where the graphs as they are now are known, the tensor must be one torch now reports as changed.
    changed = {entry.label for entry in saved if entry.status is SavedStatus.CHANGED}
    last = history[-1].snapshot
    code = history[-1].code
    used = [n for n in dict.fromkeys(_WORD.findall(code)) if last.tensor(n) is not None]
    names = []
    for name, version, object_id, label in _saved_names(_graphs_of(used, history), history):
        info = last.tensor(name)
        if saved and label not in changed:
            continue
        if (info is not None and version == expected and info.object_id == object_id
                and info.shape == shape and info.version == now and name not in names):
            names.append(name)
    order = [t.name for t in last.tensors]
    return sorted(names, key=order.index)


def _changes(name: str, now: int, history: Sequence[Any]) -> list[tuple[int, str]]:
    """The steps (1-based number, code) where ``name``'s version went up (towards ``now``)."""
    changes: list[tuple[int, str]] = []
    previous = None
    for entry in history:
        info = entry.snapshot.tensor(name)
        version = info.version if info is not None else None
        if previous is not None and version is not None and previous < version <= now:
            changes.append((entry.index + 1, entry.code))
        previous = version
    return changes


def version_culprit(shape_text: str, now: int, expected: int, history: Sequence[Any],
                    saved: Sequence[SavedTensor] = ()) -> tuple[Message, ...]:
    """The sentences naming the saved tensor that changed, or none when it cannot be told for sure."""
    if not history:
        return ()
    shape = tuple(int(s) for s in shape_text.split(",") if s.strip())
    names = _culprits(shape, now, expected, history, saved)
    if not names:
        return ()
    steps = sorted({change for name in names for change in _changes(name, now, history)})
    who = ", ".join(f"`{n}`" for n in names)
    key = "explain.culprit.one" if len(names) == 1 else "explain.culprit.several"
    sentences = [msg(key, who=who, expected=expected, now=now)]
    if steps:
        sentences.append(msg("explain.culprit.changed",
                             steps=tuple(msg("explain.culprit.step", step=n, code=code) for n, code in steps)))
    return tuple(sentences)

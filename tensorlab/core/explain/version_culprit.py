"""Which saved tensor a "modified by an inplace operation" error is about, and which step changed it.

torch's message gives the shape of the tensor, its version now and the version
autograd noted when it saved it. When the backward failed, the worker read the graphs
of the names the failing statement reads, or of every name where none of those holds a
changed saved tensor (:func:`tensorlab.core.observe.autograd_graph.saved_in_graphs`):
a saved tensor torch reports as changed is described there from torch's own
objects, without unpacking it: the name that *is* it, the names over the same
memory at the same version (a view such as a module's ``weight.t()``, an alias
left when a name was bound again), its shape, and both versions. Only such a
saved tensor, of the message's shape and versions, is named; when several fit,
the explanation says "one of". An unrelated tensor that merely has the same shape
and version is never blamed.

The step that changed it is read from the version counters the snapshots
recorded after every step (never from the code's text): a step after which the
version of one of those names (the same tensor object) went up towards the
version now; or, when the tensor first appears already past the saved version
in memory that step allocated, the step that made it changed it itself (an
in-place operation inside a call: ``ReLU(inplace=True)`` in a module's forward,
or a later line of a loop). Where none of this can be known, it says so.

Where the graphs were not read at the error (older callers), the graphs the
snapshots recorded are used instead, as before. This module imports no torch.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.snapshot import GraphInfo, SavedStatus, SavedTensor, Snapshot

__all__ = ["Culprit", "version_culprit", "at_file_lines"]

_WORD = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Culprit:
    """What the explanation adds: its sentences, the steps (0-based) that changed the tensor, the names over it."""

    sentences: tuple[Message, ...] = ()
    steps: tuple[int, ...] = ()
    names: tuple[str, ...] = ()


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


def _recorded_culprits(shape: tuple[int, ...], now: int, expected: int, history: Sequence[Any],
                       saved: Sequence[SavedTensor]) -> list[str]:
    """The names found through the graphs the snapshots recorded (where the error's graphs say too little)."""
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


def _changes(names: Sequence[str], expected: int, now: int, history: Sequence[Any],
             ) -> tuple[dict[int, str], int | None]:
    """The steps (0-based index: code) after which the version of one of ``names`` went up from ``expected``
    towards ``now``, and the step that made the tensor already changed (None when none did)."""
    last = history[-1].snapshot
    steps: dict[int, str] = {}
    inside: int | None = None
    for name in names:
        target = last.tensor(name)
        if target is None:
            continue
        previous: int | None = None
        for position, entry in enumerate(history):
            info = entry.snapshot.tensor(name)
            if info is None or info.object_id != target.object_id or info.version is None:
                previous = None   # not this tensor (not bound yet, or to another one)
                continue
            version = info.version
            if previous is None:
                before = history[position - 1].snapshot if position else Snapshot()
                # Already past the saved version, in memory that did not exist before this step: it changed
                # inside the step that made it.
                if expected < version <= now and info.storage is not None and before.storage(info.storage) is None:
                    steps[entry.index] = entry.code
                    inside = entry.index
            elif previous < version and version > expected and previous < now:
                steps[entry.index] = entry.code
            previous = version
    return steps, inside


def _shape_text(shape: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def version_culprit(shape_text: str, now: int, expected: int, history: Sequence[Any],
                    saved: Sequence[SavedTensor] = ()) -> Culprit:
    """The sentences naming the saved tensor that changed and the step that changed it (see the module)."""
    if not history:
        return Culprit()
    shape = tuple(int(s) for s in shape_text.split(",") if s.strip())
    fits = [e for e in saved if e.status is SavedStatus.CHANGED and e.version == now
            and e.saved_version == expected and (e.shape is None or e.shape == shape)]
    order = [t.name for t in history[-1].snapshot.tensors]
    sentences: list[Message] = []
    if fits:
        def rank(name: str) -> int:   # the snapshot's order (the Tensors table's)
            return order.index(name) if name in order else len(order)
        named = sorted(dict.fromkeys(e.who for e in fits if e.who is not None), key=rank)
        shares = sorted(dict.fromkeys(n for e in fits for n in e.shares if n not in named), key=rank)
        if not named and not shares:
            if any(e.shape is None for e in fits):   # torch gave no tensor to read: not known, rather than nameless
                return Culprit((msg("explain.culprit.not_found"),))
            return Culprit((msg("explain.culprit.nameless", shape=_shape_text(shape), expected=expected, now=now),))
        tracked = sorted([*named, *shares], key=rank)
        if named:
            who = ", ".join(f"`{n}`" for n in named)
            key = "explain.culprit.one" if len(named) == 1 else "explain.culprit.several"
            sentences.append(msg(key, who=who, expected=expected, now=now))
        else:
            sentences.append(msg("explain.culprit.alias", shape=_shape_text(shape), expected=expected, now=now,
                                 who=", ".join(f"`{n}`" for n in shares)))
    else:
        tracked = _recorded_culprits(shape, now, expected, history, saved)
        if not tracked:
            return Culprit((msg("explain.culprit.not_found"),))
        who = ", ".join(f"`{n}`" for n in tracked)
        key = "explain.culprit.one" if len(tracked) == 1 else "explain.culprit.several"
        sentences.append(msg(key, who=who, expected=expected, now=now))
    steps, inside = _changes(tracked, expected, now, history)
    if steps:
        sentences.append(msg("explain.culprit.changed", steps=tuple(
            msg("explain.culprit.step", step=n + 1, code=_quoted(code)) for n, code in sorted(steps.items()))))
        if inside is not None:
            sentences.append(msg("explain.culprit.inside", step=inside + 1))
    else:
        sentences.append(msg("explain.culprit.no_step"))
    return Culprit(tuple(sentences), tuple(sorted(steps)), tuple(tracked))


def _quoted(code: str) -> str:
    """A step's code as a sentence quotes it: a loop or a `with` (a step of several lines) by its first line and
    `…`; its lines joined by spaces read as Python that is not (review r21d)."""
    lines = [line for line in code.strip().splitlines() if line.strip()]
    return code.strip() if len(lines) <= 1 else f"{lines[0].rstrip()} …"


def _located(message: Message, where: Sequence[tuple[int, int]]) -> Message:
    """A culprit sentence whose step numbers (1-based ``step``) also name the step's file line (and cell)."""
    values = message.values
    if message.key == "explain.culprit.changed":
        return msg(message.key, steps=tuple(_located(m, where) if isinstance(m, Message) else m
                                            for m in values.get("steps", ())))
    if message.key not in ("explain.culprit.step", "explain.culprit.inside"):
        return message
    step = values.get("step")
    if not isinstance(step, int) or not 0 < step <= len(where):
        return message
    line, cell = where[step - 1]
    if line <= 0:
        return message   # a step of yours, or of a lesson file: its number is all there is
    suffix = "_cell" if cell > 0 else "_line"
    extra = {"cell": cell} if cell > 0 else {}
    if message.key == "explain.culprit.step":
        return msg("explain.culprit.step" + suffix, step=step, line=line, code=values.get("code", ""), **extra)
    return msg("explain.culprit.inside" + suffix, step=step, line=line, **extra)


def at_file_lines(explanation: Explanation, where: Sequence[tuple[int, int]]) -> Explanation:
    """``explanation`` with every culprit step it names said with its place in the file too: "step 5 (line 12)",
    "step 5 (cell 3, line 2)". ``where``: (line, cell) of each step of the program (0-based, as the results are
    numbered); line 0 for a step that is not a file's (one you added, a lesson's): it keeps its number alone.

    The step number stays the one the transcript and the Code panel show (the steps that run); the line is the
    file's, as the refusal reasons beside it quote it."""
    if not explanation.culprit_steps or not any(line > 0 for line, _ in where):
        return explanation
    return replace(explanation, more=tuple(_located(m, where) for m in explanation.more))

"""Which tensors a step made or changed: the panels follow them, the pickers offer them first."""

from __future__ import annotations

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["fresh_tensors", "changed_tensors", "followed_tensor", "narration_speaks"]


def fresh_tensors(snapshot: Snapshot, previous: Snapshot) -> tuple[str, ...]:
    """Names bound to a tensor now that were not bound to that tensor object before."""
    fresh = []
    for info in snapshot.tensors:
        old = previous.tensor(info.name)
        if old is None or old.object_id != info.object_id:
            fresh.append(info.name)
    return tuple(fresh)


def changed_tensors(snapshot: Snapshot, previous: Snapshot) -> tuple[str, ...]:
    """Tensors whose values, version or gradient the step changed (same object as before)."""
    changed = []
    for info in snapshot.tensors:
        old = previous.tensor(info.name)
        if old is not None and old.object_id == info.object_id and (
                old.values != info.values or old.version != info.version or old.grad != info.grad):
            changed.append(info.name)
    return tuple(changed)


def _reached(snapshot: Snapshot, name: str) -> str | None:
    """The row that stands for ``name``: the tensor bound to it, else the first tensor it reaches (contract 3:
    `parts[0]` of a tuple, `sd['weight']` of a dict, `net[0].weight` of a module), else None."""
    if snapshot.tensor(name) is not None:
        return name
    for info in snapshot.tensors:   # in order of first binding, then the container's own order
        if info.name.startswith((name + "[", name + ".")):
            return info.name
    return None


def followed_tensor(state: PlayerState, since: int | None = None) -> str | None:
    """The tensor the last step assigned (the last one it binds), or else the one it changed in place.

    A step that failed is about the tensor it used: a failing ``y.sum().backward()`` is about ``y``
    (its graph holds the saved tensor that changed), a refused write about the tensor written.
    ``since``: the position shown before (End ran several steps): when the last step made nothing,
    the newest tensor an earlier step of the run made (and that still exists).
    """
    if state.position == 0 or state.position > len(state.program):
        return None
    snapshot = state.snapshot
    step = state.program[state.position - 1]
    # A container or a module the step binds is followed at its first row (`parts = x.unbind()`: `parts[0]`).
    defines = [row for n in step.statement.defines if (row := _reached(snapshot, n)) is not None]
    if defines:
        return defines[-1]
    uses = [n for n in step.statement.uses if snapshot.tensor(n) is not None]
    last = state.last
    if last is not None and not last.ok and uses:
        graphs = [n for n in uses if (info := snapshot.tensor(n)) is not None and info.grad_fn is not None]
        return (graphs or uses)[0]
    changed = changed_tensors(snapshot, state.previous_snapshot)
    changed_uses = [n for n in uses if n in changed]
    if changed_uses:
        return changed_uses[0]
    if changed:
        return changed[0]
    for position in range(state.position - 1, max(state.position if since is None else since, 1) - 1, -1):
        made = [row for n in state.program[position - 1].statement.defines
                if (row := _reached(snapshot, n)) is not None]
        if made:
            return made[-1]
    return None


def narration_speaks(state: PlayerState) -> bool:
    """The narration has what the class must see now: the next step's question, or the answer of the step
    just run (its verdict and explanation). The panel brought forward after a step is then the narration."""
    ahead = state.program[state.position].ask if state.position < len(state.program) else None
    just_run = state.program[state.position - 1].ask if 0 < state.position <= len(state.program) else None
    return ahead is not None or just_run is not None

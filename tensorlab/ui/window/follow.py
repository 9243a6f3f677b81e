"""Which tensors a step made or changed: the panels follow them, the pickers offer them first."""

from __future__ import annotations

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["fresh_tensors", "changed_tensors", "followed_tensor"]


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


def followed_tensor(state: PlayerState) -> str | None:
    """The tensor the last step assigned (the last one it binds), or else the one it changed in place."""
    if state.position == 0 or state.position > len(state.program):
        return None
    snapshot = state.snapshot
    step = state.program[state.position - 1]
    defines = [n for n in step.statement.defines if snapshot.tensor(n) is not None]
    if defines:
        return defines[-1]
    changed = changed_tensors(snapshot, state.previous_snapshot)
    uses = [n for n in step.statement.uses if n in changed]
    if uses:
        return uses[0]
    return changed[0] if changed else None

"""What TensorLab notices about a step beyond what torch says (shown beside torch's own messages).

Torch-free: observations compare two snapshots.
"""

from __future__ import annotations

from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["hidden_writes"]


def hidden_writes(before: Snapshot, after: Snapshot) -> tuple[Explanation, ...]:
    """Names whose memory changed while their version counter stayed where it was.

    Writes through ``.data``, a NumPy array or ``untyped_storage()`` change values
    without moving the counter autograd checks, exactly as torch does; the storage
    map shows the change (it compares values), and this says why the counter did not move.
    Some torch kernels write without counting a version too: batch norm's running
    statistics (module buffers) in training mode. Where every silent name is a module's
    buffer, the note says that instead (the learner wrote nothing there).
    """
    if before.trimmed:
        return ()   # its cells were dropped from kept history: nothing to compare with (never a false note)
    old = {s.id: s for s in before.storages}
    notes = []
    buffers: list[tuple[str, str]] = []   # (names, storage) of buffers: one note for all (running_mean and _var)
    for storage in after.storages:
        previous = old.get(storage.id)
        if previous is None or previous.dtype != storage.dtype or previous.key != storage.key:
            continue   # new memory, or read as another type or from another start: no comparison
        common = min(len(previous.cells), len(storage.cells))
        # The memory may have grown (a storage over more of it joined): compare what both read.
        if tuple(previous.cells[:common]) == tuple(storage.cells[:common]):
            continue
        silent = []
        for name in storage.tensors:
            now, then = after.tensor(name), before.tensor(name)
            if (now is not None and then is not None and now.version is not None and now.version == then.version
                    and now.storage == then.storage and now.object_id == then.object_id):
                silent.append(name)
        if not silent:
            continue
        names = ", ".join(f"`{n}`" for n in silent)
        if all(info is not None and info.buffer for info in map(after.tensor, silent)):
            buffers.append((names, storage.id))
        else:
            notes.append(Explanation("explain.hidden_write", (("names", names), ("storage", storage.id))))
    if buffers:
        notes.append(Explanation("explain.hidden_write_buffer", (("names", ", ".join(n for n, _ in buffers)),
                                                                 ("storage", ", ".join(s for _, s in buffers)))))
    return tuple(notes)

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
    """
    old = {s.id: s for s in before.storages}
    notes = []
    for storage in after.storages:
        previous = old.get(storage.id)
        if previous is None or previous.dtype != storage.dtype or previous.cells == storage.cells:
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
        title = "Memory changed behind autograd's back"
        text = (f"The memory of {names} ({storage.id}) changed in this step, but the version counter of {names} "
                "did not move. The write went through `.data`, a NumPy array or `untyped_storage()`, which have "
                "a version counter of their own or none at all. Autograd checks only the counter, so it cannot "
                "see this change: a saved tensor changed this way is used by backward() without any error, "
                "and the gradient is silently wrong.")
        advice = "change tensors through `detach()` (which shares the counter) when autograd must notice."
        korean = ("autograd 모르게 바뀐 메모리",
                  f"이 단계에서 {names}의 메모리({storage.id})가 바뀌었지만 {names}의 버전 카운터는 그대로입니다. "
                  "`.data`, NumPy 배열, `untyped_storage()`를 통해 쓰면 버전 카운터가 따로 있거나 아예 없습니다. "
                  "autograd는 카운터만 확인하므로 이 변경을 볼 수 없습니다. 이렇게 바뀐 텐서가 역전파를 위해 "
                  "저장된 것이라면 backward()는 오류 없이 그 값을 쓰고, 기울기는 조용히 틀립니다.",
                  "autograd가 알아야 하는 변경은 버전 카운터를 공유하는 `detach()`를 통해 하세요.")
        notes.append(Explanation(title, text, advice, {"ko": korean}))
    return tuple(notes)

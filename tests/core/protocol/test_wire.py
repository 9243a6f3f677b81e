"""What crosses from the worker to the window: TensorLab's data classes and plain values, nothing else."""

from __future__ import annotations

import io
import os
import pickle

import pytest

from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.results import ErrorInfo, StepResult, WarningInfo
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.core.protocol.wire import WIRE_MODULES, InfoReceiver, InfoSender, SafeUnpickler, WireError


def test_the_window_refuses_anything_but_data_from_the_worker():
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    with pytest.raises(WireError):
        SafeUnpickler(io.BytesIO(pickle.dumps(Evil()))).load()
    with pytest.raises(WireError):
        InfoReceiver().loads(pickle.dumps((False, {}, pickle.dumps(Evil()))))


def test_a_step_result_crosses_whole():
    explanation = Explanation("explain.leaf_inplace")
    result = StepResult(3, "x.add_(1)", ErrorInfo("RuntimeError", "a leaf Variable", explanation),
                        (WarningInfo("UserWarning", "careful"),), "printed", None, Snapshot())
    crossed = InfoReceiver().loads(InfoSender().dumps(("ok", result)))
    assert crossed == ("ok", result)
    assert crossed[1].error.explanation.localized("ko").title == "리프 텐서의 인플레이스 변경"


def test_the_classes_that_may_cross_are_the_protocols_own_and_the_catalogues_messages():
    assert WIRE_MODULES == {f"tensorlab.core.protocol.{name}"
                            for name in ("snapshot", "results", "explanation", "measure_results", "copy_rows")} | {
        "tensorlab.core.messages.catalogue"}


def test_parts_the_worker_let_go_of_are_dropped_by_the_receiver_too():
    import gc

    from tensorlab.core.protocol.snapshot import TensorInfo

    def info(name: str) -> TensorInfo:
        return TensorInfo(name, (1,), "float32", "cpu", (1.0,), False, True, None, 0, None, None, "S0", 0, (1,),
                          1, 4, False)

    sender, receiver = InfoSender(), InfoReceiver()
    kept, dropped = info("kept"), info("dropped")
    receiver.loads(sender.dumps(("ok", (kept, dropped))))
    assert len(receiver.infos) == 2
    del dropped
    gc.collect()
    receiver.loads(sender.dumps(("ok", kept)))
    assert list(receiver.infos.values()) == [kept]

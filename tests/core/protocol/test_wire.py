"""What crosses from the worker to the window: TensorLab's data classes and plain values, nothing else."""

from __future__ import annotations

import enum
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


class _NotOnTheWire(enum.Enum):
    A = 1


def test_a_saved_tensors_status_crosses_the_wire_as_its_enum():
    """An enum of the wire's modules unpickles as one of its members; any other enum is refused."""
    from tensorlab.core.protocol.snapshot import SavedStatus, SavedTensor
    from tensorlab.core.protocol.wire import SafeUnpickler, WireError

    saved = SavedTensor("self", SavedStatus.CHANGED)
    back = SafeUnpickler(io.BytesIO(pickle.dumps(saved, protocol=5))).load()
    assert back == saved and back.status is SavedStatus.CHANGED
    with pytest.raises(WireError):
        SafeUnpickler(io.BytesIO(pickle.dumps(_NotOnTheWire.A, protocol=5))).load()


def test_a_changed_saved_tensors_names_and_versions_and_the_culprit_steps_cross_the_wire():
    """The fields #21 added (defaults kept, so an answer without them still reads the same)."""
    from tensorlab.core.messages.catalogue import msg
    from tensorlab.core.protocol.snapshot import SavedStatus, SavedTensor

    saved = SavedTensor("mat2", SavedStatus.CHANGED, None, 2, 1, (4, 1), ("net[2].weight",))
    explanation = Explanation("explain.saved_changed", (), (msg("explain.culprit.no_step"),), culprit_steps=(7,),
                              culprit_names=("net[2].weight",))
    for value in (saved, explanation):
        back = SafeUnpickler(io.BytesIO(pickle.dumps(value, protocol=5))).load()
        assert back == value
    assert SavedTensor("self", SavedStatus.CHANGED).shares == () and Explanation("k").culprit_steps == ()


def test_a_refused_message_says_so_in_both_languages():
    from tensorlab.core.protocol.wire import InfoReceiver

    evil = pickle.dumps((False, (), pickle.dumps(os.system, protocol=5)), protocol=5)
    with pytest.raises(WireError) as caught:
        InfoReceiver().loads(evil)
    assert "refused to read `posix.system`" in str(caught.value)
    assert "읽지 않았습니다" in caught.value.render("ko")


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

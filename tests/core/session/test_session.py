"""Sessions: capture, replay, devices and explanations."""

from __future__ import annotations

import pytest
import torch

from tensorlab.core.explain.explanations import explain
from tensorlab.core.protocol.device_names import DeviceError
from tensorlab.core.session.devices import available_devices, resolve_device
from tensorlab.core.session.session import Session


def test_errors_and_warnings_are_captured_and_later_steps_run():
    session = Session()
    session.run("x = torch.ones(5, requires_grad=True)")
    failed = session.run("x.add_(1)")
    assert not failed.ok
    assert failed.error.type == "RuntimeError"
    assert failed.error.message == "a leaf Variable that requires grad is being used in an in-place operation."
    assert "torch.no_grad()" in failed.error.explanation.advice
    session.run("y = x * 2")
    warned = session.run("print(y.grad)")
    assert warned.ok and warned.output == "None\n"
    assert warned.warnings[0].category == "UserWarning"
    assert "Triggered internally" not in warned.warnings[0].message
    assert warned.warnings[0].explanation.title == "Reading .grad of a non-leaf"
    assert session.run("z = y + 1").ok


def test_integer_requires_grad_is_torchs_error_explained():
    result = Session().run("t = torch.ones(3, dtype=torch.int64, requires_grad=True)")
    assert result.error.message == "Only Tensors of floating point and complex dtype can require gradients"
    assert "floating dtype" in result.error.explanation.advice


def test_replay_reaches_the_same_state_with_the_same_random_values():
    session = Session()
    codes = ["a = torch.randn(3)", "b = a.clone()", "b.mul_(2)"]
    first = [session.run(c) for c in codes]
    again = session.replay(session.statements[:2])
    assert again[0].snapshot.tensor("a").values == first[0].snapshot.tensor("a").values
    assert session.names == ("a", "b")
    assert session.take_snapshot().tensor("b").version == 0
    torch.manual_seed(0)
    assert list(first[0].snapshot.tensor("a").values) == torch.randn(3).tolist()


def test_expression_value_is_echoed_separately_from_output():
    session = Session()
    session.run("x = torch.ones(2)")
    result = session.run("x.is_leaf")
    assert result.value == "True" and result.output == ""


def test_devices():
    assert available_devices()[0] == "cpu"
    assert resolve_device("CPU") == "cpu"
    with pytest.raises(DeviceError, match="not a device name"):
        resolve_device("gpu")
    if not torch.cuda.is_available():
        with pytest.raises(DeviceError, match="device `cuda` is not available here"):
            Session(device="cuda")


def test_cuda_inside_a_step_is_content_not_a_crash():
    result = Session().run("y = torch.ones(2).to('cuda:7')")
    if torch.cuda.device_count() < 8:
        assert not result.ok and result.error.explanation is not None


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_factories_follow_the_cuda_device():
    session = Session(device="cuda")
    session.run("x = torch.ones(3, requires_grad=True)")
    session.run("y = x.detach()")
    snapshot = session.take_snapshot()
    assert snapshot.tensor("x").device == "cuda:0"
    assert snapshot.tensor("x").storage == snapshot.tensor("y").storage


@pytest.mark.skipif(not available_devices()[-1].startswith("mps"), reason="needs an MPS device")
def test_factories_follow_the_mps_device():  # pragma: no cover - no MPS in CI
    session = Session(device="mps")
    session.run("x = torch.ones(3)")
    assert session.take_snapshot().tensor("x").device.startswith("mps")


def test_version_error_names_the_tensor_and_the_step():
    session = Session()
    for code in ["a = torch.ones(5, requires_grad=True)", "b = a ** 2", "c = a.detach()", "c.zero_()"]:
        session.run(code)
    result = session.run("b.sum().backward()")
    text = result.error.explanation.text
    # Only the tensor the failing graph saved is named (c shares its counter but was not saved).
    assert "saved `a` at version 0; `a` is now at version 1" in text and "`c` " not in text
    assert "step 4 (`c.zero_()`)" in text


def test_unknown_messages_have_no_explanation():
    assert explain("something torch never says") is None


def test_every_explanation_has_korean_text():
    from tensorlab.core.explain import explanations as module
    from tensorlab.core.messages.catalogue import CATALOGUE

    for kind in sorted(module.EXPLAINED | {"too_large", "not_subset"}):
        for part in ("title", "text"):
            entry = CATALOGUE[f"explain.{kind}.{part}"]
            assert entry.en and entry.ko and entry.ko != entry.en, (kind, part)
    session = Session()
    for code in ["a = torch.ones(5, requires_grad=True)", "b = a ** 2", "c = a.detach()", "c.zero_()"]:
        session.run(code)
    korean = session.run("b.sum().backward()").error.explanation.localized("ko")
    assert korean.title == "저장된 텐서가 인플레이스로 바뀌었습니다"
    assert "`a`를 버전 0일 때 저장했는데" in korean.text and "4단계 (`c.zero_()`)" in korean.text


def test_a_step_after_a_replay_changes_only_what_it_changes_the_tensors_keep_their_identity():
    # Going back and on replays the program in a fresh session (without snapshots): the next step's snapshot must
    # still say which tensors are the same objects as before, or every tensor reads as new (a map marking
    # w, d and p "changed" after a step that raised and changed nothing).
    from tensorlab.core.lang.parse import parse_one

    codes = ["w = torch.tensor([1., 2., 3.], requires_grad=True)", "d = torch.zeros(3)", "alias = d",
             "s = torch.arange(5.)"]
    first = Session()
    known = [first.run(code) for code in codes]
    replayed = Session()
    list(replayed.restore([parse_one(code, replayed.limits) for code in codes], known))
    after = replayed.run("s[1:].copy_(s[:-1])")
    assert after.error is not None and after.error.type == "RuntimeError"   # torch refuses; nothing changes
    before = known[-1].snapshot
    for info in after.snapshot.tensors:
        assert info.object_id == before.tensor(info.name).object_id, info.name
    assert after.snapshot.tensor("alias").object_id == after.snapshot.tensor("d").object_id   # one tensor
    grown = replayed.run("e = torch.ones(2)")
    assert grown.snapshot.tensor("e").object_id not in {info.object_id for info in before.tensors}

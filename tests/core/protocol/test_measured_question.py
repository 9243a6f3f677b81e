"""The right choice of a measured question is the verdict measured then (synthetic timings: nothing is timed)."""

from __future__ import annotations

import pytest

from tensorlab.core.protocol.measure_results import (
    CLONE_DETACH,
    DETACH_CLONE,
    Machine,
    MeasuredQuestion,
    Measurement,
    MeasureResult,
    verdicts,
)

QUESTION = MeasuredQuestion(10, ("slower", "same", "faster"))


def stub_result(kind: str, size: int = 10, grad: bool = True, device: str = "cpu") -> MeasureResult:
    """A measurement whose verdict at ``size`` is ``kind`` (clone().detach() against detach().clone())."""
    other = {"slower": 3e-6, "same": 1e-6, "faster": 0.3e-6}[kind]
    found = (Measurement(CLONE_DETACH, size, grad, other, other * 0.9, other * 1.1, 10),
             Measurement(DETACH_CLONE, size, grad, 1e-6, 0.9e-6, 1.1e-6, 10))
    return MeasureResult(Machine(device, "test", "2.13", 1), found, verdicts(found))


@pytest.mark.parametrize("kind, choice", [("slower", 0), ("same", 1), ("faster", 2)])
def test_the_measured_verdict_picks_its_choice(kind, choice):
    result = stub_result(kind)
    assert result.verdicts[0].kind == kind
    assert QUESTION.choice(result) == choice and QUESTION.verdict(result) is result.verdicts[0]


def test_no_verdict_at_the_questions_size_or_grad_is_no_answer():
    assert QUESTION.choice(stub_result("same", size=100)) is None
    assert QUESTION.choice(stub_result("same", grad=False)) is None


def test_the_question_measures_only_the_two_orders_at_its_size():
    params = MeasuredQuestion(10**7, ("same", "faster", "slower"), requires_grad=False).params()
    assert params.methods == (CLONE_DETACH, DETACH_CLONE)
    assert params.sizes == (10**7,) and params.requires_grad == (False,)
    assert type(params).from_dict(params.to_dict()) == params

"""A row's gradient cell: written from the gradient's start only, the same text as cutting the whole one."""

from __future__ import annotations

import dataclasses

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tensorlab.core.files.safe_text import visible
from tensorlab.core.lessons.tensor_rows import GRAD_WIDTH, cell_text, grad_head, grad_text
from tensorlab.core.observe.inspector import take_snapshot
from tensorlab.core.protocol.snapshot import to_plain

_LEAVES = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(), st.booleans(),
                    st.text(max_size=6), st.tuples(st.floats(), st.floats()))
_NESTED = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=6).map(tuple), max_leaves=40)


def _cut_whole(grad: object) -> str:
    """What the cell showed before: the whole text, escaped, then cut."""
    text = visible(str(to_plain(grad)))
    return text if len(text) <= GRAD_WIDTH else text[: GRAD_WIDTH - 1] + "…"


@settings(max_examples=100, derandomize=True)
@given(_NESTED)
def test_the_grad_cell_is_the_whole_text_cut(grad):
    info = dataclasses.replace(take_snapshot({"x": torch.zeros(1)}).tensor("x"), grad=grad)
    assert cell_text(info, "grad") == _cut_whole(grad)
    whole = grad_text(grad)
    head = grad_head(grad, GRAD_WIDTH)
    assert whole.startswith(head) and (head == whole or len(head) > GRAD_WIDTH)


def test_a_real_gradient_cell_and_its_whole_text():
    weight = torch.nn.Linear(32, 32).weight
    weight.sum().backward()
    info = take_snapshot({"w": weight}).tensor("w")
    assert info.grad is not None
    assert grad_text(info.grad) == str(weight.grad.tolist())
    assert cell_text(info, "grad") == str(weight.grad.tolist())[: GRAD_WIDTH - 1] + "…"
    assert len(grad_head(info.grad, GRAD_WIDTH)) < 100   # the start only, not 1,024 values

"""Explanations of torch's errors: right about which tensor, and about every form of in-place change."""

from __future__ import annotations

import pytest

from tensorlab.core.session.session import Session


def _run(codes):
    session = Session()
    for code in codes:
        result = session.run(code)
    return result


def test_the_version_error_does_not_blame_an_unrelated_tensor():
    # u has the same shape and version as the saved p, but no graph saved it.
    result = _run(["x = torch.ones(3, requires_grad=True)", "u = torch.ones(3)", "u.add_(1)", "p = x + 1",
                   "y = p * x", "p.add_(1)", "y.sum().backward()"])
    text = result.error.explanation.text
    assert "saved `p` at version 0; `p` is now at version 1" in text
    assert "`u`" not in text and "step 3" not in text
    assert "step 6 (`p.add_(1)`)" in text


def test_several_changed_saved_tensors_read_one_of():
    result = _run(["x = torch.ones(3, requires_grad=True)", "p = x + 1", "q = x + 2", "y = p * q", "p.add_(1)",
                   "q.add_(1)", "y.sum().backward()"])
    text = result.error.explanation.text
    assert "one of `p`, `q`" in text and "step 5 (`p.add_(1)`), step 6 (`q.add_(1)`)" in text
    korean = result.error.explanation.localized("ko").text
    assert "`p`, `q` 중 하나입니다" in korean


def test_a_name_bound_again_is_not_blamed_for_the_old_tensor():
    result = _run(["a = torch.ones(2, requires_grad=True)", "b = a ** 2", "c = a.detach()",
                   "a = torch.ones(2, requires_grad=True)", "c.add_(1)", "b.sum().backward()"])
    # The saved tensor is the first `a`, changed through c; the name `a` now means another tensor,
    # so it is not named as `a`, nor as `c` (a detach() of it, not it): it is the memory c shares.
    assert "is at version 1; expected version 0" in result.error.message
    text = result.error.explanation.text
    assert "`a`" not in text and "saved `c`" not in text
    assert "has no name of its own; it shares its memory with `c`, now at version 1" in text
    assert "step 5 (`c.add_(1)`)" in text


@pytest.mark.parametrize("code", ["x += 1", "x[[0]] = 2", "x[x > 0] = 0", "x.add_(1)"])
def test_every_in_place_form_on_a_leaf_gets_the_leaf_explanation(code):
    result = _run(["x = torch.ones(3, requires_grad=True)", code])
    explanation = result.error.explanation
    assert explanation.title == "In-place change of a leaf"
    assert "`x += 1`" in explanation.text and "`x[[0]] = 2`" in explanation.text


def test_a_write_through_a_view_of_a_leaf_says_why():
    result = _run(["x = torch.ones(3, requires_grad=True)", "x[0] = 2"])
    explanation = result.error.explanation
    assert explanation.title == "In-place change of a leaf, through a view"
    assert "same memory" in explanation.text and "no history" in explanation.text


def test_the_inference_error_says_the_values_may_already_have_changed():
    result = _run(["w = torch.ones(3)", "with torch.inference_mode():\n    i = w * 2", "i.add_(1)"])
    assert "may already have changed" in result.error.explanation.text
    assert result.snapshot.tensor("i").values == (3.0, 3.0, 3.0)


def test_no_hidden_write_is_claimed_against_a_snapshot_whose_values_were_trimmed():
    """Kept history drops old cells (core/protocol/history.py): comparing with none must say nothing."""
    from tensorlab.core.explain.hidden_writes import hidden_writes
    from tensorlab.core.protocol.history import without_values
    from tensorlab.core.session.session import Session

    session = Session()
    before = session.run("x = torch.zeros(4)").snapshot
    after = session.run("y = x + 1").snapshot
    assert hidden_writes(before, after) == ()
    assert hidden_writes(without_values(before), after) == ()
    written = session.run("x.data[0] = 5").snapshot
    assert hidden_writes(after, written) != ()
    assert hidden_writes(without_values(after), written) == ()


def test_a_buffer_written_by_batch_norm_is_named_as_such_not_as_a_write_through_data():
    """torch's batch_norm kernel updates running_mean/var in place without bumping their version (issue #19)."""
    import torch

    from tensorlab.core.session.session import Session

    bn, batch = torch.nn.BatchNorm1d(1), torch.tensor([[1.], [3.]])
    before = (bn.running_mean._version, bn.running_var._version)
    bn(batch)
    assert (bn.running_mean._version, bn.running_var._version) == before   # torch: values moved, versions did not
    assert bn.running_mean.tolist() == [0.20000000298023224]

    session = Session()
    session.run("bn = nn.BatchNorm1d(1)")
    session.run("b = torch.tensor([[1.], [3.]])")
    notes = session.run("out = bn(b)").notes
    assert [n.key for n in notes] == ["explain.hidden_write_buffer"]   # one note for both statistics
    assert "`bn.running_mean`, `bn.running_var`" in notes[0].text and "running statistics" in notes[0].text
    assert ".data`, a NumPy array" not in notes[0].text and notes[0].advice == ""
    assert "배치 정규화" in notes[0].localized("ko").text
    # A plain tensor written through .data keeps the general note, which lists both causes honestly.
    session.run("x = torch.zeros(2)")
    (note,) = session.run("x.data[0] = 5").notes
    assert note.key == "explain.hidden_write" and "`.data`" in note.text and "batch norm" in note.text

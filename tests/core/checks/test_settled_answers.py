"""Answers the screen settles before the question (issue 18): the storage map, or an earlier step.

Each lesson here is run by the real check (torch, TensorLab's interpreter); the patterns are the
ones the course had: a write asked about a tensor the map already drew apart (indexing's
`i[0] = 100` asked with `(x, i)`), and a layout or an identity asked a step after it was made
(strides' `w.data_ptr() == m.data_ptr()` asked at `r = t.reshape(6)`, in-and-out's `a is x`).
"""

from __future__ import annotations

import pytest

from tensorlab.core.checks.findings import FindingKind
from tensorlab.core.checks.lesson_checks import check_lesson
from tensorlab.core.lessons.lesson import parse_lesson


def _lesson(*steps: str, check: str, choices: tuple[str, ...], answer: int) -> str:
    """A lesson of ``steps`` whose last step asks ``check``."""
    body = ['[lesson]\nid = "t"\ntitle = "T"\n']
    for code in steps[:-1]:
        body.append(f"[[step]]\ncode = {code!r}\n")
    listed = ", ".join(repr(c) for c in choices)
    body.append(f"[[step]]\ncode = {steps[-1]!r}\n[step.ask]\nquestion = \"?\"\ncheck = {check!r}\n"
                f"choices = [{listed}]\nanswer = {answer}\n")
    return "\n".join(body)


def _visible(text: str) -> list[str]:
    """The keys of the reasons the check gives for an answer visible before its question."""
    found = check_lesson(parse_lesson(text, "t.toml"))
    wrong = [f for f in found.findings if f.kind not in (FindingKind.VISIBLE, FindingKind.LONG_ANSWER,
                                                          FindingKind.ALWAYS_LONGEST)]
    assert wrong == [], wrong
    return [f.get("detail").key for f in found.findings if f.kind is FindingKind.VISIBLE]


def test_a_write_asked_about_a_tensor_the_map_drew_apart_is_answered_by_the_map():
    text = _lesson("x = torch.arange(5.)", "i = x[[1, 3]]", "i[0] = 100", check="(x, i)",
                   choices=("(tensor([0., 1., 2., 3., 4.]), tensor([100., 3.])) — a copy",
                            "(tensor([0., 100., 2., 3., 4.]), tensor([100., 3.])) — a view",
                            "(tensor([0., 1., 2., 3., 4.]), tensor([1., 3.])) — read-only"), answer=0)
    assert _visible(text) == ["check.apart_on_the_map"]
    # The version counter is read the same way: a separate storage has a counter of its own.
    text = _lesson("x = torch.ones(3)", "a = x.clone()", "a.add_(1)", check="(a._version, x._version)",
                   choices=("(1, 0) — apart", "(1, 1) — shared", "(0, 0) — not counted"), answer=0)
    assert _visible(text) == ["check.apart_on_the_map"]


def test_a_write_into_a_view_asked_about_its_base_is_not_answered_by_the_map():
    # The map draws v on x's strip: whether (and where) the write lands is the question.
    text = _lesson("x = torch.arange(5.)", "v = x[1:3]", "v[0] = 100", check="(x, v)",
                   choices=("(tensor([  0., 100.,   2.,   3.,   4.]), tensor([100.,   2.])) — a view",
                            "(tensor([0., 1., 2., 3., 4.]), tensor([100., 2.])) — a copy",
                            "(tensor([100., 1., 2., 3., 4.]), tensor([100., 2.])) — from the start"), answer=0)
    assert _visible(text) == []
    # Nor is a name the step binds anew: the map drew the tensor it named before.
    text = _lesson("x = torch.zeros(2)", "y = torch.ones(3)", "y = x.add_(2)", check="(x, y)",
                   choices=("(tensor([2., 2.]), tensor([2., 2.])) — y is x",
                            "(tensor([0., 0.]), tensor([2., 2.])) — a copy",
                            "(tensor([2., 2.]), tensor([1., 1., 1.])) — y unchanged"), answer=0)
    assert _visible(text) == []
    # The written tensor itself is no giveaway either.
    text = _lesson("x = torch.arange(3.)", "i = x[[0, 1]]", "i[0] = 7", check="i",
                   choices=("tensor([7., 1.]) — written", "tensor([0., 1.]) — dropped", "tensor([7., 7.]) — both"),
                   answer=0)
    assert _visible(text) == []


def test_a_layout_asked_a_step_after_it_was_made_was_settled_by_that_step():
    steps = ("m = torch.arange(6.).view(2, 3)", "t = m.t()", "w = m.reshape(3, 2)", "r = t.reshape(6)")
    text = _lesson(*steps, check="(w.data_ptr() == m.data_ptr(), r.data_ptr() == t.data_ptr())",
                   choices=("(True, False) — a view where one exists", "(False, False) — always a copy",
                            "(True, True) — always a view"), answer=0)
    assert _visible(text) == ["check.settled_before"]
    # Asked on its own step, the same layout is new: nothing was settled.
    text = _lesson(*steps[:3], check="(w.data_ptr() == m.data_ptr(), w.stride())",
                   choices=("(True, (2, 1)) — a view", "(False, (2, 1)) — a copy", "(True, (3, 1)) — m's strides"),
                   answer=0)
    assert _visible(text) == []
    # So may a step that reads it: `m.reshape(3, 2)` could have been asked whether it changes m.
    text = _lesson("m = torch.arange(6.).view(2, 3)", "w = m.reshape(3, 2)", check="(m.stride(), w.stride())",
                   choices=("((3, 1), (2, 1)) — m unchanged", "((2, 1), (2, 1)) — m reshaped too",
                            "((3, 1), (3, 1)) — strides kept"), answer=0)
    assert _visible(text) == []


@pytest.mark.parametrize(("last", "expected"), [
    ("f = x.to(torch.float64)", ["check.settled_before"]),   # `a is x` was settled where a was made
    ("a = torch.as_tensor(x)", []),                          # ... and is new where it is made
])
def test_an_identity_is_settled_where_its_names_were_bound(last, expected):
    steps = ("x = torch.ones(3)", "a = torch.as_tensor(x)", last) if last.startswith("f") else \
        ("x = torch.ones(3)", last)
    text = _lesson(*steps, check="a is x", choices=("True — x itself", "False — a copy", "None — nothing"), answer=0)
    assert _visible(text) == expected


def test_values_and_gradients_a_step_leaves_alone_are_still_fair_questions():
    # Whether backward() reaches x is the question, even though x.grad stays None.
    text = _lesson("x = torch.ones(3, requires_grad=True)", "n = (x * 2).detach().requires_grad_(True)",
                   "(n * n).sum().backward()", check="(n.grad, x.grad)",
                   choices=("(tensor([4., 4., 4.]), None) — cut", "(None, None) — nothing",
                            "(tensor([4., 4., 4.]), tensor([8., 8., 8.])) — through"), answer=0)
    assert _visible(text) == []


def test_what_a_print_shows_of_identities_and_layouts_was_settled_before_it():
    text = _lesson("x = torch.ones(3)", "a = torch.as_tensor(x)", "print(a is x, x.shape)", check="output",
                   choices=("True torch.Size([3]) — x itself", "False torch.Size([3]) — a copy",
                            "True (3,) — a tuple"), answer=0)
    assert _visible(text) == ["check.settled_before"]
    # What it prints of values is the rule of shown values (each argument shown), as before.
    text = _lesson("x = torch.ones(3)", "y = x * 2", "print(y.sum())", check="output",
                   choices=("tensor(6.) — the sum", "tensor(3.) — the count", "6 — a number"), answer=0)
    assert _visible(text) == []

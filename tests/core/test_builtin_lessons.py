"""The key outcome of each built-in lesson, as the lesson promises it."""

from __future__ import annotations

import torch

from tensorlab.core.lessons import find_lesson
from tensorlab.core.runner import run_lesson


def _run(lesson_id):
    lesson = find_lesson(lesson_id)
    return {r.code: r for r in run_lesson(lesson)}, run_lesson(lesson)


def test_inplace_on_a_leaf():
    by_code, results = _run("inplace-on-a-leaf")
    assert by_code["x[0] = 2"].error.message == (
        "a view of a leaf Variable that requires grad is being used in an in-place operation.")
    assert by_code["x.add_(1)"].error.message == (
        "a leaf Variable that requires grad is being used in an in-place operation.")
    no_grad = next(r for r in results if r.code.startswith("with torch.no_grad()"))
    assert no_grad.ok and no_grad.snapshot.tensor("x").version == 1
    assert no_grad.snapshot.tensor("x").values == (2.0, 1.0, 1.0, 1.0, 1.0)
    after_clone = by_code["y[0] = 5"].snapshot
    assert after_clone.tensor("y").storage != after_clone.tensor("x").storage
    assert after_clone.tensor("x").values == (2.0, 1.0, 1.0, 1.0, 1.0)
    assert by_code["print(x.grad)"].output == "tensor([0., 1., 1., 1., 1.])\n"


def test_clone_keeps_the_graph():
    by_code, results = _run("clone-keeps-the-graph")
    prints = [r for r in results if r.code == "print(x.grad)"]
    assert prints[0].output == "tensor([5., 5., 5., 5., 5.])\n"
    assert prints[1].output == "tensor([11., 11., 11., 11., 11.])\n"
    nonleaf = by_code["print(y.grad, y.requires_grad, y.is_leaf)"]
    assert nonleaf.output == "None True False\n"
    assert "not a leaf Tensor is being accessed" in nonleaf.warnings[0].message
    assert by_code["print(y.grad)"].output == "tensor([3., 3., 3., 3., 3.])\n"
    assert by_code["print(y.grad)"].warnings == ()
    # The same numbers, straight from torch.
    x = torch.ones(5, requires_grad=True)
    ((x.clone() * 2) + (x.clone() * 3)).sum().backward()
    assert prints[0].output == f"{x.grad}\n"


def test_detach_shares_memory():
    by_code, _ = _run("detach-shares-memory")
    snap = by_code["z = x.detach()"].snapshot
    assert snap.tensor("z").storage == snap.tensor("x").storage != snap.tensor("y").storage
    assert snap.tensor("z").requires_grad is False and snap.tensor("z").grad_fn is None
    assert by_code["print(x.grad)"].output == "tensor([2., 2., 2., 2., 2.])\n"
    after = by_code["z[3] = 2"].snapshot
    assert after.tensor("x").values == (1.0, 1.0, 1.0, 2.0, 1.0)
    assert after.tensor("x").version == after.tensor("z").version == 1
    assert by_code["print(x._version, z._version)"].output == "1 1\n"


def test_detach_and_the_version_counter():
    _, results = _run("detach-and-the-version-counter")
    backwards = [r for r in results if r.code == "b.sum().backward()"]
    assert "is at version 1; expected version 0 instead" in backwards[0].error.message
    assert backwards[1].ok
    data_step = next(r for r in results if r.code == "c = a.data")
    assert data_step.snapshot.tensor("c").storage == data_step.snapshot.tensor("a").storage
    zeroed = [r for r in results if r.code == "c.zero_()"][1].snapshot
    assert zeroed.tensor("a").version == 0 and zeroed.tensor("c").version == 1
    assert results[-1].output == "tensor([0., 0., 0., 0., 0.])\n"


def test_clone_detach_order():
    by_code, results = _run("clone-detach-order")
    snap = results[-1].snapshot
    x, a, b = snap.tensor("x"), snap.tensor("a"), snap.tensor("b")
    assert len({x.storage, a.storage, b.storage}) == 3
    assert (a.requires_grad, b.requires_grad, a.grad_fn, b.grad_fn) == (False, False, None, None)
    assert x.values == (1.0,) * 5 and x.version == 0
    assert results[-1].output == "False False None None\n"


def test_grad_fn_names_read_as_torch_prints_them():
    by_code, _ = _run("inplace-on-a-leaf")
    y = by_code["y[0] = 5"].snapshot.tensor("y")
    assert y.grad_fn == "CopySlices"
    x = torch.ones(5, requires_grad=True)
    z = x.clone()
    z[0] = 5
    assert f"grad_fn=<{y.grad_fn}>" in repr(z)

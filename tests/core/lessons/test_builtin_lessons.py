"""Key outcomes of the built-in lessons, each compared with plain torch run here directly.

(Every field of every step is compared with plain torch in test_against_plain_torch;
the answers of the questions are derived and checked in test_curriculum.)
"""

from __future__ import annotations

import copy

import torch

from tests.core.lessons.lesson_runs import raised, run_by_code


def test_inplace_on_a_leaf_messages_are_torchs():
    by_code, results = run_by_code("inplace-on-a-leaf")
    x = torch.ones(5, requires_grad=True)

    def assign():
        x[0] = 2

    assert by_code["x[0] = 2"].error.message == raised(assign)
    assert by_code["x.add_(1)"].error.message == raised(lambda: x.add_(1))
    no_grad = next(r for r in results if r.code.startswith("with torch.no_grad()"))
    with torch.no_grad():
        x[0] = 2
    assert no_grad.ok and no_grad.snapshot.tensor("x").version == x._version == 1
    y = x.clone()
    y[0] = 5
    y.sum().backward()
    assert by_code["print(x.grad)"].output == f"{x.grad}\n"
    assert f"grad_fn=<{by_code['y[0] = 5'].snapshot.tensor('y').grad_fn}>" in repr(y)


def test_clone_keeps_the_graph():
    by_code, results = run_by_code("clone-keeps-the-graph")
    prints = [r for r in results if r.code == "print(x.grad)"]
    clone = by_code["c = x.clone()"].snapshot.tensor("c")   # the clone is named: on the map, apart from x
    assert clone.storage != by_code["c = x.clone()"].snapshot.tensor("x").storage
    assert (clone.grad_fn, clone.is_leaf) == ("CloneBackward0", False)
    x = torch.ones(5, requires_grad=True)
    ((x.clone() * 2) + (x.clone() * 3)).sum().backward()
    assert prints[0].output == f"{x.grad}\n"
    y = x.clone() * 2
    y.retain_grad()
    (y * 3).sum().backward()
    assert prints[1].output == f"{x.grad}\n"
    assert by_code["print(y.grad)"].output == f"{y.grad}\n" and by_code["print(y.grad)"].warnings == ()
    nonleaf = by_code["print(y.grad, y.requires_grad, y.is_leaf)"]
    assert "not a leaf Tensor is being accessed" in nonleaf.warnings[0].message


def test_detach_shares_memory_and_its_version_counter():
    by_code, _ = run_by_code("detach-shares-memory")
    snap = by_code["z = x.detach()"].snapshot
    assert snap.tensor("z").storage == snap.tensor("x").storage != snap.tensor("y").storage
    x = torch.arange(1., 6., requires_grad=True)
    z = x.detach()
    z[3] = 0
    after = by_code["z[3] = 0"].snapshot
    assert after.tensor("x").values == tuple(x.tolist())
    assert after.tensor("x").version == after.tensor("z").version == x._version == z._version == 1


def test_detach_and_data_with_the_version_counter():
    _, results = run_by_code("detach-and-the-version-counter")
    backwards = [r for r in results if r.code == "b.sum().backward()"]
    a = torch.ones(5, requires_grad=True)
    b = a ** 2
    a.detach().fill_(3)
    assert backwards[0].error.message == raised(lambda: b.sum().backward())
    a = torch.ones(5, requires_grad=True)
    b = a ** 2
    a.data.fill_(3)
    b.sum().backward()
    assert backwards[1].ok and results[-1].output == f"{a.grad}\n"
    assert torch.equal(a.grad, torch.full((5,), 6.0))  # silently wrong: the right value is 2


def test_an_inference_tensor_is_written_before_torch_raises():
    by_code, _ = run_by_code("no-grad-detach-inference")
    w = torch.ones(3, requires_grad=True)
    with torch.inference_mode():
        i = w * 2
    message = raised(lambda: i.add_(1))
    step = by_code["i.add_(1)"]
    assert step.error.message == message
    assert step.snapshot.tensor("i").values == tuple(i.tolist()) == (3.0, 3.0, 3.0)


def test_deepcopy_refuses_a_tensor_inside_the_graph():
    by_code, _ = run_by_code("four-ways-to-copy")
    y = torch.ones(3, requires_grad=True) * 2
    assert by_code["d = copy.deepcopy(y)"].error.message == raised(lambda: copy.deepcopy(y))
    assert by_code["e = copy.deepcopy(x)"].snapshot.tensor("e").requires_grad is True


def test_clone_detach_order():
    by_code, results = run_by_code("clone-detach-order")
    printed = by_code["print(a.requires_grad, b.requires_grad, a.grad_fn, b.grad_fn)"]
    snap = printed.snapshot
    x, a, b = snap.tensor("x"), snap.tensor("a"), snap.tensor("b")
    assert len({x.storage, a.storage, b.storage}) == 3
    assert (a.requires_grad, b.requires_grad, a.grad_fn, b.grad_fn) == (False, False, None, None)
    assert x.values == (1.0,) * 5 and x.version == 0
    assert printed.output == "False False None None\n"

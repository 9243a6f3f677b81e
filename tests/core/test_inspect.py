"""Snapshots read torch without side effects and group storages by memory."""

from __future__ import annotations

import warnings

import torch

from tensorlab.core.inspect import covered_cells, take_snapshot


def _state(namespace):
    facts = {}
    for name, t in namespace.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grad = t.grad if t.is_leaf or t.retains_grad else None
        facts[name] = (t._version, None if grad is None else grad.clone(), t.grad_fn, t.requires_grad)
    return facts


def test_snapshot_changes_nothing_and_warns_nothing():
    x = torch.ones(5, requires_grad=True)
    y = x.clone() * 2  # non-leaf: reading its .grad would warn
    (y * 3).sum().backward(retain_graph=True)
    z = x.detach()
    v = x[1:3]
    namespace = {"x": x, "y": y, "z": z, "v": v}
    before = _state(namespace)
    grad_fn_before = y.grad_fn
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        snapshot = take_snapshot(namespace)
        take_snapshot(namespace)
    assert caught == []
    after = _state(namespace)
    for name in namespace:
        assert after[name][0] == before[name][0]
        assert after[name][2] is before[name][2]
    assert torch.equal(after["x"][1], before["x"][1])
    assert y.grad_fn is grad_fn_before
    assert y.grad_fn.next_functions == grad_fn_before.next_functions
    # The graph still works, unchanged, after inspection.
    y.sum().backward()
    assert x.grad.tolist() == [8.0] * 5
    info = snapshot.tensor("y")
    assert info.grad is None and info.grad_fn == "MulBackward0" and info.is_leaf is False


def test_storages_are_grouped_by_memory_not_data_ptr():
    x = torch.arange(6.0)
    v = x[2:]           # different data_ptr, same storage
    c = x.clone()
    d = x.detach()
    e = torch.empty(0)
    f = torch.empty(0)
    snapshot = take_snapshot({"x": x, "v": v, "c": c, "d": d, "e": e, "f": f})
    assert x.data_ptr() != v.data_ptr()
    ids = {t.name: t.storage for t in snapshot.tensors}
    assert ids["x"] == ids["v"] == ids["d"] == "S0"
    assert ids["c"] == "S1"
    assert ids["e"] != ids["f"]  # empty storages are only shared with themselves
    assert [s.tensors for s in snapshot.storages][:2] == [("x", "v", "d"), ("c",)]
    assert snapshot.storage("S0").nbytes == 24
    assert snapshot.storage("S0").cells == (0.0, 1.0, 2.0, 3.0, 4.0, 5.0)
    assert snapshot.tensor("v").storage_offset == 2


def test_values_are_capped_and_special_floats_are_strings():
    big = torch.zeros(10_001)
    odd = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])
    cx = torch.tensor([1 + 2j])
    snapshot = take_snapshot({"big": big, "odd": odd, "cx": cx, "n": 3})
    assert snapshot.tensor("big").values is None
    assert snapshot.tensor("odd").values == ("nan", "inf", "-inf", 1.5)
    assert snapshot.to_json()["tensors"]["cx"]["values"] == [[1.0, 2.0]]
    assert snapshot.to_json()["others"] == {"n": {"type": "int", "repr": "3"}}


def test_inference_tensor_has_no_version():
    with torch.inference_mode():
        t = torch.ones(2)
    assert take_snapshot({"t": t}).tensor("t").version is None


def test_covered_cells_follow_strides():
    x = torch.arange(12.0).reshape(3, 4)
    t = x.t()
    cells = covered_cells(tuple(t.shape), tuple(t.stride()), t.storage_offset())
    assert cells == tuple(int(v) for v in t.flatten().tolist())
    s = x[1:, ::2]
    assert covered_cells(tuple(s.shape), tuple(s.stride()), s.storage_offset()) == (4, 6, 8, 10)


def test_autograd_graph_reports_saved_tensors_as_torch_does():
    from tensorlab.core.graph import SavedTensor

    a = torch.ones(5, requires_grad=True)
    b = a**2
    snapshot = take_snapshot({"a": a, "b": b})
    graph = snapshot.tensor("b").graph
    assert [n.name for n in graph.nodes] == ["PowBackward0", "AccumulateGrad"]
    assert graph.edges == ((0, 1),)
    assert graph.nodes[1].leaf == "a"
    assert SavedTensor("self", "ok", "a", 0) in graph.nodes[0].saved
    c = a.detach()
    c.zero_()
    changed = take_snapshot({"a": a, "b": b, "c": c}).tensor("b").graph.nodes[0].saved
    assert SavedTensor("self", "changed") in changed
    e = torch.ones(2, requires_grad=True).exp()
    e.sum().backward()
    freed = take_snapshot({"e": e}).tensor("e").graph.nodes[0].saved
    assert [s.status for s in freed] == ["freed"]
    assert take_snapshot({"a": a}).tensor("a").graph is None

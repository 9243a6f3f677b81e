"""Snapshots read torch without side effects and group storages by memory."""

from __future__ import annotations

import warnings

import pytest
import torch

from tensorlab.core.observe.inspector import covered_cells, take_snapshot


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


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
                                   torch.int8, torch.bool, torch.complex64])
def test_values_read_whole_tensors_at_once_are_the_same_plain_numbers(dtype):
    """The values of a tensor torch says holds no NaN or infinity are its tolist() as tuples (no number looked at
    one by one, a long run reads millions); any other is converted number by number, as always."""
    from tensorlab.core.observe.inspector import _freeze, _listed

    plain = (torch.arange(24).reshape(2, 3, 4) % 3).to(dtype)
    assert _listed(plain) == _freeze(plain.to(torch.float32 if dtype in (torch.float16, torch.bfloat16)
                                              else dtype).tolist())
    assert isinstance(_listed(plain), tuple) and isinstance(_listed(plain)[0][0], tuple)
    if dtype.is_floating_point:
        odd = torch.tensor([[1.0, float("nan")], [float("inf"), -float("inf")]], dtype=dtype)
        assert _listed(odd) == ((1.0, "nan"), ("inf", "-inf"))
    assert _listed(torch.tensor(2, dtype=dtype)) == _freeze(torch.tensor(2, dtype=dtype).tolist())


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
    from tensorlab.core.protocol.snapshot import SavedStatus, SavedTensor

    a = torch.ones(5, requires_grad=True)
    b = a**2
    snapshot = take_snapshot({"a": a, "b": b})
    graph = snapshot.tensor("b").graph
    assert [n.name for n in graph.nodes] == ["PowBackward0", "AccumulateGrad"]
    assert graph.edges == ((0, 1),)
    assert graph.nodes[1].leaf == "a"
    assert SavedTensor("self", SavedStatus.OK, "a", 0) in graph.nodes[0].saved
    c = a.detach()
    c.zero_()
    changed = take_snapshot({"a": a, "b": b, "c": c}).tensor("b").graph.nodes[0].saved
    # Read without unpacking: `a` itself, saved at version 0 and now (through its detach() c) at version 1.
    assert SavedTensor("self", SavedStatus.CHANGED, "a", 1, 0, (5,), ("c",)) in changed
    assert (a._version, c._version) == (1, 1)
    e = torch.ones(2, requires_grad=True).exp()
    e.sum().backward()
    freed = take_snapshot({"e": e}).tensor("e").graph.nodes[0].saved
    assert [s.status for s in freed] == ["freed"]
    assert take_snapshot({"a": a}).tensor("a").graph is None


def test_a_storage_keeps_its_label_while_it_lives_and_labels_follow_first_appearance():
    from tensorlab.core.session.session import Session

    session = Session()
    steps = ["a = torch.ones(5, requires_grad=True)", "b = a ** 2", "c = a.detach()",
             "a = torch.ones(5, requires_grad=True)", "d = c[1:]", "c = torch.zeros(2)", "d = None"]
    labels = []
    for code in steps:
        labels.append({t.name: t.storage for t in session.run(code).snapshot.tensors})
    assert labels[2] == {"a": "S0", "b": "S1", "c": "S0"}
    # The new `a` gets a new label; the old memory keeps S0 through `c`, then through `d`.
    assert labels[3] == {"a": "S2", "b": "S1", "c": "S0"}
    assert labels[5] == {"a": "S2", "b": "S1", "c": "S3", "d": "S0"}
    # Once nothing views it, the label is gone for good: labels are never reused.
    assert labels[6] == {"a": "S2", "b": "S1", "c": "S3"}
    assert session.run("e = torch.ones(1)").snapshot.tensor("e").storage == "S4"


def test_memory_changed_behind_autograd_is_noted_and_shown_in_the_cells():
    from tensorlab.core.session.session import Session

    session = Session()
    for code in ["a = torch.ones(3, requires_grad=True)", "b = a * a", "c = a.data"]:
        assert not session.run(code).notes
    result = session.run("c.zero_()")
    assert result.snapshot.storage("S0").cells == (0.0, 0.0, 0.0)
    assert result.snapshot.tensor("a").version == 0 and result.snapshot.tensor("c").version == 1
    [note] = result.notes
    assert "`a`" in note.text and "version counter" in note.text and "`c`" not in note.text
    # `c` has a counter of its own: a change through the shared counter of `a` and `d` is noted for `c`.
    session.run("d = a.detach()")
    [note] = session.run("d.add_(1)").notes
    assert "`c`" in note.text and "`a`" not in note.text
    fresh = Session()
    for code in ["x = torch.ones(3)", "y = x.detach()"]:
        fresh.run(code)
    assert not fresh.run("y.add_(1)").notes
    session.run("n = a.detach().numpy()")
    result = session.run("n[0] = 7")
    assert result.snapshot.tensor("a").values[0] == 7.0 and result.notes


def test_unchanged_tensors_are_shared_between_snapshots():
    from tensorlab.core.session.session import Session

    session = Session()
    session.run("t0 = torch.rand(1000)")
    first = session.run("t1 = t0").snapshot.tensor("t0")
    for k in range(2, 40):
        session.run(f"t{k} = t0")
    last = session.results[-1].snapshot
    # The same object in every snapshot, and one tuple of values for every alias.
    assert last.tensor("t0") is first
    assert all(last.tensor(f"t{k}").values is first.values for k in range(1, 40))


def test_unchanged_storages_and_values_are_shared_and_minus_zero_is_a_change():
    import math

    from tensorlab.core.session.session import Session

    session = Session()
    session.run("x = torch.zeros(3)")
    session.run("n = [1, 2]")
    before = session.run("y = torch.ones(2)").snapshot
    after = session.run("x[0] = -0.0").snapshot
    # torch.equal calls -0.0 and 0.0 equal; the cells and values must still show what memory holds.
    assert math.copysign(1.0, after.tensor("x").values[0]) == -1.0
    assert math.copysign(1.0, after.storage(after.tensor("x").storage).cells[0]) == -1.0
    assert after.storage(after.tensor("y").storage) is before.storage(before.tensor("y").storage)
    assert next(o for o in after.others if o.name == "n") is next(o for o in before.others if o.name == "n")
    changed = session.run("n[0] = 5").snapshot
    assert next(o for o in changed.others if o.name == "n").repr == "[5, 2]"


def test_views_of_the_same_elements_share_one_read_and_conj_neg_and_other_views_do_not():
    x = torch.rand(1000)
    aliases = {f"y{k}": x.detach() for k in range(30)}
    z = torch.tensor([1 + 2j, 3 - 4j])
    namespace = {"x": x, **aliases, "z": z, "c": z.conj(), "n": z.conj()._neg_view(), "r": torch.view_as_real(z),
                 "tail": x[1:], "ints": x.view(torch.int32)}
    snapshot = take_snapshot(namespace, graphs=False)
    def listed(values, complex_=False):
        if complex_ and isinstance(values, tuple) and len(values) == 2 and not isinstance(values[0], tuple):
            return complex(*values)
        return [listed(v, complex_) for v in values] if isinstance(values, tuple) else values

    for name, tensor in namespace.items():   # every value as torch lists it
        got = snapshot.tensor(name).values
        if tensor.is_complex():
            assert [listed(v, True) for v in got] == tensor.tolist(), name
        else:
            assert listed(got) == tensor.tolist(), name
    assert all(snapshot.tensor(f"y{k}").values is snapshot.tensor("x").values for k in range(30))
    assert snapshot.tensor("c").values != snapshot.tensor("z").values
    x.add_(1)   # a later snapshot reads memory afresh
    again = take_snapshot(namespace, graphs=False)
    assert list(again.tensor("y3").values) == x.tolist()


# -- storage identity is memory, not an address (issue #15, class 5) ------------------------------------------
def _session(codes):
    from tensorlab.core.session.session import Session

    session = Session()
    results = [session.run(code) for code in codes]
    return session, results


def test_a_storage_over_part_of_another_is_the_same_memory():
    # from_numpy makes a storage object of its own, but its bytes are x's from the second element on.
    session, results = _session(["x = torch.arange(4.0)", "y = torch.from_numpy(x[1:].numpy())", "y[0] = 9"])
    snapshot = results[-1].snapshot
    x, y = snapshot.tensor("x"), snapshot.tensor("y")
    assert x.storage == y.storage == "S0"
    # storage_offset and stride stay torch's own; the map knows where y's storage starts in the memory.
    assert (y.storage_offset, y.stride, y.storage_start) == (0, (1,), 4)
    (storage,) = snapshot.storages
    assert storage.tensors == ("x", "y") and storage.nbytes == 16 and storage.cells == (0.0, 9.0, 2.0, 3.0)
    assert x.values == (0.0, 9.0, 2.0, 3.0)
    from tensorlab.core.checks.note_facts import check_fact
    assert check_fact("y shares storage with x", snapshot) is None
    assert check_fact("y does not share storage with x", snapshot) is not None
    assert check_fact("y has its own storage", snapshot) is not None


def test_storages_that_overlap_through_a_third_are_one_group_and_apart_ones_are_not():
    x = torch.arange(6.0)
    a = torch.from_numpy(x[:3].numpy())
    b = torch.from_numpy(x[2:].numpy())   # overlaps a only in x[2]
    c = torch.from_numpy(x[3:].numpy())   # overlaps b, not a
    apart = torch.from_numpy(x.numpy()[4:])
    snapshot = take_snapshot({"a": a, "c": c, "b": b, "z": torch.ones(2)})
    assert [s.tensors for s in snapshot.storages] == [("a", "c", "b"), ("z",)]
    assert snapshot.storages[0].nbytes == 24 and snapshot.storages[0].cells == tuple(float(i) for i in range(6))
    assert [t.storage_start for t in snapshot.tensors] == [0, 12, 8, 0]
    # Adjacent memory is not shared memory.
    first, second = torch.from_numpy(x[:3].numpy()), torch.from_numpy(x[3:].numpy())
    assert len(take_snapshot({"p": first, "q": second}).storages) == 2
    assert take_snapshot({"apart": apart, "x": x}).tensor("apart").storage == "S0"


def test_a_new_storage_at_a_freed_address_gets_a_new_label():
    # The allocator often gives the freed block to the next allocation of its size: whether it does or
    # not, the new tensor is new memory, with a new label and no hidden write reported (20 tries).
    for _ in range(20):
        session, results = _session(["x = torch.ones(1000)",
                                     "with torch.no_grad():\n    x = None\n    y = torch.ones(1000)\n",
                                     "with torch.no_grad():\n    y = None\n    y = torch.zeros(1000)\n"])
        assert results[1].to_json()["tensors"]["y"]["storage"] == "S1"
        assert results[2].to_json()["tensors"]["y"]["storage"] == "S2"
        assert results[2].notes == ()
        assert results[1].snapshot.tensor("y").object_id != results[2].snapshot.tensor("y").object_id


def test_a_new_tensor_at_a_freed_id_is_not_the_old_one():
    from tensorlab.core.observe.inspector import Inspector

    inspector = Inspector()
    numbers = set()
    for _ in range(50):
        t = torch.ones(1)
        numbers.add(inspector.take({"t": t}).tensor("t").object_id)
        del t  # the next tensor is often allocated at the same id()
    assert len(numbers) == 50


def test_cells_are_memory_not_the_first_viewers_conj_or_neg_bit():
    # The first name over the memory is a lazy conjugate view: its values are conjugated, the memory is not.
    session, results = _session(["h = torch.tensor([[1+2j, 3+4j]]).H", "x = h.H", "h = x"])
    first = results[0].snapshot
    assert first.tensor("h").values == (((1.0, -2.0),), ((3.0, -4.0),))    # the view, as torch shows it
    assert first.storages[0].cells == ((1.0, 2.0), (3.0, 4.0))                # the memory, as it holds it
    assert [r.notes for r in results] == [(), (), ()]
    assert results[-1].snapshot.storages[0].cells == ((1.0, 2.0), (3.0, 4.0))


def test_an_array_over_the_memory_keeps_its_label():
    # a keeps x's memory alive and is a name over it: from_numpy(a) is that memory, under its label.
    session, results = _session(["x = torch.arange(3.0)", "a = x.numpy()", "x = torch.ones(1)",
                                 "y = torch.from_numpy(a)", "b = torch.ones(2).numpy()"])
    assert [s.id for s in results[2].snapshot.storages] == ["S1"]
    assert results[3].snapshot.tensor("y").storage == "S0"
    assert next(o for o in results[3].snapshot.others if o.name == "a").storage == "S0"
    assert results[4].snapshot.tensor("y").storage == "S0"


def test_the_repr_of_a_name_is_made_again_whenever_it_may_have_changed():
    from tensorlab.core.observe.inspector import Inspector

    inspector = Inspector()
    items = [0] * 1000
    t = torch.zeros(2)
    namespace = {"l": items, "n": 5, "s": "a", "tensors": [t], "nested": [[1], 2], "f": 1}
    first = {o.name: o.repr for o in inspector.take(namespace).others}
    items[3] = 7             # a write into the list, the same object
    t.add_(1)                # a tensor inside a list changed
    namespace["nested"][0][0] = 9
    namespace["f"] = True    # equal to 1, but another value
    again = {o.name: o.repr for o in inspector.take(namespace).others}
    assert again["l"] == repr(items)[:2000] + " ..." and again["l"] != first["l"]
    assert again["tensors"] == repr([t]) and again["nested"] == "[[9], 2]" and again["f"] == "True"
    assert again["n"] == "5" and again["s"] == "'a'"
    items.append(1)          # one more item, past what the repr shows: the length still says it changed
    assert {o.name: o.repr for o in inspector.take(namespace).others}["l"] == repr(items)[:2000] + " ..."
    short = [1, 2]
    namespace["l"] = short
    assert {o.name: o.repr for o in inspector.take(namespace).others}["l"] == "[1, 2]"
    short.append(3)
    assert {o.name: o.repr for o in inspector.take(namespace).others}["l"] == "[1, 2, 3]"


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                                   torch.complex128, torch.float8_e4m3fn])
def test_unchanged_compares_floating_values_bit_for_bit_in_every_width(dtype):
    # Compared as integers of the element's width (torch.equal of bytes is a slow path): still bit for bit.
    from tensorlab.core.observe.inspector import _unchanged

    zeros = torch.zeros(8).to(dtype)
    assert _unchanged(zeros.clone(), zeros)
    assert not _unchanged(zeros.clone(), (-torch.zeros(8)).to(dtype))      # -0.0 is another bit pattern
    nans = torch.full((8,), float("nan")).to(dtype)
    assert _unchanged(nans.clone(), nans)                                    # NaN is the same bits as itself
    assert _unchanged(zeros[::2].clone(), zeros[::2])                        # a strided view is read as it is
    changed = zeros.clone()
    changed[3] = 1
    assert not _unchanged(zeros.clone(), changed)


def test_a_dict_that_holds_itself_is_printed_and_shown_with_pythons_own_recursion_marks():
    # Review r16b finding 13: an OrderedDict (a state_dict) re-entered is `...`, a plain dict `{...}`.
    from tensorlab.core.session.session import Session
    torch.manual_seed(0)
    session = Session()
    for code in ("import torch.nn as nn", "m = nn.Linear(2, 2)", "sd = m.state_dict()", "sd['weight'] = sd",
                 "d = {'a': sd}", "sd['d'] = d", "e = {'x': 1}", "e['e'] = e"):
        assert session.run(code).ok, code
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 2)
    sd = m.state_dict()
    sd["weight"] = sd
    d = {"a": sd}
    sd["d"] = d
    e: dict = {"x": 1}
    e["e"] = e
    for name, value in (("sd", sd), ("d", d), ("e", e)):
        result = session.run(f"print({name})")
        assert result.output == repr(value) + "\n"
        assert [o.repr for o in result.snapshot.others if o.name == name] == [repr(value)]
    assert "('weight', ...)" in repr(sd) and "{'x': 1, 'e': {...}}" == repr(e)

"""Contract 3 grows (issue #16): every tensor a name reaches is a row under the Python that reads it,
in order of first binding of the name, then the container's own order. Hand-written expectations, and
the tests' own walker (tests/core/reference.py, which imports nothing from tensorlab) agreeing."""

from __future__ import annotations

import torch

from tensorlab.core.observe.inspector import MAX_PARTS, take_snapshot
from tensorlab.core.session.session import Session
from tests.core import reference


def _run(*codes: str) -> Session:
    session = Session()
    for code in codes:
        assert session.run(code).ok, code
    return session


def _names(snapshot) -> list[str]:
    return [t.name for t in snapshot.tensors]


def _by_name(snapshot) -> dict:
    return {t.name: t for t in snapshot.tensors}


def test_unbind_shows_each_part_on_the_memory_of_x():
    session = _run("x = torch.arange(4.)", "parts = x.unbind()")
    snapshot = session.results[-1].snapshot
    assert _names(snapshot) == ["x", "parts[0]", "parts[1]", "parts[2]", "parts[3]"]
    rows = _by_name(snapshot)
    assert {rows[f"parts[{i}]"].storage for i in range(4)} == {rows["x"].storage}
    assert [rows[f"parts[{i}]"].storage_offset for i in range(4)] == [0, 1, 2, 3]
    assert [o.name for o in snapshot.others] == ["parts"]
    assert snapshot.storages[0].tensors == ("x", "parts[0]", "parts[1]", "parts[2]", "parts[3]")
    assert list(reference.rows(session.namespace)) == _names(snapshot)


def test_the_same_tensor_under_two_names_is_a_row_under_each():
    session = _run("a = torch.ones(2)", "pair = (a, a * 2)", "b = a", "l = [1, b, 'x', a[1:]]")
    snapshot = session.results[-1].snapshot
    assert _names(snapshot) == ["a", "pair[0]", "pair[1]", "b", "l[1]", "l[3]"]
    rows = _by_name(snapshot)
    assert rows["pair[0]"].storage == rows["b"].storage == rows["l[1]"].storage == rows["a"].storage
    assert rows["pair[0]"].object_id == rows["a"].object_id
    assert rows["pair[1]"].storage != rows["a"].storage and rows["l[3]"].storage_offset == 1
    assert list(reference.rows(session.namespace)) == _names(snapshot)


def test_only_the_first_items_of_a_long_container_are_rows():
    session = _run("x = torch.ones(70)", "rows = x.split(1)")
    names = _names(session.results[-1].snapshot)
    assert names == ["x"] + [f"rows[{i}]" for i in range(MAX_PARTS)] and MAX_PARTS == reference.PARTS == 64
    assert list(reference.rows(session.namespace)) == names


def test_a_modules_parameters_then_buffers_with_numeric_parts_as_indices():
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.BatchNorm1d(3))
    namespace = {"net": net, "sd": net.state_dict(), "alias": net, "copy": __import__("copy").deepcopy(net)}
    snapshot = take_snapshot(namespace)
    parts = ["[0].weight", "[0].bias", "[2].weight", "[2].bias", "[2].running_mean", "[2].running_var",
             "[2].num_batches_tracked"]
    keys = ["['0.weight']", "['0.bias']", "['2.weight']", "['2.bias']", "['2.running_mean']", "['2.running_var']",
            "['2.num_batches_tracked']"]
    assert _names(snapshot) == (["net" + p for p in parts] + ["sd" + k for k in keys]
                                + ["alias" + p for p in parts] + ["copy" + p for p in parts])
    rows = _by_name(snapshot)
    # A state_dict entry sits on its parameter's memory; a deepcopy on its own; an alias on the same.
    assert rows["sd['0.weight']"].storage == rows["net[0].weight"].storage == rows["alias[0].weight"].storage
    assert rows["copy[0].weight"].storage != rows["net[0].weight"].storage
    assert rows["net[0].weight"].requires_grad and not rows["sd['0.weight']"].requires_grad
    assert [o.name for o in snapshot.others] == ["net", "sd", "alias", "copy"]
    assert list(reference.rows(namespace)) == _names(snapshot)


def test_a_named_module_with_a_shared_parameter_follows_named_parameters():
    inner = torch.nn.Linear(2, 2)
    net = torch.nn.Sequential(inner, torch.nn.Tanh(), inner)
    snapshot = take_snapshot({"net": net})
    assert _names(snapshot) == ["net[0].weight", "net[0].bias"]   # torch lists a shared parameter once


def test_dict_keys_are_reprs_escaped_and_cut_and_other_keys_are_not_rows():
    t = torch.ones(1)
    long_a, long_b = "k" * 80, "k" * 81
    namespace = {"sd": {"weight": t, "a\u202eb\x1b": t, 1: t, long_a: t, long_b: t, "n": 3}}
    snapshot = take_snapshot(namespace)
    cut = "'" + "k" * 37 + "…'"
    assert _names(snapshot) == ["sd['weight']", "sd['a\\u202eb\\x1b']", f"sd[{cut}]", f"sd[{cut}]~2"]
    assert all(len(name) <= len("sd[]~2") + 40 for name in _names(snapshot))
    assert list(reference.rows(namespace)) == _names(snapshot)


def test_a_part_has_its_graph_when_its_name_is_read():
    session = _run("w = torch.ones(2, requires_grad=True)", "outs = [w * 2, w + 1]")
    snapshot = session.results[-1].snapshot
    assert all(_by_name(snapshot)[n].graph is not None for n in ("outs[0]", "outs[1]"))
    assert _by_name(snapshot)["outs[0]"].grad_fn == "MulBackward0"


def test_every_field_of_a_part_matches_plain_torch():
    codes = ["x = torch.arange(6.).reshape(2, 3)", "parts = x.unbind()", "parts[0].mul_(2)",
             "chunks = list_of = [x.t(), x[0]]"]
    session = _run(*codes)
    plain = reference.run_plain(codes)
    for result, theirs in zip(session.results, plain):
        ours = result.to_json()["tensors"]
        assert list(ours) == list(theirs["tensors"])
        for name, fields in theirs["tensors"].items():
            assert ours[name] == fields, name


def test_a_restored_session_keeps_the_labels_of_memory_only_a_container_views():
    session = _run("x = torch.ones(2)", "parts = torch.zeros(4).unbind()", "x = None")
    labels = {t.name: t.storage for t in session.results[-1].snapshot.tensors}
    fresh = Session()
    list(fresh.restore(session.statements, session.results))
    after = fresh.take_snapshot()
    assert {t.name: t.storage for t in after.tensors} == labels == {f"parts[{i}]": "S1" for i in range(4)}

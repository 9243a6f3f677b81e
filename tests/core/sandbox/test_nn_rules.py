"""The training step's objects (issue #16): each construct run in TensorLab and in plain torch, field by field;
the refusals of what stays out (attributes, keywords, hooks, dict keys); the estimates before torch allocates."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import torch

from tensorlab.core.lang.parse import LanguageError
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.sandbox import nn_rules
from tensorlab.core.session.session import Session

IMPORTS = ["import torch.nn as nn", "import torch.nn.functional as F", "import torch.optim as optim", "import copy"]


def _plain(lines: list[str]) -> tuple[dict[str, Any], list[BaseException | None]]:
    """The lines run by Python itself (the reference: plain torch), seeded as a session is."""
    torch.manual_seed(0)
    namespace: dict[str, Any] = {"torch": torch}
    errors: list[BaseException | None] = []
    for line in lines:
        try:
            exec(compile(line, "<plain>", "exec"), namespace)  # the reference side of the test, never TensorLab
            errors.append(None)
        except Exception as exc:
            errors.append(exc)
    return namespace, errors


def _tensorlab(lines: list[str]) -> tuple[Session, list[Any]]:
    session = Session(limits=DEFAULT_LIMITS)
    return session, [session.run(line).error for line in lines]


def _ready(*lines: str, limits: Limits = DEFAULT_LIMITS) -> Session:
    """A session that ran ``lines`` (a test's set-up), each without an error."""
    session = Session(limits=limits)
    for line in lines:
        error = session.run(line).error
        assert error is None, (line, error)
    return session


def _fields(t: torch.Tensor) -> tuple[Any, ...]:
    grad = t.grad if t.is_leaf or t.retains_grad else None
    return (t.detach().tolist(), None if grad is None else grad.tolist(), t._version, t.requires_grad, t.is_leaf,
            type(t.grad_fn).__name__ if t.grad_fn is not None else None)


def _tensors(value: Any, prefix: str) -> dict[str, torch.Tensor]:
    """Every tensor a name reaches (a module's parameters and buffers, a dict's or list's items)."""
    if isinstance(value, torch.Tensor):
        return {prefix: value}
    if isinstance(value, torch.nn.Module):
        found = {f"{prefix}.{k}": v for k, v in value.named_parameters()}
        found.update({f"{prefix}.{k}": v for k, v in value.named_buffers()})
        return found
    if isinstance(value, dict):
        return {f"{prefix}[{k!r}]": v for k, v in value.items() if isinstance(v, torch.Tensor)}
    if isinstance(value, (list, tuple)):
        return {f"{prefix}[{i}]": v for i, v in enumerate(value) if isinstance(v, torch.Tensor)}
    return {}


def compare(lines: list[str]) -> tuple[Session, dict[str, Any]]:
    """Run ``lines`` both ways: the same errors (type and text), the same fields of every tensor reached."""
    lines = IMPORTS + lines
    plain, plain_errors = _plain(lines)
    session, errors = _tensorlab(lines)
    for line, mine, theirs in zip(lines, errors, plain_errors, strict=True):
        if theirs is None:
            assert mine is None, (line, mine)
        else:
            assert mine is not None, (line, theirs)
            assert (mine.type, mine.message) == (type(theirs).__name__, str(theirs)), line
    names = set(session.namespace)
    for name in names:
        ours = _tensors(session.namespace[name], name)
        theirs = _tensors(plain[name], name)
        assert ours.keys() == theirs.keys(), name
        for key in ours:
            assert _fields(ours[key]) == _fields(theirs[key]), key
    return session, plain


TRAINING = [
    "torch.manual_seed(0)",
    "model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))",
    "x = torch.rand(5, 3)",
    "target = torch.rand(5, 1)",
    "loss = F.mse_loss(model(x), target)",
    "opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
    "opt.zero_grad()",
    "loss.backward()",
    "opt.step()",
    "value = loss.item()",
]


def test_a_training_step_matches_plain_torch():
    compare(TRAINING)


def test_adam_and_the_modules_of_the_subset_match_plain_torch():
    compare([
        "torch.manual_seed(1)",
        "net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 3), nn.Sigmoid(), nn.Identity(),"
        " nn.BatchNorm1d(3), nn.Dropout(0.5), nn.Linear(3, 1))",
        "x = torch.rand(4, 2)",
        "loss = net(x).sum()",
        "opt = optim.Adam(net.parameters(), lr=0.01)",
        "loss.backward()",
        "opt.step()",
        "opt.zero_grad(set_to_none=False)",
        "net.eval()",
        "y = net(x)",
        "first = net[0]",
        "w = first.weight",
        "b = net[0].bias",
        "mean = net[5].running_mean",
        "names = list(net.state_dict().keys())",
        "params = list(net.parameters())",
        "pairs = list(net.named_parameters())",
        "lr = opt.param_groups[0]['lr']",
        "net.train()",
        "net.requires_grad_(False)",
        "z = F.relu(x - 0.5)",
        "r = nn.ReLU()(x - 0.5)",
        "s = F.sigmoid(x)",
    ])


def test_state_dict_entries_share_storage_and_a_deepcopy_does_not():
    session, plain = compare([
        "lin = nn.Linear(2, 2)",
        "sd = lin.state_dict()",
        "saved = copy.deepcopy(lin.state_dict())",
        "w = sd['weight']",
        "with torch.no_grad():\n    lin.weight.add_(1.0)",
    ])
    ns = session.namespace
    assert ns["sd"]["weight"].untyped_storage().data_ptr() == ns["lin"].weight.untyped_storage().data_ptr()
    assert torch.equal(ns["sd"]["weight"], ns["lin"].weight)
    assert ns["saved"]["weight"].untyped_storage().data_ptr() != ns["lin"].weight.untyped_storage().data_ptr()
    assert not torch.equal(ns["saved"]["weight"], ns["lin"].weight)
    assert torch.equal(plain["saved"]["weight"] + 1, plain["lin"].weight)


def test_a_loss_built_before_step_fails_backward_with_torchs_version_error():
    session, _ = compare([
        "torch.manual_seed(0)",
        "lin = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))",  # the second layer saves its weight
        "opt = optim.SGD(lin.parameters(), lr=0.1)",
        "x = torch.rand(3, 2)",
        "first = lin(x).pow(2).sum()",
        "second = lin(x).pow(2).sum()",
        "first.backward()",
        "opt.step()",
        "second.backward()",
    ])
    error = session.results[-1].error
    assert error is not None and "modified by an inplace operation" in error.message


def test_two_backward_passes_without_zero_grad_add_up():
    session, _ = compare([
        "lin = nn.Linear(2, 1)",
        "x = torch.ones(1, 2)",
        "lin(x).sum().backward()",
        "once = lin.weight.grad.clone()",
        "lin(x).sum().backward()",
        "lin.zero_grad()",
    ])
    assert session.namespace["lin"].weight.grad is None  # zero_grad sets to None by default


def test_relu_inplace_after_sigmoid_breaks_backward_but_after_a_product_it_does_not():
    session, _ = compare([
        "x = torch.rand(3, requires_grad=True)",
        "act = nn.ReLU(inplace=True)",
        "y = act(torch.sigmoid(x)).sum()",
        "y.backward()",
        "z = act(x * 2).sum()",
        "z.backward()",
        "u = F.relu(torch.sigmoid(x), inplace=True).sum()",
        "u.backward()",
    ])
    errors = [r.error for r in session.results]
    assert errors[len(IMPORTS) + 3] is not None and "inplace" in errors[len(IMPORTS) + 3].message
    assert errors[len(IMPORTS) + 5] is None
    assert errors[len(IMPORTS) + 7] is not None


def test_a_manual_update_makes_a_non_leaf_without_grad():
    session, _ = compare([
        "w = torch.ones(2, requires_grad=True)",
        "(w * w).sum().backward()",
        "w = w - 0.1 * w.grad",
    ])
    w = session.namespace["w"]
    assert not w.is_leaf and w.requires_grad


def test_backward_with_a_gradient_and_retain_graph():
    compare([
        "x = torch.ones(3, requires_grad=True)",
        "y = x * 2",
        "y.backward(torch.ones(3), retain_graph=True)",
        "y.backward(gradient=torch.ones(3))",
        "y.backward(torch.ones(3))",
    ])


def test_torch_errors_of_the_new_calls_read_as_in_plain_torch():
    compare([
        "lin = nn.Linear(2, 2)",
        "other = nn.Linear(3, 2)",
        "lin.load_state_dict(other.state_dict())",
        "opt = optim.SGD(lin.parameters(), lr=-1)",
        "y = lin(torch.ones(3))",
        "opt = optim.SGD([lin.weight * 2], lr=0.1)",
        "sd = lin.state_dict()",
        "missing = sd['nothing']",
        "got = sd.get('nothing')",
        "seq = nn.Sequential(lin)",
        "seq.weight",
    ])


def test_dicts_with_string_keys_and_list():
    compare([
        "x = torch.ones(2)",
        "d = {'a': x, 'b': x * 2}",
        "d['c'] = x + 1",
        "d['a'] += 1",
        "keys = list(d.keys())",
        "vals = list(d.values())",
        "n = len(d)",
        "e = d.copy()",
        "rows = list(torch.ones(2, 3))",
    ])


def test_from_imports_of_the_contract_are_accepted():
    _ready("from torch import nn", "from torch import optim", "m = nn.Linear(1, 1)",
           "o = optim.SGD(m.parameters(), lr=0.1)")


@pytest.mark.parametrize("line", [
    "import torch as os", "import torch.nn as neural", "from torch import nn as n", "from torch import hub",
    "import torch.optim", "from torch.nn import Linear", "d = {1: 2}", "d = {'a': 1, **{}}",
    "m = nn.Conv2d(1, 1, 1)", "m = nn.Module()", "f = F.softmax", "o = optim.LBFGS",
    "o = optim.SGD([], lr=0.1, foreach=True)", "o = optim.Adam([], fused=True)", "o = optim.Adam([], capturable=True)",
    "o = optim.SGD([], differentiable=True)", "m = nn.Linear(2, 2, device='meta')", "i = nn.Identity(3)",
    "F.relu(torch.ones(1), out=None)", "m = nn.Linear(2, 2).apply", "nn", "nn.Linear.__init__",
])
def test_what_stays_out_is_refused_when_read(line):
    with pytest.raises(LanguageError):
        Session().run(line)


@pytest.mark.parametrize("line, text", [
    ("m.load_state_dict(m)", "load_state_dict takes a dict of tensors"),
    ("m.load_state_dict({'weight': [1.0, 2.0]})", "load_state_dict takes a dict of tensors"),
    ("m.load_state_dict(o)", "load_state_dict takes a dict of tensors"),
    ("m(x, y)", "at most 1 arguments"),
    ("x(1)", "only a module"),
    ("x.clone()(1)", "only a module"),
    ("m.parameters()()", "only a module"),
    ("s[0] = m", "read (`net[0]`), not replaced"),
    ("d[1] = x", "string keys"),
    ("d[x] = x", "string keys"),
    ("v = d[0]", "string keys"),
    ("d['k' * 300] = x", "at most 200"),
    ("k = list(d, d)", "at most 1 arguments"),
])
def test_what_stays_out_is_refused_when_run(line, text):
    session = _ready("m = nn.Linear(2, 2)", "s = nn.Sequential(m)", "x = torch.ones(2)", "y = torch.ones(2)",
                     "d = {'a': x}", "o = optim.SGD(m.parameters(), lr=0.1)")
    error = session.run(line).error
    assert error is not None and text in error.message, (line, error)
    assert error.type in ("TensorLabError", "LimitError")


@pytest.mark.parametrize("line, text", [
    # Keywords and arguments no kind of object takes for that method: refused when the step is read, as `nn.`
    # calls' are, before anything of the program runs (issue #16 review: they used to wait for the run).
    ("m.load_state_dict(m.state_dict(), assign=True)",
     "does not take `assign=` in TensorLab (it takes: `state_dict, strict`)"),
    ("m.load_state_dict(m.state_dict(), True, True)", "at most 2 arguments"),
    ("sd = m.state_dict(keep_vars=True)", "does not take `keep_vars=` in TensorLab (it takes no keywords)"),
    ("sd = m.state_dict(destination=d)", "does not take `destination=` in TensorLab (it takes no keywords)"),
    ("o.step(None)", "at most 0 arguments"),
    ("o.step(closure=None)", "it takes no keywords"),
    ("d.get('a', 1, 2)", "at most 2 arguments"),
    ("m.zero_grad(foreach=True)", "does not take `foreach=`"),
    # An optimizer's param_groups are read only (the issue: "param_groups readable").
    ("o.param_groups[0]['lr'] = 1e9", "`param_groups` can be read but not changed"),
    ("o.param_groups[0]['params'] += [x]", "`param_groups` can be read but not changed"),
    ("o.param_groups[0] = {}", "`param_groups` can be read but not changed"),
])
def test_what_no_object_takes_is_refused_when_read_with_its_reason(line, text):
    session = _ready("m = nn.Linear(2, 2)", "x = torch.ones(2, requires_grad=True)", "d = {'a': x}",
                     "o = optim.SGD(m.parameters(), lr=0.1)")
    with pytest.raises(LanguageError) as refused:
        session.run(line)
    assert text in str(refused.value), (line, str(refused.value))
    assert "`-`" not in str(refused.value)


def test_a_param_group_reached_through_a_name_is_not_written_either():
    session = _ready("m = nn.Linear(2, 2)", "x = torch.ones(2, requires_grad=True)",
                     "o = optim.SGD(m.parameters(), lr=0.1)", "g = o.param_groups[0]", "ps = g['params']",
                     "groups = o.param_groups", "lr = g['lr']")
    for line in ["g['lr'] = 1e9", "g['lr'] *= 10", "ps += [x]", "ps[0] = x", "groups[0] = g"]:
        error = session.run(line).error
        assert error is not None and "`param_groups` can be read but not changed" in error.message, (line, error)
    # Nothing changed: one group, its lr and its two parameters, as torch's optimizer was made.
    optimizer = session.namespace["o"]
    assert len(optimizer.param_groups) == 1 and optimizer.param_groups[0]["lr"] == 0.1
    assert [p is q for p, q in zip(optimizer.param_groups[0]["params"], session.namespace["m"].parameters(),
                                   strict=True)] == [True, True]


def test_a_module_has_no_tensor_hook_and_its_hooks_stay_refused():
    session = Session()
    session.run("m = nn.Linear(2, 2)")
    error = session.run("h = m.register_hook(print)").error
    # torch's modules have no register_hook: Python's own AttributeError, as in plain torch.
    assert error is not None and error.message == "'Linear' object has no attribute 'register_hook'"
    for line in ["h = m.register_forward_hook(print)", "h = m.register_full_backward_hook(print)",
                 "m.apply(print)", "p = m._parameters", "d = m.__dict__"]:
        with pytest.raises(LanguageError):
            session.run(line)


def test_an_optimizer_flag_set_in_a_param_group_is_refused_at_step():
    session = _ready("m = nn.Linear(2, 2)", "o = optim.Adam(m.parameters())", "m(torch.ones(2)).sum().backward()")
    with pytest.raises(LanguageError):  # a step cannot set it (param_groups are read only) ...
        session.run("o.param_groups[0]['fused'] = True")
    session.namespace["o"].param_groups[0]["fused"] = True  # ... and the step's own check stays, behind it
    before = session.namespace["m"].weight.detach().clone()
    error = session.run("o.step()").error
    assert error is not None and "fused" in error.message
    assert torch.equal(before, session.namespace["m"].weight)


# -- estimates before torch allocates ----------------------------------------------------------------------
def test_a_huge_linear_is_refused_before_torch_allocates():
    session = Session()
    result = session.run("m = nn.Linear(10**5, 10**5)")
    assert result.error is not None and result.error.type == "LimitError"
    assert "10,000,000,000" in result.error.message
    assert "m" not in session.namespace


def test_a_linear_whose_every_tensor_fits_runs_and_its_total_counts_as_memory():
    # 10^8 weights and 10^4 biases: each tensor within the per-tensor limit, as in plain torch.
    session = Session()
    result = session.run("m = nn.Linear(10000, 10000)")
    assert result.error is None, result.error
    plain = torch.nn.Linear(10000, 10000)
    assert session.namespace["m"].weight.shape == plain.weight.shape
    assert session.namespace["m"].bias.shape == plain.bias.shape
    del plain
    small = Session(limits=DEFAULT_LIMITS.with_memory(256 * 1024**2))   # 400 MB of weights: over the budget
    error = small.run("m = nn.Linear(10000, 10000)").error
    assert error is not None and error.own is not None and error.own.key == "limit.memory"
    assert "nn.Linear(...)" in error.message


@pytest.mark.parametrize("code,words", [("m = nn.Linear(10**5, 10**5)", "the `weight` of `nn.Linear(...)`"),
                                        ("m = nn.Linear(10, 10**9, bias=False)", "the `weight` of `nn.Linear(...)`"),
                                        ("b = nn.BatchNorm1d(10**9)", "the `weight` of `nn.BatchNorm1d(...)`")])
def test_an_oversize_module_is_refused_naming_the_tensor_that_is_too_big(code, words):
    result = Session().run(code)
    assert result.error is not None and result.error.own is not None and result.error.own.key == "limit.elements"
    assert words in result.error.message and "per tensor" in result.error.message
    assert "의 `weight`" in result.error.own.render("ko")


def test_a_module_of_several_large_layers_counts_against_the_budget():
    session = Session(limits=DEFAULT_LIMITS.with_memory(64 * 1024**2))
    result = session.run("m = nn.Linear(5000, 5000)")  # 100 MB of weights: over a 64 MB budget
    assert result.error is not None and result.error.type == "LimitError"


def test_nesting_a_module_in_itself_is_capped():
    session = Session()
    session.run("net = nn.Linear(2, 2)")
    errors = [session.run("net = nn.Sequential(net, net)").error for _ in range(12)]
    refused = [e for e in errors if e is not None]
    assert refused and refused[0].type == "LimitError" and "submodules" in refused[0].message
    depth, paths = nn_rules.module_shape(session.namespace["net"])
    assert paths <= nn_rules.MAX_MODULE_PATHS and depth <= nn_rules.MAX_MODULE_DEPTH
    assert session.run("print(net)").error is None
    assert len(session.results[-1].output) <= DEFAULT_LIMITS.max_output_chars + 100


def test_nesting_through_an_ordered_dict_is_capped_too():
    session = _ready(*["net = nn.Linear(2, 2)"] + ["net = nn.Sequential(net, net)"] * 8 + [
                      "sd = net.state_dict()", "sd['a'] = net", "sd['b'] = net"])
    error = session.run("big = nn.Sequential(sd)").error
    assert error is not None and error.type == "LimitError" and "submodules" in error.message


def test_adam_state_is_estimated_at_the_first_step():
    session = _ready("w = torch.zeros(10**6, requires_grad=True)", "o = optim.Adam([w])", "(w * 2).sum().backward()")
    reserved: list[int] = []
    guard = session.guard
    original = guard.reserve
    guard.reserve = lambda nbytes, what: (reserved.append(nbytes), original(nbytes, what))[1]
    try:
        assert session.run("o.step()").error is None
        first = sum(reserved)
        reserved.clear()
        assert session.run("o.step()").error is None
        later = sum(reserved)
    finally:
        guard.reserve = original
    assert first >= 2 * 4 * 10**6  # the two moments, made at the first step
    assert later < first           # later steps make no new state


def test_adam_state_over_the_budget_is_refused_before_the_step():
    session = _ready("w = torch.zeros(3 * 10**6, requires_grad=True)", "o = optim.Adam([w], lr=0.1)",
                     "(w * 2).sum().backward()", limits=DEFAULT_LIMITS.with_memory(64 * 1024**2))
    result = session.run("o.step()")
    assert result.error is not None and result.error.type == "LimitError"
    assert not session.namespace["o"].state  # nothing was made
    assert torch.equal(session.namespace["w"], torch.zeros(3 * 10**6))


def test_deepcopy_of_a_module_counts_its_parameters():
    session = _ready("m = nn.Linear(3000, 3000)", limits=DEFAULT_LIMITS.with_memory(64 * 1024**2))  # 36 MB
    result = session.run("c = copy.deepcopy(m)")
    assert result.error is not None and result.error.type == "LimitError"
    assert "c" not in session.namespace


def test_a_forward_pass_is_estimated_from_the_input_shape():
    session = _ready("m = nn.Linear(10, 10**4)", "x = torch.ones(10**5, 10)")
    result = session.run("y = m(x)")   # 10^9 outputs
    assert result.error is not None and result.error.type == "LimitError"


def test_module_reprs_are_torchs_own():
    session = Session()
    session.run("m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(inplace=True), nn.Sequential(nn.Dropout(0.1)))")
    result = session.run("print(m)")
    assert result.output == str(session.namespace["m"]) + "\n"
    other = {o.name: o for o in session.take_snapshot().others}
    assert other["m"].repr == repr(copy.deepcopy(session.namespace["m"]))


def test_a_deepcopied_target_network_has_its_own_memory_and_copy_syncs_it():
    session, _ = compare([
        "torch.manual_seed(0)",
        "online = nn.Linear(2, 2)",
        "target = copy.deepcopy(online)",
        "alias = online",
        "with torch.no_grad():\n    online.weight.mul_(2)",
        "with torch.no_grad():\n    target.weight.copy_(online.weight)",
        "same = target.weight.data_ptr() == online.weight.data_ptr()",
        "online.requires_grad_(False)",
        "y = online(torch.ones(2))",
    ])
    ns = session.namespace
    assert ns["same"] is False and ns["alias"] is ns["online"]
    assert torch.equal(ns["target"].weight, ns["online"].weight)


def test_dict_keys_are_escaped_and_capped_where_shown():
    session = Session()
    session.run("x = torch.ones(1)")
    session.run("d = {'\u202eevil\x1b[31m': 1}")
    session.run("d['k' * 150] = 2")
    shown = {o.name: o.repr for o in session.take_snapshot().others}["d"]
    assert "\u202e" not in shown and "\x1b" not in shown and "\\u202e" in shown
    assert "k" * 100 + "...'" in shown and "k" * 101 not in shown


@pytest.mark.parametrize("line, text", [
    ("s = o.state_dict()", "`state_dict` is not available on a SGD"),      # a module's method, not an optimizer's
    ("o.load_state_dict(d)", "`load_state_dict` is not available on a SGD"),
    ("v = x.values()", "`values` is not available on a tensor"),          # a dict's method, not a tensor's
    ("k = m.keys()", None),                                               # no such attribute: Python's own error
    ("w = d.weight", None),
    ("g = m.grad", None),
])
def test_each_type_has_its_own_attribute_allowlist(line, text):
    session = _ready("m = nn.Linear(2, 2)", "x = torch.ones(2)", "d = {'a': x}",
                     "o = optim.SGD(m.parameters(), lr=0.1)")
    error = session.run(line).error
    assert error is not None
    if text is None:
        assert error.type == "AttributeError" and "object has no attribute" in error.message
    else:
        assert error.type == "TensorLabError" and text in error.message

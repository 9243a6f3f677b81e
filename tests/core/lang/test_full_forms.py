"""`torch.nn.Linear(...)` written out after `import torch` is `nn.Linear(...)`: the same allowlists, the same
keyword lists, the same estimates, the same values as plain torch; refusals name what the step wrote."""

from __future__ import annotations

import pytest
import torch

from tensorlab.core.lang.parse import LanguageError, parse_one
from tensorlab.core.session.session import Session

# A training step written both ways (the import forms of DESIGN.md's contract decision, and the full forms).
ALIASED = [
    "import torch.nn as nn",
    "import torch.nn.functional as F",
    "import torch.optim as optim",
    "model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))",
    "opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
    "adam = optim.Adam([model[0].bias], lr=0.01)",
    "x = torch.randn(5, 4)",
    "h = F.relu(model(x) - 0.1, inplace=True)",
    "loss = F.mse_loss(h, torch.zeros(5, 2)) + F.sigmoid(x).sum()",
    "loss.backward()",
    "opt.step()",
    "adam.step()",
    "opt.zero_grad(set_to_none=False)",
]
FULL = [
    "import torch",
    "import torch",
    "import torch",
    "model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))",
    "opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
    "adam = torch.optim.Adam([model[0].bias], lr=0.01)",
    "x = torch.randn(5, 4)",
    "h = torch.nn.functional.relu(model(x) - 0.1, inplace=True)",
    "loss = torch.nn.functional.mse_loss(h, torch.zeros(5, 2)) + torch.nn.functional.sigmoid(x).sum()",
    "loss.backward()",
    "opt.step()",
    "adam.step()",
    "opt.zero_grad(set_to_none=False)",
]


def _facts(snapshot):
    return [(t.name, t.shape, t.values, t.grad, t.version, t.requires_grad, t.is_leaf, t.grad_fn, t.storage)
            for t in snapshot.tensors]


def _run(codes):
    session = Session()   # seeded: each program draws the same numbers (one after the other, never interleaved)
    results = [session.run(code) for code in codes]
    assert all(r.ok for r in results), [(r.code, r.error) for r in results if not r.ok]
    return results


def test_the_full_forms_run_as_the_aliases_do_step_for_step():
    for one, two in zip(_run(ALIASED), _run(FULL)):
        assert _facts(one.snapshot) == _facts(two.snapshot), two.code
        assert [o.type for o in one.snapshot.others] == [o.type for o in two.snapshot.others]
        assert one.notes == two.notes and one.value == two.value


def test_the_full_forms_give_what_plain_torch_gives():
    session = Session()
    for code in FULL:
        assert session.run(code).ok, code
    torch.manual_seed(0)
    plain: dict = {"torch": torch}
    exec("\n".join(FULL), plain)  # noqa: S102 - the test's own program, the plain-torch oracle
    snapshot = session.results[-1].snapshot
    model = plain["model"]
    for name, tensor in [("model[0].weight", model[0].weight), ("model[0].bias", model[0].bias),
                         ("model[2].weight", model[2].weight), ("x", plain["x"]), ("h", plain["h"]),
                         ("loss", plain["loss"])]:
        info = snapshot.tensor(name)
        assert info is not None, name
        assert torch.tensor(info.values, dtype=tensor.dtype).reshape(tensor.shape).equal(tensor.detach()), name
        assert info.version == tensor._version, name
        if tensor.is_leaf and tensor.grad is not None:
            assert torch.tensor(info.grad).reshape(tensor.shape).equal(tensor.grad), name


@pytest.mark.parametrize(("code", "says"), [
    ("q = torch.nn.Conv2d(1, 1, 1)", "`torch.nn.Conv2d` is not available"),
    ("q = torch.nn.functional.softmax(torch.ones(2), 0)", "`torch.nn.functional.softmax` is not available"),
    ("q = torch.optim.lr_scheduler", "`torch.optim.lr_scheduler` is not available"),
    ("q = torch.nn.modules", "`torch.nn.modules` is not available"),
    ("q = torch.nn", "`torch.nn` can only be used as `torch.nn.<function>`"),
    ("torch.nn(2)", "`torch.nn` cannot be called"),
    ("q = torch.optim.Adam([torch.ones(1)], fused=True)", "`torch.optim.Adam(...)` does not take `fused=`"),
    ("q = torch.nn.Linear(2, 2, True, None, None, 1)", "torch.nn.Linear"),
    ("q = torch.nn.Module.__dict__", "__dict__"),
    ("q = torch.nn.Linear.__init__", "__init__"),
    # `nn.functional.relu` is `F.relu` (h21g, review r21b): what `F.` refuses it refuses, naming what was written.
    ("q = nn.functional.softmax(torch.ones(2), 0)", "`nn.functional.softmax` is not available"),
])
def test_what_the_aliases_refuse_the_full_forms_refuse_naming_what_was_written(code, says):
    with pytest.raises(LanguageError) as refused:
        parse_one(code)
    assert says in refused.value.render("en")


def test_assigning_to_a_module_of_torch_is_still_refused():
    for code in ("torch.nn = 1", "torch.optim.SGD = 1", "del torch.nn"):
        with pytest.raises(LanguageError):
            parse_one(code)


def test_a_statement_keeps_its_text_as_written():
    statement = parse_one("model = torch.nn.Linear(2, 3)")
    assert statement.source == "model = torch.nn.Linear(2, 3)" and statement.defines == ("model",)


def test_the_estimates_hold_for_the_full_forms_too():
    """`torch.nn.Linear(10**5, 10**5)` is 10^10 parameters: refused before anything is allocated, as `nn.` is."""
    session = Session()
    full, aliased = session.run("m = torch.nn.Linear(10**5, 10**5)"), session.run("m = nn.Linear(10**5, 10**5)")
    assert not full.ok and not aliased.ok
    assert full.error.message == aliased.error.message and full.error.own is not None
    assert "m" not in session.names

"""A member refused on a name whose kind is known is refused when the step is checked, not when it runs (#16).

`opt.load_state_dict(sd)` after `opt = optim.SGD(...)` is refused when the lesson is loaded and when the line
is typed, with the words the run time check says; a member torch's object does not have is left to Python's
own AttributeError, as in plain torch.
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from tensorlab.core.engine.player import Player
from tensorlab.core.lang import allowlist as allow
from tensorlab.core.lang.parse import LanguageError, NameCheck, check_names, parse_one
from tensorlab.core.lessons.lesson import LessonError, parse_lesson
from tensorlab.core.session.session import Session
from tensorlab.core.worker.in_process import LocalEngine

SETUP = ["import torch.nn as nn", "import torch.optim as optim", "model = nn.Linear(2, 2)",
         "opt = optim.SGD(model.parameters(), lr=0.1)", "sd = model.state_dict()", "d = {'w': model.weight}",
         "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())", "adam = optim.Adam(net.parameters())"]


def _public(obj: object) -> set[str]:
    return {name for name in dir(obj) if not name.startswith("_")}


def _objects() -> dict[str, object]:
    params = [torch.zeros(1, requires_grad=True)]
    return {"SGD": torch.optim.SGD(params, lr=0.1), "Adam": torch.optim.Adam(params), "Linear": nn.Linear(2, 2),
            "Sequential": nn.Sequential(nn.ReLU()), "ReLU": nn.ReLU(), "Tanh": nn.Tanh(), "Sigmoid": nn.Sigmoid(),
            "Identity": nn.Identity(), "Dropout": nn.Dropout(), "BatchNorm1d": nn.BatchNorm1d(2),
            "dict": {}, "OrderedDict": nn.Linear(1, 1).state_dict()}


@pytest.mark.parametrize("type_name", sorted(_objects()))
def test_the_refused_lists_are_what_torch_has_and_the_subset_does_not_allow(type_name):
    obj = _objects()[type_name]
    allowed = allow.members_of(type_name) if type_name not in ("dict", "OrderedDict") else allow.DICT_METHODS
    refused = allow.refused_on(type_name)
    # Never a check-time refusal where torch would raise AttributeError (its own error stays its own)...
    assert refused <= _public(obj), sorted(refused - _public(obj))
    # ... and every public member torch has that the subset does not allow is listed.
    assert _public(obj) - allowed <= refused, sorted(_public(obj) - allowed - refused)
    assert not refused & allowed


@pytest.mark.parametrize("line, member, kind", [
    ("opt.load_state_dict(sd)", "load_state_dict", "SGD"),
    ("s = opt.state_dict()", "state_dict", "SGD"),
    ("adam.load_state_dict(adam)", "load_state_dict", "Adam"),
    ("m = model.to('cpu')", "to", "Linear"),
    ("net.half()", "half", "Sequential"),
    ("m = model.cpu()", "cpu", "Linear"),
    ("m2 = model\nm2.double()", "double", "Linear"),
    ("for i in range(2):\n    opt.load_state_dict(sd)", "load_state_dict", "SGD"),
])
def test_a_refused_member_of_a_known_kind_is_refused_at_load_with_the_run_time_words(line, member, kind):
    # One statement, or two on their own lines (a loop is one statement).
    statements = [parse_one(code) for code in SETUP + ([line] if line.startswith("for") else line.split("\n"))]
    with pytest.raises(LanguageError) as refused:
        check_names(statements)
    text = str(refused.value)
    assert f"`{member}` is not available on a {kind} in TensorLab" in text
    # The words the run time check says for the same line.
    session = Session()
    for code in SETUP:
        assert session.run(code).error is None, code
    for code in statements[len(SETUP):-1]:
        assert session.run(code.source).error is None
    error = session.run(statements[-1].source).error
    assert error is not None and error.type == "TensorLabError"
    assert error.message in text


def test_a_lesson_with_opt_load_state_dict_is_refused_when_it_is_loaded():
    steps = "".join(f"[[step]]\ncode = {code!r}\n\n" for code in SETUP[:5] + ["opt.load_state_dict(sd)"])
    with pytest.raises(LessonError) as refused:
        parse_lesson(f"[lesson]\nid = 'x'\ntitle = 'x'\n\n{steps}")
    assert "load_state_dict` is not available on a SGD" in str(refused.value) and refused.value.step == 6


@pytest.mark.parametrize("lines", [
    ["m2 = model", "m2.load_state_dict(sd)"],                    # an alias keeps the kind
    ["import copy", "m2 = copy.deepcopy(model)", "m2.load_state_dict(sd)"],
    ["opt = nn.Linear(2, 2)", "opt.load_state_dict(sd)"],       # bound again: the new kind
    ["for i in range(1):\n    opt = nn.Linear(2, 2)\n    opt.load_state_dict(sd)"],   # bound again in the loop
    ["k = model.keys()"],                                         # torch has none: Python's AttributeError
    ["opt.zero_grad()", "opt.step()", "g = opt.param_groups"],
])
def test_what_the_kind_allows_or_does_not_say_passes(lines):
    check = NameCheck()
    for code in SETUP + lines:
        check.add(parse_one(code))


def test_a_typed_line_is_checked_against_the_kinds_bound_now():
    player = Player(LocalEngine())
    player.load(None)
    for code in SETUP:
        assert player.insert(code).ok
    assert player.state().kinds["opt"] == "SGD" and "model" in player.state().kinds
    with pytest.raises(LanguageError, match="not available on a SGD"):
        player.check("opt.load_state_dict(sd)")
    with pytest.raises(LanguageError, match="not available on a SGD"):
        player.insert("opt.load_state_dict(sd)")
    assert len(player.program) == len(SETUP)   # nothing was inserted
    assert player.insert("model.load_state_dict(sd)").ok


def test_a_typed_loop_over_a_tensor_is_refused_under_the_line_not_added_as_a_step():
    # Review r16b finding 8: the run time refuses `for r in x` (x a tensor); the window knows x is one, so the
    # typed line is refused before it runs, with the same words and the column of `x`, and nothing is added.
    player = Player(LocalEngine())
    player.load(None)
    for code in ("x = torch.ones(4, 3)", "parts = [torch.ones(2)]"):
        assert player.insert(code).ok
    assert player.state().kinds["x"] == "Tensor"
    with pytest.raises(LanguageError) as caught:
        player.insert("for r in x:\n    print(r)")
    assert "a for loop over the tensor `x` is not available" in str(caught.value) and caught.value.col == 10
    with pytest.raises(LanguageError, match="for loop over the tensor `x`"):
        player.check("with torch.no_grad():\n    for r in x:\n        y = r")
    assert len(player.program) == 2   # nothing was inserted
    # Python refuses nothing here (iterating a tensor gives its rows); what stays allowed still runs.
    assert [r.shape for r in torch.ones(4, 3)] == [torch.Size([3])] * 4
    assert player.insert("for r in x.unbind():\n    y = r").ok
    assert player.insert("for p in parts:\n    y = p").ok
    # A loop that binds the name again before the loop reads it is left to the run time.
    player.check("with torch.no_grad():\n    x = [1, 2]\n    for r in x:\n        y = r")


@pytest.mark.parametrize(("line", "near"), [("y = x.shap", "x.shape"), ("y = x.detatch()", "x.detach"),
                                            ("y = torch.onse(2)", "torch.ones"),
                                            ("y = x.requires_gard", "x.requires_grad"), ("y = x.tofile", None),
                                            ("y = torch.hub", None)])
def test_a_typo_of_a_listed_name_says_the_name_it_is_near(line, near):
    # `x.shap` was refused as "not on the list" only, where Python's own AttributeError says "Did you mean:
    # 'shape'?" (issue #21): the refusal names the listed name that is near, in both languages, where one is.
    with pytest.raises(LanguageError) as caught:
        parse_one(line)
    text = caught.value.message.render("en")
    ko = caught.value.message.render("ko")
    if near is None:
        assert "did you mean" not in text and "혹시" not in ko
        return
    assert text.endswith(f"did you mean `{near}`?"), text
    assert f"혹시 `{near}`" in ko, ko


def test_a_files_refusal_of_a_near_name_says_the_name_it_is_near():
    # (Review of the stop's diff) a file's refusals get their hints through the refusal itself: one that
    # names a near name keeps it (and would keep a hint its own refusal has).
    from tensorlab.core.lessons.source_import import parse_python

    lesson = parse_python("import torch\nx = torch.ones(2)\nprint(x.shap)\ny = torch.onse(2)\n", "t.py")
    reasons = [refused.reason.render("en") for refused in lesson.refused]
    assert any("did you mean `x.shape`?" in r for r in reasons), reasons
    assert any("did you mean `torch.ones`?" in r for r in reasons), reasons

"""One parser of torch's message forms: kinds from torch's own words, never from what a step passed."""

from __future__ import annotations

import pytest
import torch

from tensorlab.core.explain.explanations import EXPLAINED, explain
from tensorlab.core.explain.torch_messages import ECHO, FORMS, own_words, parse_message
from tensorlab.core.session.session import Session

# Steps of the subset that make torch raise or warn each explained form (the real text of this torch).
RAISING = {
    "leaf_inplace": ["x = torch.ones(3, requires_grad=True)", "x.add_(1)"],
    "leaf_view_inplace": ["x = torch.ones(3, requires_grad=True)", "x[0] = 2"],
    "saved_changed": ["a = torch.ones(3, requires_grad=True)", "b = a.exp()", "b.add_(1)", "b.sum().backward()"],
    "nothing_to_differentiate": ["torch.ones(3).sum().backward()"],
    "backward_scalar": ["x = torch.ones(3, requires_grad=True)", "(x * 2).backward()"],
    "graph_used": ["x = torch.ones(3, requires_grad=True)", "y = (x * x).sum()", "y.backward()", "y.backward()"],
    "integer_grad": ["t = torch.ones(3, dtype=torch.int64, requires_grad=True)"],
    "numpy_grad": ["x = torch.ones(3, requires_grad=True)", "x.numpy()"],
    "view_strides": ["t = torch.ones(2, 3).t()", "t.view(-1)"],
    "shape_numel": ["t = torch.ones(6)", "t.view(4, 2)"],
    "broadcast": ["t = torch.ones(2) + torch.ones(3)"],
    "index_range": ["t = torch.ones(2)", "t[5]"],
    "expanded_write": ["t = torch.ones(2).expand(2, 2)", "t.add_(1)"],
    "inplace_dtype": ["t = torch.ones(2, dtype=torch.int64)", "t.add_(1.5)"],
    "matmul_shapes": ["t = torch.ones(2, 3) @ torch.ones(2, 3)"],
    "item_one": ["t = torch.ones(2).item()"],
    "hook_no_grad": ["h = torch.ones(2).register_hook(print)"],
    "retain_no_grad": ["torch.ones(2).retain_grad()"],
    "leaf_requires_grad": ["x = torch.ones(3, requires_grad=True)", "(x * 2).requires_grad_(False)"],
    "deepcopy_nonleaf": ["x = torch.ones(3, requires_grad=True)", "y = copy.deepcopy(x * 2)"],
    "inference_readonly": ["with torch.inference_mode():\n    i = torch.ones(2)\n", "i.add_(1)"],
    "no_grad_view": ["x = torch.ones(3, requires_grad=True)", "with torch.no_grad():\n    v = x[:2]\n", "v.add_(1)"],
    "multi_view_inplace": ["x = torch.ones(3, requires_grad=True)", "a, b, c = (x * 1).split(1)", "a.add_(1)"],
    "grad_shape": ["y = torch.ones(3, requires_grad=True)", "y.grad = torch.ones(2)"],
    "detach_view": ["x = torch.ones(3, requires_grad=True)", "v = x[:2]", "v.detach_()"],
    "none_value": ["x = torch.ones(3, requires_grad=True)", "x.grad.zero_()"],
    "nonleaf_grad": ["x = torch.ones(3, requires_grad=True)", "y = x * 2", "print(y.grad)"],
    "tensor_copies": ["x = torch.ones(3)", "y = torch.tensor(x)"],
    # Two devices on any machine: the meta device beside the CPU (torch's Python check words it; issue 18).
    "mixed_devices": ["m = torch.ones(3, device=\"meta\")", "m + torch.ones(3)"],
    # The training step (issue #16).
    "state_dict_size": ["import torch.nn as nn", "a = nn.Linear(2, 2)",
                        "a.load_state_dict(nn.Linear(3, 2).state_dict())"],
    "state_dict_keys": ["import torch.nn as nn", "a = nn.Linear(2, 2)",
                        "a.load_state_dict({'weight': torch.ones(2, 2)})"],
    "invalid_lr": ["import torch.optim as optim", "w = torch.ones(2, requires_grad=True)", "o = optim.SGD([w], lr=-1)"],
    "nonleaf_optimize": ["import torch.optim as optim", "w = torch.ones(2, requires_grad=True)",
                         "o = optim.SGD([w * 2], lr=0.1)"],
}


def _last(codes):
    session = Session()
    for code in codes:
        result = session.run(code)
    return result


@pytest.mark.parametrize("kind", sorted(RAISING))
def test_each_form_reads_torchs_real_message(kind):
    result = _last(RAISING[kind])
    raised = result.error if result.error is not None else result.warnings[0]
    type_name = getattr(raised, "type", None) or raised.category
    assert parse_message(raised.message, type_name).kind == kind, raised.message
    assert raised.explanation is not None and raised.explanation.key == f"explain.{kind}"


def test_every_form_is_a_known_kind_and_explained_forms_have_words():
    kinds = [form.kind for form in FORMS]
    assert len(kinds) == len(set(kinds))
    assert EXPLAINED <= set(kinds)


def test_a_form_is_read_from_the_start_never_found_inside():
    leaf = "a leaf Variable that requires grad is being used in an in-place operation."
    assert parse_message(leaf, "RuntimeError").kind == "leaf_inplace"
    assert parse_message("Invalid device string: '" + leaf + "'", "RuntimeError").kind == "invalid_device"
    assert parse_message("something first. " + leaf, "RuntimeError").kind is None
    assert explain("something first. " + leaf, "RuntimeError") is None
    # The type is part of the form: the same words raised as another type are not torch's error.
    assert parse_message(leaf, "ValueError").kind is None


def test_facts_are_named_and_echoes_masked():
    parsed = parse_message("index 5 is out of bounds for dimension 0 with size 2", "IndexError")
    assert dict(parsed.facts) == {"index": "5", "dim": "0", "size": "2"} and parsed.echoed == ()
    assert parsed.own == "index 5 is out of bounds for dimension 0 with size 2"
    assert parse_message("name 'z' is not defined", "NameError").fact("name") == "z"
    spoof = parse_message("Invalid device string: 'cuda:a leaf Variable'", "RuntimeError")
    assert spoof.echoed == ("cuda:a leaf Variable",) and spoof.own == f"Invalid device string: '{ECHO}'"


def test_an_unknown_message_keeps_only_the_words_outside_its_quotes():
    # An echo that holds quotes of its own cannot step out of the masked part.
    text = "unknown thing: 'x' a leaf Variable that requires grad ''"
    assert "leaf" not in own_words(text, "RuntimeError")
    assert own_words("list index out of range", "IndexError") == "list index out of range"


SPOOFS = ["y = torch.device({text!r})", "y = torch.ones(2).to({text!r})", "y = torch.ones(2, device={text!r})",
          "y = torch.ones(2).cuda({text!r})",
          "y = torch.ones(2).to(device={text!r} + {text!r})"]


@pytest.mark.parametrize("form", SPOOFS)
@pytest.mark.parametrize("kind", ["leaf_inplace", "saved_changed", "nothing_to_differentiate", "index_range"])
def test_a_message_that_quotes_torchs_words_gets_no_explanation(form, kind):
    text = _last(RAISING[kind]).error.message
    result = Session().run(form.format(text=text))
    assert result.error is not None
    assert result.error.explanation is None, (result.error.message, result.error.explanation)
    assert text not in own_words(result.error.message, result.error.type)


def test_tensorlabs_own_errors_are_explained_by_their_key_never_their_text():
    session = Session()
    session.run("n = 10 ** 5")
    result = session.run("t = torch.ones(n, n)")
    assert result.error.own is not None and result.error.own.key.startswith("limit.")
    assert result.error.explanation.key == "explain.too_large"
    # A refusal whose text quotes torch's words (the step's string) is still only a refusal.
    refused = Session().run("y = torch.ones(2).numpy().view('a leaf Variable that requires grad is "
                            "being used in an in-place operation.')")
    assert refused.error.own is not None and refused.error.explanation.key == "explain.not_subset"


def test_pythons_own_errors_on_plain_values_are_not_torchs():
    result = Session().run("y = [1, 2][5]")
    assert result.error.type == "IndexError" and result.error.explanation is None


def test_the_origin_of_an_error():
    from tensorlab.core.session.session import origin_of

    session = Session()
    session.run("x = torch.ones(3, requires_grad=True)")
    for code, origin in [("x.add_(1)", "torch"), ("y = z", "interpreter"), ("y = copy.deepcopy(x * 2)", "torch"),
                         ("print(1, file=2)", "tensorlab")]:
        try:
            session._interpreter.run_statement(__import__("ast").parse(code).body[0])
        except Exception as exc:  # noqa: BLE001 - the error is what is read
            assert origin_of(exc) == origin, code
        else:  # pragma: no cover
            pytest.fail(code)
    assert torch.is_tensor(session.namespace["x"])

"""The builders write statements of the subset that do what they say."""

from __future__ import annotations

import pytest

from tensorlab.core.lang.builder_code import (
    BuilderError,
    backward_code,
    compute_code,
    copy_code,
    create_code,
    mutate_code,
)
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.session.session import Session


@pytest.mark.parametrize("args,code", [
    (("x", "ones", "5", "float32", True), "x = torch.ones(5, requires_grad=True)"),
    (("x", "zeros", "2, 3", "float64", False), "x = torch.zeros(2, 3, dtype=torch.float64)"),
    (("x", "full", "(2, 3)", "float32", False, "7"), "x = torch.full((2, 3), 7)"),
    (("x", "arange", "6", "float32", False), "x = torch.arange(6, dtype=torch.float32)"),
    (("x", "arange", "2, 3", "float32", True),
     "x = torch.arange(6, dtype=torch.float32).reshape(2, 3).requires_grad_()"),
    (("x", "randn", "3", "float32", False), "x = torch.randn(3)"),
    (("x", "values", "", "float32", True, "0", "1, 2, 3"), "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)"),
    (("x", "values", "", "int64", False, "0", "[[1, 2], [3, -4]]"),
     "x = torch.tensor([[1, 2], [3, -4]], dtype=torch.int64)"),
])
def test_create(args, code):
    assert create_code(*args) == code
    assert Session().run(code).ok


@pytest.mark.parametrize("op,arg,follow,code", [
    ("=", "", "", "y = x"),
    ("clone()", "", "* 2", "y = x.clone() * 2"),
    ("clone()", "", "*2", "y = x.clone() * 2"),
    ("clone()", "", "  **2 ", "y = x.clone() ** 2"),
    ("clone()", "", "- 1.5", "y = x.clone() - 1.5"),
    ("clone()", "", "/-2", "y = x.clone() / -2"),
    ("clone()", "", ".mul(2)", "y = x.clone().mul(2)"),
    ("detach()", "", ".add( 1 )", "y = x.detach().add(1)"),
    ("detach()", "", "", "y = x.detach()"),
    ("clone().detach()", "", "", "y = x.clone().detach()"),
    ("detach().clone()", "", "", "y = x.detach().clone()"),
    (".data", "", "", "y = x.data"),
    ("view(...)", "2, -1", "", "y = x.view(2, -1)"),
    ("slice", "1:3", "", "y = x[1:3]"),
    (".t()", "", "", "y = x.t()"),
    (".to(dtype)", "float64", "", "y = x.to(torch.float64)"),
    ("torch.tensor(src)", "", "", "y = torch.tensor(x)"),
    ("copy.deepcopy", "", "", "y = copy.deepcopy(x)"),
])
def test_copy(op, arg, follow, code):
    assert copy_code("y", "x", op, arg, follow) == code
    parse_one(code)


def test_mutate_and_compute():
    assert mutate_code("y", "x[i] = v", "0", "5") == "y[0] = 5"
    assert mutate_code("y", "add_(v)", value="1") == "y.add_(1)"
    assert mutate_code("y", "+= v", value="2.5") == "y += 2.5"
    assert mutate_code("x", "x[i] = v", "1", "2", no_grad=True) == "with torch.no_grad():\n    x[1] = 2"
    assert mutate_code("x", "zero_()") == "x.zero_()"
    assert compute_code("s", "(a + b).sum()", "y", "z") == "s = (y + z).sum()"
    assert compute_code("s", "a * k", "y", k="3") == "s = y * 3"
    assert compute_code("s", "a.sigmoid()", "y") == "s = y.sigmoid()"
    assert backward_code("s") == "s.backward()"


@pytest.mark.parametrize("call,message", [
    (lambda: create_code("1x", "ones"), "not a valid name"),
    (lambda: create_code("torch", "ones"), "reserved"),
    (lambda: create_code("x", "ones", "2, a"), "must be whole numbers"),
    (lambda: create_code("x", "values", values="1, open"), "must be numbers"),
    (lambda: mutate_code("x", "fill_(v)", value="abc"), "is not a number"),
    (lambda: copy_code("y", "x", "clone()", follow_up="% x"), "must be an operator and a number"),
    (lambda: copy_code("y", "x", "clone()", follow_up="* y"), "is not a number"),
    (lambda: copy_code("y", "x", "clone()", follow_up=".mul(2).sum()"), "must be an operator and a number"),
    (lambda: copy_code("y", "x", "clone()", follow_up=".exp(2)"), "must be an operator and a number"),
    (lambda: copy_code("", "x", "clone()"), "target name is empty"),
])
def test_bad_input_names_the_problem(call, message):
    with pytest.raises(BuilderError, match=message):
        call()


@pytest.mark.parametrize("row", ["parts[0]", "sd['0.weight']", "net[2].bias", "net[0].weight"])
def test_a_row_of_contract_3_is_an_operand_the_builders_can_read(row):
    assert copy_code("y", row, "clone()") == f"y = {row}.clone()"
    assert compute_code("s", "a.sum()", row) == f"s = {row}.sum()"
    assert backward_code(row) == f"{row}.backward()"
    assert mutate_code(row, "zero_()") == f"{row}.zero_()"


@pytest.mark.parametrize("text", ["net.__dict__", "a + b", "f(x)", "net[x]", "torch.ones", "1x", "net[0]._modules"])
def test_anything_else_is_not_an_operand(text):
    with pytest.raises(BuilderError):
        copy_code("y", text, "clone()")


def test_plus_equals_on_a_modules_parameter_says_the_languages_rule():
    assert mutate_code("parts[0]", "+= v", value="1") == "parts[0] += 1"
    with pytest.raises(BuilderError, match="can be updated in place with"):
        mutate_code("net[0].bias", "+= v", value="1")
    with pytest.raises(BuilderError):
        copy_code("net[0].w", "x", "clone()")   # a new name is a plain name

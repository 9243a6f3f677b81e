"""Issue #21, review r21h: a refused statement that runs code TensorLab cannot follow (a function's body through a
method, a decorator, an alias, an item, a stored bound method, `getattr`, a hook, a magic) may change every object
that code reaches; a refused `raise`/`exit()` stops Python there, a refused `assert` may; a step computed from
numbers that may differ (a backward's gradients too) is marked. Each file is checked against plain Python running
it: a step that runs shows Python's value or carries the "may differ" mark, never a wrong value unmarked."""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re

import pytest
import torch

from tensorlab.core.lessons.play_through import iter_lesson
from tensorlab.core.lessons.source_import import ANY_NAME, changes_after_step, parse_notebook, parse_python
from tensorlab.core.worker.in_process import LocalEngine

_ROOT = re.compile(r"[A-Za-z_]\w*")


def _python(text: str) -> dict[int, tuple[str, dict[str, torch.Tensor]]]:
    """Plain Python running the file (seeded as TensorLab seeds a run): each top-level statement's printed output
    and the tensors under plain names after it, by line; it stops where Python stops (`exit()`, a failed assert)."""
    torch.manual_seed(0)
    names: dict = {"__name__": "__main__"}
    found: dict[int, tuple[str, dict[str, torch.Tensor]]] = {}
    for node in ast.parse(text).body:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(ast.Module(body=[node], type_ignores=[]), "f.py", "exec"), names)  # the reference run
        except (SystemExit, Exception):   # Python stops at an error too
            break
        found[node.lineno] = (out.getvalue(), {k: v.detach().clone() for k, v in names.items()
                                               if isinstance(v, torch.Tensor)})
    return found


def _opened(text: str) -> dict[int, str]:
    """The file opened and run in TensorLab, checked against Python: each step that runs prints what Python prints
    (unless it reads a marked name) and every tensor it shows holds Python's value there or is marked. Returns the
    refused statements' reasons by line."""
    lesson = parse_python(text, "reach.py")
    python = _python(text)
    engine = LocalEngine()
    try:
        run = iter_lesson(lesson, engine)
        results = list(run)
    finally:
        engine.close()
    lesson = run.lesson   # with the steps refused as they ran (`f(1)` of `f = w.add_`) and what depends on them
    for index, (step, result) in enumerate(zip(lesson.steps, results, strict=True)):
        assert step.line in python, f"line {step.line} runs in TensorLab, never in Python"
        marks = changes_after_step(lesson, index)
        output, tensors = python[step.line]
        if ANY_NAME in marks:
            continue
        if not set(_ROOT.findall(step.code)) & set(marks):
            assert result.output == output, (step.code, result.output, output)
        for shown in result.snapshot.tensors:
            root = _ROOT.match(shown.name)
            if shown.name not in tensors or (root is not None and root.group() in marks):
                continue
            value = torch.tensor(shown.values, dtype=tensors[shown.name].dtype).reshape(tensors[shown.name].shape)
            assert torch.allclose(value, tensors[shown.name].to(value.dtype)), (step.code, shown.name)
    return {r.line: str(r.reason) for r in lesson.refused}


def _changed(line: int, name: str) -> str:
    return f"may depend on line {line} of the file, which is not run (it may change `{name}`)"


@pytest.mark.parametrize(("body", "greyed"), [
    # (2) a refused body changing a global through a method, a decorator, a local alias, `self.p = t`
    ("class K:\n    def m(self):\n        w.mul_(3)\nk = K()\nk.m()\n", "print(w)"),
    ("def deco(f):\n    w.add_(5)\n    return f\n@deco\ndef g():\n    pass\n", "print(w)"),
    ("def step():\n    t = w\n    t.add_(1)\nstep()\n", "print(w)"),
    ("class Net:\n    def __init__(self):\n        self.p = w\n    def forward(self):\n        self.p.add_(1)\n"
     "net = Net()\nnet.forward()\n", "print(w)"),
    ("class Net:\n    def __init__(self):\n        self.p = w\n    def __call__(self, x):\n        self.p.add_(x)\n"
     "net = Net()\nnet(1)\n", "print(w)"),
    # (5) a stored bound method, getattr, the type's method
    ("f = w.add_\nf(1)\n", "print(w)"),
    ('getattr(w, "add_")(1)\n', "print(w)"),
    ("type(w).add_(w, 1)\n", "print(w)"),
    # (7) a function rebinding a global, called through an alias or an item; a result it returns changed
    ("def g():\n    global w\n    w = torch.zeros(3)\nalias = g\nalias()\n", "print(w)"),
    ("def g():\n    global w\n    w = torch.zeros(3)\nfs = [g]\nfs[0]()\n", "print(w)"),
    ("def helper():\n    return w\ny = helper()\ny.add_(1)\n", "print(w)"),
    ("def setw():\n    global w\n    w = torch.zeros(3)\ndef caller():\n    setw()\ncaller()\n", "print(w)"),
])
def test_a_refused_call_of_code_tensorlab_cannot_follow_greys_what_that_code_reaches(body, greyed):
    text = "import torch\nw = torch.ones(3)\n" + body + greyed + "\nv = torch.arange(3.0)\nprint(v)\n"
    refused = _opened(text)
    line = text.splitlines().index(greyed) + 1
    assert line in refused, refused   # greyed, never run on a value Python does not hold
    assert "may" in refused[line] or "depends" in refused[line]


def test_a_stored_optimizer_step_and_a_stored_backward_are_followed():
    text = ("import torch\nimport torch.optim as optim\nw = torch.ones(2, requires_grad=True)\n"
            "opt = optim.SGD([w], lr=0.5)\n(w * 3).sum().backward()\ns = opt.step\ns()\nprint(w)\n"
            "v = torch.ones(2, requires_grad=True)\nloss = (v * 3).sum()\nbw = loss.backward\nbw()\nprint(v.grad)\n"
            "u = torch.zeros(1)\nprint(u)\n")
    refused = _opened(text)
    assert refused[8] == _changed(7, "w")
    assert 13 in refused and "line 12" in refused[13]
    assert 15 not in refused   # what neither reaches runs


def test_a_hook_registered_by_a_refused_statement_greys_the_module_and_the_tensor_it_is_on():
    text = ("import torch\nimport torch.nn as nn\nlin = nn.Linear(2, 2)\n"
            "lin.register_forward_hook(lambda m, i, o: o * 0)\nout = lin(torch.ones(2))\n"
            "w = torch.ones(2, requires_grad=True)\nw.register_hook(lambda g: g * 10)\n"
            "loss = (w * 3).sum()\nloss.backward()\nprint(w.grad)\nx = torch.ones(2)\n")
    refused = _opened(text)
    assert refused[5] == _changed(4, "lin")
    assert 8 not in refused and refused[9] == _changed(7, "w")   # a tensor hook: only at backward (r21i 21)
    assert 11 not in refused


def test_a_hook_whose_function_rebinds_a_global_greys_its_readers():
    text = ("import torch\nf = torch.ones(2)\ndef cb():\n    global f\n    f = f * 5\nlin = torch.nn.Linear(2, 2)\n"
            "lin.register_forward_hook(lambda m, i, o: cb())\nout = lin(torch.ones(2))\nprint(f)\n")
    refused = _opened(text)
    assert 8 in refused and 9 in refused


def test_a_learner_script_with_a_refused_model_class_still_runs_what_never_touches_the_model():
    text = ("import torch\nfrom torch import nn\ntorch.manual_seed(0)\n"
            "class NeuralNetwork(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(2, 2)\n    def forward(self, x):\n        return self.fc(x)\n"
            "model = NeuralNetwork()\na = torch.randn(2)\nb = a * 2\nc = torch.ones(2)\nc += a\nd = c.clone()\n"
            "x = torch.ones(2)\nout = model(x)\ne = a + 1\n")
    refused = _opened(text)
    assert set(refused) == {4, 10, 17}, refused   # the class, `model = ...` and its call; the tensor steps run


def test_an_argument_a_function_of_the_file_only_reads_is_not_greyed():
    text = ("import torch\ndef loss_fn(a, b):\n    return ((a - b) ** 2).mean()\nx = torch.ones(2)\n"
            "y = torch.zeros(2)\nloss = loss_fn(x, y)\nprint(x)\nprint(y)\n")
    refused = _opened(text)
    assert set(refused) == {2, 6}, refused


@pytest.mark.parametrize("draws", [
    "lin = nn.Linear(2, 2)\ndef init(m):\n    nn.init.normal_(m.weight)\nlin.apply(init)\n",
    "class Holder:\n    p = torch.randn(3)\n",
    "def h(x=torch.randn(2)):\n    pass\n",
])
def test_random_numbers_drawn_by_refused_code_as_it_is_defined_or_applied_mark_later_draws(draws):
    text = "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n" + draws + "n = torch.randn(2)\nm = n * 2\n"
    _opened(text)   # the oracle: n and m differ from Python's, so they must be marked
    lesson = parse_python(text, "draws.py")
    marks = changes_after_step(lesson, len(lesson.steps) - 1)
    assert {"n", "m"} <= set(marks), marks


def test_gradients_computed_from_numbers_that_may_differ_are_marked():
    text = ("import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nxs = [torch.rand(1) for _ in range(2)]\n"
            "w = torch.randn(2, requires_grad=True)\nx = torch.ones(2, requires_grad=True)\nloss = (x * w).sum()\n"
            "loss.backward()\ng = x.grad\nlin = nn.Linear(2, 1)\ninp = torch.ones(1, 2, requires_grad=True)\n"
            "out = lin(inp)\nout.sum().backward()\n")
    _opened(text)
    lesson = parse_python(text, "grads.py")
    marks = changes_after_step(lesson, len(lesson.steps) - 1)
    assert {"w", "x", "loss", "g", "inp", "out"} <= set(marks), marks


@pytest.mark.parametrize("stop", ["raise SystemExit", "exit()", "quit()", "sys.exit(0)", "raise ValueError('no')"])
def test_a_refused_statement_that_stops_python_refuses_every_later_step(stop):
    text = "import torch\nimport sys\nx = torch.ones(2)\n" + stop + "\nprint(x)\ny = torch.zeros(2)\n"
    refused = _opened(text)
    assert refused[5] == refused[6] == "Python stops at line 4 of the file, which is not run (it raises " \
                                       "or exits), and never gets here"


def test_a_refused_assert_greys_nothing_after_it_and_says_it_is_not_checked():
    # Review r21i 9: `assert z.shape == (3,)` used to grey every later step; the steps after show what happens when
    # it holds (as Python does then), and its own row says Python stops there if it fails.
    text = ("import torch\nx = torch.ones(2)\nz = x * 2\nassert z.shape == (2,)\nprint(z)\n"
            "inp = torch.eye(2)\nout = inp @ z\n")
    refused = _opened(text)
    assert list(refused) == [4]
    assert refused[4].endswith("this `assert` is not checked here: if it fails, Python stops there (the steps after "
                               "show what happens when it holds)")


@pytest.mark.parametrize("block", ["if x.sum() > 100:\n    sys.exit(1)",
                                   "for i in range(0):\n    raise ValueError('no')",
                                   "while x.sum() > 100:\n    x.add_(1)\n    exit()"])
def test_a_refused_block_that_may_stop_python_says_so_and_greys_only_its_readers(block):
    # Review helper-133 #4: `if …: sys.exit(3)` said only why it was refused, and the steps after ran as if Python
    # could not stop there. They still run (as after a refused `assert`: what happens when it does not stop); the
    # block's row says where Python may stop.
    text = "import torch\nimport sys\nx = torch.ones(2)\n" + block + "\ny = torch.zeros(2)\nprint(y)\n"
    refused = _opened(text)
    stop = 4 + block.count("\n")
    assert f"it may stop Python at line {stop} of the file (it raises or exits there)" in refused[4], refused
    assert set(refused) <= {2, 4}


@pytest.mark.parametrize("imported", ["import torch.nn.init as init", "from torch.nn import init"])
def test_a_function_of_a_refused_import_changes_its_argument_not_the_module(imported):
    # Review helper-132 #1: `init.constant_(m3.weight, 3.0)` was refused, and `print(m3.weight)` then ran and
    # printed the random weights Python never prints (it prints 3s); the call was said to "change `init`".
    text = ("import torch\nimport torch.nn as nn\n" + imported + "\ntorch.manual_seed(0)\nm3 = nn.Linear(2, 1)\n"
            "init.constant_(m3.weight, 3.0)\nprint(m3.weight)\n")
    refused = _opened(text)
    assert "it may change `m3`" in refused[7], refused


@pytest.mark.parametrize("calls", ["T = torch.Tensor\nT.add_(b, 1)\n",
                                   "if b.sum() > 0:\n    T = torch.Tensor\n    T.add_(b, 1)\n",
                                   "t = torch\nt.nn.init.zeros_(b)\n"])
def test_a_name_bound_to_a_module_attribute_changes_the_argument_not_the_name(calls):
    # Review helper-132 #2: `T = torch.Tensor; T.add_(b, 1)` was said to change `T`, and `print(b)` ran and showed
    # the ones Python never prints.
    refused = _opened("import torch\nb = torch.ones(2)\n" + calls + "print(b)\n")
    assert "it may change `b`" in refused[max(refused)], refused


@pytest.mark.parametrize(("block", "changed"), [
    ("    m = e.mul_\n    m(7)\n", "e"),
    ("    h = [g]\n    h[0].add_(1)\n", "g"),
    ("    v = g.view(2)\n    v.zero_()\n", "g"),
])
def test_inside_a_refused_block_what_it_binds_and_then_changes_reaches_what_it_was_bound_to(block, changed):
    # Review helper-133 #2: both were followed at top level, not inside a refused block; `print(e)` and `print(g)`
    # ran and showed the ones Python never prints.
    refused = _opened("import torch\ne = torch.ones(2)\ng = torch.ones(2)\nif e.sum() > 0:\n" + block
                      + "print(e)\nprint(g)\n")
    reasons = [reason for line, reason in refused.items() if line > 4]
    assert reasons == [f"may depend on line 4 of the file, which is not run (it may change `{changed}`)"], refused


@pytest.mark.parametrize("change", ["w.grad.zero_()", "w.grad = None", "w.grad += 1", "w.grad.data.mul_(0)"])
def test_a_refused_change_of_a_gradient_greys_only_what_reads_the_gradient(change):
    # Review helper-132: a refused `w.grad.zero_()` greyed `print(w)` and every step computed from w's values.
    refused = _opened("import torch\nw = torch.ones(2, requires_grad=True)\n(w * 3).sum().backward()\n"
                      f"if w.sum() > 0:\n    {change}\n    print(*[1])\nprint(w)\nprint(w.grad)\nv = w * 2\n"
                      "print(v)\n")
    assert sorted(line for line in refused if line > 4) == [8], refused


@pytest.mark.parametrize("calls", [
    "for k in range(2):\n    T = torch.Tensor\n    T.add_(b, 1)\n",
    "with torch.no_grad():\n    t = torch\n    t.Tensor.mul_(b, 5)\n    import numpy\n",
    "T, U = torch.Tensor, torch.nn.functional\nT.add_(b, 1)\n",
    "T: type = torch.Tensor\nT.add_(b, 1)\n",
    "T = torch.Tensor if b.sum() > 0 else None\nT.add_(b, 1)\n",
    "import torch.nn.functional as T\nT = b\nT.relu_()\n",
    "T = b\nif b.sum() > 100:\n    T = torch.Tensor\nT.add_(b, alpha=5)\n",
    "c = torch.ones(3)\nT = torch.Tensor\nif c.sum() > 100:\n    T = c\nT.add_(b, 5)\n",
])
def test_a_name_that_may_hold_a_module_or_an_object_is_followed_as_both(calls):
    # Review helper-134 #1, #3, #4, #5: bound in a loop or a `with`, by a tuple, an annotation or a conditional
    # expression, a refused import's name bound to a tensor by a step, a module on one path and a tensor on
    # the other: `print(b)` ran and printed what Python never prints.
    refused = _opened("import torch\nb = torch.tensor([-1.0, 2.0, 3.0])\n" + calls + "print(b)\n")
    assert "it may change `b`" in refused[max(refused)], refused


@pytest.mark.parametrize("block", [
    "if True:\n    a = g\n    b = a\n    b.mul_(3)\n",
    "with torch.no_grad():\n    a = g\n    b = a\n    b.mul_(3)\n    import numpy\n",
])
def test_inside_a_refused_block_a_chain_of_its_own_names_reaches_what_it_started_from(block):
    refused = _opened("import torch\ng = torch.ones(3)\n" + block + "print(g)\n")   # review helper-134 #2
    assert "it may change `g`" in refused[max(refused)], refused


def test_a_refused_training_loop_computing_its_loss_in_two_steps_greys_the_gradient_it_changes():
    # Review helper-134 #2: `pred = x @ w; loss = ((pred - y) ** 2).mean(); loss.backward()` in a refused loop,
    # then `print(w.grad)` ran and printed None.
    refused = _opened("import torch\ntorch.manual_seed(0)\nw = torch.randn(3, requires_grad=True)\n"
                      "x = torch.randn(5, 3)\ny = torch.randn(5)\nlosses = []\nfor epoch in range(3):\n"
                      "    pred = x @ w\n    loss = ((pred - y) ** 2).mean()\n    loss.backward()\n"
                      "    losses.append(loss.item())\nprint(w)\nprint(w.grad)\nprint(x)\nz = (x * 2).sum()\n"
                      "print(z)\n")
    assert sorted(line for line in refused if line > 11) == [13], refused


def test_a_refused_loop_zeroing_the_parameters_gradients_greys_only_what_reads_gradients():
    refused = _opened("import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nmodel = nn.Linear(2, 1)\n"
                      "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nmodel(torch.ones(1, 2)).sum().backward()\n"
                      "for p in model.parameters():\n    p.grad.zero_()\n    print(*[1])\nprint(model.weight)\n"
                      "print(model.weight.grad)\ny = model(torch.ones(1, 2))\nprint(y)\nopt.step()\n"
                      "print(model.bias)\n")
    assert sorted(line for line in refused if line > 7) == [11, 14, 15], refused


def test_a_module_alias_bound_again_to_a_tensor_is_an_object_again():
    refused = _opened("import torch\nb = torch.ones(2)\nT = torch.Tensor\nT = torch.zeros(2)\n"
                      "if T.sum() == 0:\n    T.add_(b)\nprint(b)\nprint(T)\n")
    assert 7 not in refused and "it may change `T`" in refused[8], refused


@pytest.mark.parametrize("stop", ["e = exit\ne()\n", "import sys\nbye = sys.exit\nbye(0)\n"])
def test_a_call_of_a_name_bound_to_exit_stops_python_there(stop):
    # Review helper-133: `e = exit; e()` stopped nothing here, and `print(x)` ran where Python never reaches it.
    refused = _opened("import torch\nx = torch.ones(1)\n" + stop + "print(x)\n")
    assert refused[max(refused)].startswith("Python stops at line"), refused


def test_a_name_bound_to_exit_and_then_to_something_else_stops_nothing():
    refused = _opened("import torch\nx = torch.ones(1)\ne = exit\ne = print\ne(x)\nprint(x)\n")
    assert not refused[6].startswith("Python stops"), refused   # (greyed: `e(x)` may change x)


def test_in_a_notebook_a_stop_ends_only_its_own_cell():
    lesson = parse_notebook(_notebook(["import torch\nx = torch.ones(2)", "raise SystemExit\ny = torch.ones(1)",
                                       "print(x)"]), "stop.ipynb")
    refused = {(r.cell, r.line): str(r.reason) for r in lesson.refused}
    assert (2, 2) in refused and "Python stops" in refused[(2, 2)]
    assert [s.code for s in lesson.steps] == ["import torch", "x = torch.ones(2)", "print(x)"]


def _notebook(sources: list[str]) -> bytes:
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
             for source in sources]
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).encode()


@pytest.mark.parametrize(("magic", "reason"), [
    ("%time c.add_(1); print(c)", "it may change `c`"),
    ("%run -i helper.py", "it may change any name"),
    ("%reset_selective -f c", "it may change any name"),
    ("get_ipython().run_line_magic('time', 'c.add_(1)')", "it may change any name"),
])
def test_a_magic_that_runs_code_is_followed_as_that_code_or_as_changing_any_name(magic, reason):
    lesson = parse_notebook(_notebook(["import torch\nc = torch.ones(2)", magic, "print(c)"]), "magic.ipynb")
    refused = {r.cell: str(r.reason) for r in lesson.refused}
    assert 3 in refused and reason in refused[3], refused


@pytest.mark.parametrize(("cell", "printed"), [
    ("s = \'\'\'\n%not a magic\n!nor this\n\'\'\'\nprint(s)", "\n%not a magic\n!nor this\n\n"),
    ("a = 5 \\\n% 3\nprint(a)", "2\n"),
    ("b = (7\n% 4)\nprint(b)", "3\n"),
])
def test_a_percent_or_bang_that_does_not_begin_a_logical_line_is_python_not_a_magic(cell, printed):
    # IPython reads a magic only where a logical line begins: inside a triple-quoted string, after a backslash or
    # in an open bracket the line is the statement's (review helper-133: it was refused as a magic).
    lesson = parse_notebook(_notebook([cell]), "strings.ipynb")
    assert not lesson.refused, lesson.refused
    engine = LocalEngine()
    try:
        results = list(iter_lesson(lesson, engine))
    finally:
        engine.close()
    assert results[-1].output == printed


@pytest.mark.parametrize(("line", "hint"), [
    ('print(f"x is {x} and loss {loss.item():.3f}")', "write `print('x is', x, 'and loss', loss.item())` instead"),
    ('print("{} and {}".format(x, loss), end="")', "write `print(x, 'and', loss, end='')` instead"),
    ('print("a {1} {0}".format(x, loss))', "write `print('a', loss, x)` instead"),
])
def test_a_refused_formatted_print_says_the_print_of_its_own_values_to_write(line, hint):
    # Review helper-133: the f-string's hint was always `print("loss:", loss.item())`, and `"{}".format(x)` was
    # said as `....format` with no hint.
    refused = _opened("import torch\nx = torch.ones(2)\nloss = x.sum()\n" + line + "\n")
    assert refused[4].endswith(hint), refused
    assert "`....format`" not in refused[4]


@pytest.mark.parametrize("inside", ["\u2028", "\u2029", "\x1c", "\x85", "\x0c"])
def test_a_line_break_python_does_not_count_stays_inside_its_line(inside):
    # U+2028 in a string literal: str.splitlines cut the line in two, so the statement, and every line number after
    # it, was wrong ("unterminated string literal"; review helper-133).
    text = f"import torch\ns = 'a{inside}b'\nx = torch.ones(1)\nprint(len(s))\nprint(x)\n"
    refused = _opened(text)
    assert not refused, refused
    lesson = parse_notebook(_notebook([text]), "breaks.ipynb")
    assert not lesson.refused and [s.line for s in lesson.steps] == [1, 2, 3, 4, 5]


def test_a_decorated_def_is_shown_with_its_decorator():
    lesson = parse_python("import torch\ndef deco(f):\n    return f\n@deco\ndef g():\n    pass\n", "deco.py")
    assert any(r.code.startswith("@deco\ndef g():") for r in lesson.refused)


@pytest.mark.parametrize("use", ["print(r.item())", "print(r.tolist())", "s = r.sum()", "print(r.shape, r.numel())"])
def test_a_computing_method_on_a_refused_calls_result_changes_nothing(use):
    # Review r21i 10, 18: `.item()` of what `r = f(X)` returned runs no code of the file: X stays as Python has it.
    text = ("import torch\nX = torch.ones(2)\nw = torch.ones(2)\ndef f(a):\n    return (a * w).sum()\n"
            "r = f(X)\n" + use + "\nprint(X)\ny = X * 2\n")
    refused = _opened(text)
    assert 8 not in refused and 9 not in refused, refused


@pytest.mark.parametrize("body", ["def g3(b):\n    torch.Tensor.backward((b * 3).sum())\n",
                                  "def f5(a):\n    for t in [a]:\n        t.add_(5)\n",
                                  "def f6(b):\n    [t.add_(1) for t in [b]]\n"])
def test_defining_a_function_changes_nothing_its_body_may_change(body):
    # Review r21i 3, 14: defining runs only decorators and defaults; what the body may change applies at a call.
    text = "import torch\na = torch.ones(2)\n" + body + "x = torch.zeros(3)\nprint(a)\n"
    refused = _opened(text)
    assert list(refused) == [3], refused


def test_a_tensor_hook_changes_only_gradients():
    # Review r21i 21: a tensor hook runs at backward(), on the gradient: w's values and the forward are Python's.
    text = ("import torch\nw = torch.ones(2, requires_grad=True)\ndef hook(g):\n    return g * 0\n"
            "w.register_hook(hook)\nprint(w)\ny = w * 3\nloss = y.sum()\nloss.backward()\nprint(w.grad)\n")
    refused = _opened(text)
    assert sorted(refused) == [3, 5, 9, 10], refused


@pytest.mark.parametrize("store", ["torch.ones = torch.zeros", "F.relu = torch.neg", "nn.Linear = nn.Identity",
                                   "torch.Tensor.__repr__ = lambda self: 'HIDDEN'",
                                   "torch.nn.modules.module.register_module_forward_hook(lambda m, i, o: o * 0)"])
def test_a_refused_store_into_torch_changes_every_later_step(store):
    # Review r21i 13: it changes torch itself, as a refused setting does. (Opened only: running it in plain Python
    # here would change torch for every later test of the process.)
    text = ("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + store +
            "\na = torch.ones(2)\nprint(F.relu(a))\ntorch.backends.cudnn.deterministic = True\nb = torch.ones(1)\n")
    refused = {r.line: str(r.reason) for r in parse_python(text, "torch.py").refused}
    assert "torch's settings" in refused[5] and "torch's settings" in refused[6], refused


@pytest.mark.parametrize("use", ["F.relu(a, True).sum()", "F.leaky_relu(a, 0.5, True).sum()",
                                 "F.hardtanh(a, 0., .5, True).sum()", "F.dropout(a, 1.0, True, True).sum()"])
def test_inplace_given_by_position_changes_the_argument(use):
    # Review r21i 19: the positional True is `inplace`: the caller's tensor changes.
    text = ("import torch\nimport torch.nn.functional as F\nw = -torch.ones(2)\ndef f(a):\n    return " + use +
            "\nr = f(w)\nprint(w)\n")
    refused = _opened(text)
    assert 7 in refused, refused

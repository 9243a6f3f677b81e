"""Issue #21, review r21f: a tensor a refused statement stores into an object (`Z.t = w`, `box[0] = w`,
`lst.append(w)`, `d["k"] = w`) is that object's from then on: a later refused change through the object
(`Z.t.mul_(2)`) may change the tensor, so its readers are greyed, never run on a value Python no longer holds."""

from __future__ import annotations

import ast
import contextlib
import io

import pytest
import torch

from tensorlab.core.lessons.play_through import iter_lesson
from tensorlab.core.lessons.source_import import parse_python
from tensorlab.core.worker.in_process import LocalEngine


def _python(text: str) -> dict[int, tuple[str, dict[str, torch.Tensor]]]:
    """Plain Python and torch running the whole file (seeded as TensorLab seeds a run): each top-level
    statement's printed output and the tensors bound to plain names after it, by line."""
    torch.manual_seed(0)
    names: dict = {}
    found: dict[int, tuple[str, dict[str, torch.Tensor]]] = {}
    for node in ast.parse(text).body:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(ast.Module(body=[node], type_ignores=[]), "f.py", "exec"), names)  # the reference run
        found[node.lineno] = (out.getvalue(), {k: v.detach().clone() for k, v in names.items()
                                               if isinstance(v, torch.Tensor)})
    return found


def _opened(text: str) -> tuple[dict[int, str], list[str]]:
    """The file opened in TensorLab and its steps run: each step that runs prints what Python prints at its line
    and every tensor it binds holds Python's value there. Returns the refused statements' reasons by line, and the
    code of the steps that run."""
    lesson = parse_python(text, "stores.py")
    python = _python(text)
    engine = LocalEngine()
    try:
        results = list(iter_lesson(lesson, engine))
    finally:
        engine.close()
    for step, result in zip(lesson.steps, results, strict=True):
        assert result.ok, (step.code, result.error)
        output, tensors = python[step.line]
        assert result.output == output, step.code
        node = ast.parse(step.code).body[0]
        bound = {t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)}
        for name in bound & set(tensors):
            shown = result.snapshot.tensor(name)
            assert shown is not None and torch.equal(torch.tensor(shown.values), tensors[name]), (step.code, name)
    return {r.line: str(r.reason) for r in lesson.refused}, [s.code for s in lesson.steps]


CHANGED_LINE = "may depend on line {line} of the file, which is not run (it may change `w`)"


@pytest.mark.parametrize(("store", "change"), [
    ("Z.t = w", "Z.t.mul_(2)"),                         # an attribute of a refused class
    ("box[0] = w", "box[0].zero_()"),                   # an item of an object a refused statement made
    ("lst.append(w)", "lst[0].add_(1)"),                # a method that stores its argument
    ('d["k"] = w', 'd["k"].add_(1)'),
    ("lst.insert(0, w.view(3))", "lst[0].add_(1)"),   # a view of it, stored
    ('setattr(Z, "t", w)', "Z.t.mul_(2)"),
    ("d.update(k=w)", 'd["k"].add_(1)'),
    ("d.setdefault('k', w)", "d['k'].add_(1)"),
])
def test_a_tensor_stored_into_an_object_by_a_refused_statement_is_greyed_after_a_refused_change_through_it(
        store, change):
    text = ("import torch\n"
            "class Z:\n    pass\n"
            "box = [None]\nlst = []\nd = {}\n"
            "import numpy as np\n"
            "box = np.array([None], dtype=object)\n"   # refused: `np`
            "lst = list(np.zeros(0))\n"                 # refused: `np`
            "d = dict(n=np.zeros(1))\n"                 # refused: `np`
            "w = torch.ones(3)\n"
            "v = torch.arange(3.0)\n"
            f"{store}\n"                                # line 13, refused: it reads a name a refused statement bound
            f"{change}\n"                               # line 14, refused: it may change the object
            "print(w)\n"
            "s = w.sum()\n"
            "print(v * 2)\n")
    reasons, ran = _opened(text)
    assert reasons[15] == CHANGED_LINE.format(line=14)
    assert reasons[16] == CHANGED_LINE.format(line=14)
    # Nothing else is greyed for it: `v` was never stored, and runs as Python runs it.
    assert ran[-2:] == ["v = torch.arange(3.0)", "print(v * 2)"]
    assert 13 in reasons and 14 in reasons


def test_a_store_refused_on_its_own_relates_a_list_a_step_made_and_the_tensor():
    # `lst = []` runs; `lst.append(w)` is outside the subset; `lst[0].add_(1)` depends on it: Python's `w` is 2s.
    reasons, ran = _opened("import torch\nw = torch.ones(3)\nlst = []\nlst.append(w)\nlst[0].add_(1)\n"
                           "print(w)\nu = w * 2\nother = torch.zeros(2)\nprint(other)\n")
    assert reasons[6] == CHANGED_LINE.format(line=5)
    assert reasons[7] == CHANGED_LINE.format(line=5)
    assert ran == ["import torch", "w = torch.ones(3)", "lst = []", "other = torch.zeros(2)", "print(other)"]


def test_a_refused_change_of_the_stored_tensor_reaches_the_object_it_was_stored_into():
    # The other way: `w` stored into `lst` (refused), then a refused in-place change of `w` itself changes `lst[0]`.
    reasons, ran = _opened("import torch\nw = torch.ones(3)\nlst = [torch.zeros(1)]\nlst.append(w)\n"
                           "if True:\n    w.mul_(3)\nprint(lst[0])\n")
    assert reasons[7] == "may depend on line 5 of the file, which is not run (it may change `lst`)"


@pytest.mark.parametrize("store", ["lst += [w]", "lst[0] = w", "lst = lst + [w]"])
def test_an_augmented_or_item_store_that_runs_is_followed_as_plain_python_runs_it(store):
    # In the subset: the whole file runs, and every value is Python's.
    text = f"import torch\nw = torch.ones(3)\nlst = [torch.zeros(1)]\n{store}\nlst[-1].add_(1)\nprint(w)\n"
    reasons, ran = _opened(text)
    assert reasons == {} and len(ran) == 6


def test_an_augmented_store_refused_relates_the_tensor():
    # `lst += [w]` where `lst` is made by a refused statement: a later refused `lst[-1].zero_()` reaches `w`.
    reasons, _ran = _opened("import torch\nimport numpy as np\nw = torch.ones(3)\nlst = list(np.zeros(1))\n"
                            "lst += [w]\nlst[-1].zero_()\nprint(w)\n")
    assert reasons[7] == CHANGED_LINE.format(line=6)


def test_a_refused_computation_s_result_stored_is_new_memory_and_the_store_of_a_number_relates_nothing():
    # `x += w * 2` adds new memory: a later refused change of `x` does not reach `w`; `s.add(1)` stores no tensor.
    reasons, ran = _opened("import torch\nimport numpy as np\nw = torch.ones(3)\nx = torch.tensor(np.zeros(3))\n"
                           "x += w * 2\nx[0] = 5\nprint(w)\n")
    assert 7 not in reasons and ran[-1] == "print(w)"


def test_a_store_in_a_refused_loop_or_comprehension_stores_what_it_iterates():
    reasons, _ran = _opened("import torch\nimport numpy as np\nws = [torch.ones(2), torch.ones(2)]\n"
                            "lst = list(np.zeros(0))\n"
                            "for t in ws:\n    lst.append(t)\n"
                            "lst[0].add_(1)\nprint(ws)\n")
    assert reasons[8] == "may depend on line 7 of the file, which is not run (it may change `ws`)"
    reasons, _ran = _opened("import torch\nimport numpy as np\nws = [torch.ones(2), torch.ones(2)]\n"
                            "lst = list(np.zeros(0))\n"
                            "[lst.append(t) for t in ws]\n"
                            "lst[0].add_(1)\nprint(ws)\n")
    assert reasons[7] == "may depend on line 6 of the file, which is not run (it may change `ws`)"


def test_an_augmented_step_on_a_view_keeps_it_a_view_for_a_later_refused_change():
    # `x += 1` runs in place: x is still `z[:2]`, so a refused `x.mul_(2)` after it may change `z` (Python's z is
    # [4., 4., 1.]); before, the step ended x's relation to z and `print(z)` ran showing [2., 2., 1.].
    reasons, ran = _opened("import torch\nz = torch.ones(3)\nx = z[:2]\nx += 1\nif True:\n    x.mul_(2)\n"
                           "print(z)\nprint(x + 0)\n")
    assert reasons[7] == "may depend on line 5 of the file, which is not run (it may change `z`)"
    assert reasons[8] == "may depend on line 5 of the file, which is not run (it may change `x`)"
    assert ran == ["import torch", "z = torch.ones(3)", "x = z[:2]", "x += 1"]


def test_an_augmented_step_makes_its_tensor_computed_from_what_it_adds():
    # `y += w` (y not a leaf) then a refused `y.sum().backward()`: w's gradient may change, so `print(w.grad)` greys.
    reasons, ran = _opened("import torch\nw = torch.ones(2, requires_grad=True)\ny = torch.zeros(2) * 1\n"
                           "y += w\nif True:\n    y.sum().backward()\nprint(w.grad)\nprint(w)\n")
    assert reasons[7] == "may depend on line 5 of the file, which is not run (it may change `w`)"
    assert ran[-1] == "print(w)"


# -- the mark: a tensor a refused statement may have changed says so in `run --json` (and the window) -----------

MARKED = ("import torch\n"
          "import numpy as np\n"
          "w = torch.ones(3)\n"
          "v = torch.zeros(2)\n"
          "lst = list(np.zeros(0))\n"
          "lst.append(w)\n"
          "lst[0].mul_(2)\n"      # line 7: in Python, w is now 2s
          "print(w)\n"            # refused (greyed), its state the one before it: w marked
          "u = v + 1\n"
          "w = torch.zeros(3)\n"  # a step binds w again: no mark after it
          "print(w)\n")


def test_run_json_marks_each_tensor_a_refused_statement_may_have_changed_and_no_other(tmp_path, capsys):
    import json

    from tensorlab.cli.main import main

    path = tmp_path / "marked.py"
    path.write_text(MARKED, encoding="utf-8")
    assert main(["run", str(path), "--json", "--in-process"]) == 0
    steps = {s["line"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    marks = {line: {name: t.get("may_differ") for name, t in step["tensors"].items()} for line, step in steps.items()}
    assert marks[3] == {"w": None} and marks[4] == {"w": None, "v": None}
    assert marks[7] == {"w": None, "v": None}                    # the state before line 7: nothing changed yet
    assert marks[8] == {"w": {"line": 7, "cell": 0}, "v": None}  # refused, the state before it
    assert marks[9] == {"w": {"line": 7, "cell": 0}, "v": None, "u": None}
    assert marks[10] == {"w": None, "v": None, "u": None}        # bound again by a step: what it shows is Python's
    assert steps[11]["ok"] and steps[11]["output"] == "tensor([0., 0., 0.])\n"
    assert "may_differ" not in json.dumps(steps[3])              # a tensor not marked has no field at all


def test_a_notebook_s_mark_names_its_cell():
    from tensorlab.core.lessons.source_import import changes_after_step, parse_notebook

    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": "import torch\nw = torch.ones(3)"},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": "if True:\n    w.add_(1)\nv = torch.ones(1)"}]
    import json

    lesson = parse_notebook(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}).encode())
    assert [s.code for s in lesson.steps] == ["import torch", "w = torch.ones(3)", "v = torch.ones(1)"]
    assert changes_after_step(lesson, 2) == {"w": (1, 2)}


# -- hints of the refused reasons (review r21f) -------------------------------------------------------------------

def test_the_hints_say_what_to_write_for_math_a_loss_tensorlab_lacks_and_an_import_of_functional():
    import math

    reasons, ran = _opened("import torch\nimport math\nimport torch.nn as nn\n"
                           "from torch.nn import functional as F\n"
                           "x = torch.ones(3)\n"
                           "y = math.sqrt(2)\n"
                           "s = math.sqrt(x.sum().item())\n"
                           "loss_fn = nn.CrossEntropyLoss()\n"
                           "t = torch.sqrt(torch.tensor(2.0))\n"
                           "print(t)\n")
    assert reasons[4].endswith("; write `import torch.nn.functional as F` instead (the accepted forms: "
                               "`import torch`, `import copy`, `import torch.nn as nn`, "
                               "`import torch.nn.functional as F`, `import torch.optim as optim`, "
                               "`from torch import nn`, `from torch import optim`)")
    assert reasons[6].endswith(f"; for `math.sqrt(2)` write `{math.sqrt(2)!r}`, the same number")
    assert reasons[7].endswith("; for `math.sqrt(...)` write `torch.sqrt(...)` of a tensor "
                               "(`torch.sqrt(torch.tensor(2.0))`), or the number itself")
    assert reasons[8] == ("line 8 of the file: `nn.CrossEntropyLoss` is not available in TensorLab; the loss "
                          "TensorLab has is `F.mse_loss(output, target)`, the mean squared error (another loss than "
                          "`nn.CrossEntropyLoss`)")
    assert ran[-2:] == ["t = torch.sqrt(torch.tensor(2.0))", "print(t)"]   # the hint's form runs as Python runs it


def test_the_hints_are_said_in_korean():
    from tensorlab.core.lessons.source_import import parse_python as parse

    lesson = parse("import torch\nimport math\nimport torch.nn as nn\ny = math.sqrt(x)\nl = nn.NLLLoss()\n", "k.py")
    said = [r.reason.render("ko") for r in lesson.refused]
    assert "`math.sqrt(...)` 대신 텐서에 `torch.sqrt(...)`를 쓰거나" in said[1]
    assert "TensorLab에 있는 손실(loss)은 평균 제곱 오차인 `F.mse_loss(output, target)`입니다" in said[2]


def test_a_statement_python_parses_but_too_deep_for_the_subset_s_checker_is_refused_not_a_crash():
    # A 900-term sum parses in Python; the subset's checker recursed past Python's limit: the worker's job crashed.
    text = "import torch\nw = torch.ones(1)\ny = " + "+".join(["w"] * 900) + "\nprint(w)\n"   # under 2,000 chars
    lesson = parse_python(text, "deep.py")
    assert [s.code for s in lesson.steps] == ["import torch", "w = torch.ones(1)", "print(w)"]
    assert str(lesson.refused[0].reason) == ("line 3 of the file: the expression is nested too deeply "
                                             "(more than 100 levels)")
    # A store of such a sum into an object a refused statement made is followed without recursing.
    text = ("import torch\nimport numpy as np\nw = torch.ones(1)\nbox = np.zeros(1, dtype=object)\n"
            "box[0] = " + " + ".join(["w"] * 2500) + "\nprint(w)\n")
    assert [s.code for s in parse_python(text, "deeper.py").steps][-1] == "print(w)"


@pytest.mark.parametrize("define", [
    "def add(v):\n    holder.append(v)\n",
    "def add(*vs):\n    holder.extend(vs)\n",
    "def add(v, where=0):\n    holder.insert(where, v)\n",
    "add = lambda v: holder.append(v)\n",
])
def test_a_refused_function_that_stores_its_argument_ties_what_a_call_gives_it(define):
    # `def add(v): holder.append(v)` then `add(w)` (neither run): `holder` holds `w`, so a refused change through
    # it (`holder[0].mul_(3)`) may change w, and `print(w)` is greyed, never run on w's old values.
    text = ("import torch\nw = torch.ones(2)\nholder = []\n" + define + "add(w)\nholder[-1].mul_(3)\nprint(w)\n"
            "u = torch.zeros(1)\nprint(u)\n")
    refused, run = _opened(text)
    lines = text.splitlines()
    change = lines.index("holder[-1].mul_(3)") + 1
    assert "print(w)" not in run and refused[change + 1] == CHANGED_LINE.format(line=change)
    assert "print(u)" in run   # what the call was not given stays untouched


@pytest.mark.parametrize("call", ["F.dropout(x, 0.0)", "F.dropout(x, p=0.5, training=False)",
                                  "torch.dropout(x, 0.0, True)", "F.alpha_dropout(x, 0.0)"])
def test_dropout_may_return_its_input_itself_so_a_refused_change_of_its_result_reaches_the_input(call):
    # `F.dropout(x, 0.0) is x` (and with `training=False`): its result is not new memory (review r21h c3).
    reasons, _ran = _opened("import torch\nimport torch.nn.functional as F\nx = torch.ones(3)\n"
                            f"y = {call}\nif True:\n    y.add_(1)\nprint(x)\n")
    assert reasons[7] == "may depend on line 5 of the file, which is not run (it may change `x`)"


@pytest.mark.parametrize(("make", "call"), [
    ("lr = nn.LeakyReLU(inplace=True)\n", "y4 = lr(x4)\n"),   # a refused object, called
    ("def g2(t):\n    t.mul_(2)\nalias = g2\n", "alias(x4)\n"),  # an alias of a refused function
    ("fs = [nn.ELU(inplace=True)]\n", "fs[0](x4)\n"),          # a callable reached through an item
])
def test_a_refused_call_of_a_callable_a_refused_statement_bound_may_change_every_argument(make, call):
    # Review r21h a7, a3: unknown code, as conservative as any: `print(x4)` after it is greyed.
    text = "import torch\nimport torch.nn as nn\nx4 = -torch.ones(2)\n" + make + call + "print(x4)\n"
    reasons, _ran = _opened(text)
    line = text.count("\n")
    assert reasons[line] == f"may depend on line {line - 1} of the file, which is not run (it may change `x4`)"


def test_a_method_on_the_result_of_a_refused_function_call_may_change_a_global_its_body_returns():
    # Review r21h d1: `helper()` returns the global `r`; `helper().add_(2)` (refused) changes `r` in Python.
    reasons, _ran = _opened("import torch\nr = torch.ones(2)\ndef helper():\n    return r\nhelper().add_(2)\n"
                            "print(r)\n")
    assert reasons[6] == CHANGED_LINE.format(line=5).replace("`w`", "`r`")


@pytest.mark.parametrize("call", ["ident(x6, 0).mul_(3)", "ident(b=0, a=x6).mul_(3)"])
def test_a_method_on_the_result_of_a_refused_function_call_may_change_an_argument_it_returns(call):
    # Review r21h a7: `def ident(a, b): return a`; the result is `x6` itself.
    reasons, _ran = _opened(f"import torch\nx6 = torch.ones(2)\ndef ident(a, b):\n    return a\n{call}\nprint(x6)\n")
    assert reasons[6] == CHANGED_LINE.format(line=5).replace("`w`", "`x6`")

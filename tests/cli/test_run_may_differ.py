"""Issue #21, review r21g: `tensorlab run FILE.py` (the text transcript, not `--json`) shows the "may differ"
mark beside a tensor a refused statement may have changed, as the window's Tensors table and `run --json` do."""

from __future__ import annotations

import json

from tensorlab.cli.main import main


def test_the_text_transcript_marks_a_tensor_a_refused_statement_may_have_changed(tmp_path, capsys):
    path = tmp_path / "own.py"
    path.write_text("import torch\nimport numpy as np\nw = torch.ones(2)\nnp.copyto(w.numpy(), 5)\n"
                    "v = torch.zeros(1)\n", encoding="utf-8")
    assert main(["run", str(path)]) == 0
    rows = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert any(row.startswith("w · may differ (line 4 not run)") for row in rows), rows
    assert not any(row.startswith("v ·") for row in rows)
    assert main(["run", str(path), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    marked = {name: t.get("may_differ") for name, t in steps[-1]["tensors"].items()}
    assert marked == {"w": {"line": 4, "cell": 0}, "v": None}


def test_run_json_marks_gradients_from_numbers_that_may_differ_and_refuses_after_a_stop(tmp_path, capsys):
    # Issue #21, review r21h 11 and 13: a backward that runs through a tensor marked as it may differ (its random
    # numbers shifted by a refused draw) marks what it was computed from; after a refused `exit()` nothing runs.
    path = tmp_path / "grads.py"
    path.write_text("import torch\ntorch.manual_seed(0)\nxs = [torch.rand(1) for _ in range(2)]\n"
                    "w = torch.randn(2)\nx = torch.ones(2, requires_grad=True)\n(x * w).sum().backward()\n"
                    "g = x.grad * 1\nexit()\nprint(g)\n", encoding="utf-8")
    assert main(["run", str(path), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    marked = {name: t.get("may_differ") for name, t in steps[6]["tensors"].items()}
    assert marked["x"] == marked["g"] == {"line": 3, "cell": 0}, marked
    assert [s["ok"] for s in steps[7:]] == [False, False]
    assert steps[8]["refused"].startswith("Python stops at line 8 of the file")


def test_a_backward_in_a_refused_loop_marks_the_gradients_it_may_change_not_the_values(tmp_path, capsys):
    # `print(w.grad)` after a refused training loop printed None where Python prints tensor([2., 2.]): the loss was
    # computed in the loop, so what it was computed from was not known until after it.
    path = tmp_path / "loop.py"
    path.write_text("import torch\nimport numpy as np\nw = torch.ones(2, requires_grad=True)\nx = torch.ones(2)\n"
                    "(w * 1).sum().backward()\nfor i in range(2):\n    loss = (w * x).sum()\n    loss.backward()\n"
                    "    np.zeros(1)\n"
                    "print(w.grad)\nv = w * 1\n", encoding="utf-8")
    assert main(["run", str(path), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    printed = next(s for s in steps if s["code"] == "print(w.grad)")
    assert not printed["ok"] and "it may change `w`" in printed["refused"]
    marked = {name: t.get("may_differ") for name, t in steps[-1]["tensors"].items()}
    # w's gradient may differ (TensorLab's run left ones, Python's is threes); x needs none and has none in both.
    assert marked["w"] == {"line": 6, "cell": 0} and marked["x"] is None, marked


def test_a_loop_over_tensorlabs_limit_is_not_run_and_its_readers_are_greyed_as_python_runs_it_whole(tmp_path,
                                                                                                   capsys):
    # Issue #21 (review helper-133): a loop of 2,000 iterations stopped at TensorLab's limit of 1,000 was an error
    # step, and `print(x)` then ran and printed 0 where Python prints 2000; the export commented it out.
    path = tmp_path / "long.py"
    path.write_text("import torch\nx = torch.zeros(1)\nfor i in range(2000):\n    x.add_(1)\nprint(x)\n"
                    "y = torch.ones(1)\nprint(y)\n", encoding="utf-8")
    assert main(["run", str(path), "--json"]) == 0
    steps = {s["code"]: s for s in json.loads(capsys.readouterr().out)["steps"]}
    loop = steps["for i in range(2000):\n    x.add_(1)"]
    assert not loop["ok"] and "at most 1,000" in loop["refused"]
    assert steps["print(x)"]["refused"] == "may depend on line 3 of the file, which is not run (it may change `x`)"
    assert steps["print(y)"]["ok"] and steps["print(y)"]["output"] == "tensor([1.])\n"
    assert steps["print(y)"]["tensors"]["x"]["may_differ"] == {"line": 3, "cell": 0}
    out = tmp_path / "long_out.py"
    assert main(["export", str(path), "--py", str(out)]) == 0
    code = [line for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert "print(y)" in code and "print(x)" not in code and "    x.add_(1)" not in code

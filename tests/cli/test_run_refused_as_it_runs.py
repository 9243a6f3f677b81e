"""Issue #21: in `tensorlab run FILE --json`, a statement TensorLab refuses only after part of it ran (a loop's
body) is `"ok": false, "refused"`, not an error step, and so is every later statement that reads what it may
have changed; the statements that run print what plain Python prints."""

from __future__ import annotations

import contextlib
import io
import json

from tensorlab.cli.main import main

TEXT = '''\
import torch
import torch.nn as nn
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for g in opt.param_groups:
    g["lr"] = 0.0
loss = model(torch.ones(1, 2)).sum()
loss.backward()
opt.step()
lin = nn.Linear(2, 2)
for _ in range(1):
    lin = lin.double()
print(lin.weight.dtype)
torch.manual_seed(1)
x = torch.randn(3)
print(x * 2)
'''


def test_run_json_refuses_a_partly_run_statement_and_its_readers(tmp_path, capsys):
    path = tmp_path / "pg.py"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["run", str(path), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    refused = {s["line"]: s["refused"] for s in steps if not s["ok"]}
    assert refused == {
        5: "line 6 of the file: an optimizer's `param_groups` can be read but not changed in TensorLab "
           "(make a new optimizer with the settings you want)",
        7: "may depend on line 5 of the file, which is not run (it may change `model`)",
        8: "depends on line 7 of the file, which is not run (`loss` is defined there)",
        9: "may depend on line 5 of the file, which is not run (it may change `opt`)",
        11: "line 12 of the file: `double` is not available on a Linear in TensorLab",
        13: "depends on line 11 of the file, which is not run (`lin` is defined there)"}
    assert all(s["error"] is None for s in steps)
    ran = [s for s in steps if s["ok"]]
    assert [s["line"] for s in ran] == [1, 2, 3, 4, 10, 14, 15, 16]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(TEXT, "plain.py", "exec"), {})   # the reference: plain Python and torch
    assert ran[-1]["output"].splitlines() == out.getvalue().splitlines()[-1:]

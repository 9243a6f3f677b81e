"""What the census counts as held: storages behind names, inside containers, modules and optimizers, and
what the autograd graphs behind them saved for backward (issue #16)."""

from __future__ import annotations

import torch

from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.core.sandbox.census import tensor_bytes
from tensorlab.core.session.session import Session

MB = 10**6


def test_graphs_kept_by_a_running_total_count_until_backward_frees_them():
    x = torch.rand(MB, requires_grad=True)
    total = torch.zeros(())
    for i in range(5):
        total = total + (x * (i + 1)).exp().sum()   # each exp saves its 4 MB result for backward
    held, _ = tensor_bytes({"x": x, "total": total})
    assert held >= 24 * MB
    total.backward()
    held, _ = tensor_bytes({"x": x, "total": total})
    assert 8 * MB <= held < 9 * MB   # x and its grad: the saved results are freed


def test_modules_dicts_and_optimizer_state_count_once_per_storage():
    lin = torch.nn.Linear(1000, 1000)            # 4 MB of weights
    sd = lin.state_dict()                         # views of the same storages
    opt = torch.optim.Adam(lin.parameters())
    lin(torch.ones(1000)).sum().backward()
    opt.step()                                    # the moments: 8 MB more
    held, _ = tensor_bytes({"lin": lin, "sd": sd, "opt": opt, "same": {"w": lin.weight}})
    weights = 4 * (1000 * 1000 + 1000)
    assert 4 * weights <= held < 4 * weights + MB   # weights, grads, two moments (each once)


def test_a_session_refuses_a_running_total_that_outgrows_the_budget():
    session = Session(limits=DEFAULT_LIMITS.with_memory(64 * 1024**2))
    assert session.run("x = torch.rand(10**6, requires_grad=True)").error is None
    assert session.run("total = x.sum() * 0").error is None
    errors = [session.run("total = total + (x * 2).exp().sum()").error for _ in range(20)]
    refused = [e for e in errors if e is not None]
    assert refused and refused[0].type == "LimitError" and "memory budget" in refused[0].message


def test_the_process_measure_counts_what_the_program_makes_not_torchs_code_mapped_in():
    # Issue #21 review (h21e): "memory 106 MB of 2.0 GB" for a small training script. The forked worker maps
    # torch's code (file pages) in as a step first runs a kernel; the resident figure counted those pages.
    # The process measure is anonymous memory only: a worker's training step of ~40 floats holds little ...
    from tensorlab.core.engine.process_engine import ProcessEngine

    codes = ["import torch", "import torch.nn as nn", "import torch.optim as optim", "x = torch.randn(8, 3)",
             "y = x.sum(1, keepdim=True)", "model = nn.Linear(3, 1)", "opt = optim.SGD(model.parameters(), lr=0.1)",
             "opt.zero_grad()", "loss = ((model(x) - y) ** 2).mean()", "loss.backward()", "opt.step()"]
    engine = ProcessEngine("cpu")
    try:
        results = [engine.run(code) for code in codes]
        assert all(r.ok for r in results)
        assert max(r.memory for r in results) < 8 * MB
        # ... and what a step makes outside any tensor (Python lists of 1.8 million floats, their tensors gone)
        # is still counted.
        listed = engine.run("big = [torch.rand(900000).tolist(), torch.rand(900000).tolist()]")
        assert listed.ok and listed.memory > 40 * MB, listed.error
    finally:
        engine.close()

"""The worker's boot pays the first optimizer's one-time imports, outside any step's time limit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[3]

# Imports the worker's module (what the fork server preloads), then lists the modules a learner's first
# training step would still import: none may be left.
_PROBE = """
import sys
import tensorlab.core.worker.serve
before = set(sys.modules)
import torch
w = torch.zeros(3, requires_grad=True)
for opt in (torch.optim.SGD([w], lr=0.1), torch.optim.SGD([w], lr=0.1, momentum=0.9), torch.optim.Adam([w])):
    (w * 2).sum().backward()
    opt.step()
    opt.zero_grad()
print('dynamo', 'torch._dynamo' in before)
print('new', sorted(m for m in set(sys.modules) - before if m.startswith('torch')))
"""


def test_the_worker_boot_has_imported_what_the_first_optimizer_needs() -> None:
    env = dict(os.environ, PYTHONPATH=str(_ROOT))
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, check=True,
                         timeout=300).stdout.splitlines()
    assert "dynamo True" in out
    assert "new []" in out


def test_warm_up_leaves_the_random_stream_and_grad_mode_as_they_were() -> None:
    import torch

    from tensorlab.core.worker.serve import warm_up

    torch.manual_seed(0)
    expected = torch.rand(4)
    torch.manual_seed(0)
    with torch.no_grad():
        warm_up()
        assert not torch.is_grad_enabled()
    assert torch.equal(torch.rand(4), expected)

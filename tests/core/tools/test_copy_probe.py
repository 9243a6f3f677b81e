"""The copy matrix: every cell equals a direct torch check written here, independently of the probe.

The test makes x with plain torch, applies each operation as plain Python, and
checks each fact its own way: storage by data_ptr, the version counter by an
in-place change under no_grad, grad_fn from repr(), gradient flow by backward().
"""

from __future__ import annotations

import copy
import json
import re
import warnings

import pytest
import torch

from tensorlab.core.protocol.copy_rows import COLUMNS, OPERATIONS, X_KINDS, CopyMatrix
from tensorlab.core.tools.copy_probe import copy_matrix
from tensorlab.core.worker.in_process import LocalEngine

# Each operation as plain torch, written independently of TensorLab's interpreter.
PLAIN = {
    "x": lambda x: x,
    "x.view(3, 2)": lambda x: x.view(3, 2),
    "x[:, 1:]": lambda x: x[:, 1:],
    "x.clone()": lambda x: x.clone(),
    "x.detach()": lambda x: x.detach(),
    "x.clone().detach()": lambda x: x.clone().detach(),
    "x.detach().clone()": lambda x: x.detach().clone(),
    "x.data": lambda x: x.data,
    "torch.tensor(x)": lambda x: torch.tensor(x),
    "copy.deepcopy(x)": lambda x: copy.deepcopy(x),
    "x.to(torch.float32)": lambda x: x.to(torch.float32),
    "x.to(torch.float64)": lambda x: x.to(torch.float64),
    "x.to(torch.int64)": lambda x: x.to(torch.int64),
    "x.contiguous()": lambda x: x.contiguous(),
    "x.numpy()": lambda x: x.numpy(),
}

DEVICES = ["cpu"] + (["cuda:0"] if torch.cuda.is_available() else [])


def _make_x(kind: str, device: str) -> torch.Tensor:
    w = torch.ones(2, 3, requires_grad=True, device=device)
    return w if kind == "leaf" else w * 2


def _expected(operation: str, kind: str, device: str) -> dict:
    """Every column for one row, from plain torch."""
    x = _make_x(kind, device)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            y = PLAIN[operation](x)
        except Exception as exc:
            return {"raises": type(exc).__name__, **{c: None for c in COLUMNS if c != "raises"}}
    row = {"raises": None, "warns": len(caught) > 0, "same_object": y is x,
           "shares_storage": y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
           "requires_grad": y.requires_grad, "is_leaf": y.is_leaf}
    match = re.search(r"grad_fn=<(\w+)>", repr(y))
    row["grad_fn"] = match.group(1) if match else None
    # Gradient flow: backward from y and look for a gradient on x (kept by retain_grad on a non-leaf).
    x2 = _make_x(kind, device)
    if not x2.is_leaf:
        x2.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        y2 = PLAIN[operation](x2)
    if y2.requires_grad:
        y2.sum().backward()
    row["grad_flows"] = x2.grad is not None
    # Version counter: change y in place (no autograd check) and see whether x's counter moved.
    before = x._version
    with torch.no_grad():
        y.mul_(1)
    row["shares_version_counter"] = x._version != before
    return row


@pytest.mark.parametrize("device", DEVICES)
def test_every_cell_equals_plain_torch(device):
    assert set(PLAIN) == set(OPERATIONS)
    matrix = copy_matrix(device)
    assert matrix.device == device
    assert [(r.x, r.operation) for r in matrix.rows] == [(k, o) for k in X_KINDS for o in OPERATIONS]
    for row in matrix.rows:
        got = {column: getattr(row, column) for column in COLUMNS}
        assert got == _expected(row.operation, row.x, device), (row.x, row.operation)


def test_the_rows_teach_what_the_design_says():
    rows = {(r.x, r.operation): r for r in copy_matrix().rows}
    detach, data = rows[("leaf", "x.detach()")], rows[("leaf", "x.data")]
    assert detach.shares_storage and detach.shares_version_counter and not detach.requires_grad
    assert data.shares_storage and not data.shares_version_counter
    assert rows[("leaf", "x.clone()")].grad_fn == "CloneBackward0" and rows[("leaf", "x.clone()")].grad_flows
    for order in ("x.clone().detach()", "x.detach().clone()"):
        row = rows[("leaf", order)]
        assert not (row.shares_storage or row.requires_grad or row.grad_flows) and row.grad_fn is None
    copied = rows[("leaf", "torch.tensor(x)")]
    assert copied.warns and "detach().clone()" in copied.warning
    assert rows[("non-leaf", "copy.deepcopy(x)")].raises == "RuntimeError"
    assert rows[("leaf", "x.to(torch.float32)")].same_object


def test_a_raising_row_has_only_the_exception_type():
    row = next(r for r in copy_matrix().rows if r.operation == "x.numpy()")
    doc = row.to_json()
    assert doc["raises"] == "RuntimeError" and "numpy" in row.error
    assert all(doc[c] is None for c in COLUMNS if c != "raises")


def test_the_json_follows_the_contract():
    doc = json.loads(json.dumps(copy_matrix().to_json()))
    assert set(doc) == {"device", "rows"}
    for row in doc["rows"]:
        assert set(row) == {"operation", "x", *COLUMNS}
        assert row["x"] in ("leaf", "non-leaf")


def test_the_job_runs_beside_a_session_without_touching_it():
    engine = LocalEngine()
    engine.run("x = torch.rand(2)")
    matrix = engine.job("copies", {})
    assert isinstance(matrix, CopyMatrix) and matrix == copy_matrix()
    assert engine.session.names == ("x",)
    after = engine.run("z = torch.rand(2)")
    torch.manual_seed(0)
    torch.rand(2)
    assert after.snapshot.tensor("z").values == tuple(torch.rand(2).tolist())


def test_the_job_in_the_worker_process_gives_the_same_rows():
    from tensorlab.core.engine.process_engine import ProcessEngine

    engine = ProcessEngine()
    try:
        progress: list[tuple[int, int]] = []
        matrix = engine.job("copies", {}, progress=lambda d, t: progress.append((d, t)))
    finally:
        engine.close()
    assert matrix == copy_matrix()
    assert progress[-1] == (len(matrix.rows), len(matrix.rows))


def test_copies_command_prints_the_same_rows(capsys):
    from tensorlab.cli.main import main

    assert main(["copies", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == copy_matrix().to_json()
    assert main(["copies"]) == 0
    out = capsys.readouterr().out
    assert "x: leaf" in out and "x: non-leaf" in out and "CloneBackward0" in out and "RuntimeError" in out
    assert main(["copies", "--device", "nonsense"]) == 2

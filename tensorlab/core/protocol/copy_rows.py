"""The copy matrix as plain data: one row per (operation, kind of x), one column per fact.

Imports no torch: rows cross from the worker process to the window as they are.
:mod:`tensorlab.core.tools.copy_probe` computes every cell from live torch objects. The
operations and the two kinds of ``x`` are data too: each is the TensorLab code
that makes it, run by the subset interpreter, and the scratchpad can replay it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["OPERATIONS", "X_KINDS", "COLUMNS", "CopyRow", "CopyMatrix", "operation_lines"]

# Every way to get a second tensor from x, as the expression assigned to y.
OPERATIONS: tuple[str, ...] = (
    "x",
    "x.view(3, 2)",
    "x[:, 1:]",
    "x.clone()",
    "x.detach()",
    "x.clone().detach()",
    "x.detach().clone()",
    "x.data",
    "torch.tensor(x)",
    "copy.deepcopy(x)",
    "x.to(torch.float32)",
    "x.to(torch.float64)",
    "x.to(torch.int64)",
    "x.contiguous()",
    "x.numpy()",
)

# How x is made: a leaf that requires grad, and a non-leaf (the result of an operation on one).
X_KINDS: dict[str, tuple[str, ...]] = {
    "leaf": ("x = torch.ones(2, 3, requires_grad=True)",),
    "non-leaf": ("w = torch.ones(2, 3, requires_grad=True)", "x = w * 2"),
}

# The fact columns, in the order the table shows them.
COLUMNS: tuple[str, ...] = (
    "same_object",
    "shares_storage",
    "shares_version_counter",
    "requires_grad",
    "is_leaf",
    "grad_fn",
    "grad_flows",
    "warns",
    "raises",
)


def operation_lines(operation: str, x_kind: str) -> tuple[str, ...]:
    """The TensorLab statements of one row: make x, then ``y = <operation>``."""
    return (*X_KINDS[x_kind], f"y = {operation}")


@dataclass(frozen=True)
class CopyRow:
    """What one operation gave for one kind of x, read from torch.

    When the operation raises, every other fact (``warns`` too) is None and
    ``raises`` holds the exception type (``error`` its message). Tensor facts are None when y is not
    a tensor. ``warning`` holds the first warning's message, if any.
    """

    operation: str
    x: str                                   # "leaf" or "non-leaf"
    same_object: bool | None
    shares_storage: bool | None
    shares_version_counter: bool | None
    requires_grad: bool | None
    is_leaf: bool | None
    grad_fn: str | None
    grad_flows: bool | None
    warns: bool | None
    raises: str | None
    warning: str | None = None
    error: str | None = None
    result_type: str | None = None           # "tensor" or the Python type of y

    @property
    def lines(self) -> tuple[str, ...]:
        """The statements that reproduce this row."""
        return operation_lines(self.operation, self.x)

    def to_json(self) -> dict[str, Any]:
        """The `rows` entry of `tensorlab copies --json`."""
        return {"operation": self.operation, "x": self.x, "same_object": self.same_object,
                "shares_storage": self.shares_storage, "shares_version_counter": self.shares_version_counter,
                "requires_grad": self.requires_grad, "is_leaf": self.is_leaf, "grad_fn": self.grad_fn,
                "grad_flows": self.grad_flows, "warns": self.warns, "raises": self.raises}


@dataclass(frozen=True)
class CopyMatrix:
    """Every row, on one device."""

    device: str
    rows: tuple[CopyRow, ...]

    def to_json(self) -> dict[str, Any]:
        """The document `tensorlab copies --json` prints."""
        return {"device": self.device, "rows": [r.to_json() for r in self.rows]}

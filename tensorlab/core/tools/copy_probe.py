"""The copy matrix: every way to get a second tensor from ``x``, every fact read from torch.

Each row runs the TensorLab statements of :func:`~tensorlab.core.protocol.copy_rows.operation_lines`
(make ``x``, then ``y = <operation>``) through the subset interpreter in a namespace
of its own, on the session's device, then :func:`probe` reads every column from the
objects the operation returned. There is no per-operation code: the same probe
answers for ``x.detach()`` and ``copy.deepcopy(x)``. The session's own names and
random state are not touched (nothing here draws random numbers or reseeds).
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable
from typing import Any

import torch

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.observe.inspector import clean_message, same_memory
from tensorlab.core.protocol.copy_rows import OPERATIONS, X_KINDS, CopyMatrix, CopyRow, operation_lines
from tensorlab.core.protocol.engine_api import Cancelled
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.sandbox.interpreter import Interpreter

__all__ = ["probe", "copy_row", "copy_matrix", "copies_job"]


def _shares_storage(x: torch.Tensor, y: torch.Tensor) -> bool:
    return same_memory(x, y)


def _grad_flows(x: torch.Tensor, y: torch.Tensor) -> bool:
    """Whether a gradient of y reaches x through the graph (y itself is not changed)."""
    if not (x.requires_grad and y.requires_grad):
        return False
    with torch.enable_grad():
        (grad,) = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), allow_unused=True)
    return grad is not None


def _shares_version_counter(x: torch.Tensor, y: torch.Tensor) -> bool | None:
    """Bump y's version counter (no data changes) and see whether x's moved with it."""
    if y is x:
        return True
    try:
        before = x._version
        torch.autograd.graph.increment_version(y)
        return x._version != before
    except RuntimeError:  # an inference tensor has no version counter
        return None


def _grad_fn(y: torch.Tensor) -> str | None:
    grad_fn = y.grad_fn
    # The name torch's repr shows (`grad_fn=<CloneBackward0>`).
    return None if grad_fn is None else type(grad_fn).__name__


def probe(operation: str, x_kind: str, x: Any, y: Any, caught: list[warnings.WarningMessage],
          error: BaseException | None) -> CopyRow:
    """Every column of one row, from the objects the operation returned (or the error it raised).

    The version-counter check bumps y's counter, so it runs last.
    """
    if error is not None:
        return CopyRow(operation, x_kind, None, None, None, None, None, None, None, None,
                       type(error).__name__, None, str(error), None)
    warning = clean_message(str(caught[0].message)) if caught else None
    if not isinstance(y, torch.Tensor):
        return CopyRow(operation, x_kind, y is x, None, None, None, None, None, None, bool(caught), None,
                       warning, None, type(y).__name__)
    return CopyRow(
        operation=operation,
        x=x_kind,
        same_object=y is x,
        shares_storage=_shares_storage(x, y),
        requires_grad=y.requires_grad,
        is_leaf=y.is_leaf,
        grad_fn=_grad_fn(y),
        grad_flows=_grad_flows(x, y),
        shares_version_counter=_shares_version_counter(x, y),
        warns=bool(caught),
        raises=None,
        warning=warning,
        error=None,
        result_type="tensor",
    )


def _device_context(device: str) -> contextlib.AbstractContextManager[Any]:
    return contextlib.nullcontext() if device == "cpu" else torch.device(device)


def copy_row(operation: str, x_kind: str, device: str = "cpu", limits: Limits = DEFAULT_LIMITS) -> CopyRow:
    """Run one row's statements in a namespace of their own and probe the result."""
    namespace: dict[str, Any] = {}
    interpreter = Interpreter(namespace, limits, lambda text, cut: None)
    *setup, last = operation_lines(operation, x_kind)
    with _device_context(device):
        for code in setup:
            interpreter.execute(parse_one(code, limits).node)
        statement = parse_one(last, limits)
        error: BaseException | None = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warn_always = torch.is_warn_always_enabled()
            torch.set_warn_always(True)  # warn-once warnings count on every run
            try:
                interpreter.execute(statement.node)
            except Exception as exc:  # what the operation raises is a cell of the matrix
                error = exc
            finally:
                torch.set_warn_always(warn_always)
        return probe(operation, x_kind, namespace["x"], namespace.get("y"), list(caught), error)


def copy_matrix(device: str = "cpu", limits: Limits = DEFAULT_LIMITS, cancelled: Callable[[], bool] = lambda: False,
                progress: Callable[[int, int], None] | None = None) -> CopyMatrix:
    """Every operation for a leaf x and for a non-leaf x, on ``device``."""
    rows = []
    total = len(OPERATIONS) * len(X_KINDS)
    for x_kind in X_KINDS:
        for operation in OPERATIONS:
            if cancelled():
                raise Cancelled()
            rows.append(copy_row(operation, x_kind, device, limits))
            if progress is not None:
                progress(len(rows), total)
    return CopyMatrix(device, tuple(rows))


def copies_job(session: Any, params: dict[str, Any], cancelled: Callable[[], bool],
               progress: Callable[[int, int], None]) -> CopyMatrix:
    """The ``"copies"`` job: :func:`copy_matrix` on the session's device."""
    return copy_matrix(session.device, getattr(session, "limits", DEFAULT_LIMITS), cancelled, progress)

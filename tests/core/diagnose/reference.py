"""Running a diagnosis's reproduction with plain torch (no TensorLab in the way), for the tests to compare."""

from __future__ import annotations

import warnings
from typing import Any

import torch

from tensorlab.core.diagnose.families import Family, read_family


def plain_torch(statements: tuple[str, ...] | list[str]) -> tuple[str, str] | None:
    """What ``statements`` raise run by plain Python and torch: (type, message) of the error, else of the first
    warning, else None."""
    namespace: dict[str, Any] = {"torch": torch}
    first: tuple[str, str] | None = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for statement in statements:
            try:
                exec(statement, namespace)   # noqa: S102 - the reproduction is the code under test
            except Exception as exc:   # noqa: BLE001
                return type(exc).__name__, str(exc)
            if first is None and caught:
                first = caught[0].category.__name__, str(caught[0].message)
    return first


def reproduced(statements: tuple[str, ...] | list[str]) -> tuple[str, Family | None]:
    """The type ``statements`` raise with plain torch, and their message read as a family."""
    raised = plain_torch(statements)
    assert raised is not None, f"the reproduction raised nothing: {statements}"
    return raised[0], read_family(raised[1], raised[0])

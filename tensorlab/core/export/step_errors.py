"""What each step of a program raises in a TensorLab run of it, for export.

The job ``"export_errors"`` runs the statements in a fresh session of their own,
seeded like every TensorLab run, beside the live session in the worker process.
Torch's random state is restored afterwards, so the live session's next random
numbers are the ones a replay would draw.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.engine_api import Cancelled
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo
from tensorlab.core.session.session import Session

__all__ = ["program_errors", "errors_job"]


@contextlib.contextmanager
def _random_state_kept(device: str) -> Iterator[None]:
    """Torch's random generators as they were, after whatever ran inside."""
    devices = [torch.device(device).index or 0] if device.startswith("cuda") else []
    mps_state = None
    if device.startswith("mps"):
        mps_state = torch.mps.get_rng_state()
    with torch.random.fork_rng(devices=devices):
        yield
    if mps_state is not None:
        torch.mps.set_rng_state(mps_state)


def program_errors(codes: Sequence[str], device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
                   cancelled: Callable[[], bool] = lambda: False,
                   progress: Callable[[int, int], None] | None = None) -> tuple[ErrorInfo | None, ...]:
    """What each statement raised (None: nothing) when run in order from a fresh, seeded session."""
    found: list[ErrorInfo | None] = []
    with _random_state_kept(device):
        session = Session(device=device, limits=limits)
        for code in codes:
            if cancelled():
                raise Cancelled()
            found.append(session.execute(parse_one(code, limits)).error)
            if progress is not None:
                progress(len(found), len(codes))
    return tuple(found)


def errors_job(session: Any, params: dict[str, Any], cancelled: Callable[[], bool],
               progress: Callable[[int, int], None]) -> tuple[ErrorInfo | None, ...]:
    """The ``"export_errors"`` job: ``params["codes"]`` run on the session's device."""
    codes = params.get("codes")
    if not isinstance(codes, (list, tuple)) or not all(isinstance(c, str) for c in codes):
        raise ValueError("export_errors needs `codes`, a list of statements")
    return program_errors(codes, session.device, getattr(session, "limits", DEFAULT_LIMITS), cancelled, progress)

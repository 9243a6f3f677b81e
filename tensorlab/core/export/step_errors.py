"""What each step of a program raises in a TensorLab run of it, for export.

The job ``"export_errors"`` runs the statements with
:func:`~tensorlab.core.session.fresh_run.run_fresh`: in a fresh session of their own, seeded
like every TensorLab run, beside the live session in the worker process, torch's random state
kept for the live session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo
from tensorlab.core.session.fresh_run import run_fresh

__all__ = ["program_errors", "errors_job"]


def program_errors(codes: Sequence[str], device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
                   cancelled: Callable[[], bool] = lambda: False,
                   progress: Callable[[int, int], None] | None = None,
                   given: dict[int, ErrorInfo] | None = None, seconds: float | None = None,
                   limit: float | None = None) -> tuple[ErrorInfo | None, ...]:
    """What each statement raised (None: nothing) when run in order from a fresh, seeded session.

    ``given`` and ``seconds``: as :func:`~tensorlab.core.session.fresh_run.run_fresh` takes them
    (a step that crashed the worker before is that step's error, not run again).
    """
    statements = [parse_one(code, limits) for code in codes]
    return tuple(result.error for result in run_fresh(statements, device, limits, cancelled, progress,
                                                      given=given, seconds=seconds, limit=limit))


def errors_job(session: Any, params: dict[str, Any], cancelled: Callable[[], bool],
               progress: Callable[[int, int], None]) -> tuple[ErrorInfo | None, ...]:
    """The ``"export_errors"`` job: ``params["codes"]`` run on the session's device."""
    codes = params.get("codes")
    if not isinstance(codes, (list, tuple)) or not all(isinstance(c, str) for c in codes):
        raise ValueError("export_errors needs `codes`, a list of statements")
    given = {int(k): v for k, v in dict(params.get("given") or {}).items() if isinstance(v, ErrorInfo)}
    seconds, limit = params.get("seconds"), params.get("limit")
    return program_errors(codes, session.device, getattr(session, "limits", DEFAULT_LIMITS), cancelled, progress,
                          given, float(seconds) if isinstance(seconds, (int, float)) else None,
                          float(limit) if isinstance(limit, (int, float)) else None)

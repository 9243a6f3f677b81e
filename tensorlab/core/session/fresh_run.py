"""Run a program in a fresh, seeded session of its own, beside the live one: the one loop for it.

The worker's jobs that need a TensorLab run of a whole program (checking a lesson's questions
and notes, finding which steps of an export raise) run it here, in the worker process next to
the user's live session. A fresh session reseeds torch (``torch.manual_seed``, which reseeds
every device's generator), so :func:`random_state_kept` keeps torch's random state around the
run: afterwards the live session draws the random numbers a replay of it would draw.

The headless ``tensorlab run`` plays a lesson through an engine instead (a worker process that
may crash and be restarted): :func:`tensorlab.core.lessons.play_through.iter_lesson`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

import torch

from tensorlab.core.lang.parse import Statement
from tensorlab.core.protocol.engine_api import NEVER, Cancelled, Progress
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.session.session import Session

__all__ = ["random_state_kept", "run_fresh"]


@contextlib.contextmanager
def random_state_kept() -> Iterator[None]:
    """Torch's random generators as they were, after whatever ran inside (CPU, every CUDA device, MPS)."""
    with contextlib.ExitStack() as stack:
        cuda = list(range(torch.cuda.device_count())) if torch.cuda.is_available() else []
        stack.enter_context(torch.random.fork_rng(devices=cuda))
        mps = getattr(torch.backends, "mps", None)
        if mps is not None and mps.is_available():
            stack.enter_context(torch.random.fork_rng(device_type="mps"))
        yield


def run_fresh(statements: Sequence[Statement], device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
              cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None,
              after: Callable[[Session, StepResult], None] | None = None) -> list[StepResult]:
    """Run ``statements`` in order from a fresh, seeded session on ``device``; every step's result.

    ``after(session, result)`` is called after each step, while the session stands there (a
    check reads it). ``cancelled`` is polled before each step: :class:`Cancelled` (with the
    steps run so far as its position) ends the run. Torch's random state is kept
    (:func:`random_state_kept`), and the session's names are dropped at the end.
    """
    results: list[StepResult] = []
    with random_state_kept():
        session = Session(device=device, limits=limits)
        try:
            for statement in statements:
                if cancelled():
                    raise Cancelled(len(results))
                result = session.execute(statement)
                results.append(result)
                if after is not None:
                    after(session, result)
                if progress is not None:
                    progress(len(results), len(statements))
        finally:
            session.reset()   # its tensors go now, not when the caller lets go of the session
    return results

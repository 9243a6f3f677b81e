"""Stub (filled in next): every text is not explained."""

from __future__ import annotations

from collections.abc import Callable

from tensorlab.core.diagnose.diagnosis import Diagnosis
from tensorlab.core.messages.catalogue import msg


def diagnose_text(text: str, *, cancelled: Callable[[], bool] | None = None,
                  progress: Callable[[float], None] | None = None) -> Diagnosis:
    """See :func:`tensorlab.core.diagnose.diagnosis.diagnose`."""
    return Diagnosis(False, None, None, None, None, title=msg("diagnose.unexplained.title"),
                     text=msg("diagnose.unexplained.text"))

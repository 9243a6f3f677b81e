"""Bring your own error: a pasted traceback or warning read, explained, reproduced, and its lessons named.

The public API (the window's Diagnose panel and ``tensorlab diagnose`` use only this): :func:`read_input`
(bytes as pasted or saved -> text, or :class:`DiagnoseInputError`), :func:`diagnose` (text ->
:class:`Diagnosis`, torch-free, cancellable), and :func:`run_reproduction` (a diagnosis's statements
run on an engine -> "Type: message"). Nothing here imports torch or Qt.
"""

from __future__ import annotations

from tensorlab.core.diagnose.diagnosis import DiagnoseCancelled, Diagnosis
from tensorlab.core.diagnose.explain_paste import diagnose
from tensorlab.core.diagnose.input_text import DiagnoseInputError, read_input
from tensorlab.core.diagnose.reproduce_run import run_reproduction

__all__ = ["diagnose", "read_input", "run_reproduction", "Diagnosis", "DiagnoseInputError", "DiagnoseCancelled"]

"""Running a diagnosis's reproduction on an engine: what it raises, as "Type: message".

Torch-free: the statements run where the engine runs them (the worker process under the usual limits,
or the in-process engine of tests and ``--in-process``). Each statement is checked by the code subset's
parser first, as every step is.
"""

from __future__ import annotations

from collections.abc import Sequence

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.engine_api import Engine

__all__ = ["run_reproduction"]


def run_reproduction(statements: Sequence[str], engine: Engine) -> str | None:
    """Run ``statements`` in a fresh session of ``engine``; "Type: message" of the first error, else of the
    first warning, else None. The engine is left reset."""
    engine.reset()
    try:
        first_warning: str | None = None
        for code in statements:
            parse_one(code)
            result = engine.run(code)
            if result.error is not None:
                return f"{result.error.type}: {result.error.message}"
            if first_warning is None and result.warnings:
                warning = result.warnings[0]
                first_warning = f"{warning.category}: {warning.message}"
        return first_warning
    finally:
        engine.reset()

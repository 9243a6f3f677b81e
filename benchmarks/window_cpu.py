"""The window process's CPU time per step of the 60-step training program (issue #16, item 4).

    python benchmarks/window_cpu.py

Wall-clock figures (``run.py``) swing with the load of a shared machine (a step at 60 waits longer for a
busy core than one at 2); the CPU time the window's process spends on a step (its panels, Qt's layout and
painting, the wire; not the worker, which runs in its own process) swings much less, so it compares two
commits run one after the other on a loaded machine. Prints the medians: a step forward over steps 21-60,
and ← then → at step 2 and at step 60 (both are the window's drawing only: going back shows recorded
results). Every figure is a median of one run.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import run as bench  # noqa: E402 - benchmarks/run.py, beside this file

PROGRAM = bench.PROGRAM_60


def _cpu(window, trigger) -> float:
    """The window process's CPU seconds from ``trigger()`` until the window is painted."""
    started = time.process_time()
    trigger()
    bench._settle(window)
    return time.process_time() - started


def main() -> int:
    from tensorlab.core.engine.process_engine import prestart

    prestart()
    figures = {"load_before": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        window = bench._window(stack)
        bench._open(window, bench._lesson_file(Path(tmp), "training", PROGRAM))
        window.controller.go_to(20)
        bench._settle(window)
        forward, back = bench._action(window, "stepForwardAction"), bench._action(window, "stepBackAction")
        figures["forward_cpu_ms"] = 1000 * statistics.median(_cpu(window, forward.trigger) for _ in range(40))
        for position in (2, 60):
            window.controller.go_to(position)
            bench._settle(window)
            samples = []
            for _ in range(5):
                samples += [_cpu(window, back.trigger), _cpu(window, forward.trigger)]
            figures[f"back_and_forward_at_{position}_cpu_ms"] = 1000 * statistics.median(samples)
    figures["load_after"] = os.getloadavg()[0]
    print(json.dumps({key: round(value, 2) for key, value in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Where a step's time goes in the window, panel by panel (issue #16, item 4; issue #10's targets).

    python benchmarks/panel_costs.py [--lessons] [--steps 40]

Steps forward over steps 21-60 of the 60-step training program of ``benchmarks/run.py`` (``--lessons``:
every step of every built-in lesson) through the window's own actions, offscreen at 1280x720, and
prints medians per step (milliseconds):

- ``wait``: from the action to the state reaching the window (the worker's step, the wire, the queued
  hops between the threads); ``torch``: the statement's own time in it;
- ``render.<panel>``: each panel's ``render_view`` (wall and the window process's CPU);
- ``show_state``: the window's whole handling of the state (the panels included);
- ``after``: from the end of that to the window painted (Qt's layouts and painting, timers);
- ``paints.<dock>``: how many steps painted each dock (of the steps measured), and ``repaint.<dock>``
  what painting it whole costs (``dock.repaint()``, timed once after the run): a dock painted by a step
  that did not change what it shows is a cost to cut.

Timers wrap the panels' methods in this process only (never in tests: DESIGN.md, tests never time).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lessons", action="store_true", help="every built-in lesson step instead")
    args = parser.parse_args()
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

    from tensorlab.core.engine.process_engine import prestart
    from tensorlab.core.lessons.lesson import builtin_lessons

    prestart()
    samples: dict[str, list[float]] = collections.defaultdict(list)
    step: dict[str, float] = {}
    painted: collections.Counter[str] = collections.Counter()
    painted_now: set[str] = set()

    class PaintCounter(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and isinstance(watched, QWidget):
                widget: QWidget | None = watched
                while widget is not None and not isinstance(widget, QDockWidget) and widget.parentWidget():
                    widget = widget.parentWidget()
                name = widget.objectName() if isinstance(widget, QDockWidget) else "central/window"
                painted_now.add(name)
            return False

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        window = bench._window(stack)
        panels = window.panels

        for key, widget in panels.widgets.items():
            original = getattr(widget, "render_view", None)
            if original is None:
                continue

            def timed(view, _original=original, _key=key):  # type: ignore[no-untyped-def]
                wall, cpu = time.perf_counter(), time.process_time()
                _original(view)
                samples[f"render.{_key}"].append(1000 * (time.perf_counter() - wall))
                samples[f"render_cpu.{_key}"].append(1000 * (time.process_time() - cpu))
            widget.render_view = timed  # type: ignore[method-assign]

        original_render = panels.render

        def render(view, *a, **k):  # type: ignore[no-untyped-def]
            step.setdefault("state_at", time.perf_counter())
            return original_render(view, *a, **k)
        panels.render = render  # type: ignore[method-assign]
        original_fit = window.fit_narration

        def fit():  # type: ignore[no-untyped-def]
            wall = time.perf_counter()
            original_fit()
            step["fit_end"] = time.perf_counter()
            samples["fit_narration"].append(1000 * (step["fit_end"] - wall))
        window.fit_narration = fit  # type: ignore[method-assign]

        counter = PaintCounter()
        QApplication.instance().installEventFilter(counter)
        forward = bench._action(window, "stepForwardAction")

        def measure() -> None:
            step.clear()
            painted_now.clear()
            started, cpu = time.perf_counter(), time.process_time()
            forward.trigger()
            bench._settle(window)
            ended = time.perf_counter()
            last = window.controller.state.last
            samples["latency"].append(1000 * (ended - started))
            samples["cpu"].append(1000 * (time.process_time() - cpu))
            samples["torch"].append(1000 * (last.seconds if last is not None else 0.0))
            if "state_at" in step:
                samples["wait"].append(1000 * (step["state_at"] - started))
                samples["after"].append(1000 * (ended - step.get("fit_end", step["state_at"])))
            painted.update(painted_now)
            samples["steps"].append(1)

        if args.lessons:
            for lesson in builtin_lessons():
                window.open_lesson(lesson)
                bench._settle(window)
                for _ in lesson.steps:
                    measure()
        else:
            bench._open(window, bench._lesson_file(Path(tmp), "training", PROGRAM))
            window.controller.go_to(20)
            bench._settle(window)
            for _ in range(40):
                measure()
        QApplication.instance().removeEventFilter(counter)
        repaint = {}
        for name, dock in panels.docks.items():
            if dock.isVisible():
                wall = time.perf_counter()
                for _ in range(5):
                    dock.repaint()
                repaint[name] = 1000 * (time.perf_counter() - wall) / 5
        wall = time.perf_counter()
        window.centralWidget().repaint()
        repaint["central/window"] = 1000 * (time.perf_counter() - wall)
    steps = len(samples.pop("steps"))
    print(f"steps measured: {steps}; load {os.getloadavg()[0]:.2f}")
    for key in sorted(samples):
        values = samples[key]
        print(f"{key:34} median {statistics.median(values):7.2f} ms   mean {statistics.mean(values):7.2f}"
              f"   calls/step {len(values) / steps:.2f}")
    for name in sorted(set(painted) | set(repaint)):
        print(f"paints.{name:26} {painted[name]:3}/{steps}   repaint whole {repaint.get(name, float('nan')):6.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How many times a step paints the window, and what starts each paint (issue #16, item 4).

    python benchmarks/paint_passes.py [--steps 40]

Steps forward over steps 21-60 of the 60-step training program of ``benchmarks/run.py`` through the window's
own actions, offscreen at 1280x720, and counts, per step and outside the benchmark's own ``repaint()``:

- each top-level event of the GUI thread that painted widgets (a *pass*), by event and receiver: a
  ``QGraphicsScene`` that processes its changed items sends the window's pending paint at once
  (``dispatchPendingUpdateRequests``), so every drawn panel whose scene changed may start a pass of its own;
- the window process's GUI-thread CPU of each kind of pass, and which docks each kind painted.

A pass costs its widgets' paints plus the window's own background and the scroll bars in it; the fewer, the
cheaper a step. Counting only (a ``QApplication.notify`` of this process; never in tests).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
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
    parser.add_argument("--steps", type=int, default=40, help="steps measured (from step 21)")
    args = parser.parse_args()
    from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, QThread
    from PySide6.QtWidgets import QApplication, QDockWidget, QGraphicsScene, QWidget

    passes: collections.Counter[str] = collections.Counter()
    cpu: collections.Counter[str] = collections.Counter()
    docks: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    state = {"on": False, "depth": 0, "top": ""}
    painted: set[str] = set()

    def receiver(obj: QObject) -> str:
        if isinstance(obj, QGraphicsScene):
            views = obj.views()
            return "scene of " + (type(views[0]).__name__ if views else "no view")
        return type(obj).__name__

    def dock_of(widget: QWidget | None) -> str:
        while widget is not None and not isinstance(widget, QDockWidget):
            widget = widget.parentWidget()
        return widget.objectName() if widget is not None else "central/window"

    class Counting(QApplication):
        def notify(self, obj: QObject, event: QEvent) -> bool:  # type: ignore[override]
            if not state["on"] or QThread.currentThread() is not gui_thread[0]:
                # (The window's worker thread delivers its own events, a job's call among them: counted here, that
                # call's stretch of time was taken for the top-level event of the GUI thread's paints meanwhile.)
                return super().notify(obj, event)
            top = state["depth"] == 0
            if top:
                painted.clear()
            elif event.type() == QEvent.Type.Paint and isinstance(obj, QWidget):
                painted.add(dock_of(obj))
            state["depth"] += 1
            started = time.thread_time()
            try:
                return super().notify(obj, event)
            finally:
                state["depth"] -= 1
                if top and painted:
                    kind = f"{event.type().name} to {receiver(obj)}"
                    passes[kind] += 1
                    cpu[kind] += time.thread_time() - started
                    docks[kind].update(painted)

    gui_thread: list[QThread] = []
    app = Counting(sys.argv[:1])
    gui_thread.append(app.thread())
    from tensorlab.core.engine.process_engine import prestart

    prestart()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        window = bench._window(stack)
        bench._open(window, bench._lesson_file(Path(tmp), "training", PROGRAM))
        window.controller.go_to(20)
        bench._settle(window)
        forward = bench._action(window, "stepForwardAction")
        controller = window.controller
        for _ in range(args.steps):
            state["on"] = True
            forward.trigger()
            loop = QEventLoop()
            controller.busyChanged.connect(loop.quit)
            while controller.busy:
                loop.exec()
            controller.busyChanged.disconnect(loop.quit)
            QCoreApplication.processEvents()
            state["on"] = False
            window.repaint()   # the benchmark's own full paint, not counted
    del app
    steps = args.steps
    print(f"steps measured: {steps}; load {os.getloadavg()[0]:.2f}; passes per step {sum(passes.values()) / steps:.2f}")
    for kind, count in passes.most_common():
        print(f"{kind:42} {count / steps:5.2f}/step  cpu {1000 * cpu[kind] / steps:6.2f} ms/step")
        print("    docks: " + ", ".join(f"{name} {n / steps:.2f}" for name, n in docks[kind].most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

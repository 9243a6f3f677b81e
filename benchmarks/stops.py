"""How fast TensorLab stops what it was asked to stop, and how fast a screenshot is.

    python benchmarks/stops.py [--repeat N] [--json out.json]

The tests assert only that these things happen (a cancelled step ends, a step over the time
limit becomes `WorkerTimeout`, a closed window leaves no worker, a screenshot is written);
how long they take is measured here, as ratios or against the figures the README states:

- cancel: from the moment a running step is cancelled to `Cancelled` raised (target < 1 s);
- time limit: a step over a 0.5 s `time_limit`, from its start to `EngineCrashed` (target < 3 s);
- close: closing the window mid-step, until `close()` returns (target < 1 s);
- screenshot: `tensorlab --lesson detach-shares-memory --step 3 --screenshot out.png` from start
  to exit, over `python -c "import torch, PySide6.QtWidgets"` (target <= 1.2x), and whether a
  process of its own is left behind when it exits (target: none).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LONG_STEP = "with torch.no_grad():\n" + "\n".join("    y = torch.ones(2000, 2000) @ torch.ones(2000, 2000)"
                                                   for _ in range(80))


def _generous_limits():  # noqa: ANN202 - the core's Limits
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS

    return replace(DEFAULT_LIMITS, max_cost=10**13)


def cancel_seconds() -> float:
    """Seconds from asking a running step to stop to `Cancelled`."""
    from tensorlab.core.engine.process_engine import ProcessEngine
    from tensorlab.core.protocol.engine_api import Cancelled

    engine = ProcessEngine(limits=_generous_limits())
    try:
        engine.run("x = torch.ones(3)")
        asked: list[float] = []

        def cancelled() -> bool:
            if not asked:
                asked.append(time.monotonic() + 0.3)
            return time.monotonic() > asked[0]

        try:
            engine.run(LONG_STEP, cancelled=cancelled)
        except Cancelled:
            return time.monotonic() - asked[0]
        raise RuntimeError("the long step finished before it was cancelled: make LONG_STEP longer")
    finally:
        engine.close()


def time_limit_seconds() -> float:
    """Seconds from starting a step to `EngineCrashed` under a 0.5 s time limit."""
    from tensorlab.core.engine.process_engine import ProcessEngine
    from tensorlab.core.protocol.engine_api import EngineCrashed

    engine = ProcessEngine(limits=_generous_limits(), time_limit=0.5)
    try:
        engine.run("x = torch.ones(3)")
        started = time.monotonic()
        try:
            engine.run(LONG_STEP)
        except EngineCrashed:
            return time.monotonic() - started
        raise RuntimeError("the long step finished within the time limit: make LONG_STEP longer")
    finally:
        engine.close()


def close_seconds() -> float:
    """Seconds `close()` of a window takes while its worker runs a long step."""
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(limits=_generous_limits()) as window:
        window.open_lesson(None)
        window.controller.wait_idle()
        window.controller.submit(LONG_STEP)
        deadline = time.monotonic() + 0.3
        while time.monotonic() < deadline:
            QApplication.processEvents()
        started = time.monotonic()
        window.close()
        return time.monotonic() - started


def _wall(command: list[str], cwd: Path) -> tuple[float, int]:
    """Seconds ``command`` ran, and how many processes of its session were still running when it exited."""
    started = time.perf_counter()
    # A session of its own, so that whatever it started is found by its session id afterwards.
    process = subprocess.Popen(command, cwd=cwd, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    if process.wait() != 0:
        raise RuntimeError(f"{command} failed")
    seconds = time.perf_counter() - started
    return seconds, _left_in_session(process.pid)


def _left_in_session(session: int) -> int:
    if not Path("/proc").is_dir():
        return -1
    left = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if len(fields) > 3 and int(fields[3]) == session:   # field 6 of stat: the session id
                left += 1
    return left


def screenshot_figures(folder: Path) -> dict[str, float]:
    """The screenshot command's wall time over the import of torch and Qt, and what it leaves running."""
    command = [sys.executable, "-m", "tensorlab", "--lesson", "detach-shares-memory", "--step", "3",
               "--screenshot", str(folder / "shot.png"), "--size", "1280x720"]
    imports, _ = _wall([sys.executable, "-c", "import torch, PySide6.QtWidgets"], folder)
    wall, left = _wall(command, folder)
    return {"screenshot_s": wall, "import_torch_qt_s": imports, "screenshot_over_import": wall / imports,
            "processes_left": float(left)}


TARGETS = (
    ("cancel a running step (s)", "cancel_s", "< 1"),
    ("a step over a 0.5 s time limit stopped after (s)", "time_limit_s", "< 3"),
    ("close the window mid-step (s)", "close_s", "< 1"),
    ("--screenshot / import torch + Qt", "screenshot_over_import", "<= 1.2"),
    ("processes left after --screenshot", "processes_left", "0"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure; the median is reported")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args()
    from tensorlab.core.engine.process_engine import prestart

    prestart()
    runs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            for key, value in (("cancel_s", cancel_seconds()), ("time_limit_s", time_limit_seconds()),
                               ("close_s", close_seconds()), *screenshot_figures(Path(tmp)).items()):
                runs.setdefault(key, []).append(value)
    figures = {key: statistics.median(values) for key, values in runs.items()}
    print(f"{'figure':52} {'median':>8}  target")
    for label, key, target in TARGETS:
        print(f"{label:52} {figures[key]:>8.2f}  {target}")
    print(json.dumps({"median": figures, "runs": runs}, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps({"median": figures, "runs": runs}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

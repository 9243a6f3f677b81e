"""Where the training program's step time goes: cProfile on the real paths (issue #16, item 4).

    python benchmarks/profile_training.py worker [--live 60]   # the worker's side, in this process
    python benchmarks/profile_training.py window [--back]      # the window's side, offscreen

``worker``: what the worker process does for one step (``serve._Server.run``): ``Session.execute``
(the statement, its snapshot, its notes), ``keep_history`` and the wire (dumps and the window's
loads), over steps 21-60 of the 60-step training program of ``benchmarks/run.py``; ``--live N``
instead runs ``r_k = t0 * 2`` after the training preamble and N live 1,000-element tensors (the
"60 live tensors / 2" row). ``window``: the window's side of stepping forward over steps 21-60
(``--back``: ← and → at step 60), through the window's own actions; the worker runs in its own
process there, so this profile is the panels, the controller and Qt. Both print the median
overhead (latency minus the step's own torch time) and the 40 costliest functions.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
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


def worker(live: int | None, profile: cProfile.Profile) -> list[float]:
    from tensorlab.core.lang.parse import parse_one
    from tensorlab.core.protocol.history import History, history_allowance
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS
    from tensorlab.core.protocol.wire import InfoReceiver, InfoSender
    from tensorlab.core.session.session import Session
    from tensorlab.core.worker.in_process import keep_history

    session, history = Session(), History(history_allowance(DEFAULT_LIMITS))
    sender, receiver = InfoSender(), InfoReceiver()

    def step(code: str) -> float:
        started = time.perf_counter()
        result = session.execute(parse_one(code))
        keep_history(session, history)
        receiver.loads(sender.dumps(("ok", result)))
        return time.perf_counter() - started - result.seconds

    if live is None:
        before, measured = PROGRAM[:20], PROGRAM[20:]
    else:
        before = list(bench.TRAINING) + [f"t{k} = torch.rand(1000)" for k in range(live)]
        measured = [f"r{k} = t0 * 2" for k in range(15)]
    for code in before:
        step(code)
    profile.enable()
    overheads = [step(code) for code in measured]
    profile.disable()
    return overheads


def window(back: bool, profile: cProfile.Profile) -> list[float]:
    from tensorlab.core.engine.process_engine import prestart

    prestart()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        shown = bench._window(stack)
        bench._open(shown, bench._lesson_file(Path(tmp), "training", PROGRAM))
        shown.controller.go_to(60 if back else 20)
        bench._settle(shown)
        forward, backward = bench._action(shown, "stepForwardAction"), bench._action(shown, "stepBackAction")
        profile.enable()
        if back:
            overheads = []
            for _ in range(10):
                overheads.append(bench._timed(shown, backward.trigger)[0])
                overheads.append(bench._timed(shown, forward.trigger)[0])
        else:
            overheads = [latency - seconds for latency, seconds, _ in
                         (bench._timed(shown, forward.trigger) for _ in range(40))]
        profile.disable()
        return overheads


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("side", choices=("worker", "window"))
    parser.add_argument("--live", type=int, default=None, help="worker: N live tensors instead of the program")
    parser.add_argument("--back", action="store_true", help="window: step back and forward at step 60")
    args = parser.parse_args()
    profile = cProfile.Profile()
    overheads = worker(args.live, profile) if args.side == "worker" else window(args.back, profile)
    print(f"median {'latency' if args.back else 'overhead'} (profiled): {1000 * statistics.median(overheads):.2f} ms")
    pstats.Stats(profile).sort_stats("tottime").print_stats(40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

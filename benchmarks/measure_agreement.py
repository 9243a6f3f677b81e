"""Does `tensorlab measure` agree with torch.utils.benchmark run by hand? Prints the ratio, in one run.

For each method and size, the same statement is timed twice: by TensorLab's
"measure" job in its worker process (as the window and `tensorlab measure` do),
and directly here with ``torch.utils.benchmark.Timer(...).blocked_autorange()``
on the same device with the same number of threads. The two runs alternate, so
drifts in machine load affect both alike (TensorLab itself pools three shorter
rounds per measurement; the direct run is one blocked_autorange of the full
time). A ratio near 1.00 means TensorLab reports what torch's own tool reports.

Usage: python benchmarks/measure_agreement.py [--device cuda:0] [--sizes 10,1000,1000000]
       [--methods "clone().detach();detach().clone()"] [--min-run-time 0.2]
"""

from __future__ import annotations

import argparse
import copy
import statistics
import warnings

import torch
from torch.utils.benchmark import Timer

from tensorlab.core.protocol.measure_results import METHODS, ORDER_METHODS, MeasureParams, matrix_shape


def direct_median(method: str, statement: str, size: int, requires_grad: bool, device: str,
                  threads: int, min_run_time: float) -> float:
    """Seconds per call of ``statement`` by torch.utils.benchmark, x made as TensorLab makes it."""
    x = torch.ones(matrix_shape(size), device=device, requires_grad=requires_grad)
    timer = Timer(statement, globals={"x": x, "torch": torch, "copy": copy}, num_threads=threads)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return timer.blocked_autorange(min_run_time=min_run_time).median


def main() -> None:
    from tensorlab.core.engine.process_engine import ProcessEngine
    from tensorlab.core.tools.measure import STATEMENTS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--sizes", default="10,1000,100000,1000000")
    parser.add_argument("--methods", default=";".join(ORDER_METHODS), help="';'-separated, from: " + "; ".join(METHODS))
    parser.add_argument("--min-run-time", type=float, default=0.2)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians are averaged")
    args = parser.parse_args()
    params = MeasureParams.from_dict({"sizes": [int(s) for s in args.sizes.split(",")],
                                      "methods": [m.strip() for m in args.methods.split(";") if m.strip()],
                                      "requires_grad": [True], "min_run_time": args.min_run_time})
    engine = ProcessEngine(args.device)
    try:
        threads = engine.info.get("threads", torch.get_num_threads())
        print(f"device {engine.device}, torch {torch.__version__}, {threads} threads, "
              f"{args.rounds} alternating rounds")
        print(f"{'method':<18} {'elements':>10}  {'tensorlab':>12}  {'direct':>12}  tensorlab / direct")
        ratios = []
        for size in params.sizes:
            for method in params.methods:
                ours, theirs = [], []
                for _ in range(args.rounds):
                    job = {"methods": [method], "sizes": [size], "requires_grad": [True],
                           "min_run_time": args.min_run_time}
                    result = engine.job("measure", job)
                    if not result.measurements:
                        break  # skipped here (e.g. a prime size for t().contiguous())
                    ours.append(result.measurements[0].median_s)
                    theirs.append(direct_median(method, STATEMENTS[method], size, True, engine.device, threads,
                                                args.min_run_time))
                if not ours:
                    continue
                a, b = statistics.fmean(ours), statistics.fmean(theirs)
                ratios.append(a / b)
                print(f"{method:<18} {size:>10,}  {a * 1e6:>9.2f} µs  {b * 1e6:>9.2f} µs  {a / b:.2f}")
        if ratios:
            print(f"median ratio over all: {statistics.median(ratios):.2f}")
    finally:
        engine.close()


if __name__ == "__main__":
    main()

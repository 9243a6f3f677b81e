"""Measure clone().detach() against detach().clone() on one device, in one run.

Reports the ratio of their median times; the design (concept 6) says TensorLab measures
this rather than asserting it. Usage: python benchmarks/clone_detach_order.py [--device cuda:0]
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch


def _median_seconds(fn, repeats: int, number: int, sync) -> float:
    samples = []
    for _ in range(repeats):
        sync()
        start = time.perf_counter()
        for _ in range(number):
            fn()
        sync()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--sizes", default="5,1000,1000000")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    device = torch.device(args.device)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    print(f"device: {device}, torch {torch.__version__}")
    print(f"{'elements':>10}  {'clone().detach()':>18}  {'detach().clone()':>18}  ratio")
    for size in (int(s) for s in args.sizes.split(",")):
        x = torch.ones(size, device=device, requires_grad=True)
        number = max(10, min(20_000, 2_000_000 // max(size, 1)))
        # Interleave the two so drifts in machine load affect both alike.
        a = b = 0.0
        for _ in range(3):
            a += _median_seconds(lambda x=x: x.clone().detach(), args.repeats, number, sync)
            b += _median_seconds(lambda x=x: x.detach().clone(), args.repeats, number, sync)
        print(f"{size:>10}  {a / 3 * 1e6:>15.2f} µs  {b / 3 * 1e6:>15.2f} µs  {a / b:.2f}x")


if __name__ == "__main__":
    main()

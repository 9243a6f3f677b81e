"""Time the ways to copy a tensor with torch.utils.benchmark, on the session's device.

The job ``"measure"`` (:mod:`tensorlab.core.worker.jobs`) runs :func:`measure_job` in the
worker process beside the session: every method at every size, with and without
``requires_grad``, each timed by :meth:`torch.utils.benchmark.Timer.blocked_autorange`
(which synchronises CUDA). The methods at one size take turns over a few rounds
and each method's blocks are pooled, so a passing load on the machine falls on
all of them alike instead of deciding a comparison. Progress is reported after each measurement, and a
cancel is noticed after each timed block, so the worker stops within one block.
The session's own tensors and random state are not touched.

Two things made one result 1000x too slow (review r17: clone() at 10^5 elements timed at 24 ms among
microseconds), and both are dealt with here, before any block is kept:

- The first calls of a method on a new tensor pay one-time costs (the timer's compiled statement, the
  allocator's first block of that size): each method is run once at each size and that run is discarded
  (:func:`_warm_up`).
- A copy of more than torch's grain size (32,768 elements) on the CPU is split over torch's threads, and the
  call waits for every thread: on a machine whose cores are busy elsewhere, a thread of the pool waits for a
  scheduler slice, tens of milliseconds, on every call. Before the first such size a short probe compares the
  pool with one thread (:func:`_usable_threads`); a starved pool times the run on one thread, and the
  result's ``Machine.threads`` says so. What is left (a load that starts mid-run) the noise flag marks.
"""

from __future__ import annotations

import contextlib
import copy
import platform
import statistics
import time
import warnings
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import torch
from torch.utils.benchmark import Timer

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.engine_api import Cancelled
from tensorlab.core.protocol.measure_results import (
    METHOD_STATEMENTS,
    Machine,
    Measurement,
    MeasureParams,
    MeasureResult,
    matrix_shape,
    quartiles,
    verdicts,
)

__all__ = ["machine", "measure", "measure_job", "measure_one", "time_blocks"]

def _device_name(device: str) -> str:
    if device.startswith("cuda"):
        return torch.cuda.get_device_name(torch.device(device))
    if device.startswith("mps"):
        return "Apple MPS"
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "cpu"


def machine(device: str) -> Machine:
    """The measured machine: device, its name, torch's version and the threads torch uses."""
    return Machine(device, _device_name(device), str(torch.__version__), torch.get_num_threads())


def _tensor(size: int, device: str, requires_grad: bool) -> torch.Tensor:
    """The x every method copies: float32 ones, 2-D (as square as ``size`` allows)."""
    return torch.ones(matrix_shape(size), device=device, requires_grad=requires_grad)


def time_blocks(method: str, x: torch.Tensor, min_run_time: float, threads: int,
                cancelled: Callable[[], bool] = lambda: False) -> tuple[list[float], int]:
    """Seconds per call of each timed block of ``method`` on ``x``, and the calls per block.

    :class:`Cancelled` when ``cancelled()`` turns true between blocks.
    """

    def after_block(number: int, seconds: float) -> None:
        if cancelled():
            raise Cancelled()

    timer = Timer(METHOD_STATEMENTS[method], globals={"x": x, "torch": torch, "copy": copy}, num_threads=threads)
    with warnings.catch_warnings():
        # torch.tensor(x) warns on every call; its warning is not part of what is timed.
        warnings.simplefilter("ignore")
        # torch annotates the callback as returning NoReturn; it returns None (or raises Cancelled).
        result = timer.blocked_autorange(callback=after_block,  # type: ignore[arg-type]
                                         min_run_time=min_run_time)
    return list(result.times), int(result.number_per_run)


def measure_one(method: str, x: torch.Tensor, min_run_time: float, threads: int,
                cancelled: Callable[[], bool] = lambda: False) -> Measurement:
    """One blocked_autorange of ``method`` on ``x``, as a measurement."""
    times, number = time_blocks(method, x, min_run_time, threads, cancelled)
    return _measurement(method, x, times, number)


def _measurement(method: str, x: torch.Tensor, times: list[float], number: int) -> Measurement:
    q1, median, q3 = quartiles(times)
    return Measurement(method, x.numel(), x.requires_grad, median, q1, q3, len(times), number)


def measure(params: MeasureParams, device: str = "cpu", cancelled: Callable[[], bool] = lambda: False,
            progress: Callable[[int, int], None] | None = None) -> MeasureResult:
    """Every measurement ``params`` asks for, on ``device``, smallest size first."""
    # The benchmark timer synchronises the *current* accelerator: make it the one measured.
    context = torch.cuda.device(torch.device(device)) if device.startswith("cuda") else contextlib.nullcontext()
    with context:
        return _measure(params, device, cancelled, progress)


# torch splits an elementwise CPU kernel over its threads above this many elements (at::internal::GRAIN_SIZE).
GRAIN_SIZE = 32768
# The pool is starved when a call on it takes this many times as long as the same call on one thread.
STARVED = 2.0
_PROBE_CALLS = 9
WARM_UP_SECONDS = 0.002   # each method's discarded run at each size


def _probe_seconds(x: torch.Tensor, threads: int) -> float:
    """The median seconds of a few plain ``x.clone()`` calls on ``threads`` threads (torch's setting restored)."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        x.clone()   # not counted: the first call allocates
        seconds = []
        for _ in range(_PROBE_CALLS):
            start = time.perf_counter()
            x.clone()
            seconds.append(time.perf_counter() - start)
        return statistics.median(seconds)
    finally:
        torch.set_num_threads(before)


def _usable_threads(params: MeasureParams, device: str, threads: int,
                    probe: Callable[[torch.Tensor, int], float] | None = None) -> int:
    """The threads to time on: torch's, or 1 when its pool is starved (each call waits for a busy core).

    Only a CPU run with a size over :data:`GRAIN_SIZE` uses more than one thread at all; the probe copies a
    tensor of the largest such size (at most 10^6 elements) on the pool and on one thread.
    """
    threaded = [size for size in params.sizes if size > GRAIN_SIZE]
    if device != "cpu" or threads <= 1 or not threaded:
        return threads
    # The probe looked up when called, not bound when this was defined (a test replaces it with a starved one).
    probe = probe if probe is not None else _probe_seconds
    x = torch.ones(min(max(threaded), 1_000_000))
    single = probe(x, 1)
    return 1 if probe(x, threads) > STARVED * single else threads


def _warm_up(methods: list[str], x: torch.Tensor, threads: int, cancelled: Callable[[], bool]) -> None:
    """Run each method once on ``x`` and discard the run: the first calls pay one-time costs (the timer's
    statement compiled, the first allocation of this size) that are not the method's."""
    for method in methods:
        time_blocks(method, x, WARM_UP_SECONDS, threads, cancelled)


def _measure(params: MeasureParams, device: str, cancelled: Callable[[], bool],
             progress: Callable[[int, int], None] | None) -> MeasureResult:
    threads = _usable_threads(params, device, torch.get_num_threads())
    total = params.steps
    done = 0
    found: list[Measurement] = []
    skipped: list[Message] = []
    for size in params.sizes:
        for grad in params.requires_grad:
            if cancelled():
                raise Cancelled()
            x = _tensor(size, device, grad)
            methods = list(params.methods)
            if "t().contiguous()" in methods and min(x.shape) < 2:
                methods.remove("t().contiguous()")
                skipped.append(msg("measure.skipped_transpose", size=size))
            pooled: dict[str, list[float]] = {method: [] for method in methods}
            numbers: dict[str, int] = {}
            _warm_up(methods, x, threads, cancelled)
            for _ in range(params.rounds):
                for method in params.methods:
                    if cancelled():
                        raise Cancelled()
                    if method in pooled:
                        times, number = time_blocks(method, x, params.min_run_time / params.rounds, threads,
                                                    cancelled)
                        pooled[method] += times
                        numbers.setdefault(method, number)
                    done += 1
                    if progress is not None:
                        progress(done, total)
            found += [_measurement(method, x, pooled[method], numbers[method]) for method in methods]
            del x
    measured_on = replace(machine(device), threads=threads)   # the threads the timed calls had
    return MeasureResult(measured_on, tuple(found), verdicts(found), tuple(dict.fromkeys(skipped)))


def measure_job(session: Any, params: dict[str, Any], cancelled: Callable[[], bool],
                progress: Callable[[int, int], None]) -> MeasureResult:
    """The ``"measure"`` job: :func:`measure` on the session's device (the session is not touched)."""
    return measure(MeasureParams.from_dict(params), session.device, cancelled, progress)

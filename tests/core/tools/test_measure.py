"""Measure: the verdict follows the numbers; a run finishes, reports progress, cancels within one measurement.

No test here checks how fast anything is: timings are fed in (synthetic) or only
checked for shape and consistency. Agreement with a direct torch.utils.benchmark
run is `benchmarks/measure_agreement.py`.
"""

from __future__ import annotations

import json
import random

import pytest
import torch

from tensorlab.core.protocol.engine_api import Cancelled
from tensorlab.core.protocol.measure_results import (
    DEFAULT_SIZES,
    METHODS,
    MeasureError,
    Measurement,
    MeasureParams,
    MeasureResult,
    matrix_shape,
    quartiles,
    verdict_for,
    verdicts,
)
from tensorlab.core.protocol.wire import InfoReceiver, InfoSender
from tensorlab.core.worker.in_process import LocalEngine


def _m(method: str, median: float, q1: float, q3: float, size: int = 1000, grad: bool = True) -> Measurement:
    return Measurement(method, size, grad, median, q1, q3, runs=10)


# -- the verdict, from synthetic timings ---------------------------------------------------------

def test_overlapping_spreads_mean_no_measurable_difference():
    a = _m("clone().detach()", 2.0e-6, 1.8e-6, 2.4e-6)
    b = _m("detach().clone()", 1.9e-6, 1.7e-6, 2.1e-6)
    v = verdict_for(a, b)
    assert v.kind == "same"
    assert v.ratio == pytest.approx(2.0 / 1.9)
    assert v.low == pytest.approx(1.8 / 2.1) and v.high == pytest.approx(2.4 / 1.7)
    assert v.low < 1 < v.high
    assert v.text.startswith("no measurable difference")
    assert f"{v.ratio:.2f}" in v.text


def test_separate_spreads_name_the_faster_order():
    slow = verdict_for(_m("clone().detach()", 3.0e-6, 2.9e-6, 3.1e-6), _m("detach().clone()", 2.0e-6, 1.9e-6, 2.1e-6))
    assert slow.kind == "slower" and slow.low == pytest.approx(2.9 / 2.1) and slow.low > 1
    assert slow.text.startswith("detach().clone() is faster") and "1.50×" in slow.text
    fast = verdict_for(_m("clone().detach()", 1.0e-6, 0.9e-6, 1.1e-6), _m("detach().clone()", 2.0e-6, 1.9e-6, 2.1e-6))
    assert fast.kind == "faster" and fast.high == pytest.approx(1.1 / 1.9) and fast.high < 1
    assert fast.text.startswith("clone().detach() is faster") and "0.50×" in fast.text


def test_the_boundary_counts_as_overlap():
    # low exactly 1: the spreads touch, so no difference can be claimed.
    v = verdict_for(_m("clone().detach()", 2.5e-6, 2.0e-6, 3.0e-6), _m("detach().clone()", 1.5e-6, 1.0e-6, 2.0e-6))
    assert v.low == pytest.approx(1.0) and v.kind == "same"


def test_a_verdict_per_size_and_requires_grad_where_both_orders_were_measured():
    found = []
    for size in (10, 1000):
        for grad in (True, False):
            found.append(_m("clone().detach()", 2e-6, 1.9e-6, 2.1e-6, size, grad))
            found.append(_m("detach().clone()", 1e-6, 0.9e-6, 1.1e-6, size, grad))
    found.append(_m("clone()", 1e-6, 0.9e-6, 1.1e-6, 100_000))            # no pair at this size
    found.append(_m("clone().detach()", 1e-6, 0.9e-6, 1.1e-6, 100_000))
    result = verdicts(found)
    assert [(v.size, v.requires_grad) for v in result] == [(10, True), (10, False), (1000, True), (1000, False)]
    assert all(v.kind == "slower" for v in result)


def test_no_verdict_from_a_zero_time():
    assert verdict_for(_m("clone().detach()", 1e-6, 0.0, 2e-6), _m("detach().clone()", 1e-6, 0.0, 2e-6)) is None


def test_quartiles_are_torch_quantiles():
    rng = random.Random(1)
    for n in (1, 2, 3, 7, 50):
        times = [rng.uniform(1e-6, 5e-6) for _ in range(n)]
        q1, median, q3 = quartiles(times)
        expected = torch.tensor(sorted(times), dtype=torch.float64).quantile(torch.tensor([0.25, 0.5, 0.75],
                                                                                          dtype=torch.float64))
        assert [q1, median, q3] == pytest.approx(expected.tolist(), rel=1e-12)


def test_matrix_shape_is_as_square_as_divisors_allow():
    for size in (1, 2, 10, 12, 97, 1000, 10**7):
        rows, cols = matrix_shape(size)
        assert rows * cols == size and rows <= cols
        assert all(size % r for r in range(rows + 1, int(size**0.5) + 1))
    assert matrix_shape(97) == (1, 97) and matrix_shape(10) == (2, 5)


def test_parameters_are_checked():
    assert MeasureParams.from_dict({}).methods == METHODS
    assert MeasureParams.from_dict({}).sizes == DEFAULT_SIZES
    params = MeasureParams.from_dict({"sizes": [1000, 10, 1000], "methods": ["detach()", "clone()"]})
    assert params.sizes == (10, 1000) and params.methods == ("detach()", "clone()") and params.total == 8
    assert params.rounds == 3 and params.steps == 24 and MeasureParams.from_dict(params.to_dict()) == params
    for bad in ({"methods": ["x.cuda()"]}, {"sizes": [0]}, {"sizes": [10**8]}, {"sizes": [1.5]},
                {"requires_grad": ["yes"]}, {"min_run_time": 100}, {"sizes": []}, {"colour": 1},
                {"rounds": 0}, {"rounds": 2.5}):
        with pytest.raises(MeasureError):
            MeasureParams.from_dict(bad)


# -- a real run (small, fast; nothing asserted about speed) -----------------------------------------

SMALL = {"sizes": [10, 1000], "methods": ["clone().detach()", "detach().clone()", "t().contiguous()"],
         "requires_grad": [True, False], "min_run_time": 0.005}


def test_a_run_over_two_sizes_finishes_and_reports_progress():
    engine = LocalEngine()
    seen: list[tuple[int, int]] = []
    result = engine.job("measure", SMALL, progress=lambda done, total: seen.append((done, total)))
    assert isinstance(result, MeasureResult)
    assert seen == [(i, 36) for i in range(1, 37)]  # 12 measurements, each timed in 3 rounds
    assert [(m.size, m.requires_grad, m.method) for m in result.measurements] == [
        (size, grad, method) for size in (10, 1000) for grad in (True, False) for method in SMALL["methods"]]
    for m in result.measurements:
        assert 0 < m.q1_s <= m.median_s <= m.q3_s and m.runs >= 3 and m.number_per_run >= 1
        assert m.iqr_s == pytest.approx(m.q3_s - m.q1_s)
    assert result.machine.device == "cpu" and result.machine.torch == torch.__version__
    assert result.machine.threads == torch.get_num_threads() and result.machine.device_name
    assert [(v.size, v.requires_grad) for v in result.verdicts] == [(10, True), (10, False), (1000, True),
                                                                     (1000, False)]
    assert result.verdicts == verdicts(result.measurements)


def test_the_json_follows_the_contract():
    result = LocalEngine().job("measure", {**SMALL, "sizes": [10]})
    doc = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert {"device", "torch", "threads", "results", "verdict"} <= set(doc)
    assert isinstance(doc["device"], str) and isinstance(doc["threads"], int)
    for row in doc["results"]:
        assert set(row) == {"method", "size", "requires_grad", "median_s", "iqr_s", "runs"}
        assert row["method"] in METHODS and isinstance(row["runs"], int)
    for v in doc["verdict"]:
        assert set(v) == {"size", "ratio", "low", "high", "requires_grad", "text"}
        assert v["low"] <= v["ratio"] <= v["high"]  # q1 <= median <= q3 on both sides


def test_cancel_stops_within_one_measurement():
    engine = LocalEngine()
    seen: list[int] = []
    with pytest.raises(Cancelled):
        engine.job("measure", SMALL, cancelled=lambda: bool(seen), progress=lambda done, total: seen.append(done))
    assert seen == [1]


def test_a_prime_size_skips_the_transpose_and_says_why():
    result = LocalEngine().job("measure", {**SMALL, "sizes": [97], "requires_grad": [False]})
    assert [m.method for m in result.measurements] == ["clone().detach()", "detach().clone()"]
    assert len(result.skipped) == 1 and "97" in result.skipped[0].render()
    korean = result.skipped[0].render("ko")
    assert "97" in korean and "재지 않았습니다" in korean


def test_the_session_is_not_touched():
    engine = LocalEngine()
    engine.run("a = torch.rand(3)")
    engine.job("measure", {**SMALL, "sizes": [10], "min_run_time": 0.001})
    after = engine.run("b = torch.rand(3)")
    torch.manual_seed(0)
    a = torch.rand(3)
    b = torch.rand(3)
    assert after.snapshot.tensor("b").values == tuple(b.tolist())
    assert after.snapshot.tensor("a").values == tuple(a.tolist())
    assert engine.position == 2


def test_results_cross_the_wire():
    result = LocalEngine().job("measure", {**SMALL, "sizes": [10]})
    assert InfoReceiver().loads(InfoSender().dumps(("ok", result))) == ("ok", result)


def test_in_the_worker_process_a_cancel_stops_it_without_a_restart():
    from tensorlab.core.engine.process_engine import ProcessEngine

    engine = ProcessEngine()
    try:
        engine.run("x = torch.ones(2)")
        seen: list[int] = []
        with pytest.raises(Cancelled):
            engine.job("measure", {**SMALL, "min_run_time": 0.05}, cancelled=lambda: bool(seen),
                       progress=lambda done, total: seen.append(done))
        assert engine.restarts == 0 and len(seen) <= 2
        result = engine.job("measure", {**SMALL, "sizes": [10], "requires_grad": [True]})
        assert len(result.measurements) == 3
        assert engine.run("print(x)").output == "tensor([1., 1.])\n"
    finally:
        engine.close()


# -- the command ------------------------------------------------------------------------------

def test_measure_command_prints_the_json_contract(capsys):
    from tensorlab.cli.main import main

    assert main(["measure", "--sizes", "10,1000", "--methods", "clone().detach();detach().clone()",
                 "--min-run-time", "0.005", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["device"] == "cpu" and doc["torch"] == torch.__version__ and doc["threads"] == torch.get_num_threads()
    assert [(r["method"], r["size"], r["requires_grad"]) for r in doc["results"]] == [
        (m, size, grad) for size in (10, 1000) for grad in (True, False)
        for m in ("clone().detach()", "detach().clone()")]
    assert [(v["size"], v["requires_grad"]) for v in doc["verdict"]] == [(10, True), (10, False), (1000, True),
                                                                          (1000, False)]
    for v in doc["verdict"]:
        assert (v["low"] <= 1 <= v["high"]) == v["text"].startswith("no measurable difference")


def test_measure_command_prints_a_table_and_refuses_bad_input(capsys):
    from tensorlab.cli.main import main

    assert main(["measure", "--sizes", "100", "--methods", ".data", "--requires-grad", "no",
                 "--min-run-time", "0.005"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("device: cpu (") and ".data" in out and "False" in out
    assert main(["measure", "--sizes", "ten"]) == 2
    assert "whole numbers" in capsys.readouterr().err
    assert main(["measure", "--methods", "x.cuda()"]) == 2
    assert "not a method" in capsys.readouterr().err
    assert main(["measure", "--device", "cuda:7", "--sizes", "10"]) == 2 or torch.cuda.device_count() > 7


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_a_run_on_the_gpu_names_it_and_finishes():
    engine = LocalEngine("cuda:0")
    result = engine.job("measure", {**SMALL, "sizes": [10, 100_000]})
    assert result.machine.device == "cuda:0"
    assert result.machine.device_name == torch.cuda.get_device_name(0)
    assert len(result.measurements) == 12 and all(m.median_s > 0 for m in result.measurements)


def test_one_list_of_methods_names_what_is_timed_for_each():
    from tensorlab.core.protocol.measure_results import METHOD_STATEMENTS

    assert METHODS == tuple(METHOD_STATEMENTS) and len(METHODS) == 9
    for method, statement in METHOD_STATEMENTS.items():
        # The statement is the method's own code, written after `x` (or taking x).
        assert statement in (f"x{method}" if method.startswith(".") else f"x.{method}", method), method


# -- what is timed: the warm-up discarded, the threads a starved pool cannot give ----------------------------

def test_the_first_run_of_each_method_at_each_size_is_a_warm_up_and_is_not_reported(monkeypatch):
    # Review r17 item 1: one clone() at 10^5 elements came out at 24 ms among microseconds. A stubbed timer
    # whose first run of each (method, size, requires_grad) is 1000x slow, as a first call can be.
    from tensorlab.core.tools import measure as measure_module

    seen: list[tuple[str, int, bool]] = []

    def stub(method, x, min_run_time, threads, cancelled=lambda: False):
        key = (method, x.numel(), x.requires_grad)
        first = key not in seen
        seen.append(key)
        return ([1e-2] * 3 if first else [1e-5, 1e-5, 1e-5]), 1

    monkeypatch.setattr(measure_module, "time_blocks", stub)
    params = MeasureParams(sizes=(10, 1000), methods=("clone()", "detach()"), requires_grad=(True, False))
    result = measure_module.measure(params)
    assert len(result.measurements) == 8
    assert all(m.median_s == 1e-5 and m.q3_s == 1e-5 for m in result.measurements)   # no warm-up block in them
    assert len(seen) == 8 * (1 + params.rounds)    # each once discarded, then each round


def test_a_starved_thread_pool_times_on_one_thread_and_says_so(monkeypatch):
    # A copy over torch's grain size is split over its threads and waits for each: on busy cores the pool's
    # call takes a scheduler slice. The probe finds it; the run is timed on one thread, and the machine says 1.
    from tensorlab.core.tools import measure as measure_module

    threads_used: set[int] = set()

    def stub(method, x, min_run_time, threads, cancelled=lambda: False):
        threads_used.add(threads)
        return [1e-5] * 3, 1

    monkeypatch.setattr(measure_module, "time_blocks", stub)
    monkeypatch.setattr(torch, "get_num_threads", lambda: 4)
    params = MeasureParams(sizes=(100, 100_000), methods=("clone()",), requires_grad=(False,))
    starved = {1: 5e-6, 4: 2e-2}   # seconds per call, by threads
    monkeypatch.setattr(measure_module, "_probe_seconds", lambda x, threads: starved[threads])
    assert measure_module._usable_threads(params, "cpu", 4, measure_module._probe_seconds) == 1
    result = measure_module.measure(params)
    assert threads_used == {1} and result.machine.threads == 1
    # A pool that is not starved (faster, or a little slower) keeps its threads; so does a run of small sizes
    # only (no call there uses more than one thread) and a GPU run.
    for seconds in ({1: 5e-6, 4: 2e-6}, {1: 5e-6, 4: 8e-6}):
        assert measure_module._usable_threads(params, "cpu", 4, lambda x, t, s=seconds: s[t]) == 4
    small = MeasureParams(sizes=(100, 10_000), methods=("clone()",), requires_grad=(False,))
    assert measure_module._usable_threads(small, "cpu", 4, lambda x, t: starved[t]) == 4
    assert measure_module._usable_threads(params, "cuda:0", 4, lambda x, t: starved[t]) == 4


def test_the_probe_leaves_torchs_threads_as_they_were():
    from tensorlab.core.tools.measure import _probe_seconds

    before = torch.get_num_threads()
    assert _probe_seconds(torch.ones(40_000), 1) > 0
    assert torch.get_num_threads() == before

"""The measure noise flag, on made-up results: a wide spread, or a point far off its neighbours' line."""

from __future__ import annotations

from tensorlab.core.protocol.measure_results import Machine, Measurement, MeasureResult, noise
from tensorlab.core.tools.tables import measure_table

SIZES = (10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000)


def _m(size: int, median: float, spread: float = 0.1, method: str = "clone()", grad: bool = True) -> Measurement:
    """A measurement whose IQR is ``spread`` × its median."""
    return Measurement(method, size, grad, median, median * (1 - spread / 2), median * (1 + spread / 2), runs=10)


def _clean() -> list[Measurement]:
    # Flat at small sizes, then linear in the size: a copy's real curve.
    return [_m(size, 2e-6 + size * 5e-10) for size in SIZES]


def test_a_clean_curve_has_no_noise():
    assert noise(_clean()) == ()


def test_a_spread_over_half_the_median_is_noise_and_at_half_it_is_not():
    points = _clean()
    points[2] = _m(1_000, points[2].median_s, spread=0.8)
    points[4] = _m(100_000, 2.0 ** -14, spread=0.5)     # exactly 0.5 in binary: not over it
    (found,) = noise(points)
    assert found.measurement is points[2] and found.reason == "spread" and abs(found.value - 0.8) < 1e-9


def test_the_issues_cliff_1m_elements_at_8_ms_is_off_the_line():
    # The GUI's 1M elements at 7.97 ms where its neighbours (and the CLI) say ~0.5 ms.
    points = _clean()
    points[5] = _m(1_000_000, 7.97e-3)
    (found,) = noise(points)
    assert found.measurement is points[5] and found.reason == "off_line" and found.value > 10


def test_nine_times_off_is_not_flagged_eleven_times_is():
    for factor, flagged in ((9.0, False), (11.0, True)):
        points = [_m(size, size * 1e-9) for size in SIZES]      # a straight line, log-log
        points[3] = _m(10_000, points[3].median_s * factor)
        assert bool(noise(points)) is flagged, factor


def test_one_bad_point_does_not_flag_its_good_neighbours():
    points = [_m(size, 1e-6) for size in SIZES]
    points[3] = _m(10_000, 1e-3)
    assert [n.measurement.size for n in noise(points)] == [10_000]


def test_an_end_point_is_judged_by_the_lines_of_slope_0_to_1_through_its_neighbour():
    # 10M elements 50x faster than 1M, or the last size 1M 15x slower than 100k x 10: noise.
    points = _clean()
    points[-1] = _m(10_000_000, points[-2].median_s / 50)
    assert [(n.measurement.size, n.reason) for n in noise(points)] == [(10_000_000, "off_line")]
    points = _clean()[:6]
    points[-1] = _m(1_000_000, 7.97e-3)
    assert [n.measurement.size for n in noise(points)] == [1_000_000]
    # A real curve's flat start (10 and 1,000 elements take the same time) is not noise; nor is 9x.
    assert noise([_m(10, 2e-6), _m(1_000, 2e-6), _m(100_000, 5e-5)]) == ()
    assert noise([_m(10, 2e-6), _m(100, 2e-5 * 9)]) == ()


def test_curves_are_judged_apart():
    a = [_m(size, 1e-6, method="clone()") for size in SIZES[:3]]
    b = [_m(size, 1e-3, method=".data", grad=False) for size in SIZES[:3]]   # far above a, on its own line
    assert noise(a + b) == ()
    assert noise([_m(10, 1e-6)]) == ()
    # Of two points 1000x apart at the same size ratio, one is flagged (then it is no one's neighbour).
    assert len(noise([_m(10, 1e-6), _m(100, 1e-2)])) == 1


def test_the_table_marks_noise_and_says_why_in_either_language():
    points = _clean()
    points[5] = _m(1_000_000, 7.97e-3)
    result = MeasureResult(Machine("cpu", "test cpu", "2.13.0", 2), tuple(points))
    table = measure_table(result, "en")
    row = next(line for line in table.splitlines() if line.startswith("clone()") and "1,000,000" in line)
    assert row.rstrip().endswith("!")
    assert "`clone()` at 1,000,000 elements, requires_grad=True:" in table and "likely noise" in table
    korean = measure_table(result, "ko")
    assert "잡음일 가능성" in korean and "원소 1,000,000개" in korean
    clean = measure_table(MeasureResult(result.machine, tuple(_clean())), "en")
    assert "!" not in clean and "noise" not in clean


def test_the_cli_run_flags_the_cliff_at_100k_not_the_consistent_1000_point():
    # `measure --sizes 10,1000,100000 --methods "clone();detach().clone()" --requires-grad yes`:
    # 1.27 µs @10, 1.35 µs @1000 (consistent with 10), 4.12 ms @100000 (30× over what 1000 allows).
    points = [_m(10, 1.27e-6), _m(1_000, 1.35e-6), _m(100_000, 4.12e-3)]
    found = noise(points)
    assert [(n.measurement.size, n.reason) for n in found] == [(100_000, "off_line")]
    assert 20 < found[0].value < 40


def test_a_point_between_its_neighbours_is_never_flagged():
    # Monotone in log-log: whichever of the three is wrong, the middle one is not the one to blame.
    assert all(n.measurement.size != 1_000 for n in noise([_m(10, 1e-6), _m(1_000, 1e-4), _m(100_000, 1e-1)]))
    assert all(n.measurement.size != 1_000 for n in noise([_m(10, 1e-1), _m(1_000, 1e-3), _m(100_000, 1e-6)]))


def test_an_inner_point_is_judged_only_when_its_neighbours_agree_without_it():
    # The spike at 1,000 sits above both neighbours, but 10 and 100,000 disagree with each other
    # without it (a 500,000× rise over 4 decades, 50× over slope 1), so it is not judged against
    # them; the end point 10 is off what 1,000 and 100,000 (which agree) allow.
    points = [_m(10, 1e-6), _m(1_000, 1e0), _m(100_000, 5e-1)]
    assert [n.measurement.size for n in noise(points)] == [10]
    # An end point whose neighbour is itself off its own neighbour is not blamed for it.
    points = [_m(10, 1e-6), _m(100, 1e-3), _m(1_000, 1e-6)]
    assert [n.measurement.size for n in noise(points)] == [100]


def test_measure_json_adds_the_noise_flags_and_keeps_its_fields():
    points = [_m(10, 1.27e-6), _m(1_000, 1.35e-6), _m(100_000, 4.12e-3)]
    doc = MeasureResult(Machine("cpu", "test cpu", "2.13.0", 2), tuple(points)).to_json()
    assert {"device", "device_name", "torch", "threads", "results", "verdict", "noise"} == set(doc)
    assert set(doc["results"][0]) == {"method", "size", "requires_grad", "median_s", "iqr_s", "runs"}
    (flag,) = doc["noise"]
    assert (flag["method"], flag["size"], flag["requires_grad"]) == ("clone()", 100_000, True)
    assert flag["reason"] == "off_line"
    assert flag["value"] > 10 and "100,000 elements" in flag["text"]

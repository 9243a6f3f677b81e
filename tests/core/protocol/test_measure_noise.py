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

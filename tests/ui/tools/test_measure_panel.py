"""The Measure dock, driven like a user: pick, measure in the worker, see plot, table, verdict; cancel; save CSV."""

from __future__ import annotations

import csv

import pytest
from PySide6.QtCore import QPoint, Qt

from tensorlab.core.protocol.measure_results import MeasureResult
from tensorlab.ui.program.controller import LabController
from tensorlab.ui.tools.measure_panel import MeasurePanel, verdict_cell
from tensorlab.ui.widgets import i18n


@pytest.fixture
def panel(qtbot):
    controller = LabController()
    widget = MeasurePanel(controller)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    yield widget
    controller.shutdown()
    i18n.set_language("en")


def _click_box(qtbot, box):
    # On the indicator, where a person clicks a checkbox.
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def _pick(qtbot, panel, methods, sizes, grads=(True, False)):
    for chosen, boxes in ((methods, panel.method_boxes), (sizes, panel.size_boxes), (grads, panel.grad_boxes)):
        for key, box in boxes.items():
            if box.isChecked() != (key in chosen):
                _click_box(qtbot, box)
            assert box.isChecked() == (key in chosen)


def _finish(qtbot, panel, timeout=60_000):
    qtbot.waitUntil(lambda: not panel.running, timeout=timeout)


def test_a_measurement_fills_the_plot_the_table_and_the_verdict(qtbot, panel, tmp_path):
    panel.min_run_time = 0.005
    _pick(qtbot, panel, ("clone().detach()", "detach().clone()"), (10, 1000))
    progress = []
    panel.controller.jobProgress.connect(lambda name, done, total: progress.append((name, done, total)))
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    assert panel.running and not panel.run_button.isEnabled() and panel.cancel_button.isEnabled()
    _finish(qtbot, panel)
    result = panel.result
    assert isinstance(result, MeasureResult) and len(result.measurements) == 8
    # Progress after each timed run: 8 measurements, each in 3 rounds.
    assert [p[1] for p in progress] == list(range(1, 25)) and {p[0] for p in progress} == {"measure"}
    assert panel.progress_bar.value() == panel.progress_bar.maximum() == 24
    # The plot: one curve per (method, requires_grad), its points the medians measured, log-log.
    assert set(panel.plot.curves) == {(m, g) for m in ("clone().detach()", "detach().clone()") for g in (True, False)}
    for (method, grad), curve in panel.plot.curves.items():
        xs, ys = curve.getOriginalDataset()
        expected = [m for m in result.measurements if (m.method, m.requires_grad) == (method, grad)]
        assert list(xs) == [float(m.size) for m in expected] and list(ys) == [m.median_s for m in expected]
        assert not panel.plot.spreads[(method, grad)].path().isEmpty()
    assert panel.plot.getPlotItem().ctrl.logXCheck.isChecked() and panel.plot.getPlotItem().ctrl.logYCheck.isChecked()
    # The table: a row per measurement.
    model = panel.model
    assert model.rowCount() == 8
    assert [model.item(r, 0).text() for r in range(8)] == [m.method for m in result.measurements]
    # The verdict: a cell per size and requires_grad, said from the numbers.
    text = panel.verdict.text()
    for verdict in result.verdicts:
        assert verdict_cell(verdict) in text
    assert result.machine.torch in panel.machine.text()
    # CSV, with the machine on every row.
    path = tmp_path / "m.csv"
    assert panel.save_csv(path)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [(r["method"], int(r["size"]), r["requires_grad"] == "True", float(r["median_s"])) for r in rows] == [
        (m.method, m.size, m.requires_grad, m.median_s) for m in result.measurements]
    assert {r["device"] for r in rows} == {"cpu"} and {r["torch"] for r in rows} == {result.machine.torch}
    assert {int(r["threads"]) for r in rows} == {result.machine.threads}


def test_cancel_stops_the_measurement_mid_way(qtbot, panel):
    panel.min_run_time = 0.05
    _pick(qtbot, panel, ("clone()", "detach()", "clone().detach()", "detach().clone()"), (10, 100, 1000, 10_000))
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.progress_bar.value() >= 1, timeout=30_000)
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    _finish(qtbot, panel)
    assert panel.message.text() == "Measurement cancelled."
    assert panel.progress_bar.value() < panel.progress_bar.maximum() == 96
    assert panel.result is None and panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    # The worker is still there, and the session with it.
    panel.controller.submit("x = torch.ones(2)")
    qtbot.waitUntil(lambda: not panel.controller.busy, timeout=30_000)
    assert panel.controller.state.snapshot.tensor("x") is not None


def test_nothing_picked_says_so(qtbot, panel):
    _pick(qtbot, panel, (), (10,))
    assert not panel.start()
    assert "at least one method" in panel.message.text()


def test_the_verdict_reads_in_korean(qtbot, panel):
    panel.min_run_time = 0.005
    _pick(qtbot, panel, ("clone().detach()", "detach().clone()"), (10,), (True,))
    i18n.set_language("ko")
    qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    _finish(qtbot, panel)
    text = panel.verdict.text()
    assert "중앙값" in text and ("차이 없음" in text or "더 빠름" in text)
    assert panel.tabs.tabText(0) == "그래프"


def test_the_empty_plot_shows_no_ticks_and_a_result_brings_them_back(panel, qtbot):
    from PySide6.QtGui import QImage, QPainter

    from tensorlab.core.protocol.measure_results import Machine, Measurement

    def drawn(axis):
        """(tick marks, tick texts) the axis would paint now."""
        image = QImage(400, 400, QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        try:
            _, ticks, texts = axis.generateDrawSpecs(painter)
        finally:
            painter.end()
        return ticks, texts

    plot = panel.plot
    # As the dock first shows it (nothing measured yet, show_result never called): no ticks, no grid.
    for name in ("bottom", "left"):
        axis = plot.getPlotItem().getAxis(name)
        assert axis.style["showValues"] is False and drawn(axis) == ([], [])
        assert not axis.grid
    plot.show_result(None)
    for name in ("bottom", "left"):
        axis = plot.getPlotItem().getAxis(name)
        assert axis.style["showValues"] is False
        assert drawn(axis) == ([], [])
    result = MeasureResult(Machine("cpu", "test cpu", "2.13.0", 2),
                           tuple(Measurement("clone()", s, True, s * 1e-9, s * 0.9e-9, s * 1.1e-9, 10)
                                 for s in (10, 1000, 100_000)))
    plot.show_result(result)
    for name in ("bottom", "left"):
        # (The axis widens for its texts when laid out again: once the plot has been painted.)
        qtbot.waitUntil(lambda name=name: all(drawn(plot.getPlotItem().getAxis(name))), timeout=5000)


def test_a_noisy_result_is_ringed_on_the_plot_and_said_in_the_table_and_the_text(panel):
    from tensorlab.core.protocol.measure_results import Machine, Measurement

    def m(size, median, spread=0.1):
        return Measurement("clone()", size, True, median, median * (1 - spread / 2), median * (1 + spread / 2), 10)

    sizes = (10, 1000, 100_000, 1_000_000, 10_000_000)
    points = [m(s, 2e-6 + s * 5e-10) for s in sizes]
    points[3] = m(1_000_000, 7.97e-3)              # the 1000x cliff
    points[1] = m(1000, points[1].median_s, 0.9)   # blocks that disagree
    panel.show_result(MeasureResult(Machine("cpu", "test cpu", "2.13.0", 2), tuple(points)))
    assert sorted(size for size, _ in panel.plot.noise_marks) == [1000, 1_000_000]
    medians = [panel.model.item(r, 3).text() for r in range(panel.model.rowCount())]
    assert [t.endswith("!") for t in medians] == [False, True, False, True, False]
    assert "off the log-log line" in panel.model.item(3, 3).toolTip()
    text = panel.verdict.text()
    assert "Likely noise" in text and "1,000,000 elements" in text and "IQR/median 0.90" in text
    i18n.set_language("ko")
    panel.show_result(panel.result)
    assert "잡음일 가능성" in panel.verdict.text()

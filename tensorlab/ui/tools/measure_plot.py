"""Time per call against size, log-log: one curve per method, its quartiles shaded.

Drawn with pyqtgraph from a :class:`~tensorlab.core.protocol.measure_results.MeasureResult`;
``requires_grad=True`` is a solid line, ``False`` a dashed one.
"""

from __future__ import annotations

import math
import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QFontInfo  # noqa: E402
from PySide6.QtWidgets import QWidget  # noqa: E402

from tensorlab.core.protocol.measure_results import MeasureResult, noise  # noqa: E402
from tensorlab.ui.tools.measure_colors import method_color  # noqa: E402
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, tr  # noqa: E402

__all__ = ["MeasurePlot", "method_color"]


class MeasurePlot(pg.PlotWidget):
    """The log-log plot of a measurement (``curves``: (method, requires_grad) -> median curve)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background="w")
        self.setObjectName("measurePlot")
        self.setMenuEnabled(False)
        self.setMinimumHeight(120)
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Time per call against size, log-log"))
        item = self.getPlotItem()
        item.setLogMode(x=True, y=True)
        item.showGrid(x=True, y=True, alpha=0.25)
        self.curves: dict[tuple[str, bool], pg.PlotDataItem] = {}
        self.spreads: dict[tuple[str, bool], pg.FillBetweenItem] = {}
        self.result: MeasureResult | None = None
        self.noise_marks: list[tuple[int, float]] = []   # (size, median) of each point marked as noise
        self.i18n.on_change(self._label_axes)
        self._label_axes()
        self.show_result(None)   # made empty: no ticks until there is data (review r17: 2…9 on a log axis)

    def _label_axes(self) -> None:
        item = self.getPlotItem()
        font = QFont(self.font())
        font.setPixelSize(max(12, QFontInfo(font).pixelSize()))
        for name in ("bottom", "left"):
            axis = item.getAxis(name)
            axis.setStyle(tickFont=font)
            axis.setTextPen("#202020")
            axis.setPen("#606060")
            axis.enableAutoSIPrefix(False)  # log ticks read as seconds, never "(x0.001)"
            axis.label.setFont(font)
        item.setLabel("bottom", tr("elements in x"), color="#202020")
        item.setLabel("left", tr("seconds per call"), color="#202020")
        if self.result is not None:
            self.show_result(self.result)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._label_axes()  # pyqtgraph's axes do not follow the widget's font by themselves

    def show_result(self, result: MeasureResult | None) -> None:
        """Draw ``result`` (None: empty)."""
        self.result = result
        item = self.getPlotItem()
        item.clear()
        self.curves, self.spreads, self.noise_marks = {}, {}, []
        # Nothing measured: no ticks and no grid (an empty log axis numbers a range that means nothing).
        empty = result is None or not result.measurements
        for name in ("bottom", "left"):
            axis = item.getAxis(name)
            axis.setTicks([[], []] if empty else None)
            axis.setStyle(showValues=not empty)
        item.showGrid(x=not empty, y=not empty, alpha=0.25)
        if result is None:
            return
        keys = list(dict.fromkeys((m.method, m.requires_grad) for m in result.measurements))
        for method, grad in keys:
            points = sorted((m for m in result.measurements if (m.method, m.requires_grad) == (method, grad)),
                            key=lambda m: m.size)
            sizes = [float(m.size) for m in points]
            color = method_color(method)
            style = Qt.PenStyle.SolidLine if grad else Qt.PenStyle.DashLine
            # Edges of the shading: drawn invisibly (a pen of None would leave them without a path).
            edge = pg.mkPen(color=(0, 0, 0, 0))
            low = pg.PlotDataItem(sizes, [m.q1_s for m in points], pen=edge)
            high = pg.PlotDataItem(sizes, [m.q3_s for m in points], pen=edge)
            shade = QColor(color)
            shade.setAlpha(60)
            spread = pg.FillBetweenItem(low, high, brush=shade)
            for part in (low, high, spread):
                item.addItem(part)
            curve = item.plot(sizes, [m.median_s for m in points],
                              pen=pg.mkPen(color, width=2, style=style), symbol="o" if grad else "t",
                              symbolSize=7, symbolBrush=color, symbolPen=color)
            self.curves[(method, grad)] = curve
            self.spreads[(method, grad)] = spread
        # A point the numbers call noise (a wide spread, far off its neighbours' line) gets a red ring.
        marked = [n.measurement for n in noise(result.measurements)]
        if marked:
            ring = pg.mkPen("#c62828", width=2.5)
            item.plot([float(m.size) for m in marked], [m.median_s for m in marked], pen=None, symbol="o",
                      symbolSize=20, symbolBrush=None, symbolPen=ring)
            for m in marked:
                mark = pg.TextItem(tr("noise?"), color="#c62828", anchor=(0.5, 1.2))
                mark.setPos(math.log10(m.size), math.log10(m.median_s))
                item.addItem(mark)
            self.noise_marks = [(m.size, m.median_s) for m in marked]
        # The range of the data itself, in the view's log10 coordinates (the shading's path has no
        # bounds of its own to trust before it is drawn).
        measured = result.measurements
        if measured:
            sizes = [m.size for m in measured]
            low = [m.q1_s for m in measured if m.q1_s > 0] or [1e-9]
            high = [m.q3_s for m in measured if m.q3_s > 0] or [1.0]
            item.setRange(xRange=(math.log10(min(sizes)), math.log10(max(sizes))),
                          yRange=(math.log10(min(low)), math.log10(max(high))), padding=0.08)


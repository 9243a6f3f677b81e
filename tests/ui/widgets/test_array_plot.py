"""The values plot: few bars as items with their numbers, many bars painted as one picture."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tensorlab.ui.widgets.array_plot import MAX_BAR_ITEMS, ArrayPlot


def _bar_heights(plot: ArrayPlot, columns: list[int]) -> list[int]:
    """How many pixels of the bar colour each of ``columns`` of the drawn plot holds."""
    image = plot.viewport().grab().toImage()
    color = plot.color.rgb()
    return [sum(1 for y in range(image.height()) if QColor(image.pixel(x, y)).rgb() == color) for x in columns]


@pytest.fixture
def plot(qtbot) -> ArrayPlot:
    """A values plot on screen, 420x160."""
    shown = ArrayPlot()
    qtbot.addWidget(shown)
    shown.resize(420, 160)
    shown.show()
    qtbot.waitExposed(shown)
    return shown


def test_many_bars_show_every_value_rising_as_the_values_rise(plot):
    count = 4 * MAX_BAR_ITEMS
    values = [float(i) for i in range(count)]
    plot.set_array("bars", values, [str(v) for v in values])
    width = plot.viewport().width()
    heights = _bar_heights(plot, [int(width * f) for f in (0.2, 0.5, 0.8)])
    assert 0 < heights[0] < heights[1] < heights[2]
    assert not plot.labels_shown          # too many to write each number


def test_few_bars_are_items_with_their_numbers(plot):
    plot.set_array("bars", [1.0, 2.0, 3.0], ["1.0", "2.0", "3.0"])
    assert plot.labels_shown
    texts = {item.text() for item in plot.scene().items() if hasattr(item, "text")}
    assert {"1.0", "2.0", "3.0"} <= texts

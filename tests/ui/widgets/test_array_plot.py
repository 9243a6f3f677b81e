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


def _wcag_luminance(color: QColor) -> float:
    """WCAG 2 relative luminance, written here again so the test does not trust the app's own."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v / 255) for v in (color.red(), color.green(), color.blue()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_wcag_luminance(a), _wcag_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_every_colour_of_the_colormap_takes_a_text_colour_of_contrast_4_5():
    from tensorlab.ui.widgets.array_plot import viridis
    from tensorlab.ui.widgets.palette import text_color_on
    for i in range(1001):
        fill = viridis(i / 1000)
        assert _contrast(text_color_on(fill), fill) >= 4.5, (i, fill.name())


def test_heat_map_numbers_contrast_with_their_own_cell_and_rows_and_columns_are_numbered(qtbot):
    from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSimpleTextItem
    shown = ArrayPlot()
    qtbot.addWidget(shown)
    shown.resize(900, 700)
    shown.show()
    qtbot.waitExposed(shown)
    rows, cols = 6, 8     # 48 values spread over the whole colour map, and a NaN (drawn at its low end)
    grid = [[float(r * cols + c) for c in range(cols)] for r in range(rows)]
    grid[2][3] = float("nan")
    texts = [f"v{r * cols + c}" for r in range(rows) for c in range(cols)]
    shown.set_array("image", grid, texts)
    assert shown.labels_shown
    cells = [item for item in shown.scene().items() if isinstance(item, QGraphicsRectItem)]
    items = [item for item in shown.scene().items() if isinstance(item, QGraphicsSimpleTextItem)]
    written = {item.text(): item for item in items}
    for text in texts:
        item = written[text]
        centre = item.sceneBoundingRect().center()
        under = [cell for cell in cells if cell.sceneBoundingRect().contains(centre)]
        assert len(under) == 1, text
        fill = under[0].brush().color()
        assert _contrast(item.brush().color(), fill) >= 4.5, (text, fill.name(), item.brush().color().name())
        assert under[0].sceneBoundingRect().contains(item.sceneBoundingRect()), text
    # The indices: 0..rows-1 left of the cells' rows, 0..cols-1 above their columns.
    left = min(cell.sceneBoundingRect().left() for cell in cells)
    top = min(cell.sceneBoundingRect().top() for cell in cells)
    row_marks = {item.text() for item in items if item.sceneBoundingRect().right() <= left + 0.5}
    col_marks = {item.text() for item in items if item.sceneBoundingRect().bottom() <= top + 0.5}
    assert row_marks == {str(r) for r in range(rows)}
    assert col_marks == {str(c) for c in range(cols)}


@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5])
@pytest.mark.parametrize("size", [(150, 100), (200, 120), (420, 160)])
def test_a_small_heat_map_writes_its_values_when_the_cells_hold_them_and_every_index(qtbot, scale, size):
    from PySide6.QtGui import QFontInfo, QFontMetricsF

    from tensorlab.ui.widgets.text_zoom import MIN_PX

    plot = ArrayPlot()
    qtbot.addWidget(plot)
    plot.resize(*size)
    plot.show()
    qtbot.waitExposed(plot)
    plot.set_text_scale(scale)
    grid = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]
    texts = [f"{v:.1f}" for row in grid for v in row]
    plot.set_array("image", grid, texts)
    items = [item for item in plot.scene().items() if hasattr(item, "text")]
    written = [item.text() for item in items]
    # Every row and column index, whatever the size and the zoom (the review lost row 1 after Ctrl+=).
    assert written.count("0") == written.count("1") == written.count("2") == 2, written
    # The values, at no less than the readable size, whenever a cell holds one at that size.
    # (Cells are square, or as wide and tall as the plot gives them when a square is too small for a number.)
    cell = min(min(rect.rect().width(), rect.rect().height()) for rect in plot.scene().items()
               if hasattr(rect, "rect") and rect.rect().width() > 0)
    readable = QFontMetricsF(plot._font(MIN_PX / scale, mono=True))
    if readable.horizontalAdvance("5.0") + 4 <= cell and readable.height() + 2 <= cell:
        assert plot.labels_shown and set(texts) <= set(written), (cell, written)
        assert min(QFontInfo(item.font()).pixelSize() for item in items if item.text() in texts) >= MIN_PX


def test_the_expand_lessons_heat_map_writes_values_and_indices_at_1024x768_korean_and_zoomed(qtbot):
    from tensorlab.ui.window.offscreen import isolated_window
    from tests.ui.support import go

    with isolated_window(lesson="expand-is-not-repeat", size=(1024, 768), language="ko") as window:
        qtbot.addWidget(window)
        for zoomed in (False, True):
            if zoomed:
                window.zoom.zoom_in()     # Ctrl+=
            go(window, qtbot, 2)
            qtbot.wait(20)
            plot = window.values_view.values_plot.plot
            assert plot.mode == "image" and plot.labels_shown, (zoomed, plot.viewport().size())
            written = [item.text() for item in plot.scene().items() if hasattr(item, "text")]
            assert written.count("0") == written.count("1") == written.count("2") == 2, (zoomed, written)


def test_a_heat_map_too_big_for_its_numbers_is_one_picture_with_each_cell_in_its_colour(qtbot):
    """32x32 weights (a training step's Linear): one pixmap, not a thousand items; each cell's centre has the
    viridis colour of its value, a NaN the low end, and the indices still stand beside the rows and columns."""
    from PySide6.QtWidgets import QGraphicsPixmapItem, QGraphicsRectItem, QGraphicsSimpleTextItem

    from tensorlab.ui.widgets.array_plot import viridis

    shown = ArrayPlot()
    qtbot.addWidget(shown)
    shown.resize(700, 600)
    shown.show()
    qtbot.waitExposed(shown)
    rows = cols = 32
    grid = [[float(r * cols + c) for c in range(cols)] for r in range(rows)]
    grid[5][7] = float("nan")
    shown.set_array("image", grid, [f"{v}" for row in grid for v in row])
    items = shown.scene().items()
    assert not shown.labels_shown
    assert not any(isinstance(item, QGraphicsRectItem) for item in items)
    pictures = [item for item in items if isinstance(item, QGraphicsPixmapItem)]
    assert len(pictures) == 1
    marks = {item.text() for item in items if isinstance(item, QGraphicsSimpleTextItem)}
    assert {"0", "31"} <= marks
    box = pictures[0].sceneBoundingRect()
    cell_w, cell_h = box.width() / cols, box.height() / rows
    image = shown.viewport().grab().toImage()
    ratio = image.devicePixelRatio()
    top_left = shown.mapFromScene(box.topLeft())
    high = float(rows * cols - 1)
    for r, c in [(0, 1), (5, 7), (16, 16), (31, 30), (31, 31)]:
        x = int((top_left.x() + (c + 0.5) * cell_w) * ratio)
        y = int((top_left.y() + (r + 0.5) * cell_h) * ratio)
        value = grid[r][c]
        expected = viridis(0.0 if value != value else value / high)
        assert QColor(image.pixel(x, y)).rgb() == expected.rgb(), (r, c)


@pytest.mark.parametrize("size", [(200, 75), (260, 80), (160, 90)])
def test_a_short_heat_map_writes_its_numbers_in_cells_wider_than_tall(qtbot, size):
    """Review r17c finding 21: t ([3, 2]) in a short Values panel after Ctrl+= was six ~18 px squares without a
    number; the cells take the panel's width, so each value is written at 11 px or more (contrast kept)."""
    from PySide6.QtGui import QFontInfo
    from PySide6.QtWidgets import QGraphicsRectItem

    from tensorlab.ui.widgets.palette import text_color_on

    plot = ArrayPlot()
    qtbot.addWidget(plot)
    plot.resize(*size)
    plot.show()
    qtbot.waitExposed(plot)
    plot.set_text_scale(1.25)
    grid = [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    texts = [f"{v:.1f}" for row in grid for v in row]
    plot.set_array("image", grid, texts)
    written = [item for item in plot.scene().items() if hasattr(item, "text") and item.text() in texts]
    assert plot.labels_shown and sorted(item.text() for item in written) == sorted(texts), size
    assert min(QFontInfo(item.font()).pixelSize() for item in written) >= 11
    cells = [item for item in plot.scene().items() if isinstance(item, QGraphicsRectItem)]
    for item in written:
        box = item.sceneBoundingRect()
        cell = next(c for c in cells if c.sceneBoundingRect().contains(box.center()))
        assert cell.sceneBoundingRect().contains(box)   # the number inside its own cell
        assert item.brush().color() == text_color_on(cell.brush().color())
    # Every row and column still numbered.
    marks = [item.text() for item in plot.scene().items() if hasattr(item, "text") and item.text() not in texts]
    assert marks.count("0") == marks.count("1") == 2 and marks.count("2") == 1, marks


def test_a_new_heat_map_of_the_same_shape_keeps_its_indices_and_paints_the_new_values(qtbot):
    """A weight matrix after an optimizer step: the same frame, so the row and column indices stay as they were
    and only the picture of the cells is painted again, in the new values' colours; a new size lays it out anew."""
    from PySide6.QtWidgets import QGraphicsPixmapItem, QGraphicsSimpleTextItem

    from tensorlab.ui.widgets.array_plot import viridis

    shown = ArrayPlot()
    qtbot.addWidget(shown)
    shown.resize(500, 420)
    shown.show()
    qtbot.waitExposed(shown)
    rows = cols = 32
    shown.set_array("image", [[float(r * cols + c) for c in range(cols)] for r in range(rows)], [])
    marks = [item for item in shown.scene().items() if isinstance(item, QGraphicsSimpleTextItem)]
    assert "0" in {item.text() for item in marks}

    def check(grid: list[list[float]]) -> None:
        items = shown.scene().items()
        pictures = [item for item in items if isinstance(item, QGraphicsPixmapItem)]
        assert len(pictures) == 1 and not shown.labels_shown
        box = pictures[0].sceneBoundingRect()
        image = shown.viewport().grab().toImage()
        ratio = image.devicePixelRatio()
        top_left = shown.mapFromScene(box.topLeft())
        low, high = min(map(min, grid)), max(map(max, grid))
        for r, c in [(0, 0), (0, 31), (9, 20), (31, 0), (31, 31)]:
            x = int((top_left.x() + (c + 0.5) * box.width() / cols) * ratio)
            y = int((top_left.y() + (r + 0.5) * box.height() / rows) * ratio)
            assert QColor(image.pixel(x, y)).rgb() == viridis((grid[r][c] - low) / (high - low)).rgb(), (r, c)

    reversed_grid = [[float((rows - r) * cols - c) for c in range(cols)] for r in range(rows)]
    shown.set_array("image", reversed_grid, [])
    kept = [item for item in shown.scene().items() if isinstance(item, QGraphicsSimpleTextItem)]
    assert sorted(map(id, kept)) == sorted(map(id, marks))   # the same index items, not drawn again
    check(reversed_grid)
    shown.resize(640, 500)
    qtbot.waitUntil(lambda: shown.viewport().width() > 600)
    check(reversed_grid)
    square = [[float((r - 16) ** 2 + c) for c in range(cols)] for r in range(rows)]
    shown.set_array("image", square, [])
    check(square)

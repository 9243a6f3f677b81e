"""The lean style: Fusion's look and geometry, with scroll bars, tool bars and frames drawn flat."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QScrollBar,
    QStyle,
    QStyleFactory,
    QStyleOptionSlider,
    QWidget,
)

from tensorlab.ui.widgets.lean_style import LeanStyle, use_lean_style


def _scroll_bar(qtbot, style) -> tuple[QWidget, QScrollBar]:
    holder = QWidget()
    qtbot.addWidget(holder)
    holder.resize(60, 400)
    bar = QScrollBar(Qt.Orientation.Vertical, holder)
    bar.setStyle(style)
    bar.setRange(0, 1000)
    bar.setPageStep(250)
    bar.setValue(500)
    bar.setGeometry(10, 10, 16, 360)
    holder.show()
    qtbot.waitExposed(holder)
    return holder, bar


def test_the_windows_scroll_bars_tool_bar_and_docks_are_lean_and_the_rest_is_fusion(window):
    if QApplication.style().name().lower() != "fusion":
        return
    bars = window.findChildren(QScrollBar)
    assert bars and all(isinstance(bar.style(), LeanStyle) for bar in bars)
    assert all(isinstance(dock.style(), LeanStyle) for dock in window.findChildren(QDockWidget))
    assert isinstance(window.toolbar.style(), LeanStyle)
    assert not isinstance(window.table.style(), LeanStyle)     # cells are drawn by Fusion itself
    use_lean_style(window)                                      # a second time changes nothing
    assert len(window.findChildren(LeanStyle)) == 1


def test_a_scroll_bar_draws_its_slider_where_fusion_puts_it_and_pages_like_fusion(qtbot):
    lean, fusion = LeanStyle(), QStyleFactory.create("fusion")
    _holder, bar = _scroll_bar(qtbot, lean)
    option = QStyleOptionSlider()
    bar.initStyleOption(option)
    slider = lean.subControlRect(QStyle.ComplexControl.CC_ScrollBar, option, QStyle.SubControl.SC_ScrollBarSlider, bar)
    assert slider == fusion.subControlRect(QStyle.ComplexControl.CC_ScrollBar, option,
                                           QStyle.SubControl.SC_ScrollBarSlider, bar)
    image: QImage = bar.grab().toImage()
    inside = QColor(image.pixel(slider.center()))
    groove = QColor(image.pixel(QPoint(slider.center().x(), slider.top() - 20)))
    assert inside != groove                       # the slider shows on its groove
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=QPoint(8, slider.bottom() + 30))
    assert bar.value() == 750                     # a click below the slider pages down, as in Fusion

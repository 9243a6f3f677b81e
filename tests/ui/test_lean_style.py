"""The lean style: Fusion's look and geometry, with scroll bars, tool bars and frames drawn flat."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QScrollBar, QStyle, QStyleFactory, QStyleOptionSlider, QWidget

from tensorlab.ui.lean_style import LeanStyle, install_lean_style


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


def test_the_window_uses_the_lean_style_where_qt_chose_fusion(window):
    style = QApplication.style()
    assert isinstance(style, LeanStyle) or style.name().lower() != "fusion"
    install_lean_style(QApplication.instance())    # a second install changes nothing
    assert QApplication.style() is style


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

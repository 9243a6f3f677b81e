"""Fusion, with the few elements it paints slowly drawn flat: every step repaints them.

Qt's Fusion style (the style on Linux and offscreen) paints a scroll bar in
~0.8-1.6 ms, a tool bar in ~1.3 ms and each panel frame in ~0.1 ms, with gradients
and non-cosmetic pens; a step that changes a panel's contents repaints its scroll
bar, and a whole-window repaint drew ~8 ms of which ~6 ms were these. This proxy
keeps Fusion's geometry, metrics and everything else, and draws those elements
with plain fills in the palette's colours (~0.02 ms each), so they look the same
in every colour scheme. It is given to those widgets only (:func:`use_lean_style`):
the rest of the window keeps Fusion itself, drawn without a call into Python.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QProxyStyle,
    QScrollBar,
    QStyle,
    QStyleOption,
    QStyleOptionComplex,
    QStyleOptionDockWidget,
    QStyleOptionSlider,
    QToolBar,
    QWidget,
)

__all__ = ["LeanStyle", "use_lean_style"]

_SC = QStyle.SubControl
_ARROWS = _SC.SC_ScrollBarAddLine | _SC.SC_ScrollBarSubLine


def _outline(palette: QPalette) -> QColor:
    """Fusion's own outline colour (the window colour, darker)."""
    return palette.color(QPalette.ColorRole.Window).darker(140)


def _stay_opaque(widget: QWidget | None, ground: QColor) -> None:
    """A widget painted as opaque (:func:`use_lean_style`) whose ground is no longer opaque (a palette with a
    translucent window colour since) is painted over its parent again, from its next paint on."""
    if ground.alpha() < 255 and widget is not None and widget.testAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent):
        widget.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        widget.update()


class LeanStyle(QProxyStyle):
    """Fusion with flat scroll bars, tool bars and frames (see the module's docstring)."""

    def __init__(self, base: str = "fusion") -> None:
        super().__init__(base)
        self._title_rects: dict[tuple, QRect] = {}

    def drawComplexControl(self, control: QStyle.ComplexControl, option: QStyleOptionComplex,  # noqa: N802
                           painter: QPainter, widget: QWidget | None = None) -> None:
        if control == QStyle.ComplexControl.CC_ScrollBar and isinstance(option, QStyleOptionSlider):
            self._scroll_bar(option, painter, widget)
            return
        super().drawComplexControl(control, option, painter, widget)

    def drawControl(self, element: QStyle.ControlElement, option: QStyleOption,  # noqa: N802 - Qt's name
                    painter: QPainter, widget: QWidget | None = None) -> None:
        if element == QStyle.ControlElement.CE_ToolBar:
            rect = option.rect
            ground = option.palette.color(QPalette.ColorRole.Window)
            _stay_opaque(widget, ground)
            painter.fillRect(rect, ground)
            painter.fillRect(QRect(rect.left(), rect.bottom(), rect.width(), 1), _outline(option.palette).lighter(125))
            return
        if element == QStyle.ControlElement.CE_DockWidgetTitle and isinstance(option, QStyleOptionDockWidget) \
                and not option.verticalTitleBar:
            # Where the title's text goes costs Fusion ~0.1 ms (it builds the title bar's button icons to
            # measure them); it depends only on the title bar's size, buttons and font, so it is kept.
            rect = self._title_rect(option, widget)
            title = option.fontMetrics.elidedText(option.title, Qt.TextElideMode.ElideRight, rect.width())
            self.drawItemText(painter, rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
                                                 | Qt.TextFlag.TextHideMnemonic), option.palette,
                              bool(option.state & QStyle.StateFlag.State_Enabled), title,
                              QPalette.ColorRole.WindowText)
            return
        super().drawControl(element, option, painter, widget)

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption,  # noqa: N802 - Qt's name
                      painter: QPainter, widget: QWidget | None = None) -> None:
        if element == QStyle.PrimitiveElement.PE_Frame and not (widget is not None
                                                                 and widget.inherits("QComboBoxPrivateContainer")):
            self._frame(option.rect, _outline(option.palette).lighter(108), painter)
            return
        super().drawPrimitive(element, option, painter, widget)

    def _title_rect(self, option: QStyleOptionDockWidget, widget: QWidget | None) -> QRect:
        key = (option.rect.getRect(), option.closable, option.floatable, option.direction,
               option.fontMetrics.height(), option.fontMetrics.averageCharWidth())
        rect = self._title_rects.get(key)
        if rect is None:
            if len(self._title_rects) > 256:
                self._title_rects.clear()
            # PySide6's stubs want a widget here; Qt (and PySide6) take None.
            rect = self._title_rects[key] = self.subElementRect(QStyle.SubElement.SE_DockWidgetTitleBarText,
                                                                option, widget)  # type: ignore[arg-type]
        return rect

    @staticmethod
    def _frame(rect: QRect, color: QColor, painter: QPainter) -> None:
        """A one-pixel rectangle inside ``rect``, as four fills (no pen, no stroker)."""
        left, top, width, height = rect.left(), rect.top(), rect.width(), rect.height()
        painter.fillRect(QRect(left, top, width, 1), color)
        painter.fillRect(QRect(left, top + height - 1, width, 1), color)
        painter.fillRect(QRect(left, top, 1, height), color)
        painter.fillRect(QRect(left + width - 1, top, 1, height), color)

    def _scroll_bar(self, option: QStyleOptionSlider, painter: QPainter, widget: QWidget | None) -> None:
        palette = option.palette
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        ground = palette.color(QPalette.ColorRole.Window).darker(104)
        _stay_opaque(widget, ground)
        painter.fillRect(option.rect, ground)
        horizontal = option.orientation == Qt.Orientation.Horizontal
        edge = QRect(option.rect.left(), option.rect.top(), option.rect.width(), 1) if horizontal else \
            QRect(option.rect.left(), option.rect.top(), 1, option.rect.height())
        painter.fillRect(edge, _outline(palette).lighter(120))
        if option.subControls & _SC.SC_ScrollBarSlider and option.maximum > option.minimum:
            # PySide6's stubs want a widget here; Qt (and PySide6) take None.
            slider = QRectF(self.subControlRect(QStyle.ComplexControl.CC_ScrollBar, option,
                                                _SC.SC_ScrollBarSlider, widget)  # type: ignore[arg-type]
                            ).adjusted(2, 2, -2, -2)
            active = bool(option.activeSubControls & _SC.SC_ScrollBarSlider) and bool(
                option.state & (QStyle.StateFlag.State_Sunken | QStyle.StateFlag.State_MouseOver))
            color = palette.color(QPalette.ColorRole.Dark if active else QPalette.ColorRole.Mid)
            if not enabled:
                color = palette.color(QPalette.ColorRole.Midlight)
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            radius = min(slider.width(), slider.height()) / 2
            painter.drawRoundedRect(slider, radius, radius)
            painter.restore()
        if option.subControls & _ARROWS:
            # Fusion's arrow buttons are cheap; only its groove and slider are not.
            arrows = QStyleOptionSlider(option)
            arrows.subControls = option.subControls & _ARROWS
            super().drawComplexControl(QStyle.ComplexControl.CC_ScrollBar, arrows, painter, widget)


def use_lean_style(root: QWidget) -> None:
    """Draw the scroll bars, tool bars and docks in ``root`` (and ``root`` itself) with :class:`LeanStyle`.

    Only those: every other widget keeps the application's Fusion, drawn in C++ (a
    Python proxy for the whole application costs microseconds on each of the
    hundreds of parts a step repaints). One style per window, deleted with it.
    Nothing changes where the application's style is not Fusion.
    """
    if QApplication.style().name().lower() != "fusion":
        return
    window = root.window()
    style = window.findChild(LeanStyle, _NAME)
    if style is None:
        style = LeanStyle()
        style.setObjectName(_NAME)
        style.setParent(window)
    for widget in [root, *root.findChildren(QWidget)]:
        if isinstance(widget, (QScrollBar, QToolBar, QDockWidget)) and widget.style() is not style:
            widget.setStyle(style)
        if isinstance(widget, (QScrollBar, QToolBar)) and widget.style() is style \
                and widget.palette().color(QPalette.ColorRole.Window).alpha() == 255:
            # This style fills a scroll bar's and a tool bar's whole rectangle with an opaque colour first: Qt
            # need not paint what lies under it (the dock's title and frame, the window's background), which
            # it did at every repaint of a scroll bar that a step moved, a dock's worth of paint each time.
            widget.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)


_NAME = "tensorlabLeanStyle"

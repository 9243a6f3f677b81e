"""What the drawn panels share: a scene, a text scale, text items in pixel sizes (never below 11 px)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.text_zoom import mono_font, pixel_font, px

__all__ = ["SceneView", "TextBatch", "font_metrics", "text_width"]


class TextBatch(QGraphicsItem):
    """Many short texts painted by one item (a strip's values and indices), cached as pixels.

    A text item each costs a layout, an index entry and a paint of its own; a strip
    draws dozens of numbers, and a step draws a strip again.
    """

    def __init__(self, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self.entries: list[tuple[QRectF, str, QFont, QColor, float]] = []   # box, text, font, colour, ascent
        self._bounds = QRectF()
        self.setZValue(1)   # over the cells and bands they label
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def add(self, text: str, x: float, y: float, font: QFont, color: QColor,
            center: QPointF | None = None) -> QRectF:
        """``text`` with its top-left at (x, y), or centred on ``center``; returns its box."""
        self.prepareGeometryChange()
        return self._add(text, x, y, font, color, center)

    def fill(self, texts: Iterable[tuple[str, float, float, QFont, QColor, QPointF | None]]) -> None:
        """The batch's texts replaced by ``texts`` (each as :meth:`add` takes it), with one geometry change."""
        self.clear()   # (tells the scene the geometry changes: it reads the new bounds when it next processes)
        # As _add, each text, but the bounds taken once from plain numbers: a step refills a strip's row of
        # values (dozens of texts), and a QRectF united per text cost more than the texts themselves.
        entries = self.entries
        fonts: dict[int, tuple[QFont, dict[str, float], float, float]] = {}
        left = top = right = bottom = 0.0
        for text, x, y, font, color, center in texts:
            known = fonts.get(id(font))
            if known is None or known[0] is not font:
                _, metrics, widths = _metrics_entry(font)
                known = fonts[id(font)] = (font, widths, metrics.height(), metrics.ascent())
            width = known[1].get(text)
            if width is None:
                width = text_width(text, font)
            height = known[2]
            if center is not None:
                x, y = center.x() - width / 2, center.y() - height / 2
            entries.append((QRectF(x, y, width, height), text, font, color, known[3]))
            if len(entries) == 1:
                left, top, right, bottom = x, y, x + width, y + height
            else:
                left, top = min(left, x), min(top, y)
                right, bottom = max(right, x + width), max(bottom, y + height)
        if entries:
            # (What _add's united boxes come to: QRectF.united of a null rect is the other, as here.)
            self._bounds = QRectF(left - 1, top - 1, right - left + 2, bottom - top + 2)

    def _add(self, text: str, x: float, y: float, font: QFont, color: QColor, center: QPointF | None) -> QRectF:
        _, metrics, _ = _metrics_entry(font)
        width, height = text_width(text, font), metrics.height()
        if center is not None:
            x, y = center.x() - width / 2, center.y() - height / 2
        box = QRectF(x, y, width, height)
        self.entries.append((box, text, font, color, metrics.ascent()))
        self._bounds = self._bounds.united(box.adjusted(-1, -1, 1, 1))
        return box

    def clear(self) -> None:
        """No texts (before the same batch is filled again: a step's new values in a strip kept on the map)."""
        self.prepareGeometryChange()
        self.entries = []
        self._bounds = QRectF()
        self.update()   # the cached pixels are of the old texts

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._bounds

    def paint(self, painter: QPainter, option: object, widget: object = None) -> None:
        font = None
        for box, text, entry_font, color, ascent in self.entries:
            if entry_font is not font:
                font = entry_font
                painter.setFont(font)
            painter.setPen(color)
            painter.drawText(QPointF(box.left(), box.top() + ascent), text)


_METRICS: dict[int, tuple[QFont, QFontMetricsF, dict[str, float]]] = {}
_WIDTHS_KEPT = 8192   # widths kept per font (the names and labels of a map; cleared when over)


def _metrics_entry(font: QFont) -> tuple[QFont, QFontMetricsF, dict[str, float]]:
    # By object, not by key: building a font's key string costs more than the lookup saves. The font is
    # held, so that its id stays its own.
    entry = _METRICS.get(id(font))
    if entry is None or entry[0] is not font:
        if len(_METRICS) > 256:
            _METRICS.clear()
        entry = _METRICS[id(font)] = (font, QFontMetricsF(font), {})
    return entry


def font_metrics(font: QFont) -> QFontMetricsF:
    """The metrics of ``font``, made once per font object (a view's own fonts, kept by :meth:`SceneView._font`)."""
    return _metrics_entry(font)[1]


def text_width(text: str, font: QFont) -> float:
    """``text``'s advance in ``font``, measured once per font and text: a map fitting its scale measures every
    name and label several times a step, and each measure is a call into Qt."""
    _, metrics, widths = _metrics_entry(font)
    width = widths.get(text)
    if width is None:
        if len(widths) > _WIDTHS_KEPT:
            widths.clear()
        width = widths[text] = metrics.horizontalAdvance(text)
    return width


class SceneView(QGraphicsView):
    """A QGraphicsView that redraws itself with :meth:`_draw` at a text scale."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        scene = QGraphicsScene(self)
        # No index: the graph's items are replaced at every step, and the map's (kept and updated in place)
        # move at every sideways scroll (the pinned name column). Measured on the map of the 60-step training
        # program (400 items): a full repaint of its viewport takes about 1 ms with or without a BSP index,
        # and a step no less CPU time with one.
        scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.setScene(scene)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.scale_factor = 1.0
        self._fonts: dict[tuple[object, ...], QFont] = {}
        # While set, new items are made children of this item (a group drawn and kept as one).
        self.parent_item: QGraphicsItem | None = None

    def _draw(self) -> None:
        raise NotImplementedError

    @contained
    def set_text_scale(self, factor: float) -> None:
        """Draw everything ``factor`` times its normal size (zoom, projector mode)."""
        if factor != self.scale_factor:
            self.scale_factor = factor
            self._draw()

    set_scale = set_text_scale

    def texts(self) -> list[str]:
        """Every text drawn (for tests and accessibility)."""
        return [text for text, _, _ in self.text_boxes()]

    def text_boxes(self, visible_only: bool = False) -> list[tuple[str, QFont, QRectF]]:
        """Every text drawn, with its font and where it is in the scene (text items and batches)."""
        boxes = []
        for item in self.scene().items():
            if visible_only and not item.isVisible():
                continue
            if isinstance(item, QGraphicsSimpleTextItem):
                boxes.append((item.text(), item.font(), item.sceneBoundingRect()))
            elif isinstance(item, TextBatch):
                transform = item.sceneTransform()
                boxes.extend((text, font, transform.mapRect(box)) for box, text, font, _, _ in item.entries)
        return boxes

    def smallest_text_px(self) -> float:
        """The smallest text on screen: font pixel size × the view's scale (inf when there is none)."""
        scale = self.transform().m22()
        sizes = [font.pixelSize() * scale for _, font, _ in self.text_boxes(visible_only=True)]
        return min(sizes, default=float("inf"))

    def _batch(self) -> TextBatch:
        """A text batch (a child of :attr:`parent_item` while one is set)."""
        batch = TextBatch(self.parent_item)
        if self.parent_item is None:
            self.scene().addItem(batch)
        return batch

    def _font(self, size: float, bold: bool = False, mono: bool = False) -> QFont:
        # Drawing asks for the same few fonts hundreds of times: each is made once per scale.
        key = (size, bold, mono, self.scale_factor)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = (mono_font(size, self.scale_factor, bold) if mono
                                       else pixel_font(size, self.scale_factor, bold))
        return font

    def _px(self, size: float) -> int:
        return px(size, self.scale_factor)

    def _rect(self, rect: QRectF, pen: QPen, brush: QBrush) -> QGraphicsRectItem:
        """A rectangle item (a child of :attr:`parent_item` while one is set)."""
        item = QGraphicsRectItem(rect, self.parent_item)
        item.setPen(pen)
        item.setBrush(brush)
        if self.parent_item is None:
            self.scene().addItem(item)
        return item

    def _text(self, text: str, x: float = 0, y: float = 0, size: float = 13, bold: bool = False,
              color: QColor | None = None, mono: bool = False) -> QGraphicsSimpleTextItem:
        # The font before the text: each of them lays the text out again.
        item = QGraphicsSimpleTextItem(self.parent_item)
        item.setFont(self._font(size, bold, mono))
        item.setText(text)
        # A text item lays its text out at every paint; cached as pixels, a repaint is a copy.
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        if self.parent_item is None:
            self.scene().addItem(item)
        item.setPos(x, y)
        if color is not None:
            item.setBrush(QBrush(color))
        return item

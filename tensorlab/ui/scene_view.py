"""What the drawn panels share: a scene, a text scale, text items in pixel sizes (never below 11 px)."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from tensorlab.ui.panel_guard import contained
from tensorlab.ui.text_zoom import mono_font, pixel_font, px

__all__ = ["SceneView"]


class SceneView(QGraphicsView):
    """A QGraphicsView that redraws itself with :meth:`_draw` at a text scale."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        scene = QGraphicsScene(self)
        # Items are replaced at every step and few are on screen: keeping a BSP index of them costs
        # more than it saves (Qt's advice for dynamic scenes).
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
        return [i.text() for i in self.scene().items() if isinstance(i, QGraphicsSimpleTextItem)]

    def smallest_text_px(self) -> float:
        """The smallest text on screen: font pixel size × the view's scale (inf when there is none)."""
        scale = self.transform().m22()
        sizes = [i.font().pixelSize() * scale * i.sceneTransform().m22()
                 for i in self.scene().items() if isinstance(i, QGraphicsSimpleTextItem) and i.isVisible()]
        return min(sizes, default=float("inf"))

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

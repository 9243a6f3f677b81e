"""What the two drawn panels share: a scene, a scale for presentation mode, and text items."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFont, QPainter
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsView, QWidget

__all__ = ["SceneView"]


class SceneView(QGraphicsView):
    """A QGraphicsView that redraws itself with :meth:`_draw` at a scale factor."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.scale_factor = 1.0

    def _draw(self) -> None:
        raise NotImplementedError

    def set_scale(self, factor: float) -> None:
        """Presentation mode draws everything larger."""
        self.scale_factor = factor
        self._draw()

    def texts(self) -> list[str]:
        """Every text drawn (for tests and accessibility)."""
        return [i.text() for i in self.scene().items() if isinstance(i, QGraphicsSimpleTextItem)]

    def _font(self, size: float, bold: bool = False, mono: bool = False) -> QFont:
        font = QFont("DejaVu Sans Mono") if mono else QFont(self.font())
        font.setPointSizeF(size * self.scale_factor)
        font.setBold(bold)
        return font

    def _text(self, text: str, x: float = 0, y: float = 0, size: float = 10, bold: bool = False,
              color: QColor | None = None, mono: bool = False) -> QGraphicsSimpleTextItem:
        item = self.scene().addSimpleText(text, self._font(size, bold, mono))
        item.setPos(x, y)
        if color is not None:
            item.setBrush(QBrush(color))
        return item

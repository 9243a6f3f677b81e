"""Helpers for the UI tests: open lessons, step, and measure what is on screen."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QComboBox,
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QGraphicsTextItem,
    QGraphicsView,
    QLabel,
    QLineEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from tensorlab.ui.widgets.scene_view import TextBatch
from tests.ui.conftest import idle

TEXT_WIDGETS = (QLabel, QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QTextEdit, QTabBar)


def open_lesson(window, qtbot, lesson_id: str) -> None:
    """Choose a lesson (or "scratchpad") in the picker, as a user does."""
    picker = window.lesson_picker
    picker.setCurrentIndex(picker.findData(lesson_id))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)


def go(window, qtbot, position: int) -> None:
    """Go to ``position`` and wait for the worker."""
    window.controller.go_to(position)
    idle(qtbot, window)


def run_line(window, qtbot, code: str) -> None:
    """Type ``code`` in the code line and run it."""
    window.builders.code_line.edit.setText(code)
    window.builders.code_line.request()
    idle(qtbot, window)


def shown(widget: QWidget) -> bool:
    """Visible on screen: shown, with a size, inside a visible window."""
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def _ignores_transform(item: QGraphicsItem) -> bool:
    while item is not None:
        if item.flags() & QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations:
            return True
        item = item.parentItem()
    return False


def text_sizes(window) -> list[tuple[float, str]]:
    """Every text on screen as (pixel size as shown, what it is): font size × the view's transform."""
    sizes = []
    for widget in window.findChildren(QWidget):
        if not shown(widget):
            continue
        if isinstance(widget, TEXT_WIDGETS):
            sizes.append((QFontInfo(widget.font()).pixelSize(), f"{type(widget).__name__} {widget.objectName()}"))
        if isinstance(widget, QGraphicsView) and widget.scene() is not None:
            view_scale = widget.transform().m22()
            for item in widget.scene().items():
                if not item.isVisible():
                    continue
                if isinstance(item, (QGraphicsSimpleTextItem, QGraphicsTextItem)):
                    scale = 1.0 if _ignores_transform(item) else view_scale * item.sceneTransform().m22()
                    text = item.text() if isinstance(item, QGraphicsSimpleTextItem) else item.toPlainText()
                    sizes.append((QFontInfo(item.font()).pixelSize() * scale, f"{widget.objectName()}: {text!r}"))
                if isinstance(item, TextBatch):
                    scale = view_scale * item.sceneTransform().m22()
                    sizes.extend((QFontInfo(font).pixelSize() * scale, f"{widget.objectName()}: {text!r}")
                                 for _, text, font, _, _ in item.entries)
                if isinstance(item, pg.AxisItem) and item.isVisible():
                    font = item.style.get("tickFont") or item.font()
                    sizes.append((QFontInfo(font).pixelSize(), f"{widget.objectName()} axis"))
    return sizes


def smallest_text(window) -> tuple[float, str]:
    """The smallest text on screen."""
    return min(text_sizes(window))


def inside(inner: QRect, outer: QRect) -> bool:
    """``inner`` lies within ``outer`` (both in one coordinate system)."""
    return outer.contains(inner.topLeft()) and outer.contains(inner.bottomRight())


def in_viewport(widget: QWidget, area: QAbstractScrollArea) -> bool:
    """``widget`` is wholly inside the visible part of scroll area ``area``."""
    top_left = widget.mapTo(area.viewport(), widget.rect().topLeft())
    return inside(QRect(top_left, widget.size()), area.viewport().rect().adjusted(0, 0, 1, 1))


def hovered_tip(view: QAbstractItemView, index) -> str:
    """The tooltip hovering the cell at ``index`` of ``view`` shows (a tooltip event, as the mouse resting
    there sends; "" when none is shown)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    QToolTip.hideText()
    center = view.visualRect(index).center()
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, center,
                                                       view.viewport().mapToGlobal(center)))
    return QToolTip.text() if QToolTip.isVisible() else ""


def key(qtbot, widget: QWidget, name: str) -> None:
    """Press a key by name ("Right", "Delete", ...) on ``widget``."""
    qtbot.keyClick(widget, getattr(Qt.Key, f"Key_{name}"))


def fresh_window(qtbot, settings, size, projector=False, language=None):
    """A new window on ``settings`` at ``size``, shown, in its default layout (projector mode if asked)."""
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.window.build import build_window

    window = build_window(settings) if language is None else build_window(settings, language=language)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.set_presentation(projector)
    window.apply_default_layout()
    QApplication.processEvents()
    return window


# A small training step, twice: a module with two parameterised layers, an optimizer with momentum.
TRAINING_PROGRAM = [
    "import torch.nn as nn",
    "import torch.optim as optim",
    "model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))",
    "opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)",
    "x = torch.randn(5, 4)",
] + ["opt.zero_grad()", "loss = model(x).pow(2).mean()", "loss.backward()", "opt.step()"] * 2

"""Guard against a Qt binding that corrupts reference counts (PySide6 6.12.0 on Python 3.11)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsRectItem, QLabel


def test_void_calls_keep_none_alive(qtbot):
    label = QLabel()
    qtbot.addWidget(label)
    item = QGraphicsRectItem(QRectF(0, 0, 1, 1))
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("x")
        item.setPos(1, 1)
    # A binding that drops a reference to None per call would lose ~4000 here and crash the app later.
    assert sys.getrefcount(None) - before > -100

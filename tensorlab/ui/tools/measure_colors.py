"""The colour of each measured method: the same in the Measure panel's plot, table and checkboxes."""

from __future__ import annotations

from PySide6.QtGui import QColor

from tensorlab.core.protocol.measure_results import METHODS
from tensorlab.ui.widgets.palette import tensor_color

__all__ = ["method_color"]


def method_color(method: str) -> QColor:
    """The colour of ``method``."""
    return tensor_color(METHODS.index(method) if method in METHODS else 0)

"""The status bar's memory gauge: what the session's names hold, of its budget."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.protocol.limits import format_size
from tensorlab.ui.widgets.i18n import tr

__all__ = ["MemoryLabel"]


class MemoryLabel(QLabel):
    """`memory 12 MB of 2.0 GB`, read from the last step (the worker counts it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("memoryLabel")
        # As wide as its longest text, fixed: a new figure never lays the status bar (and window) out again.
        self.setFixedWidth(self.fontMetrics().horizontalAdvance("memory 888.8 MB of 88.8 GB") + 24)
        self.limit: int | None = None
        self.held = 0

    def show_state(self, state: PlayerState, limit: int | None) -> None:
        """Show what the names hold after the last step of ``state``, against ``limit`` bytes."""
        self.limit = limit
        self.held = state.last.memory if state.last is not None else 0
        budget = _size(limit) if limit else tr("no limit")
        text = tr("memory {held} of {budget}").format(held=_size(self.held), budget=budget)
        tip = tr("What the session's names hold (storages, gradients, NumPy arrays), against the "
                 "memory budget set in Preferences or with --memory-limit")
        near = bool(limit) and limit is not None and self.held > 0.8 * limit
        style = "color: #c62828; font-weight: bold;" if near else ""
        # Each setter sends its change events even for the same value: set only what changed (every step comes).
        if text != self.text():
            self.setText(text)
        if text != self.accessibleName():
            self.setAccessibleName(text)
        if tip != self.toolTip():
            self.setToolTip(tip)
        if style != self.styleSheet():
            self.setStyleSheet(style)


def _size(size: int) -> str:
    # KB, MB and GB read the same in every language; a few bytes are said in the window's.
    return tr("{count} bytes").format(count=size) if size < 1024 else format_size(size)

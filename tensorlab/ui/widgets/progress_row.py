"""A progress bar with a Cancel button beside it, for work a panel waits on (a measured question)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts

__all__ = ["ProgressRow"]


class ProgressRow(QWidget):
    """Progress of work that runs elsewhere (the worker), and a Cancel button that asks it to stop."""

    cancelRequested = Signal()  # noqa: N815 - Qt's naming

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.i18n = Texts(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.bar = QProgressBar()
        self.bar.setObjectName(f"{name}Bar")
        self.bar.setTextVisible(True)
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName(f"{name}Cancel")
        self.i18n.bind(self.cancel_button.setText, QT_TR_NOOP("Cancel"))
        self.cancel_button.clicked.connect(self.cancelRequested)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.cancel_button)
        self.hide()

    def start(self, total: int) -> None:
        """Show the row at 0 of ``total``."""
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(0)
        self.cancel_button.setEnabled(True)
        self.show()

    def set_progress(self, done: int, total: int) -> None:
        """``done`` of ``total`` finished."""
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)

    def stop(self) -> None:
        """The work ended (done, cancelled or failed): hide the row."""
        self.hide()

"""Preferences: the session's memory budget (more settings can join it)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel, QWidget

from tensorlab.core.protocol.limits import format_size, physical_memory, session_memory_limit
from tensorlab.ui.widgets.i18n import tr
from tensorlab.ui.widgets.settings import Settings

__all__ = ["PreferencesDialog", "remembered_memory_limit"]

_GB = 1024**3


def remembered_memory_limit(settings: Settings) -> int:
    """The memory budget in bytes: as set in Preferences, else the default."""
    return settings.memory_limit or session_memory_limit()


class PreferencesDialog(QDialog):
    """Edits the settings TensorLab applies to the session."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preferencesDialog")
        self.setWindowTitle(tr("Preferences"))
        self.settings = settings
        layout = QFormLayout(self)
        self.memory = QDoubleSpinBox()
        self.memory.setObjectName("memoryLimit")
        self.memory.setAccessibleName(tr("Memory budget of the session"))
        total = physical_memory() or 16 * _GB
        self.memory.setRange(0.05, max(total / _GB, 0.1))
        self.memory.setDecimals(2)
        self.memory.setSingleStep(0.25)
        self.memory.setSuffix(" GB")
        self.memory.setValue(remembered_memory_limit(settings) / _GB)
        layout.addRow(tr("Memory budget of the session"), self.memory)
        hint = QLabel(tr("TensorLab refuses a step whose new tensors would take the memory its names hold past "
                         "this budget (default {default}: the smaller of 2 GB and a quarter of this machine's "
                         "memory). Changing it restarts the session where it stands.")
                      .format(default=format_size(session_memory_limit())))
        hint.setWordWrap(True)
        layout.addRow(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            lambda: self.memory.setValue(session_memory_limit() / _GB))
        layout.addRow(buttons)

    @property
    def memory_limit(self) -> int:
        """The budget chosen, in bytes."""
        return int(self.memory.value() * _GB)

    def accept(self) -> None:  # noqa: D102 - QDialog's
        self.settings.memory_limit = self.memory_limit
        super().accept()

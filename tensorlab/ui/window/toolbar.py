"""The toolbar: lesson picker, step controls, position, device, projector mode, language.

It fits its window: when the buttons with their texts do not fit (1024 px wide, or a
language with longer words), the step buttons show their icons only (their texts
stay in the tooltips and the Step menu), so nothing goes behind the » overflow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QComboBox, QLabel, QToolBar, QWidget

from tensorlab.ui.widgets.i18n import LANGUAGES, current_language

if TYPE_CHECKING:
    from tensorlab.ui.window.main_window import MainWindow

__all__ = ["MainToolBar", "build_toolbar"]


class MainToolBar(QToolBar):
    """A toolbar that drops button texts, then shortens the lesson picker, to fit its width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainToolBar")
        self.setMovable(False)
        self.setFloatable(False)
        self.compact = False
        self.pickers: list[QComboBox] = []       # long pickers shortened in compact mode
        self.optional: list[QWidget] = []        # labels hidden in compact mode

    def _apply(self, compact: bool, length: int = 22) -> None:
        self.compact = compact
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly if compact
                                else Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for picker in self.pickers:
            picker.setMinimumContentsLength(12 if compact else length)
        for widget in self.optional:
            widget.setVisible(not compact)

    def needed_width(self) -> int:
        """The width every item asks for now (with the toolbar's margins and spacing)."""
        layout = self.layout()
        assert layout is not None  # a toolbar lays out its items
        total = 2 * layout.contentsMargins().left() + 24
        for action in self.actions():
            if not action.isVisible():
                continue
            widget = self.widgetForAction(action)
            if widget is not None and not widget.isHidden():
                total += widget.sizeHint().width() + layout.spacing()
            elif action.isSeparator():
                total += 8
        return total

    def fit(self) -> None:
        """Full texts when they fit the window's width, icons only when they do not."""
        parent = self.parentWidget()
        available = parent.width() if parent is not None else self.width()
        for length in (40, 30, 22):
            # The lesson picker as wide as a long title where there is room.
            self._apply(False, length)
            if self.needed_width() <= available:
                return
        self._apply(True)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()


def build_toolbar(window: MainWindow) -> MainToolBar:
    """The main toolbar of ``window``; sets ``window.lesson_picker``, ``position_label`` and the pickers."""
    bar = MainToolBar(window)
    window.i18n.bind(bar.setWindowTitle, "Lesson")
    window.addToolBar(bar)
    window.lesson_picker = QComboBox()
    window.lesson_picker.setObjectName("lessonPicker")
    window.lesson_picker.setAccessibleName("Lesson")
    window.lesson_picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    window.lesson_picker.setMinimumContentsLength(22)
    window.lesson_picker.activated.connect(window._lesson_chosen)
    bar.addWidget(window.lesson_picker)
    bar.pickers.append(window.lesson_picker)
    bar.addSeparator()
    for action in (window.reset_action, window.step_back_action, window.step_forward_action,
                   window.run_to_end_action):
        bar.addAction(action)
        button = bar.widgetForAction(action)
        button.setObjectName(action.objectName().replace("Action", "Button"))
        button.setAccessibleName(action.toolTip())
    window.position_label = QLabel("0 / 0")
    window.position_label.setObjectName("positionLabel")
    window.position_label.setAccessibleName("Position in the lesson")
    # A fixed size: a new position never makes the toolbar (and the window) lay itself out again.
    window.position_label.setFixedSize(window.fontMetrics().horizontalAdvance("888 / 888") + 8,
                                       window.fontMetrics().height() + 6)
    window.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    bar.addWidget(window.position_label)
    bar.addSeparator()
    device_label = QLabel()
    window.i18n.bind(device_label.setText, " device ")
    bar.addWidget(device_label)
    bar.optional.append(device_label)
    window.device_picker = QComboBox()
    window.device_picker.setObjectName("devicePicker")
    window.device_picker.setAccessibleName("Device")
    window.device_picker.addItems(list(window.controller.state.devices))
    window.device_picker.setCurrentText(window.controller.state.device)
    window.device_picker.activated.connect(
        lambda _: window.controller.set_device(window.device_picker.currentText()))
    bar.addWidget(window.device_picker)
    bar.addSeparator()
    bar.addAction(window.presentation_action)
    button = bar.widgetForAction(window.presentation_action)
    button.setObjectName("presentationButton")
    window.language_picker = QComboBox()
    window.language_picker.setObjectName("languagePicker")
    window.i18n.bind(window.language_picker.setAccessibleName, "Language")
    for code, name in LANGUAGES.items():
        window.language_picker.addItem(name, code)
    window.language_picker.setCurrentIndex(window.language_picker.findData(current_language()))
    window.language_picker.activated.connect(
        lambda index: window.set_language(window.language_picker.itemData(index)))
    bar.addWidget(window.language_picker)
    return bar

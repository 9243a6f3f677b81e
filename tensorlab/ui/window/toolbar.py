"""The toolbar: lesson picker, step controls, position, device, projector mode, language.

It fits its window: when the buttons with their texts do not fit (1024 px wide, or a
language with longer words), the step buttons show their icons only (their texts
stay in the tooltips and the Step menu), so nothing goes behind the » overflow.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QComboBox, QLabel, QMainWindow, QToolBar, QWidget

from tensorlab.ui.widgets.i18n import LANGUAGES, QT_TR_NOOP, Texts, current_language
from tensorlab.ui.window.actions import WindowActions

__all__ = ["MainToolBar", "build_toolbar", "build_code_bar"]


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
        self.lesson_picker = QComboBox()
        self.position_label = QLabel("0 / 0")
        self.device_picker = QComboBox()
        self.language_picker = QComboBox()

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


def build_toolbar(window: QMainWindow, i18n: Texts, actions: WindowActions, devices: Sequence[str],
                  device: str) -> MainToolBar:
    """The main toolbar of ``window``: its pickers (``bar.lesson_picker`` ...) are the window's to connect."""
    bar = MainToolBar(window)
    i18n.bind(bar.setWindowTitle, QT_TR_NOOP("Lesson"))
    window.addToolBar(bar)
    picker = bar.lesson_picker
    picker.setObjectName("lessonPicker")
    i18n.bind(picker.setAccessibleName, QT_TR_NOOP("Lesson"))
    picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    picker.setMinimumContentsLength(22)
    bar.addWidget(picker)
    bar.pickers.append(picker)
    bar.addSeparator()
    for action in (actions.reset, actions.step_back, actions.step_forward, actions.run_to_end):
        bar.addAction(action)
        button = bar.widgetForAction(action)
        button.setObjectName(action.objectName().replace("Action", "Button"))
        button.setAccessibleName(action.toolTip())
    label = bar.position_label
    label.setObjectName("positionLabel")
    i18n.bind(label.setAccessibleName, QT_TR_NOOP("Position in the lesson"))
    # A fixed size: a new position never makes the toolbar (and the window) lay itself out again.
    label.setFixedSize(window.fontMetrics().horizontalAdvance("888 / 888") + 8, window.fontMetrics().height() + 6)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    bar.addWidget(label)
    bar.addSeparator()
    device_label = QLabel()
    i18n.bind(device_label.setText, QT_TR_NOOP(" device "))
    bar.addWidget(device_label)
    bar.optional.append(device_label)
    bar.device_picker.setObjectName("devicePicker")
    i18n.bind(bar.device_picker.setAccessibleName, QT_TR_NOOP("Device"))
    bar.device_picker.addItems(list(devices))
    bar.device_picker.setCurrentText(device)
    bar.addWidget(bar.device_picker)
    bar.addSeparator()
    bar.addAction(actions.presentation)
    button = bar.widgetForAction(actions.presentation)
    button.setObjectName("presentationButton")
    bar.language_picker.setObjectName("languagePicker")
    i18n.bind(bar.language_picker.setAccessibleName, QT_TR_NOOP("Language"))
    for code, name in LANGUAGES.items():
        bar.language_picker.addItem(name, code)
    bar.language_picker.setCurrentIndex(bar.language_picker.findData(current_language()))
    bar.addWidget(bar.language_picker)
    return bar


def build_code_bar(window: QMainWindow, i18n: Texts, line: QWidget) -> QToolBar:
    """The code line's bar, across the whole width of ``window`` under its docks, in both modes."""
    bar = QToolBar(window)
    bar.setObjectName("codeLineToolBar")
    i18n.bind(bar.setWindowTitle, QT_TR_NOOP("Code line"))
    bar.setMovable(False)
    bar.setFloatable(False)
    bar.toggleViewAction().setVisible(False)   # always there: Ctrl+L must find it
    window.addToolBar(Qt.ToolBarArea.BottomToolBarArea, bar)
    bar.addWidget(line)
    return bar

"""What every builder shares: a form, a "will run:" preview, a reason when refused, a button."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QLabel, QPushButton, QVBoxLayout, QWidget

from tensorlab.core.builders import BuilderError
from tensorlab.core.messages_ko import localize_message
from tensorlab.ui.html import escape
from tensorlab.ui.i18n import Texts, current_language, tr

__all__ = ["BuilderBox", "fill_names", "next_free_name"]

_CANDIDATES = ("x", "y", "z", "w", "a", "b", "c", "d", "e", "f", "g", "h", "p", "q", "r", "s", "t", "u", "v")


def next_free_name(taken: set[str] | tuple[str, ...], preferred: str = "x") -> str:
    """A short name not in ``taken``."""
    for name in (preferred, *_CANDIDATES):
        if name not in taken:
            return name
    number = 1
    while f"t{number}" in taken:
        number += 1
    return f"t{number}"


def fill_names(combo: QComboBox, names: tuple[str, ...], prefer_last: bool = False) -> None:
    """Replace a combo's names, keeping the current one when it still exists."""
    current = combo.currentText()
    combo.blockSignals(True)
    combo.clear()
    combo.addItems(list(names))
    if current in names:
        combo.setCurrentText(current)
    elif names:
        combo.setCurrentIndex(len(names) - 1 if prefer_last else 0)
    combo.blockSignals(False)


class BuilderBox(QGroupBox):
    """A builder: subclasses add fields to ``form`` and implement :meth:`code`."""

    statementRequested = Signal(str)

    def __init__(self, title: str, button_text: str, button_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.i18n = Texts(self)
        self.i18n.bind(self.setTitle, title)
        self.i18n.on_change(self.refresh)
        outer = QVBoxLayout(self)
        self.form = QFormLayout()
        outer.addLayout(self.form)
        self.preview = QLabel()
        self.preview.setObjectName(button_name.replace("Button", "Preview"))
        self.preview.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName(button_name.replace("Button", "Problem"))
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c62828;")
        self.problem.hide()
        self.button = QPushButton()
        self.button.setObjectName(button_name)
        self.i18n.bind(self.button.setText, button_text)
        self.i18n.bind(self.button.setAccessibleName, button_text)
        self.button.clicked.connect(self.request)
        self.needs_tensors = False
        self.tensor_names: tuple[str, ...] = ()
        self.enabled = True
        outer.addWidget(self.preview)
        outer.addWidget(self.problem)
        outer.addWidget(self.button)

    def add_row(self, label: str, widget: QWidget, accessible: str | None = None) -> None:
        """A form row whose label (and the field's accessible name) follow the language."""
        caption = QLabel()
        self.i18n.bind(caption.setText, label)
        self.i18n.bind(widget.setAccessibleName, accessible or label)
        self.form.addRow(caption, widget)

    def code(self) -> str:
        """The statement the current choices make (BuilderError if they make none)."""
        raise NotImplementedError

    def refresh(self, *_: object) -> None:
        """Update the preview from the current choices."""
        if self.needs_tensors and not self.tensor_names:
            # Nothing to work on yet: a hint, not an error.
            self.show_problem("")
            self.preview.setText(f"<span style='color:#757575'>{escape(tr('Create a tensor first.'))}</span>")
            self.button.setEnabled(False)
            return
        self.button.setEnabled(self.enabled)
        try:
            code = self.code()
        except BuilderError as exc:
            self.preview.setText("")
            self.show_problem(str(exc))
            return
        self.show_problem("")
        self.preview.setText(escape(tr("will run:")) + " <code>" + escape(code).replace("\n", "<br>")
                             .replace("    ", "&nbsp;&nbsp;&nbsp;&nbsp;") + "</code>")

    def show_problem(self, message: str) -> None:
        """Show why the statement was refused (empty: hide)."""
        self.problem.setText(escape(localize_message(message, current_language())))
        self.problem.setVisible(bool(message))

    def request(self) -> None:
        """Emit the statement to run, or show why there is none."""
        try:
            code = self.code()
        except BuilderError as exc:
            self.show_problem(str(exc))
            return
        self.statementRequested.emit(code)

    def set_names(self, tensors: tuple[str, ...], all_names: tuple[str, ...]) -> None:
        """The names now bound; subclasses refresh their pickers."""
        self.tensor_names = tensors
        self.refresh()

    def set_enabled(self, enabled: bool) -> None:
        """Enable or disable the button (while a step runs)."""
        self.enabled = enabled
        self.button.setEnabled(enabled and not (self.needs_tensors and not self.tensor_names))

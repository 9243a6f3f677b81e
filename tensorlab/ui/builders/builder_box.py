"""What every builder shares: a form, a "will run:" preview, a reason when refused, a button.

The form reflows to the dock's width (labels go above their fields when it is
narrow), so nothing is ever cut or pushed sideways; Enter in any text field runs
the builder.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tensorlab.core.lang.builder_code import BuilderError
from tensorlab.ui.widgets.html import escape
from tensorlab.ui.widgets.i18n import Marked, Texts, current_language, tr

__all__ = ["BuilderBox", "WrappingCheckBox", "fill_names", "remember_choice", "next_free_name", "narrow_combo",
           "heading", "breakable"]

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


_CHOSEN = "chosenName"   # a picker's property: the name the user chose in it (kept while it is bound)


def fill_names(combo: QComboBox, names: tuple[str, ...], prefer_last: bool = False,
               newest: str | None = None, avoid: str | None = None) -> None:
    """Replace a combo's names, keeping the one the user chose in it while it is bound; else ``newest``
    (a tensor the last step made), else the current one, else the last (``prefer_last``) or first name
    that is not ``avoid``."""
    current = combo.currentText()
    chosen = combo.property(_CHOSEN)
    combo.blockSignals(True)
    if tuple(combo.itemText(i) for i in range(combo.count())) != tuple(names):
        # Refilled only when the names changed: a refill relays out (and repaints) the whole panel.
        combo.clear()
        combo.addItems(list(names))
    if isinstance(chosen, str) and chosen in names:
        combo.setCurrentText(chosen)   # the Copy builder's source jumped to the newest tensor after a step
    elif newest is not None and newest in names:
        combo.setCurrentText(newest)
    elif current in names and current != avoid:
        combo.setCurrentText(current)
    elif names:
        # A default the panel picks itself is a plain name when there is one (`x`, not `net[2].bias`): a row
        # (contract 3) is offered, and builds, but is the user's choice.
        plain = [n for n in names if n.isidentifier()] or list(names)
        others = [n for n in plain if n != avoid] or plain
        combo.setCurrentText(others[-1] if prefer_last else others[0])
    combo.blockSignals(False)


def remember_choice(combo: QComboBox) -> None:
    """What the user picks in ``combo`` (not what :func:`fill_names` sets, with signals blocked) stays picked."""
    combo.currentTextChanged.connect(lambda text: combo.setProperty(_CHOSEN, text or None))


def narrow_combo(combo: QComboBox) -> QComboBox:
    """A combo that may get as narrow as a few characters (its popup still shows whole items)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(4)
    combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return combo


def heading(text: Marked, i18n: Texts) -> QLabel:
    """A bold section title that wraps to the panel's width."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    i18n.bind(lambda t: label.setText(f"<b>{escape(t)}</b>"), text)
    return label


def breakable(code: str) -> str:
    """HTML of ``code`` that may wrap after `(`, `,` and `=` too, and before the dot of a method (never
    inside a name, nor as `x.` / `clone()`), so it is never cut in a narrow panel."""
    text = escape(code).replace("\n", "<br>").replace("    ", "&nbsp;&nbsp;&nbsp;&nbsp;")
    for mark in ("(", ",", "="):
        text = text.replace(mark, mark + "\u200b")
    return re.sub(r"(?<=[\w)\]])\.(?=[A-Za-z_])", "\u200b.", text)


def code_choices(combo: QComboBox, choices: tuple[str, ...] | list[str], words: dict[str, Marked],
                 i18n: Texts) -> None:
    """Fill ``combo`` with ``choices`` (its item data, what the builder writes from): a choice that is code
    (`ones`, `.t()`) reads as itself, one that is a word (``words``: `values`, `slice`) in the window's
    language, again after each language change."""
    def item_text(index: int) -> Callable[[str], None]:
        return lambda text: combo.setItemText(index, text)

    for choice in choices:
        combo.addItem(choice, choice)
        if choice in words:
            i18n.bind(item_text(combo.count() - 1), words[choice])


class WrappingCheckBox(QWidget):
    """A check box whose text wraps (a long one like `inside torch.no_grad()` never cuts the dock)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.box = QCheckBox()
        self.label = QLabel(text)
        self.label.setWordWrap(True)
        self.label.setBuddy(self.box)
        self.label.mousePressEvent = lambda _event: self.box.toggle()  # type: ignore[method-assign]
        layout.addWidget(self.box)
        layout.addWidget(self.label, 1)
        self.toggled = self.box.toggled

    def isChecked(self) -> bool:  # noqa: N802 - QCheckBox's name
        """Whether it is checked."""
        return self.box.isChecked()

    def setChecked(self, checked: bool) -> None:  # noqa: N802 - QCheckBox's name
        """Check or uncheck it."""
        self.box.setChecked(checked)

    def setAccessibleName(self, name: str) -> None:  # noqa: N802 - Qt's name
        """The check box carries the accessible name."""
        super().setAccessibleName(name)
        self.box.setAccessibleName(name)


class BuilderBox(QGroupBox):
    """A builder: subclasses add fields to ``form`` and implement :meth:`code`."""

    statementRequested = Signal(str)

    def __init__(self, title: Marked, button_text: Marked, button_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.i18n = Texts(self)
        self.i18n.on_change(self.refresh)
        outer = QVBoxLayout(self)
        # A heading that wraps (a group box title would set the panel's minimum width).
        self.heading = heading(title, self.i18n)
        outer.addWidget(self.heading)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        outer.addLayout(self.form)
        self.preview = QLabel()
        self.preview.setObjectName(button_name.replace("Button", "Preview"))
        self.preview.setWordWrap(True)
        self.preview.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
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

    def add_row(self, label: Marked | None, widget: QWidget, accessible: Marked | None = None) -> None:
        """A form row whose label (none: the widget says what it is) and the field's accessible name follow the
        language."""
        caption = QLabel()
        if label is not None:
            self.i18n.bind(caption.setText, label)
        name = accessible or label
        if name is not None:
            self.i18n.bind(widget.setAccessibleName, name)
        if isinstance(widget, QComboBox):
            narrow_combo(widget)
            remember_choice(widget)
        if isinstance(widget, QLineEdit):
            widget.setMinimumWidth(40)
            widget.returnPressed.connect(self.request)
        self.form.addRow(caption, widget)

    def code(self) -> str:
        """The statement the current choices make (BuilderError if they make none)."""
        raise NotImplementedError

    def refresh(self, *_: object) -> None:
        """Update the preview from the current choices."""
        if self.needs_tensors and not self.tensor_names:
            # Nothing to work on yet: a hint, not an error.
            self.show_problem("")
            hint = escape(tr("Create a tensor first."))   # outside the f-string, where lupdate finds it
            _set_text(self.preview, f"<span style='color:#757575'>{hint}</span>")
            self.button.setEnabled(False)
            return
        self.button.setEnabled(self.enabled)
        try:
            code = self.code()
        except BuilderError as exc:
            _set_text(self.preview, "")
            self.show_problem(exc.render(current_language()))
            return
        self.show_problem("")
        _set_text(self.preview, escape(tr("will run:")) + " <code>" + breakable(code) + "</code>")

    def show_problem(self, message: str) -> None:
        """Show why the statement was refused, already in the window's language (empty: hide)."""
        _set_text(self.problem, escape(message))
        if self.problem.isVisibleTo(self) != bool(message):
            self.problem.setVisible(bool(message))

    def request(self) -> None:
        """Emit the statement to run, or show why there is none (nothing while the button is disabled)."""
        if not self.button.isEnabled():
            return
        try:
            code = self.code()
        except BuilderError as exc:
            self.show_problem(exc.render(current_language()))
            return
        # What this statement was made from stays picked for the next one (a second copy of `x` is not
        # silently a copy of the `y` the first one made).
        for combo in self.findChildren(QComboBox):
            if combo.currentText():
                combo.setProperty(_CHOSEN, combo.currentText())
        self.statementRequested.emit(code)

    def set_names(self, tensors: tuple[str, ...], all_names: tuple[str, ...], newest: str | None = None) -> None:
        """The names now bound (``newest``: the tensor the last step made); subclasses refresh their pickers."""
        self.tensor_names = tensors
        self.refresh()

    def set_enabled(self, enabled: bool) -> None:
        """Enable or disable the button (while a step runs)."""
        self.enabled = enabled
        self.button.setEnabled(enabled and not (self.needs_tensors and not self.tensor_names))


def _set_text(label: QLabel, text: str) -> None:
    """Set ``label``'s text only when it changes (a new text means a new layout and a repaint)."""
    if label.text() != text:
        label.setText(text)

"""Copy: source, operation (=, clone(), detach(), views, ...), follow-up, target."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from tensorlab.core.lang.builder_code import COPY_OPERATIONS, copy_code
from tensorlab.ui.builders.builder_box import BuilderBox, code_choices, fill_names, next_free_name
from tensorlab.ui.widgets.i18n import QT_TR_NOOP

__all__ = ["CopyBuilder"]

_ARGUMENT_HINTS = {"view(...)": "-1", "slice": "1:3", ".to(dtype)": "float64"}


class CopyBuilder(BuilderBox):
    """Writes `y = x.detach()`, `y = x.clone() * 2`, `y = x[1:3]`, ..."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QT_TR_NOOP("Copy or view"), QT_TR_NOOP("Copy"), "copyButton", parent)
        self.needs_tensors = True
        self.source = QComboBox()
        self.operation = QComboBox()
        code_choices(self.operation, list(COPY_OPERATIONS), {"slice": QT_TR_NOOP("slice")}, self.i18n)
        self.operation.setCurrentText("detach()")
        self.argument = QLineEdit()
        self.follow_up = QLineEdit()
        self.i18n.bind(self.follow_up.setPlaceholderText, QT_TR_NOOP("optional, e.g. * 2"))
        self.target = QLineEdit("y")
        for widget, name, label in (
            (self.source, "copySource", QT_TR_NOOP("source")),
            (self.operation, "copyOperation", QT_TR_NOOP("operation")),
            (self.argument, "copyArgument", QT_TR_NOOP("argument")),
            (self.follow_up, "copyFollowUp", QT_TR_NOOP("then")),
            (self.target, "copyTarget", QT_TR_NOOP("target")),
        ):
            widget.setObjectName(name)
            self.add_row(label, widget)
        self.source.currentTextChanged.connect(self.refresh)
        self.operation.currentTextChanged.connect(self._operation_changed)
        for edit in (self.argument, self.follow_up, self.target):
            edit.textChanged.connect(self.refresh)
        self._operation_changed()

    def _operation_changed(self, *_: object) -> None:
        hint = _ARGUMENT_HINTS.get(self.operation.currentData())
        self.form.setRowVisible(self.argument, hint is not None)
        if hint is not None:
            self.argument.setText(hint)
        self.refresh()

    def code(self) -> str:
        return copy_code(self.target.text(), self.source.currentText(), self.operation.currentData(),
                         self.argument.text(), self.follow_up.text())

    def set_names(self, tensors: tuple[str, ...], all_names: tuple[str, ...], newest: str | None = None) -> None:
        fill_names(self.source, tensors, prefer_last=True, newest=newest)
        if self.target.text() in all_names:
            self.target.setText(next_free_name(set(all_names), "y"))
        super().set_names(tensors, all_names, newest)

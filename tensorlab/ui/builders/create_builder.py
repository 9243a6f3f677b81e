"""Create: name, factory, shape, dtype, requires_grad."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QWidget

from tensorlab.core.lang.builder_code import DTYPES, FACTORIES, create_code
from tensorlab.ui.builders.builder_box import BuilderBox, code_choices, next_free_name
from tensorlab.ui.widgets.i18n import QT_TR_NOOP

__all__ = ["CreateBuilder"]


class CreateBuilder(BuilderBox):
    """Writes `x = torch.ones(5, requires_grad=True)` and the other factories."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QT_TR_NOOP("Create a tensor"), QT_TR_NOOP("Create"), "createButton", parent)
        self.name = QLineEdit("x")
        self.factory = QComboBox()
        self.shape = QLineEdit("5")
        self.fill = QLineEdit("7")
        self.values = QLineEdit("1, 2, 3")
        self.dtype = QComboBox()
        self.dtype.addItems(list(DTYPES))
        self.requires_grad = QCheckBox("requires_grad")
        self.requires_grad.setChecked(True)
        code_choices(self.factory, list(FACTORIES), {"values": QT_TR_NOOP("values")}, self.i18n)
        for widget, name, label in (
            (self.name, "createName", QT_TR_NOOP("name")), (self.factory, "createFactory", QT_TR_NOOP("factory")),
            (self.shape, "createShape", QT_TR_NOOP("shape")), (self.fill, "createFill", QT_TR_NOOP("fill value")),
            (self.values, "createValues", QT_TR_NOOP("values")), (self.dtype, "createDtype", QT_TR_NOOP("dtype")),
            (self.requires_grad, "createRequiresGrad", None),   # the check box says it
        ):
            widget.setObjectName(name)
            self.add_row(label, widget, label or QT_TR_NOOP("requires grad"))
        for edit in (self.name, self.shape, self.fill, self.values):
            edit.textChanged.connect(self.refresh)
        self.factory.currentTextChanged.connect(self._factory_changed)
        self.dtype.currentTextChanged.connect(self.refresh)
        self.requires_grad.toggled.connect(self.refresh)
        self._factory_changed()

    def _factory_changed(self, *_: object) -> None:
        factory = self.factory.currentData()
        self.form.setRowVisible(self.shape, factory != "values")
        self.form.setRowVisible(self.fill, factory == "full")
        self.form.setRowVisible(self.values, factory == "values")
        self.refresh()

    def code(self) -> str:
        return create_code(self.name.text(), self.factory.currentData(), self.shape.text(),
                           self.dtype.currentText(), self.requires_grad.isChecked(), self.fill.text(),
                           self.values.text())

    def set_names(self, tensors: tuple[str, ...], all_names: tuple[str, ...], newest: str | None = None) -> None:
        # Suggest a fresh name once the current one is taken.
        if self.name.text() in all_names:
            self.name.setText(next_free_name(set(all_names)))
        super().set_names(tensors, all_names, newest)

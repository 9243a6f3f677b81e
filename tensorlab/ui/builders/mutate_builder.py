"""Mutate: target, in-place operation, index, value, inside torch.no_grad()."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit, QWidget

from tensorlab.core.lang.builder_code import MUTATIONS, mutate_code, mutations_for
from tensorlab.ui.builders.builder_box import BuilderBox, WrappingCheckBox, fill_names
from tensorlab.ui.widgets.i18n import QT_TR_NOOP

__all__ = ["MutateBuilder"]


class MutateBuilder(BuilderBox):
    """Writes `y[0] = 5`, `x.add_(1)`, `x += 1`, optionally under `torch.no_grad()`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QT_TR_NOOP("Change in place"), QT_TR_NOOP("Mutate"), "mutateButton", parent)
        self.needs_tensors = True
        self.zero_dim: frozenset[str] = frozenset()   # the 0-d tensors bound now: no `x[i] = v` on them
        self.target = QComboBox()
        self.operation = QComboBox()
        self.operation.addItems(list(MUTATIONS))
        self.index = QLineEdit("0")
        self.value = QLineEdit("5")
        self.no_grad = WrappingCheckBox("")
        self.i18n.bind(self.no_grad.label.setText, QT_TR_NOOP("inside torch.no_grad()"))
        for widget, name, label in (
            (self.target, "mutateTarget", QT_TR_NOOP("target")),
            (self.operation, "mutateOperation", QT_TR_NOOP("operation")),
            (self.index, "mutateIndex", QT_TR_NOOP("index")), (self.value, "mutateValue", QT_TR_NOOP("value")),
            (self.no_grad, "mutateNoGrad", None),   # the check box says it
        ):
            widget.setObjectName(name)
            self.add_row(label, widget, label or QT_TR_NOOP("inside torch.no_grad()"))
        self.target.currentTextChanged.connect(self._target_changed)
        self.operation.currentTextChanged.connect(self._operation_changed)
        self.index.textChanged.connect(self.refresh)
        self.value.textChanged.connect(self.refresh)
        self.no_grad.toggled.connect(self.refresh)
        self._operation_changed()

    def _target_changed(self, *_: object) -> None:
        """Offer only the operations the language accepts on the target (no `+=` on `net[0].weight`), and that
        torch runs on it (no `x[i] = v` on a 0-d tensor: it has no index)."""
        target = self.target.currentText()
        offered = mutations_for(target)
        if target in self.zero_dim:
            offered = tuple(m for m in offered if m != "x[i] = v")
        shown = tuple(self.operation.itemText(i) for i in range(self.operation.count()))
        if offered != shown:
            chosen = self.operation.currentText()
            blocked = self.operation.blockSignals(True)
            self.operation.clear()
            self.operation.addItems(list(offered))
            # The choice stays where the target allows it; a write at an index becomes `fill_(v)` on a 0-d
            # tensor (the same value written); else the first operation (`x[i] = v`).
            fallback = "fill_(v)" if chosen == "x[i] = v" else chosen
            self.operation.setCurrentIndex(max(self.operation.findText(chosen), self.operation.findText(fallback), 0))
            self.operation.blockSignals(blocked)
            if self.operation.currentText() != chosen:
                self._operation_changed()
                return
        self.refresh()

    def _operation_changed(self, *_: object) -> None:
        operation = self.operation.currentText()
        self.form.setRowVisible(self.index, operation == "x[i] = v")
        self.form.setRowVisible(self.value, operation != "zero_()")
        self.refresh()

    def code(self) -> str:
        return mutate_code(self.target.currentText(), self.operation.currentText(), self.index.text(),
                           self.value.text(), self.no_grad.isChecked())

    def set_names(self, tensors: tuple[str, ...], all_names: tuple[str, ...], newest: str | None = None) -> None:
        fill_names(self.target, tensors, prefer_last=True, newest=newest)
        super().set_names(tensors, all_names, newest)
        self._target_changed()   # the same name may be a 0-d tensor now (or no longer)

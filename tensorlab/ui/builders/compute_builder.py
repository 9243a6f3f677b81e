"""Compute and differentiate: a small expression builder and a Backward button."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit, QPushButton, QWidget

from tensorlab.core.lang.builder_code import COMPUTATIONS, BuilderError, backward_code, compute_code
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.ui.builders.builder_box import BuilderBox, fill_names, narrow_combo, next_free_name
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, tr

__all__ = ["ComputeBuilder"]


class ComputeBuilder(BuilderBox):
    """Writes `s = (x + y).sum()` and friends; Backward runs `s.backward()` on a scalar."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QT_TR_NOOP("Compute and differentiate"), QT_TR_NOOP("Compute"), "computeButton", parent)
        self.needs_tensors = True
        self.operation = QComboBox()
        self.operation.addItems(list(COMPUTATIONS))
        self.a = QComboBox()
        self.b = QComboBox()
        self.k = QLineEdit("2")
        self.target = QLineEdit("s")
        for widget, name, label in (
            (self.operation, "computeOperation", QT_TR_NOOP("expression")), (self.a, "computeA", QT_TR_NOOP("a")),
            (self.b, "computeB", QT_TR_NOOP("b")), (self.k, "computeK", QT_TR_NOOP("k")),
            (self.target, "computeTarget", QT_TR_NOOP("result")),
        ):
            widget.setObjectName(name)
            self.add_row(label, widget)
        self.recent: tuple[str, ...] = ()   # the tensors made by the steps run, the last made last
        self.backward_target = narrow_combo(QComboBox())
        self.backward_target.setObjectName("backwardTarget")
        self.i18n.bind(self.backward_target.setAccessibleName, QT_TR_NOOP("scalar to differentiate"))
        self.backward_button = QPushButton()
        self.backward_button.setObjectName("backwardButton")
        self.i18n.bind(self.backward_button.setText, QT_TR_NOOP("Backward"))
        self.i18n.bind(self.backward_button.setAccessibleName, QT_TR_NOOP("Backward"))
        self.i18n.bind(self.backward_button.setToolTip,
                       QT_TR_NOOP("Run .backward() on a scalar (one-element) tensor that requires grad"))
        # The scalar picker in the form, the button under it: narrow docks stay uncut.
        self.add_row(QT_TR_NOOP("backward"), self.backward_target, QT_TR_NOOP("scalar to differentiate"))
        self.form.addRow(self.backward_button)
        self.backward_button.clicked.connect(self._backward)
        self.operation.currentTextChanged.connect(self._operation_changed)
        for combo in (self.a, self.b):
            combo.currentTextChanged.connect(self.refresh)
        self.k.textChanged.connect(self.refresh)
        self.target.textChanged.connect(self.refresh)
        self._operation_changed()

    def _operation_changed(self, *_: object) -> None:
        operation = self.operation.currentText()
        self.form.setRowVisible(self.b, "b" in operation.replace("a.", ""))
        self.form.setRowVisible(self.k, "k" in operation)
        self.refresh()

    def code(self) -> str:
        return compute_code(self.target.text(), self.operation.currentText(), self.a.currentText(),
                            self.b.currentText(), self.k.text())

    def _backward(self) -> None:
        if not self.backward_button.isEnabled():
            return
        try:
            code = backward_code(self.backward_target.currentText())
        except BuilderError:
            self.show_problem(tr("Backward needs a scalar tensor that requires grad: compute one first, "
                                 "e.g. (a + b).sum()."))
            return
        self.statementRequested.emit(code)

    def set_scalars(self, snapshot: Snapshot, newest: str | None = None) -> None:
        """Offer the one-element tensors that require grad to Backward, the newest first."""
        scalars = tuple(t.name for t in snapshot.tensors if t.numel == 1 and t.requires_grad)
        fill_names(self.backward_target, scalars, prefer_last=True, newest=newest)
        self.backward_button.setEnabled(bool(scalars) and self.enabled)

    def set_names(self, tensors: tuple[str, ...], all_names: tuple[str, ...], newest: str | None = None) -> None:
        # An expression of the tensors made last (`(y + z)`), not of the newest twice (`(z + z)`).
        made = [n for n in self.recent if n in tensors]
        fill_names(self.a, tensors, prefer_last=True, newest=made[-1] if made else newest)
        a = self.a.currentText()
        before = [n for n in made if n != a]
        fill_names(self.b, tensors, prefer_last=True, newest=before[-1] if before else None, avoid=a)
        if self.target.text() in all_names:
            self.target.setText(next_free_name(set(all_names), "s"))
        super().set_names(tensors, all_names, newest)

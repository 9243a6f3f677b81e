"""The Copy matrix dock: every way to get a second tensor from x, each fact read from torch.

The worker computes the rows (job ``"copies"``, :mod:`tensorlab.core.tools.copy_probe`) on the
session's device; this panel only shows them: a model/view table, one row per
operation for the chosen kind of x, a tooltip on every cell saying what the
column means (and torch's warning or error text where there is one). Clicking a
row puts its statements into the scratchpad, so the class can step through it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tensorlab.core.protocol.copy_rows import COLUMNS, X_KINDS, CopyMatrix, CopyRow
from tensorlab.core.tools.tables import copy_header
from tensorlab.ui.tools.scratchpad_loader import ScratchpadLoader
from tensorlab.ui.tools.tool_controller import ToolController
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language, tr, tr_marked

__all__ = ["CopyMatrixPanel", "CopyMatrixModel", "JOB", "TIPS", "header"]

JOB = "copies"
def header(column: str) -> str:
    """The header of a fact column in the window's language (the catalogue's, as `tensorlab copies` prints it)."""
    return copy_header(column, current_language())


TIPS = {
    "operation": QT_TR_NOOP("The statement: y is what the operation returned from x."),
    "same_object": QT_TR_NOOP("Is y the very same Python object as x (y is x)? Then it is x under a second name."),
    "shares_storage": QT_TR_NOOP("Do y and x read the same memory (the same untyped storage)? Then writing through "
                                 "one changes what the other reads."),
    "shares_version_counter": QT_TR_NOOP("Does an in-place change of y move x's version counter too? Autograd "
                                         "checks that counter to notice saved tensors changed after they were saved."),
    "requires_grad": QT_TR_NOOP("Does y require grad: will operations on y be recorded for backward()?"),
    "is_leaf": QT_TR_NOOP("Is y a leaf: a tensor no recorded operation made (every tensor with requires_grad=False "
                          "is one)?"),
    "grad_fn": QT_TR_NOOP("The node that recorded how y was made, as torch names it; empty for a leaf."),
    "grad_flows": QT_TR_NOOP("Does a gradient of y reach x through the graph (torch.autograd.grad finds one)?"),
    "warns": QT_TR_NOOP("Did torch warn while making y? The tooltip shows the warning."),
    "raises": QT_TR_NOOP("Did the operation raise? The exception type; the tooltip shows torch's message."),
}
X_LABELS = {"leaf": QT_TR_NOOP("x is a leaf that requires grad: x = torch.ones(2, 3, requires_grad=True)"),
            "non-leaf": QT_TR_NOOP("x is not a leaf: w = torch.ones(2, 3, requires_grad=True); x = w * 2")}
_YES, _NO, _RAISES = QColor("#e8f5e9"), QColor("#f5f5f5"), QColor("#ffebee")


def _text(value: Any) -> str:
    if value is None:
        return "–"
    if value is True:
        return tr("yes")
    if value is False:
        return tr("no")
    return str(value)


def _two_lines(text: str) -> str:
    """A long header on two lines, broken at the space nearest its middle (keeps the table narrow)."""
    if len(text) <= 14 or " " not in text:
        return text
    spaces = [i for i, char in enumerate(text) if char == " "]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return text[:cut] + "\n" + text[cut + 1:]


class CopyMatrixModel(QAbstractTableModel):
    """The rows of a :class:`CopyMatrix` for one kind of x; column 0 is the statement."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[CopyRow] = []

    def set_rows(self, rows: list[CopyRow]) -> None:
        """Show ``rows``."""
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def retranslate(self) -> None:
        """Texts again, in the current language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS))
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS)))

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(COLUMNS) + 1

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or not 0 <= section <= len(COLUMNS):
            return None
        column = "operation" if section == 0 else COLUMNS[section - 1]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "grad_fn":
                return column  # a code word, the same in every language
            return tr("operation") if section == 0 else _two_lines(header(column))
        if role == Qt.ItemDataRole.ToolTipRole:
            return tr_marked(TIPS[column])
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        column = "operation" if index.column() == 0 else COLUMNS[index.column() - 1]
        value = f"y = {row.operation}" if column == "operation" else getattr(row, column)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "grad_fn" and value is None and row.raises is None:
                return "None"  # as torch shows a leaf's grad_fn
            return value if column == "operation" else _text(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = tr_marked(TIPS[column])
            if column in ("warns", "operation") and row.warning:
                tip += "\n\n" + tr("torch warned:") + " " + row.warning
            if column in ("raises", "operation") and row.error:
                tip += "\n\n" + tr("torch raised {type}:").format(type=row.raises) + " " + row.error
            if column == "operation":
                tip += "\n\n" + tr("Click to step through it in the scratchpad.")
            return tip
        if role == Qt.ItemDataRole.BackgroundRole and column != "operation":
            if row.raises is not None:
                return _RAISES
            return _YES if value is True else _NO if value is False else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column != "operation":
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class CopyMatrixPanel(QWidget):
    """The table, the kind of x, a refresh button; computes in the worker when first shown."""

    loaded = Signal(str)  # the operation put into the scratchpad
    contentChanged = Signal()  # noqa: N815 - the rows shown changed: the tool may want more room

    def __init__(self, controller: ToolController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("copyMatrixPanel")
        self.controller = controller
        self.matrix: CopyMatrix | None = None
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Copy matrix: every way to get a second tensor from x"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        self.kind_picker = QComboBox()
        self.kind_picker.setObjectName("copyMatrixKind")
        for kind in X_KINDS:
            self.kind_picker.addItem("", kind)
        self.kind_picker.currentIndexChanged.connect(lambda _: self._show_rows())
        self.refresh_button = QPushButton()
        self.refresh_button.setObjectName("copyMatrixRefresh")
        self.i18n.bind(self.refresh_button.setText, QT_TR_NOOP("Compute"))
        self.refresh_button.clicked.connect(self.refresh)
        row.addWidget(self.kind_picker, 1)
        row.addWidget(self.refresh_button)
        layout.addLayout(row)
        self.table = QTableView()
        self.table.setObjectName("copyMatrixTable")
        self.model = CopyMatrixModel(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.clicked.connect(lambda index: self.load_row(index.row()))
        layout.addWidget(self.table, 1)
        self.message = QLabel()
        self.message.setObjectName("copyMatrixMessage")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.loader = ScratchpadLoader(controller, self)
        self.loader.finished.connect(self._loaded)
        self._pending = ""
        controller.jobFinished.connect(self._finished)
        controller.stateChanged.connect(self._state_changed)
        self.i18n.on_change(self._retranslate)
        self._retranslate()

    def _retranslate(self) -> None:
        for i in range(self.kind_picker.count()):
            self.kind_picker.setItemText(i, tr_marked(X_LABELS[self.kind_picker.itemData(i)]))
        self.model.retranslate()
        self._show_message()

    # -- computing ---------------------------------------------------------------
    def refresh(self) -> None:
        """Compute every row again in the worker, on the session's device."""
        self.controller.run_job(JOB, {})
        self.message.setText(tr("Computing in the worker, on {device}…").format(device=self.controller.state.device))

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self.matrix is None:
            self.refresh()

    def _state_changed(self, state: Any) -> None:
        # Another device: the facts are computed again there, when the panel is in view.
        if self.matrix is not None and state.device != self.matrix.device and self.isVisible():
            self.refresh()

    def _finished(self, name: str, result: object, problem: str) -> None:
        if name != JOB:
            return
        if isinstance(result, CopyMatrix):
            self.matrix = result
            self._show_rows()
        else:
            self.message.setText(tr("The copy matrix could not be computed: {reason}").format(reason=problem))

    def _show_rows(self) -> None:
        kind = self.kind_picker.currentData()
        self.model.set_rows([r for r in self.matrix.rows if r.x == kind] if self.matrix is not None else [])
        self._show_message()
        # The worker's rows widen the columns: a floating tool, sized when it opened, grows for them (the
        # window's lab docks do it, clear of the other floating tools).
        self.contentChanged.emit()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Room for every column and row of the table as computed (the floating tool is sized by it)."""
        table = self.table
        table.resizeColumnsToContents()
        frame = 2 * table.frameWidth()
        width = table.horizontalHeader().length() + frame + table.verticalScrollBar().sizeHint().width() + 8
        rows = max(self.model.rowCount(), 8)
        height = (table.horizontalHeader().sizeHint().height() + rows * table.verticalHeader().defaultSectionSize()
                  + frame + table.horizontalScrollBar().sizeHint().height())
        above = self.refresh_button.sizeHint().height() + self.message.sizeHint().height() + 24
        return QSize(max(width, super().sizeHint().width()), height + above)

    def _show_message(self) -> None:
        if self.matrix is not None:
            self.message.setText(tr("Read from torch on {device}. Hover a cell for what it means; click a row "
                                    "to step through it in the scratchpad.").format(device=self.matrix.device))

    # -- the scratchpad ----------------------------------------------------------
    def load_row(self, row: int) -> bool:
        """Put row ``row``'s statements into the scratchpad, ready to step through."""
        if not 0 <= row < len(self.model.rows):
            return False
        copy_row = self.model.rows[row]
        if not self.loader.load(copy_row.lines):
            return False
        self.message.setText(tr("Putting y = {operation} into the scratchpad…").format(operation=copy_row.operation))
        self._pending = copy_row.operation
        return True

    def _loaded(self, ok: bool, reason: str) -> None:
        operation = self._pending
        if ok:
            self.message.setText(tr("In the scratchpad: press → to run each statement, down to y = {operation}.")
                                 .format(operation=operation))
            self.loaded.emit(operation)
        else:
            self.message.setText(reason)

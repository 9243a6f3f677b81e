"""The tensors table: one row per tensor, Qt model/view over a snapshot."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from tensorlab.core.snapshot import Snapshot, TensorInfo, to_plain
from tensorlab.ui.i18n import Texts, tr
from tensorlab.ui.palette import CHANGED, tensor_color

__all__ = ["COLUMNS", "TensorTableModel", "TensorTable"]

COLUMNS = ("name", "shape", "dtype", "device", "requires_grad", "is_leaf", "grad_fn", "version",
           "storage", "grad")

_ROOT = QModelIndex()

_TIPS = {
    "requires_grad": "Does autograd track operations on this tensor?",
    "is_leaf": "Made by no recorded operation? (Every tensor that does not require grad is a leaf.)",
    "grad_fn": "The autograd node that produced this tensor (None for leaves and tensors outside the graph)",
    "version": "The version counter: +1 for every in-place change (shared by detach() aliases, not by .data)",
    "storage": "Which block of memory holds the values; the same id means shared memory",
    "grad": "The gradient in .grad (read only for leaves and tensors that retain grad)",
}


def cell_text(info: TensorInfo, column: str) -> str:
    """The text of one cell, as shown."""
    if column == "shape":
        return "[" + ", ".join(map(str, info.shape)) + "]"
    if column == "grad":
        if info.grad is None:
            return "None"
        text = str(to_plain(info.grad))
        return text if len(text) <= 40 else text[:39] + "…"
    value = getattr(info, column)
    if value is None:
        return "None" if column in ("grad_fn", "is_leaf") else "-"
    return str(value)


class TensorTableModel(QAbstractTableModel):
    """The tensors of a snapshot; the rows whose facts changed in the last step are marked."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.snapshot = Snapshot()
        self.changed: set[tuple[str, str]] = set()

    def set_snapshot(self, snapshot: Snapshot, previous: Snapshot) -> None:
        """Show ``snapshot``; cells that differ from ``previous`` are highlighted."""
        self.beginResetModel()
        self.snapshot = snapshot
        self.changed = set()
        for info in snapshot.tensors:
            old = previous.tensor(info.name)
            for column in COLUMNS:
                if old is None or cell_text(old, column) != cell_text(info, column) or (
                        column == "name" and old.values != info.values):
                    self.changed.add((info.name, column))
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.snapshot.tensors)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        info = self.snapshot.tensors[index.row()]
        column = COLUMNS[index.column()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return cell_text(info, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "grad" and info.grad is not None:
                return str(to_plain(info.grad))
            return tr(_TIPS[column]) if column in _TIPS else None
        if role == Qt.ItemDataRole.ForegroundRole and column == "name":
            return QBrush(tensor_color(index.row()))
        if role == Qt.ItemDataRole.BackgroundRole and (info.name, column) in self.changed:
            return QBrush(CHANGED)
        if role == Qt.ItemDataRole.FontRole and column == "name":
            font = QFont()
            font.setBold(True)
            return font
        return None

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return tr(_TIPS[COLUMNS[section]]) if COLUMNS[section] in _TIPS else None
        return None

    def row_of(self, name: str) -> int:
        """The row of tensor ``name``, or -1."""
        return next((i for i, t in enumerate(self.snapshot.tensors) if t.name == name), -1)


class TensorTable(QTableView):
    """The table view; emits the name of the selected tensor."""

    selectedTensorChanged = Signal(object)   # str | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tensorTable")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, "Tensors table")
        self.table_model = TensorTableModel(self)
        self.setModel(self.table_model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)
        self.selectionModel().selectionChanged.connect(self._emit_selection)
        self._selected: str | None = None

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            # Presentation mode: rows follow the larger font.
            self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)

    @property
    def selected(self) -> str | None:
        """The name of the selected tensor."""
        return self._selected

    def set_snapshot(self, snapshot: Snapshot, previous: Snapshot) -> None:
        """Show ``snapshot``, keeping the selection by name (or selecting the newest tensor)."""
        keep = self._selected
        self.table_model.set_snapshot(snapshot, previous)
        names = [t.name for t in snapshot.tensors]
        if keep not in names:
            new = [n for n in names if previous.tensor(n) is None]
            keep = new[-1] if new else (names[-1] if names else None)
        self.select_name(keep)

    def select_name(self, name: str | None) -> None:
        """Select the row of ``name`` (None clears the selection)."""
        row = -1 if name is None else self.table_model.row_of(name)
        if row < 0:
            self.clearSelection()
            self._set_selected(None)
            return
        self.selectionModel().select(
            self.table_model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        self._set_selected(name)

    def _emit_selection(self, *_: object) -> None:
        rows = self.selectionModel().selectedRows()
        name = self.table_model.snapshot.tensors[rows[0].row()].name if rows else None
        self._set_selected(name)

    def _set_selected(self, name: str | None) -> None:
        if name != self._selected:
            self._selected = name
            self.selectedTensorChanged.emit(name)

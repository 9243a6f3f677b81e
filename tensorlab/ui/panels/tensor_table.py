"""The tensors table: one row per tensor, Qt model/view over a snapshot.

All ten columns show: headers are compact (the full name and its meaning in
the tooltip), and when the panel is too narrow for every value the widest columns
give up room first and elide (the full text is in the cell's tooltip). Where even
that would cut the short columns to a letter ("c…", "T…": a projector's tab at
1024 px, a module's long parameter names), the table scrolls sideways instead,
every cell readable, with the name column pinned at the left. The name
column keeps room for its names first and, cut, keeps whole the end that tells each name from the
others (`mod…weight`, `mod…bias`, `n…[0].weight`, `n…[1].weight`): a row must say which tensor it is.
A cut grad_fn keeps its node's operation (`Sum…` of `SumBackward0`) and `None` whole.
"""

from __future__ import annotations

import math
import re
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QFont, QFontMetricsF, QHelpEvent, QResizeEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolTip,
    QWidget,
)

from tensorlab.core.lessons.source_import import may_differ_mark, may_differ_tip
from tensorlab.core.lessons.tensor_rows import COLUMNS, column_header, grad_text, name_text, row_texts, same_tensor
from tensorlab.core.protocol.snapshot import Snapshot, TensorInfo
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language, tr_marked
from tensorlab.ui.widgets.palette import CHANGED, tensor_color
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.text_zoom import MIN_PX, base_px, pixel_font, px

__all__ = ["COLUMNS", "TensorTableModel", "TensorTable", "distinguishing_part", "elide_name", "grad_fn_head",
           "header_text", "name_mark", "marked_name"]

# The columns and each cell's text are the core's (the transcript prints the same rows).

# Compact headers: what each column shows in its header (the tooltip names it in full). A column named
# after a tensor attribute (`shape`, `requires_grad`, ...) is code and reads the same in every language;
# the others (name, version, storage) are words and are translated.
# English headers broken over two lines where the column is narrow; a Korean word is short as it is.
HEADERS = {"requires_grad": "req.\ngrad", "is_leaf": "is_\nleaf", "grad_fn": "grad_\nfn", "device": "dev-\nice",
           "version": "ver-\nsion", "storage": "stor-\nage"}
# (grad_fn broken too: its one-line header was the widest cell of its column, and took the width the names need.)
CODE_HEADERS = {"requires_grad": "requires_\ngrad", "is_leaf": "is_\nleaf", "grad_fn": "grad_\nfn"}


def header_text(column: str) -> str:
    """The header of ``column`` as the table shows it, in the current language (the transcript's words)."""
    language = current_language()
    header = column_header(column, language)
    if language == "en":
        return HEADERS.get(column, header)
    # Another language shows a code column by its attribute's own name (broken at its underscore
    # where narrow), never by an English abbreviation ("req. grad").
    return CODE_HEADERS.get(column, header) if header == column else header

_TIPS = {
    # (The code columns keep torch's names in every language, as the glossary says: their tooltips say what
    # they are in the chosen one.)
    "dtype": QT_TR_NOOP("The type of every element (float32, int64, bool, ...): what each cell of memory holds"),
    "requires_grad": QT_TR_NOOP("Does autograd track operations on this tensor?"),
    "is_leaf": QT_TR_NOOP("Made by no recorded operation? (Every tensor that does not require grad is a leaf.)"),
    "grad_fn": QT_TR_NOOP("The autograd node that produced this tensor (None for leaves and tensors outside the "
                          "graph)"),
    "version": QT_TR_NOOP("The version counter: +1 for every in-place change (shared by detach() aliases, not by "
                          ".data)"),
    "storage": QT_TR_NOOP("Which block of memory holds the values; the same id means shared memory"),
    "grad": QT_TR_NOOP("The gradient in .grad (read only for leaves and tensors that retain grad)"),
}


# The share of the table's width its name column may keep for whole names when the columns do not all fit.
NAME_SHARE = 0.3
FITS_KEPT = 64      # the column fits kept by what they read (stepping back and forth shows the same states)
# The columns cut first when they do not all fit (what they show is drawn whole in the graph and values panels).
YIELDING = ("grad_fn", "grad")

_ADVANCES: dict[tuple[str, str], float] = {}
_COLOR_KEY = Qt.ItemDataRole.UserRole + 7   # the palette index a name cell is drawn in
_NAME_KEY = Qt.ItemDataRole.UserRole + 8    # a name cell's name, without its mark
_MARK_KEY = Qt.ItemDataRole.UserRole + 9    # its "may differ (line 7 not run)" mark, or None
_MARK_SEPARATOR = " \u00b7 "                # between a name and its mark, as the map writes it


def name_mark(info: TensorInfo) -> str:
    """The words a name cell shows after the name of a tensor that a statement of an opened file that is not run
    may have changed (:attr:`TensorInfo.may_differ`): "may differ (line 7 not run)"; "" for every other tensor."""
    return may_differ_mark(info.may_differ, current_language()) if info.may_differ is not None else ""


def marked_name(name: str, mark: str, metrics: QFontMetricsF, width: float,
                others: tuple[str, ...] | list[str] = ()) -> str:
    """A name cell's text as drawn in ``width`` pixels: the name cut by :func:`elide_name` and its ``mark`` after
    it, whole; where both do not fit, the mark gives way first (the cell's tooltip says it whole), so a row still
    says which tensor it is."""
    if not mark:
        return elide_name(name, metrics, width, others)
    shortest = min((metrics.horizontalAdvance(head + _ELLIPSIS + tail) for head, tail in _cuts(name, tuple(others))),
                   default=metrics.horizontalAdvance(name))
    # The mark whole, then its words without the line ("may differ": the tooltip says which line), so that a
    # long name in a narrow column still says it (review r21g 7: `m…weight` lost the mark entirely).
    short = mark.split("(")[0].rstrip()
    for said in dict.fromkeys((mark, short)):
        whole = name + _MARK_SEPARATOR + said
        if metrics.horizontalAdvance(whole) <= width:
            return whole
        room = width - metrics.horizontalAdvance(_MARK_SEPARATOR + said)
        if room >= min(shortest, metrics.horizontalAdvance(name)):
            return elide_name(name, metrics, room, others) + _MARK_SEPARATOR + said
    # Too narrow for both: the name as it is cut alone, then as much of the mark as fits ("w · may differ…").
    cut = elide_name(name, metrics, width, others)
    return metrics.elidedText(cut + _MARK_SEPARATOR + mark, Qt.TextElideMode.ElideRight, width) \
        if metrics.horizontalAdvance(cut + _MARK_SEPARATOR + _ELLIPSIS) <= width else cut


def _advance(text: str, key: str, font: QFont) -> float:
    width = _ADVANCES.get((text, key))
    if width is None:
        if len(_ADVANCES) > 20_000:
            _ADVANCES.clear()
        width = _ADVANCES[(text, key)] = QFontMetricsF(font).horizontalAdvance(text)
    return width


# Where a name's last part begins: after its last `.` or `[` (`model.weight` -> `weight`, `sd['bias']` ->
# `'bias']`); a second name (`p is model.bias`) ends with the first one's.
_LAST_PART = re.compile(r"[.\[][^.\[]*$")
_ELLIPSIS = "\u2026"


def last_part(name: str) -> str:
    """The end of ``name`` that tells it from its siblings (`weight` of `model.weight`), or all of it."""
    found = _LAST_PART.search(name)
    return name[found.start() + (1 if name[found.start()] == "." else 0):] if found else name


_PARTS = re.compile(r"[.\[]")
_CUTS: dict[tuple[str, tuple[str, ...], float, tuple[float, float, float]], str] = {}


def distinguishing_part(name: str, others: tuple[str, ...] | list[str] = ()) -> str:
    """The shortest end of ``name`` that begins at a `.` or `[` and with which no other of ``others`` ends:
    `[0].weight` of `net[0].weight` beside `net[1].weight` (its last part `weight` ends both). Without such
    an end (or without ``others``), its longest end short of the whole name, else the name."""
    tails = _tails(name)
    if not tails:
        return name
    rivals = [other for other in others if other != name]
    return next((tail for tail in tails if not any(other.endswith(tail) for other in rivals)), tails[-1])


def _tails(name: str) -> list[str]:
    """``name``'s ends that begin at a `.` (after it) or a `[`, shortest first (`weight`, `[0].weight`)."""
    starts = sorted({m.start() + (1 if m.group() == "." else 0) for m in _PARTS.finditer(name) if m.start() > 0},
                    reverse=True)
    return [name[start:] for start in starts if 0 < start < len(name)]


def _cuts(name: str, others: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every (head, tail) ``name`` may be shown as, `head…tail`, that no other name of ``others`` could be shown
    as (no other begins with the head and ends with the tail): a tail that begins at a part (`weight`,
    `[0].weight`) after a head of any length, or no tail after a head that ends a part (`net[0]…`)."""
    rivals = [other for other in others if other != name]

    def alone(head: str, tail: str) -> bool:
        return not any(o.startswith(head) and o.endswith(tail) and len(o) >= len(head) + len(tail) for o in rivals)

    cuts = [(name[:keep], tail) for tail in _tails(name) for keep in range(1, len(name) - len(tail))]
    ends = sorted({m.start() for m in _PARTS.finditer(name) if m.start() > 0}
                  | {i + 1 for i, c in enumerate(name) if c in ")]" and i + 1 < len(name)})
    cuts += [(name[:end], "") for end in ends]
    return [(head, tail) for head, tail in cuts if alone(head, tail)]


def elide_name(text: str, metrics: QFontMetricsF, width: float, others: tuple[str, ...] | list[str] = ()) -> str:
    """``text`` cut to ``width`` pixels, in the middle or at its end, so that no other name of ``others`` could
    look the same, showing as much of it as fits: `mod…weight` beside `model.bias`, `n…[1].weight` or `net[1]…`
    beside `net[0].weight` (Qt's own eliding cut `model.weight` and `model.bias` to the same `mod…`, and a last
    part alone `net[0].weight` and `net[1].weight` to the same `n…weight`). Without ``others``, its last part
    whole (`sd[…'bias']`, `p is m…bias`).

    Too narrow for any such cut, the end of the text (Qt's left eliding).
    """
    if metrics.horizontalAdvance(text) <= width:
        return text
    if others:
        key = (text, tuple(others), width, (metrics.ascent(), metrics.averageCharWidth(), metrics.maxWidth()))
        kept = _CUTS.get(key)
        if kept is not None:
            return kept
        best: tuple[int, int, str] | None = None
        for head, tail in _cuts(text, tuple(others)):
            shown = head + _ELLIPSIS + tail
            rank = (len(head) + len(tail), len(tail))
            if (best is None or rank > best[:2]) and metrics.horizontalAdvance(shown) <= width:
                best = (*rank, shown)
        result = best[2] if best is not None else _end_of(text, metrics, width)
        if len(_CUTS) > 4096:
            _CUTS.clear()
        _CUTS[key] = result
        return result
    tail = last_part(text)
    room = width - metrics.horizontalAdvance(_ELLIPSIS + tail)
    if tail == text or room < 0:
        return _end_of(text, metrics, width)
    head = text[: len(text) - len(tail)]
    keep = 0   # the longest start of the head that fits before "…" and the last part
    while keep < len(head) and metrics.horizontalAdvance(head[: keep + 1]) <= room:
        keep += 1
    return head[:keep] + _ELLIPSIS + tail


def _end_of(text: str, metrics: QFontMetricsF, width: float) -> str:
    """``text`` too narrow for a cut that keeps a part whole: its end (Qt's left eliding), except for an alias row
    (`m is r`), whose own name stays first (`m is …`, `m…`): left eliding kept `…s r`, the other name, at the very
    steps whose question is about m (review r18aa 7)."""
    own, said, _other = text.partition(" is ")
    if said and own:
        start = own + said
        if metrics.horizontalAdvance(start + _ELLIPSIS) <= width:
            return start + metrics.elidedText(text[len(start):], Qt.TextElideMode.ElideRight,
                                              width - metrics.horizontalAdvance(start))
        if metrics.horizontalAdvance(own + _ELLIPSIS) <= width:
            return own + _ELLIPSIS
        cut = metrics.elidedText(own, Qt.TextElideMode.ElideRight, width)
        return cut if metrics.horizontalAdvance(cut) <= width else ""   # (Qt keeps one character whole)
    return metrics.elidedText(text, Qt.TextElideMode.ElideLeft, width)


class _NameDelegate(QStyledItemDelegate):
    """Draws a name cell cut by :func:`elide_name` against the table's other names (the full name is in
    its tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # What each name cell drew, by what its cut reads (its text, mark, width, the other names, the font):
        # the table repaints its name cells at every step, and a cut measured again each time was a fifth of
        # the table's paint. The margin is the style's, read once per widget and style.
        self._shown: dict[tuple[object, ...], tuple[QFont, str]] = {}
        self._margin: tuple[object, object, int] | None = None

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        widget = option.widget
        style = widget.style() if widget is not None else None
        if self._margin is None or self._margin[0] is not widget or self._margin[1] is not style:
            self._margin = (widget, style, _text_margin(widget))
        width = option.rect.width() - 2 * self._margin[2]
        model = index.model()
        others = model.names() if isinstance(model, TensorTableModel) else ()
        name, mark = index.data(_NAME_KEY), index.data(_MARK_KEY)
        key = (option.text, name, mark, width, others)
        kept = self._shown.get(key)
        if kept is not None and kept[0] == option.font:
            option.text = kept[1]
            return
        if isinstance(name, str) and mark:
            text = marked_name(name, str(mark), QFontMetricsF(option.font), width, others)
        else:
            text = elide_name(option.text, QFontMetricsF(option.font), width, others)
        if len(self._shown) > 1024:
            self._shown.clear()
        self._shown[key] = (QFont(option.font), text)
        option.text = text


_NODE_HEAD = re.compile(r"^(.+?)(?:Backward\d*|Grad)$")


def grad_fn_head(text: str) -> str:
    """The shortest readable cut of a grad_fn cell: its node's operation and "…" (`Sum…` of `SumBackward0`,
    `Accumulate…` of `AccumulateGrad`); a text without a node's suffix (`None`) whole."""
    found = _NODE_HEAD.match(text)
    return found.group(1) + _ELLIPSIS if found else text


def _text_margin(widget: QWidget | None) -> int:
    """The margin each side of a cell's text, as Qt's style lays out an item view's cell."""
    style = widget.style() if widget is not None else None
    if style is None:
        return 3
    return style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1


class TensorTableModel(QStandardItemModel):
    """The tensors of a snapshot; the rows whose facts changed in the last step are marked.

    The cells live in Qt's own item model: a view asks seven roles of every cell at
    every paint, and answering them in C++ instead of Python halves a paint. A step
    sets only the cells whose text, highlight or colour changed.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.snapshot = Snapshot()
        self.changed: set[tuple[str, str]] = set()
        self._font = QFont()
        self._bold: tuple[str, QFont] | None = None
        # What each row shows: its tensor, texts and highlights.
        self._rows: list[tuple[TensorInfo, tuple[str, ...], tuple[bool, ...]]] = []
        self._colors: dict[int, int] = {}   # row -> the palette index of its name (a second name: the first's)

    @property
    def font(self) -> QFont:
        """The table's font (the name column is in its bold)."""
        return self._font

    @font.setter
    def font(self, font: QFont) -> None:
        self._font = font
        bold = self.bold_font()
        for row in range(self.rowCount()):
            self.item(row, 0).setFont(bold)

    def set_snapshot(self, snapshot: Snapshot, previous: Snapshot) -> None:
        """Show ``snapshot``; cells that differ from ``previous`` are highlighted."""
        changed = set()
        before = {t.name: t for t in previous.tensors}
        # A new name for a tensor object an earlier name held (`for p in model.parameters(): ...`): only its
        # name is new; its facts are compared with that object's (a new name is not a change of memory).
        objects: dict[int, TensorInfo] = {}
        for earlier in previous.tensors:
            if earlier.object_id:
                objects.setdefault(earlier.object_id, earlier)
        for info in snapshot.tensors:
            old = before.get(info.name)
            if (old is None or old.object_id != info.object_id) and info.object_id in objects:
                old = objects[info.object_id]
            texts = row_texts(info)
            old_texts = row_texts(old) if old is not None else None
            for i, column in enumerate(COLUMNS):
                if old is None or old_texts is None or old_texts[i] != texts[i] or (
                        column == "name" and old.values is not info.values and old.values != info.values):
                    changed.add((info.name, column))
        self.snapshot, self.changed = snapshot, changed
        tensors = snapshot.tensors
        # A second name of one tensor object says so in its name cell (`s is r`) and takes that row's colour:
        # the same tensor, unlike another tensor over the same memory (`sd['weight']`), which only shares S0.
        same = same_tensor(snapshot)
        order = {t.name: i for i, t in enumerate(tensors)}
        if self.rowCount() != len(tensors):
            self.setRowCount(len(tensors))
            del self._rows[len(tensors):]
        # Each cell's text, tooltip and colours are set with the model's signals held, and the view told once
        # for the rows that changed: four dataChanged signals a cell, each one laid out and repainted by the
        # view, cost more than the cells themselves (a training step changes a dozen of them).
        touched: list[int] = []
        blocked = self.blockSignals(True)
        try:
            self._set_rows(tensors, same, order, changed, touched)
        finally:
            self.blockSignals(blocked)
        # Each run of changed rows told at once (the rows between two runs are not repainted).
        start = 0
        for k in range(1, len(touched) + 1):
            if k == len(touched) or touched[k] != touched[k - 1] + 1:
                self.dataChanged.emit(self.index(touched[start], 0), self.index(touched[k - 1], len(COLUMNS) - 1))
                start = k

    def _set_rows(self, tensors: tuple[TensorInfo, ...], same: dict[str, str], order: dict[str, int],
                  changed: set[tuple[str, str]], touched: list[int]) -> None:
        """The rows of ``tensors`` (their cells set where they differ from what is shown); ``touched`` gets the
        rows that changed."""
        for row, info in enumerate(tensors):
            texts = row_texts(info)
            first = same.get(info.name)
            if first is not None:
                texts = (name_text(texts[0], first), *texts[1:])
            self._colors[row] = order.get(first, row) if first is not None else row
            marks = tuple((info.name, column) in changed for column in COLUMNS)
            shown = (info, texts, marks)
            mark = name_mark(info)
            if row < len(self._rows) and self._rows[row][1:] == shown[1:] \
                    and self.item(row, 0).data(_COLOR_KEY) == self._colors[row] \
                    and (self.item(row, 0).data(_MARK_KEY) or "") == mark:
                # What the row shows is its texts, marks and colour: a new snapshot's same-looking row is not
                # repainted (the row keeps the new tensor: a gradient's tooltip is written from it on hover).
                if self._rows[row][0] is not info:
                    self._rows[row] = shown
                continue
            kept = self._rows[row] if row < len(self._rows) else None
            touched.append(row)
            for index, text in enumerate(texts):
                # (A gradient cell's tooltip is written on hover from the row's tensor: a new gradient whose
                # cut text is the same needs nothing set.)
                if kept is not None and kept[1][index] == text and kept[2][index] == marks[index] \
                        and (index != 0 or (self.item(row, 0).data(_COLOR_KEY) == self._colors[row]
                                            and (self.item(row, 0).data(_MARK_KEY) or "") == mark)):
                    continue
                self._set_cell(row, index, info, text, marks[index])
            if kept is None:
                self._rows.append(shown)
            else:
                self._rows[row] = shown

    def _set_cell(self, row: int, column: int, info: TensorInfo, text: str, changed: bool) -> None:
        item = self.item(row, column)
        fresh = item is None
        if fresh:
            item = QStandardItem()
            item.setEditable(False)
            if column == 0:
                item.setFont(self.bold_font())
        if column == 0:
            color = self._colors.get(row, row)
            if fresh or item.data(_COLOR_KEY) != color:
                item.setForeground(QBrush(tensor_color(color)))
                item.setData(color, _COLOR_KEY)
        tip = ""
        if column == 0:
            # A tensor a statement that is not run may have changed: said in words after its name, and why in its
            # tooltip (issue #21, review r21f; the map's band says the same).
            mark = name_mark(info)
            item.setData(text, _NAME_KEY)
            item.setData(mark or None, _MARK_KEY)
            if mark:
                assert info.may_differ is not None
                tip = "\n" + may_differ_tip(info.may_differ, current_language())
                text = text + _MARK_SEPARATOR + mark
        item.setText(text)
        item.setData(text, Qt.ItemDataRole.AccessibleTextRole)
        item.setData(QBrush(CHANGED) if changed else None, Qt.ItemDataRole.BackgroundRole)
        name = COLUMNS[column]
        # A gradient's whole values are written on hover (:meth:`tool_tip`), not at every step: the text of a
        # 32 x 32 gradient is thousands of characters, and a training step's backward() writes six of them.
        item.setToolTip("" if name == "grad" and info.grad is not None else self._tip(name, text) + tip)
        if fresh:
            self.setItem(row, column, item)

    @staticmethod
    def _tip(column: str, text: str) -> str:
        return f"{column}: {text}" + (f"\n{tr_marked(_TIPS[column])}" if column in _TIPS else "")

    def tool_tip(self, index: QModelIndex | QPersistentModelIndex) -> str:
        """The tooltip of the cell at ``index``, as hovering it shows it: its column and whole text (a
        gradient's every value), and what the column means."""
        if not index.isValid() or index.row() >= len(self._rows):
            return ""
        info = self._rows[index.row()][0]
        name = COLUMNS[index.column()]
        if name == "grad" and info.grad is not None:
            return self._tip(name, grad_text(info.grad))
        return str(index.data(Qt.ItemDataRole.ToolTipRole) or "")

    def retranslate(self) -> None:
        """Headers and tooltips in the current language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)
        rows, self._rows = self._rows, []
        for row, (info, texts, marks) in enumerate(rows):
            for column, text in enumerate(texts):
                self._set_cell(row, column, info, text, marks[column])
        self._rows = rows

    def bold_font(self) -> QFont:
        """The font of the name column."""
        if self._bold is None or self._bold[0] != self.font.key():
            font = QFont(self.font)
            font.setBold(True)
            self._bold = (self.font.key(), font)
        return self._bold[1]

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            column = COLUMNS[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return header_text(column)
            if role == Qt.ItemDataRole.AccessibleTextRole:
                return column_header(column, current_language())
            if role == Qt.ItemDataRole.ToolTipRole:
                return column + (f": {tr_marked(_TIPS[column])}" if column in _TIPS else "")
        return None

    def names(self) -> tuple[str, ...]:
        """Every row's name cell text (a cut name keeps what tells it from these)."""
        return tuple(row[1][0] for row in self._rows)

    def shown_texts(self) -> tuple[tuple[str, ...], ...]:
        """Every row's cell texts, as shown (a second name's cell says ``alias.weight is online.weight``)."""
        return tuple(row[1] for row in self._rows)

    def row_of(self, name: str) -> int:
        """The row of tensor ``name``, or -1."""
        return next((i for i, t in enumerate(self.snapshot.tensors) if t.name == name), -1)


class TensorTable(QTableView):
    """The table view; emits the name of the tensor the user selects."""

    selectedTensorChanged = Signal(object)   # str | None

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tensorTable")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Tensors table"))
        self.table_model = TensorTableModel(self)
        self.i18n.on_change(self.table_model.retranslate)
        self.setModel(self.table_model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.name_delegate = _NameDelegate(self)
        self.setItemDelegateForColumn(0, self.name_delegate)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # By pixels, not by columns: the pinned names cover the first column's place, and a column scrolled in
        # by whole columns went under them.
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setMinimumSectionSize(16)
        self.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.selectionModel().selectionChanged.connect(self._emit_selection)
        self._selected: str | None = None
        self._quiet = False
        self.scale, self.shrink, self._refitting = 1.0, 0, False
        self._fitted: tuple[object, ...] | None = None   # what the last fit of a step read (_fit_key)
        self.missing_width = 0
        self._scrolled_for: Snapshot | None = None   # the snapshot whose changed rows were scrolled into view
        # Fits kept by what they read: (the shrink, the sections' sizes, missing_width).
        self._fits: dict[tuple[object, ...], tuple[int, tuple[int, ...], int, bool]] = {}

        self.scrolls = False   # the columns do not fit: the table scrolls sideways, its names pinned
        self.names_view = self._pinned_names()
        self.set_text_scale(1.0)

    def _pinned_names(self) -> QTableView:
        """The name column drawn again over the table's left edge while the table scrolls sideways (Qt's
        frozen-column example): the same model and selection, its rows scrolled with the table's."""
        view = QTableView(self)
        view.setObjectName("tensorTableNames")
        view.setModel(self.table_model)
        view.setSelectionModel(self.selectionModel())
        view.setItemDelegateForColumn(0, _NameDelegate(view))
        view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.verticalHeader().setVisible(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setFrameShape(QTableView.Shape.NoFrame)
        for column in range(1, len(COLUMNS)):
            view.setColumnHidden(column, True)
        self.viewport().stackUnder(view)
        # Rows scrolled together, each way; the names' own range may lag the table's a moment (hidden, or not yet
        # resized): a value it clamps is not sent back (the table's rows went back to the top).
        self._syncing_names = False
        self.verticalScrollBar().valueChanged.connect(self._scroll_names)
        view.verticalScrollBar().valueChanged.connect(
            lambda value: None if self._syncing_names else self.verticalScrollBar().setValue(value))
        self.horizontalHeader().sectionResized.connect(lambda *_: self._place_names())
        view.hide()
        return view

    def _set_scrolls(self, scrolls: bool) -> None:
        """Columns at their readable widths with a sideways scroll bar and the names pinned, or all in view."""
        self.scrolls = scrolls
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if scrolls
                                          else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        if not scrolls:
            self.horizontalScrollBar().setValue(0)
        self._place_names()

    def _place_names(self) -> None:
        """The pinned names over the name column, in the table's fonts and row heights."""
        view = getattr(self, "names_view", None)
        if view is None:
            return
        if not self.scrolls:
            view.hide()
            return
        view.setFont(self.font())
        view.horizontalHeader().setFont(self.horizontalHeader().font())
        view.verticalHeader().setDefaultSectionSize(self.verticalHeader().defaultSectionSize())
        view.horizontalHeader().setFixedHeight(self.horizontalHeader().height())
        view.setColumnWidth(0, self.columnWidth(0))
        frame = self.frameWidth()
        view.setGeometry(frame, frame, self.columnWidth(0),
                         self.viewport().height() + self.horizontalHeader().height())
        view.show()
        self._scroll_names(self.verticalScrollBar().value())

    def _scroll_names(self, value: int) -> None:
        """The pinned names scrolled to the table's rows."""
        self._syncing_names = True
        try:
            self.names_view.verticalScrollBar().setValue(value)
        finally:
            self._syncing_names = False

    def updateGeometries(self) -> None:  # noqa: N802 - Qt's name
        super().updateGeometries()
        self._place_names()

    @property
    def compact(self) -> bool:
        """The table writes smaller than the zoom asks, so that its columns fit."""
        return self.shrink > 0

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Text at ``scale``; rows follow the font."""
        self.scale = scale
        self._set_font(0)

    def _size(self, shrink: int) -> int:
        """The text's pixel size ``shrink`` pixels below the zoom's."""
        return px(base_px(), self.scale) - shrink

    def _most_shrink(self) -> int:
        """How far below the zoom's size the table may write: to the unzoomed size (one pixel under it, not
        zoomed; never below the readable minimum). A narrow panel (a 1024 px window, more so after Ctrl+=)
        writes smaller rather than cut a value to "MulBac…": larger text that hides a value helps nobody."""
        # Zoomed in, never below the unzoomed size: Ctrl+= still makes the table larger (its dock widens).
        floor = px(base_px()) - (0 if self.scale > 1 else 1)
        return max(1, self._size(0) - max(MIN_PX, floor))

    def _set_font(self, shrink: int) -> None:
        self.shrink = shrink
        self.setFont(pixel_font(self._size(shrink)))
        self.table_model.font = self.font()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.fit_columns()

    def height_for_rows(self, rows: int) -> int:
        """The widget height that shows its header and ``rows`` rows without a scroll bar."""
        header = self.horizontalHeader().sizeHint().height()
        bar = self.horizontalScrollBar().sizeHint().height() if self.scrolls else 0
        return header + bar + rows * self.verticalHeader().defaultSectionSize() + 2 * self.frameWidth() + 2

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_columns()
        if event.size().height() != event.oldSize().height():
            self._show_changed_rows()      # the dock's height settles after the step: its rows in view again

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """A gradient cell's tooltip is written when it is hovered (:meth:`TensorTableModel.tool_tip`)."""
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.indexAt(event.pos())
            if index.isValid() and COLUMNS[index.column()] == "grad":
                text = self.table_model.tool_tip(index)
                if text:
                    QToolTip.showText(event.globalPos(), text, self.viewport(), self.visualRect(index))
                    return True
        return super().viewportEvent(event)

    def fit_columns(self) -> None:
        """Every column in view: each as wide as its content where they all fit.

        When they do not, `grad` gives up room first (its values are drawn in the
        Values panel), then the widest columns are cut to a common width and elide.
        """
        header = self.horizontalHeader()
        metrics = header.fontMetrics()
        titles = [max(metrics.horizontalAdvance(line) for line in header_text(c).split("\n")) + 6
                  for c in COLUMNS]
        wanted = [max(self._content_width(c), titles[c]) for c in range(len(COLUMNS))]
        available = self.viewport().width()
        if available <= 0:
            return
        need = sum(wanted)
        size = self._size(self.shrink)
        most = self._most_shrink()
        if self.scrolls and self.shrink == 0:
            # Scrolling at the zoom's size (below): it stays so until the floors fit at this size. Shrinking again
            # instead would make the text smaller after Ctrl+= or a wider dock (16 -> 12 px at 1024x768 projector).
            if self._refitting or not self._floors_fit(wanted, available):
                self.missing_width = 0   # every value whole already, at the zoom's size: no dock to widen
                self._lay_out_scrolling(wanted, available)
                return
            self._set_scrolls(False)
        if need > available and self.shrink < most:
            shrink = self.shrink + 1                   # a pixel smaller, then measured again
        elif self.shrink > 0 and need * (size + 1) / size / 0.92 < 0.95 * available:
            shrink = self.shrink - 1                   # room for a pixel more (a margin: no flicker between two)
        else:
            shrink = self.shrink
        if shrink != self.shrink and not self._refitting:
            self._refit(shrink)
            return
        widths, floor = self._given_grad(wanted, available)
        # What the panel lacks, written as small as it may, to show every value whole (the window widens
        # its dock by as much, where it can).
        self.missing_width = max(0, sum(widths) - available) if self.shrink >= most else 0
        levels = self._floors(widths, floor, available)
        scrolls = self.shrink >= most and not self._floors_fit(wanted, available)
        if scrolls and self.shrink > 0 and not self._refitting:
            # The table scrolls anyway: at the zoom's size, not the smallest (a projector's 18 px, not 12).
            self._set_scrolls(True)
            self._refit(0)
            return
        if scrolls:
            self._lay_out_scrolling(wanted, available)
            return
        if sum(widths) > available:
            # Water-filling: a common cap that the widest columns are cut down to, above each column's floor:
            # the first floors of _floors() that leave every other column its 16 px.
            floors = next((f for f in levels if sum(max(x, 16.0) for x in f) <= available), [0.0] * len(widths))
            low, high = 16.0, float(max(widths))
            for _ in range(30):
                cap = (low + high) / 2
                if sum(max(f, min(w, cap)) for f, w in zip(floors, widths)) > available:
                    high = cap
                else:
                    low = cap
            cut = [int(max(f, min(w, low))) for f, w in zip(floors, widths)]
            # The pixels the rounding left go to the cut columns, grad_fn first (`Sum…` whole, not "Su…").
            spare = available - sum(cut)
            for column in sorted(range(len(cut)), key=lambda c: COLUMNS[c] != "grad_fn"):
                give = min(spare, widths[column] - cut[column])
                if give > 0:
                    cut[column] += give
                    spare -= give
            widths = cut
        else:
            widths[-1] += available - sum(widths)
        for column, width in enumerate(widths):
            header.resizeSection(column, width)
        if self.scrolls:
            self._set_scrolls(False)

    def _refit(self, shrink: int) -> None:
        """The font ``shrink`` pixels below the zoom's, and the columns fitted again in it."""
        self._refitting = True
        try:
            self._set_font(shrink)
        finally:
            self._refitting = False
        self.fit_columns()                          # and again, until it fits or may not shrink more

    def _given_grad(self, wanted: list[int], available: int) -> tuple[list[int], int]:
        """The widths with `grad` given up first where they do not fit, down to its floor (`None` whole, with
        the cell's margins as the delegate lays them out: :meth:`_cell_width`); and that floor."""
        widths = list(wanted)
        grad = COLUMNS.index("grad")
        floor = min(wanted[grad], self._cell_width(self.fontMetrics().horizontalAdvance("None")))
        excess = sum(widths) - available
        if excess > 0:
            widths[grad] = max(floor, wanted[grad] - excess)
        return widths, floor

    def _floors_fit(self, wanted: list[int], available: int) -> bool:
        """Whether the columns fit, if need be cut to one of their floors but the last (each short column
        whole), in the current font."""
        widths, floor = self._given_grad(wanted, available)
        if sum(widths) <= available:
            return True
        return any(sum(max(x, 16.0) for x in f) <= available for f in self._floors(widths, floor, available)[:-1])

    def _lay_out_scrolling(self, wanted: list[int], available: int) -> None:
        """Not even the floors fit (each short column whole): cut to the last floor, every column but the
        names would read "c…" or "T…". The table scrolls sideways instead, each column as wide as its values
        (the names up to their share, the gradient's values up to as much: the Values panel draws them)."""
        widths, floor = self._given_grad(wanted, available)
        levels = self._floors(widths, floor, available)
        grad = COLUMNS.index("grad")
        names = max(levels[1][0], min(wanted[0], NAME_SHARE * available))
        widths = [int(names)] + wanted[1:]
        widths[grad] = int(max(floor, min(wanted[grad], NAME_SHARE * available)))
        header = self.horizontalHeader()
        for column, width in enumerate(widths):
            header.resizeSection(column, width)
        if not self.scrolls:
            self._set_scrolls(True)
        else:
            self._place_names()

    def _floors(self, widths: list[int], grad_floor: int, available: int) -> list[list[float]]:
        """The widths the columns keep when they do not all fit, most generous first.

        The name column keeps its names whole (up to NAME_SHARE of the panel), else each name's shortest
        readable cut (`m…weight`): `mode…` and `mod…` told no tensor from another. The short columns keep
        their values whole (`floa…` is float32 or float64); grad_fn and grad give up the room (both drawn
        whole in their own panels), grad_fn down to `Sum…`, then further before a name is cut to its shortest.
        """
        whole = [0.0 if column in YIELDING else float(w) for column, w in zip(COLUMNS, widths)]
        grad, grad_fn = COLUMNS.index("grad"), COLUMNS.index("grad_fn")
        whole[grad] = float(grad_floor)                                     # `None` whole
        names = (min(widths[0], NAME_SHARE * available), min(widths[0], self._shortest_names()))
        short = min(widths[grad_fn], self._shortest_grad_fn())
        levels = []
        # grad_fn keeps its operation (`Sum…`, `None` whole: "Su…" and "No…" said nothing) before a name is
        # cut, and a cut name still tells its tensor from every other (`n…[0].weight`, `n…[1].weight`).
        for kept, name in ((short, names[0]), (short, names[1]), (0.0, names[0]), (0.0, names[1])):
            level = list(whole)
            level[0], level[grad_fn] = name, kept
            levels.append(level)
        levels.append([names[1]] + [0.0] * (len(widths) - 1))
        return levels

    def _shortest_grad_fn(self) -> float:
        """The width of the grad_fn column at which every cell still shows its operation (`Sum…`) or `None`."""
        column = COLUMNS.index("grad_fn")
        metrics = QFontMetricsF(self.font())
        texts = {row_texts(t)[column] for t in self.table_model.snapshot.tensors}
        widest = max((min(metrics.horizontalAdvance(grad_fn_head(text)), metrics.horizontalAdvance(text))
                      for text in texts), default=0.0)
        return self._cell_width(widest)

    def _cell_width(self, text_width: float) -> int:
        """The narrowest column that draws a text ``text_width`` pixels wide whole: the delegate's text margins
        each side and the grid line (as QStyledItemDelegate lays a cell out; what sizeHintForColumn says)."""
        return int(math.ceil(text_width)) + 2 * _text_margin(self) + 1

    def _shortest_names(self) -> float:
        """The width of the name column at which every name is still cut so that no other name looks the same
        (:func:`elide_name`: `net[0]…` beside `net[1].weight`)."""
        font = self.table_model.bold_font()
        metrics = QFontMetricsF(font)
        texts = list(self.table_model.names())   # without their marks (a mark gives way first: marked_name)
        shortest = []
        for text in texts:
            cuts = [metrics.horizontalAdvance(head + _ELLIPSIS + tail) for head, tail in _cuts(text, tuple(texts))]
            shortest.append(min([metrics.horizontalAdvance(text), *cuts]))
        return math.ceil(max(shortest, default=0.0)) + 2 * _text_margin(self) + 2

    def _content_width(self, column: int) -> int:
        """What sizeHintForColumn says (the widest cell), from cached text widths instead of the delegate."""
        tensors = self.table_model.snapshot.tensors
        if not tensors:
            return 0
        font = self.table_model.bold_font() if COLUMNS[column] == "name" else self.font()
        key = font.key()
        widest = max(_advance(row_texts(t)[column] + (_MARK_SEPARATOR + name_mark(t) if column == 0 and
                                                      t.may_differ is not None else ""), key, font) for t in tensors)
        return self._cell_width(widest)

    def shown_name(self, row: int) -> str:
        """The text the name cell of ``row`` draws, cut as its delegate cuts it (for tests)."""
        index = self.table_model.index(row, 0)
        width = self.visualRect(index).width() - 2 * _text_margin(self)
        metrics = QFontMetricsF(self.table_model.bold_font())
        name, mark = index.data(_NAME_KEY), index.data(_MARK_KEY)
        if isinstance(name, str) and mark:
            return marked_name(name, str(mark), metrics, width, self.table_model.names())
        return elide_name(str(index.data()), metrics, width, self.table_model.names())

    def shown_cell(self, row: int, column: int) -> str:
        """The text the cell at ``row``, ``column`` draws, elided as the view elides it (for tests)."""
        if column == 0:
            return self.shown_name(row)
        index = self.table_model.index(row, column)
        width = self.visualRect(index).width() - 2 * _text_margin(self)
        return QFontMetricsF(self.font()).elidedText(str(index.data()), self.textElideMode(), width)

    def column_fits(self, column: int) -> bool:
        """True when every value of ``column`` is shown whole (for tests)."""
        return self.columnWidth(column) >= self.sizeHintForColumn(column)

    @property
    def selected(self) -> str | None:
        """The name of the selected tensor."""
        return self._selected

    def render_view(self, view: View) -> None:
        """Show the view's tensors, its selected one selected."""
        self.set_snapshot(view.state.snapshot, view.state.previous_snapshot, view.selected)

    @contained
    def set_snapshot(self, snapshot: Snapshot, previous: Snapshot, select: str | None = None) -> None:
        """Show ``snapshot`` with ``select`` selected (without signalling: the window asked for it)."""
        self.table_model.set_snapshot(snapshot, previous)
        self._quiet = True
        try:
            self.select_name(select, signal=False)
        finally:
            self._quiet = False
        self._fit_for_snapshot()
        if snapshot is not self._scrolled_for:
            # Once a step (not at a new selection: a click scrolled the rows under the mouse), once fitted (a fit
            # may change the font, and so the rows' height).
            self._scrolled_for = snapshot
            self._show_changed_rows()

    def _fit_for_snapshot(self) -> None:
        """The columns fitted to the new snapshot, where what the fit reads changed."""
        # Fitted again only when what the fit reads changed: a step changes a version or a gradient's values,
        # and seldom the widest text of a column; a column the learner widened by hand is fitted again as
        # before (the sections' sizes are part of what it read).
        key = self._fit_key()
        if key != self._fitted:
            # A fit is what its key reads (and the set of grad_fn texts, which its floors read): stepping back and
            # forth shows the same few states again, and their fits are kept (unless the fit changed the font).
            column = COLUMNS.index("grad_fn")
            memo_key = (key, frozenset(row_texts(t)[column] for t in self.table_model.snapshot.tensors))
            kept = self._fits.get(memo_key)
            header = self.horizontalHeader()
            if kept is not None and kept[0] == self.shrink:
                for section, width in enumerate(kept[1]):
                    header.resizeSection(section, width)
                self.missing_width = kept[2]
                if kept[3] != self.scrolls:
                    self._set_scrolls(kept[3])
            else:
                shrink = self.shrink
                self.fit_columns()
                if self.shrink != shrink:   # a new font: every width measured again
                    self._fitted = self._fit_key()
                    return
                if len(self._fits) > FITS_KEPT:
                    self._fits.clear()
                self._fits[memo_key] = (shrink, tuple(header.sectionSize(c) for c in range(len(COLUMNS))),
                                        self.missing_width, self.scrolls)
            # The same fonts: what the fit read is as before but the room and the sections' sizes (as _fit_key).
            self._fitted = (*key[:2], self.viewport().width(), *key[3:-1],
                            tuple(header.sectionSize(c) for c in range(len(COLUMNS))))

    def _show_changed_rows(self) -> None:
        """The rows the step changed scrolled into view, as many as fit with the selected row kept in view: a new
        tensor's row at the bottom of a full table was a sliver under the last whole row (1920x1080)."""
        model = self.table_model
        rows = sorted({model.row_of(name) for name, _ in model.changed} - {-1})
        if not rows or len(rows) == model.rowCount():
            return                      # a first state, or every row new: the top, as before
        self._scroll_to_row(rows[-1])
        self._scroll_to_row(rows[0])
        selected = model.row_of(self._selected) if self._selected is not None else -1
        if selected >= 0:
            self._scroll_to_row(selected)

    def _fit_key(self) -> tuple[object, ...]:
        """What :meth:`fit_columns` reads: each column's widest text, the names shown, the room, the fonts and
        the text size, the language (the headers), the sections' sizes."""
        header = self.horizontalHeader()
        return (tuple(self._content_width(c) for c in range(len(COLUMNS))),
                tuple(texts[0] for texts in self.table_model.shown_texts()),
                self.viewport().width(), self.font().key(), header.font().key(), self.shrink, self.scale,
                current_language(), tuple(header.sectionSize(c) for c in range(len(COLUMNS))))

    def select_name(self, name: str | None, signal: bool = True) -> None:
        """Select the row of ``name`` (None clears the selection)."""
        row = -1 if name is None else self.table_model.row_of(name)
        if row < 0:
            self.clearSelection()
            self._set_selected(None, signal)
            return
        self.selectionModel().select(
            self.table_model.index(row, 0),
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        self._scroll_to_row(row)
        self._set_selected(name, signal)

    def currentChanged(self, current: QModelIndex | QPersistentModelIndex,  # noqa: N802 - Qt's name
                       previous: QModelIndex | QPersistentModelIndex) -> None:
        """The view scrolls to a new current cell (Qt's autoScroll), up and down only while it scrolls sideways:
        a click on a pinned name makes its column-0 cell current, and the table jumped back to its left edge."""
        sideways = self.horizontalScrollBar().value()
        super().currentChanged(current, previous)
        if getattr(self, "scrolls", False):   # (Qt calls it while the view is being built)
            self.horizontalScrollBar().setValue(sideways)

    def _scroll_to_row(self, row: int) -> None:
        """Row ``row`` in view, up and down only: while the table scrolls sideways its names are pinned, and
        scrolling to the name column jumped the table back to its left edge (a click on a pinned name did)."""
        sideways = self.horizontalScrollBar().value()
        self.scrollTo(self.table_model.index(row, 0))
        self.horizontalScrollBar().setValue(sideways)

    def _emit_selection(self, *_: object) -> None:
        if self._quiet:
            return
        rows = self.selectionModel().selectedRows()
        name = self.table_model.snapshot.tensors[rows[0].row()].name if rows else None
        self._set_selected(name)

    def _set_selected(self, name: str | None, signal: bool = True) -> None:
        if name != self._selected:
            self._selected = name
            if signal:
                self.selectedTensorChanged.emit(name)

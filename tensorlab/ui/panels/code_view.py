"""The program so far: every step's code, the current line marked and kept in view.

A click anywhere on a line goes to the state after it. Steps you added are marked
"yours"; Delete (or the context menu) removes one. An opened ``.py`` or notebook's statements that
TensorLab does not run (``Lesson.refused``) are lines of their own in their places, greyed, marked
``⊘`` with their own place in the file ("line 31 of the file", "cell 3, line 2": the reasons name lines so)
and followed by the reason in words (also their tooltip); they are never a position. A long one shows its
first lines whole and counts the rest ("… 9 more lines"); a click shows it whole, another click less.
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from tensorlab.core.engine.player import PlayerState, StepOrigin
from tensorlab.core.lessons.lesson import RefusedStep
from tensorlab.core.lessons.source_import import shown_code
from tensorlab.core.messages.catalogue import render
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language, tr
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.text_zoom import MIN_PX, mono_font, px

__all__ = ["CodeView", "wrap_code", "break_points", "shown_statement"]

_ROLE = Qt.ItemDataRole.UserRole      # (marker, number, code, yours, ran, current, failed)
# A refused statement's row: (where in the file, code shown, "… N more lines" or "", "not run: reason").
_REFUSED_ROLE = Qt.ItemDataRole.UserRole + 1


_OPERATORS = set("=+-*/@%<>&|^~!")


def break_points(line: str, upto: int | None = None, keep_short: bool = True) -> tuple[list[int], ...]:
    """Where ``line`` may wrap, as the lengths of the part kept on the first line, best first (only those
    before ``upto`` characters; what follows is read only to see what a bracket or a dot belongs to).

    Best: after a space or a comma. Then after an operator written without spaces (never between the
    two characters of ``**``, ``==``, ``+=``) or an opening bracket. Then *before* the dot of a method call
    (``(n * n).sum()`` / ``.backward()``, as chained calls are written; not before an attribute:
    ``model[0]`` / ``.weight``). Then inside a bracket of up to :data:`SHORT_STATEMENT` characters
    (``(w * w)``, never split while a break outside it will do). Last, inside a short subscript or call
    (``model[`` / ``0]`` reads as two names). Never inside a name, a number or a string, and never after a
    dot (``x.`` / ``detach()`` reads as two statements).
    """
    limit = len(line) - 1 if upto is None else min(upto, len(line) - 1)
    preferred: list[int] = []
    brackets: list[int] = []
    dots: list[int] = []
    inside: list[int] = []
    # A subscript or a call with a short inside reads as one name (`model[0].weight`, `net(x)`). Such a
    # pair closes within a few characters of opening: the look-ahead past ``limit`` is bounded.
    tight = _tight_spans(line[:limit + 2 * TIGHT_INSIDE + 4])
    # A short bracket (`(w * w)`, `[1.0, 2.0]`) reads as one piece: broken into only where nothing outside it
    # will do (review r17o 1: `(w *` / `w).sum()` / `.backward()`).
    short = _tight_spans(line[:limit + SHORT_STATEMENT + 4], SHORT_STATEMENT, attached_only=False) if keep_short \
        else []
    nested: list[int] = []
    quote = ""
    for i in range(limit):
        char = line[i]
        if quote:
            if char == quote and (i == 0 or line[i - 1] != "\\"):
                quote = ""
            continue
        if char in "'\"":
            quote = char
            continue
        after = line[i + 1]
        held = any(start <= i < end for start, end in tight)
        in_short = any(start <= i < end for start, end in short)
        if char in " ,":
            (inside if held else nested if in_short else preferred).append(i + 1)
        elif (char in _OPERATORS and after not in _OPERATORS) or (char in "([{" and after not in ")]}"):
            # An operator written without spaces binds tighter (`requires_grad=True`): only where no
            # space or comma will do.
            (inside if held else nested if in_short else brackets).append(i + 1)
        if after == "." and i + 2 < len(line) and not line[i + 2].isdigit() and not char.isdigit() and not held:
            # Before a method call only: `model[0]` / `.weight` splits what reads as one name.
            end = i + 2
            while end < min(len(line), i + 80) and _is_name_char(line[end]):
                end += 1
            if end >= min(len(line), i + 80) or line[end] == "(":
                dots.append(i + 1)
    return preferred, brackets, dots, nested, inside


TIGHT_INSIDE = 6   # a bracket whose content is at most this many characters is never broken into


def _tight_spans(line: str, most: int = TIGHT_INSIDE, attached_only: bool = True) -> list[tuple[int, int]]:
    """(opening bracket, its closing bracket) of each bracket pair right after a name or a closing bracket
    (a subscript or a call; any pair where not ``attached_only``) whose content has at most ``most``
    characters, strings aside."""
    spans: list[tuple[int, int]] = []
    stack: list[int] = []
    quote = ""
    for i, char in enumerate(line):
        if quote:
            if char == quote and line[i - 1] != "\\":
                quote = ""
            continue
        if char in "'\"":
            quote = char
        elif char in "([":
            stack.append(i)
        elif char in ")]" and stack:
            start = stack.pop()
            attached = start > 0 and (_is_name_char(line[start - 1]) or line[start - 1] in ")]")
            if (attached or not attached_only) and i - start - 1 <= most:
                spans.append((start, i))
    return spans


def _is_name_char(char: str) -> bool:
    return char.isalnum() or char == "_"


FIT_FLOOR = 0.8   # the Code panel's font shrinks to fit a short statement, to no less than this share of its size
SHORT_STATEMENT = 20   # a statement of up to this many characters, its indentation aside, never wraps where it fits


def wrap_code(code: str, metrics: QFontMetrics, width: int) -> list[str]:
    """``code`` in lines no wider than ``width``, broken only between tokens (see :func:`break_points`);
    continued lines are indented. A statement of up to :data:`SHORT_STATEMENT` characters (without its
    indentation) is never broken where it fits (the layout gives it the room in projector mode at 1024x768);
    where it does not (a zoomed narrow panel) it wraps like any other, since a cut line hides code. Only a
    single name wider than ``width`` is ever cut.

    Near-linear in ``code``'s length: each cut measures and scans only the part that can fit (no
    character is narrower than a pixel), never the whole rest of the line (a pasted 80 KB data literal
    was measured again for every piece cut off it, and froze the window)."""
    lines: list[str] = []
    # A continued line is indented, less so in a narrow panel (where `requires_grad=` must still fit).
    indent = "    " if width >= metrics.horizontalAdvance("x" * 24) else "  "
    cap = max(width, 1) + 1   # more characters than this never fit in `width` pixels
    for line in code.split("\n"):
        if len(line.strip()) <= SHORT_STATEMENT and (len(line) <= cap and metrics.horizontalAdvance(line) <= width):
            lines.append(line)   # a short statement that fits reads whole
            continue
        # A line of a block (`        return self.fc2(...)`) continues under itself, indented further, where
        # that leaves room for a dozen characters; else as a statement's.
        lead = line[:len(line) - len(line.lstrip())]
        continued = lead + indent if metrics.horizontalAdvance(lead + indent + "x" * 12) <= width else indent
        pieces = _wrap_line(line, metrics, width, cap, continued, keep_short=True)
        if len(line) <= KEEP_SHORT_UPTO:
            # A short bracket kept whole may cost a line (`z =` / `(x * 2 + y ** 2)` / `.sum()`): then broken into.
            plain = _wrap_line(line, metrics, width, cap, continued, keep_short=False)
            pieces = pieces if len(pieces) <= len(plain) else plain
        lines.extend(pieces)
    return lines


KEEP_SHORT_UPTO = 200   # a line up to this long is wrapped twice: does keeping its short brackets cost a line?


def _wrap_line(line: str, metrics: QFontMetrics, width: int, cap: int, continued: str,
               keep_short: bool) -> list[str]:
    """One line of code wrapped as :func:`wrap_code` says (``keep_short``: a short bracket broken into last)."""
    lines: list[str] = []
    while (len(line) > cap or metrics.horizontalAdvance(line) > width) and len(line.strip()) > 8:
        window = line[:cap]
        # The longest prefix that fits, by bisection (advance grows with the prefix).
        low, high = 1, len(window)
        while low < high:
            middle = (low + high + 1) // 2
            if metrics.horizontalAdvance(window[:middle]) > width:
                high = middle - 1
            else:
                low = middle
        fits = low
        head = len(line) - len(line.lstrip())   # never break inside a continued line's indent
        # break_points looks two characters ahead: the window and two more decide every cut <= fits.
        cut = next((c for group in break_points(line, fits + 2, keep_short)
                    for c in reversed(group) if head < c <= fits and line[:c].strip()), fits)
        lines.append(line[:cut].rstrip())
        rest = line[cut:].lstrip()
        if not rest:
            return lines
        line = continued + rest
    lines.append(line)
    return lines


SHOWN_LINES = 12           # a refused statement of up to this many lines is shown whole, ...
SHOWN_CHARACTERS = 200     # ... each line up to this many characters (a learner's file may hold a 600 KB literal)
WHOLE_LINES = 400          # shown whole (after a click): at most this many lines, ...
WHOLE_LINE_CHARACTERS = 5_000   # ... this many characters a line ...
WHOLE_CHARACTERS = 20_000       # ... and this many in all; the rest is counted, never measured


def shown_statement(code: str, whole: bool = False) -> tuple[str, int]:
    """A refused statement's text as the Code panel shows it, and how many of its lines it leaves out.

    Cut *before* anything is wrapped or measured, and only between lines: a statement of up to
    :data:`SHOWN_LINES` lines is shown whole; a longer one (a ``class``, a loop's body) shows its first lines
    and counts the rest, never a statement cut in its middle. Only a line longer than :data:`SHOWN_CHARACTERS`
    (a data literal) is cut itself, "… (N more characters)". ``whole``: as a click shows it, up to
    :data:`WHOLE_LINES` lines of :data:`WHOLE_LINE_CHARACTERS` characters, :data:`WHOLE_CHARACTERS` in all.
    """
    most_lines, most_characters = (WHOLE_LINES, WHOLE_LINE_CHARACTERS) if whole else (SHOWN_LINES, SHOWN_CHARACTERS)
    total = code.count("\n") + 1
    # Over the limit, a few lines fewer: "… 1 more lines" would hide less than it says.
    keep = total if total <= most_lines else most_lines - 2
    shown: list[str] = []
    size = 0
    for line in code.split("\n", keep)[:keep]:
        if whole and shown and size + len(line) > WHOLE_CHARACTERS:
            break
        if len(line) > most_characters:
            more = render("source.more_characters", {"count": len(line) - most_characters}, current_language())
            line = f"{line[:most_characters].rstrip()} {more}"
        shown.append(line)
        size += len(line)
    return "\n".join(shown), total - len(shown)


_FAILED, _MARKER, _NUMBER = QColor("#c62828"), QColor("#f57f17"), QColor("#9e9e9e")
_RAN, _NOT_RAN, _YOURS = QColor("#000000"), QColor("#8a8a8a"), QColor("#6a1b9a")
_REFUSED, _REFUSED_REASON = QColor("#9e9e9e"), QColor("#5f5f5f")


class _Fonts:
    """A line's font, its bold, the margin's smaller font, and their metrics.

    The margins (marker and number on the left, "(yours)" on the right) are in a smaller font:
    at a projector's code size they would otherwise take the room a statement needs.
    """

    __slots__ = ("metrics", "bold", "bold_metrics", "margin", "margin_metrics", "marker_width", "indent", "label",
                 "label_metrics")

    def __init__(self, font: QFont) -> None:
        self.metrics = QFontMetrics(font)
        self.bold = QFont(font)
        self.bold.setBold(True)
        self.bold_metrics = QFontMetrics(self.bold)
        self.margin = QFont(font)
        self.margin.setPixelSize(max(MIN_PX, round(font.pixelSize() * 0.6)))
        self.margin_metrics = QFontMetrics(self.margin)
        # A refused row's place in the file, on a line of its own: larger than the margin's digits (a learner
        # looks for "line 31" by eye, on a projector too), smaller than the code it labels.
        self.label = QFont(font)
        self.label.setPixelSize(max(MIN_PX, round(font.pixelSize() * 0.8)))
        self.label_metrics = QFontMetrics(self.label)
        self.marker_width = self.margin_metrics.horizontalAdvance("▶✗")
        self.indent = 4 + self.marker_width + self.margin_metrics.horizontalAdvance(" 000") + 6

    def yours_width(self) -> int:
        """The right margin a step of yours keeps for its mark."""
        return self.margin_metrics.horizontalAdvance(tr("(yours)")) + 8


# A line's row: marker, number, code, yours, ran, current, failed.
_Row = tuple[str, int, str, bool, bool, bool, bool]
# A refused statement's row: where it is in the file, its code as shown, "… N more lines" (or ""), its reason;
# and that laid out: the margin's line(s), the code's, the count's and the reason's.
_RefusedRow = tuple[str, str, str, str]
_RefusedLayout = tuple[list[str], list[str], list[str], list[str]]


class _LineDelegate(QStyledItemDelegate):
    """Paints a line: marker, number, code (bold when current, grey before it runs), "yours".

    Code wider than the panel wraps, so nothing is cut at a projector's text size.
    """

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self.view = view
        self._layouts: dict[tuple[object, ...], tuple[int, list[str]]] = {}
        # (font key, code, yours, width) -> a line's height: the list asks every row's size again and again (a
        # paint, each visualItemRect of finding the row at an edge), about 25 times a step.
        self._heights: dict[tuple[object, ...], int] = {}
        self._refused_layouts: dict[tuple[object, ...], _RefusedLayout] = {}
        self._font_sets: dict[str, _Fonts] = {}
        self._pictures: dict[tuple[object, ...], QPixmap] = {}

    def _layout(self, font: QFont, code: str, yours: bool) -> tuple[int, list[str]]:
        # Wrapping measures text again and again: a line's layout is kept for its font and width.
        key = (font.key(), code, yours, self.view.viewport().width())
        layout = self._layouts.get(key)
        if layout is None:
            if len(self._layouts) > 2000:
                self._layouts.clear()
            layout = self._layouts[key] = self._wrap(font, code, yours)
        return layout

    def _wrap(self, font: QFont, code: str, yours: bool) -> tuple[int, list[str]]:
        fonts = self._fonts(font)
        indent = fonts.indent
        room = self.view.viewport().width() - indent - 4
        if yours:
            room -= fonts.yours_width()   # the mark sits in the right margin, beside every line of the step
        # The panel's real room: wrapped to a floor wider than the panel, lines were cut at its edge (Ctrl+=).
        return indent, wrap_code(code, fonts.bold_metrics, max(room, fonts.metrics.horizontalAdvance("x" * 6)))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        # A line is drawn once into a picture and copied at every later paint (a step repaints the
        # panel, and most of its lines look as they did).
        refused = index.data(_REFUSED_ROLE)
        if refused is not None:
            self._paint_refused(painter, option, refused)
            return
        row = self.view.live_row(index.row()) if isinstance(self.view, CodeView) else None
        if row is None:
            row = index.data(_ROLE)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        ratio = painter.device().devicePixelRatioF()
        key = (row, selected, option.rect.width(), option.rect.height(), option.font.key(), ratio, tr("(yours)"))
        picture = self._pictures.get(key)
        if picture is None:
            if len(self._pictures) > 1000:
                self._pictures.clear()
            picture = QPixmap(QSize(option.rect.width(), option.rect.height()) * ratio)
            picture.setDevicePixelRatio(ratio)
            picture.fill(option.palette.color(QPalette.ColorRole.Base))
            drawn = QPainter(picture)
            try:
                self._draw(drawn, QRect(0, 0, option.rect.width(), option.rect.height()), option.font, row,
                           selected)
            finally:
                drawn.end()
            self._pictures[key] = picture
        painter.drawPixmap(option.rect.topLeft(), picture)

    def _draw(self, painter: QPainter, rect: QRect, font: QFont, row: _Row, selected: bool) -> None:
        marker, number, code, yours, ran, current, failed = row
        painter.save()
        if selected:
            painter.fillRect(rect, QColor("#cfe3f7"))
        elif current:
            painter.fillRect(rect, QColor("#fff3c4"))
        fonts = self._fonts(font)
        metrics = fonts.metrics
        indent, lines = self._layout(font, code, yours)
        x = rect.left() + 4
        y = rect.top() + 3 + metrics.ascent()
        # The margin's text on the code's first baseline, in its smaller font.
        painter.setFont(fonts.margin)
        painter.setPen(_FAILED if failed else _MARKER)
        painter.drawText(x, y, marker)
        painter.setPen(_NUMBER)
        painter.drawText(x + fonts.marker_width, y, f"{number:>3}" if number else "")
        if yours:
            painter.setPen(_YOURS)
            mark = tr("(yours)")
            painter.drawText(rect.right() - 4 - fonts.margin_metrics.horizontalAdvance(mark), y, mark)
        x = rect.left() + indent
        painter.setFont(fonts.bold if current else font)
        painter.setPen(_RAN if ran else _NOT_RAN)
        for i, line in enumerate(lines):
            painter.drawText(x, y + i * metrics.height(), line)
        painter.restore()

    def refused_layout(self, font: QFont, refused: _RefusedRow) -> _RefusedLayout:
        """A refused row's place in the file (its margin line, ``⊘ line 31 of the file``), its code, its
        "… N more lines" and its reason, each wrapped to the panel's width."""
        fonts = self._fonts(font)
        width = self.view.viewport().width()
        room = max(width - fonts.indent - 4, fonts.metrics.horizontalAdvance("x" * 18))
        key = (font.key(), refused, width)
        layout = self._refused_layouts.get(key)
        if layout is None:
            if len(self._refused_layouts) > 500:
                self._refused_layouts.clear()
            where, code, more, reason = refused
            # The label starts at the ⊘, in a smaller font, on a line of its own above the code: "cell 12,
            # line 34" does not fit the margin's three digits of a step number, and is never cut.
            head = wrap_code(f"⊘ {where}", fonts.label_metrics, max(width - 8, fonts.marker_width))
            layout = self._refused_layouts[key] = (head, wrap_code(code, fonts.metrics, room),
                                                   wrap_code(more, fonts.metrics, room) if more else [],
                                                   wrap_code(reason, fonts.metrics, room))
        return layout

    def _refused_height(self, font: QFont, refused: _RefusedRow) -> int:
        head, code, more, reason = self.refused_layout(font, refused)
        fonts = self._fonts(font)
        return fonts.label_metrics.height() * len(head) + fonts.metrics.height() * (len(code) + len(more)
                                                                                     + len(reason)) + 6

    def _paint_refused(self, painter: QPainter, option: QStyleOptionViewItem, refused: _RefusedRow) -> None:
        # Greyed, and said in words: the ⊘ mark with its place in the file, and "not run: <reason>" under the
        # code (not colour alone).
        fonts = self._fonts(option.font)
        head, code, more, reason = self.refused_layout(option.font, refused)
        rect = option.rect
        painter.save()
        painter.fillRect(rect, QColor("#f3f3f3"))
        y = rect.top() + 3 + fonts.label_metrics.ascent()
        painter.setFont(fonts.label)
        painter.setPen(_REFUSED_REASON)
        for line in head:
            painter.drawText(rect.left() + 4, y, line)
            y += fonts.label_metrics.height()
        y += fonts.metrics.ascent() - fonts.label_metrics.ascent()
        x = rect.left() + fonts.indent
        italic = QFont(option.font)
        italic.setItalic(True)
        painter.setFont(italic)
        painter.setPen(_REFUSED)
        for line in code:
            painter.drawText(x, y, line)
            y += fonts.metrics.height()
        painter.setFont(option.font)          # "… 9 more lines (click to show them)" and the reason: not code
        painter.setPen(_REFUSED_REASON)
        for line in more + reason:
            painter.drawText(x, y, line)
            y += fonts.metrics.height()
        painter.restore()

    def _fonts(self, font: QFont) -> _Fonts:
        # A paint asks for the same metrics line after line: made once per font.
        key = font.key()
        fonts = self._font_sets.get(key)
        if fonts is None:
            fonts = self._font_sets[key] = _Fonts(font)
        return fonts

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        refused = index.data(_REFUSED_ROLE)
        if refused is not None:
            return QSize(self.view.viewport().width() - 4, self._refused_height(option.font, refused))
        marker, number, code, yours, *_ = index.data(_ROLE)
        width = self.view.viewport().width()
        key = (option.font.key(), code, yours, width)
        height = self._heights.get(key)
        if height is None:
            metrics = self._fonts(option.font).metrics
            _, lines = self._layout(option.font, code, yours)
            if len(self._heights) > 2000:
                self._heights.clear()
            height = self._heights[key] = metrics.height() * len(lines) + 6
        return QSize(width - 4, height)


class CodeView(QListWidget):
    """The program as code; click a line to go to the state after it."""

    positionRequested = Signal(int)
    removeRequested = Signal(int)     # program index of a step you added

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeView")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Code of the program so far"))
        self.i18n.on_change(lambda: setattr(self, "_steps", ()))   # tooltips in the new language
        self.setItemDelegate(_LineDelegate(self))
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self.itemClicked.connect(self._clicked)
        self.lines: list[str] = []
        self._refused_rows: dict[int, RefusedStep] = {}   # list row -> the refused statement it shows
        self._whole: set[tuple[int, int]] = set()   # (cell, line) of the refused statements a click shows whole
        self._list_rows: list[int] = []      # program index -> its row in the list (refused lines between)
        self._refused_key: tuple[object, ...] = ()
        # The rows as toPlainText says them: a program index, or (a refused statement's) list row as a 1-tuple.
        self._plain: list[int | tuple[int]] = []
        self._rows: list[_Row] = []
        self._live: dict[int, _Row] = {}   # list row -> its marks now, where they changed after its item was made
        self._steps: tuple[object, ...] = ()
        self._line_lengths: list[int] = []   # the program's short lines' lengths (what the font fits: _fit_font)
        self._shown: int | None = None       # steps shown while a question is open (show_state), None: all
        self.user_steps: tuple[int, ...] = ()
        self.position = 0
        # (The cover's top as last painted, and the viewport's size and font it was measured at: paintEvent.)
        self._painted_cover: tuple[int | None, tuple[object, ...]] | None = None
        self.set_text_scale(1.0)

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Code at 13 px × ``scale`` (24 px and more in projector mode), smaller where the panel is too narrow for
        a statement of :data:`SHORT_STATEMENT` characters (see :meth:`_fit_font`)."""
        self._scale = scale
        self._fit_font()

    def _fit_font(self) -> None:
        """The code's font at its scale's size or, where a :data:`SHORT_STATEMENT`-character statement would not
        fit the panel on one line at that size, the largest size at which it does, never under
        :data:`FIT_FLOOR` of the scale's size (review r17o 1: at 1024x768 projector under X, a 350 px panel
        wrapped `x = torch.arange(6.)` as `x =` / `torch.arange(6.)`)."""
        size = px(12, self._scale)
        floor = max(MIN_PX, round(size * FIT_FLOOR))
        # The room with a scroll bar shown, whether or not one is: a smaller font that hid the bar must not make
        # the room wider (and the font larger again).
        room = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        # The longest line of the program that fits the panel at the floor size (`with torch.no_grad():`, 21
        # characters, wrapped at 1024x768 projector: review r17o item 4), else a 20-character statement.
        least = _Fonts(mono_font(floor))
        fit_chars = (room - least.indent - 6) // max(1, least.bold_metrics.horizontalAdvance("x"))
        chars = max([SHORT_STATEMENT, *(n for n in self._line_lengths if n <= fit_chars)])
        font = mono_font(size)
        while size > floor and room > 0 and self._short_width(font, chars) > room:
            size -= 1
            font = mono_font(size)
        if font.key() == self.font().key() and getattr(self, "_fitted", False):
            return
        self._fitted = True
        self.setFont(font)
        self._steps = ()    # laid out again at the new size
        self.scheduleDelayedItemsLayout()
        self.follow()

    @staticmethod
    def _short_width(font: QFont, chars: int = SHORT_STATEMENT) -> int:
        """The row width a line of ``chars`` characters needs in ``font`` (margins included)."""
        fonts = _Fonts(font)
        return fonts.indent + 4 + fonts.bold_metrics.horizontalAdvance("x" * chars) + 2

    def render_view(self, view: View) -> None:
        """Show the view's player state (while a question is open, up to the asked step: ``view.held``)."""
        asked = view.state.position if view.held.later_code and view.state.position < len(view.state.program) \
            else None
        self.show_state(view.state, None if asked is None else asked + 1)

    @contained
    def show_state(self, state: PlayerState, shown: int | None = None) -> None:
        """Render the program of ``state`` with the last line run marked and in view.

        ``shown``: only the first ``shown`` steps (and the refused lines among them), then one muted line saying
        the rest comes once the question is answered; None: every step."""
        self.user_steps = state.user_steps
        self.position = state.position
        if shown is not None and shown >= len(state.program):
            shown = None
        rows = [self._row(state, i) for i in range(len(state.program))]
        refused = state.lesson.refused if state.lesson is not None else ()
        refused_key = (refused, current_language())
        same = (len(state.program) == len(self._steps) and all(a is b for a, b in zip(state.program, self._steps))
                and rows and refused_key == self._refused_key and shown == self._shown
                and self.count() == len(self._plain) + (shown is not None))
        if same:
            # The same program: only the lines whose marks changed (the old and the new current one) repaint.
            # Their marks are kept here, not in the items: a change of any item's data makes the list lay every
            # row out again (a sizeHint per line, each step), and marks change no line's height.
            for i, row in enumerate(rows[:len(self._list_rows)]):
                if row != self._rows[i]:
                    list_row = self._list_rows[i]
                    self._live[list_row] = row
                    self.viewport().update(self.visualItemRect(self.item(list_row)))
        else:
            if not self._refused_key or refused != self._refused_key[0]:
                self._whole = set()   # another file: its statements start short
            self._shown = shown
            self._rebuild(state, rows, refused)
            self._refused_key = refused_key
            # Each line's length (up to a short statement's few dozen characters): the font fits the longest
            # that a readable size can keep on one line.
            lengths = sorted({len(line.rstrip()) for step in state.program for line in step.code.split("\n")
                              if len(line.rstrip()) <= 60})
            if lengths != self._line_lengths:
                self._line_lengths = lengths
                self._fit_font()
        self._rows, self._steps = rows, tuple(state.program)
        self.lines = [("▶ " if r[5] else "") + ("✗ " if r[6] else "") + r[2] for r in rows[:len(self._list_rows)]]
        self.follow()

    @staticmethod
    def _row(state: PlayerState, i: int) -> _Row:
        step = state.program[i]
        ran = i < state.position
        current = i == state.position - 1
        failed = ran and not state.results[i].ok
        marker = ("▶" if current else "") + ("✗" if failed else "")
        # Its first lines where it is long (a 300,000-line statement of a file), as the Narration cuts it.
        code = shown_code(step.code, current_language())
        return (marker, i + 1, code, step.origin == StepOrigin.USER, ran, current, failed)

    @staticmethod
    def _placed(state: PlayerState, refused: tuple[RefusedStep, ...]) -> list[int | RefusedStep]:
        """The program's indices with the refused statements in their places: a refused one that follows
        the lesson's k-th step comes just before its (k+1)-th (after the steps you added after the k-th)."""
        waiting = list(refused)
        placed: list[int | RefusedStep] = []
        lesson_steps = 0
        for i, step in enumerate(state.program):
            if step.origin != StepOrigin.USER:
                while waiting and waiting[0].after <= lesson_steps:
                    placed.append(waiting.pop(0))
                lesson_steps += 1
            placed.append(i)
        return placed + waiting

    def _refused_item(self, step: RefusedStep) -> QListWidgetItem:
        item = QListWidgetItem()
        self._show_refused(item, step)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)   # hover shows why; never selected, never a position
        return item

    @property
    def refused_lines(self) -> list[str]:
        """Each refused statement's row as text: "[line 4 of the file] ⊘ code — not run: reason"."""
        return [self._refused_text(self.item(row)) for row in sorted(self._refused_rows)]

    @staticmethod
    def _refused_text(item: QListWidgetItem) -> str:
        """A refused row as text (toPlainText): where it is in the file, as the transcript says it, then the row."""
        where, code, _more, reason = item.data(_REFUSED_ROLE)
        return f"[{where}] ⊘ {code} — {reason}"

    def _show_refused(self, item: QListWidgetItem, step: RefusedStep) -> None:
        """``item`` as the row of ``step``: shown whole when a click asked for it, else its first lines."""
        language = current_language()
        reason = render("source.not_run", {"reason": step.reason}, language)
        # Its own place, from the fields the step carries (the reasons of other rows name it so).
        where = render("source.cell_line", {"cell": step.cell, "line": step.line}, language) if step.cell else \
            render("source.line", {"line": step.line}, language)
        whole = (step.cell, step.line) in self._whole
        code, left_out = shown_statement(step.code, whole)   # bounded before any wrapping or measuring
        expandable = shown_statement(step.code) != shown_statement(step.code, True)
        if not expandable:
            more = ""
        elif whole:
            more = render("source.lines_not_shown", {"count": left_out}, language) if left_out else \
                render("source.show_less", {}, language)
        else:
            more = render("source.more_lines", {"count": left_out}, language) if left_out else \
                render("source.show_whole", {}, language)
        item.setData(_REFUSED_ROLE, (where, code, more, reason))
        item.setData(Qt.ItemDataRole.AccessibleTextRole, f"⊘ {where}: {code}: {reason}")
        # Its own note, never another step's.
        item.setToolTip(reason + (f"\n\n{step.note}" if step.note else "") + (f"\n\n{more}" if more else ""))

    def _program_index(self, list_row: int) -> int | None:
        """The program index of the list's row ``list_row`` (None: a refused line, or no row)."""
        try:
            return self._list_rows.index(list_row)
        except ValueError:
            return None

    def _clicked(self, item: QListWidgetItem) -> None:
        row = self.row(item)
        refused = self._refused_rows.get(row)
        if refused is not None:
            self.toggle_whole(row)
            return
        index = self._program_index(row)
        if index is not None:
            self.positionRequested.emit(index + 1)

    def toggle_whole(self, list_row: int) -> None:
        """Show the refused statement of the list's row ``list_row`` whole (wrapped; the panel scrolls), or
        its first lines again. It stays a line that is not run: never a position."""
        step = self._refused_rows.get(list_row)
        if step is None:
            return
        if shown_statement(step.code) == shown_statement(step.code, True):
            return   # shown whole already
        self._whole ^= {(step.cell, step.line)}
        item = self.item(list_row)
        self._show_refused(item, step)
        self.scheduleDelayedItemsLayout()
        self.executeDelayedItemsLayout()
        self.viewport().update()

    @staticmethod
    def _held_line() -> str:
        return tr("… the rest once you answer")

    def live_row(self, list_row: int) -> _Row | None:
        """The marks of the list's row ``list_row`` where they changed since its item was made (None: the item's
        own data says them)."""
        return self._live.get(list_row)

    def _rebuild(self, state: PlayerState, rows: list[_Row], refused: tuple[RefusedStep, ...] = ()) -> None:
        self._live = {}
        selected = self._program_index(self.currentRow())
        self.blockSignals(True)
        self.clear()
        self._refused_rows = {}
        placed = self._placed(state, refused)
        if self._shown is not None:   # up to the asked step: the refused lines after it are held too
            cut = next(n for n, entry in enumerate(placed) if isinstance(entry, int) and entry >= self._shown)
            placed = placed[:cut]
        # Known whole before the first item is added: adding one can resize the list, and a resize follows
        # the current line through this map.
        self._list_rows = [row for row, entry in enumerate(placed) if not isinstance(entry, RefusedStep)]
        self._plain = []
        for entry in placed:
            if isinstance(entry, RefusedStep):
                self._refused_rows[self.count()] = entry
                self._plain.append((self.count(),))
                self.addItem(self._refused_item(entry))
                continue
            row, step = rows[entry], state.program[entry]
            self._plain.append(entry)
            item = QListWidgetItem()
            item.setData(_ROLE, row)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{row[1]}: {row[2]}")
            item.setToolTip(tr("Click: go to the state after this step") + (
                "\n" + tr("Delete: remove this step you added") if step.origin == StepOrigin.USER else ""))
            self.addItem(item)
        if not state.program:
            item = QListWidgetItem()
            item.setData(_ROLE, ("", 0, tr("No steps yet."), False, False, False, False))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(item)
        if self._shown is not None:
            item = QListWidgetItem()
            item.setData(_ROLE, ("", 0, self._held_line(), False, False, False, False))
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(item)
        if selected is not None and 0 <= selected < len(self._list_rows):
            self.setCurrentRow(self._list_rows[selected])
        self.blockSignals(False)

    def follow(self) -> None:
        """Keep the current line, every wrapped row of it, in view, and the next one when both fit.

        The rows are laid out first: a line's height depends on the width and the font, and scrolling
        to a row measured at the old ones left the current line above the top."""
        if not self.lines:
            return
        self.executeDelayedItemsLayout()
        bar = self.verticalScrollBar()
        if not self.position:
            bar.setValue(bar.minimum())
            return
        if self.position > len(self._list_rows):
            return   # the list is being rebuilt (a resize while its rows are added)
        height = self.viewport().height()
        current = self.visualItemRect(self.item(self._list_rows[self.position - 1]))
        top, bottom = current.top(), current.bottom()
        if self.position < len(self.lines) and self.position < len(self._list_rows):
            following = self.visualItemRect(self.item(self._list_rows[self.position]))
            if following.bottom() - top < height:
                bottom = following.bottom()     # the next line too, when both fit
        value = bar.value()
        if bottom >= height:
            value += bottom - height + 1
        if top - (value - bar.value()) < 0 or current.height() >= height:
            value = bar.value() + top           # the current line's first row at the top
        value = self._at_a_line_top(value, bar.value() + top, bar.value() + current.bottom())
        bar.setValue(max(bar.minimum(), min(bar.maximum(), value)))

    def _at_a_line_top(self, value: int, current_top: int, current_bottom: int) -> int:
        """``value`` moved to the top of a statement, so that no line is cut at the panel's top (review r17c 2:
        `requires_grad=True)` alone at the top, the rest of its statement above): on down to the next statement
        while the current one stays whole, else up to the one cut."""
        offset = self.verticalScrollBar().value()
        # The rows lie one below the other, in order: the one holding ``value`` is the last that starts above it
        # (found by halves: a row's rect asks the delegate for its size, and a long program has many rows).
        row = bisect.bisect_left(range(self.count()), value,
                                 key=lambda r: self.visualItemRect(self.item(r)).top() + offset) - 1
        if row < 0:
            return value
        rect = self.visualItemRect(self.item(row))
        start, end = rect.top() + offset, rect.bottom() + offset
        if start < value <= end:
            if end + 1 <= current_top:
                return end + 1                      # the next statement's top; the current one still whole
            if current_bottom - start < self.viewport().height():
                return start                        # this statement whole at the top
        return value

    def cut_at_bottom(self) -> int | None:
        """Where (viewport y) the text line that the panel's bottom edge cuts begins, when it begins in view:
        from there down the panel is covered (paintEvent), so that the last line shown is whole (issue 17: the
        bottom line was half cut). A statement wrapped over rows is covered from its cut row; a refused one
        from its top. None when the edge cuts no line."""
        height = self.viewport().height()
        # The rows lie one below the other, in order: the first whose bottom reaches the edge is the only one
        # the edge may cut (found by halves, as in _at_a_line_top: each row's rect asks the delegate its size).
        first = bisect.bisect_left(range(self.count()), height,
                                   key=lambda r: self.visualItemRect(self.item(r)).bottom())
        for row in range(first, min(first + 1, self.count())):
            item = self.item(row)
            rect = self.visualItemRect(item)
            if rect.bottom() < height or rect.top() >= height:
                continue   # whole in view, or below it
            cut = rect.top()
            if item.data(_REFUSED_ROLE) is None:
                # The delegate's rows of text: 3 px down, one font height each (_LineDelegate._draw).
                line = max(1, QFontMetrics(self.font()).height())
                rows = max(1, (rect.height() - 6) // line)
                whole = max(0, (height - rect.top() - 3) // line)   # the rows that end in view
                if whole >= rows:
                    return None   # the edge cuts the statement's bottom margin, no line
                cut = rect.top() + (3 + whole * line if whole else 0)
            return cut if cut > 0 else None
        return None

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        cut = self.cut_at_bottom()
        # Where the cover is on screen, for the next scroll (scrollContentsBy), with what it was measured at.
        self._painted_cover = (cut, (self.viewport().size(), self.font().key()))
        if cut is not None:
            painter = QPainter(self.viewport())
            try:
                painter.fillRect(QRect(0, cut, self.viewport().width(), self.viewport().height() - cut),
                                 self.palette().color(QPalette.ColorRole.Base))
            finally:
                painter.end()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt's name
        super().scrollContentsBy(dx, dy)   # Qt moves the pixels by dy and paints only the strip that came
        if dy:
            # The cover of a cut line stays at the bottom edge (paintEvent), but its pixels moved by dy with the
            # rows: from where they are now, or where the new cover begins if higher, down is painted again.
            # Above that the rows moved whole (a step's scroll repaints a line or two, not the panel).
            height, painted = self.viewport().height(), self._painted_cover
            if painted is None or painted[1] != (self.viewport().size(), self.font().key()):
                self.viewport().update()   # (what the last paint covered is not known: all of it)
                return
            before, after = painted[0], self.cut_at_bottom()
            top = min(height if before is None else before + dy, height if after is None else after)
            if top < height:
                self.viewport().update(QRect(0, max(0, top), self.viewport().width(), height - max(0, top)))

    def toPlainText(self) -> str:  # noqa: N802 - the name text panels use
        """The program as text, one step a line (the current one marked; refused statements in their places)."""
        if not self.lines and not self._refused_rows:
            return tr("No steps yet.")
        plain = self._plain or list(range(len(self.lines)))
        text = "\n".join(self.lines[e] if isinstance(e, int) else self._refused_text(self.item(e[0])) for e in plain)
        return text + ("\n" + self._held_line() if self._shown is not None else "")

    def line_rect(self, index: int) -> QRect:
        """Where line ``index`` (a program index) is drawn, in viewport coordinates."""
        return self.visualItemRect(self.item(self._list_rows[index] if index < len(self._list_rows) else index))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        # Lines wrap to the width: lay them out again at once (QListView waits 100 ms, so a
        # screenshot or a slide taken right after a resize showed rows sized for the old width).
        if event.size().width() != event.oldSize().width():
            self._fit_font()   # a 20-character statement keeps one line where a readable size allows it
            self.scheduleDelayedItemsLayout()
        if event.size() != event.oldSize():
            self.follow()   # a narrower or shorter panel keeps the current line in view

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        current = self._program_index(self.currentRow())
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and current in self.user_steps:
            self.removeRequested.emit(current)
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and current is not None:
            self.positionRequested.emit(current + 1)
            return
        super().keyPressEvent(event)

    def _menu(self, point: QPoint) -> None:
        item = self.itemAt(point)
        row = self._program_index(self.row(item)) if item is not None else None
        if row is None or not self.lines:
            return   # no line, or a refused one (nothing to go to or remove)
        menu = QMenu(self)
        go = menu.addAction(tr("Go to the state after this step"))
        go.triggered.connect(lambda: self.positionRequested.emit(row + 1))
        remove = menu.addAction(tr("Remove this step"))
        remove.setEnabled(row in self.user_steps)
        remove.triggered.connect(lambda: self.removeRequested.emit(row))
        menu.popup(self.viewport().mapToGlobal(point))
        self.context_menu = menu

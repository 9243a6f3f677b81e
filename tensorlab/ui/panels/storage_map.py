"""The storage map: each storage a strip of memory cells, each tensor a band over its cells.

The map is drawn at the chosen text scale, made smaller when the widest strip does
not fit its width (never below the readable size: values of 11 px), and its cells
wider to use the room it has (both modes). What still does not fit scrolls, the
column of names staying pinned at the left; after each step the map scrolls to the
cells the step created or changed (both directions) and flashes them briefly. Cells
are as wide as the widest value, so no number is cut. A tensor's ``.grad`` (memory of
its own) is a band of its own under its tensor's bands, labelled ``x.grad``.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable
from typing import Any, cast

from PySide6.QtCore import QRect, QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontInfo,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsSimpleTextItem, QGraphicsTextItem, QWidget

from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.ui.panels.storage_strips import (
    MAX_CELLS,
    BandModel,
    Culprit,
    GradModel,
    StripModel,
    culprit_marks,
    module_groups,
    sharing_text,
    strip_models,
)
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, tr
from tensorlab.ui.widgets.palette import CHANGED, CULPRIT, CULPRIT_LINE, MUTED, format_value, tensor_color
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.scene_view import SceneView, TextBatch, text_width

__all__ = ["StorageMapView", "StripModel", "refused_write", "strip_models"]

# A write to one element (`x[3] = 0`, `x[3] += 1`, `x[3].add_(1)`): the map outlines its cell when it is refused.
_WRITE = re.compile(r"\s*([A-Za-z_]\w*)\[(\d+)\]\s*(?:[-+*/]?=[^=]|\.\w+_\()")
# A write into a whole tensor, or a part of it (`target.weight.copy_(online.weight)`, `w += 1`, `x[1:] = 0`,
# `net[0].weight.zero_()`): when torch refuses it in place, the map outlines every cell of the tensor written.
_WHOLE_WRITE = re.compile(r"\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)\s*(?:\[[^\]]*\]\s*)?"
                          r"(?:[-+*/@]?=(?!=)|\.(?!requires_grad_)[A-Za-z]\w*_\()")

_NAMES = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")   # the names a step reads (`a`, `net.weight`)
# A number a statement writes into a tensor (`s[0] = 100`, `e[0, 0] = 5`, `x.fill_(-1)`): the cells are made as
# wide as it from the lesson's first step, so that the text never shrinks when it is written (h17z item 1).
_WRITTEN = re.compile(r"(?:[^=!<>]=(?!=)|\.(?:fill_|add_|sub_|mul_)\()\s*(-?\d+\.?\d*(?:[eE]-?\d+)?)\s*\)?\s*$")
_GRAD = re.compile(r"\b([A-Za-z_]\w*)\.grad\b")   # a step about a tensor's gradient: `print(w.grad)`
_NAME_KEY = 0           # QGraphicsItem data key holding a band's tensor name
_PIN_KEY = 1            # data key of an item of the name column (pinned at the left while strips scroll)
_CULPRIT_KEY = 2        # data key of a cell drawn with the culprit's mark
_GROUP_KEY = 2          # data key of a module group header's module name (a click collapses or opens it)
VALUE_PX = 15           # cell values, at text scale 1
READABLE_PX = 11        # the smallest value text the map shrinks to
# A cell's index above it, and a tensor's element index in its band's cell, at text scale 1: read from the back
# of a room like the values (never under 11 px, larger in projector mode with the cells).
INDEX_PX = 13
ELEMENT_PX = 12
LABEL_PX = ELEMENT_PX   # a band's shape/stride/offset label
PROJECTOR_LABEL_PX = 14   # the least size of labels and element marks in projector mode (read from the back row)
NORMAL_FLOOR = 0.8      # normal mode: the map shrinks to fit down to this share of the text scale (the zoom stays)
STRETCH_MAX = 4.0       # cells at most this much wider than their values need (the widest strip spans the map)
FLASH_MS = 1200
_SPARE_GRADS = 8        # gradients' parts a strip keeps off the scene after a zero_grad(), for the next backward()


def refused_write(last: StepResult | None) -> tuple[str, int | None] | None:
    """The tensor (and element) a failed step wrote into, when torch refused the write: `x[3] = 0` is ``("x", 3)``;
    a write into a whole tensor (or a slice) that torch refused in place, `target.weight.copy_(online.weight)` on a
    leaf that requires grad, is ``("target.weight", None)``. None: the step did not fail on a write."""
    if last is None or last.ok:
        return None
    match = _WRITE.match(last.code)
    if match:
        return match.group(1), int(match.group(2))
    whole = _WHOLE_WRITE.match(last.code)
    message = last.error.message if last.error is not None else ""
    # Refused in place for autograd ("… is being used in an in-place operation"), or because the destination's
    # elements overlap ("more than one element of the written-to tensor …": e.add_(1) on an expanded e, which
    # marked no cell: review helper-158, D8).
    lower = message.lower()
    if whole and ("in-place" in lower.replace("inplace", "in-place") or "written-to tensor" in lower):
        return whole.group(1), None
    return None



def _leaves(item: QGraphicsItem) -> list[QGraphicsItem]:
    """The items under ``item`` that have no children: what it draws."""
    leaves, stack = [], list(item.childItems())
    while stack:
        child = stack.pop()
        children = child.childItems()
        if children:
            stack.extend(children)
        else:
            leaves.append(child)
    return leaves


def _inkless(item: QGraphicsItem, background: QBrush) -> bool:
    """A rectangle that draws nothing to see: no outline, filled with the map's background (a name column's
    backing)."""
    return isinstance(item, QGraphicsRectItem) and item.pen().style() == Qt.PenStyle.NoPen and (
        item.brush().style() == Qt.BrushStyle.NoBrush or item.brush().color() == background.color())


def _outer_spaces(text: str) -> list[int]:
    """The places of ``text``'s spaces outside any brackets (`[2, 2] stride (2, 1)`: after `]` and `stride`)."""
    depth, places = 0, []
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        elif c == " " and depth == 0:
            places.append(i)
    return places

class StorageMapView(SceneView):
    """Draws every storage as a strip of cells with the tensors that view it stacked below."""

    tensorClicked = Signal(str)
    enterPressed = Signal()

    _first_cell: QRectF | None   # the first cell of the strip being drawn (set by _draw_group)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("storageMap")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Storage map"))
        self.i18n.on_change(self._redraw_all)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setBackgroundBrush(QBrush(QColor("#fafafa")))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.strips: list[StripModel] = []
        self.selected: str | None = None
        self.device = "cpu"
        self._versions: dict[str, int | None] = {}
        self.strip_rects: dict[str, QRectF] = {}     # storage id -> where its strip is drawn
        self.cell_rect = QRectF()                    # the first cell drawn (its size is the cell size)
        self.followed: tuple[str, ...] = ()          # storages the last step created or changed
        self._flash: QVariantAnimation | None = None
        self.flashes = True        # False for pictures (the offscreen renderer): no animation to wait for
        self._flash_items: list[QGraphicsItem] = []
        self._cut: tuple[tuple[float, float, float], float | None] | None = None   # cut_at_bottom's, this drawing
        # Each strip is drawn once into a group and kept while nothing it shows changes: a step
        # redraws only the strips it touched (the others move, at most).
        self._drawn: dict[str, _Drawn] = {}
        self._header: QGraphicsSimpleTextItem | None = None
        self._header_scale = 0.0        # the text scale the header was made at
        self._widths: dict[tuple[object, ...], float] = {}   # (a strip's first values' texts, font) -> widest
        # What a drawing measures of every strip (the cells' and the names' widths), by scale: made afresh
        # at each drawing.
        self._measured: dict[tuple[object, ...], float] = {}
        self._strip_texts: dict[tuple[object, ...], tuple[str, ...]] = {}   # (values, dtype, digits) -> texts
        # (id of a strip's or gradient's values tuple, dtype, digits) -> (the tuple, its first cells' texts): an
        # unchanged storage's cells are the same tuple from one snapshot to the next, so found by identity (a
        # reference held: the id cannot be reused) even where equal values are written otherwise (0.0, -0.0).
        self._texts_of: dict[tuple[int, str, int], tuple[tuple[object, ...], tuple[str, ...]]] = {}
        # (id of a texts tuple, id of the font) -> (the texts, their widest width), by identity the same way.
        self._widest_of: dict[tuple[int, int], tuple[tuple[str, ...], float]] = {}
        self._pitches: dict[int, tuple[QFont, bool]] = {}   # whether a font is monospaced, by font object
        self._texts: dict[tuple[object, ...], str] = {}      # (type, value, digits) -> the value as written
        self._labels: dict[tuple[object, ...], str] = {}     # (label, its measured form, width, scale) -> drawn
        # (storage id, digits) -> the longest value text its cells have shown since it came: the cells stay as
        # wide as that, so that values growing a digit (`opt.step()`: 0.75 -> 0.5625) never make the map's text
        # smaller from one step to the next (review r17o item 1); only a new tensor may.
        self._held_texts: dict[tuple[str, int], str] = {}
        # (what the map showed, the scale and digits it was drawn at): a value growing wider on a step that brings
        # no tensor keeps the text's size (see _fitted_scale).
        self._held_scale: tuple[tuple[object, ...], float, int] | None = None
        self.written_numbers: tuple[str, ...] = ()   # the numbers the program's statements write (_WRITTEN)
        self._language = 0
        self.text_scale = 1.0      # the scale asked for; ``scale_factor`` is what the map is drawn at (fitted)
        self.stretch = False       # projector mode (its floor applies)
        self.floor: float | None = None   # the smallest scale a fit may draw at (None: NORMAL_FLOOR × the scale)
        self._stretch = 1.0        # how much wider than needed the cells are drawn
        self.name_width = 0.0      # the name column (pinned at the left while the strips scroll)
        self._pinned: list[tuple[QGraphicsItem, float]] = []
        self._marks: list[QGraphicsItem] = []   # the "+N more" marks at the viewport's edges
        self._mark_pool: list[tuple[QGraphicsRectItem, QGraphicsSimpleTextItem, QFont]] = []   # their items
        # Strips whose cells all fit the viewport: they stay put while longer strips scroll sideways (a
        # strip that fits is never cut nor marked). storage id -> x of its first cell, unscrolled.
        self.fitting: dict[str, float] = {}
        self._fit_rects: dict[str, QRectF] = {}
        self._run_key: str | None = None   # set by changed_run: the storage of the run it found
        self.focus_grad: str | None = None   # the tensor whose gradient the last step was about (no change)
        self.focus_names: tuple[str, ...] = ()   # the names a step that changed nothing read, shown together
        self.written: str | None = None      # the tensor the last step wrote through (render_view), if it did
        self.picture = False   # drawn for a picture of the whole scene: at the text scale, no marks
        self._run_ends = 0.0   # set by changed_run: where the cells of the run's strip end
        self._target: QRectF | None = None   # what the last scroll had to show (see _land)
        # The tensor and element of a write torch refused (element None: the write was into the whole tensor).
        self.refused: tuple[str, int | None] | None = None
        # storage id -> (x of its first cell, cell width, top of its cells in the scene, cell height, and
        # the rows of its gradients: (top, changed))
        self.cell_rows: dict[str, tuple[float, float, float, float]] = {}
        self._grad_rows: dict[str, list[tuple[float, frozenset[int], str]]] = {}
        self._tight = False        # cells as narrow as their values allow (a strip wider than the map)
        self._digits = 6           # format_value's width: 5 (three significant digits) when drawn smaller
        self._cells_top = 0.0      # set while a strip is drawn: where its cells start, and its gradients' rows
        self._grad_tops: list[tuple[float, frozenset[int], str]] = []
        self.groups: list[tuple[str | None, list[StripModel]]] = []   # strips by module (module_groups)
        self.collapsed: set[str] = set()          # module groups shown as their header only
        self._group_items: list[QGraphicsSimpleTextItem] = []
        self._old_group_items: dict[str, QGraphicsSimpleTextItem] = {}   # while drawing: last drawing's headers
        self._pin_sink: list[tuple[QGraphicsItem, float]] | None = None   # the part being drawn: its pinned items

    # -- public ----------------------------------------------------------------
    @contained
    def set_text_scale(self, factor: float) -> None:
        """Draw at ``factor`` times the normal size (zoom, projector mode), less where the strips need it."""
        if factor != self.text_scale:
            self.text_scale = factor
            self._draw()

    set_scale = set_text_scale

    def set_stretch(self, on: bool, floor: float | None = None) -> None:
        """Projector mode (``on``): the map is drawn no smaller than ``floor`` (the scale of normal mode at this
        zoom) where it must shrink to fit. (In both modes the cells grow to use the map's width.)"""
        if (on, floor) != (self.stretch, self.floor):
            if on != self.stretch:
                self._clear()   # (the labels' size is the mode's: every strip drawn afresh)
            self.stretch, self.floor = on, floor
            self._draw()

    def set_picture(self, on: bool) -> None:
        """Drawn for pictures of the whole scene (``on``, the map-only slides): at the text scale, never fitted
        to the viewport nor stretched (every slide of an export at one scale), every strip from its start, no
        "+N more" marks."""
        if on != self.picture:
            self.picture = on
            self._draw()

    def fit_width(self) -> int:
        """The viewport's width without the vertical scroll bar (as wide as when it is hidden): what the strips
        are fitted to, the same whether the bar shows or not."""
        bar = self.verticalScrollBar()
        width = self.viewport().width()
        if bar.isVisible() and self.verticalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOn:
            width += bar.width()
        return width

    def reserve_row(self, height: int) -> None:
        """A row of ``height`` px kept below the strips' viewport (0: none), for a note about the map that must
        never cover a strip (the window's "+N more changed" mark); the viewport is shorter by it."""
        if self.viewportMargins().bottom() != height:
            self.setViewportMargins(0, 0, 0, height)

    def render_view(self, view: View) -> None:
        """Show the view's snapshot; a step just run is followed (its storages in view, flashed)."""
        state = view.state
        last = state.last
        self.written_numbers = tuple(dict.fromkeys(m.group(1) for step in state.program
                                                   if (m := _WRITTEN.search(step.code)) is not None))
        self.focus_grad = None
        self.focus_names = ()
        # A write torch refused (`x[3] = 0` on a leaf that requires grad): its cell is outlined and shown.
        self.refused = refused_write(last) if view.ran else None
        # The tensor the step wrote through (`z[3] = 0`: z, whose band is shown with the cells it changed).
        write = _WHOLE_WRITE.match(last.code) if last is not None and view.ran else None
        self.written = re.sub(r"(\[\d+\])+$", "", write.group(1)) if write else None   # (`z[3]`: z)
        # A backward() that failed on a saved tensor an earlier step changed: that step's write is marked
        # (held while the next step's question on a backward() is open: the mark would answer it).
        culprits = culprit_marks(state.results) if last is not None and not last.ok \
            and not view.held.saved_states else {}
        if view.ran and culprits:
            # A module's group holding the marked write opens (the optimizer changed its parameter).
            self.collapsed -= {owner for owner, strips in self.groups
                               if owner is not None and any(strip.storage.id in culprits for strip in strips)}
        self.show_snapshot(state.snapshot, state.previous_snapshot, state.device, view.selected, follow=view.ran,
                           culprits=culprits)
        refused = self.refused_cell()
        culprit = self.culprit_cells()
        if refused is not None:
            cells = self.refused_cells()
            run = cells[0].united(cells[-1]) if cells else refused
            band = self.band_rect(self.refused[0]) if self.refused is not None else None
            height = self.viewport().height() / max(self.transform().m22(), 1e-6) - 24
            # The written tensor's band with its cells (which tensor the outlined cells are), when both fit.
            if band is not None and band.bottom() - run.top() <= height:
                self._ensure(QRectF(run.left(), run.top(), 1, band.bottom() - run.top()), 0, 10)
            self._ensure(refused, 0, 10)
            self._land()
            self._show_columns(refused)
        elif view.ran and culprit:
            self._show_culprit(culprit[0])
        elif view.ran and not self.followed and last is not None and (grad := _GRAD.search(last.code)) \
                and self.show_grad(grad.group(1)):
            # A step about a gradient that changed nothing (`print(w.grad)`, End's last step): it shows, and
            # stays in view when the docks settle.
            self.focus_grad = grad.group(1)
        elif view.followed and not self.followed:
            # Memory unchanged: the cells of the tensors the step names (`print(a, r)` at End: a's values and r's
            # together, where they fit), else the tensor it is about.
            named = _NAMES.findall(last.code) if last is not None else []
            if self.show_named(named):
                self.focus_names = tuple(named)   # (kept in view when the docks settle: show_followed)
            else:
                self.show_selected()

    def refused_cell(self) -> QRectF | None:
        """Where the (first) cell of the refused write is drawn (None: the last step wrote nothing refused)."""
        cells = self.refused_cells()
        return cells[0] if cells else None

    def refused_cells(self) -> list[QRectF]:
        """Where the cells of the refused write are drawn, in the tensor's order (one for `x[3] = 0`, every cell
        of the tensor for `target.weight.copy_(…)`); none when the last step wrote nothing refused."""
        if self.refused is None:
            return []
        name, element = self.refused
        for strip in self.strips:
            band = next((b for b in strip.bands if b.name == name), None)
            row = self.cell_rows.get(strip.storage.id)
            if band is None or row is None:
                continue
            if element is None:
                cells = list(dict.fromkeys(band.cells))
            elif 0 <= element < len(band.cells):
                cells = [band.cells[element]]
            else:
                continue
            x0, cell_w, top, cell_h = row
            shown = [QRectF(x0 + cell * cell_w, top, cell_w, cell_h) for cell in cells if 0 <= cell < MAX_CELLS]
            if shown:
                self._run_ends = x0 + min(len(strip.values), MAX_CELLS) * cell_w   # (for the marks' room)
                return shown
        return []

    def band_rect(self, name: str) -> QRectF | None:
        """Where the band of tensor ``name`` is drawn in the scene (its name and label in the name column, and its
        cells' rectangles), None when the map draws no band of it."""
        for entry in self._drawn.values():
            for key, part in entry.parts.items():
                if key[0] == "band" and key[1] == name and not part.detached:
                    holder = part.holder
                    box = holder.childrenBoundingRect().translated(holder.scenePos())
                    return QRectF(box.left(), box.top(), box.width(), max(box.height(), part.height))
        return None

    def _home_of(self, name: str | None) -> str | None:
        """The storage whose strip draws the band of tensor ``name`` (None: no strip does)."""
        return next((s.storage.id for s in self.strips if any(b.name == name for b in s.bands)), None)

    def shows_whole(self, name: str, gradient_only: bool = False) -> bool:
        """Whether the band of tensor ``name``, its strip's cells and its gradient's cells lie whole in the
        viewport, top to bottom (the "+N more changed" mark does not name what the class sees already);
        ``gradient_only``: its gradient's cells alone (a backward() changed only them)."""
        area = self._drawn_area(name, gradient_only)
        if area is None:
            return False
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        # (A pen's width over the edge still reads as whole: a strip landed flush with the top.)
        return seen.top() <= area.top() + 2 and area.bottom() - 2 <= seen.bottom()

    def shows_part(self, name: str, gradient_only: bool = False) -> bool:
        """Whether some of what :meth:`shows_whole` asks about lies in the viewport, top to bottom (True where the map
        draws no band of ``name``: no scroll would bring it into view)."""
        area = self._drawn_area(name, gradient_only)
        if area is None:
            return True
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        return area.top() + 2 < seen.bottom() and seen.top() < area.bottom() - 2

    def _drawn_area(self, name: str, gradient_only: bool) -> QRectF | None:
        """The band of ``name`` with its strip's cells and its gradient's cells (``gradient_only``: those alone),
        in the scene; None where the map draws no band of it."""
        cells = self.grad_cells(name)
        if gradient_only and cells:
            area = QRectF(cells[0])
        else:
            band = self.band_rect(name)
            if band is None:
                return None
            home = self._home_of(name)
            row = self.cell_rows.get(home or "")
            area = QRectF(band)
            if row is not None:
                area = area.united(QRectF(row[0], row[2], 1, row[3]))
        for cell in cells:
            area = area.united(cell)
        return area

    def _show_culprit(self, cell: QRectF) -> None:
        """Scroll to the first marked cell, with its strip's heading (the mark's label) when both fit."""
        strip = next((r for r in self.strip_rects.values() if r.top() <= cell.top() <= r.bottom()), None)
        height = self.viewport().height() / max(self.transform().m22(), 1e-6) - 24
        if strip is not None and cell.bottom() - strip.top() <= height:
            self._ensure(QRectF(cell.left(), strip.top(), cell.width(), cell.bottom() - strip.top()), 0, 10)
        self._ensure(cell, 0, 10)
        self._land()
        self._show_columns(cell)

    def culprit_cells(self) -> list[QRectF]:
        """Where the cells of the culprit's mark are drawn (the write that changed a saved tensor), in order."""
        rects = []
        for strip in self.strips:
            row = self.cell_rows.get(strip.storage.id)
            if strip.culprit is None or row is None:
                continue
            x0, cell_w, top, cell_h = row
            rects += [QRectF(x0 + i * cell_w, top, cell_w, cell_h) for i in sorted(strip.culprit.cells)
                      if i < MAX_CELLS]
        return rects

    @contained
    def show_snapshot(self, snapshot: Snapshot, previous: Snapshot, device: str = "cpu",
                      selected: str | None = None, follow: bool = True,
                      culprits: dict[str, Culprit] | None = None) -> None:
        """Render ``snapshot`` (cells that differ from ``previous`` highlighted); ``follow``: show what changed;
        ``culprits``: the marks of an earlier write that changed a saved tensor (:func:`culprit_marks`)."""
        self.device, self.selected = device, selected
        self.strips = strip_models(snapshot, previous, culprits)
        storages = {strip.storage.id for strip in self.strips}
        self._held_texts = {key: text for key, text in self._held_texts.items() if key[0] in storages}
        self.groups = module_groups(self.strips, snapshot)
        self._versions = {t.name: t.version for t in snapshot.tensors}
        # What the step created or changed: memory, or a gradient (a backward() writes no storage's cells).
        self.followed = tuple(s.storage.id for s in self.strips
                              if s.changed or s.new or any(g.changed for g in s.grads))
        # The selected tensor's strip first (the window selects the tensor the step is about): it is the one
        # scrolled to when they do not all fit (review r17 item 5).
        home = self._home_of(selected)
        if home in self.followed:
            self.followed = (home, *(key for key in self.followed if key != home))
        self._draw()
        if follow:
            self.follow()

    @contained
    def select(self, name: str | None) -> None:
        """Outline the bands of ``name``."""
        if name != self.selected:
            self.selected = name
            self._draw()
            self.show_selected()

    def follow(self) -> None:
        """Scroll to the strips the last step created or changed, and flash them."""
        rects = [self.strip_rects[i] for i in self.followed if i in self.strip_rects]
        if rects:
            self._scroll_to(rects)
            self._land()
            if self.flashes:
                self._start_flash(rects)

    def show_followed(self) -> None:
        """Scroll, without flashing, to what the last step created or changed (else the selected tensor):
        after the text grew or the panel moved (projector mode, zoom), it is still what is in view."""
        rects = [self.strip_rects[i] for i in self.followed if i in self.strip_rects]
        culprit = self.culprit_cells()
        if rects:
            self._scroll_to(rects)
        elif culprit:   # the failing backward's culprit write stays in view
            self._show_culprit(culprit[0])
        elif (self.focus_grad is None or not self.show_grad(self.focus_grad)) and not self.show_named(
                list(self.focus_names)):
            self.show_selected()
        self._land()

    def _scroll_to(self, rects: list[QRectF]) -> None:
        union = rects[0]
        for rect in rects[1:]:
            union = union.united(rect)
        scale = max(self.transform().m22(), 1e-6)
        width, height = self.viewport().width() / scale - 24, self.viewport().height() / scale - 24
        if height < union.height() <= height + 22 and len(rects) == 1:
            # Whole in view with less than the usual margins (a strip of 394 px in a 406 px map showed from the
            # map's top, its last band below the fold): with what margin is left, whole.
            margin = int(max(0.0, (height + 24 - union.height()) / 2 - 1))
            self._ensure(union, 10, margin)
            run = self.changed_run()
            if run is not None and self._run_key not in self.fitting:
                self._show_columns(run)   # the changed cells right of the edge, as below
            self._target = QRectF(union.left(), union.top(), 1, union.height())
            return
        if union.height() > height:
            union = rects[0]   # not all in view: the first followed strip (the selected tensor's), from its top
        # The top-left of what changed (all of it when it fits): never scrolled past a strip's start.
        self._ensure(QRectF(union.left(), union.top(), 1, min(union.height(), height)), 0, 10)
        if union.width() <= width:
            self._ensure(union, 10, 10)
        run = self.changed_run()
        if run is not None:
            # The cells themselves, both directions: below the fold, or right of the viewport's edge (with
            # their strip's heading when both fit).
            span = run.bottom() - union.top()
            if span <= height:
                self._ensure(QRectF(run.left(), union.top(), 1, span), 0, 10)
            else:
                self._ensure(QRectF(run.left(), run.top(), 1, min(run.height(), height)), 0, 10)
            self._with_written_band(run, height)
            if self._run_key not in self.fitting:   # a strip that fits is in view whatever the scroll
                self._show_columns(run)
        if union.height() <= height:
            # What fits stays whole when the scroll lands on a line: its bands too, not only the changed cells.
            self._target = QRectF(union.left(), union.top(), 1, union.height())

    def _with_written_band(self, run: QRectF, height: float) -> None:
        """The changed cells together with the band of the tensor the step is about (the one written: `z[3] = 0`
        changes x's cells through z, whose band is below x's and x.grad's; else the selected tensor's), when both
        fit in the viewport: from the cells' index row, else from the cells (review r17o item 2: z was below the
        fold at 1024x768 and 1280x720 projector)."""
        strip = self.strip_rects.get(self._run_key or "")
        name = self._band_on_run(self.written) or self._band_on_run(self.selected)
        band = self.band_rect(name) if name is not None else None
        if strip is None or band is None or not strip.top() <= band.top() <= strip.bottom() \
                or band.top() < run.top() - 1:
            return
        full = height + 24 - 4   # (without the usual margins: the cells and the band are what tells)
        index_top = run.top() - self._px(INDEX_PX) - 5 * self.scale_factor
        for top in (index_top, run.top()):
            if band.bottom() - top <= full:
                self._ensure(QRectF(run.left(), top, 1, band.bottom() - top), 0, 0)
                # ensureVisible scrolls the least: from above, the viewport's top could stop inside the index row
                # (its numbers cut in half over the cells: h17z item 4); from the cells' top then.
                at = self.mapToScene(0, 0).y()
                if top != index_top and index_top + 1 < at < top - 1:
                    bar = self.verticalScrollBar()
                    bar.setValue(bar.value() + round((top - 1 - at) * max(self.transform().m22(), 1e-6)))
                return
        # A few pixels short (1280x720 projector: 318 px in a 314 px map): the cells' top edge goes above the
        # viewport, never their values (centred in the cells, a sixth of a cell from their top at most).
        short = band.bottom() - run.top() - (height + 24)
        if 0 < short <= run.height() / 6:
            self._ensure(QRectF(run.left(), run.top() + short, 1, band.bottom() - run.top() - short), 0, 0)
            return
        # Shorter still (Ctrl+= at 1280x720 projector, Korean: S8's cells with bn.running_mean's band below the
        # fold, review helper-145 item 5): the band's name and its rectangles, which say whose cells they are,
        # without the lines of shape, stride and version under the name.
        named = self._band_name_bottom(name) if name is not None else None
        if named is not None:
            for top in (index_top, run.top()):
                if named - top <= full:
                    self._ensure(QRectF(run.left(), top, 1, named - top), 0, 0)
                    return

    def _band_on_run(self, name: str | None) -> str | None:
        """The band that stands for ``name`` on the strip of the changed run: its own, else, for a module or a
        container (`bn = nn.BatchNorm1d(1)` writes bn, which has no band: review helper-145 item 5), the first
        band on that strip of a tensor inside it (bn.running_mean); None where there is neither."""
        if name is None:
            return None
        strip = next((s for s in self.strips if s.storage.id == self._run_key), None)
        if strip is None:
            return name if self.band_rect(name) is not None else None
        names = [band.name for band in strip.bands]
        if name in names:
            return name
        return next((n for n in names if n.startswith((name + ".", name + "["))), None)

    def _band_name_bottom(self, name: str) -> float | None:
        """Where the band of tensor ``name`` ends when its label's lines are left out: the bottom of its name and of
        its rectangles over the cells, in the scene (None: the map draws no band of it)."""
        for entry in self._drawn.values():
            for key, part in entry.parts.items():
                if key[0] == "band" and key[1] == name and not part.detached:
                    text, sizes = part.items.get("name"), part.items.get("sizes")
                    if not isinstance(text, QGraphicsSimpleTextItem) or not isinstance(sizes, tuple):
                        return None
                    top = part.holder.scenePos().y()
                    return max(top + float(sizes[0]), text.sceneBoundingRect().bottom())
        return None

    def changed_run(self) -> QRectF | None:
        """Where the first run of cells the last step changed is drawn (its storage's, else a gradient's)."""
        strips = {s.storage.id: s for s in self.strips}
        for key in self.followed:
            strip, row = strips.get(key), self.cell_rows.get(key)
            if strip is None or row is None:
                continue
            x0, cell_w, top, cell_h = row
            shown = min(len(strip.values), MAX_CELLS)
            changed = set(range(shown)) if strip.new else {i for i in strip.changed if i < shown}
            self._run_ends = x0 + shown * cell_w   # where the strip's cells end (no mark is needed past them)
            self._run_key = key
            if changed:
                lo, hi = _first_run(changed)
                return QRectF(x0 + lo * cell_w, top, (hi - lo + 1) * cell_w, cell_h)
            for grad_top, grad_changed, _ in self._grad_rows.get(key, []):
                visible = {i for i in grad_changed if i < MAX_CELLS}
                if visible:
                    lo, hi = _first_run(visible)
                    return QRectF(x0 + lo * cell_w, grad_top, (hi - lo + 1) * cell_w, cell_h)
        return None

    def _show_columns(self, run: QRectF) -> None:
        """Scroll sideways until ``run`` lies right of the pinned names and left of the edge (its start first)."""
        bar = self.horizontalScrollBar()
        scrolled = bar.value() - bar.minimum()
        start = self.mapToScene(0, 0).x() - scrolled   # the scene's x at the viewport's left, not scrolled
        width = self.viewport().width() / max(self.transform().m11(), 1e-6)
        # Room for the "+N more" mark at the right edge, so that it never covers a changed cell (the left one
        # is drawn in the name column).
        mark = _text_width("+000", self._font(14, True)) + 20 * self.scale_factor
        trail = mark if run.right() < self._run_ends - 1 else 12 * self.scale_factor
        wanted = max(0.0, run.right() + trail - (start + width))
        cell_w = self.cell_rect.width()
        if wanted > 0 and cell_w > 0:
            # Scrolled by whole cells: the first cell in view starts at the names' end, never cut by them.
            wanted = math.ceil(wanted / cell_w - 0.01) * cell_w
        # Never past the run's start: the first changed cells show, the rest say "+N more".
        wanted = min(wanted, max(0.0, run.left() - self.name_width))
        if abs(wanted - scrolled) >= 1:
            bar.setValue(bar.minimum() + round(wanted))

    def show_grad(self, owner: str) -> bool:
        """Scroll (without flashing) until ``owner.grad``'s cells are in view, with its strip's top when both
        fit; False when the map shows no gradient of ``owner``."""
        for key, rows in self._grad_rows.items():
            row, strip = self.cell_rows.get(key), self.strip_rects.get(key)
            for top, _, name in rows:
                if name != owner or row is None or strip is None:
                    continue
                x0, cell_w, _, cell_h = row
                height = self.viewport().height() / max(self.transform().m22(), 1e-6) - 24
                if top + cell_h - strip.top() <= height:
                    self._ensure(QRectF(strip.left(), strip.top(), 1, top + cell_h - strip.top()), 0, 10)
                else:
                    self._ensure(QRectF(x0, top, 1, cell_h), 0, 10)
                self._land()
                self.horizontalScrollBar().setValue(self.horizontalScrollBar().minimum())
                return True
        return False

    def grad_cells(self, owner: str) -> list[QRectF]:
        """Where the cells of ``owner.grad`` are drawn in the scene (none: the map shows no such gradient)."""
        for strip in self.strips:
            row = self.cell_rows.get(strip.storage.id)
            grad = next((g for g in strip.grads if g.owner == owner), None)
            tops = [top for top, _, name in self._grad_rows.get(strip.storage.id, []) if name == owner]
            if row is not None and grad is not None and tops:
                x0, cell_w, _, cell_h = row
                return [QRectF(x0 + i * cell_w, tops[0], cell_w, cell_h)
                        for i in range(min(len(grad.values), MAX_CELLS))]
        return []

    def show_named(self, names: list[str]) -> bool:
        """Scroll (without flashing) so that the cells of every strip two or more of ``names`` have bands on (with
        the last one's band where it fits too) lie in the viewport, when they fit in it together; False when they
        do not (or fewer than two of them are on the map). At the end of expand-is-not-repeat (`print(a, r)`) at
        1024x768 projector a's cells were above the fold, r's strip alone in view (h17z item 2)."""
        spans = []
        for name in dict.fromkeys(names):
            band = self.band_rect(name)
            home = self._home_of(name)
            row = self.cell_rows.get(home or "")
            if band is not None and row is not None:
                spans.append((row[2], band.bottom(), row[2] + row[3]))
        if len(spans) < 2:
            return False
        top = min(t for t, _, _ in spans)
        scale = max(self.transform().m22(), 1e-6)
        room = self.viewport().height() / scale
        # With the last one's band (which elements the cells are), else their cells only.
        bottom = max(b for _, b, _ in spans)
        if bottom - (top - 1) > room:
            bottom = max(c for _, _, c in spans) + 2
            if bottom - (top - 1) > room:
                return False
        self._ensure(QRectF(0, top - 1, 1, bottom - top + 1), 0, 0)
        bar = self.verticalScrollBar()
        at = self.mapToScene(0, 0).y()
        if at > top - 1 or at + self.viewport().height() / scale < bottom:
            bar.setValue(bar.value() + round((top - 1 - at) * scale))
        self._land()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().minimum())
        return True

    def show_selected(self) -> None:
        """Scroll (without flashing) until the selected tensor's strip is in view."""
        home = self._home_of(self.selected)
        if home in self.strip_rects:
            rect = self.strip_rects[home]
            height = self.viewport().height() / max(self.transform().m22(), 1e-6) - 24
            band = self.band_rect(self.selected) if self.selected is not None else None
            row = self.cell_rows.get(home)
            if band is None or row is None:
                self._ensure(QRectF(rect.left(), rect.top(), 1, min(rect.height(), 200)), 0, 10)
            elif rect.height() <= height:   # the whole strip (`z = x.detach()`: z is its last band)
                self._ensure(QRectF(rect.left(), rect.top(), 1, rect.height()), 0, 10)
            elif band.bottom() - rect.top() <= height:   # from its heading down to the band
                self._ensure(QRectF(rect.left(), rect.top(), 1, band.bottom() - rect.top()), 0, 10)
            else:   # the cells and the band under them (which cells it covers), else the band itself
                index_top = row[2] - self._px(INDEX_PX) - 5 * self.scale_factor
                full = self.viewport().height() / max(self.transform().m22(), 1e-6) - 4
                if band.bottom() - index_top <= full:   # (without the margins: the cells are what tells)
                    self._ensure(QRectF(rect.left(), index_top, 1, band.bottom() - index_top), 0, 0)
                else:
                    self._ensure(QRectF(rect.left(), band.top(), 1, min(band.height(), height)), 0, 10)
            self._land()
            # From the strip's start (every strip starts at the left): no cell under the names.
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().minimum())

    def _ensure(self, rect: QRectF, x_margin: int, y_margin: int) -> None:
        """``ensureVisible``, remembering ``rect`` (what must stay in view when the scroll lands: :meth:`_land`)."""
        self._target = QRectF(rect)
        self.ensureVisible(rect, x_margin, y_margin)

    def landing_tops(self) -> list[float]:
        """Where the viewport's top may lie without cutting a line of text (scene y, in order): the map's top,
        each module's header and each part of each strip (its heading, its cells with their indices, a band,
        a gradient), at their first line's top (the part above ends a little higher)."""
        s = self.scale_factor
        tops = [self.sceneRect().top()]
        tops += [item.sceneBoundingRect().top() - 3 * s for item in self._group_items]
        for entry in self._drawn.values():
            for part in entry.parts.values():
                holder = part.holder
                tops.append(holder.scenePos().y() + holder.childrenBoundingRect().top())
        return sorted(tops)

    def _land(self) -> None:
        """After a scroll to what a step changed: the viewport's top moved to the nearest place that cuts no
        line of text (the top of a strip's part, above or below), when what had to be shown stays in view; so
        no half line of the heading above is left at the top."""
        target, self._target = self._target, None
        bar = self.verticalScrollBar()
        if target is None or bar.maximum() <= bar.minimum():
            return
        scale = max(self.transform().m22(), 1e-6)
        top = self.mapToScene(0, 0).y()
        height = self.viewport().height() / scale
        tops = self.landing_tops()
        if any(abs(t - top) < 1 for t in tops):
            return
        up = max((t for t in tops if t < top), default=None)
        down = min((t for t in tops if t > top), default=None)
        # The landing nearer what had to be shown first: a strip taller than the map lands on its own heading, not
        # on the map's header above it (at 1280x720 projector the header's line took the room of S0's last band).
        for land in sorted((t for t in (up, down) if t is not None), key=lambda t: abs(t - target.top())):
            value = bar.value() + round((land - top) * scale)
            # What had to be shown: its top in view, and all of it (or a viewport of it when taller).
            # (A strip's rectangle starts 4 px above its heading, which is where a landing top is.)
            slack = 5 * self.scale_factor
            # (The slack is for the top; at the bottom a landing 4 px short cut r's band at expand-is-not-repeat's
            # end, 1024x768 projector.)
            shown = land <= target.top() + slack and \
                land + height >= min(target.bottom(), land + height if land > target.top() else
                                     target.top() + height) - 1
            if shown and value > bar.maximum() and land > top:
                # The last strip of a map that scrolls anyway: the scene grows below it, so that the scroll can
                # land on its heading (not a half line of the band above; review r17c findings 13, 30).
                rect = self.scene().sceneRect()
                rect.setBottom(rect.bottom() + (value - bar.maximum()) / scale + 1)
                self.scene().setSceneRect(rect)
            if shown and bar.minimum() <= value <= bar.maximum():
                bar.setValue(value)
                return

    # -- drawing ---------------------------------------------------------------
    def _stop_flash(self) -> None:
        if self._flash is not None:
            self._flash.stop()
            self._flash = None
        for item in self._flash_items:
            self.scene().removeItem(item)
        self._flash_items = []

    def _start_flash(self, rects: list[QRectF]) -> None:
        items: list[QGraphicsItem] = []
        for rect in rects:
            item = self.scene().addRect(rect.adjusted(-4, -4, 4, 4), QPen(QColor("#f57f17"), 3),
                                        QBrush(QColor(255, 213, 79, 70)))
            item.setZValue(10)
            items.append(item)
        self._flash_items = items
        animation = QVariantAnimation(self)
        animation.setStartValue(1.0)
        animation.setEndValue(0.0)
        animation.setDuration(FLASH_MS)

        def fade(value: float) -> None:
            for flashed in items:
                flashed.setOpacity(float(value))

        def hide() -> None:
            for flashed in items:
                flashed.hide()

        animation.valueChanged.connect(fade)
        animation.finished.connect(hide)
        self._flash = animation
        animation.start()

    def _redraw_all(self) -> None:
        """Draw every strip afresh (the language or the text scale changed)."""
        self._language += 1
        self._draw()

    def _clear(self) -> None:
        self._cut = None
        self._stop_flash()
        self._marks, self._pinned, self._mark_pool = [], [], []   # scene.clear() deletes them
        self.scene().clear()
        self._drawn = {}
        self._header = None
        self._group_items = []

    def _draw(self) -> None:
        # The bottom cover is measured again after a drawing (the items moved, came or went).
        self._cut = None
        try:
            self._draw_strips()
        finally:
            self._cut = None

    def _draw_strips(self) -> None:
        self._stop_flash()
        self._measured = {}
        scene = self.scene()
        self.strip_rects = {}
        self.cell_rows, self._grad_rows = {}, {}
        self.fitting, self._fit_rects = {}, {}
        # The name column (and the strips that stayed put) back at x = 0 while the scene is measured (the marks
        # are placed when it is pinned again, at the end).
        self._pin(0.0, marks=False)
        self._pinned = []   # (some of its items go with the strips drawn again)
        self.scale_factor = self._fitted_scale()
        s = self.scale_factor
        y = 10 * s
        if not self.strips:
            self._clear()
            self._text(tr("No tensors yet."), 20 * s, y, 17, True, MUTED)
            hint = QGraphicsTextItem()
            hint.setDefaultTextColor(MUTED)
            hint.setFont(self._font(14))
            # Said the same in both modes (the Build panel is a column on the left, or a tab in projector mode) and
            # after steps have run (reviews r17o 9, r21e F11: "builders on the left", "the lesson's first step").
            hint.setPlainText(tr("Create one in the Build panel, type a line of PyTorch (Ctrl+L), "
                                 "or press → to run the next step."))
            # Wrapped to the view, so the empty map never scrolls.
            hint.setTextWidth(max(200.0, self.viewport().width() - 50 * s))
            hint.setPos(16 * s, y + 30 * s)
            scene.addItem(hint)
            scene.setSceneRect(scene.itemsBoundingRect().adjusted(-10, -10, 10, 10))
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().minimum())
            return
        if self._header is None or self._header_scale != s:
            # From the empty map, or at a new text scale (every strip is drawn again then anyway).
            self._clear()
            self._header, self._header_scale = self._text("", 10 * s, y, 13, False, MUTED), s
        header = _wrapped(tr("Memory on {device}: one strip per storage, one band per tensor viewing it").format(
            device=self.device), self._header.font(), max(200.0, self.viewport().width() - 30 * s))
        if self._header.text() != header:
            self._header.setText(header)
        y += self._header.boundingRect().height() + 12 * s
        cell_w = self._cell_width()
        name_w = self.name_width = self._name_width()
        drawn: dict[str, _Drawn] = {}
        # A module's header is kept while the map is drawn at its scale (its text updated: ▸/▾, the count).
        self._old_group_items = {str(item.data(_GROUP_KEY)): item for item in self._group_items}
        self._group_items = []
        for strip in self._shown_strips():
            if isinstance(strip, str):   # a module's group header, then its strips unless collapsed
                y = self._group_header(strip, y)
                continue
            key = strip.storage.id
            look = self._look(strip, cell_w, name_w)
            entry = self._drawn.pop(key, None)
            if entry is None or entry.look != look:
                entry = self._draw_group(strip, look, cell_w, name_w, entry)
            entry.group.setPos(0, y)
            drawn[key] = entry
            if entry.first_cell is not None and self.cell_rect != entry.first_cell.translated(0, y):
                self.cell_rect = entry.first_cell.translated(0, y)
            cells = max(1, min(len(strip.values), MAX_CELLS))
            self.strip_rects[key] = QRectF(4 * s, y - 4 * s, name_w + cell_w * cells, entry.height + 4 * s)
            self.cell_rows[key] = (name_w, cell_w, y + entry.cells_top, entry.cell_h)
            self._grad_rows[key] = [(y + top, changed, owner) for top, changed, owner in entry.grad_rows]
            y += entry.height + 22 * s
        for entry in self._drawn.values():   # storages no name views any more
            scene.removeItem(entry.group)
        for item in self._old_group_items.values():   # modules gone
            scene.removeItem(item)
        self._old_group_items = {}
        self._drawn = drawn
        # Room past the cells for one more cell: scrolled to its end, the map still stops at a cell's start
        # (a cell cut by the pinned names would show half a value).
        # Only when the map scrolls sideways anyway: a margin that made the scroll bar come would change the
        # viewport, and the fit, again and again.
        bounds = scene.itemsBoundingRect()
        rect = bounds.adjusted(-10, -10, 20, 20)
        room = self.viewport().width() / max(self.transform().m11(), 1e-6)
        if not self.picture and bounds.right() - rect.left() > room:
            rect.adjust(0, 0, cell_w, 0)
        elif rect.width() > room:
            # What is drawn fits; the margin alone did not (the header, wrapped to the view, and 20 px past it made
            # a scroll bar of 52 px at 1024x768 with nothing to scroll to): the margin is cut to the view.
            rect.setRight(rect.left() + math.floor(room))
        if rect != scene.sceneRect():
            bar = self.horizontalScrollBar()
            scrolled = bar.value() - bar.minimum()
            scene.setSceneRect(rect)
            # As far from the start as before (Qt keeps a scene point instead, which scrolls a map that grew).
            bar.setValue(bar.minimum() + scrolled)
        self.fitting = self._fitting_strips()
        # An arrow key (the map has the focus: → at the lesson's end) scrolls by one whole cell.
        self.horizontalScrollBar().setSingleStep(max(1, round(cell_w)))
        self._pinned = []
        for key, entry in drawn.items():
            if key in self.fitting:   # the whole strip stays put: its cells are in view at any scroll
                self._pinned.append((entry.group, 0.0))
            else:
                self._pinned += entry.pinned   # recorded as they were made: no walk over the strip's items
        self._fit_rects = {key: self.strip_rects[key] for key in self.fitting}
        self._pinned.append((self._header, 10 * s))
        self._pin()

    def _fitting_strips(self) -> dict[str, float]:
        """The strips whose cells (and gradients' cells) all lie inside the viewport unscrolled: the x of each
        one's first cell."""
        right = self.sceneRect().left() + self.viewport().width() / max(self.transform().m11(), 1e-6) - 4
        fitting = {}
        for strip in self.strips:
            row = self.cell_rows.get(strip.storage.id)
            if row is None:
                continue
            x0, cell_w = row[0], row[1]
            shown = min(len(strip.values), MAX_CELLS)
            grads = [min(len(g.values), MAX_CELLS) for g in strip.grads]
            more = strip.storage.cell_count > shown or any(
                _numel(g.shape) > n for g, n in zip(strip.grads, grads, strict=True))
            if not more and x0 + max([shown, *grads]) * cell_w <= right:
                fitting[strip.storage.id] = x0
        return fitting

    def _pin(self, offset: float | None = None, marks: bool = True) -> None:
        """Keep the name column at the viewport's left edge (``offset`` scene pixels right of its place)."""
        if offset is None:
            bar = self.horizontalScrollBar()   # how far from its start the map is scrolled sideways
            offset = 0.0 if self.picture else float(max(0, bar.value() - bar.minimum()))
        for item, x in self._pinned:
            if item.x() != x + offset:
                item.setX(x + offset)
        for key, x0 in self.fitting.items():   # a strip that stays put: its cells are where it is now
            row = self.cell_rows.get(key)
            if row is not None:
                self.cell_rows[key] = (x0 + offset, *row[1:])
            rect = self._fit_rects.get(key)
            if rect is not None:
                self.strip_rects[key] = rect.translated(offset, 0)
        if marks:
            self._mark_hidden_cells()
        else:   # off the scene while it is measured (kept, for the next placing)
            self._detach_marks()

    def _detach_marks(self) -> None:
        """The marks off the scene (their items kept in the pool); the refused write's outline dropped."""
        scene = self.scene()
        for item in self._marks:
            if item.scene() is scene:
                scene.removeItem(item)
        self._marks = []

    def _mark_hidden_cells(self) -> None:
        """"+N more" at the viewport's edge of each strip whose cells go on beyond it (or under the names)."""
        scene = self.scene()
        # The marks are made again at every scroll: their items are kept and moved (a pool, in order).
        pool, self._mark_pool = self._mark_pool, []
        pooled = {id(item) for backing, mark, _ in pool for item in (backing, mark)}
        for item in self._marks:
            if id(item) not in pooled and item.scene() is scene:
                scene.removeItem(item)   # the refused write's outline
        self._marks = []
        try:
            self._place_marks(pool)
        finally:
            for backing, mark, _ in pool[len(self._mark_pool):]:   # marks no longer needed
                for item in (backing, mark):
                    if item.scene() is scene:
                        scene.removeItem(item)

    def _place_marks(self, pool: list[tuple[QGraphicsRectItem, QGraphicsSimpleTextItem, QFont]]) -> None:
        """The outline of a refused write, and the "+N more" marks (their items taken from ``pool`` in order)."""
        scene = self.scene()
        if not self.strips:
            return
        s = self.scale_factor
        for refused in self.refused_cells():
            outline = scene.addRect(refused.adjusted(-3, -3, 3, 3), QPen(QColor("#c62828"), 3.5),
                                    QBrush(Qt.BrushStyle.NoBrush))
            outline.setZValue(9)
            self._marks.append(outline)
        if self.picture:
            return   # a picture shows the whole scene: nothing is hidden
        bar = self.horizontalScrollBar()
        left = (bar.value() - bar.minimum()) + self.name_width   # where the pinned names end
        right = self.mapToScene(self.viewport().width(), 0).x()
        font = self._font(14, True)
        for strip in self.strips:
            row = self.cell_rows.get(strip.storage.id)
            if row is None or strip.storage.id in self.fitting:   # a strip that fits: no mark
                continue
            x0, cell_w, top, cell_h = row
            shown = min(len(strip.values), MAX_CELLS)
            before = sum(1 for i in range(shown) if x0 + i * cell_w < left - 1)
            after, end = self._hidden_right(strip, row, right, font)
            strip_rect = self.strip_rects.get(strip.storage.id, QRectF(0, top, 0, cell_h))
            for count, at_right in ((before, False), (after, True)):
                if not count:
                    continue
                text = f"+{count:,}"
                width = _text_width(text, font) + 12 * s
                box_top, box_h = top, cell_h
                if at_right:
                    # A column of its own beyond the last whole cell in view, to the edge, from the cells' indices
                    # down to the strip's last band: the cells it counts are hidden whole, their indices and the
                    # bands over them too (no band labels a cell the mark hides; review r17c: "t[3] = +2").
                    x, width = end, max(width, right - end)
                    box_top = top - self._px(INDEX_PX) - 5 * s
                    box_h = max(cell_h, strip_rect.bottom() - 4 * s - box_top)
                else:
                    # In the name column, left of the cells (the column is pinned; its backing hides the cells).
                    x = left - width - 4 * s
                kept = len(self._mark_pool)
                if kept < len(pool):
                    backing, mark, made_in = pool[kept]
                    if backing.scene() is not scene:   # (off the scene while the map was measured)
                        scene.addItem(backing)
                        scene.addItem(mark)
                    backing.setRect(QRectF(x, box_top, width, box_h))
                    if made_in is not font:
                        mark.setFont(font)
                    if mark.text() != text:
                        mark.setText(text)
                else:
                    # Grey and dashed, not a cell's look (an amber outline read as a changed cell).
                    backing = scene.addRect(QRectF(x, box_top, width, box_h),
                                            QPen(QColor("#607d8b"), 1.5, Qt.PenStyle.DashLine),
                                            QBrush(QColor("#eceff1")))
                    backing.setZValue(7)
                    mark = scene.addSimpleText(text, font)
                    mark.setBrush(QBrush(QColor("#263238")))
                    mark.setZValue(8)
                backing.setToolTip(tr("… {count} more cells").format(count=f"{count:,}"))
                mark.setPos(x + 6 * s, top + (cell_h - mark.boundingRect().height()) / 2)
                self._mark_pool.append((backing, mark, font))
                self._marks += [backing, mark]

    def _hidden_right(self, strip: StripModel, row: tuple[float, float, float, float], right: float,
                      font: QFont) -> tuple[int, float]:
        """How many of a strip's cells a mark at the viewport's right edge counts (those cut by the edge or
        that its room would cover, and the cells past those drawn), and where the mark begins."""
        x0, cell_w = row[0], row[1]
        shown = min(len(strip.values), MAX_CELLS)
        if x0 + shown * cell_w <= right + 1:
            return 0, right
        room = _text_width(f"+{strip.storage.cell_count:,}", font) + 16 * self.scale_factor
        whole = max(0, min(shown, int((right - room - x0) // cell_w)))
        return shown - whole + max(0, strip.storage.cell_count - shown), x0 + whole * cell_w

    def mark_boxes(self) -> list[tuple[int, QRectF]]:
        """The "+N more" marks shown: how many cells each counts, and the room it covers in the scene."""
        boxes = []
        for item in self._marks:
            if isinstance(item, QGraphicsRectItem) and item.toolTip():
                texts = [m for m in self._marks if isinstance(m, QGraphicsSimpleTextItem)
                         and item.sceneBoundingRect().contains(m.sceneBoundingRect().center())]
                if texts:
                    boxes.append((int(texts[0].text()[1:].replace(",", "")), item.rect()))
        return boxes

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt's name
        super().scrollContentsBy(dx, dy)
        if dx:
            self._pin()
        if dy:
            self.viewport().update()   # the cover of a line the bottom edge cuts moves with the edge (drawForeground)

    def cut_at_bottom(self) -> float | None:
        """The scene y from which the map is covered (drawForeground) so that the last line shown is whole: the
        top of the first row of a strip's items (a row of cells, a band, a line of text) that the viewport's
        bottom edge cuts, and of every item beside it that the cover would cut in turn (a band's two-line label
        beside its cells). Issue 17: a strip taller than the map was cut at its bottom mid-line. None when the
        edge cuts nothing, or only what begins above the viewport (taller than it)."""
        view = self.mapToScene(self.viewport().rect()).boundingRect()
        # The viewport's whole last row of pixels, and an outline's half pixel above a rectangle's top (a cell
        # whose top lay just under the edge still drew its top line there: seen under X at 1024x768).
        view.setBottom(self.mapToScene(0, self.viewport().height()).y() + 1.5 / max(self.transform().m22(), 1e-6))
        slack = 2 * self.scale_factor
        # Measured once per drawing and viewport: each paint asks (the items stay put between drawings, and the
        # name column's sideways moves change no item's top).
        key = (view.top(), view.bottom(), slack)
        if self._cut is not None and self._cut[0] == key:
            return self._cut[1]
        cut = self._measure_cut(view, slack)
        self._cut = (key, cut)
        return cut

    def _measure_cut(self, view: QRectF, slack: float) -> float | None:
        """:meth:`cut_at_bottom` measured on the items, for the viewport's scene rectangle ``view``."""
        boxes: list[QRectF] = []
        texts: list[tuple[QRectF, QFont]] = []
        for entry in self._drawn.values():
            for part in entry.parts.values():
                holder = part.holder
                if part.detached or holder.scene() is None or not holder.isVisible():
                    continue
                below = holder.scenePos().y() + holder.childrenBoundingRect().bottom()
                if below <= view.bottom() + slack or holder.scenePos().y() >= view.bottom():
                    continue
                for item in _leaves(holder):
                    if not item.isVisible():
                        continue
                    if isinstance(item, TextBatch):   # many texts (a row of values, of indices): each its line
                        texts += [(item.mapRectToScene(entry[0]), entry[2]) for entry in item.entries]
                    elif isinstance(item, QGraphicsSimpleTextItem):
                        texts.append((item.sceneBoundingRect(), item.font()))
                    elif not _inkless(item, self.backgroundBrush()):
                        boxes.append(item.sceneBoundingRect())
        # A text's box begins above its ink (by its ascent less its capitals' height): a line whose ink begins under
        # the viewport's last row shows nothing to cut (1024x768 projector: S1's heading, 2 px of its box in view).
        edge = self.mapToScene(0, self.viewport().height()).y()
        for box, font in texts:   # (fonts in scene units: the items are not scaled within the scene)
            metrics = QFontMetricsF(font)
            if box.top() + metrics.ascent() - metrics.capHeight() < edge:
                boxes.append(box)
        cut = min((b.top() for b in boxes if view.top() + 1 < b.top() < view.bottom() < b.bottom() - slack),
                  default=None)
        while cut is not None:
            # An item begun above the cover and ending under it would be cut by the cover: it is covered too.
            higher = min((b.top() for b in boxes if view.top() + 1 < b.top() < cut < b.bottom() - slack),
                         default=None)
            if higher is None:
                break
            cut = higher
        return cut

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:  # noqa: N802 - Qt's name
        super().drawForeground(painter, rect)
        top = self.cut_at_bottom()
        if top is not None:
            view = self.mapToScene(self.viewport().rect()).boundingRect()
            # (From a pixel above: a rectangle's outline straddles its top.)
            painter.fillRect(QRectF(view.left() - 1, top - 1, view.width() + 2, view.bottom() - top + 3),
                             self.backgroundBrush())

    def _fitted_scale(self) -> float:
        """The scale the strips are drawn at: the text scale, less until the widest strip fits (never
        below readable values), and in projector mode cells wider to use the room."""
        base = self.scale_factor = self.text_scale
        self._stretch, self._digits, self._tight = 1.0, 6, False
        # The margins, and a vertical scroll bar that may come: measured on the width without the bar, so that
        # the bar coming with a taller map (a second strip) never makes the text smaller (review r17o item 1:
        # 24 -> 21.9 px between steps at 1024x768 projector).
        room = self.fit_width() - self.verticalScrollBar().sizeHint().width() - 44
        if room < 160 or not self.strips or self.picture:
            return base
        cells = max(max(1, min(max([len(st.values), *(len(g.values) for g in st.grads)]), MAX_CELLS))
                    for st in self.strips)
        # What the map shows and where (its storages and their cells, the room, the asked scale): while it stays
        # the same, the text never gets smaller (a view coming on a strip, or a value growing wider, scrolls it).
        hold = (base, self.stretch, self.floor, room, self._language,
                tuple((st.storage.id, len(st.values)) for st in self.strips))
        needed = self._name_width() + self._cell_width() * cells
        if needed > room:
            # Narrower cells first (the text stays as large), then smaller text.
            self._tight = True
            needed = self._name_width() + self._cell_width() * cells
        if needed > room:
            # Never below readable values, nor below what the zoom asked for (normal mode: most of it).
            floor = self.floor if self.floor is not None else NORMAL_FLOOR * base
            low = min(base, max(READABLE_PX / VALUE_PX, floor))
            scale = base
            for digits in (6, 5):   # then three significant digits, when smaller is not enough
                self._digits = digits
                for _ in range(4):
                    scale = self.scale_factor = max(low, scale * room / needed)
                    needed = self._name_width() + self._cell_width() * cells
                    if needed <= room or scale <= low:
                        break
                if needed <= room:
                    break
            held = self._held_scale
            if held is not None and held[0] == hold and scale < held[1]:
                # The same storages as the drawing before, a value wider (`s[0] = 100`: 0.0 -> 100.0) or a view's
                # label longer: the text keeps its size and the strip scrolls, its changed cells followed (h17z
                # item 1: 22.3 -> 16.9 px between two steps at 1024x768 projector). New memory refits it.
                scale, self._digits = held[1], held[2]
                self.scale_factor = scale
            self._held_scale = (hold, scale, self._digits)
            return scale
        self._held_scale = (hold, base, self._digits)
        # Both modes: cells wider to use the map's width (at 1920x1080 normal the strips took a third of it).
        spare = (room - self._name_width()) / (self._cell_width() * cells)
        if spare > 1:
            self._stretch = max(1.0, min(STRETCH_MAX, spare))
        return base

    def _shown_strips(self) -> list[StripModel | str]:
        """The strips in drawing order, a module's group led by its name (and left out when collapsed)."""
        shown: list[StripModel | str] = []
        for owner, strips in self.groups or [(None, self.strips)]:
            if owner is not None:
                shown.append(owner)
                if owner in self.collapsed:
                    continue
            shown.extend(strips)
        return shown

    def _group_header(self, owner: str, y: float) -> float:
        """A module group's header line (▾ open, ▸ collapsed; a click toggles it); the y below it."""
        s = self.scale_factor
        count = sum(len(strips) for name, strips in self.groups if name == owner)
        mark = "▸" if owner in self.collapsed else "▾"
        # One storage or several (review r18ag 12: "1 storages"); the Korean counts with 개 either way. Short, so
        # that it fits beside a narrow strip in projector mode (review r17p F6: cut at the map's right edge); what
        # the storages are is in the tooltip.
        text = (tr("{mark} module {name}: 1 storage") if count == 1 else
                tr("{mark} module {name}: {count} storages")).format(mark=mark, name=owner, count=count)
        tip = tr("The storages of the module's parameters and buffers. Click: collapse or open the group.")
        item = self._old_group_items.pop(owner, None)
        if item is None:
            item = self._text(text, 10 * s, y, 13, True, MUTED)
            item.setData(_GROUP_KEY, owner)
            item.setCursor(Qt.CursorShape.PointingHandCursor)
        else:   # (the map is drawn afresh at a new scale: a kept header has the scale's font)
            if item.text() != text:
                item.setText(text)
            item.setPos(10 * s, y)
        item.setToolTip(tip)
        self._group_items.append(item)
        return y + item.boundingRect().height() + 10 * s

    def group_headers(self) -> dict[str, str]:
        """The module groups' header lines as drawn, by module name."""
        return {str(item.data(_GROUP_KEY)): item.text() for item in self._group_items}

    def toggle_group(self, owner: str) -> None:
        """Collapse a module's group to its header, or open it again."""
        self.collapsed ^= {owner}
        self._draw()

    def _look(self, strip: StripModel, cell_w: float, name_w: float) -> tuple[object, ...]:
        """Everything a strip's drawing depends on: the same look, the same items."""
        versions = tuple(self._versions.get(b.name) for b in strip.bands)
        selected = self.selected if any(b.name == self.selected for b in strip.bands) else None
        storage = strip.storage
        return (storage.nbytes, storage.cell_count, storage.dtype, storage.device, storage.tensors, strip.values,
                strip.changed, strip.new, strip.bands, strip.grads, strip.culprit, versions, selected, cell_w, name_w,
                self.scale_factor, self._digits, self.viewport().width() // 40, self._language)

    def _draw_group(self, strip: StripModel, look: tuple[object, ...], cell_w: float, name_w: float,
                    old: _Drawn | None) -> _Drawn:
        """The strip's items in its group (the group of its last drawing, when there is one): each part whose
        layout is unchanged keeps its items, their texts, colours and places updated; the others are drawn."""
        if old is not None:
            group, old_parts = old.group, {**old.spare, **old.parts} if old.spare else old.parts
        else:
            group, old_parts = QGraphicsRectItem(), {}
            group.setPen(QPen(Qt.PenStyle.NoPen))
            self.scene().addItem(group)
        self.parent_item, self._first_cell = group, None
        self._cells_top, self._grad_tops = 0.0, []
        try:
            height, parts = self._draw_strip(strip, 0.0, cell_w, name_w, old_parts)
        finally:
            self.parent_item = None
        spare: dict[tuple[object, ...], _Part] = {}
        for key, part in old_parts.items():   # parts laid out otherwise now (a band gone, a new shape)
            if part.detached:
                continue
            self.scene().removeItem(part.holder)
            # A gradient that went (zero_grad()) comes back at the next backward(): its items are kept, off
            # the scene, while the strip lives.
            if key[0] == "grad" and len(spare) < _SPARE_GRADS:
                part.detached = True
                spare[key] = part
        cell_h = self._first_cell.height() if self._first_cell is not None else 0.0
        pinned = [pin for part in parts.values() for pin in part.pinned]
        drawn = _Drawn(look, group, height, self._first_cell, parts, self._cells_top, cell_h, self._grad_tops, pinned)
        drawn.spare = spare
        return drawn

    def _part(self, key: tuple[object, ...], content: tuple[object, ...],
              old_parts: dict[tuple[object, ...], _Part], parts: dict[tuple[object, ...], _Part], y: float, z: float,
              draw: Callable[[dict[str, Any]], float], fill: Callable[[dict[str, Any]], object]) -> _Part:
        """One part of the strip being drawn (its heading, its cells, a band, a gradient) at ``y``.

        ``key`` is its layout (which items, their sizes): the items of the last drawing of the same layout are
        kept, and ``fill`` sets what they show (``content``: texts, colours, places) when that changed.
        Otherwise ``draw`` makes its items (at y = 0 in a holder of their own; it keeps them in the dict it is
        given and returns their height), then ``fill`` sets them. ``fill`` returns what the strip needs of
        the part (the cells' geometry)."""
        strip_group = self.parent_item
        assert strip_group is not None  # drawn inside _draw_group, which sets the strip's group
        kept = old_parts.pop(key, None)
        if kept is None:
            holder = QGraphicsRectItem(strip_group)
            holder.setPen(QPen(Qt.PenStyle.NoPen))
            items: dict[str, Any] = {}
            self.parent_item, sink, self._pin_sink = holder, self._pin_sink, []
            try:
                height = draw(items)
                kept = _Part(holder, height, self._pin_sink, items)
                kept.extra = fill(items)
            finally:
                self.parent_item, self._pin_sink = strip_group, sink
            kept.content = content
        else:
            if kept.detached:   # a gradient's items kept off the scene: back in the strip
                kept.holder.setParentItem(strip_group)
                kept.detached = False
            if kept.content != content:
                kept.extra = fill(kept.items)
                kept.content = content
        kept.holder.setPos(0, y)
        kept.holder.setZValue(z)
        parts[key] = kept
        return kept

    def _cell_width(self) -> float:
        """Cells as wide as the widest value drawn (at least 64 px at scale 1); measured once per drawing and
        scale (fitting the scale asks for it again and again)."""
        key = ("cells", self.scale_factor, self._digits, self._stretch, self._tight)
        width = self._measured.get(key)
        if width is None:
            s = self.scale_factor
            # The widest value is the same at any stretch and tightness: measured once per scale and digits.
            widest_key = ("widest", s, self._digits)
            widest = self._measured.get(widest_key)
            if widest is None:
                font = self._font(VALUE_PX, True, mono=True)
                widest = max((self._widest(values, font, strip.storage.dtype) for strip in self.strips
                              for values in (strip.values, *(g.values for g in strip.grads))), default=0.0)
                if not self.picture:
                    widest = max(widest, self._held_widest(font))
                self._measured[widest_key] = widest
            # Tight (a strip wider than the map): as narrow as the values and the bands' element labels allow,
            # before any text is made smaller or a cell hidden behind "+N more".
            least = _text_width("[11]", self._font(self._label_px(), True)) + 12 * s if self._tight else 64 * s
            width = self._measured[key] = max(least, widest + 14 * s) * self._stretch
        return width

    def _held_widest(self, font: QFont) -> float:
        """The widest value text each strip has shown since its storage came (at the current digits), measured in
        ``font``; the longest texts of what is shown now are held for the next steps."""
        widest = 0.0
        for strip in self.strips:
            key = (strip.storage.id, self._digits)
            texts = [t for values in (strip.values, *(g.values for g in strip.grads))
                     for t in self._shown_texts(values, strip.storage.dtype)]
            held = self._held_texts.get(key, "")
            # By characters (the values' font is monospaced): one text measured per strip, not every value.
            longest = max(texts, key=len, default="")
            if len(longest) > len(held):
                held = self._held_texts[key] = longest
            if held:
                widest = max(widest, _text_width(held, font))
            # Room for the numbers the program writes (`s[0] = 100`: 100.0 in x's cells at step 3), from its
            # first step: the lesson's text keeps one size.
            for number in self.written_numbers:
                text = self._written_text(number, strip.storage.dtype)
                if text:
                    widest = max(widest, _text_width(text, font))
        return widest

    def _written_text(self, number: str, dtype: str) -> str:
        """``number`` (a literal of the program) as a cell of ``dtype`` writes it ("" for another dtype)."""
        try:
            value = float(number)
        except ValueError:
            return ""
        if "float" in dtype:
            return self._format(value)
        if "int" in dtype and value == int(value):
            return self._format(int(value))
        return ""

    def _widest(self, values: tuple[object, ...], font: QFont, dtype: str) -> float:
        """The widest of a strip's first values (``MAX_CELLS``) as the map writes them, kept by their texts (by
        the texts object first: an unchanged strip's texts are the same object at each drawing)."""
        texts = self._shown_texts(values, dtype)
        entry = self._widest_of.get((id(texts), id(font)))
        if entry is not None and entry[0] is texts:
            return entry[1]
        key = (texts, id(font))
        widest = self._widths.get(key)
        if widest is None:
            if len(self._widths) > 4096:
                self._widths.clear()
            if self._fixed_pitch(font) and all(t.isascii() for t in texts):
                # The values' font is monospaced: the longest text is the widest, one measure rather than one a
                # value (a training step writes new values into every parameter's strip, at each scale tried).
                longest = max(texts, key=len, default="")
                widest = _text_width(longest, font) if longest else 0.0
            else:
                widest = max((_text_width(t, font) for t in texts), default=0.0)
            self._widths[key] = widest
        if len(self._widest_of) > 1024:   # (each holds its texts alive)
            self._widest_of.clear()
        self._widest_of[(id(texts), id(font))] = (texts, widest)
        return widest

    def _fixed_pitch(self, font: QFont) -> bool:
        """Whether ``font`` as resolved is monospaced (asked once per font object: QFontInfo resolves it)."""
        entry = self._pitches.get(id(font))
        if entry is None or entry[0] is not font:
            entry = self._pitches[id(font)] = (font, QFontInfo(font).fixedPitch())
        return entry[1]

    def _shown_texts(self, values: tuple[object, ...], dtype: str) -> tuple[str, ...]:
        """The texts of a strip's (or a gradient's) first ``MAX_CELLS`` values, kept by the values object: every
        drawing of the map asks for every strip's texts, and a storage a step left alone has the same values
        tuple as the step before (found by identity: exact even for values :meth:`_value_texts` cannot key,
        0.0 beside -0.0)."""
        key = (id(values), dtype, self._digits)
        entry = self._texts_of.get(key)
        if entry is not None and entry[0] is values:
            return entry[1]
        texts = self._value_texts(values[:MAX_CELLS], dtype)
        if len(self._texts_of) > 1024:   # (each holds its values alive)
            self._texts_of.clear()
        self._texts_of[key] = (values, texts)
        return texts

    def _value_texts(self, values: tuple[object, ...], dtype: str) -> tuple[str, ...]:
        """A strip's values as the map writes them, kept while they stay the same.

        Kept by the values and their dtype: 1, 1.0 and True are equal values written otherwise, but one strip's
        values are of one dtype. 0.0 and -0.0 are equal too (and written otherwise): values with a zero, or
        complex ones (pairs), are written afresh."""
        key = (values, dtype, self._digits)
        try:
            exact = not values or (not isinstance(values[0], tuple) and 0 not in values)
            texts = self._strip_texts.get(key) if exact else None
        except TypeError:   # a value that cannot be a key (a list)
            exact, texts = False, None
        if texts is None:
            texts = tuple(self._format(v) for v in values)
            if exact:
                if len(self._strip_texts) > 2048:
                    self._strip_texts.clear()
                self._strip_texts[key] = texts
        return texts

    def _format(self, value: object) -> str:
        """A cell's value as the map writes it (three significant digits when the map is made smaller), kept
        by value: an unchanged strip's values are written again at each drawing of the map."""
        # By type too: 1, 1.0 and True are equal keys but are written 1, 1.0 and T (and -0.0 as -0.0).
        key = (type(value), value, self._digits)
        try:
            text = self._texts.get(key)
        except TypeError:   # a value that cannot be a key (a list)
            return format_value(value, self._digits)
        if text is None:
            text = format_value(value, self._digits)
            if value == 0 and isinstance(value, float):
                return text   # 0.0 and -0.0 are one key
            if len(self._texts) > 8192:
                self._texts.clear()
            self._texts[key] = text
        return text

    def _label(self, band: BandModel) -> str:
        """A band's shape/stride label as drawn: on two lines when one would widen the name column past a
        quarter of the map (a narrower column leaves the room to the cells). Measured with its version's room
        kept (``wide_label``), so that a version counting up changes the text, never the lines (nor the
        layout); kept by label."""
        key = (band.label, band.wide_label, self.fit_width(), self.scale_factor, self._label_px())
        text = self._labels.get(key)
        if text is None:
            if len(self._labels) > 2048:
                self._labels.clear()
            text = self._labels[key] = self._split_label(band.label, band.wide_label or band.label)
        return text

    def _split_label(self, label: str, wide: str) -> str:
        """``label`` on two lines (at the space nearest the middle of ``wide``, its measured form) when ``wide``
        is wider than the name column may be; never at a space inside a shape or a stride (`(2, 1)` whole:
        "stride (2," over "1)" read as two numbers)."""
        font = self._font(self._label_px())
        if _text_width(wide, font) <= max(60.0, self.fit_width() * 0.22):
            return label
        spaces, cuts = _outer_spaces(wide), _outer_spaces(label)
        if not spaces or len(cuts) != len(spaces):
            return label
        middle = min(range(len(spaces)), key=lambda k: abs(_text_width(wide[:spaces[k]], font)
                                                            - _text_width(wide[spaces[k] + 1:], font)))
        cut = cuts[middle]   # the same space of the label (a version's digits hold none)
        return label[:cut] + "\n" + label[cut + 1:]

    def _label_px(self) -> float:
        """The size (at scale 1) of the bands' labels (shape, stride, offset, version, the "may differ" mark) and
        of their element marks ([0], ×3): in projector mode never under PROJECTOR_LABEL_PX on screen, where the
        map is drawn small to fit (at 1024x768 they were 11 px beside values of 15 px: h17z item 5)."""
        if not self.stretch:
            return LABEL_PX
        return max(LABEL_PX, PROJECTOR_LABEL_PX / max(self.scale_factor, 1e-6))

    def _name_width(self) -> float:
        """The column of band names and their shape/stride labels, as wide as the widest; with the room of the
        ``.grad`` a leaf that requires grad may get (a backward() fills the gradients in, a ``zero_grad()``
        takes them away: neither lays the map out again)."""
        key = ("names", self.scale_factor)
        kept = self._measured.get(key)
        if kept is not None:
            return kept
        name_font, label_font = self._font(16, True), self._font(self._label_px())
        widths = [max(_text_width(b.name, name_font), _lines_width(self._wide_label(b), label_font))
                  for strip in self.strips for b in strip.bands]
        widths += [_text_width(b.name + ".grad", name_font) for strip in self.strips for b in strip.bands
                   if b.may_grad]
        widths += [_text_width(g.name, name_font) for strip in self.strips for g in strip.grads]
        width = self._measured[key] = max(widths, default=0.0) + 24 * self.scale_factor
        return width

    def _wide_label(self, band: BandModel) -> str:
        """The band's label as :meth:`_label` lays it out, with its version's room kept (how it is measured)."""
        label = self._label(band)
        if not band.wide_label or "\n" not in label:
            return band.wide_label or label
        cut = label[:label.index("\n")].count(" ")
        spaces = [i for i, c in enumerate(band.wide_label) if c == " "]
        return band.wide_label[:spaces[cut]] + "\n" + band.wide_label[spaces[cut] + 1:]

    def _draw_strip(self, strip: StripModel, y: float, cell_w: float, name_w: float,
                    old_parts: dict[tuple[object, ...], _Part]) -> tuple[float, dict[tuple[object, ...], _Part]]:
        """The strip's parts, one below the other: its heading, its cells, then each band (with its tensor's
        gradient under it). A part whose layout is unchanged keeps its items, updated in place: an optimizer step
        writes the cells' values and the versions, a backward() the gradients' values, a zero_grad() takes the
        gradients away (their parts go, the others move up)."""
        s = self.scale_factor
        storage = strip.storage
        shown = min(len(strip.values), MAX_CELLS)
        size = tr("{count} bytes").format(count=storage.nbytes)
        if storage.device == "meta":   # the size a meta storage stands for; nothing is allocated (review r18m)
            size = tr("{count} bytes, not allocated").format(count=storage.nbytes)
        header = f"{storage.id}  ·  {size}  ·  {storage.cell_count} × {storage.dtype}  ·  {storage.device}"
        details = []
        if len(storage.tensors) > 1:
            if len({b.same_as or b.name for b in strip.bands}) == 1 and len(strip.bands) == len(storage.tensors):
                # Every name is the same tensor object: one tensor, several names (not shared memory).
                details.append(tr("one tensor: {names}").format(names=sharing_text(strip)))
            else:
                details.append(tr("shared by {names}").format(names=sharing_text(strip)))
        versions = {b.name: v for b in strip.bands if (v := self._versions.get(b.name)) is not None}
        if len(set(versions.values())) == 1:
            details.append(tr("version {number}").format(number=next(iter(versions.values()))))
        elif versions:
            # .data gives a tensor with a counter of its own over the same memory.
            listed = ", ".join(f"{n} {v}" for n, v in versions.items())
            details.append(tr("versions {list} (separate counters)").format(list=listed))
        parts: dict[tuple[object, ...], _Part] = {}
        # Keys are layouts (which items, their sizes); what they show is the content, set in place.
        common = (s, self._language, self.viewport().width() // 40, self.picture)
        head = ("head", header, bool(details), strip.new, strip.culprit, *common)
        y += self._part(head, tuple(details), old_parts, parts, y, 6,
                        functools.partial(self._draw_heading, strip, header, details),
                        functools.partial(self._fill_heading, details)).height
        x0 = name_w
        # A culprit's cells are items of their own kind (hatched) where the step changed nothing.
        cells_key = ("cells", shown, storage.cell_count, strip.culprit, strip.changed if strip.culprit else None,
                     *common)
        cells = self._part(cells_key, (strip.values, strip.changed, x0, cell_w, self._digits), old_parts, parts,
                           y, 0, functools.partial(self._draw_cells, strip),
                           functools.partial(self._fill_cells, strip, x0, cell_w))
        first_cell, cells_top, cell_h = cast("tuple[QRectF | None, float, float]", cells.extra)   # _fill_cells's
        if first_cell is not None:
            self._first_cell = first_cell.translated(0, y)
        self._cells_top = y + cells_top
        y += cells.height
        for band in strip.bands:
            label = self._label(band)
            key: tuple[object, ...] = ("band", band.name, band.color_index, band.cells, band.same_as,
                                       band.name == self.selected, shown, label.count("\n"), *common)
            y += self._part(key, (label, band.label, x0, cell_w), old_parts, parts, y, 3,   # over the cells' backing
                            functools.partial(self._draw_band, band, label, shown),
                            functools.partial(self._fill_band, band, label, x0, cell_w)).height + 8 * s
            for grad in strip.grads:
                if grad.owner == band.name:   # a gradient right under its tensor's band
                    self._grad_tops.append((y, grad.changed, grad.owner))
                    key = ("grad", grad.owner, grad.color_index, grad.shape, len(grad.values[:MAX_CELLS]), cell_h,
                           *common)
                    fill = functools.partial(self._fill_grad, grad, storage.dtype, x0, cell_w, cell_h)
                    y += self._part(key, (grad.values, grad.changed, x0, cell_w, self._digits), old_parts, parts,
                                    y, 3, functools.partial(self._draw_grad, grad, cell_h), fill).height + 14 * s
        return y, parts

    def _draw_heading(self, strip: StripModel, header: str, details: list[str], items: dict[str, Any]) -> float:
        """A strip's heading (its storage, the tensors sharing it, their versions), pinned with the names; its
        height."""
        s = self.scale_factor
        y = 0.0
        # The heading stays in view with the names while the cells scroll sideways.
        # The heading is pinned at the left while the cells scroll: what passes the viewport's right edge stays
        # cut at any scroll ("· cpu" of a 10-million-cell storage, the "new" tag as "ne"), so it wraps there.
        room = self.viewport().width() / max(self.transform().m11(), 1e-6) - 10 * s
        if not self.picture:
            header = _wrapped(header, self._font(16, True), room - 10 * s)
        title = self._pinned_text(header, 10 * s, y, 16, True, None)
        title_h = title.boundingRect().height()
        if strip.new:
            # After the heading's last line where it fits in the viewport; else first on the line below.
            tag_font = self._font(13, True)
            lines = header.split("\n")
            line_h = title_h / len(lines)
            x = 10 * s + _text_width(lines[-1], self._font(16, True)) + 12 * s
            top = y + line_h * (len(lines) - 1)
            if not self.picture and x + _text_width(tr("new"), tag_font) > room:
                x, y = 10 * s, y + title_h + 2 * s
                title_h, top = 0.0, y
            tag = self._pinned_text(tr("new"), x, top + 2 * s, 13, True, QColor("#2e7d32"))
            tag.setToolTip(tr("this storage was allocated by the last step"))
            if title_h == 0.0:
                title_h = tag.boundingRect().height() + 2 * s
        y += title_h + 2 * s
        if details:
            # A second line, so the header never makes the map wider than its cells (its text: _fill_heading).
            line = items["details"] = self._pinned_text("  ·  ".join(details), 10 * s, y, 13, False,
                                                        QColor("#37474f"))
            y += line.boundingRect().height() + 2 * s
        if strip.culprit is not None:
            y = self._culprit_label(strip.culprit, y)
        return y

    def _fill_heading(self, details: list[str], items: dict[str, Any]) -> None:
        """The heading's second line: who shares the storage, their versions (a step changes the versions)."""
        line = items.get("details")
        if line is not None and line.text() != (text := "  ·  ".join(details)):
            line.setText(text)

    def _draw_cells(self, strip: StripModel, items: dict[str, Any]) -> float:
        """A strip's cells with their indices and values (their texts, colours and places: :meth:`_fill_cells`);
        their height."""
        s = self.scale_factor
        storage = strip.storage
        shown = min(len(strip.values), MAX_CELLS)
        # The cells' numbers are painted by two items (indices above, values inside), not two dozen.
        items["indices"], items["numbers"] = self._batch(), self._batch()
        y = self._px(INDEX_PX) + 5 * s
        # About twice the value's height: taller cells took the room of the band under them (1280x720 projector:
        # x's changed cell and the band z written through were 318 px in a 314 px map: h17z item 4).
        cell_h = max(34 * s, self._px(VALUE_PX) + 16 * s)
        items["backing"] = self._pinned_backing(0.0, y + cell_h + 4 * s, 0.0, 2)
        items["geometry"] = (y, cell_h)
        pen, white = QPen(QColor("#424242"), 1.2), QBrush(QColor("white"))
        culprit = strip.culprit.cells if strip.culprit is not None else frozenset()
        items["cells"] = [self._culprit_cell(QRectF()) if i in culprit and i not in strip.changed
                          else self._rect(QRectF(), pen, white) for i in range(shown)]
        if storage.device == "meta":   # a size and no data: no cells to draw, none "more" (placed as "empty")
            items["empty"] = self._text(tr("(the meta device: a size, no data)"), 0, y + cell_h / 3, 13, False, MUTED)
        elif storage.cell_count > shown:
            items["more"] = self._text(tr("… {count} more cells").format(count=f"{storage.cell_count - shown:,}"),
                                       0, y + cell_h / 3, 13, False, MUTED)
        if not strip.values and storage.cell_count == 0:
            items["empty"] = self._text(tr("(empty storage: 0 bytes)"), 0, y + cell_h / 3, 13, False, MUTED)
        return y + cell_h + 8 * s

    def _fill_cells(self, strip: StripModel, x0: float, cell_w: float, items: dict[str, Any]) -> object:
        """What the cells show (values, the changed ones highlighted) and where; (the first cell, the top of the
        cells, their height)."""
        s = self.scale_factor
        y, cell_h = items["geometry"]
        shown = len(items["cells"])
        items["backing"].setRect(QRectF(0, 0, x0 - 2 * s, y + cell_h + 4 * s))
        if items.get("at") != (x0, cell_w):   # the indices move with the cells only
            indices, index_font = items["indices"], self._font(INDEX_PX)
            indices.fill((str(i), x0 + i * cell_w + 4 * s, 0.0, index_font, MUTED, None) for i in range(shown))
            more, empty = items.get("more"), items.get("empty")
            if more is not None:
                more.setPos(x0 + shown * cell_w + 8 * s, y + cell_h / 3)
            if empty is not None:
                empty.setPos(x0, y + cell_h / 3)
            items["at"] = (x0, cell_w)
        pen, changed_pen = QPen(QColor("#424242"), 1.2), QPen(QColor("#f57f17"), 2.5)
        white, amber = QBrush(QColor("white")), QBrush(CHANGED)
        value_font, changed_font = self._font(VALUE_PX, False, mono=True), self._font(VALUE_PX, True, mono=True)
        black = QColor("black")
        culprit = strip.culprit
        culprit_tip = self._culprit_text(culprit) + "\n" if culprit is not None else ""
        changed_tip = tr("changed by the last step") + "\n"
        numbers = []
        texts = self._shown_texts(strip.values, strip.storage.dtype)
        # Only the cells whose look changed are set again (an optimizer step changes some values, a step after it
        # none): what each cell was last set to is kept, with the fonts it was measured in.
        fonts = (value_font, changed_font)
        was = items.get("drawn") if items.get("fonts") == fonts else None
        drawn = []
        for i, item in enumerate(items["cells"]):
            changed = i in strip.changed
            tip = (changed_tip if changed else "") + (culprit_tip if culprit is not None and i in culprit.cells
                                                      else "") + str(strip.values[i])
            look = (x0 + i * cell_w, y, cell_w, cell_h, changed, tip, texts[i])
            drawn.append(look)
            rect = QRectF(look[0], y, cell_w, cell_h)
            numbers.append((texts[i], 0, 0, changed_font if changed else value_font, black, rect.center()))
            if was is not None and was[i] == look:
                continue
            item.setRect(rect)
            if item.data(_CULPRIT_KEY):
                for hatch in item.childItems():
                    cast("QGraphicsRectItem", hatch).setRect(rect)
            else:
                item.setPen(changed_pen if changed else pen)
                item.setBrush(amber if changed else white)
            item.setToolTip(tip)
        if drawn != was:   # (the numbers' texts, fonts and places are all in each cell's look)
            items["numbers"].fill(numbers)
        items["drawn"], items["fonts"] = drawn, fonts
        return (QRectF(x0, y, cell_w, cell_h) if shown else None), y, cell_h

    def _culprit_text(self, culprit: Culprit) -> str:
        return tr("changed by step {step}, after autograd saved it").format(
            step=", ".join(str(n) for n in culprit.steps))

    def _culprit_label(self, culprit: Culprit, y: float) -> float:
        """The mark's legend, pinned with the names: a swatch of the mark, then what it means (by text, so the
        mark is told without its colour)."""
        s = self.scale_factor
        side = self._px(13)
        swatch = self._culprit_cell(QRectF(0, y + 2 * s, side * 1.6, side))
        swatch.setX(10 * s)
        swatch.setZValue(6)
        self._pin_item(swatch, 10 * s)
        for child in swatch.childItems():
            child.setZValue(6)
        x = 10 * s + side * 1.6 + 8 * s
        text = self._culprit_text(culprit)
        label = self._pinned_text(text, x, y, 13, True, CULPRIT_LINE)
        # Pinned with the names, it does not scroll: wider than the map's view, its end was never on screen
        # (1024x768 projector); its words go on as many lines as the view needs.
        room = self.viewport().width() / max(self.transform().m11(), 1e-6) - x - 6 * s
        if label.boundingRect().width() > room > 0:
            metrics = QFontMetricsF(label.font())
            lines: list[str] = []
            for word in text.split(" "):
                if lines and metrics.horizontalAdvance(f"{lines[-1]} {word}") <= room:
                    lines[-1] = f"{lines[-1]} {word}"
                else:
                    lines.append(word)
            label.setText("\n".join(lines))
        return y + max(label.boundingRect().height(), side) + 4 * s

    def _culprit_cell(self, rect: QRectF) -> QGraphicsRectItem:
        """A cell in the culprit's mark: light blue, hatched, a thick dashed outline (not the last step's amber)."""
        pen = QPen(CULPRIT_LINE, 3 * self.scale_factor, Qt.PenStyle.DashLine)
        item = self._rect(rect, pen, QBrush(CULPRIT))
        hatch = QGraphicsRectItem(rect, item)
        hatch.setPen(QPen(Qt.PenStyle.NoPen))
        hatch.setBrush(QBrush(CULPRIT_LINE, Qt.BrushStyle.BDiagPattern))
        hatch.setOpacity(0.35)   # the value stays readable over it
        item.setData(_CULPRIT_KEY, True)
        return item

    def culprit_items(self) -> list[QGraphicsRectItem]:
        """The cells drawn with the culprit's mark (the legend's swatch among them)."""
        return [item for item in self.scene().items()
                if isinstance(item, QGraphicsRectItem) and item.data(_CULPRIT_KEY)]

    def _pinned_backing(self, top: float, height: float, width: float, z: float) -> QGraphicsRectItem:
        """An opaque rectangle under the name column, pinned with it (cells scroll under it, unseen)."""
        backing = self._rect(QRectF(0, top, width - 2 * self.scale_factor, height), QPen(Qt.PenStyle.NoPen),
                             QBrush(QColor("#fafafa")))
        backing.setZValue(z)
        self._pin_item(backing, 0.0)
        return backing

    def _pin_item(self, item: QGraphicsItem, x: float) -> None:
        """``item`` belongs to the name column: kept at ``x`` from the viewport's left while the strips scroll
        (recorded with the part being drawn, so a step never walks the strips' items to find them)."""
        item.setData(_PIN_KEY, x)
        if self._pin_sink is not None:
            self._pin_sink.append((item, x))

    def _pinned_text(self, text: str, x: float, y: float, size: float, bold: bool,
                     color: QColor | None) -> QGraphicsSimpleTextItem:
        item = self._text(text, x, y, size, bold, color)
        item.setZValue(6)
        self._pin_item(item, x)
        return item

    def _draw_grad(self, grad: GradModel, cell_h: float, items: dict[str, Any]) -> float:
        """``x.grad``: its own memory, a row of cells under its tensor's band (what they show:
        :meth:`_fill_grad`); its height."""
        s = self.scale_factor
        color = tensor_color(grad.color_index)
        items["backing"] = self._pinned_backing(-2 * s, cell_h + 4 * s, 0.0, 5)
        name = self._pinned_text(grad.name, 8 * s, 0.0, 16, True, color)
        shape = "[" + ", ".join(map(str, grad.shape)) + "]"
        self._pinned_text(shape, 8 * s, name.boundingRect().height(), self._label_px(), False, QColor("#424242"))
        items["numbers"] = self._batch()
        pen = QPen(color, 1.5, Qt.PenStyle.DashLine)   # dashed: memory of its own, not the strip's cells
        shown = len(grad.values[:MAX_CELLS])
        items["cells"] = [self._rect(QRectF(), pen, QBrush(QColor("white"))) for _ in range(shown)]
        count = _numel(grad.shape)
        if count > shown:
            items["more"] = self._text(tr("… {count} more cells").format(count=f"{count - shown:,}"), 0,
                                       cell_h / 3, 13, False, MUTED)
        return max(cell_h, name.boundingRect().height() + self._px(self._label_px()) + 4 * s)

    def _fill_grad(self, grad: GradModel, dtype: str, x0: float, cell_w: float, cell_h: float,
                   items: dict[str, Any]) -> None:
        """What a gradient's cells show (values, the changed ones highlighted) and where (``dtype``: its tensor's
        storage's, as the cells' width measured its texts)."""
        s = self.scale_factor
        items["backing"].setRect(QRectF(0, -2 * s, x0 - 2 * s, cell_h + 4 * s))
        pen = QPen(tensor_color(grad.color_index), 1.5, Qt.PenStyle.DashLine)
        changed_pen, white, amber = QPen(QColor("#f57f17"), 2.5), QBrush(QColor("white")), QBrush(CHANGED)
        value_font, changed_font = self._font(VALUE_PX, False, mono=True), self._font(VALUE_PX, True, mono=True)
        black = QColor("black")
        numbers = []
        texts = self._shown_texts(grad.values, dtype)
        changed_tip = tr("changed by the last step") + "\n"
        # Only the cells whose look changed are set again (as in :meth:`_fill_cells`).
        fonts = (value_font, changed_font)
        was = items.get("drawn") if items.get("fonts") == fonts else None
        drawn = []
        for i, (item, value) in enumerate(zip(items["cells"], grad.values, strict=False)):
            changed = i in grad.changed
            tip = (changed_tip if changed else "") + f"{grad.name}: {value}"
            look = (x0 + i * cell_w, cell_w, cell_h, changed, tip, texts[i])
            drawn.append(look)
            rect = QRectF(look[0], 0.0, cell_w, cell_h)
            numbers.append((texts[i], 0, 0, changed_font if changed else value_font, black, rect.center()))
            if was is not None and was[i] == look:
                continue
            item.setRect(rect)
            item.setPen(changed_pen if changed else pen)
            item.setBrush(amber if changed else white)
            item.setToolTip(tip)
        if drawn != was:
            items["numbers"].fill(numbers)
        items["drawn"], items["fonts"] = drawn, fonts
        more = items.get("more")
        if more is not None:
            more.setPos(x0 + len(items["cells"]) * cell_w + 8 * s, cell_h / 3)

    def _draw_band(self, band: BandModel, label_text: str, shown: int, items: dict[str, Any]) -> float:
        """A tensor's band: its name and label in the name column, a rectangle over each of its cells (their
        places and the label's text: :meth:`_fill_band`); its height."""
        s = self.scale_factor
        band_h = max(28 * s, self._px(self._label_px()) + 12 * s)
        color = tensor_color(band.color_index)
        selected = band.name == self.selected
        # Name, then shape, stride, offset and version under it (on two lines when long): the map stays narrow.
        name = items["name"] = self._pinned_text(band.name, 8 * s, -6 * s, 16, True, color)
        label = items["label"] = self._pinned_text(label_text, 8 * s, -6 * s + name.boundingRect().height(),
                                                   self._label_px(), False, QColor("#424242"))
        row_h = max(band_h, name.boundingRect().height() + label.boundingRect().height())
        items["backing"] = self._pinned_backing(-6 * s, row_h + 6 * s, 0.0, 5)
        items["sizes"] = (band_h, row_h)
        visible = [c for c in band.cells if 0 <= c < shown]
        if visible:
            line = QColor(color)
            line.setAlpha(90)
            items["span"] = (self._rect(QRectF(), QPen(Qt.PenStyle.NoPen), QBrush(line)), min(visible), max(visible))
        fill = QColor(color)
        fill.setAlpha(210 if selected else 160)
        outline = QPen(QColor("#000000") if selected else color, 2.5 if selected else 1)
        numbered = len(band.cells) <= MAX_CELLS
        orders: dict[int, list[int]] = {}
        for order, cell in enumerate(band.cells):
            orders.setdefault(cell, []).append(order)
        items["labels"] = self._batch() if numbered else None
        select = tr("{name}: click to select").format(name=band.name)
        rects = items["rects"] = []
        for cell, elements in orders.items():
            if not 0 <= cell < shown:
                continue
            item = self._rect(QRectF(), outline, QBrush(fill))
            # Plain items only (no Python subclasses): clicks are resolved in mousePressEvent.
            item.setData(_NAME_KEY, band.name)
            item.setCursor(Qt.CursorShape.PointingHandCursor)
            if numbered:
                item.setToolTip(select + "\n" + tr("elements {list} of {name}").format(
                    list=", ".join(map(str, elements)), name=band.name))
            else:
                item.setToolTip(select)
            rects.append((cell, elements, item))
        if band.cells and not visible and shown:   # none shown at all: a meta storage, said on its strip
            items["beyond"] = self._text(tr("(its cells lie beyond those shown)"), 0, 3 * s, 12, False, MUTED)
        return max(band_h, name.boundingRect().height() + label.boundingRect().height() - 4 * s)

    def _fill_band(self, band: BandModel, label_text: str, x0: float, cell_w: float, items: dict[str, Any]) -> None:
        """A band's label (its version counts up) and the places of its rectangles (the cells' width)."""
        s = self.scale_factor
        label = items["label"]
        if label.text() != label_text:
            label.setText(label_text)
            items["name"].setToolTip(band.label)
        elif not items["name"].toolTip():
            items["name"].setToolTip(band.label)
        if items.get("at") == (x0, cell_w):
            return
        items["at"] = (x0, cell_w)
        band_h, row_h = items["sizes"]
        items["backing"].setRect(QRectF(0, -6 * s, x0 - 2 * s, row_h + 6 * s))
        span = items.get("span")
        if span is not None:
            item, lo, hi = span
            item.setRect(QRectF(x0 + lo * cell_w + 3 * s, band_h / 2 - 2 * s, (hi - lo + 1) * cell_w - 6 * s, 4 * s))
        labels = items["labels"]
        if labels is not None:
            labels.clear()
        label_font, white = self._font(self._label_px(), True), QColor("white")
        for cell, elements, item in items["rects"]:
            rect = QRectF(x0 + cell * cell_w + 2 * s, 0.0, cell_w - 4 * s, band_h)
            item.setRect(rect)
            if labels is not None:
                # Which element of the tensor sits in this cell: shows strides at a glance.
                # An expanded view reads one cell for several elements: say how many.
                labels.add(f"[{elements[0]}]" if len(elements) == 1 else f"×{len(elements)}", 0, 0, label_font,
                           white, center=rect.center())
        beyond = items.get("beyond")
        if beyond is not None:
            beyond.setPos(x0, 3 * s)

    def band_items(self) -> list[QGraphicsRectItem]:
        """The band rectangles drawn (for tests)."""
        return [i for i in self.scene().items() if isinstance(i, QGraphicsRectItem) and i.data(_NAME_KEY)]

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            # A drawing fitted to one width can bring a scroll bar that narrows the view, and the drawing fitted to
            # that width takes it away again: redrawn on every such resize, the map never settled (a slide
            # export at 1024x768 projector hung in this loop). A width drawn twice in the last moment is such a
            # loop: the drawing stays as it is.
            now, width = time.monotonic(), event.size().width()
            self._resize_draws = [(t, w) for t, w in getattr(self, "_resize_draws", []) if now - t < 0.5]
            if sum(1 for _t, w in self._resize_draws if w == width) >= 2:
                return
            self._resize_draws.append((now, width))
            # The empty map's hint wraps to the new width; strips fit it again, and what the step changed
            # stays in view.
            self._draw()
            if self.strips:
                self.show_followed()
        elif event.size().height() != event.oldSize().height() and self.strips and event.oldSize().height() > 0:
            # Shorter or taller (the docks settled after the step, the "+N more changed" row came): what the step
            # made or changed is scrolled to again, whole when it fits, landing on a line (review r17c: the
            # band a step made was left below the fold).
            self.show_followed()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            self.enterPressed.emit()
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        for item in self.items(event.position().toPoint()):
            owner = item.data(_GROUP_KEY)
            if isinstance(owner, str):
                self.toggle_group(owner)
                break
            name = item.data(_NAME_KEY)
            if isinstance(name, str):
                self.tensorClicked.emit(name)
                break
        super().mousePressEvent(event)


class _Part:
    """One part of a strip (its heading, its cells, a band, a gradient): its items, drawn at y = 0 in ``holder``
    (a child of the strip's group), their height, its items of the name column, the items its fill updates
    (by role), what they show now (``content``), and what the strip needs of it (``extra``)."""

    __slots__ = ("holder", "height", "pinned", "items", "content", "extra", "detached")

    def __init__(self, holder: QGraphicsRectItem, height: float, pinned: list[tuple[QGraphicsItem, float]],
                 items: dict[str, Any]) -> None:
        self.holder, self.height, self.pinned, self.items = holder, height, pinned, items
        self.content: tuple[object, ...] = ()
        self.extra: object = None
        self.detached = False   # kept off the scene (a gradient gone), for when it comes back


class _Drawn:
    """One strip's items (children of ``group``, drawn at y = 0), and the look they show."""

    __slots__ = ("look", "group", "height", "first_cell", "parts", "cells_top", "cell_h", "grad_rows", "pinned",
                 "spare")

    def __init__(self, look: tuple[object, ...], group: QGraphicsRectItem, height: float,
                 first_cell: QRectF | None,
                 parts: dict[tuple[object, ...], _Part],
                 cells_top: float = 0.0, cell_h: float = 0.0,
                 grad_rows: list[tuple[float, frozenset[int], str]] | None = None,
                 pinned: list[tuple[QGraphicsItem, float]] | None = None) -> None:
        self.look, self.group, self.height, self.first_cell = look, group, height, first_cell
        self.parts = parts   # part look -> its items (children of group), kept for the next drawing
        self.cells_top, self.cell_h = cells_top, cell_h   # the storage's cells, from the group's top
        self.grad_rows = grad_rows or []                  # the gradients' cells: (top, changed, owner)
        self.pinned = pinned or []                        # the items of the name column, and their x
        self.spare: dict[tuple[object, ...], _Part] = {}  # gradients' parts kept off the scene (gone for now)


def _text_width(text: str, font: QFont) -> float:
    """``text``'s width in ``font`` (one of the view's own fonts, whose metrics are kept)."""
    return text_width(text, font)


def _lines_width(text: str, font: QFont) -> float:
    """The widest line of ``text``."""
    return max(_text_width(line, font) for line in text.split("\n"))


def _wrapped(text: str, font: QFont, width: float) -> str:
    """``text`` broken at spaces into lines no wider than ``width`` (a word wider than it keeps a line)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and _text_width(lines[-1] + " " + word, font) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


def _numel(shape: tuple[int, ...]) -> int:
    """How many elements a tensor of ``shape`` has."""
    count = 1
    for size in shape:
        count *= size
    return count


def _first_run(cells: set[int]) -> tuple[int, int]:
    """The first run of consecutive indices in ``cells``: (first, last)."""
    lo = hi = min(cells)
    while hi + 1 in cells:
        hi += 1
    return lo, hi


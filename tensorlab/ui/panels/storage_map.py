"""The storage map: each storage a strip of memory cells, each tensor a band over its cells.

The map is drawn at the chosen text scale and never shrunk to fit: when it does not
fit it scrolls, and after each step it scrolls to the strips the step created or
changed and flashes them briefly. Cells are as wide as the widest value, so no
number is cut.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QMouseEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsSimpleTextItem, QGraphicsTextItem, QWidget

from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.ui.panels.storage_strips import MAX_CELLS, BandModel, StripModel, module_groups, strip_models
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, tr
from tensorlab.ui.widgets.palette import CHANGED, MUTED, format_value, tensor_color
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.scene_view import SceneView, font_metrics

__all__ = ["StorageMapView", "StripModel", "strip_models"]

_NAME_KEY = 0           # QGraphicsItem data key holding a band's tensor name
_GROUP_KEY = 1          # ... holding a module group header's module name (a click collapses or opens it)
VALUE_PX = 15           # cell values, at text scale 1
FLASH_MS = 1200


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
        # Each strip is drawn once into a group and kept while nothing it shows changes: a step
        # redraws only the strips it touched (the others move, at most).
        self._drawn: dict[str, _Drawn] = {}
        self._header: QGraphicsSimpleTextItem | None = None
        self._header_scale = 0.0        # the text scale the header was made at
        self._widths: dict[tuple[object, ...], float] = {}   # (a strip's first values, font) -> widest
        self._language = 0
        self.groups: list[tuple[str | None, list[StripModel]]] = []   # strips by module (module_groups)
        self.collapsed: set[str] = set()          # module groups shown as their header only
        self._group_items: list[QGraphicsItem] = []

    # -- public ----------------------------------------------------------------
    def render_view(self, view: View) -> None:
        """Show the view's snapshot; a step just run is followed (its storages in view, flashed)."""
        state = view.state
        self.show_snapshot(state.snapshot, state.previous_snapshot, state.device, view.selected, follow=view.ran)
        if view.followed and not self.followed:
            self.show_selected()   # memory unchanged (a backward()): show the tensor it changed

    @contained
    def show_snapshot(self, snapshot: Snapshot, previous: Snapshot, device: str = "cpu",
                      selected: str | None = None, follow: bool = True) -> None:
        """Render ``snapshot`` (cells that differ from ``previous`` highlighted); ``follow``: show what changed."""
        self.device, self.selected = device, selected
        self.strips = strip_models(snapshot, previous)
        self.groups = module_groups(self.strips, snapshot)
        self._versions = {t.name: t.version for t in snapshot.tensors}
        self.followed = tuple(s.storage.id for s in self.strips if s.changed or s.new)
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
            if self.flashes:
                self._start_flash(rects)

    def show_followed(self) -> None:
        """Scroll, without flashing, to what the last step created or changed (else the selected tensor):
        after the text grew or the panel moved (projector mode, zoom), it is still what is in view."""
        rects = [self.strip_rects[i] for i in self.followed if i in self.strip_rects]
        if rects:
            self._scroll_to(rects)
        else:
            self.show_selected()

    def _scroll_to(self, rects: list[QRectF]) -> None:
        union = rects[0]
        for rect in rects[1:]:
            union = union.united(rect)
        scale = max(self.transform().m22(), 1e-6)
        width, height = self.viewport().width() / scale - 24, self.viewport().height() / scale - 24
        # The top-left of what changed (all of it when it fits): never scrolled past a strip's start.
        self.ensureVisible(QRectF(union.left(), union.top(), 1, min(union.height(), height)), 0, 10)
        if union.width() <= width:
            self.ensureVisible(union, 10, 10)

    def show_selected(self) -> None:
        """Scroll (without flashing) until the selected tensor's strip is in view."""
        home = next((s.storage.id for s in self.strips if any(b.name == self.selected for b in s.bands)), None)
        if home in self.strip_rects:
            rect = self.strip_rects[home]
            self.ensureVisible(QRectF(rect.left(), rect.top(), 1, min(rect.height(), 200)), 0, 10)

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
        self._stop_flash()
        self.scene().clear()
        self._drawn = {}
        self._header = None
        self._group_items = []

    def _draw(self) -> None:
        self._stop_flash()
        scene = self.scene()
        self.strip_rects = {}
        s = self.scale_factor
        y = 10 * s
        if not self.strips:
            self._clear()
            self._text(tr("No tensors yet."), 20 * s, y, 17, True, MUTED)
            hint = QGraphicsTextItem()
            hint.setDefaultTextColor(MUTED)
            hint.setFont(self._font(14))
            hint.setPlainText(tr("Create one with the builders on the left, type a line of PyTorch,\n"
                                 "or press → to run the lesson's first step.").replace("\n", " "))
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
        header = tr("Memory on {device}: one strip per storage, one band per tensor viewing it").format(
            device=self.device)
        if self._header.text() != header:
            self._header.setText(header)
        y += 30 * s
        cell_w = self._cell_width()
        name_w = self._name_width()
        drawn: dict[str, _Drawn] = {}
        for item in self._group_items:
            scene.removeItem(item)
        self._group_items = []
        for strip in self._shown_strips():
            if isinstance(strip, str):   # a module's group header, then its strips unless collapsed
                y = self._group_header(strip, y)
                continue
            key = strip.storage.id
            look = self._look(strip, cell_w, name_w)
            entry = self._drawn.pop(key, None)
            if entry is None or entry.look != look:
                old = entry
                entry = self._draw_group(strip, look, cell_w, name_w, old.bands if old is not None else {})
                if old is not None:
                    scene.removeItem(old.group)   # after its unchanged bands moved to the new group
            entry.group.setPos(0, y)
            drawn[key] = entry
            if entry.first_cell is not None and self.cell_rect != entry.first_cell.translated(0, y):
                self.cell_rect = entry.first_cell.translated(0, y)
            cells = max(1, min(len(strip.values), MAX_CELLS))
            self.strip_rects[key] = QRectF(4 * s, y - 4 * s, name_w + cell_w * cells, entry.height + 4 * s)
            y += entry.height + 22 * s
        for entry in self._drawn.values():   # storages no name views any more
            scene.removeItem(entry.group)
        self._drawn = drawn
        rect = scene.itemsBoundingRect().adjusted(-10, -10, 20, 20)
        if rect != scene.sceneRect():
            scene.setSceneRect(rect)

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
        text = tr("{mark} module {name}: {count} storages of its parameters and buffers").format(
            mark=mark, name=owner, count=count)
        item = self._text(text, 10 * s, y, 13, True, MUTED)
        item.setData(_GROUP_KEY, owner)
        item.setCursor(Qt.CursorShape.PointingHandCursor)
        self._group_items.append(item)
        return y + item.boundingRect().height() + 10 * s

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
                strip.changed, strip.new, strip.bands, versions, selected, cell_w, name_w, self.scale_factor,
                self._language)

    def _draw_group(self, strip: StripModel, look: tuple[object, ...], cell_w: float, name_w: float,
                    old_bands: dict[tuple[object, ...], tuple[QGraphicsRectItem, float]]) -> _Drawn:
        group = QGraphicsRectItem()
        group.setPen(QPen(Qt.PenStyle.NoPen))
        self.scene().addItem(group)
        self.parent_item, self._first_cell = group, None
        try:
            height, bands = self._draw_strip(strip, 0.0, cell_w, name_w, old_bands)
        finally:
            self.parent_item = None
        return _Drawn(look, group, height, self._first_cell, bands)

    def _cell_width(self) -> float:
        """Cells as wide as the widest value drawn (at least 64 px at scale 1)."""
        font = self._font(VALUE_PX, True, mono=True)
        widest = max((self._widest(strip.values[:MAX_CELLS], font) for strip in self.strips), default=0.0)
        return max(64 * self.scale_factor, widest + 14 * self.scale_factor)

    def _widest(self, values: tuple[object, ...], font: QFont) -> float:
        """The widest of a strip's values as the map writes them, kept while they stay the same."""
        key = (values, id(font))
        try:
            widest = self._widths.get(key)
        except TypeError:   # a value that cannot be a key (a list): measured afresh
            return max((_text_width(format_value(v), font) for v in values), default=0.0)
        if widest is None:
            if len(self._widths) > 4096:
                self._widths.clear()
            widest = self._widths[key] = max((_text_width(format_value(v), font) for v in values), default=0.0)
        return widest

    def _name_width(self) -> float:
        """The column of band names and their shape/stride labels, as wide as the widest."""
        widths = [max(_text_width(b.name, self._font(16, True)), _text_width(b.label, self._font(12)))
                  for strip in self.strips for b in strip.bands]
        return max(widths, default=0.0) + 24 * self.scale_factor

    def _draw_strip(self, strip: StripModel, y: float, cell_w: float, name_w: float,
                    old_bands: dict[tuple[object, ...], tuple[QGraphicsRectItem, float]],
                    ) -> tuple[float, dict[tuple[object, ...], tuple[QGraphicsRectItem, float]]]:
        s = self.scale_factor
        storage = strip.storage
        shown = min(len(strip.values), MAX_CELLS)
        size = tr("{count} bytes").format(count=storage.nbytes)
        header = f"{storage.id}  ·  {size}  ·  {storage.cell_count} × {storage.dtype}  ·  {storage.device}"
        details = []
        if len(storage.tensors) > 1:
            details.append(tr("shared by {names}").format(names=", ".join(storage.tensors)))
        versions = {b.name: v for b in strip.bands if (v := self._versions.get(b.name)) is not None}
        if len(set(versions.values())) == 1:
            details.append(tr("version {number}").format(number=next(iter(versions.values()))))
        elif versions:
            # .data gives a tensor with a counter of its own over the same memory.
            listed = ", ".join(f"{n} {v}" for n, v in versions.items())
            details.append(tr("versions {list} (separate counters)").format(list=listed))
        title = self._text(header, 10 * s, y, 16, True)
        if strip.new:
            tag = self._text(tr("new"), 10 * s + title.boundingRect().width() + 12 * s, y + 2 * s, 13, True,
                             QColor("#2e7d32"))
            tag.setToolTip(tr("this storage was allocated by the last step"))
        y += title.boundingRect().height() + 2 * s
        if details:
            # A second line, so the header never makes the map wider than its cells.
            line = self._text("  ·  ".join(details), 10 * s, y, 13, False, QColor("#37474f"))
            y += line.boundingRect().height() + 2 * s
        x0 = name_w
        # The cells' numbers (indices above, values inside) are painted by one item, not two dozen.
        numbers = self._batch()
        index_font = self._font(11)
        for i in range(shown):
            numbers.add(str(i), x0 + i * cell_w + 4 * s, y, index_font, MUTED)
        y += self._px(11) + 6 * s
        cell_h = max(40 * s, self._px(VALUE_PX) + 16 * s)
        pen = QPen(QColor("#424242"), 1.2)
        value_font, changed_font = self._font(VALUE_PX, False, mono=True), self._font(VALUE_PX, True, mono=True)
        black = QColor("black")
        for i in range(shown):
            rect = QRectF(x0 + i * cell_w, y, cell_w, cell_h)
            changed = i in strip.changed
            item = self._rect(rect, QPen(QColor("#f57f17"), 2.5) if changed else pen,
                              QBrush(CHANGED if changed else QColor("white")))
            if i == 0:
                self._first_cell = QRectF(rect)
            item.setToolTip((tr("changed by the last step") + "\n" if changed else "") + str(strip.values[i]))
            numbers.add(format_value(strip.values[i]), 0, 0, changed_font if changed else value_font, black,
                        center=rect.center())
        if storage.cell_count > shown:
            more = storage.cell_count - shown
            self._text(tr("… {count} more cells").format(count=f"{more:,}"), x0 + shown * cell_w + 8 * s,
                       y + cell_h / 3, 13, False, MUTED)
        if not strip.values and storage.cell_count == 0:
            self._text(tr("(empty storage: 0 bytes)"), x0, y + cell_h / 3, 13, False, MUTED)
        y += cell_h + 8 * s
        # A band whose look is unchanged (most, when a step writes values) is moved, not drawn again.
        bands: dict[tuple[object, ...], tuple[QGraphicsRectItem, float]] = {}
        strip_group = self.parent_item
        assert strip_group is not None  # drawn inside _draw_group, which sets the strip's group
        for band in strip.bands:
            key = (band, band.name == self.selected, cell_w, x0, shown, s, self._language)
            kept = old_bands.pop(key, None)
            if kept is None:
                holder = QGraphicsRectItem(strip_group)
                holder.setPen(QPen(Qt.PenStyle.NoPen))
                self.parent_item = holder
                try:
                    kept = (holder, self._draw_band(band, x0, 0.0, cell_w, shown))
                finally:
                    self.parent_item = strip_group
            else:
                kept[0].setParentItem(strip_group)
            kept[0].setPos(0, y)
            bands[key] = kept
            y += kept[1] + 8 * s
        return y, bands

    def _draw_band(self, band: BandModel, x0: float, y: float, cell_w: float, shown: int) -> float:
        s = self.scale_factor
        band_h = max(28 * s, self._px(11) + 12 * s)
        color = tensor_color(band.color_index)
        selected = band.name == self.selected
        # Name, then shape, stride, offset and version under it: the map stays narrow.
        name = self._text(band.name, 8 * s, y - 6 * s, 16, True, color)
        name.setToolTip(band.label)
        self._text(band.label, 8 * s, y - 6 * s + name.boundingRect().height(), 12, False, QColor("#424242"))
        visible = [c for c in band.cells if 0 <= c < shown]
        if visible:
            lo, hi = min(visible), max(visible)
            span = QRectF(x0 + lo * cell_w + 3 * s, y + band_h / 2 - 2 * s, (hi - lo + 1) * cell_w - 6 * s, 4 * s)
            line = QColor(color)
            line.setAlpha(90)
            self._rect(span, QPen(Qt.PenStyle.NoPen), QBrush(line))
        fill = QColor(color)
        fill.setAlpha(210 if selected else 160)
        outline = QPen(QColor("#000000") if selected else color, 2.5 if selected else 1)
        numbered = len(band.cells) <= MAX_CELLS
        orders: dict[int, list[int]] = {}
        for order, cell in enumerate(band.cells):
            orders.setdefault(cell, []).append(order)
        labels = self._batch() if numbered else None
        label_font, white = self._font(11, True), QColor("white")
        select = tr("{name}: click to select").format(name=band.name)
        for cell, elements in orders.items():
            if not 0 <= cell < shown:
                continue
            rect = QRectF(x0 + cell * cell_w + 2 * s, y, cell_w - 4 * s, band_h)
            item = self._rect(rect, outline, QBrush(fill))
            # Plain items only (no Python subclasses): clicks are resolved in mousePressEvent.
            item.setData(_NAME_KEY, band.name)
            item.setCursor(Qt.CursorShape.PointingHandCursor)
            if labels is None:
                item.setToolTip(select)
                continue
            # Which element of the tensor sits in this cell: shows strides at a glance.
            # An expanded view reads one cell for several elements: say how many.
            labels.add(f"[{elements[0]}]" if len(elements) == 1 else f"×{len(elements)}", 0, 0, label_font, white,
                       center=rect.center())
            item.setToolTip(select + "\n" + tr("elements {list} of {name}").format(
                list=", ".join(map(str, elements)), name=band.name))
        if band.cells and not visible:
            self._text(tr("(its cells lie beyond those shown)"), x0, y + 3 * s, 12, False, MUTED)
        return y + max(band_h, name.boundingRect().height() + self._px(12))

    def band_items(self) -> list[QGraphicsRectItem]:
        """The band rectangles drawn (for tests)."""
        return [i for i in self.scene().items() if isinstance(i, QGraphicsRectItem) and i.data(_NAME_KEY)]

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if not self.strips and event.size().width() != event.oldSize().width():
            self._draw()    # the empty map's hint wraps to the new width

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


class _Drawn:
    """One strip's items (children of ``group``, drawn at y = 0), and the look they show."""

    __slots__ = ("look", "group", "height", "first_cell", "bands")

    def __init__(self, look: tuple[object, ...], group: QGraphicsRectItem, height: float,
                 first_cell: QRectF | None,
                 bands: dict[tuple[object, ...], tuple[QGraphicsRectItem, float]]) -> None:
        self.look, self.group, self.height, self.first_cell = look, group, height, first_cell
        self.bands = bands   # band look -> (its items' holder, child of group; its height)


def _text_width(text: str, font: QFont) -> float:
    """``text``'s width in ``font`` (one of the view's own fonts, whose metrics are kept)."""
    return font_metrics(font).horizontalAdvance(text)

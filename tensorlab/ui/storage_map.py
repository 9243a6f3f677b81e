"""The storage map: each storage a strip of memory cells, each tensor a band over its cells."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QWidget,
)

from tensorlab.core.snapshot import Snapshot, StorageInfo, TensorInfo, covered_cells
from tensorlab.ui.i18n import Texts, tr
from tensorlab.ui.palette import CHANGED, MUTED, format_value, tensor_color
from tensorlab.ui.scene_view import SceneView

__all__ = ["StorageMapView", "StripModel", "strip_models"]

MAX_CELLS = 12          # cells drawn per strip; the rest is counted
_NAME_KEY = 0           # QGraphicsItem data key holding a band's tensor name


@dataclass(frozen=True)
class BandModel:
    """One tensor over one strip: which cells it covers, in the tensor's element order."""

    name: str
    color_index: int
    cells: tuple[int, ...]          # strip cell indices, in the tensor's element order
    label: str


@dataclass(frozen=True)
class StripModel:
    """One storage as drawn: its cells, which changed, and its bands."""

    storage: StorageInfo
    values: tuple[object, ...]
    changed: frozenset[int]
    new: bool
    bands: tuple[BandModel, ...]


def _band_cells(info: TensorInfo, storage: StorageInfo) -> tuple[int, ...]:
    if info.stride is None or info.storage_offset is None:
        return ()
    cells = covered_cells(info.shape, info.stride, info.storage_offset, MAX_CELLS * 4)
    if info.element_size == storage.element_size:
        return cells
    # A view with another element size (view_as_real, .view(dtype)): map through bytes.
    return tuple(c * info.element_size // storage.element_size for c in cells)


def _band_label(info: TensorInfo) -> str:
    shape = "[" + ", ".join(map(str, info.shape)) + "]"
    stride = "(" + ", ".join(map(str, info.stride or ())) + ")"
    version = info.version if info.version is not None else "-"
    return f"{shape} stride {stride} offset {info.storage_offset} v{version}"


def strip_models(snapshot: Snapshot, previous: Snapshot) -> list[StripModel]:
    """What the map draws for ``snapshot``, with cells changed since ``previous`` marked."""
    order = {t.name: i for i, t in enumerate(snapshot.tensors)}
    before = {s.key: s for s in previous.storages}
    strips = []
    for storage in snapshot.storages:
        values = tuple(storage.cells or ())
        old = before.get(storage.key)
        changed: set[int] = set()
        if old is not None and old.dtype == storage.dtype:
            old_values = tuple(old.cells or ())
            changed = {i for i, v in enumerate(values) if i >= len(old_values) or old_values[i] != v}
        bands = []
        for name in storage.tensors:
            info = snapshot.tensor(name)
            if info is None:
                continue
            bands.append(BandModel(name, order[name], _band_cells(info, storage), _band_label(info)))
        strips.append(StripModel(storage, values, frozenset(changed), old is None and bool(previous.tensors),
                                 tuple(bands)))
    return strips


class StorageMapView(SceneView):
    """Draws every storage as a strip of cells with the tensors that view it stacked below."""

    tensorClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("storageMap")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, "Storage map")
        self.i18n.on_change(self._draw)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setBackgroundBrush(QBrush(QColor("#fafafa")))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.strips: list[StripModel] = []
        self.selected: str | None = None
        self._snapshot = Snapshot()
        self._previous = Snapshot()
        self.device = "cpu"
        self._versions: dict[str, int | None] = {}

    # -- public ----------------------------------------------------------------
    def show_snapshot(self, snapshot: Snapshot, previous: Snapshot, device: str = "cpu") -> None:
        """Render ``snapshot``; cells that differ from ``previous`` are highlighted."""
        self._snapshot, self._previous, self.device = snapshot, previous, device
        self.strips = strip_models(snapshot, previous)
        self._versions = {t.name: t.version for t in snapshot.tensors}
        self._draw()

    def select(self, name: str | None) -> None:
        """Outline the bands of ``name``."""
        self.selected = name
        self._draw()

    def _draw(self) -> None:
        scene = self.scene()
        scene.clear()
        s = self.scale_factor
        cell_w, cell_h, band_h, gap = 56 * s, 36 * s, 26 * s, 22 * s
        name_w = 175 * s
        y = 10 * s
        if not self.strips:
            self._text(tr("No tensors yet."), 20 * s, y, 14, True, MUTED)
            self._text(tr("Create one with the builders on the left, type a line of PyTorch,\n"
                          "or press → to run the lesson's first step."), 20 * s, y + 30 * s, 11, False, MUTED)
            return
        self._text(tr("Memory on {device}: one strip per storage, one band per tensor viewing it")
                   .format(device=self.device),
                   10 * s, y, 10, False, MUTED)
        y += 26 * s
        for strip in self.strips:
            y = self._draw_strip(strip, y, cell_w, cell_h, band_h, name_w) + gap
        scene.setSceneRect(scene.itemsBoundingRect().adjusted(-10, -10, 20, 20))
        self._fit()

    def _draw_strip(self, strip: StripModel, y: float, cell_w: float, cell_h: float, band_h: float,
                    name_w: float) -> float:
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
        self._text(header, 10 * s, y, 11, True)
        if strip.new:
            tag = self._text(tr("new"), 10 * s + self._width(header, 11, True) + 10 * s, y, 10, True,
                             QColor("#2e7d32"))
            tag.setToolTip(tr("this storage was allocated by the last step"))
        y += 20 * s
        if details:
            # A second line, so the header never makes the map wider than its cells.
            self._text("  ·  ".join(details), 10 * s, y, 10, False, QColor("#37474f"))
            y += 18 * s
        x0 = name_w
        # Index numbers above the cells.
        for i in range(shown):
            self._text(str(i), x0 + i * cell_w + 4 * s, y, 8, False, MUTED)
        y += 14 * s
        pen = QPen(QColor("#424242"), 1.2)
        for i in range(shown):
            rect = QRectF(x0 + i * cell_w, y, cell_w, cell_h)
            fill = CHANGED if i in strip.changed else QColor("white")
            item = self.scene().addRect(rect, pen, QBrush(fill))
            if i in strip.changed:
                item.setPen(QPen(QColor("#f57f17"), 2.5))
                item.setToolTip(tr("changed by the last step"))
            text = format_value(strip.values[i])
            label = self._text(text, 0, 0, 11, i in strip.changed, mono=True)
            bounds = label.boundingRect()
            label.setPos(rect.center().x() - bounds.width() / 2, rect.center().y() - bounds.height() / 2)
        if storage.cell_count > shown:
            more = storage.cell_count - shown
            self._text(tr("… {count} more cells").format(count=f"{more:,}"), x0 + shown * cell_w + 8 * s,
                       y + cell_h / 3, 10, False, MUTED)
        if not strip.values and storage.cell_count == 0:
            self._text(tr("(empty storage: 0 bytes)"), x0, y + cell_h / 3, 10, False, MUTED)
        y += cell_h + 6 * s
        for band in strip.bands:
            y = self._draw_band(band, x0, y, cell_w, band_h, shown) + 8 * s
        return y

    def _draw_band(self, band: BandModel, x0: float, y: float, cell_w: float, band_h: float, shown: int) -> float:
        s = self.scale_factor
        color = tensor_color(band.color_index)
        selected = band.name == self.selected
        # Name, then shape, stride, offset and version under it: the map stays narrow.
        name = self._text(band.name, 8 * s, y - 4 * s, 12, True, color)
        name.setToolTip(band.label)
        self._text(band.label, 8 * s, y + 13 * s, 8, False, QColor("#424242"))
        visible = [c for c in band.cells if 0 <= c < shown]
        if visible:
            lo, hi = min(visible), max(visible)
            span = QRectF(x0 + lo * cell_w + 3 * s, y + band_h / 2 - 2 * s, (hi - lo + 1) * cell_w - 6 * s, 4 * s)
            line = QColor(color)
            line.setAlpha(90)
            self.scene().addRect(span, QPen(Qt.PenStyle.NoPen), QBrush(line))
        fill = QColor(color)
        fill.setAlpha(200 if selected else 150)
        outline = QPen(QColor("#000000") if selected else color, 2.5 if selected else 1)
        numbered = len(band.cells) <= MAX_CELLS
        orders: dict[int, list[int]] = {}
        for order, cell in enumerate(band.cells):
            orders.setdefault(cell, []).append(order)
        for cell, elements in orders.items():
            if not 0 <= cell < shown:
                continue
            rect = QRectF(x0 + cell * cell_w + 2 * s, y, cell_w - 4 * s, band_h)
            item = self.scene().addRect(rect, outline, QBrush(fill))
            # Plain items only (no Python subclasses): clicks are resolved in mousePressEvent.
            item.setData(_NAME_KEY, band.name)
            item.setToolTip(tr("{name}: click to select").format(name=band.name))
            item.setCursor(Qt.CursorShape.PointingHandCursor)
            if numbered:
                # Which element of the tensor sits in this cell: shows strides at a glance.
                # An expanded view reads one cell for several elements: say how many.
                text = f"[{elements[0]}]" if len(elements) == 1 else f"×{len(elements)}"
                index = self._text(text, 0, 0, 8, len(elements) > 1, QColor("white"))
                index.setToolTip(tr("elements {list} of {name}").format(list=", ".join(map(str, elements)),
                                                                        name=band.name))
                index.setParentItem(item)
                bounds = index.boundingRect()
                index.setPos(rect.center().x() - bounds.width() / 2, rect.center().y() - bounds.height() / 2)
                index.setFlag(QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent, False)
        if band.cells and not visible:
            self._text(tr("(its cells lie beyond those shown)"), x0, y + 3 * s, 9, False, MUTED)
        return y + band_h

    def _width(self, text: str, size: float, bold: bool) -> float:
        item = QGraphicsSimpleTextItem(text)
        item.setFont(self._font(size, bold))
        return item.boundingRect().width()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        for item in self.items(event.position().toPoint()):
            name = item.data(_NAME_KEY)
            if isinstance(name, str):
                self.tensorClicked.emit(name)
                break
        super().mousePressEvent(event)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # Grow up to 160 % for the back of the room; never shrink below 70 %.
        rect = self.scene().sceneRect()
        if rect.width() <= 0:
            return
        self.resetTransform()
        available = self.viewport().width() - 4
        width_fit = available / rect.width()
        height_fit = (self.viewport().height() - 4) / max(rect.height(), 1.0)
        # Fit the width and, shrinking a little (to 85 %), the height; beyond that, scroll.
        factor = max(0.7, min(1.6, width_fit, max(height_fit, 0.85)))
        self.scale(factor, factor)

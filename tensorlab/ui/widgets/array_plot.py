"""One array drawn for a class: bars for 1-D values, a heat map for 2-D, numbers written on them.

A plain QGraphicsScene, laid out in the view's own pixels (it never scales, so no text
shrinks): a redraw is a few dozen items, cheap enough for every step. Numbers are
written only where they fit their bar or cell; every text is at least 11 px.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QImage, QPainter, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import QFrame, QGraphicsPixmapItem, QWidget

from tensorlab.ui.widgets.palette import BAND_COLORS, text_color_on
from tensorlab.ui.widgets.scene_view import SceneView
from tensorlab.ui.widgets.text_zoom import MIN_PX, px

__all__ = ["ArrayPlot", "viridis", "viridis_rgb"]

MAX_LABELS = 32       # numbers written on bars
MAX_IMAGE_LABELS = 144
MAX_BAR_ITEMS = 128   # more bars than this are painted into one image

# matplotlib's viridis at 9 stops (its perceptually uniform colour map), interpolated between them.
_VIRIDIS = ((68, 1, 84), (71, 44, 122), (59, 81, 139), (44, 113, 142), (33, 144, 141), (39, 173, 129),
            (92, 200, 99), (170, 220, 50), (253, 231, 37))


_VIRIDIS_STEPS = tuple(tuple(b[k] - a[k] for k in range(3)) for a, b in zip(_VIRIDIS, _VIRIDIS[1:]))


def viridis_rgb(t: float) -> tuple[int, int, int]:
    """The viridis colour at ``t`` in [0, 1], as (red, green, blue)."""
    t = min(max(t, 0.0), 1.0) * (len(_VIRIDIS) - 1)
    i = min(int(t), len(_VIRIDIS) - 2)
    f = t - i
    a, d = _VIRIDIS[i], _VIRIDIS_STEPS[i]
    # Written out (no generator): a heat map asks for a colour per cell.
    return round(a[0] + d[0] * f), round(a[1] + d[1] * f), round(a[2] + d[2] * f)


def _viridis_pixels(grid: list[list[float]], low: float, high: float) -> bytes:
    """Each cell's viridis colour (``t`` = its place between ``low`` and ``high``; not finite: 0) as
    0xffRRGGBB words, row by row: :func:`viridis_rgb` for a whole grid, with the same rounding."""
    import numpy as np  # the window imports NumPy once idle (values_view.warm_up_when_idle)

    values = np.asarray(grid, dtype=np.float64)
    finite = np.isfinite(values)
    if high == low:
        t = np.zeros(values.shape)
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            t = np.where(finite, (np.where(finite, values, low) - low) / (high - low), 0.0)
    t = np.clip(t, 0.0, 1.0) * (len(_VIRIDIS) - 1)
    index = np.minimum(t.astype(np.int64), len(_VIRIDIS) - 2)
    part = (t - index)[..., None]
    start, step = np.asarray(_VIRIDIS, dtype=np.float64), np.asarray(_VIRIDIS_STEPS, dtype=np.float64)
    rgb = np.rint(start[index] + step[index] * part).astype(np.uint32)   # rint: round half to even, as round()
    words = np.uint32(0xFF000000) | (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    return np.ascontiguousarray(words, dtype=np.uint32).tobytes()   # native order, as QImage reads a word


def _finite_range(grid: list[list[float]]) -> tuple[float, float]:
    """The smallest and largest finite value of ``grid`` ((0, 1) when none is finite), with NumPy: a heat map
    of 10^4 cells is drawn every step that changes it."""
    import numpy as np

    values = np.asarray(grid, dtype=np.float64)
    finite = values[np.isfinite(values)]
    return (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)


def viridis(t: float) -> QColor:
    """The viridis colour at ``t`` in [0, 1]."""
    return QColor(*viridis_rgb(t))


class ArrayPlot(SceneView):
    """Draws one array (set with :meth:`set_array`) to fit the view."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setBackgroundBrush(QBrush(QColor("white")))
        self.heights: list[float] = []          # 1-D: the bar heights (NaN and inf drawn as 0)
        self.grid: list[list[float]] = []       # 2-D: the cell values
        self.value_texts: list[str] = []        # the number written on each bar or cell (row-major)
        self.color = QColor(BAND_COLORS[0])
        self.labels_shown = False
        self.label_size = 0.0     # the size (before the zoom) the values of a heat map are written at
        # A heat map painted as one picture: (its frame: shape, view size, scale, pixel ratio; its picture's item;
        # the cell size). A new array of the same frame replaces that picture only: the indices stay.
        self._heat: tuple[tuple[object, ...], QGraphicsPixmapItem, float] | None = None

    def set_array(self, mode: str, data: list, texts: list[str], color: object = None) -> None:
        """``mode`` "bars" (``data``: heights) or "image" (``data``: rows of values); ``texts`` their numbers."""
        self.mode = mode
        self.heights = list(data) if mode == "bars" else []
        self.grid = [list(row) for row in data] if mode == "image" else []
        self.value_texts = list(texts)
        if color is not None:
            self.color = QColor(color)
        self._draw()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.size() != event.oldSize():
            self._draw()

    def _heat_frame(self, width: float, height: float) -> tuple[object, ...] | None:
        """What places a heat map painted as one picture (None: not such a map): its indices and cells depend on
        nothing else (no value is written on so many cells)."""
        if getattr(self, "mode", None) != "image" or not self.grid \
                or len(self.grid) * len(self.grid[0]) <= MAX_IMAGE_LABELS or width < 20 or height < 20:
            return None
        return (len(self.grid), len(self.grid[0]), width, height, self.scale_factor, self.devicePixelRatioF())

    def _draw(self) -> None:
        scene = self.scene()
        width, height = self.viewport().width(), self.viewport().height()
        frame = self._heat_frame(width, height)
        if frame is not None and self._heat is not None and self._heat[0] == frame:
            # The same frame (a weight matrix after an optimizer step): only the picture of its cells changes.
            low, high = _finite_range(self.grid)
            cell = self._heat[2]
            self._heat[1].setPixmap(self._heat_picture(cell, low, high))
            self.labels_shown = False
            self.label_size = self._label_size(cell, cell)
            return
        self._heat = None
        scene.clear()
        scene.setSceneRect(0, 0, max(width, 1), max(height, 1))
        self.labels_shown = False
        if width < 20 or height < 20:
            return
        if getattr(self, "mode", None) == "bars" and self.heights:
            self._bars(width, height)
        elif getattr(self, "mode", None) == "image" and self.grid:
            self._image(width, height)

    def _label_fits(self, room: float, height_room: float, size: float = 12) -> bool:
        if not self.value_texts:
            return False
        font = self._font(size, mono=True)
        metrics = QFontMetricsF(font)
        widest = max(metrics.horizontalAdvance(t) for t in self.value_texts)
        return widest + 4 <= room and metrics.height() + 2 <= height_room

    def _bars(self, width: float, height: float) -> None:
        s = self.scale_factor
        count = len(self.heights)
        margin = 6 * s
        slot = (width - 2 * margin) / count
        index_h = px(11, s) + 6 * s
        show_index = count <= MAX_LABELS and self._index_fits(slot)
        label_h = px(12, s) + 6 * s
        labels = count <= MAX_LABELS and self._label_fits(slot, height / 3)
        self.labels_shown = labels
        top_room = label_h if labels else 4 * s
        bottom_room = (index_h if show_index else 4 * s)
        low, high = min(min(self.heights), 0.0), max(max(self.heights), 0.0)
        if low == high:
            high = 1.0
        negative = low < 0
        plot_top, plot_bottom = top_room, height - bottom_room - (label_h if labels and negative else 0)
        span = max(plot_bottom - plot_top, 10.0)

        def y_of(value: float) -> float:
            return plot_top + (high - value) / (high - low) * span

        zero = y_of(0.0)
        scene = self.scene()
        scene.addLine(margin, zero, width - margin, zero, QPen(QColor("#9e9e9e"), 1))
        fill = QBrush(self.color)
        outline = QPen(self.color.darker(130), 1)
        # Many bars (then thin, with no numbers) are painted into one image: a thousand items cost
        # more to make and to paint than the picture they make.
        painter = image = None
        if count > MAX_BAR_ITEMS:
            ratio = self.devicePixelRatioF()
            image = QImage(int(width * ratio), int(height * ratio), QImage.Format.Format_ARGB32_Premultiplied)
            image.setDevicePixelRatio(ratio)
            image.fill(Qt.GlobalColor.transparent)
            painter = QPainter(image)
        for i, value in enumerate(self.heights):
            x = margin + i * slot + slot * 0.15
            top, bottom = sorted((y_of(value), zero))
            bar = QRectF(x, top, max(slot * 0.7, 1.0), max(bottom - top, 1.0))
            if painter is not None:
                painter.fillRect(bar, self.color)
            else:
                scene.addRect(bar, outline, fill)
            if labels:
                text = self._text(self.value_texts[i], size=12, mono=True, color=QColor("black"))
                bounds = text.boundingRect()
                y = top - bounds.height() - 1 if value >= 0 else bottom + 1
                text.setPos(margin + i * slot + (slot - bounds.width()) / 2, y)
            if show_index:
                index = self._text(str(i), size=11, color=QColor("#616161"))
                bounds = index.boundingRect()
                index.setPos(margin + i * slot + (slot - bounds.width()) / 2, height - index_h + 2 * s)
        if painter is not None:
            assert image is not None  # made with its painter
            painter.end()
            scene.addPixmap(QPixmap.fromImage(image)).setZValue(-1)

    def _image_pixels(self, left: float, top: float, cell: float, low: float, high: float) -> None:
        """A heat map too big for its numbers, painted as one picture (a pixel per cell, scaled up without
        smoothing): a thousand rectangles cost more to make and to paint than the picture they make."""
        item = self.scene().addPixmap(self._heat_picture(cell, low, high))
        item.setPos(left, top)
        item.setZValue(-1)
        frame = self._heat_frame(self.viewport().width(), self.viewport().height())
        self._heat = None if frame is None else (frame, item, cell)

    def _heat_picture(self, cell: float, low: float, high: float) -> QPixmap:
        """The cells of :attr:`grid` in their viridis colours, ``cell`` pixels each."""
        rows, cols = len(self.grid), len(self.grid[0])
        # The colours of every cell at once (NumPy): the same arithmetic as viridis_rgb, element by element.
        pixels = _viridis_pixels(self.grid, low, high)   # held while the image over it is in use
        small = QImage(pixels, cols, rows, cols * 4, QImage.Format.Format_RGB32)
        ratio = self.devicePixelRatioF()
        # scaled() makes a picture of its own, so the one over NumPy's bytes is not kept.
        picture = small.scaled(max(round(cols * cell * ratio), 1), max(round(rows * cell * ratio), 1),
                               Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.FastTransformation)
        picture.setDevicePixelRatio(ratio)
        return QPixmap.fromImage(picture)

    def _label_size(self, wide: float, tall: float) -> float:
        """The largest size from 12 px (zoomed) down to the readable minimum at which every value fits a cell
        ``wide`` x ``tall`` (0: none does)."""
        s = self.scale_factor
        return next((label_px / s for label_px in range(px(12, s), MIN_PX - 1, -1)
                     if self._label_fits(wide, tall, label_px / s)), 0.0)

    def _index_fits(self, slot: float) -> bool:
        return QFontMetricsF(self._font(11)).horizontalAdvance(str(len(self.heights) - 1)) + 6 <= slot

    def _image(self, width: float, height: float) -> None:
        rows, cols = len(self.grid), len(self.grid[0])
        low, high = _finite_range(self.grid)
        s = self.scale_factor
        # Row indices on the left and column indices on top, so a cell can be named ("[1, 2]"): at the
        # largest size from 11 px (zoomed) down to the readable minimum at which every index fits its
        # cell; only an array too big for that writes every n-th.
        for index_px in range(px(11, s), MIN_PX - 1, -1):
            index_size = index_px / s
            index_font = QFontMetricsF(self._font(index_size))
            left = index_font.horizontalAdvance(str(rows - 1)) + 6 * s
            top = index_font.height() + 2 * s
            cell = max(min((width - left) / cols, (height - top) / rows), 1.0)
            step_r, step_c = _index_step(index_font, rows, cell, vertical=True), _index_step(index_font, cols, cell)
            if step_r == step_c == 1:
                break
        # The values at the largest size from 12 px (zoomed) down to the readable minimum that fits a cell.
        cell_w = cell_h = cell
        label_size = self._label_size(cell, cell)
        if label_size == 0 and rows * cols <= MAX_IMAGE_LABELS:
            # Square cells too small for their numbers (a [3, 2] tensor in a short panel, zoomed: 18 px squares
            # and no value; review r17c finding 21): cells as wide and as tall as the panel gives them, so the
            # numbers are written at a readable size.
            wide, tall = max((width - left) / cols, 1.0), max((height - top) / rows, 1.0)
            size = self._label_size(wide, tall)
            if size > 0:
                label_size, cell_w, cell_h = size, wide, tall
                step_r = _index_step(index_font, rows, cell_h, vertical=True)
                step_c = _index_step(index_font, cols, cell_w)
        labels = rows * cols <= MAX_IMAGE_LABELS and label_size > 0
        self.labels_shown = labels
        self.label_size = label_size
        scene = self.scene()
        no_pen = QPen(Qt.PenStyle.NoPen)
        index_color = QColor("#616161")    # 6.2:1 on the white background
        for r in range(0, rows, step_r):
            index = self._text(str(r), size=index_size, color=index_color)
            bounds = index.boundingRect()
            index.setPos(left - bounds.width() - 3 * s, top + r * cell_h + (cell_h - bounds.height()) / 2)
        for c in range(0, cols, step_c):
            index = self._text(str(c), size=index_size, color=index_color)
            bounds = index.boundingRect()
            index.setPos(left + c * cell_w + (cell_w - bounds.width()) / 2, 0)
        if not labels and rows * cols > MAX_IMAGE_LABELS:
            self._image_pixels(left, top, cell, low, high)
            return
        paints: dict[tuple[int, int, int], tuple[QColor, QBrush]] = {}   # one colour and brush per shade
        for r, row in enumerate(self.grid):
            for c, value in enumerate(row):
                t = 0.0 if not math.isfinite(value) or high == low else (value - low) / (high - low)
                rgb = viridis_rgb(t)
                paint = paints.get(rgb)
                if paint is None:
                    paint = paints[rgb] = (QColor(*rgb), QBrush(QColor(*rgb)))
                fill = paint[0]
                scene.addRect(QRectF(left + c * cell_w, top + r * cell_h, cell_w, cell_h), no_pen, paint[1])
                if labels:
                    # Black or white, whichever contrasts more with this cell's own colour (at least
                    # 4.58:1 on any colour: the two contrasts are equal at luminance 0.179).
                    text = self._text(self.value_texts[r * cols + c], size=label_size, mono=True,
                                      color=text_color_on(fill))
                    bounds = text.boundingRect()
                    text.setPos(left + c * cell_w + (cell_w - bounds.width()) / 2,
                                top + r * cell_h + (cell_h - bounds.height()) / 2)


def _index_step(metrics: QFontMetricsF, count: int, cell: float, vertical: bool = False) -> int:
    """Every how many rows or columns an index is written so that the indices do not overlap."""
    room = metrics.height() if vertical else metrics.horizontalAdvance(str(count - 1)) + 4
    return max(1, math.ceil(room / max(cell, 1.0)))

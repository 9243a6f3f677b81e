"""The selected tensor's values and gradient, drawn with pyqtgraph.

1-D tensors are bars, 2-D tensors an image; small tensors carry their numbers, so
they can be read from the back of a classroom. Numbers are written only where they
fit (a bar or a cell wide enough for them); every text is at least 11 px.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QFontMetricsF  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from tensorlab.core.snapshot import TensorInfo  # noqa: E402
from tensorlab.ui.i18n import Texts, tr  # noqa: E402
from tensorlab.ui.palette import format_value, tensor_color  # noqa: E402
from tensorlab.ui.panel_guard import contained  # noqa: E402
from tensorlab.ui.text_zoom import base_px, mono_font, pixel_font  # noqa: E402

__all__ = ["ValuesView"]

MAX_LABELS = 32       # numbers written on bars
MAX_IMAGE_LABELS = 144


def _numeric(values: object, complex_: bool) -> tuple[np.ndarray, object]:
    """Snapshot values as a float array, and the labels to write on them.

    Complex values come as [re, im] pairs at the innermost level: they are drawn
    by magnitude and labelled a+bj. "nan"/"inf" strings become floats.
    """
    array = np.asarray(_floats(values), dtype=float)
    if not complex_:
        return array, values
    magnitude = np.sqrt(np.nan_to_num(array[..., 0]) ** 2 + np.nan_to_num(array[..., 1]) ** 2)
    return magnitude, _complex_labels(values)


def _floats(values: object) -> object:
    if isinstance(values, tuple):
        return [_floats(v) for v in values]
    return float(values)  # type: ignore[arg-type]


def _complex_labels(values: object) -> object:
    if isinstance(values, tuple) and values and isinstance(values[0], tuple):
        return tuple(_complex_labels(v) for v in values)
    return format_value(values)


def _quiet_label(text: str = "") -> QLabel:
    """A label whose text never changes the panel's (and so the window's) minimum width."""
    label = QLabel(text)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    label.setMinimumWidth(1)
    return label


class _Plot(QWidget):
    """A titled plot of one array."""

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = _quiet_label()
        self.title.setObjectName(object_name + "Title")
        self.plot = pg.PlotWidget(background="w")
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        # The plot takes the room it is given; it must not push the tensors table off screen.
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.plot.setMinimumHeight(60)
        self.message = _quiet_label()
        self.message.setWordWrap(True)
        # The plot, or a note in its place: switching pages changes no size, so a step that shows a
        # note where a plot was never lays the window out again.
        self.note = _quiet_label()
        self.note.setWordWrap(True)
        self.note.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.stack = QStackedWidget()
        self.stack.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.stack.addWidget(self.plot)
        self.stack.addWidget(self.note)
        layout.addWidget(self.title)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.message)
        self.labels: list[str] = []
        self.label_items: list[pg.TextItem] = []
        self.scale = 1.0
        self.columns = 1          # bars (or image columns) the labels must share the width with
        self.ticks: list[tuple[int, str]] | None = None
        self.bars: tuple[float, float] | None = None   # (lowest, highest) bar, when bars are drawn
        self.plot.getViewBox().sigResized.connect(self.place_labels)
        # The items are made once and reused: making and adding pyqtgraph items is most of a redraw's cost.
        self._bar_item = pg.BarGraphItem(x=[0], height=[0], width=0.7)
        self._image_item = pg.ImageItem()
        self._image_item.setColorMap(pg.colormap.get("viridis"))
        self.plot.addItem(self._bar_item)
        self.plot.addItem(self._image_item)
        self._pool: list[pg.TextItem] = []
        self._mode: str | None = None
        self._shown: tuple[object, ...] | None = None
        self.set_text_scale(1.0)

    def set_text_scale(self, scale: float) -> None:
        """Axis and value text at ``scale`` (never below 11 px)."""
        self.scale = scale
        tick = pixel_font(11, scale)
        for side in ("left", "bottom"):
            axis = self.plot.getAxis(side)
            axis.setTickFont(tick)
            axis.setStyle(tickTextOffset=4)
        for item in self._pool:
            item.setFont(mono_font(12, scale))
        self.place_labels()

    def place_labels(self, *_: object) -> None:
        """Show the numbers (and one tick per bar) only when each fits the bar or cell it belongs to."""
        width = self.plot.getViewBox().width()
        room = width / max(self.columns, 1)
        if self.bars is not None and not self.label_items:
            bottom, top = self.bars
            self.plot.setYRange(bottom, top, padding=0.08)
        if self.ticks is not None:
            tick_width = QFontMetricsF(pixel_font(11, self.scale)).horizontalAdvance(self.ticks[-1][1]) + 6
            self.plot.getAxis("bottom").setTicks([self.ticks] if tick_width <= room else None)
        if not self.label_items or not self.labels:
            return
        metrics = QFontMetricsF(mono_font(12, self.scale))
        widest = max(metrics.horizontalAdvance(text) for text in self.labels)
        height = self.plot.getViewBox().height()
        fits = widest + 4 <= room and (self.bars is None or height >= 3 * metrics.height())
        for item in self.label_items:
            item.setVisible(fits)
        if self.bars is not None:
            # A plot too short for a readable axis drops it (the bars carry their numbers).
            self.plot.showAxis("left", height >= 90)
            # Room above (and below) the bars for their numbers, in data units of this plot's height.
            bottom, top = self.bars
            label = (metrics.height() + 4) / max(height - 2 * metrics.height(), 1.0) * max(top - bottom, 1e-12) \
                if fits else 0.0
            pad = max(top - bottom, 1e-12) * 0.08
            self.plot.setYRange(bottom - (label if bottom < 0 else 0) - (pad if bottom < 0 else 0),
                                top + (label if top > 0 or bottom == 0 else 0) + pad, padding=0)

    def show_array(self, title: str, values: object, shape: tuple[int, ...], color: object,
                   complex_: bool = False) -> None:
        shown = (title, shape, str(color), complex_)
        if self._shown is not None and self._shown[0] == shown and self._shown[1] is values:
            return  # the same values (an unchanged tensor shares them between snapshots): nothing to redraw
        self._shown = (shown, values)
        self.title.setText(title)
        self.labels = []
        self.label_items = []
        self.ticks = None
        self.bars = None
        self.message.clear()
        if values is None:
            self.show_note(tr("Values are not shown for tensors over 10,000 elements."))
            return
        if 0 in shape:
            self.show_note(tr("Empty: shape {shape} has no elements, so there is nothing to draw.")
                           .format(shape=list(shape)))
            return
        self.stack.setCurrentWidget(self.plot)
        array, flat_values = _numeric(values, complex_)
        if array.ndim > 2:
            self.message.setText(tr("Showing the first 2-D slice [0, ..., :, :] of shape {shape}.")
                                 .format(shape=list(shape)))
            while array.ndim > 2:
                array = array[0]
                flat_values = flat_values[0]  # type: ignore[index]
        if array.ndim == 0:
            array = array.reshape(1)
            flat_values = (flat_values,)
        if array.ndim == 1:
            self._bars(array, flat_values, color)
        else:
            self._image(array, flat_values)
        for item in self._pool[len(self.label_items):]:
            item.hide()
        self.place_labels()

    def clear_array(self) -> None:
        """Nothing drawn."""
        self._shown = None
        self.labels, self.label_items, self.ticks, self.bars = [], [], None, None

    def show_note(self, text: str) -> None:
        """A note in the plot's place (no values to draw)."""
        self.note.setText(text)
        self.stack.setCurrentWidget(self.note)
        self.message.clear()

    @property
    def plot_shown(self) -> bool:
        """True when the plot (not a note) is on show."""
        return self.stack.currentWidget() is self.plot and self.isVisible()

    def _label(self, text: str, color: str, anchor: tuple[float, float], x: float, y: float) -> None:
        index = len(self.label_items)
        if index == len(self._pool):
            item = pg.TextItem("", anchor=anchor)
            item.setFont(mono_font(12, self.scale))
            self.plot.addItem(item)
            self._pool.append(item)
        label = self._pool[index]
        label.setText(text, color=color)
        label.setAnchor(anchor)
        label.setPos(x, y)
        label.show()
        self.labels.append(text)
        self.label_items.append(label)

    def _set_mode(self, mode: str) -> None:
        if mode == self._mode:
            return
        self._mode = mode
        bars = mode == "bars"
        self._bar_item.setVisible(bars)
        self._image_item.setVisible(not bars)
        self.plot.showAxis("left", bars)
        self.plot.showAxis("bottom", bars)
        self.plot.invertY(not bars)
        self.plot.setAspectLocked(not bars)

    def _bars(self, array: np.ndarray, values: object, color: object) -> None:
        self._set_mode("bars")
        x = np.arange(len(array))
        heights = np.nan_to_num(array, nan=0.0, posinf=0.0, neginf=0.0)
        self._bar_item.setOpts(x=x, height=heights, width=0.7, brush=color)
        self.ticks = [(int(i), str(i)) for i in x] if len(x) <= MAX_LABELS else None
        self.columns = len(array)
        if len(array) <= MAX_LABELS:
            for i, v in enumerate(values):  # type: ignore[arg-type]
                anchor = (0.5, 1.0 if heights[i] >= 0 else 0.0)
                self._label(format_value(v), "k", anchor, float(i), float(heights[i]))
        top = max(float(np.max(heights, initial=0.0)), 0.0)
        bottom = min(float(np.min(heights, initial=0.0)), 0.0)
        if top == bottom:
            top = 1.0
        self.bars = (bottom, top)     # the y range is set with room for the numbers in place_labels
        self.plot.setXRange(-0.6, len(array) - 0.4)

    def _image(self, array: np.ndarray, values: object) -> None:
        rows, cols = array.shape
        self.columns = cols
        self._set_mode("image")
        self._image_item.setImage(np.nan_to_num(array.T, nan=0.0, posinf=0.0, neginf=0.0))
        if rows * cols <= MAX_IMAGE_LABELS:
            finite = array[np.isfinite(array)]
            middle = float((finite.max() + finite.min()) / 2) if finite.size else 0.0
            for r in range(rows):
                for c in range(cols):
                    dark = np.isfinite(array[r, c]) and array[r, c] < middle
                    self._label(format_value(values[r][c]), "w" if dark else "k", (0.5, 0.5),  # type: ignore[index]
                                c + 0.5, r + 0.5)
        self.plot.autoRange(padding=0)


class ValuesView(QScrollArea):
    """Values and gradient of the selected tensor.

    A scroll area (that fills its dock, so it does not scroll): what changes inside
    it from step to step never makes the main window lay its docks out again.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("valuesView")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, "Values and gradient of the selected tensor")
        self.i18n.on_change(lambda: self.show_tensor(self.info, self._color_index))
        inner = QWidget()
        self.setWidget(inner)
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(4, 4, 4, 4)
        self.heading = _quiet_label(tr("Select a tensor in the table."))
        self.heading.setWordWrap(True)
        self.values_plot = _Plot("valuesPlot")
        self.grad_plot = _Plot("gradPlot")
        # Values and gradient side by side: the dock is wide, and the table above needs the height.
        plots = QHBoxLayout()
        plots.addWidget(self.values_plot, 1)
        plots.addWidget(self.grad_plot, 1)
        layout.addWidget(self.heading)
        layout.addLayout(plots, 1)
        self._layout = plots
        self.values_plot.hide()
        self.grad_plot.hide()
        self.info: TensorInfo | None = None
        self._color_index = 0

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Every text of the panel at ``scale``."""
        self.setFont(pixel_font(base_px(), scale))
        self.values_plot.set_text_scale(scale)
        self.grad_plot.set_text_scale(scale)

    @contained
    def show_tensor(self, info: TensorInfo | None, color_index: int = 0) -> None:
        """Show ``info``'s values and grad (None: nothing selected)."""
        self.info = info
        self._color_index = color_index
        if info is None:
            self.heading.setText(tr("Select a tensor in the table."))
            self.values_plot.hide()
            self.grad_plot.hide()
            return
        color = tensor_color(color_index)
        self.heading.setText(f"<b>{info.name}</b>: " + tr("shape {shape}, {dtype}, on {device}").format(
            shape=list(info.shape), dtype=info.dtype, device=info.device))
        self.values_plot.show()
        complex_ = info.dtype.startswith("complex")
        self.values_plot.show_array(tr("values of {name}").format(name=info.name), info.values, info.shape, color,
                                    complex_)
        self.grad_plot.show()
        if info.grad is not None:
            self.grad_plot.show_array(f"{info.name}.grad", info.grad, info.grad_shape or info.shape, "#7e57c2",
                                      complex_)
        else:
            self.grad_plot.clear_array()
            self.grad_plot.title.setText(f"{info.name}.grad")
            why = tr("None: backward() has not written a gradient yet" if info.is_leaf and info.requires_grad
                     else "None: only leaves that require grad (or tensors after retain_grad()) keep .grad"
                     if info.requires_grad else "None: this tensor does not require grad")
            self.grad_plot.show_note(why)

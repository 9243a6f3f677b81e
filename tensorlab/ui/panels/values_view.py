"""The selected tensor's values and gradient, drawn with pyqtgraph.

1-D tensors are bars, 2-D tensors an image; small tensors carry their numbers, so
they can be read from the back of a classroom. Numbers are written only where they
fit (a bar or a cell wide enough for them); every text is at least 11 px.
"""

from __future__ import annotations

import marshal
import math
import os
from typing import Any

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import Qt, QTimer  # noqa: E402
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

from tensorlab.core.protocol.snapshot import TensorInfo  # noqa: E402
from tensorlab.ui.widgets.array_plot import MAX_IMAGE_LABELS, MAX_LABELS, ArrayPlot  # noqa: E402
from tensorlab.ui.widgets.held_hints import HOLD_NOTHING, Held  # noqa: E402
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, tr  # noqa: E402
from tensorlab.ui.widgets.palette import format_value, tensor_color  # noqa: E402
from tensorlab.ui.widgets.panel import View  # noqa: E402
from tensorlab.ui.widgets.panel_errors import contained  # noqa: E402
from tensorlab.ui.widgets.text_zoom import base_px, pixel_font  # noqa: E402

__all__ = ["ValuesView", "warm_up_when_idle"]


def warm_up_when_idle(controller: Any) -> None:
    """Import NumPy once ``controller`` is idle (the first state shown), so the first values drawn
    do not wait ~0.1 s for it; the window's first paint never waits for it either."""

    def load() -> None:
        import numpy  # noqa: F401

    def idle(busy: bool) -> None:
        if not busy:
            controller.busyChanged.disconnect(idle)
            QTimer.singleShot(100, load)

    if controller.busy:
        controller.busyChanged.connect(idle)
    else:
        QTimer.singleShot(100, load)



def _numeric(values: object, complex_: bool) -> tuple[Any, Any]:
    """Snapshot values as a float array, and the labels to write on them (nested as deep as the array).

    Complex values come as [re, im] pairs at the innermost level: they are drawn
    by magnitude and labelled a+bj. "nan"/"inf" strings become floats.
    """
    import numpy as np  # here, not at start-up: the window's first paint does not wait for NumPy

    # NumPy reads the nested tuples, "nan"/"inf" strings too, as float() would (no Python walk over 10^4 values).
    array = np.asarray(values, dtype=float)
    if not complex_:
        return array, values
    magnitude = np.sqrt(np.nan_to_num(array[..., 0]) ** 2 + np.nan_to_num(array[..., 1]) ** 2)
    return magnitude, _complex_labels(values)


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
    """A titled plot of one array (or a note in its place)."""

    def __init__(self, object_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = _quiet_label()
        self.title.setObjectName(object_name + "Title")
        self.plot = ArrayPlot()
        self.plot.setObjectName(object_name + "Array")
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
        self._shown: tuple[object, ...] | None = None
        # What the plot's scene holds (kept while a note is in its place): (look, values, labels, message).
        self._drawn: tuple[tuple[object, ...], object, list[str], str] | None = None

    def set_text_scale(self, scale: float) -> None:
        """Value and index text at ``scale`` (never below 11 px)."""
        self.plot.set_text_scale(scale)

    def show_array(self, title: str, values: object, shape: tuple[int, ...], color: object,
                   complex_: bool = False, no_data: bool = False) -> None:
        """Draw ``values`` (None: not listed; ``no_data``: a meta tensor's, which has none, not too many)."""
        shown = (title, shape, str(color), complex_, no_data)
        if self._shown is not None and self._shown[0] == shown and self._shown[1] is values:
            return  # the same values (an unchanged tensor shares them between snapshots): nothing to redraw
        self._shown = (shown, values)
        _set_text(self.title, title)
        look = (shape, str(color), complex_)
        drawn = self._drawn
        if values is not None and not no_data and drawn is not None and drawn[0] == look \
                and _same_values(drawn[1], values):
            # The plot already holds these very values (a tensor whose gradient changed crosses the wire again
            # with equal values; going back shows values drawn a step ago, a note in between): nothing to draw.
            self._drawn = (look, values, drawn[2], drawn[3])   # the new object: the next check is by identity
            self.labels = list(drawn[2])
            _set_text(self.message, drawn[3])
            self.stack.setCurrentWidget(self.plot)
            return
        self.labels = []
        if values is None and no_data:
            self.show_note(tr("A tensor on the meta device has a shape and a dtype but no data: there are no values."))
            return
        if values is None:
            self.show_note(tr("Values are not shown for tensors over 10,000 elements."))
            return
        if 0 in shape:
            self.show_note(tr("Empty: shape {shape} has no elements, so there is nothing to draw.")
                           .format(shape=list(shape)))
            return
        array, flat_values = _numeric(values, complex_)
        message = ""
        if array.ndim > 2:
            message = tr("Showing the first 2-D slice [0, ..., :, :] of shape {shape}.").format(shape=list(shape))
            while array.ndim > 2:
                array = array[0]
                flat_values = flat_values[0]
        _set_text(self.message, message)
        if array.ndim == 0:
            array = array.reshape(1)
            flat_values = (flat_values,)
        if array.ndim == 1:
            heights = [v if math.isfinite(v) else 0.0 for v in array.tolist()]
            if len(array) <= MAX_LABELS:
                self.labels = [format_value(v) for v in flat_values]
            self.plot.set_array("bars", heights, self.labels, color)
        else:
            rows, cols = array.shape
            if rows * cols <= MAX_IMAGE_LABELS:
                self.labels = [format_value(flat_values[r][c])
                               for r in range(rows) for c in range(cols)]
            self.plot.set_array("image", array.tolist(), self.labels)
        self._drawn = (look, values, list(self.labels), message)
        self.stack.setCurrentWidget(self.plot)

    def clear_array(self) -> None:
        """Nothing drawn."""
        self._shown = None
        self.labels = []

    def show_note(self, text: str) -> None:
        """A note in the plot's place (no values to draw)."""
        _set_text(self.note, text)
        self.stack.setCurrentWidget(self.note)
        _set_text(self.message, "")

    @property
    def plot_shown(self) -> bool:
        """True when the plot (not a note) is on show."""
        return self.stack.currentWidget() is self.plot and self.isVisible()


def _same_values(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` draw the same: equal, and bit for bit (``-0.0 == 0.0`` but its number reads
    "-0.0"; a NaN is never equal, so it is drawn again). ``marshal`` writes each float's 8 bytes."""
    if a is b:
        return True
    if a != b:
        return False
    try:
        return marshal.dumps(a) == marshal.dumps(b)  # type: ignore[arg-type]  # (snapshot values)
    except ValueError:   # (nothing but tuples, numbers and strings comes from a snapshot)
        return False


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:
        label.setText(text)


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
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Values and gradient of the selected tensor"))
        self.i18n.on_change(lambda: self.show_tensor(self.info, self._color_index, self._held))
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
        self._held: Held = HOLD_NOTHING

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Every text of the panel at ``scale``."""
        self.setFont(pixel_font(base_px(), scale))
        self.values_plot.set_text_scale(scale)
        self.grad_plot.set_text_scale(scale)

    def render_view(self, view: View) -> None:
        """Show the selected tensor's values and grad, in its colour (its place among the tensors)."""
        tensors = view.state.snapshot.tensors
        index = next((i for i, t in enumerate(tensors) if t.name == view.selected), None)
        self.show_tensor(None if index is None else tensors[index], index or 0, view.held)

    @contained
    def show_tensor(self, info: TensorInfo | None, color_index: int = 0, held: Held = HOLD_NOTHING) -> None:
        """Show ``info``'s values and grad (None: nothing selected); ``held``: hints held back while a
        question is open (:mod:`~tensorlab.ui.widgets.held_hints`)."""
        self.info = info
        self._color_index = color_index
        self._held = held
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
                                    complex_, no_data=info.device == "meta")
        self.grad_plot.show()
        if info.grad is not None:
            self.grad_plot.show_array(f"{info.name}.grad", info.grad, info.grad_shape or info.shape, "#7e57c2",
                                      complex_)
        else:
            self.grad_plot.clear_array()
            self.grad_plot.title.setText(f"{info.name}.grad")
            if held.grad_reasons:
                # A question about a gradient is open: the reason would answer it ("only leaves keep .grad"),
                # so it is held for every tensor alike (a leaf's reason too: no difference to read).
                why = tr("None (why is shown once you answer the question)")
            elif info.is_leaf and info.requires_grad:
                # Not "not yet": zero_grad() (set_to_none) and `w.grad = None` leave None after a backward too
                # (review helper-158: after opt.zero_grad() it said no gradient had been written).
                why = tr("None: no backward() has written a gradient since the tensor was made or its .grad was set "
                         "to None (as zero_grad() does)")
            elif info.requires_grad:
                why = tr("None: only leaves that require grad (or tensors after retain_grad()) keep .grad")
            else:
                why = tr("None: this tensor does not require grad")
            self.grad_plot.show_note(why)

"""The left panel: the builders, stacked in one scrollable column, and the code line, in a bar of its own.

The column reflows to the dock's width; it scrolls sideways only if the dock is
narrower than any field can get. The code line (:attr:`BuildersPanel.code_bar`) is not
in the column: a line of code needs the window's width (a side column left it 40 px at
1024x768), so the window puts it in a bar across its whole width, in both modes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QComboBox,
    QHBoxLayout,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from tensorlab.core.engine.player import PlayerState
from tensorlab.ui.builders.builder_box import BuilderBox, heading
from tensorlab.ui.builders.code_line import CodeLinePanel
from tensorlab.ui.builders.compute_builder import ComputeBuilder
from tensorlab.ui.builders.copy_builder import CopyBuilder
from tensorlab.ui.builders.create_builder import CreateBuilder
from tensorlab.ui.builders.mutate_builder import MutateBuilder
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.text_zoom import base_px, pixel_font

__all__ = ["BuildersPanel"]


WHEEL_REST_MS = 700   # a wheel that rests this long has ended its scroll of the Build column


class BuildersPanel(QScrollArea):
    """Every way to add a step; each emits the one statement it writes."""

    statementRequested = Signal(str, object)   # code, the widget to report a refusal to

    # The create builder, under the name every caller knows; it hides QWidget.create(), never called on a panel.
    create: CreateBuilder  # type: ignore[assignment]

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("builders")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        inner = QWidget()
        layout = QVBoxLayout(inner)
        self.create = CreateBuilder()
        self.copy = CopyBuilder()
        self.mutate = MutateBuilder()
        self.compute = ComputeBuilder()
        self.code_line = CodeLinePanel()
        self.i18n = Texts(self)
        # The code line's bar: its title beside the line (one row high), the line taking the width.
        self.code_bar = QWidget()
        self.code_bar.setObjectName("codeLineBar")
        self.code_bar.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar_layout = QHBoxLayout(self.code_bar)
        bar_layout.setContentsMargins(6, 2, 6, 2)
        title = heading(QT_TR_NOOP("Code line"), self.i18n)
        title.setWordWrap(False)
        bar_layout.addWidget(title, 0, Qt.AlignmentFlag.AlignTop)
        bar_layout.addWidget(self.code_line, 1)
        self.builders: tuple[BuilderBox, ...] = (self.create, self.copy, self.mutate, self.compute)
        for builder in self.builders:
            layout.addWidget(builder)
            builder.statementRequested.connect(lambda code, b=builder: self.statementRequested.emit(code, b))
        layout.addStretch(1)
        self.code_line.statementRequested.connect(
            lambda code: self.statementRequested.emit(code, self.code_line))
        self.setWidget(inner)
        self._last_result: object = None
        self._lesson: object = None       # the program's lesson when the last state came (None: the scratchpad)
        self._wheel_guarded: set[int] = set()
        # A wheel that scrolls the column goes on scrolling it while it turns (review r17o 6: a focused box that
        # passed under the pointer took the wheel and changed detach() to view(...)): the column's scroll is
        # over once the wheel has rested this long.
        self.column_scrolling = False
        self._wheel_rest = QTimer(self)
        self._wheel_rest.setSingleShot(True)
        self._wheel_rest.setInterval(WHEEL_REST_MS)
        self._wheel_rest.timeout.connect(self.end_column_scroll)
        self._offered: tuple[object, ...] | None = None   # what the pickers were last given (names, scalars, ...)
        self._guard_wheel()

    def _guard_wheel(self) -> None:
        """Choice fields in the scrolling column take the wheel only when focused (clicked or tabbed
        to): a wheel over the column scrolls it, never silently changes a dtype or a source."""
        inner = self.widget()
        if inner is None:
            return
        for field in (*inner.findChildren(QComboBox), *inner.findChildren(QAbstractSpinBox)):
            if id(field) not in self._wheel_guarded:
                self._wheel_guarded.add(id(field))
                field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
                field.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if (event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and isinstance(event, QWheelEvent)
                and (not watched.hasFocus() or self.column_scrolling)):
            # The column scrolls instead, three steps a notch (as a scroll area does).
            bar = self.verticalScrollBar()
            bar.setValue(bar.value() - round(event.angleDelta().y() / 120 * 3 * bar.singleStep()))
            self._column_scrolled()
            return True
        return super().eventFilter(watched, event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt's name
        super().wheelEvent(event)   # over the column itself (a heading, a gap): it scrolls
        self._column_scrolled()

    def _column_scrolled(self) -> None:
        self.column_scrolling = True
        self._wheel_rest.start()

    def end_column_scroll(self) -> None:
        """The wheel rested: a focused box under the pointer takes the next turn of it."""
        self._wheel_rest.stop()
        self.column_scrolling = False

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Every text of the panel at ``scale``."""
        font = pixel_font(base_px(), scale)
        self.setFont(font)
        # The code line is in the window's bar, not a child of the panel; its refusal is styled (a styled
        # label keeps the font it was polished with), so it is given the size too.
        for widget in (self.code_bar, self.code_line.problem):
            widget.setFont(font)

    def render_view(self, view: View) -> None:
        """Show the view's player state."""
        self.show_state(view.state)

    @contained
    def show_state(self, state: PlayerState) -> None:
        """Offer the names bound now to every picker; a tensor the last step made is picked first."""
        if state.lesson is not self._lesson:
            # Another program is open (a lesson, a file, a diagnosis): a refusal of a line typed in the last one
            # is about names that may not exist here, and its box would cover the status bar.
            self._lesson = state.lesson
            self.clear_problems()
        snapshot = state.snapshot
        tensors = tuple(t.name for t in snapshot.tensors)
        names = state.names
        newest = None
        if state.last is not self._last_result and state.position:
            # Only when a step ran (not on a redraw), so a name the user picked stays picked.
            made = [n for n in state.program[state.position - 1].statement.defines if snapshot.tensor(n)]
            newest = made[-1] if made else None
        self._last_result = state.last
        # The tensors the steps run so far made, each at its last making (what Compute proposes).
        order: dict[str, None] = {}
        for step in state.program[:state.position]:
            for name in step.statement.defines:
                order.pop(name, None)
                order[name] = None
        recent = tuple(n for n in order if n in tensors)
        # A 0-d tensor has no index to write (`total[0] = 5` is torch's IndexError): Mutate proposes `fill_`.
        zero_dim = frozenset(t.name for t in snapshot.tensors if t.shape == ())
        scalars = tuple(t.name for t in snapshot.tensors if t.numel == 1 and t.requires_grad)
        types = tuple((o.name, o.type) for o in snapshot.others)
        offered = (tensors, names, recent, zero_dim, scalars, types, state.lesson, current_language())
        if newest is None and offered == self._offered:
            return   # the pickers offer these very names already (a training step mostly changes values)
        self._offered = offered
        self.compute.recent = recent
        self.mutate.zero_dim = zero_dim
        for builder in self.builders:
            builder.set_names(tensors, names, newest)
        self.compute.set_scalars(snapshot, newest)
        # The names a step binds complete as words; the rows they reach (`sd['weight']`, `net[0].bias`, every
        # one also a tensor's name in the snapshot) complete from their first bracket or dot.
        self.code_line.edit.names = tuple(n for n in names if n.isidentifier())
        self.code_line.edit.rows = tuple(t for t in tensors if not t.isidentifier())
        self.code_line.edit.types = dict(types)
        self._guard_wheel()   # a builder may have made a field for the new names

    def clear_problems(self) -> None:
        """Hide the code line's refusal (a newly opened program). The builders' hints stay: each builder
        says them again from the names of the new program (:meth:`BuilderBox.set_names`)."""
        self.code_line.show_problem("")

    def set_enabled(self, enabled: bool) -> None:
        """Disable every button while a step runs."""
        for builder in self.builders:
            builder.set_enabled(enabled)
        self.compute.backward_button.setEnabled(enabled and self.compute.backward_target.count() > 0)
        self.code_line.run_button.setEnabled(enabled)

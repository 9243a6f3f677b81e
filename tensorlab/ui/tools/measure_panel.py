"""The Measure dock: time the ways to copy a tensor on the session's device, and say what the numbers say.

The class picks methods, sizes and requires_grad; the worker process times them
(job ``"measure"``, :mod:`tensorlab.core.tools.measure`) with a progress bar and Cancel.
The result is drawn log-log (:class:`~tensorlab.ui.tools.measure_plot.MeasurePlot`),
listed in a table, and judged in plain words from the numbers: the ratio
clone().detach() / detach().clone() at each size with its spread, or "no
measurable difference" where the spreads overlap. The table saves as CSV with
the machine it was measured on.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPalette, QShowEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.protocol.engine_api import Reply
from tensorlab.core.protocol.measure_results import (
    DEFAULT_SIZES,
    METHODS,
    ORDER_METHODS,
    MeasureParams,
    MeasureResult,
    Verdict,
    noise,
)
from tensorlab.core.tools.tables import format_seconds, measure_csv
from tensorlab.ui.tools.measure_colors import method_color
from tensorlab.ui.tools.tool_controller import ToolController
from tensorlab.ui.widgets.html import escape, inline_code
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language, tr, tr_marked
from tensorlab.ui.widgets.palette import ERROR

if TYPE_CHECKING:
    from tensorlab.ui.tools.measure_plot import MeasurePlot

__all__ = ["MeasurePanel", "JOB", "verdict_cell", "verdict_table"]

JOB = "measure"
_SIZE_LABELS = {10: "10", 100: "100", 1000: "1,000", 10_000: "10k", 100_000: "100k", 1_000_000: "1M",
                10_000_000: "10M"}
# None: requires_grad, torch's name in every language.
_HEADERS = (QT_TR_NOOP("method"), QT_TR_NOOP("elements"), None, QT_TR_NOOP("median"), QT_TR_NOOP("IQR (q1–q3)"),
            QT_TR_NOOP("runs"))


def verdict_cell(verdict: Verdict) -> str:
    """The verdict at one size, short, in the window's language, from its numbers."""
    values = {"ratio": f"{verdict.ratio:.2f}", "low": f"{verdict.low:.2f}", "high": f"{verdict.high:.2f}"}
    if verdict.kind == "same":
        return tr("no measurable difference: {ratio}× ({low}–{high})").format(**values)
    if verdict.kind == "slower":
        return tr("detach().clone() faster: clone().detach() takes {ratio}× ({low}–{high})").format(**values)
    return tr("clone().detach() faster: it takes {ratio}× ({low}–{high})").format(**values)


def verdict_table(verdicts: tuple[Verdict, ...]) -> str:
    """The verdicts as an HTML table: a row per size, a column per requires_grad."""
    grads = list(dict.fromkeys(v.requires_grad for v in verdicts))
    sizes = list(dict.fromkeys(v.size for v in verdicts))
    by_key = {(v.size, v.requires_grad): v for v in verdicts}
    head = "".join(f"<th align='left'>requires_grad={g}</th>" for g in grads)
    elements = escape(tr("elements"))   # outside the f-string, where lupdate finds it
    rows = [f"<tr><th align='right'>{elements}</th>{head}</tr>"]
    for size in sizes:
        cells = []
        for grad in grads:
            v = by_key.get((size, grad))
            text = "" if v is None else escape(verdict_cell(v))
            cells.append(f"<td>{text if v is None or v.kind == 'same' else f'<b>{text}</b>'}</td>")
        rows.append(f"<tr><td align='right'>{size:,}</td>{''.join(cells)}</tr>")
    return "<table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


class _PlotTabs(QTabWidget):
    """The plot and table tabs: they take the room left (from their minimum), never ask for more.

    The plot page's height for its width (a wrapped key above a ~500 px plot) made the whole column
    taller than a floating tool at 1024x768, and the plot was cut at the bottom behind a scroll bar."""

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return False

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # What the floating tool is sized for: the plot as tall as its screen allows beside the controls (at
        # 1024x768 a 190 px plot in a 515 px tool, review r17o item 7), never taller than the screen can hold.
        hint = super().sizeHint()
        screen = self.screen()
        room = screen.availableGeometry().height() if screen is not None else 768
        return QSize(hint.width(), max(self.minimumHeight(), min(PLOT_TABS_MOST, round(room * PLOT_TABS_SHARE))))


PLOT_TABS_SHARE = 0.42   # the plot and table tabs ask for this share of the screen's height ...
PLOT_TABS_MOST = 440     # ... and no more than this (at 1920x1080 the plot stays a plot, not a wall)


class MeasurePanel(QScrollArea):
    """Controls, plot, table and verdict of one measurement; talks to the worker through ``controller``."""

    def __init__(self, controller: ToolController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("measurePanel")
        self.setWidgetResizable(True)
        self.controller = controller
        self.result: MeasureResult | None = None
        self.running = False
        self.min_run_time = 0.2  # seconds of timing per measurement (torch.utils.benchmark's default)
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Measure the ways to copy a tensor"))
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self._choices())
        layout.addLayout(self._run_row())
        self.message = QLabel()
        self.message.setObjectName("measureMessage")
        self.message.setWordWrap(True)
        layout.addWidget(self.message)
        self.tabs = _PlotTabs()
        self._plot: MeasurePlot | None = None   # made on first use: pyqtgraph loads only when a measurement is drawn
        self.table = QTableView()
        self.table.setObjectName("measureTable")
        self.model = QStandardItemModel(0, len(_HEADERS), self)
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        plot_page = QWidget()
        plot_layout = QVBoxLayout(plot_page)
        plot_layout.setContentsMargins(0, 0, 0, 0)
        self._plot_layout = plot_layout
        self.key = QLabel()
        self.key.setObjectName("measureKey")
        self.key.setWordWrap(True)
        self.i18n.bind(self.key.setText, QT_TR_NOOP("Colours as the methods above. Solid line, circles: "
                                                    "requires_grad=True; dashed line, triangles: "
                                                    "requires_grad=False. Shaded: first to third quartile."))
        plot_layout.addWidget(self.key)
        self.tabs.addTab(plot_page, "")
        self.tabs.addTab(self.table, "")
        self.tabs.setMinimumHeight(220)
        layout.addWidget(self.tabs, 1)
        self.verdict = QLabel()
        self.verdict.setObjectName("measureVerdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.verdict)
        self.machine = QLabel()
        self.machine.setObjectName("measureMachine")
        self.machine.setWordWrap(True)
        layout.addWidget(self.machine)
        self.setWidget(body)
        self.i18n.bind(lambda t: self.tabs.setTabText(0, t), QT_TR_NOOP("Plot"))
        self.i18n.bind(lambda t: self.tabs.setTabText(1, t), QT_TR_NOOP("Table"))
        self.i18n.on_change(self._render)
        controller.jobFinished.connect(self._finished)
        controller.jobProgress.connect(self._progress)
        self._render()

    # -- construction ------------------------------------------------------------
    def _choices(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        methods = QGroupBox()
        self.i18n.bind(methods.setTitle, QT_TR_NOOP("Methods (x is a float32 tensor)"))
        method_grid = QGridLayout(methods)
        method_grid.setVerticalSpacing(2)
        self.method_boxes: dict[str, QCheckBox] = {}
        for i, method in enumerate(METHODS):
            check = QCheckBox(method)
            check.setObjectName(f"measureMethod{i}")
            check.setChecked(method in ORDER_METHODS)
            # The method's colour in the plot: the checkboxes are the plot's legend.
            palette = check.palette()  # a palette, not a style sheet: the font still follows the window
            for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
                palette.setColor(role, method_color(method).darker(130))
            check.setPalette(palette)
            method_grid.addWidget(check, i // 3, i % 3)
            self.method_boxes[method] = check
        column.addWidget(methods)
        sizes = QHBoxLayout()
        label = QLabel()
        self.i18n.bind(label.setText, QT_TR_NOOP("Elements in x:"))
        sizes.addWidget(label)
        self.size_boxes: dict[int, QCheckBox] = {}
        for size in DEFAULT_SIZES:
            check = QCheckBox(_SIZE_LABELS.get(size, f"{size:,}"))
            check.setObjectName(f"measureSize{size}")
            check.setChecked(True)
            sizes.addWidget(check)
            self.size_boxes[size] = check
        sizes.addStretch(1)
        column.addLayout(sizes)
        return box

    def _run_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.grad_boxes = {True: QCheckBox("requires_grad=True"), False: QCheckBox("requires_grad=False")}
        for grad, check in self.grad_boxes.items():
            check.setObjectName(f"measureGrad{grad}")
            check.setChecked(True)
            row.addWidget(check)
        self.run_button = QPushButton()
        self.run_button.setObjectName("measureRun")
        self.i18n.bind(self.run_button.setText, QT_TR_NOOP("Measure"))
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("measureCancel")
        self.i18n.bind(self.cancel_button.setText, QT_TR_NOOP("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        self.progress_bar = QProgressBar()
        self.progress_bar.setObjectName("measureProgress")
        self.save_button = QPushButton()
        self.save_button.setObjectName("measureSave")
        self.i18n.bind(self.save_button.setText, QT_TR_NOOP("Save CSV…"))
        self.save_button.clicked.connect(self.save_csv_dialog)
        for widget in (self.run_button, self.cancel_button):
            row.addWidget(widget)
        row.addWidget(self.progress_bar, 1)
        row.addWidget(self.save_button)
        return row

    # -- running -----------------------------------------------------------------
    def params(self) -> MeasureParams | None:
        """What the checkboxes ask for (None, with a message, when nothing is picked)."""
        methods = [m for m, box in self.method_boxes.items() if box.isChecked()]
        sizes = [s for s, box in self.size_boxes.items() if box.isChecked()]
        grads = [g for g, box in self.grad_boxes.items() if box.isChecked()]
        if not (methods and sizes and grads):
            self.message.setText(tr("Pick at least one method, one size and one requires_grad setting."))
            return None
        return MeasureParams.from_dict({"methods": methods, "sizes": sizes, "requires_grad": grads,
                                        "min_run_time": self.min_run_time})

    def start(self) -> bool:
        """Start measuring in the worker (False when nothing is picked or a measurement runs)."""
        params = self.params()
        if params is None or self.running:
            return False
        self.running = True
        self.progress_bar.setRange(0, params.steps)
        self.progress_bar.setValue(0)
        self.message.setText(tr("Measuring {total} timings on the session's device…").format(total=params.total))
        self.controller.run_job(JOB, params.to_dict())
        self._render_buttons()
        return True

    def cancel(self) -> None:
        """Stop the measurement (the worker stops within one timed block)."""
        if self.running:
            self.controller.cancel()

    def _progress(self, name: str, done: int, total: int) -> None:
        if name == JOB:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(done)

    def _finished(self, name: str, result: object, problem: str) -> None:
        if name != JOB:
            return
        self.running = False
        if isinstance(result, MeasureResult):
            self.show_result(result)
            self.message.setText(tr("Measured {count} timings.").format(count=len(result.measurements)))
        elif problem.startswith(Reply.CANCELLED):
            self.message.setText(tr("Measurement cancelled."))
        else:
            self.message.setText(tr("The measurement failed: {reason}").format(reason=problem))
        self._render_buttons()

    # -- showing -----------------------------------------------------------------
    def show_result(self, result: MeasureResult | None) -> None:
        """Show ``result`` in the plot, the table, the verdict and the machine line."""
        self.result = result
        self._render()

    @property
    def plot(self) -> MeasurePlot:
        """The log-log plot (made, with pyqtgraph, the first time it is needed)."""
        if self._plot is None:
            from tensorlab.ui.tools.measure_plot import MeasurePlot

            self._plot = MeasurePlot()
            self._plot_layout.insertWidget(0, self._plot, 1)
        return self._plot

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        _ = self.plot   # shown: the plot is wanted now

    def _render(self) -> None:
        result = self.result
        self.model.setHorizontalHeaderLabels(["requires_grad" if h is None else tr_marked(h) for h in _HEADERS])
        self.model.setRowCount(0)
        if result is not None or self._plot is not None:
            self.plot.show_result(result)
        if result is None:
            self.verdict.setText(escape(tr("Measure to see whether clone().detach() or detach().clone() "
                                           "is faster here, by how much, and how sure that is.")))
            self.machine.setText("")
            self._render_buttons()
            return
        noisy = {n.measurement: n for n in noise(result.measurements)}
        for m in result.measurements:
            flag = noisy.get(m)
            cells = [m.method, f"{m.size:,}", str(m.requires_grad),
                     format_seconds(m.median_s) + (" !" if flag is not None else ""),
                     f"{format_seconds(m.q1_s)} – {format_seconds(m.q3_s)}", str(m.runs)]
            items = [QStandardItem(text) for text in cells]
            items[0].setForeground(method_color(m.method).darker(130))
            for item in items[1:]:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if flag is not None:
                items[3].setForeground(ERROR)
                items[3].setToolTip(flag.message().render(current_language()))
            self.model.appendRow(items)
        heading = tr("clone().detach() / detach().clone(): the ratio of the medians, and of the quartiles "
                     "crosswise (q1/q3 to q3/q1)")
        parts = [f"<b>{escape(heading)}</b>"]
        if result.verdicts:
            parts.append(verdict_table(result.verdicts))
        else:
            parts.append(escape(tr("Measure both clone().detach() and detach().clone() for a verdict.")))
        parts += [escape(tr("Skipped: {reason}").format(reason=note.render(current_language())))
                  for note in result.skipped]
        if noisy:
            title = escape(tr("Likely noise (ringed on the plot):"))
            parts.append(f"<b style='color:{ERROR.name()}'>{title}</b>")
            parts += [f"<span style='color:{ERROR.name()}'>{inline_code(n.message().render(current_language()))}"
                      "</span>" for n in noisy.values()]
        self.verdict.setText("<br>".join(parts))
        machine = result.machine
        self.machine.setText(tr("Measured on {device} ({name}), torch {torch}, {threads} threads.").format(
            device=machine.device, name=machine.device_name, torch=machine.torch, threads=machine.threads))
        self._render_buttons()

    def _render_buttons(self) -> None:
        self.run_button.setEnabled(not self.running)
        self.cancel_button.setEnabled(self.running)
        self.save_button.setEnabled(self.result is not None and not self.running)

    # -- saving ------------------------------------------------------------------
    def save_csv(self, path: str | Path) -> bool:
        """Write the table (and the machine) as CSV, atomically; False with a message on failure."""
        if self.result is None:
            return False
        try:
            write_text_atomic(path, measure_csv(self.result))
        except OSError as exc:
            self.message.setText(tr("The CSV could not be written: {reason}").format(reason=exc.strerror or exc))
            return False
        self.message.setText(tr("Saved {path}").format(path=path))
        return True

    def save_csv_dialog(self) -> None:
        """Ask where to save the CSV."""
        path, _ = QFileDialog.getSaveFileName(self, tr("Save measurements as CSV"), "tensorlab-measure.csv",
                                              "CSV (*.csv)")
        if path:
            self.save_csv(path)

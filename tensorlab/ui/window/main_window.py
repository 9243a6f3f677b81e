"""The main window: panels in docks around the storage map; every panel renders one state at once.

Actions and menus are made in :mod:`~tensorlab.ui.window.actions`, the toolbar in
:mod:`~tensorlab.ui.window.toolbar`, dock layouts (normal and projector) in
:mod:`~tensorlab.ui.window.layouts`, text sizes in :mod:`~tensorlab.ui.widgets.text_zoom`, and the
editing of your steps in :mod:`~tensorlab.ui.program.step_editing`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QByteArray, QCoreApplication, QEvent, QSettings, QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QShowEvent
from PySide6.QtWidgets import QComboBox, QDockWidget, QLabel, QMainWindow, QProgressBar, QToolButton, QWidget

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.protocol.snapshot import GraphInfo
from tensorlab.ui.builders.builders_panel import BuildersPanel
from tensorlab.ui.export.export_actions import Exporter, build_export_menu
from tensorlab.ui.panels.code_view import CodeView
from tensorlab.ui.panels.graph_view import GraphView
from tensorlab.ui.panels.narration import NarrationPanel
from tensorlab.ui.panels.output_view import OutputView
from tensorlab.ui.panels.storage_map import StorageMapView
from tensorlab.ui.panels.tensor_table import TensorTable
from tensorlab.ui.panels.values_view import ValuesView, warm_up_when_idle
from tensorlab.ui.program import lesson_dialogs
from tensorlab.ui.program.controller import LabController
from tensorlab.ui.program.lesson_check_report import LessonCheckReport
from tensorlab.ui.program.lesson_picker import fill_lesson_picker
from tensorlab.ui.program.step_editing import StepEditing
from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.tools.lab_docks import add_lab_docks
from tensorlab.ui.tools.measure_panel import MeasurePanel
from tensorlab.ui.widgets.i18n import Texts, current_language, set_language, tr
from tensorlab.ui.widgets.lean_style import use_lean_style
from tensorlab.ui.widgets.text_zoom import TextZoom, apply_scale, panel_scale
from tensorlab.ui.window import settings as window_settings
from tensorlab.ui.window.actions import build_actions, build_menus
from tensorlab.ui.window.busy_indicator import BUSY_AFTER_MS, BusyIndicator
from tensorlab.ui.window.follow import followed_tensor
from tensorlab.ui.window.layouts import LayoutModes
from tensorlab.ui.window.memory_label import MemoryLabel
from tensorlab.ui.window.preferences import edit_preferences
from tensorlab.ui.window.settings import SCRATCHPAD
from tensorlab.ui.window.toolbar import build_toolbar

__all__ = ["MainWindow", "SCRATCHPAD", "default_data_dir", "BUSY_AFTER_MS"]


Left, Right, Bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)


def default_data_dir() -> Path:
    """The user data folder (QStandardPaths), where the steps you added are kept."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


class _Origin(Protocol):
    """Where a statement came from (a builder, the code line): it shows why it was refused, or ""."""

    def show_problem(self, message: str) -> None: ...


class MainWindow(QMainWindow):
    """TensorLab's window. ``controller`` runs the steps; this renders its states."""

    # Set by the modules that build the window's parts (declared here so that they are checked).
    # actions.build_actions: every command of the window.
    step_back_action: QAction
    step_forward_action: QAction
    run_to_end_action: QAction
    reset_action: QAction
    run_code_action: QAction
    focus_code_action: QAction
    cancel_action: QAction
    undo_action: QAction
    clear_steps_action: QAction
    class_vote_action: QAction
    presentation_action: QAction
    zoom_in_action: QAction
    zoom_out_action: QAction
    zoom_reset_action: QAction
    reset_layout_action: QAction
    open_action: QAction
    save_action: QAction
    preferences_action: QAction
    quit_action: QAction
    about_action: QAction
    log_action: QAction
    choice_actions: list[QAction]
    # toolbar.build_toolbar
    lesson_picker: QComboBox
    position_label: QLabel
    device_picker: QComboBox
    language_picker: QComboBox
    # busy_indicator.BusyIndicator
    busy_bar: QProgressBar
    cancel_button: QToolButton
    # export_actions.build_export_menu
    exporter: Exporter
    # lab_docks.add_lab_docks
    measure_panel: MeasurePanel
    copy_matrix: CopyMatrixPanel

    def __init__(self, controller: LabController, lessons: list[Lesson], settings: QSettings,
                 parent: QWidget | None = None, data_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("TensorLab")
        # No animation: a dock that makes room for a question has its size at once.
        self.setDockOptions(QMainWindow.DockOption.AllowTabbedDocks | QMainWindow.DockOption.AllowNestedDocks)
        self.i18n = Texts(self)
        self.controller = controller
        self.settings = settings
        self.lessons: list[Lesson] = list(lessons)
        self.problem = ""
        self._shown: PlayerState | None = None
        self._shown_once = False
        self.zoom = TextZoom(settings, self)
        self.layouts = LayoutModes(self, settings)
        self.editing = StepEditing(self, data_dir or default_data_dir())
        self._build_panels()
        build_actions(self)
        self.export_menu = build_export_menu(self)  # script, notebook, slides
        self.toolbar = build_toolbar(self)
        self.view_menu = build_menus(self)["&View"]
        self.busy_indicator = BusyIndicator(self, self._update_enabled)
        self.memory_label = MemoryLabel()
        self.statusBar().addPermanentWidget(self.memory_label)
        self.fill_lessons()
        self.storage_map.enterPressed.connect(self.step_forward)   # Enter on the map is → (a vote is revealed)
        self._fit_pending = False
        self.narration.changed.connect(self._request_fit)
        controller.stateChanged.connect(self.show_state)
        controller.problem.connect(self.show_problem)
        controller.graphReady.connect(self._graph_ready)
        self.lesson_checks = LessonCheckReport(self)
        self.zoom.changed.connect(lambda _: self.apply_text_scale())
        self.statusBar().showMessage(tr("Ready"))
        self.i18n.on_change(self._language_changed)
        self.apply_text_scale()
        use_lean_style(self)
        self.show_state(controller.state)

    # -- construction ------------------------------------------------------------
    def add_dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea = Right) -> QDockWidget:
        """Put ``widget`` in a dock (listed in View, placed by the layouts, text-scaled with the rest)."""
        dock = QDockWidget(self)
        dock.setObjectName(name)
        self.i18n.bind(dock.setWindowTitle, title)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks.append(dock)
        use_lean_style(dock)
        return dock

    def _build_panels(self) -> None:
        self.storage_map = StorageMapView()
        self.setCentralWidget(self.storage_map)
        self.builders = BuildersPanel()
        self.table = TensorTable()
        self.values_view = ValuesView()
        self.graph_view = GraphView()
        self.narration = NarrationPanel()
        self.code_view = CodeView()
        self.output_view = OutputView()
        self.docks: list[QDockWidget] = []
        for title, name, widget, area in (
                ("Build", "buildDock", self.builders, Left), ("Tensors", "tensorsDock", self.table, Right),
                ("Values and gradient", "valuesDock", self.values_view, Right),
                ("Autograd graph", "graphDock", self.graph_view, Right),
                ("Narration", "narrationDock", self.narration, Bottom), ("Code", "codeDock", self.code_view, Bottom),
                ("Output", "outputDock", self.output_view, Bottom)):
            self.add_dock(title, name, widget, area)
        add_lab_docks(self)  # Measure, Copy matrix: hidden until chosen in View
        self.layouts.apply_default()
        self.builders.statementRequested.connect(self.submit)
        self.table.selectedTensorChanged.connect(self._selection_changed)
        self.storage_map.tensorClicked.connect(self.table.select_name)
        self.code_view.positionRequested.connect(self.controller.go_to)
        self.code_view.removeRequested.connect(self.editing.remove)

    def fill_lessons(self) -> None:
        """The lesson picker's entries, in the current language."""
        picker = self.lesson_picker
        current = picker.currentData()
        picker.blockSignals(True)
        fill_lesson_picker(picker, self.lessons, current_language())  # grouped under chapter headings
        picker.addItem(tr("Scratchpad (your own steps)"), SCRATCHPAD)
        if current is not None and picker.findData(current) >= 0:
            picker.setCurrentIndex(picker.findData(current))
        picker.blockSignals(False)

    _fill_lessons = fill_lessons

    # -- state -------------------------------------------------------------------
    def show_state(self, state: PlayerState) -> None:
        """Render ``state`` in every panel, once each, from one snapshot."""
        previous, self._shown = self._shown, state
        ran = previous is None or (state.last is not previous.last and state.position >= previous.position)
        self.position_label.setText(f"{state.position} / {len(state.program)}")
        snapshot = state.snapshot
        followed = followed_tensor(state) if ran else None
        selected = followed or self._choose_selection(state)
        self.table.set_snapshot(snapshot, state.previous_snapshot, selected)
        self.storage_map.show_snapshot(snapshot, state.previous_snapshot, state.device, selected, follow=ran)
        if followed is not None and not self.storage_map.followed:
            self.storage_map.show_selected()   # memory unchanged (a backward()): show the tensor it changed
        self._show_selected(selected)
        self.narration.show_state(state)
        self.code_view.show_state(state)
        self.output_view.show_result(state.last, self.problem)
        self.problem = ""
        self.builders.show_state(state)
        key = SCRATCHPAD if state.lesson is None else state.lesson.id
        index = self.lesson_picker.findData(key)
        if index >= 0 and index != self.lesson_picker.currentIndex():
            self.lesson_picker.setCurrentIndex(index)
        devices = [self.device_picker.itemText(i) for i in range(self.device_picker.count())]
        if devices != list(state.devices):
            # The worker says which devices exist (the window never asks torch itself).
            self.device_picker.clear()
            self.device_picker.addItems(list(state.devices))
        if self.device_picker.currentText() != state.device:
            self.device_picker.setCurrentText(state.device)
        self.memory_label.show_state(state, self.controller.memory_limit)
        self._update_enabled()
        self.editing.state_changed(state)
        self.fit_narration()
        # Settle every layout now: the drawn panels' scenes have the window painted as soon as they
        # have processed their items, and a layout settled after that paint would paint it again.
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def _choose_selection(self, state: PlayerState) -> str | None:
        """The selection stays where it can; else the newest tensor."""
        snapshot = state.snapshot
        names = [t.name for t in snapshot.tensors]
        if self.table.selected in names:
            return self.table.selected
        new = [n for n in names if state.previous_snapshot.tensor(n) is None]
        return new[-1] if new else (names[-1] if names else None)

    def _show_selected(self, name: str | None) -> None:
        snapshot = self.controller.state.snapshot
        info = snapshot.tensor(name) if isinstance(name, str) else None
        index = next((i for i, t in enumerate(snapshot.tensors) if info is not None and t.name == info.name), 0)
        self.values_view.show_tensor(info, index)
        self.graph_view.show_tensor(info)
        self.controller.set_focus(info.name if info is not None else None)
        if info is not None and info.graph is None and info.grad_fn not in (None, "Invalid"):
            # Graphs are read where they are needed: ask the worker for this one.
            self.controller.request_graph(info.name)

    def _selection_changed(self, name: object) -> None:
        """The user selected a tensor (table row or map band)."""
        self.storage_map.select(name if isinstance(name, str) else None)
        self._show_selected(name if isinstance(name, str) else None)

    def _graph_ready(self, position: int, name: str, graph: GraphInfo | None) -> None:
        if position == self.controller.state.position and self.table.selected == name and graph is not None:
            self.graph_view.show_graph(name, graph)

    def _update_enabled(self) -> None:
        state = self.controller.state
        idle = not self.busy_indicator.shown
        self.step_back_action.setEnabled(idle and state.position > 0)
        self.reset_action.setEnabled(idle and state.position > 0)
        self.step_forward_action.setEnabled(idle and state.position < len(state.program))
        self.run_to_end_action.setEnabled(idle and state.position < len(state.program))
        self.undo_action.setEnabled(idle and bool(state.user_steps))
        self.clear_steps_action.setEnabled(idle and bool(state.user_steps))
        self.lesson_picker.setEnabled(idle)
        self.device_picker.setEnabled(idle)
        self.builders.set_enabled(idle)

    def show_problem(self, message: str, until_next_state: bool = False) -> None:
        """A message for the user, in the status bar and the Output panel (never a modal dialog).

        ``until_next_state``: also show it with the state a queued job brings next.
        """
        text = tr("Stopped: the replay was cancelled.") if message == "cancelled" else message
        self.statusBar().showMessage(text.splitlines()[0] if text else "", 8000)
        self.output_view.show_result(self.controller.state.last, text)
        if until_next_state:
            self.problem = "\n\n".join(p for p in (self.problem, text) if p)

    _problem = show_problem

    def fit_narration(self) -> None:
        """Make room for the narration's question, choices and feedback (its dock grows when it must)."""
        self._fit_pending = False
        self.layouts.fit_narration(self.narration)

    def _request_fit(self) -> None:
        # Fit once the narration settled; a step's show_state fits at its end, and a request made
        # during it is then done already (no second layout and paint of the window after the step).
        if not self._fit_pending:
            self._fit_pending = True
            QTimer.singleShot(0, lambda: self._fit_if_pending())

    def _fit_if_pending(self) -> None:
        if self._fit_pending:
            self.fit_narration()

    # -- user actions ------------------------------------------------------------
    def focus_map(self) -> None:
        """Give the keyboard back to the map, so ← → Space step at once."""
        self.storage_map.setFocus(Qt.FocusReason.OtherFocusReason)

    def cancel(self) -> None:
        """Esc: stop what runs; when nothing runs, leave a field and give the keys back to the map."""
        if self.controller.busy:
            self.controller.cancel()
        else:
            self.focus_map()

    def focus_code_line(self) -> None:
        """Ctrl+L: the cursor in the code line (its dock shown and raised first)."""
        dock = self.builders.parentWidget()
        if isinstance(dock, QDockWidget):
            dock.show()
            dock.raise_()
        self.builders.code_line.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.builders.ensureWidgetVisible(self.builders.code_line.edit)

    def step_forward(self) -> None:
        """→: reveal a class vote's answer, then run the next step."""
        if self.narration.pending_vote:
            self.narration.reveal()
        if self.step_forward_action.isEnabled():
            self.controller.step_forward()

    def submit(self, code: str, origin: _Origin) -> None:
        """Run a statement from a builder or the code line; a refusal is shown where it came from."""
        position = self.controller.state.position
        reason = self.controller.submit(code)
        if reason is not None:
            origin.show_problem(reason)
            return
        origin.show_problem("")
        self.editing.inserted(position)
        if origin is self.builders.code_line:
            self.builders.code_line.accepted()
        self.focus_map()

    def _lesson_chosen(self, index: int) -> None:
        key = self.lesson_picker.itemData(index)
        lesson = next((l for l in self.lessons if l.id == key), None)
        if key != SCRATCHPAD and lesson is None:
            return  # a chapter heading: nothing to open
        self.open_lesson(lesson)
        self.focus_map()

    def open_lesson(self, lesson: Lesson | None) -> None:
        """Switch to ``lesson`` (None: the scratchpad), with the steps you added to it."""
        self.controller.load_lesson(lesson, self.editing.program_for(lesson))
        for problem in self.editing.take_problems():
            self.show_problem(problem, until_next_state=True)

    def open_lesson_file(self, path: str | Path) -> bool:
        """Load a lesson file; a bad file is reported and nothing changes."""
        return lesson_dialogs.open_lesson_file(self, path)

    def current_as_lesson(self) -> Lesson:
        """The program as it stands (lesson steps and yours) as a lesson."""
        return lesson_dialogs.current_as_lesson(self)

    # -- view --------------------------------------------------------------------
    def edit_preferences(self) -> None:
        """Preferences: the memory budget (a new one restarts the worker where the session stands)."""
        edit_preferences(self)

    def toggle_presentation(self) -> None:
        """F5: projector mode on or off."""
        self.set_presentation(self.presentation_action.isChecked())

    def set_presentation(self, on: bool) -> None:
        """Projector mode: the map main and large, narration and code large, the rest in tabs."""
        self.presentation_action.setChecked(on)
        self.layouts.switch(on)
        self.apply_text_scale()
        self.settings.setValue("window/presentation", "true" if on else "false")
        QTimer.singleShot(0, self.fit_narration)

    def apply_text_scale(self) -> None:
        """Every panel's text at the zoom (and its projector factor)."""
        projector = self.layouts.projector
        for widget in [self.storage_map] + [dock.widget() for dock in self.docks]:
            apply_scale(widget, panel_scale(widget.objectName(), self.zoom.factor, projector))
        QTimer.singleShot(0, self.storage_map.show_followed)   # once the docks have their new sizes

    def set_class_vote(self, on: bool | None = None) -> None:
        """Class vote on or off (remembered)."""
        on = self.class_vote_action.isChecked() if on is None or not isinstance(on, bool) else on
        self.class_vote_action.setChecked(on)
        self.narration.set_class_vote(on)
        self.settings.setValue("narration/class_vote", "true" if on else "false")

    def apply_default_layout(self) -> None:
        """The current mode's dock sizes in proportion to the window."""
        self.layouts.apply_sizes()

    def set_language(self, language: str) -> None:
        """Show the window in ``language`` (`en`, `ko`): menus, panels and lesson texts."""
        if not set_language(language):
            self.show_problem(tr("No translation for {language} is installed.").format(language=language))
        self.settings.setValue("session/language", current_language())

    def _language_changed(self) -> None:
        self.fill_lessons()
        index = self.language_picker.findData(current_language())
        if index >= 0:
            self.language_picker.setCurrentIndex(index)
        self._shown = None if self._shown is None else self._shown.at(self._shown.position)
        self.show_state(self.controller.state)
        self.toolbar.fit()
        self.statusBar().showMessage(tr("Ready"))

    # -- settings ----------------------------------------------------------------
    def restore_settings(self) -> None:
        """Geometry, the mode and its layout, the class vote (see :mod:`~tensorlab.ui.window.settings`)."""
        window_settings.restore(self)

    def save_settings(self) -> None:
        """Remember geometry, layout, lesson, device and the mode."""
        window_settings.save(self)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            # Start with the storage map focused, so → steps at once (a line edit would take the key).
            self.focus_map()
            if not isinstance(self.settings.value(self.layouts.key()), QByteArray):
                # Dock sizes settle only once the window has its real size.
                QTimer.singleShot(0, self.layouts.apply_sizes)
            QTimer.singleShot(0, self.toolbar.fit)
            QTimer.singleShot(150, lambda: window_settings.keep_on_screen(self))
            warm_up_when_idle(self.controller)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.save_settings()
        self.editing.flush()
        self.controller.shutdown()
        super().closeEvent(event)

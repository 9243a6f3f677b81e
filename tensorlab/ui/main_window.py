"""The main window: toolbar, menus, docks; every panel renders one state at once."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QFont, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QStyle,
    QToolBar,
    QWidget,
)

from tensorlab import __version__
from tensorlab.core.lessons import Lesson, LessonError, load_lesson, save_lesson
from tensorlab.core.messages_ko import localize_message
from tensorlab.core.player import PlayerState
from tensorlab.ui.builders_panel import BuildersPanel
from tensorlab.ui.code_view import CodeView
from tensorlab.ui.controller import LabController
from tensorlab.ui.export_actions import build_export_menu
from tensorlab.ui.graph_view import GraphView
from tensorlab.ui.i18n import LANGUAGES, Texts, current_language, set_language, tr
from tensorlab.ui.lab_docks import add_lab_docks
from tensorlab.ui.lesson_check_report import LessonCheckReport
from tensorlab.ui.lesson_picker import fill_lesson_picker
from tensorlab.ui.narration import NarrationPanel
from tensorlab.ui.output_view import OutputView
from tensorlab.ui.storage_map import StorageMapView
from tensorlab.ui.tensor_table import TensorTable
from tensorlab.ui.values_view import ValuesView

__all__ = ["MainWindow", "SCRATCHPAD"]

SCRATCHPAD = "scratchpad"
PRESENTATION_SCALE = 1.45


class MainWindow(QMainWindow):
    """TensorLab's window. ``controller`` runs the steps; this renders its states."""

    def __init__(self, controller: LabController, lessons: list[Lesson], settings: QSettings,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("TensorLab")
        self.i18n = Texts(self)
        self.controller = controller
        self.settings = settings
        self.lessons: list[Lesson] = list(lessons)
        self.problem = ""
        self.base_font = QFont(self.font())
        self._shown_once = False
        self._build_panels()
        self._build_actions()
        self._build_toolbar()
        self._build_menus()
        controller.stateChanged.connect(self.show_state)
        controller.busyChanged.connect(self._busy_changed)
        controller.progressChanged.connect(self._progress)
        controller.problem.connect(self._problem)
        controller.graphReady.connect(self._graph_ready)
        self.lesson_checks = LessonCheckReport(self)
        self.statusBar().showMessage(tr("Ready"))
        self.i18n.on_change(self._language_changed)
        self.show_state(controller.state)

    # -- construction ------------------------------------------------------------
    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(self)
        dock.setObjectName(name)
        self.i18n.bind(dock.setWindowTitle, title)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
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
        left, right, bottom = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                               Qt.DockWidgetArea.BottomDockWidgetArea)
        self.docks = [
            self._dock("Build", "buildDock", self.builders, left),
            self._dock("Tensors", "tensorsDock", self.table, right),
            self._dock("Values and gradient", "valuesDock", self.values_view, right),
            self._dock("Autograd graph", "graphDock", self.graph_view, right),
            self._dock("Narration", "narrationDock", self.narration, bottom),
            self._dock("Code", "codeDock", self.code_view, bottom),
            self._dock("Output", "outputDock", self.output_view, bottom),
        ]
        self.tabifyDockWidget(self.docks[2], self.docks[3])
        self.docks[2].raise_()
        self.docks += add_lab_docks(self)  # Measure, Copy matrix (hidden until chosen in View)
        self.apply_default_layout()
        self.builders.statementRequested.connect(self.submit)
        self.table.selectedTensorChanged.connect(self._selection_changed)
        self.storage_map.tensorClicked.connect(self.table.select_name)
        self.code_view.positionRequested.connect(self.controller.go_to)

    def _action(self, text: str, name: str, shortcuts: list[QKeySequence | str], slot, tip: str = "") -> QAction:
        action = QAction(self)
        action.setObjectName(name)
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        keys = " / ".join(QKeySequence(s).toString(QKeySequence.SequenceFormat.NativeText) for s in shortcuts)
        self.i18n.bind(action.setText, text)
        self.i18n.bind(lambda t: action.setToolTip(f"{t} ({keys})" if keys else t), tip or text)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        c = self.controller
        self.step_back_action = self._action("Back", "stepBackAction", ["Left"], c.step_back,
                                             "Step back: show the state one step earlier")
        self.step_forward_action = self._action("Step", "stepForwardAction", ["Right", "Space"], c.step_forward,
                                                "Run the next step")
        self.run_to_end_action = self._action("Run to end", "runToEndAction", ["End"], c.run_to_end,
                                              "Run every remaining step")
        self.reset_action = self._action("Reset", "resetAction", ["Home"], c.reset,
                                         "Back to before the first step")
        self.run_code_action = self._action("Run code line", "runCodeAction", ["Ctrl+Return", "Ctrl+Enter"],
                                            self.builders.code_line.request)
        self.cancel_action = self._action("Cancel", "cancelAction", ["Escape"], c.cancel,
                                          "Stop a long replay between steps")
        self.presentation_action = self._action("Presentation mode", "presentationAction", ["F5"],
                                                self._presentation_toggled, "Large text for a projector")
        self.presentation_action.setCheckable(True)
        self.open_action = self._action("Open lesson file…", "openLessonAction", [QKeySequence.StandardKey.Open],
                                        self.open_lesson_dialog)
        self.save_action = self._action("Save steps as lesson…", "saveLessonAction", [QKeySequence.StandardKey.Save],
                                        self.save_lesson_dialog)
        self.quit_action = self._action("Quit", "quitAction", [QKeySequence.StandardKey.Quit], self.close)
        style = self.style()
        for action, icon in ((self.step_back_action, QStyle.StandardPixmap.SP_MediaSeekBackward),
                             (self.step_forward_action, QStyle.StandardPixmap.SP_MediaPlay),
                             (self.run_to_end_action, QStyle.StandardPixmap.SP_MediaSkipForward),
                             (self.reset_action, QStyle.StandardPixmap.SP_MediaSkipBackward),
                             (self.cancel_action, QStyle.StandardPixmap.SP_BrowserStop)):
            action.setIcon(style.standardIcon(icon))

    def _build_toolbar(self) -> None:
        bar = QToolBar(self)
        self.i18n.bind(bar.setWindowTitle, "Lesson")
        bar.setObjectName("mainToolBar")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.addToolBar(bar)
        self.lesson_picker = QComboBox()
        self.lesson_picker.setObjectName("lessonPicker")
        self.lesson_picker.setAccessibleName("Lesson")
        self.lesson_picker.setMinimumContentsLength(22)
        self._fill_lessons()
        self.lesson_picker.activated.connect(self._lesson_chosen)
        bar.addWidget(self.lesson_picker)
        bar.addSeparator()
        for action in (self.reset_action, self.step_back_action, self.step_forward_action, self.run_to_end_action):
            bar.addAction(action)
            button = bar.widgetForAction(action)
            button.setObjectName(action.objectName().replace("Action", "Button"))
            button.setAccessibleName(action.toolTip())
        self.position_label = QLabel("0 / 0")
        self.position_label.setObjectName("positionLabel")
        self.position_label.setAccessibleName("Position in the lesson")
        self.position_label.setMinimumWidth(60)
        self.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        bar.addWidget(self.position_label)
        bar.addSeparator()
        device_label = QLabel()
        self.i18n.bind(device_label.setText, " device ")
        bar.addWidget(device_label)
        self.device_picker = QComboBox()
        self.device_picker.setObjectName("devicePicker")
        self.device_picker.setAccessibleName("Device")
        self.device_picker.addItems(list(self.controller.state.devices))
        self.device_picker.setCurrentText(self.controller.state.device)
        self.device_picker.activated.connect(lambda _: self.controller.set_device(self.device_picker.currentText()))
        bar.addWidget(self.device_picker)
        bar.addSeparator()
        bar.addAction(self.presentation_action)
        self.language_picker = QComboBox()
        self.language_picker.setObjectName("languagePicker")
        self.i18n.bind(self.language_picker.setAccessibleName, "Language")
        for code, name in LANGUAGES.items():
            self.language_picker.addItem(name, code)
        self.language_picker.setCurrentIndex(self.language_picker.findData(current_language()))
        self.language_picker.activated.connect(
            lambda index: self.set_language(self.language_picker.itemData(index)))
        bar.addWidget(self.language_picker)
        self.busy_bar = QProgressBar()
        self.busy_bar.setObjectName("busyIndicator")
        self.busy_bar.setAccessibleName("Running")
        self.busy_bar.setMaximumWidth(120)
        self.busy_bar.setRange(0, 0)
        # Widgets in a toolbar are shown and hidden through the action that holds them.
        self.busy_action = bar.addWidget(self.busy_bar)
        self.busy_action.setVisible(False)
        bar.addAction(self.cancel_action)
        self.cancel_action.setVisible(False)

    def _build_menus(self) -> None:
        menu = self.menuBar()
        lesson = menu.addMenu("")
        self.i18n.bind(lesson.setTitle, "&Lesson")
        for action in (self.open_action, self.save_action):
            lesson.addAction(action)
        lesson.addMenu(build_export_menu(self))  # script, notebook, slides
        lesson.addSeparator()
        lesson.addAction(self.quit_action)
        step = menu.addMenu("")
        self.i18n.bind(step.setTitle, "&Step")
        for action in (self.step_back_action, self.step_forward_action, self.run_to_end_action,
                       self.reset_action, self.run_code_action, self.cancel_action):
            step.addAction(action)
        view = menu.addMenu("")
        self.i18n.bind(view.setTitle, "&View")
        self.view_menu = view
        for dock in self.docks:
            view.addAction(dock.toggleViewAction())
        view.addSeparator()
        view.addAction(self.presentation_action)
        help_menu = menu.addMenu("")
        self.i18n.bind(help_menu.setTitle, "&Help")
        about = QAction(self)
        self.i18n.bind(about.setText, "About TensorLab")
        about.triggered.connect(lambda: QMessageBox.about(
            self, tr("About TensorLab"),
            f"TensorLab {__version__}: "
            + tr("see how PyTorch tensors are copied, shared and differentiated.\n"
                 "Everything shown is read from real torch objects.")))
        help_menu.addAction(about)

    def _fill_lessons(self) -> None:
        current = self.lesson_picker.currentData()
        self.lesson_picker.blockSignals(True)
        fill_lesson_picker(self.lesson_picker, self.lessons, current_language())
        self.lesson_picker.addItem(tr("Scratchpad (your own steps)"), SCRATCHPAD)
        if current is not None and self.lesson_picker.findData(current) >= 0:
            self.lesson_picker.setCurrentIndex(self.lesson_picker.findData(current))
        self.lesson_picker.blockSignals(False)

    # -- state -------------------------------------------------------------------
    def show_state(self, state: PlayerState) -> None:
        """Render ``state`` in every panel, from one snapshot."""
        total = len(state.program)
        self.position_label.setText(f"{state.position} / {total}")
        snapshot = state.snapshot
        self.storage_map.show_snapshot(snapshot, state.previous_snapshot, state.device)
        self.table.set_snapshot(snapshot, state.previous_snapshot)
        self._selection_changed(self.table.selected)
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
        self._update_enabled()

    def _selection_changed(self, name: object) -> None:
        snapshot = self.controller.state.snapshot
        info = snapshot.tensor(name) if isinstance(name, str) else None
        index = next((i for i, t in enumerate(snapshot.tensors) if info is not None and t.name == info.name), 0)
        self.values_view.show_tensor(info, index)
        self.graph_view.show_tensor(info)
        self.storage_map.select(info.name if info is not None else None)
        self.controller.set_focus(info.name if info is not None else None)
        if info is not None and info.graph is None and info.grad_fn not in (None, "Invalid"):
            # Graphs are read where they are needed: ask the worker for this one.
            self.controller.request_graph(info.name)

    def _graph_ready(self, position: int, name: str, graph: object) -> None:
        if position == self.controller.state.position and self.table.selected == name and graph is not None:
            self.graph_view.show_graph(name, graph)

    def _update_enabled(self) -> None:
        state = self.controller.state
        idle = not self.controller.busy
        self.step_back_action.setEnabled(idle and state.position > 0)
        self.reset_action.setEnabled(idle and state.position > 0)
        self.step_forward_action.setEnabled(idle and state.position < len(state.program))
        self.run_to_end_action.setEnabled(idle and state.position < len(state.program))
        self.lesson_picker.setEnabled(idle)
        self.device_picker.setEnabled(idle)
        self.builders.set_enabled(idle)

    def _busy_changed(self, busy: bool) -> None:
        self.busy_action.setVisible(busy)
        self.busy_bar.setRange(0, 0)
        self.cancel_action.setVisible(busy)
        self.statusBar().showMessage(tr("Running…") if busy else tr("Ready"))
        self._update_enabled()

    def _progress(self, done: int, total: int) -> None:
        if total > 1:
            self.busy_bar.setRange(0, total)
            self.busy_bar.setValue(done)
            self.statusBar().showMessage(tr("Replaying step {done} of {total}… (Esc cancels)")
                                         .format(done=done, total=total))

    def _problem(self, message: str) -> None:
        text = (tr("Stopped: the replay was cancelled.") if message == "cancelled"
                else localize_message(message, current_language()))
        self.statusBar().showMessage(text.splitlines()[0], 8000)
        self.output_view.show_result(self.controller.state.last, text)

    # -- user actions ------------------------------------------------------------
    def submit(self, code: str, origin: object) -> None:
        """Run a statement from a builder or the code line; a refusal is shown where it came from."""
        reason = self.controller.submit(code)
        if reason is not None:
            origin.show_problem(reason)  # type: ignore[attr-defined]
            return
        origin.show_problem("")  # type: ignore[attr-defined]
        if origin is self.builders.code_line:
            self.builders.code_line.accepted()

    def _lesson_chosen(self, index: int) -> None:
        key = self.lesson_picker.itemData(index)
        self.open_lesson(None if key == SCRATCHPAD else next(l for l in self.lessons if l.id == key))

    def open_lesson(self, lesson: Lesson | None) -> None:
        """Switch to ``lesson`` (None: the scratchpad). Steps you added are kept per lesson."""
        self.controller.load_lesson(lesson)

    def open_lesson_file(self, path: str | Path) -> bool:
        """Load a lesson file; a bad file is reported and nothing changes."""
        try:
            lesson = load_lesson(path)
        except LessonError as exc:
            # Said in the output panel, without a modal dialog; the open lesson stays as it was.
            self._problem(tr("This lesson file cannot be opened: {reason}").format(
                reason=localize_message(str(exc), current_language())))
            return False
        self.lessons = [l for l in self.lessons if l.id != lesson.id] + [lesson]
        self._fill_lessons()
        self.open_lesson(lesson)
        self.lesson_checks.check(lesson)
        return True

    def open_lesson_dialog(self) -> None:
        """Ask for a lesson file and open it."""
        path, _ = QFileDialog.getOpenFileName(self, tr("Open lesson"), "", tr("TensorLab lessons (*.toml)"))
        if path:
            self.open_lesson_file(path)

    def current_as_lesson(self) -> Lesson:
        """The program as it stands (lesson steps and yours) as a lesson."""
        state = self.controller.state
        base = state.lesson
        steps = tuple(state.program)  # program steps are lesson steps (with an origin)
        if base is None:
            return Lesson("my-steps", "My steps", steps)
        return Lesson(f"{base.id}-mine", f"{base.title} (with my steps)", steps, base.summary,
                      dict(base.translations), chapter=base.chapter, prerequisites=base.prerequisites)

    def save_lesson_dialog(self) -> None:
        """Save the program as a lesson file."""
        path, _ = QFileDialog.getSaveFileName(self, tr("Save steps as lesson"), "my-steps.toml",
                                              tr("TensorLab lessons (*.toml)"))
        if path:
            try:
                save_lesson(self.current_as_lesson(), path)
            except (OSError, LessonError) as exc:
                self._problem(tr("The lesson could not be saved: {reason}").format(
                    reason=localize_message(str(exc), current_language())))
                return
            self.statusBar().showMessage(tr("Saved {path}").format(path=path), 5000)
            self.lesson_checks.check(self.current_as_lesson())

    def _presentation_toggled(self) -> None:
        self.set_presentation(self.presentation_action.isChecked())

    def set_presentation(self, on: bool) -> None:
        """Large text everywhere, for a projector."""
        self.presentation_action.setChecked(on)
        font = QFont(self.base_font)
        if on:
            font.setPointSizeF(self.base_font.pointSizeF() * PRESENTATION_SCALE)
        self.setFont(font)
        scale = PRESENTATION_SCALE if on else 1.0
        self.storage_map.set_scale(scale)
        self.graph_view.set_scale(scale)

    def apply_default_layout(self) -> None:
        """Dock sizes in proportion to the window: builders left, facts right, text below."""
        width, height = max(self.width(), 800), max(self.height(), 500)
        self.resizeDocks([self.docks[0], self.docks[1]], [int(width * 0.2), int(width * 0.36)],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks[4]], [int(height * 0.26)], Qt.Orientation.Vertical)
        self.resizeDocks([self.docks[1]], [int(height * 0.31)], Qt.Orientation.Vertical)

    def set_language(self, language: str) -> None:
        """Show the window in ``language`` (`en`, `ko`): menus, panels and lesson texts."""
        if not set_language(language):
            self._problem(tr("No translation for {language} is installed.").format(language=language))
        self.settings.setValue("session/language", current_language())

    def _language_changed(self) -> None:
        self._fill_lessons()
        index = self.language_picker.findData(current_language())
        if index >= 0:
            self.language_picker.setCurrentIndex(index)
        self.show_state(self.controller.state)
        self.statusBar().showMessage(tr("Ready"))

    # -- settings ----------------------------------------------------------------
    def restore_settings(self) -> None:
        """Geometry, dock layout and presentation mode from the settings."""
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        layout = self.settings.value("window/state")
        if isinstance(layout, QByteArray):
            self.restoreState(layout)
        else:
            self.apply_default_layout()
        self.set_presentation(str(self.settings.value("window/presentation", "false")).lower() == "true")

    def save_settings(self) -> None:
        """Remember geometry, dock layout, lesson, device and presentation mode."""
        state = self.controller.state
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/presentation", "true" if self.presentation_action.isChecked() else "false")
        self.settings.setValue("session/lesson", SCRATCHPAD if state.lesson is None else state.lesson.id)
        self.settings.setValue("session/device", state.device)
        self.settings.sync()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            # Start with the storage map focused, so → steps at once (a line edit would take the key).
            self.storage_map.setFocus(Qt.FocusReason.OtherFocusReason)
            if not isinstance(self.settings.value("window/state"), QByteArray):
                # Dock sizes settle only once the window has its real size.
                QTimer.singleShot(0, self.apply_default_layout)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.save_settings()
        self.controller.shutdown()
        super().closeEvent(event)

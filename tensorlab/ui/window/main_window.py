"""The main window: panels in docks around the storage map; every panel renders one state at once.

The panels are listed in :mod:`~tensorlab.ui.window.panels` (the registry), the actions declared in
:mod:`~tensorlab.ui.window.actions`, the toolbar made in :mod:`~tensorlab.ui.window.toolbar`, dock
layouts (normal and projector) in :mod:`~tensorlab.ui.window.layouts`, text sizes in
:mod:`~tensorlab.ui.widgets.text_zoom`, what is remembered in :mod:`~tensorlab.ui.widgets.settings`,
and the editing of your steps in :mod:`~tensorlab.ui.program.step_editing`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence, QResizeEvent, QShowEvent, QWindow
from PySide6.QtWidgets import QApplication, QDialog, QDockWidget, QLineEdit, QMainWindow, QWidget

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.messages.catalogue import msg
from tensorlab.core.protocol.engine_api import Reply
from tensorlab.core.protocol.limits import format_size
from tensorlab.core.protocol.measure_results import QUESTION_JOB
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
from tensorlab.ui.program import diagnosis_program, lesson_dialogs
from tensorlab.ui.program.controller import LabController
from tensorlab.ui.program.lesson_check_report import LessonCheckReport
from tensorlab.ui.program.lesson_picker import fill_lesson_picker
from tensorlab.ui.program.step_editing import StepEditing
from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.tools.diagnose_panel import DiagnosePanel, DiagnosisView
from tensorlab.ui.tools.lab_docks import bring_back_floating, place_lab_docks
from tensorlab.ui.tools.measure_panel import MeasurePanel
from tensorlab.ui.widgets.held_hints import HOLD_NOTHING, Held, held_hints
from tensorlab.ui.widgets.i18n import Texts, current_language, set_language, tr
from tensorlab.ui.widgets.lean_style import use_lean_style
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.settings import SCRATCHPAD, Settings
from tensorlab.ui.widgets.text_zoom import TextZoom, apply_scale, base_px, panel_scale, px
from tensorlab.ui.window import crash_report
from tensorlab.ui.window.actions import build_actions, build_menus, show_about
from tensorlab.ui.window.busy_indicator import BUSY_AFTER_MS, BusyIndicator
from tensorlab.ui.window.follow import (
    ChangedMark,
    changed_label,
    changed_tensors,
    followed_tensor,
    fresh_tensors,
    more_changed,
    narration_speaks,
    newest_made,
    question_asked,
)
from tensorlab.ui.window.layouts import ZOOM_LINES, LayoutModes
from tensorlab.ui.window.memory_label import MemoryLabel
from tensorlab.ui.window.one_paint import OnePaint
from tensorlab.ui.window.panels import PanelSet
from tensorlab.ui.window.preferences import PreferencesDialog
from tensorlab.ui.window.settings import keep_on_screen
from tensorlab.ui.window.toolbar import build_code_bar, build_toolbar

FIT_READABLE_PX = 15   # the smallest a projected question is written to fit its dock (the table's text is 13-16 px)

__all__ = ["MainWindow", "SCRATCHPAD", "default_data_dir", "BUSY_AFTER_MS"]


def default_data_dir() -> Path:
    """The user data folder (QStandardPaths), where the steps you added are kept."""
    return Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))


# The panels whose texts a question can hold back (held_hints): rendered again when it is answered.
HELD_PANELS = (("graph_view", "saved_states"), ("storage_map", "saved_states"), ("values_view", "grad_reasons"),
               ("output_view", "backward_notes"), ("code_view", "later_code"))


class _Origin(Protocol):
    """Where a statement came from (a builder, the code line): it shows why it was refused, or ""."""

    def show_problem(self, message: str) -> None: ...


class MainWindow(QMainWindow):
    """TensorLab's window. ``controller`` runs the steps; this renders its states."""

    # Set by export_actions.build_export_menu (the Exporter of the Export menu).
    exporter: Exporter

    def __init__(self, controller: LabController, lessons: list[Lesson], settings: QSettings,
                 parent: QWidget | None = None, data_dir: Path | None = None) -> None:
        super().__init__(parent)
        # The lesson being opened (open_lesson) until its state is shown: the picker names it at once, not the
        # scratchpad of the blank state shown while the worker starts (review r17o item 6).
        self._opening: str | None = None
        self.setObjectName("mainWindow")
        self.setWindowTitle("TensorLab")
        # No animation: a dock that makes room for a question has its size at once.
        self.setDockOptions(QMainWindow.DockOption.AllowTabbedDocks | QMainWindow.DockOption.AllowNestedDocks)
        self.i18n = Texts(self)
        self.controller = controller
        self.settings = Settings(settings)
        self.lessons: list[Lesson] = list(lessons)
        self.problem = ""
        self._shown: PlayerState | None = None
        self._graph_forward = False   # the graph was brought forward by a failing backward (the next step hands back)
        self._graph_waiting = False   # ... or waits behind the narration's verdict for the next →
        self._shown_once = False
        self.selected: str | None = None   # the tensor selected (table row, map band)
        self._user_selected: str | None = None   # the last tensor the user chose (not one followed)
        self.zoom = TextZoom(self.settings, self)
        self.editing = StepEditing(self, data_dir or default_data_dir())
        # Every panel, from the registry (window/panels.py); the window wires those it knows.
        self.panels = PanelSet(self, self.i18n, controller)
        self.one_paint = OnePaint(self)   # a state shown paints the window once, not once per changed scene
        self.docks: list[QDockWidget] = list(self.panels.docks.values())
        self.storage_map = self.panels.get("storage_map", StorageMapView)
        self.builders = self.panels.get("builders", BuildersPanel)
        self.table = self.panels.get("table", TensorTable)
        self.values_view = self.panels.get("values_view", ValuesView)
        self.graph_view = self.panels.get("graph_view", GraphView)
        self.narration = self.panels.get("narration", NarrationPanel)
        self.code_view = self.panels.get("code_view", CodeView)
        self.output_view = self.panels.get("output_view", OutputView)
        self.measure_panel = self.panels.get("measure_panel", MeasurePanel)
        self.copy_matrix = self.panels.get("copy_matrix", CopyMatrixPanel)
        self.diagnose_panel = self.panels.get("diagnose_panel", DiagnosePanel)
        self.diagnose_panel.reproductionRequested.connect(self.open_diagnosis)
        self.diagnose_panel.lessonRequested.connect(self.open_lesson_id)
        self.lessons += [l for l in self.editing.diagnoses() if l.id not in {k.id for k in self.lessons}]
        self.layouts = LayoutModes(self, self.panels, self.settings)
        place_lab_docks(self, self.panels.docks["measureDock"], self.panels.docks["copyMatrixDock"],
                        self.panels.docks["diagnoseDock"])
        self.layouts.apply_default()
        self.builders.statementRequested.connect(self.submit)
        self.table.selectedTensorChanged.connect(self._selection_changed)
        self.storage_map.tensorClicked.connect(self.table.select_name)
        self.changed_mark = ChangedMark(self.storage_map, self._select_changed)   # "+N more changed: …"
        self.code_view.positionRequested.connect(self.controller.go_to)
        self.code_view.removeRequested.connect(self.editing.remove)
        # Every action, by name (``commands.step_forward``); not ``actions``: QWidget.actions() is Qt's list.
        self.commands = build_actions(self, self.i18n, self)
        self.export_menu = build_export_menu(self)  # script, notebook, slides
        self.toolbar = build_toolbar(self, self.i18n, self.commands, controller.state.devices, controller.state.device)
        self.lesson_picker = self.toolbar.lesson_picker
        self.code_bar = build_code_bar(self, self.i18n, self.builders.code_bar)
        self.position_label = self.toolbar.position_label
        self.device_picker = self.toolbar.device_picker
        self.language_picker = self.toolbar.language_picker
        self.lesson_picker.activated.connect(self._lesson_chosen)
        self.device_picker.activated.connect(lambda _: self.controller.set_device(self.device_picker.currentText()))
        self.language_picker.activated.connect(
            lambda index: self.set_language(self.language_picker.itemData(index)))
        self.view_menu = build_menus(self, self.i18n, self.commands, self.docks, self.export_menu)["&View"]
        self.busy_indicator = BusyIndicator(self.statusBar(), controller, self.commands.cancel, self._update_enabled)
        self.busy_bar = self.busy_indicator.busy_bar
        self.cancel_button = self.busy_indicator.cancel_button
        self.memory_label = MemoryLabel()
        self.statusBar().addPermanentWidget(self.memory_label)
        self.fill_lessons()
        self.storage_map.enterPressed.connect(self.step_forward)   # Enter on the map is → (a vote is revealed)
        self._fit_pending = False
        self.narration.changed.connect(self._request_fit)
        self.narration.changed.connect(self._update_held)   # a question answered: the held hints are shown
        # A measured question: the narration asks, the worker measures (off the GUI thread), the narration marks.
        self.narration.measureRequested.connect(lambda params: controller.run_job(QUESTION_JOB, params))
        self.narration.measureCancelRequested.connect(controller.cancel)
        controller.jobProgress.connect(self.narration.measure_progress)
        controller.jobFinished.connect(self.narration.measure_finished)
        controller.stateChanged.connect(self.show_state)
        controller.problem.connect(self.show_problem)
        controller.graphReady.connect(self._graph_ready)
        self._read_graph: tuple[int, str, GraphInfo] | None = None
        # After the panel set's own handler (connected first), which renders what the graph missed.
        self.panels.docks["graphDock"].visibilityChanged.connect(self._graph_shown)
        self.lesson_checks = LessonCheckReport(self)
        self.zoom.changed.connect(lambda _: self.apply_text_scale())
        self.statusBar().showMessage(tr("Ready"))
        self.i18n.on_change(self._language_changed)
        self.apply_text_scale()
        use_lean_style(self)
        self.show_state(controller.state)
        # Keys pressed before the lesson's first state is shown (→ in the first half second) are kept,
        # and replayed once it is: the step actions are disabled until then, and would drop them.
        self._early_keys: list[QKeyEvent] | None = []
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)
        controller.busyChanged.connect(self._release_early_keys)
        controller.busyChanged.connect(self._opened)

    # -- construction ------------------------------------------------------------
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

    # -- keys before the first state ----------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        """Until the first state is shown, every key pressed in this window is queued (F5 too: a shortcut taken
        at once would change the mode under the loading, which then lays out the other one)."""
        if self._early_keys is None:
            return False
        # The window's own QWindow too: before a widget has the focus (a window just mapped under X), Qt offers
        # the key to it, and a shortcut not overridden there ran at once, ahead of the keys queued before it.
        ours = watched.window() is self if isinstance(watched, QWidget) else (
            isinstance(watched, QWindow) and watched is self.windowHandle())
        if not ours:
            return False
        kind = event.type()
        if kind == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            event.accept()   # no shortcut now (a disabled action would drop it): the key comes as a press
            return True
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            self._early_keys.append(QKeyEvent(QEvent.Type.KeyPress, event.key(), event.modifiers(), event.text(),
                                              event.isAutoRepeat(), event.count()))
            return True
        return kind == QEvent.Type.KeyRelease

    def _opened(self, busy: bool) -> None:
        """The worker is idle: whatever it was opening is loaded, or failed (the picker follows the state again)."""
        if not busy:
            self._opening = None

    def _release_early_keys(self, busy: bool) -> None:
        """The first state is shown (the worker is idle): the queued keys, in order, as if pressed now."""
        if busy or self._early_keys is None:
            return
        self.layouts.say_reset_notice()   # a layout reset while the lesson loaded is said now
        keys, self._early_keys = self._early_keys, None
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        for key in keys:
            self._replay_key(key)

    def _replay_key(self, key: QKeyEvent) -> None:
        """One queued key, as if pressed now: a field focused then takes what it types (after Ctrl+L, the
        letters go to the code line); else the window's action with that key (looked up here, not by Qt's
        shortcut map, which only serves the active window), else the focused widget."""
        target = self.focusWidget() or self.storage_map
        typing = isinstance(target, QLineEdit) and key.text().isprintable() and bool(key.text()) and not (
            key.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier))
        if not typing:
            pressed = QKeySequence(key.keyCombination())
            for action in self.findChildren(QAction):
                if action.isEnabled() and any(s.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch
                                              for s in action.shortcuts()):
                    action.trigger()
                    return
        QApplication.sendEvent(target, key)
        QApplication.sendEvent(target, QKeyEvent(QEvent.Type.KeyRelease, key.key(), key.modifiers(), key.text()))

    # -- state -------------------------------------------------------------------
    def show_state(self, state: PlayerState) -> None:
        """Render ``state`` in every panel shown, once each, from one snapshot (a closed panel renders
        the state current when it is shown again); the window is painted once, with every panel changed."""
        with self.one_paint.held():
            self._show_state(state)

    def _show_state(self, state: PlayerState) -> None:
        previous, self._shown = self._shown, state
        ran = previous is None or (state.last is not previous.last and state.position >= previous.position)
        if state.trimmed and (previous is None or previous.trimmed == 0):
            # The kept history was trimmed to its share of the budget: said once, in the window's language,
            # after the "Ready" that ends the run (so that it stays readable).
            text = msg("history.trimmed", step=state.trimmed).render(current_language())
            QTimer.singleShot(0, lambda: self.statusBar().showMessage(text, 15000))
        self.position_label.setText(f"{state.position} / {len(state.program)}")
        followed = followed_tensor(state, previous.position if previous is not None else None) if ran else None
        # A step that made and changed nothing, before a question about a tensor that exists: that tensor (not
        # the one an earlier step made).
        asked = question_asked(state) if ran and state.last is not None and state.last.ok \
            and not fresh_tensors(state.snapshot, state.previous_snapshot) \
            and not changed_tensors(state.snapshot, state.previous_snapshot) and not self._keeps_choice(state) \
            else None
        self.selected = asked or followed or self._choose_selection(state, ran)
        self.panels.render(View(state, self.selected, ran, (followed or asked) is not None, self.problem,
                                self._held_now(state)))
        # The other tensors the step made or changed, and the followed one itself where the step made or changed it
        # (a failed step follows what it used), named once the learner scrolls it away.
        others = more_changed(state, followed) if ran else ()
        if ran and followed is not None and followed in fresh_tensors(state.snapshot, state.previous_snapshot) \
                + changed_tensors(state.snapshot, state.previous_snapshot):
            others = (followed,) + others
        self.changed_mark.show_names(others, self.storage_map.scale_factor,
                                     tuple(changed_label(state, name) for name in others), followed)
        if ran:
            self._bring_forward(state, followed is not None)
        else:
            self._graph_waiting = False   # went back, or reloaded: → steps again
        self.problem = ""
        self._focus_selected()
        key = SCRATCHPAD if state.lesson is None else state.lesson.id
        if key == self._opening:
            self._opening = None   # the lesson asked for is the one shown
        index = self.lesson_picker.findData(key)
        if self._opening is None and index >= 0 and index != self.lesson_picker.currentIndex():
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

    def _bring_forward(self, state: PlayerState, followed: bool) -> None:
        """The panel that matters follows the step just run (projector mode shows one tab of the side at once).

        One rule for an error: the panel that explains it comes forward — a failing backward() its graph (the
        saved tensor that changed) — but never over the narration while it shows a question or the answer of
        the step just run: where the two share a tab group (projector mode), the narration stays in front
        with its verdict, and the next → brings the graph forward instead of running the next step (the
        class reads the verdict, then sees why); the → after that runs on, and the narration comes back.
        Where they do not share one (normal mode: the narration below, the graph on the right), the graph
        comes forward at once.
        """
        last = state.last
        self._graph_waiting = False
        failing = last is not None and not last.ok and followed and "backward" in last.code
        if failing and narration_speaks(state) and not self.panels.closed("narration") \
                and self._shares_tabs("narrationDock", "graphDock"):
            self.show_panel("narrationDock")
            self._graph_waiting = True
            self._graph_forward = False
            return
        if failing:
            self.show_panel("graphDock")
            self._graph_forward = True
            return
        if (self._graph_forward or narration_speaks(state)) and not self.panels.closed("narration"):
            self.show_panel("narrationDock")
        self._graph_forward = False

    def _shares_tabs(self, one: str, other: str) -> bool:
        """Docks ``one`` and ``other`` are tabs of one group (only one of them shows at a time)."""
        docks = self.panels.docks
        first, second = docks.get(one), docks.get(other)
        return first is not None and second is not None and second in self.tabifiedDockWidgets(first)

    def graph_waiting(self) -> bool:
        """A failing step's graph waits behind the narration's verdict: the next → brings it forward."""
        return self._graph_waiting

    def _held_now(self, state: PlayerState) -> Held:
        """The panel hints held back now: those that would answer the next step's question, while it is open
        (asked in the narration and not answered yet; nothing while the narration is closed, as nothing asks)."""
        if self.panels.closed("narration") or state.position >= len(state.program):
            return HOLD_NOTHING
        return held_hints(state, self.narration.is_answered(state.position, state.program[state.position].code))

    def _update_held(self) -> None:
        """The narration's question was answered (or asked again): the panels that hold hints show it."""
        view = self.panels.view
        if view is None or view.state is not self.controller.state:
            return   # a state is on its way (its own render decides)
        held = self._held_now(view.state)
        keys = [key for key, hint in HELD_PANELS if getattr(held, hint) != getattr(view.held, hint)]
        last = view.state.last
        if last is None or last.ok:
            keys = [key for key in keys if key != "storage_map"]   # no culprit mark: not drawn again
        if keys:
            # The same view, the hint shown: only the panels whose hint changed are drawn again.
            self.panels.render(replace(view, held=held), keys=keys)

    def _keeps_choice(self, state: PlayerState) -> bool:
        """The tensor the user chose last is selected and still exists: a step that changes nothing keeps it."""
        return self._user_selected is not None and self._user_selected == self.selected \
            and state.snapshot.tensor(self.selected) is not None

    def _choose_selection(self, state: PlayerState, ran: bool = False) -> str | None:
        """After a step that made and changed nothing (``ran``), a tensor the user chose stays selected, else the
        newest one made (:func:`newest_made`: the same however the state was reached, → or ``--step N``); else
        the selection stays where it can; else the newest tensor."""
        snapshot = state.snapshot
        names = [t.name for t in snapshot.tensors]
        if ran and not (self._user_selected is not None and self._user_selected == self.selected
                        and self.selected in names):
            made = newest_made(state)
            if made is not None:
                return made
        if self.selected in names:
            return self.selected
        new = [n for n in names if state.previous_snapshot.tensor(n) is None]
        return new[-1] if new else (names[-1] if names else None)

    def _focus_selected(self) -> None:
        """The worker reads the selected tensor's graph (and keeps it in the snapshots that follow)."""
        info = self.controller.state.snapshot.tensor(self.selected) if self.selected is not None else None
        self.controller.set_focus(info.name if info is not None else None)
        if info is not None and info.graph is None and info.grad_fn not in (None, "Invalid"):
            # Graphs are read where they are needed: ask the worker for this one.
            self.controller.request_graph(info.name)

    def _select_changed(self, name: str) -> None:
        """The map's "+N more changed" mark was clicked: its first tensor is selected (the table may be behind a
        projector tab, so not through it)."""
        self.table.select_name(name, signal=False)
        self._selection_changed(name)

    def _selection_changed(self, name: object) -> None:
        """The user selected a tensor (table row or map band)."""
        self.selected = name if isinstance(name, str) else None
        self._user_selected = self.selected
        self.storage_map.select(self.selected)
        view = self.panels.view
        if view is not None:
            state = self.controller.state
            self.panels.render(replace(view, state=state, selected=self.selected, problem="",
                                       held=self._held_now(state)), selection_only=True)
        self._focus_selected()

    def _graph_ready(self, position: int, name: str, graph: GraphInfo | None) -> None:
        if position == self.controller.state.position and self.selected == name and graph is not None:
            self._read_graph = (position, name, graph)
            self.graph_view.show_graph(name, graph)

    def _graph_shown(self, visible: bool) -> None:
        """The graph's tab was raised: a panel behind a tab renders the state it missed (which has no graph
        read), so the graph read meanwhile is shown again over its "Reading…" (else it never comes)."""
        read = self._read_graph
        if visible and read is not None and read[0] == self.controller.state.position and read[1] == self.selected:
            self.graph_view.show_graph(read[1], read[2])

    def _update_enabled(self) -> None:
        state = self.controller.state
        # The background replay after going back shows busy, but waits for nothing: stepping on stops it.
        idle = not self.busy_indicator.shown or self.controller.preparing
        actions = self.commands
        actions.step_back.setEnabled(idle and state.position > 0)
        actions.reset.setEnabled(idle and state.position > 0)
        actions.step_forward.setEnabled(idle and (state.position < len(state.program) or self._graph_waiting))
        actions.run_to_end.setEnabled(idle and state.position < len(state.program))
        actions.undo.setEnabled(idle and bool(state.user_steps))
        actions.clear_steps.setEnabled(idle and bool(state.user_steps))
        self.lesson_picker.setEnabled(idle)
        self.device_picker.setEnabled(idle)
        self.builders.set_enabled(idle)

    def show_problem(self, message: str, until_next_state: bool = False) -> None:
        """A message for the user, in the status bar and the Output panel (never a modal dialog).

        ``until_next_state``: also show it with the state a queued job brings next.
        """
        text = tr("Stopped: the replay was cancelled.") if message == Reply.CANCELLED else message
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
        """Esc: stop what runs (a step, a diagnosis); when nothing runs, leave a field and give the keys back to
        the map."""
        if self.diagnose_panel.running and not self.diagnose_panel.cancelled:
            self.diagnose_panel.cancel()
        elif self.controller.busy:
            self.controller.cancel()
        else:
            self.focus_map()

    def focus_code_line(self) -> None:
        """Ctrl+L: the cursor in the code line (in its bar across the window, in both modes)."""
        self.code_bar.show()
        self.builders.code_line.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def step_forward(self) -> None:
        """→: reveal a class vote's answer, then run the next step (where the step after it asks too, its question
        waits for the next →, so that the answer is read first); after a failing step whose verdict the narration
        shows in front of its graph, first bring the graph forward (see :meth:`_bring_forward`)."""
        if self.narration.release_question():
            return   # the answer of the vote was read: now the next question, nothing runs
        unanswered = self.narration.unanswered
        if self.narration.pending_vote:
            self.narration.reveal()
        elif self._graph_waiting:
            self._graph_waiting = False
            self.show_panel("graphDock")
            self._graph_forward = True   # the next step brings the narration back
            return
        state = self.controller.state
        asks_next = state.position + 1 < len(state.program) and state.program[state.position + 1].ask is not None
        if unanswered and self.narration.class_vote and asks_next and self.commands.step_forward.isEnabled():
            # In a class vote, the step runs with its answer not read yet (the vote revealed now, or nothing marked),
            # and the next question waits for the next →: scrolled to it, the class never read the answer (review
            # helper-158, D11; helper-159, D2). Alone, → runs on at once (the answer stays above the note).
            self.narration.held_question = state.position + 1
        if self.commands.step_forward.isEnabled():
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
        self.builders.clear_problems()    # the code line's old refusal belongs to the program left (reopened too)
        key = SCRATCHPAD if lesson is None else lesson.id
        index = self.lesson_picker.findData(key)
        if index >= 0:
            self._opening = key
            if index != self.lesson_picker.currentIndex():
                self.lesson_picker.blockSignals(True)
                self.lesson_picker.setCurrentIndex(index)
                self.lesson_picker.blockSignals(False)
        self.controller.load_lesson(lesson, self.editing.program_for(lesson))
        for problem in self.editing.take_problems():
            self.show_problem(problem, until_next_state=True)

    def open_lesson_file(self, path: str | Path) -> bool:
        """Load a lesson file; a bad file is reported and nothing changes."""
        return lesson_dialogs.open_lesson_file(self, path)

    def current_as_lesson(self) -> Lesson:
        """The program as it stands (lesson steps and yours) as a lesson."""
        return lesson_dialogs.current_as_lesson(self)

    def open_lesson_dialog(self) -> None:
        """Lesson → Open lesson file…"""
        lesson_dialogs.open_lesson_dialog(self)

    def open_source_dialog(self) -> None:
        """Lesson → Open Python file or notebook…"""
        lesson_dialogs.open_source_dialog(self)

    def save_lesson_dialog(self) -> None:
        """Lesson → Save steps as lesson…"""
        lesson_dialogs.save_lesson_dialog(self)

    def diagnose(self) -> None:
        """Help → Diagnose an error… (Ctrl+Shift+D): the Diagnose panel, the cursor in its paste box."""
        self.show_panel("diagnoseDock")
        self.diagnose_panel.focus_paste()
        QTimer.singleShot(0, self, self.diagnose_panel.focus_paste)   # once it floats in a window of its own

    def open_diagnosis(self, diagnosis: DiagnosisView) -> None:
        """Open a diagnosis's reproduction as a program of its own, at its first step, the keys on the map."""
        if diagnosis.reproduction and diagnosis_program.open_reproduction(
                self, diagnosis.reproduction, diagnosis.title, diagnosis.text, diagnosis.advice) is not None:
            dock = self.panels.docks["diagnoseDock"]
            if dock.isFloating():
                dock.hide()   # out of the map's way (Ctrl+Shift+D brings it back where it was)
            self.activateWindow()
            self.focus_map()

    def open_lesson_id(self, lesson_id: str) -> None:
        """Open the lesson ``lesson_id`` (a lesson the Diagnose panel names), as the lesson picker does."""
        lesson = next((l for l in self.lessons if l.id == lesson_id), None)
        if lesson is not None:
            self.open_lesson(lesson)
            self.focus_map()

    def about(self) -> None:
        """Help → About TensorLab."""
        show_about(self)

    def show_log_location(self) -> None:
        """Help → Where is the log?"""
        crash_report.show_log_location(self)

    # -- view --------------------------------------------------------------------
    def edit_preferences(self) -> None:
        """Preferences: the memory budget (a new one restarts the worker where the session stands)."""
        dialog = PreferencesDialog(self.settings, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        if dialog.memory_limit != self.controller.memory_limit:
            self.controller.set_memory_limit(dialog.memory_limit)
            self.statusBar().showMessage(tr("Memory budget: {budget}").format(budget=format_size(dialog.memory_limit)),
                                         5000)

    def toggle_presentation(self) -> None:
        """F5: projector mode on or off."""
        self.set_presentation(self.commands.presentation.isChecked())

    def set_presentation(self, on: bool) -> None:
        """Projector mode: the map main and large, narration and code large, the rest in tabs."""
        self.commands.presentation.setChecked(on)
        self.narration.set_title_with_question(on)
        self.layouts.switch(on)
        self._limit_zoom()
        self.apply_text_scale()
        self.settings.projector = on
        QTimer.singleShot(0, self.fit_narration)

    def zoom_text(self, direction: int) -> None:
        """Ctrl+= / Ctrl+- / Ctrl+0: the text one step larger, smaller, or back to normal. The status bar says
        the size, and why a press changed nothing (in projector mode the window's height stops Ctrl+= early,
        and a press that did nothing looked broken: review helper-145, item 9)."""
        if direction > 0:
            moved = self.zoom.zoom_in()
        elif direction < 0:
            moved = self.zoom.zoom_out()
        else:
            self.zoom.reset()
            moved = True
        if moved:
            text = tr("Text size {percent}%")
        elif direction > 0:
            text = tr("Text size {percent}%: the largest this window's height allows (a taller window allows more)")
        else:
            text = tr("Text size {percent}%: the smallest")
        self.statusBar().showMessage(text.format(percent=round(self.zoom.effective * 100)), 6000)

    def _limit_zoom(self) -> None:
        """The largest zoom this window's height offers: one at which a question and its four choices fit the
        narration (Ctrl+= at 1024x768 left the last choices below the dock's fold, whatever room it took)."""
        factor = next((f for w, f in self.panels.scaled() if w is self.narration), 1.0) if self.layouts.projector \
            else 1.0
        self.zoom.set_limit(self.height() / ZOOM_LINES[self.layouts.mode] / (base_px() * factor))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._limit_zoom()

    def apply_text_scale(self) -> None:
        """Every panel's text at the zoom (and its projector factor, from the registry)."""
        projector = self.layouts.projector
        # Projector mode: the strips use the map's width, and shrink to fit no further than normal mode's size.
        zoom = self.zoom.effective
        self.storage_map.set_stretch(projector, panel_scale(1.0, zoom, False) if projector else None)
        for widget, factor in self.panels.scaled():
            apply_scale(widget, panel_scale(factor, zoom, projector))
            if widget is self.narration:
                # Projector mode: its side dock cannot grow, so a question too tall for it is written smaller, down
                # to 4/5 of its size at the normal zoom (at the normal zoom itself what-step's step-6 question cut
                # choice 4 at 1280x720: review helper-158, D10), never under a size the back row reads.
                normal = px(base_px(), panel_scale(factor, 1.0, True))
                self.narration.fit_floor = max(FIT_READABLE_PX, round(normal * 0.8)) if projector else None
        QTimer.singleShot(0, self.storage_map.show_followed)   # once the docks have their new sizes
        QTimer.singleShot(0, self.layouts.fit_table)   # the table's rows, and its columns' width, at the new size
        # A question on screen rewraps at the new size (Ctrl+= twice at 1024x768 left its last choices below
        # the dock's fold): its dock makes room again.
        self._request_fit()

    def set_class_vote(self, on: bool | None = None) -> None:
        """Class vote on or off (remembered)."""
        on = self.commands.class_vote.isChecked() if on is None or not isinstance(on, bool) else on
        self.commands.class_vote.setChecked(on)
        self.narration.set_class_vote(on)
        self.settings.class_vote = on

    def show_panel(self, dock_name: str) -> None:
        """Ctrl+1…5: bring a panel forward (its tab raised, its dock shown), keys staying with the map."""
        dock = self.panels.docks.get(dock_name)
        if dock is None:
            return
        dock.show()
        dock.raise_()

    def tool_placed(self, dock: str) -> bool:
        """The tool ``dock`` has its place in this mode's layout (shown there once)."""
        return dock in self.layouts.placed

    def place_tool(self, dock: str) -> None:
        """The tool ``dock`` was given its place: saved with the layout now (not only at a clean quit)."""
        self.layouts.place_tool(dock)

    def apply_default_layout(self) -> None:
        """The current mode's dock sizes in proportion to the window."""
        self.layouts.apply_sizes()

    def set_language(self, language: str) -> None:
        """Show the window in ``language`` (`en`, `ko`): menus, panels and lesson texts."""
        if not set_language(language):
            self.show_problem(tr("No translation for {language} is installed.").format(language=language))
        self.settings.language = current_language()

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
        """Geometry, the mode and its layout, the class vote, from the settings."""
        geometry = self.settings.geometry
        if geometry is not None:
            self.restoreGeometry(geometry)
        self.layouts.projector = self.settings.projector
        self.commands.presentation.setChecked(self.layouts.projector)
        self.narration.set_title_with_question(self.layouts.projector)
        self.layouts.restore()
        self.apply_text_scale()
        self.set_class_vote(self.settings.class_vote)

    def save_settings(self) -> None:
        """Remember geometry, this mode's layout, the mode, lesson and device."""
        state = self.controller.state
        self.settings.geometry = self.saveGeometry()
        self.layouts.remember()
        self.settings.projector = self.layouts.projector
        # A file's lesson is remembered by its path (opened again from it, its steps filed by it).
        self.settings.lesson = (SCRATCHPAD if state.lesson is None
                                else self.editing.path_of(state.lesson) or state.lesson.id)
        self.settings.device = state.device
        self.settings.sync()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            # Start with the storage map focused, so → steps at once (a line edit would take the key).
            self.focus_map()
            if not self.layouts.saved():
                # Dock sizes settle only once the window has its real size.
                QTimer.singleShot(0, self.layouts.apply_sizes)
            QTimer.singleShot(0, self.toolbar.fit)
            QTimer.singleShot(150, lambda: keep_on_screen(self))
            # A tool floating in the restored layout, in front of the window now that it is shown.
            # (With the window as the timer's context: a window closed and deleted by then is left alone.)
            QTimer.singleShot(200, self, lambda: bring_back_floating(self, self.docks))
            warm_up_when_idle(self.controller)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if self._early_keys is not None:
            self._early_keys = None   # closed before the first state: the keys go with the window
            self.layouts.ready = True
            app = QApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
        self.save_settings()
        self.editing.flush()
        self.controller.shutdown()
        super().closeEvent(event)

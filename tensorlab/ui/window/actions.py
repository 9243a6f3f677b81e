"""The window's actions, declared as data, and the menus built from them.

Every command of the window is one row of :data:`ACTIONS` (its name, text, keys, what it calls,
its icon); :func:`build_actions` makes one :class:`QAction` per row and returns them together as a
:class:`WindowActions` (``window.commands.step_forward``). :data:`MENUS` places them in the menus
by name. Adding a command is one row here and one field of :class:`WindowActions` (a test checks
that the two agree and that no two commands share a name or a key).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Protocol

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QMessageBox, QStyle, QWidget

from tensorlab import __version__
from tensorlab.ui.builders.builders_panel import BuildersPanel
from tensorlab.ui.panels.narration import NarrationPanel
from tensorlab.ui.program.controller import LabController
from tensorlab.ui.program.step_editing import StepEditing
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Marked, Texts, tr
from tensorlab.ui.widgets.text_zoom import TextZoom
from tensorlab.ui.window.layouts import LayoutModes

__all__ = ["ActionSpec", "ACTIONS", "CHOICE_KEYS", "Commands", "WindowActions", "MENUS", "make_action",
           "build_actions", "build_menus", "show_about"]

Shortcut = QKeySequence | QKeySequence.StandardKey | str
Pixmap = QStyle.StandardPixmap
Key = QKeySequence.StandardKey


class Commands(Protocol):
    """What the actions call on the window (a ``MainWindow``)."""

    @property
    def controller(self) -> LabController: ...
    @property
    def builders(self) -> BuildersPanel: ...
    @property
    def narration(self) -> NarrationPanel: ...
    @property
    def editing(self) -> StepEditing: ...
    @property
    def zoom(self) -> TextZoom: ...
    @property
    def layouts(self) -> LayoutModes: ...

    def step_forward(self) -> None: ...
    def focus_code_line(self) -> None: ...
    def cancel(self) -> None: ...
    def set_class_vote(self, on: bool | None = None) -> None: ...
    def show_panel(self, dock: str) -> None: ...
    def toggle_presentation(self) -> None: ...
    def zoom_text(self, direction: int) -> None: ...
    def edit_preferences(self) -> None: ...
    def open_lesson_dialog(self) -> None: ...
    def open_source_dialog(self) -> None: ...
    def save_lesson_dialog(self) -> None: ...
    def about(self) -> None: ...
    def diagnose(self) -> None: ...
    def show_log_location(self) -> None: ...
    def close(self) -> bool: ...


@dataclass(frozen=True)
class ActionSpec:
    """One command of the window."""

    name: str                         # its field in :class:`WindowActions`
    text: Marked                      # menu text (translated)
    object_name: str                  # the QAction's object name (tests and accessibility find it)
    shortcuts: tuple[Shortcut, ...]   # keys (a standard key stands for each of its bindings)
    slot: Callable[[Commands], object]
    tip: Marked | None = None         # the tooltip, followed by the keys (the text when None)
    icon: QStyle.StandardPixmap | None = None
    checkable: bool = False


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("step_back", QT_TR_NOOP("Back"), "stepBackAction", ("Left",), lambda w: w.controller.step_back(),
               QT_TR_NOOP("Step back: show the state one step earlier"), Pixmap.SP_MediaSeekBackward),
    ActionSpec("step_forward", QT_TR_NOOP("Step"), "stepForwardAction", ("Right", "Space"), lambda w: w.step_forward(),
               QT_TR_NOOP("Run the next step"), Pixmap.SP_MediaPlay),
    ActionSpec("run_to_end", QT_TR_NOOP("Run to end"), "runToEndAction", ("End",), lambda w: w.controller.run_to_end(),
               QT_TR_NOOP("Run every remaining step"), Pixmap.SP_MediaSkipForward),
    ActionSpec("reset", QT_TR_NOOP("Reset"), "resetAction", ("Home",), lambda w: w.controller.reset(),
               QT_TR_NOOP("Back to before the first step"), Pixmap.SP_MediaSkipBackward),
    ActionSpec("run_code", QT_TR_NOOP("Run code line"), "runCodeAction", ("Ctrl+Return", "Ctrl+Enter"),
               lambda w: w.builders.code_line.request()),
    ActionSpec("focus_code", QT_TR_NOOP("Type a line of code"), "focusCodeAction", ("Ctrl+L",),
               lambda w: w.focus_code_line(),
               QT_TR_NOOP("Put the cursor in the code line (Enter runs it, Esc returns to the map)")),
    ActionSpec("cancel", QT_TR_NOOP("Cancel"), "cancelAction", ("Escape",), lambda w: w.cancel(),
               QT_TR_NOOP("Stop a long replay between steps"), Pixmap.SP_BrowserStop),
    ActionSpec("undo", QT_TR_NOOP("Undo the last step you added"), "undoAction", (Key.Undo,),
               lambda w: w.editing.undo()),
    ActionSpec("clear_steps", QT_TR_NOOP("Clear my steps"), "clearStepsAction", (), lambda w: w.editing.clear(),
               QT_TR_NOOP("Remove every step you added to this lesson")),
    # V with Shift or Caps Lock too (review r17o 13: xdotool `V`, Shift+V, did nothing).
    ActionSpec("class_vote", QT_TR_NOOP("Class vote"), "classVoteAction", ("V", "Shift+V"),
               lambda w: w.set_class_vote(),
               QT_TR_NOOP("Choosing marks a choice; → reveals the answer and runs the step"), checkable=True),
    ActionSpec("presentation", QT_TR_NOOP("Projector mode"), "presentationAction", ("F5",),
               lambda w: w.toggle_presentation(),
               QT_TR_NOOP("Projector mode: the storage map large, narration and code large, the rest in tabs"),
               Pixmap.SP_DesktopIcon, checkable=True),
    ActionSpec("zoom_in", QT_TR_NOOP("Larger text"), "zoomInAction", ("Ctrl+=", "Ctrl++", Key.ZoomIn),
               lambda w: w.zoom_text(1)),
    ActionSpec("zoom_out", QT_TR_NOOP("Smaller text"), "zoomOutAction", ("Ctrl+-", Key.ZoomOut),
               lambda w: w.zoom_text(-1)),
    ActionSpec("zoom_reset", QT_TR_NOOP("Normal text size"), "zoomResetAction", ("Ctrl+0",), lambda w: w.zoom_text(0)),
    ActionSpec("reset_layout", QT_TR_NOOP("Reset layout"), "resetLayoutAction", (), lambda w: w.layouts.reset(),
               QT_TR_NOOP("Put every panel back where it starts, in this mode")),
    ActionSpec("open", QT_TR_NOOP("Open lesson file…"), "openLessonAction", (Key.Open,),
               lambda w: w.open_lesson_dialog()),
    ActionSpec("open_source", QT_TR_NOOP("Open Python file or notebook…"), "openSourceAction", (),
               lambda w: w.open_source_dialog(),
               QT_TR_NOOP("Step through your own .py file or Jupyter notebook (what TensorLab cannot run is greyed)")),
    ActionSpec("save", QT_TR_NOOP("Save steps as lesson…"), "saveLessonAction", (Key.Save,),
               lambda w: w.save_lesson_dialog()),
    ActionSpec("preferences", QT_TR_NOOP("Preferences…"), "preferencesAction", (Key.Preferences,),
               lambda w: w.edit_preferences()),
    ActionSpec("quit", QT_TR_NOOP("Quit"), "quitAction", (Key.Quit,), lambda w: w.close()),
    ActionSpec("about", QT_TR_NOOP("About TensorLab"), "aboutAction", (), lambda w: w.about()),
    ActionSpec("log", QT_TR_NOOP("Where is the log?"), "logAction", (), lambda w: w.show_log_location()),
    ActionSpec("diagnose", QT_TR_NOOP("Diagnose an error…"), "diagnoseAction", ("Ctrl+Shift+D",),
               lambda w: w.diagnose(),
               QT_TR_NOOP("Paste an error from your own code: what it means, a reproduction to step through")),
    # One key per tab of the projector's right column (its panels by dock name; the text is the dock's title:
    # the View menu lists them under "Bring a panel forward", apart from the docks' own toggles of that text).
    ActionSpec("show_narration", QT_TR_NOOP("Narration"), "showNarrationAction", ("Ctrl+1",),
               lambda w: w.show_panel("narrationDock")),
    ActionSpec("show_tensors", QT_TR_NOOP("Tensors"), "showTensorsAction", ("Ctrl+2",),
               lambda w: w.show_panel("tensorsDock")),
    ActionSpec("show_values", QT_TR_NOOP("Values and gradient"), "showValuesAction", ("Ctrl+3",),
               lambda w: w.show_panel("valuesDock")),
    ActionSpec("show_graph", QT_TR_NOOP("Autograd graph"), "showGraphAction", ("Ctrl+4",),
               lambda w: w.show_panel("graphDock")),
    ActionSpec("show_build", QT_TR_NOOP("Build"), "showBuildAction", ("Ctrl+5",),
               lambda w: w.show_panel("buildDock")),
)
CHOICE_KEYS = ("1", "2", "3", "4")   # keys 1-4 choose an answer of the question shown (a field keeps the digit)


@dataclass(frozen=True)
class WindowActions:
    """Every action of the window, by name (one field per row of :data:`ACTIONS`)."""

    step_back: QAction
    step_forward: QAction
    run_to_end: QAction
    reset: QAction
    run_code: QAction
    focus_code: QAction
    cancel: QAction
    undo: QAction
    clear_steps: QAction
    class_vote: QAction
    presentation: QAction
    zoom_in: QAction
    zoom_out: QAction
    zoom_reset: QAction
    reset_layout: QAction
    open: QAction
    open_source: QAction
    save: QAction
    preferences: QAction
    quit: QAction
    about: QAction
    log: QAction
    diagnose: QAction
    show_narration: QAction
    show_tensors: QAction
    show_values: QAction
    show_graph: QAction
    show_build: QAction
    choices: tuple[QAction, ...]   # Choose answer 1-4 (:data:`CHOICE_KEYS`)

    def named(self, name: str) -> QAction | None:
        """The action of :data:`ACTIONS` called ``name`` (the menus place actions by name), or None."""
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name == name and isinstance(value, QAction):
                return value
        return None


# Ctrl+1-5, the projector's tabs brought forward (in View, apart from the docks' toggles that share their texts).
_PANEL_KEYS = ["show_narration", "show_tensors", "show_values", "show_graph", "show_build"]
# A submenu: its title and its action names.
Submenu = tuple[Marked, list[str]]
MenuEntry = str | None | Submenu
# Menu title -> entries: action names, None a separator, "docks" the dock toggles, "export" the Export menu,
# a (title, names) pair a submenu.
MENUS: list[tuple[Marked, list[MenuEntry]]] = [
    (QT_TR_NOOP("&Lesson"), ["open", "open_source", "save", "export", None, "preferences", None, "quit"]),
    (QT_TR_NOOP("&Step"), ["step_back", "step_forward", "run_to_end", "reset", "focus_code", "run_code", "cancel", None,
               "undo", "clear_steps", None, "class_vote"]),
    (QT_TR_NOOP("&View"), ["docks", (QT_TR_NOOP("Bring a panel forward"), _PANEL_KEYS), None, "presentation",
                           "zoom_in", "zoom_out", "zoom_reset", None, "reset_layout"]),
    (QT_TR_NOOP("&Help"), ["diagnose", None, "about", "log"]),
]


def make_action(window: QMainWindow, i18n: Texts, text: Marked, name: str, shortcuts: Sequence[Shortcut],
                slot: Callable[[], object], tip: Marked | None = None, icon: QStyle.StandardPixmap | None = None,
                checkable: bool = False) -> QAction:
    """A window-wide action whose text and tooltip (with its keys) follow the language."""
    action = QAction(window)
    action.setObjectName(name)
    keys_wanted = key_sequences(shortcuts)
    action.setShortcuts(keys_wanted)
    keys = " / ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in keys_wanted)
    i18n.bind(action.setText, text)
    i18n.bind(lambda t: action.setToolTip(f"{t} ({keys})" if keys else t), tip or text)
    action.setCheckable(checkable)
    if icon is not None:
        action.setIcon(window.style().standardIcon(icon))
    action.triggered.connect(lambda _checked=False: slot())
    window.addAction(action)
    return action


def key_sequences(shortcuts: Sequence[Shortcut]) -> list[QKeySequence]:
    """Each key of ``shortcuts`` once (a standard key is each of this platform's bindings for it)."""
    wanted: list[QKeySequence] = []
    for shortcut in shortcuts:
        for sequence in QKeySequence.keyBindings(shortcut) if isinstance(shortcut, QKeySequence.StandardKey) \
                else [QKeySequence(shortcut)]:
            if sequence not in wanted and not sequence.isEmpty():
                wanted.append(sequence)   # the same key twice would make Qt call it ambiguous
    return wanted


def build_actions(window: QMainWindow, i18n: Texts, commands: Commands,
                  specs: Sequence[ActionSpec] = ACTIONS) -> WindowActions:
    """One action of ``window`` per row of ``specs``, each calling into ``commands`` (the window itself)."""
    made = {spec.name: make_action(window, i18n, spec.text, spec.object_name, spec.shortcuts,
                                   _bound(spec, commands), spec.tip, spec.icon, spec.checkable)
            for spec in specs}
    choices = []
    for n, key in enumerate(CHOICE_KEYS, start=1):
        action = QAction(window)
        action.setObjectName(f"choiceAction{n}")
        action.setShortcut(QKeySequence(key))
        i18n.bind(_numbered_text(action, n), QT_TR_NOOP("Choose answer {number}"))
        action.triggered.connect(lambda _=False, n=n: commands.narration.choose_key(n - 1))
        window.addAction(action)
        choices.append(action)
    return WindowActions(choices=tuple(choices), **made)


def _bound(spec: ActionSpec, commands: Commands) -> Callable[[], object]:
    return lambda: spec.slot(commands)


def _numbered_text(action: QAction, number: int) -> Callable[[str], None]:
    """What sets ``action``'s text, a translation with ``{number}`` in it, for ``number``."""
    return lambda text: action.setText(text.format(number=number))


def build_menus(window: QMainWindow, i18n: Texts, actions: WindowActions, docks: Sequence[QDockWidget],
                export_menu: QMenu, menus: list[tuple[Marked, list[MenuEntry]]] = MENUS) -> dict[str, QMenu]:
    """The menu bar of ``window`` from ``menus``; returns the menus by title."""
    made: dict[str, QMenu] = {}
    for title, entries in menus:
        menu = window.menuBar().addMenu("")
        i18n.bind(menu.setTitle, title)
        for entry in entries:
            if entry is None:
                menu.addSeparator()
            elif entry == "docks":
                for dock in docks:
                    menu.addAction(dock.toggleViewAction())
            elif entry == "export":
                menu.addMenu(export_menu)
            elif isinstance(entry, tuple):
                sub_title, names = entry
                submenu = menu.addMenu("")
                i18n.bind(submenu.setTitle, sub_title)
                for name in names:
                    submenu.addAction(_named(actions, title, name))
            else:
                menu.addAction(_named(actions, title, entry))
        made[title] = menu
    return made


def _named(actions: WindowActions, menu: Marked, name: str) -> QAction:
    """The action a menu names (a name that is no action is a mistake in :data:`MENUS`)."""
    action = actions.named(name)
    if action is None:
        raise KeyError(f"the menu {menu!r} names {name!r}, which is no action")
    return action


def show_about(parent: QWidget) -> None:
    """Help → About TensorLab."""
    QMessageBox.about(parent, tr("About TensorLab"), f"TensorLab {__version__}: " + tr(
        "see how PyTorch tensors are copied, shared and differentiated.\n"
        "Everything shown is read from real torch objects."))

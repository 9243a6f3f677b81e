"""The window's actions (with their shortcuts) and the menus built from them.

Every command of the window is one :class:`QAction`, made here and set on the
window as an attribute (``window.step_forward_action`` ...); the toolbar and the
menus only place them. :data:`MENUS` lists each menu's actions by attribute name,
so adding an entry is one line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QMessageBox, QStyle

from tensorlab import __version__
from tensorlab.ui.program import lesson_dialogs
from tensorlab.ui.widgets.i18n import Texts, tr
from tensorlab.ui.window import crash_report

if TYPE_CHECKING:
    from tensorlab.ui.window.main_window import MainWindow

__all__ = ["make_action", "build_actions", "build_menus", "MENUS"]

Shortcut = QKeySequence | QKeySequence.StandardKey | str

# Menu title -> action attribute names; None is a separator, "docks" the dock toggles.
MENUS: list[tuple[str, list[str | None]]] = [
    ("&Lesson", ["open_action", "save_action", "export_menu", None, "preferences_action", None, "quit_action"]),
    ("&Step", ["step_back_action", "step_forward_action", "run_to_end_action", "reset_action",
               "focus_code_action", "run_code_action", "cancel_action", None, "undo_action", "clear_steps_action", None,
               "class_vote_action"]),
    ("&View", ["docks", None, "presentation_action", "zoom_in_action", "zoom_out_action", "zoom_reset_action",
               None, "reset_layout_action"]),
    ("&Help", ["about_action", "log_action"]),
]


def make_action(window: QMainWindow, i18n: Texts, text: str, name: str, shortcuts: Sequence[Shortcut],
                slot: Callable[..., Any], tip: str = "", icon: QStyle.StandardPixmap | None = None,
                checkable: bool = False) -> QAction:
    """A window-wide action whose text and tooltip (with its keys) follow the language."""
    action = QAction(window)
    action.setObjectName(name)
    keys_wanted: list[QKeySequence] = []
    for shortcut in shortcuts:
        for sequence in QKeySequence.keyBindings(shortcut) if isinstance(shortcut, QKeySequence.StandardKey) \
                else [QKeySequence(shortcut)]:
            if sequence not in keys_wanted and not sequence.isEmpty():
                keys_wanted.append(sequence)   # the same key twice would make Qt call it ambiguous
    action.setShortcuts(keys_wanted)
    keys = " / ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in keys_wanted)
    i18n.bind(action.setText, text)
    i18n.bind(lambda t: action.setToolTip(f"{t} ({keys})" if keys else t), tip or text)
    action.setCheckable(checkable)
    if icon is not None:
        action.setIcon(window.style().standardIcon(icon))
    action.triggered.connect(slot)
    window.addAction(action)
    return action


def build_actions(window: MainWindow) -> None:
    """Make every action of ``window`` (a :class:`~tensorlab.ui.window.main_window.MainWindow`)."""
    c, i18n, pix = window.controller, window.i18n, QStyle.StandardPixmap

    def act(text: str, name: str, shortcuts: Sequence[Shortcut], slot: Callable[..., Any], tip: str = "",
            icon: QStyle.StandardPixmap | None = None, checkable: bool = False) -> QAction:
        return make_action(window, i18n, text, name, shortcuts, slot, tip, icon, checkable)

    window.step_back_action = act("Back", "stepBackAction", ["Left"], c.step_back,
        "Step back: show the state one step earlier", pix.SP_MediaSeekBackward)
    window.step_forward_action = act("Step", "stepForwardAction", ["Right", "Space"], window.step_forward,
        "Run the next step", pix.SP_MediaPlay)
    window.run_to_end_action = act("Run to end", "runToEndAction", ["End"], c.run_to_end,
        "Run every remaining step", pix.SP_MediaSkipForward)
    window.reset_action = act("Reset", "resetAction", ["Home"], c.reset, "Back to before the first step",
        pix.SP_MediaSkipBackward)
    window.run_code_action = act("Run code line", "runCodeAction", ["Ctrl+Return", "Ctrl+Enter"],
        window.builders.code_line.request)
    window.focus_code_action = act("Type a line of code", "focusCodeAction", ["Ctrl+L"], window.focus_code_line,
        "Put the cursor in the code line (Enter runs it, Esc returns to the map)")
    window.cancel_action = act("Cancel", "cancelAction", ["Escape"], window.cancel, "Stop a long replay between steps",
        pix.SP_BrowserStop)
    window.undo_action = act("Undo the last step you added", "undoAction", [QKeySequence.StandardKey.Undo],
        window.editing.undo)
    window.clear_steps_action = act("Clear my steps", "clearStepsAction", [], window.editing.clear,
        "Remove every step you added to this lesson")
    window.class_vote_action = act("Class vote", "classVoteAction", [], window.set_class_vote,
        "Choosing marks a choice; → reveals the answer and runs the step", checkable=True)
    window.presentation_action = act("Projector mode", "presentationAction", ["F5"], window.toggle_presentation,
        "Projector mode: the storage map large, narration and code large, the rest in tabs",
        pix.SP_DesktopIcon, checkable=True)
    window.zoom_in_action = act("Larger text", "zoomInAction", ["Ctrl+=", "Ctrl++", QKeySequence.StandardKey.ZoomIn],
        window.zoom.zoom_in)
    window.zoom_out_action = act("Smaller text", "zoomOutAction", ["Ctrl+-", QKeySequence.StandardKey.ZoomOut],
        window.zoom.zoom_out)
    window.zoom_reset_action = act("Normal text size", "zoomResetAction", ["Ctrl+0"], window.zoom.reset)
    window.reset_layout_action = act("Reset layout", "resetLayoutAction", [], window.layouts.reset,
        "Put every panel back where it starts, in this mode")
    window.open_action = act("Open lesson file…", "openLessonAction", [QKeySequence.StandardKey.Open],
        lambda: lesson_dialogs.open_lesson_dialog(window))
    window.save_action = act("Save steps as lesson…", "saveLessonAction", [QKeySequence.StandardKey.Save],
        lambda: lesson_dialogs.save_lesson_dialog(window))
    window.preferences_action = act("Preferences…", "preferencesAction", [QKeySequence.StandardKey.Preferences],
        window.edit_preferences)
    window.quit_action = act("Quit", "quitAction", [QKeySequence.StandardKey.Quit], window.close)
    window.about_action = act("About TensorLab", "aboutAction", [], lambda: QMessageBox.about(
        window, tr("About TensorLab"),
        f"TensorLab {__version__}: " + tr("see how PyTorch tensors are copied, shared and differentiated.\n"
                                          "Everything shown is read from real torch objects.")))
    window.log_action = act("Where is the log?", "logAction", [], lambda: crash_report.show_log_location(window))
    # Keys 1-4 choose an answer of the question shown (typing in a field keeps the digit).
    window.choice_actions = []
    for n in range(1, 5):
        action = QAction(window)
        action.setObjectName(f"choiceAction{n}")
        action.setShortcut(QKeySequence(str(n)))
        i18n.bind(_numbered_text(action, n), "Choose answer {number}")
        action.triggered.connect(lambda _=False, n=n: window.narration.choose_key(n - 1))
        window.addAction(action)
        window.choice_actions.append(action)


def _numbered_text(action: QAction, number: int) -> Callable[[str], None]:
    """What sets ``action``'s text, a translation with ``{number}`` in it, for ``number``."""
    return lambda text: action.setText(text.format(number=number))


def build_menus(window: MainWindow, menus: list[tuple[str, list[str | None]]] = MENUS) -> dict[str, QMenu]:
    """The menu bar of ``window`` from ``menus``; returns the menus by title."""
    made = {}
    for title, entries in menus:
        menu = window.menuBar().addMenu("")
        window.i18n.bind(menu.setTitle, title)
        for entry in entries:
            if entry is None:
                menu.addSeparator()
            elif entry == "docks":
                for dock in window.docks:
                    menu.addAction(dock.toggleViewAction())
            elif isinstance(getattr(window, entry, None), QMenu):
                menu.addMenu(getattr(window, entry))
            elif getattr(window, entry, None) is not None:
                menu.addAction(getattr(window, entry))
        made[title] = menu
    return made

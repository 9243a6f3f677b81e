"""Edit the steps you added: remove one, undo the last, clear them all; keep them across restarts.

The program itself lives in the player (in the controller's thread); this object
asks the controller to change it and mirrors every program with steps of yours into
:class:`~tensorlab.ui.program.user_steps.UserSteps`, which merges the changes into the file
shared by every window on the data folder. The file is written (under its lock, and synced to
disk, which can take tens of milliseconds) in a thread of its own, in order, so a step never
waits for the disk; closing the window waits for it, and what could not be merged then is kept
in a file of its own for the next start. A message about your saved steps (a program set aside,
a save that waits for another window) is shown in the status bar and the Output panel, and in a
message box that does not block, so it is seen in every layout (the projector layout hides Output).
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QMessageBox, QStatusBar, QWidget

from tensorlab.core.engine.player import PlayerState, ProgramStep, StepOrigin, program_from
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.ui.program.user_steps import LockBusy, Merged, SavedProgram, StepsFileError, UserSteps, program_key
from tensorlab.ui.widgets.i18n import current_language, tr

if TYPE_CHECKING:
    from tensorlab.ui.program.controller import LabController

__all__ = ["StepEditing", "EditedWindow"]

log = logging.getLogger("tensorlab.ui")


class _SaveReport(QObject):
    """Carries a save's outcome from the writing thread to the window's (a queued connection)."""

    done = Signal(object)   # the Merged a save returned, or the text of why it failed

    def __init__(self, deliver: Callable[[Merged | str], None]) -> None:
        super().__init__()
        self._deliver = deliver
        self.done.connect(self.delivered)

    @Slot(object)
    def delivered(self, outcome: Merged | str) -> None:
        self._deliver(outcome)


class EditedWindow(Protocol):
    """What step editing uses of the main window (a ``MainWindow``)."""

    @property
    def controller(self) -> LabController: ...

    def focus_map(self) -> None: ...
    def show_problem(self, message: str, until_next_state: bool = False) -> None: ...
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name


class StepEditing:
    """Remove, undo and clear steps of yours, and keep them (see the module docstring)."""

    def __init__(self, window: EditedWindow, data_dir: Path) -> None:
        self.window = window
        self.store = UserSteps(data_dir, window.controller.limits)
        self.store.load()
        self.added: list[int] = []           # program indices of the steps added in this session, last last
        self._key: str | None = None         # the program ``added`` refers to
        self._edited: set[str] = set()       # programs that had steps of yours in this session
        self._live: dict[str, tuple[ProgramStep, ...]] = {}   # those programs as they stand in this window
        self._files: list[tuple[Lesson, str]] = []            # lessons opened from a file, and its path
        self._save_failed = False
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tensorlab-save")
        self._last_save: Future[None] | None = None
        self._report = _SaveReport(self._saved)
        self.notice: QMessageBox | None = None   # the message box of the latest messages (not modal)
        window.controller.saved_program = self.program_for   # a tool opening the scratchpad gets your steps too

    @property
    def controller(self) -> LabController:
        """The window's controller."""
        return self.window.controller

    def opened_from(self, lesson: Lesson, path: str | Path) -> None:
        """``lesson`` was read from the file at ``path``: its steps are filed by that path."""
        self._files = [(l, p) for l, p in self._files if l is not lesson] + [(lesson, str(Path(path).absolute()))]

    def path_of(self, lesson: Lesson | None) -> str | None:
        """The file ``lesson`` was opened from (a lesson file, a ``.py``, a notebook), or None. An opened file's
        lesson that refused a step as it ran (the player's, made from the one opened) is still that file's."""
        if lesson is None:
            return None
        found = next((p for l, p in self._files if l is lesson), None)
        if found is None and lesson.refused:
            found = next((p for l, p in reversed(self._files)
                          if (l.id, l.source, l.title) == (lesson.id, lesson.source, lesson.title)), None)
        return found

    def key(self, lesson: Lesson | None) -> str:
        """How the steps of ``lesson`` are filed (:func:`~tensorlab.ui.program.user_steps.program_key`)."""
        return program_key(lesson, self.path_of(lesson))

    def program_for(self, lesson: Lesson | None) -> list[ProgramStep]:
        """The program (lesson steps and yours) to open ``lesson`` with: as this window left it, else as saved."""
        key = self.key(lesson)
        if key in self._live:
            return list(self._live[key])
        self.store.refresh()   # another window may have saved steps for it meanwhile
        program = self.store.program(key, lesson)
        if self.store.pending:
            self._start_save()   # a program set aside (or moved to its file's path) leaves the file
        return program if program is not None else program_from(lesson)

    def keep_diagnosis(self, lesson: Lesson) -> None:
        """A diagnosis's program was opened: kept under its own key at once (even with no step of yours)."""
        self._edited.add(self.key(lesson))
        if self.store.keep_diagnosis(lesson):
            self._start_save()

    def diagnoses(self) -> list[Lesson]:
        """The diagnosis programs kept from earlier sessions, as lessons (the lesson picker lists them)."""
        return self.store.diagnoses()

    def take_problems(self) -> list[str]:
        """Messages about saved steps that could not be used (each said once, also in a message box)."""
        problems, self.store.problems = self.store.problems, []
        self._notify(problems)
        return problems

    # -- the user's actions ----------------------------------------------------
    def inserted(self, index: int) -> None:
        """A step of yours was inserted at program ``index``."""
        self.added = [i + 1 if i >= index else i for i in self.added] + [index]

    def remove(self, index: int) -> bool:
        """Remove the step of yours at ``index`` (lesson steps stay); False if it cannot be removed now."""
        state = self.controller.state
        if self.controller.busy or not 0 <= index < len(state.program) \
                or state.program[index].origin != StepOrigin.USER:
            return False
        self.controller.remove_step(index)
        self.added = [i - 1 if i > index else i for i in self.added if i != index]
        self.window.focus_map()
        return True

    def undo(self) -> bool:
        """Ctrl+Z: remove the step you added last (or, after a restart, the last one of yours)."""
        state = self.controller.state
        if self.controller.busy:
            return False
        while self.added and not (self.added[-1] < len(state.program)
                                  and state.program[self.added[-1]].origin == StepOrigin.USER):
            self.added.pop()
        index = self.added[-1] if self.added else (state.user_steps[-1] if state.user_steps else None)
        if index is None:
            self.window.statusBar().showMessage(tr("There is no step of yours to undo."), 4000)
            return False
        return self.remove(index)

    def clear(self) -> bool:
        """Remove every step you added to this program (the last first, so the indices hold)."""
        state = self.controller.state
        if self.controller.busy or not state.user_steps:
            return False
        for index in reversed(state.user_steps):
            self.controller.remove_step(index)
        self.added = []
        self.window.focus_map()
        return True

    # -- keeping them ----------------------------------------------------------
    def state_changed(self, state: PlayerState) -> None:
        """Mirror the program into the store and save it when it changed."""
        key = self.key(state.lesson)
        if key != self._key:
            self._key, self.added = key, []
        if state.user_steps:
            self._edited.add(key)
        elif key not in self._edited:
            return   # nothing of yours was here in this session: what was saved for it stays
        self._live[key] = state.program
        changed = self.store.update(key, state.lesson, state.program)
        self._say(self.take_problems())   # a program the loader would refuse is not saved: said why
        if changed:
            self._start_save()

    def _start_save(self) -> None:
        self._last_save = self._writer.submit(self._save, dict(self.store.pending))

    def _save(self, changes: dict[str, SavedProgram | None]) -> None:
        """In the writing thread: merge ``changes`` into the file and report how it went."""
        outcome: Merged | str
        try:
            outcome = self.store.save(changes)
        except LockBusy as exc:
            outcome = exc.render(current_language())
        except StepsFileError as exc:
            outcome = tr("The steps you added could not be saved: {reason}").format(
                reason=exc.render(current_language()))
        except OSError as exc:
            outcome = tr("The steps you added could not be saved: {reason}").format(
                reason=str(exc.strerror or exc) or type(exc).__name__)
        except Exception as exc:   # a bug must not lose the steps: they stay pending, the reason is logged
            log.exception("the steps you added could not be saved")
            outcome = tr("The steps you added could not be saved: {reason}").format(reason=type(exc).__name__)
        self._report.done.emit(outcome)

    def _saved(self, outcome: Merged | str) -> None:
        if isinstance(outcome, Merged):
            self._save_failed = False
            self.store.saved_as(outcome)
            self._say(self.take_problems())
            return
        log.warning("%s", outcome)
        if not self._save_failed:   # said once until a save succeeds again; the steps stay pending
            self._save_failed = True
            self._say([outcome])
            self._notify([outcome])

    def _say(self, problems: list[str]) -> None:
        for problem in problems:
            self.window.show_problem(problem)

    def _notify(self, texts: list[str]) -> None:
        """Show ``texts`` in a message box that does not block (one box; later texts are added to it)."""
        if not texts:
            return
        box = self.notice
        if box is None or not box.isVisible():
            parent = self.window if isinstance(self.window, QWidget) else None
            box = QMessageBox(QMessageBox.Icon.Warning, "TensorLab", "", QMessageBox.StandardButton.Ok, parent)
            box.setObjectName("savedStepsNotice")
            box.setWindowModality(Qt.WindowModality.NonModal)
            box.setTextFormat(Qt.TextFormat.PlainText)
            self.notice = box
            text = "\n\n".join(texts)
        else:
            text = "\n\n".join([box.text(), *texts])
        box.setText(text)
        box.show()

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every change is on disk (the window is closing); what cannot be merged is kept aside."""
        if self._last_save is not None:
            try:
                self._last_save.result(timeout)
            except Exception:   # closing must not fail: the reason is in the log
                log.exception("the steps you added may not have been saved")
        from PySide6.QtCore import QCoreApplication

        QCoreApplication.sendPostedEvents(self._report)   # the report of that save, taken in now
        if not self.store.pending:
            return
        try:
            self.store.saved_as(self.store.save())
        except Exception as exc:   # the lock, the disk: the changes go to a file of their own
            log.warning("the steps you added could not be merged at close (%s)", exc)
            try:
                aside = self.store.keep_unsaved()
                if aside is not None:
                    log.warning("they were kept in %s and are merged in at the next start", aside)
            except Exception:
                log.exception("the steps you added could not be kept")

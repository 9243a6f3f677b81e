"""Edit the steps you added: remove one, undo the last, clear them all; keep them across restarts.

The program itself lives in the player (in the controller's thread); this object
asks the controller to change it and mirrors every program with steps of yours into
:class:`~tensorlab.ui.program.user_steps.UserSteps`, saved whenever it changes. The file is
written (and synced to disk, which can take tens of milliseconds) in a thread of its
own, in order, so a step never waits for the disk; closing the window waits for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QStatusBar

from tensorlab.core.engine.player import Player, PlayerState, ProgramStep, StepOrigin
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.ui.program.user_steps import Saved, UserSteps
from tensorlab.ui.widgets.i18n import tr

if TYPE_CHECKING:
    from tensorlab.ui.program.controller import LabController

__all__ = ["StepEditing", "EditedWindow"]

log = logging.getLogger("tensorlab.ui")


class _SaveReport(QObject):
    """Carries a save's outcome from the writing thread to the window's (a queued connection)."""

    done = Signal(str)   # "" when saved, else why not

    def __init__(self, deliver: Callable[[str], None]) -> None:
        super().__init__()
        self._deliver = deliver
        self.done.connect(self.delivered)

    @Slot(str)
    def delivered(self, problem: str) -> None:
        self._deliver(problem)


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
        self.store = UserSteps(data_dir)
        self.store.load()
        self.added: list[int] = []           # program indices of the steps added in this session, last last
        self._key: str | None = None         # the program ``added`` refers to
        self._edited: set[str] = set()       # programs that had steps of yours in this session
        self._save_failed = False
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tensorlab-save")
        self._last_save: Future[None] | None = None
        self._report = _SaveReport(self._saved)

    @property
    def controller(self) -> LabController:
        """The window's controller."""
        return self.window.controller

    def program_for(self, lesson: Lesson | None) -> list[ProgramStep] | None:
        """The saved program (lesson steps and yours) to open ``lesson`` with, if any."""
        return self.store.program(lesson)

    def take_problems(self) -> list[str]:
        """Messages about saved steps that could not be used (each said once)."""
        problems, self.store.problems = self.store.problems, []
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
        key = Player.key(state.lesson)
        if key != self._key:
            self._key, self.added = key, []
        if state.user_steps:
            self._edited.add(key)
        elif key not in self._edited:
            return   # nothing of yours was here in this session: what was saved for it stays
        if not self.store.update(state.lesson, state.program):
            return
        self._last_save = self._writer.submit(self._save, self.store.saved_programs())

    def _save(self, saved: dict[str, Saved]) -> None:
        """In the writing thread: write ``saved`` and report how it went."""
        try:
            self.store.save(saved)
            problem = ""
        except OSError as exc:
            problem = str(exc.strerror or exc) or type(exc).__name__
        self._report.done.emit(problem)

    def _saved(self, problem: str) -> None:
        if not problem:
            self._save_failed = False
            return
        log.warning("could not save the steps you added: %s", problem)
        if not self._save_failed:
            self._save_failed = True
            self.window.show_problem(tr("The steps you added could not be saved: {reason}").format(reason=problem))

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every change is on disk (the window is closing)."""
        if self._last_save is not None:
            try:
                self._last_save.result(timeout)
            except Exception:   # closing must not fail: the reason is in the log
                log.exception("the steps you added may not have been saved")

"""Edit the steps you added: remove one, undo the last, clear them all; keep them across restarts.

The program itself lives in the player (in the controller's thread); this object
asks the controller to change it and mirrors every program with steps of yours into
:class:`~tensorlab.ui.user_steps.UserSteps`, saved whenever it changes.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from tensorlab.core.lessons import Lesson
from tensorlab.core.player import Player, PlayerState, ProgramStep
from tensorlab.ui.i18n import tr
from tensorlab.ui.user_steps import UserSteps

__all__ = ["StepEditing"]

log = logging.getLogger("tensorlab.ui")


class StepEditing:
    """Remove, undo and clear steps of yours, and keep them (see the module docstring)."""

    def __init__(self, window: Any, data_dir: Path) -> None:
        self.window = window
        self.store = UserSteps(data_dir)
        self.store.load()
        self.added: list[int] = []           # program indices of the steps added in this session, last last
        self._key: str | None = None         # the program ``added`` refers to
        self._edited: set[str] = set()       # programs that had steps of yours in this session
        self._save_failed = False

    @property
    def controller(self) -> Any:
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
        if self.controller.busy or not 0 <= index < len(state.program) or state.program[index].origin != "user":
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
                                  and state.program[self.added[-1]].origin == "user"):
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
        try:
            self.store.save()
            self._save_failed = False
        except OSError as exc:
            log.warning("could not save the steps you added: %s", exc)
            if not self._save_failed:
                self._save_failed = True
                self.window.show_problem(tr("The steps you added could not be saved: {reason}")
                                         .format(reason=exc.strerror or exc))

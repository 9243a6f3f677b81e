"""The bridge between the window and the core: runs player jobs off the GUI thread.

All torch work happens in one worker thread that owns the
:class:`~tensorlab.core.player.Player`; the GUI only ever receives immutable
:class:`~tensorlab.core.player.PlayerState` objects through signals.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from tensorlab.core.language import LanguageError
from tensorlab.core.lessons import Lesson
from tensorlab.core.player import Cancelled, Player, PlayerState

__all__ = ["LabController"]

Job = Callable[[Player, Callable[[], bool], Callable[[int, int], None]], Any]


class _Worker(QObject):
    """Lives in the worker thread; runs one job at a time, in order."""

    done = Signal(int, object, str)      # job id, PlayerState, problem ("" if none)
    progress = Signal(int, int)

    def __init__(self, device: str) -> None:
        super().__init__()
        self.device = device
        self.player: Player | None = None
        self.cancel_event = threading.Event()

    @Slot(int, object)
    def execute(self, job_id: int, job: Job) -> None:
        if self.player is None:
            self.player = Player(device=self.device)
        problem = ""
        try:
            job(self.player, self.cancel_event.is_set, self.progress.emit)
        except Cancelled:
            problem = "cancelled"
        except LanguageError as exc:
            problem = str(exc)
        except Exception:  # a bug must not take the window down: report it as content
            problem = "TensorLab hit an internal error:\n" + traceback.format_exc(limit=4)
        self.cancel_event.clear()
        self.done.emit(job_id, self.player.state(), problem)


class LabController(QObject):
    """Owns the worker thread; the window's actions call its methods."""

    stateChanged = Signal(object)        # PlayerState
    busyChanged = Signal(bool)
    progressChanged = Signal(int, int)
    problem = Signal(str)                # a message for the user (rejected line, cancel, internal error)
    _submit = Signal(int, object)

    def __init__(self, device: str = "cpu", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread(self)
        self._thread.setObjectName("tensorlab-worker")
        self._worker = _Worker(device)
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.execute)
        self._worker.done.connect(self._on_done)
        self._worker.progress.connect(self.progressChanged)
        self._thread.start()
        self._next_id = 0
        self._pending: set[int] = set()
        self._state = PlayerState(None, (), 0, (), device)

    # -- state -----------------------------------------------------------------
    @property
    def state(self) -> PlayerState:
        """The latest state (what the panels show)."""
        return self._state

    @property
    def busy(self) -> bool:
        """True while a job is queued or running."""
        return bool(self._pending)

    # -- actions ---------------------------------------------------------------
    def load_lesson(self, lesson: Lesson | None) -> None:
        """Open ``lesson`` at position 0 (None: an empty scratch program)."""
        self._run(lambda p, c, r: p.load(lesson))

    def step_forward(self) -> None:
        """Run the next step."""
        if self._state.position < len(self._state.program):
            self._run(lambda p, c, r: p.forward())

    def step_back(self) -> None:
        """Show the state one step earlier at once, and replay to it in the worker."""
        if self._state.position > 0:
            self.go_to(self._state.position - 1)

    def go_to(self, position: int) -> None:
        """Go to ``position``; going back shows the known earlier state immediately."""
        if position < self._state.position:
            self._set_state(self._state.at(position))
        self._run(lambda p, c, r: p.go_to(position, c, r))

    def run_to_end(self) -> None:
        """Run every remaining step (cancellable between steps)."""
        self._run(lambda p, c, r: p.go_to(len(p.program), c, r))

    def reset(self) -> None:
        """Back to before the first step."""
        self.go_to(0)

    def set_device(self, device: str) -> None:
        """Replay to the same position on ``device``."""
        self._run(lambda p, c, r: p.set_device(device, c, r))

    def submit(self, code: str) -> str | None:
        """Insert a user's statement at the current position and run it.

        Returns the reason when the line is refused (nothing runs), else None.
        """
        from tensorlab.core.language import check_names, parse_one

        try:
            statement = parse_one(code)
            check_names([statement], self._state.names)
        except LanguageError as exc:
            return str(exc)
        self._run(lambda p, c, r: p.insert(code))
        return None

    def remove_step(self, index: int) -> None:
        """Remove a step the user added."""
        self._run(lambda p, c, r: p.remove(index))

    def cancel(self) -> None:
        """Ask a running replay to stop at the next step boundary."""
        if self.busy:
            self._worker.cancel_event.set()

    def wait_idle(self, timeout_ms: int = 30_000) -> bool:
        """Process events until no job is pending (for tools and tests)."""
        from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QEventLoop

        deadline = QDeadlineTimer(timeout_ms)
        while self.busy and not deadline.hasExpired():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
            QThread.msleep(2)
        return not self.busy

    def shutdown(self) -> None:
        """Stop the worker thread (when the window closes)."""
        self._worker.cancel_event.set()
        self._thread.quit()
        # Wait for a step still running: a step is bounded by the size limits, and a
        # QThread destroyed while running would abort the process.
        self._thread.wait()

    # -- plumbing --------------------------------------------------------------
    def _run(self, job: Job) -> None:
        self._next_id += 1
        was_busy = self.busy
        self._pending.add(self._next_id)
        if not was_busy:
            self.busyChanged.emit(True)
        self._submit.emit(self._next_id, job)

    @Slot(int, object, str)
    def _on_done(self, job_id: int, state: PlayerState, problem: str) -> None:
        self._pending.discard(job_id)
        self._set_state(state)
        if problem:
            self.problem.emit(problem)
        if not self._pending:
            self.busyChanged.emit(False)

    def _set_state(self, state: PlayerState) -> None:
        self._state = state
        self.stateChanged.emit(state)

"""The bridge between the window and the session: player jobs run off the GUI thread.

The session lives in a worker *process* (:class:`~tensorlab.core.engine.process_engine.ProcessEngine`):
a step that crashes PyTorch, runs out of memory or runs too long costs a restart
of that process, never the window, and Esc really stops a long step. A QThread of
the window owns the :class:`~tensorlab.core.engine.player.Player` and waits on the worker,
so the GUI thread never blocks; it only ever receives immutable
:class:`~tensorlab.core.engine.player.PlayerState` objects through signals. The window
process never imports torch.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal, SignalInstance, Slot

from tensorlab.core.engine.player import Player, PlayerState, ProgramStep
from tensorlab.core.lang.parse import LanguageError
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.protocol.engine_api import Cancelled, EngineCrashed, EngineError, Reply
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.ui.widgets.i18n import current_language, tr

__all__ = ["LabController", "EngineFactory", "PREPARE_AFTER_MS"]

# Going back leaves the worker's live state further on; once the window has stood still this long after it, the
# worker rebuilds the state at the position in the background (the next line typed need not wait for it).
PREPARE_AFTER_MS = 250

Job = Callable[[Player, Callable[[], bool], Callable[[int, int], None]], Any]
EngineFactory = Callable[[str, Callable[[int, str], None]], Any]


def process_engine_factory(limits: Limits = DEFAULT_LIMITS, memory_limit: int | None = None,
                           time_limit: float | None = None, run_time_limit: float | None = None) -> EngineFactory:
    """Engines in a worker process (the window's default).

    ``time_limit`` bounds each step, ``run_time_limit`` everything the engine runs from its start
    (``export --png`` passes `run`'s limits; the window itself has Esc, and neither).
    """

    def make(device: str, on_restart: Callable[[int, str], None]) -> Any:
        from tensorlab.core.engine.process_engine import ProcessEngine

        engine = ProcessEngine(device, limits, memory_limit=memory_limit, time_limit=time_limit,
                               on_restart=on_restart)
        engine.run_within(run_time_limit)
        return engine

    return make


class _Worker(QObject):
    """Lives in the controller's thread; runs one job at a time, in order."""

    done = Signal(int, object, str)      # job id, PlayerState, problem ("" if none)
    progress = Signal(int, int)
    result = Signal(int, object)         # job id, what the job returned
    restarted = Signal(int, str)         # position, reason

    def __init__(self, device: str, make_engine: EngineFactory) -> None:
        super().__init__()
        self.device = device
        self.make_engine = make_engine
        self.player: Player | None = None
        self.cancel_event = threading.Event()
        # Stops a background replay (:meth:`LabController.prepare`) when the learner steps on; never a step's job.
        self.background_cancel = threading.Event()
        self.focus: tuple[str, ...] = ()

    def _player(self) -> Player:
        if self.player is None:
            try:
                engine = self.make_engine(self.device, self.restarted.emit)
            except Exception:
                # A device that is gone (a remembered GPU): the CPU always works.
                engine = self.make_engine("cpu", self.restarted.emit)
            self.player = Player(engine=engine)
        return self.player

    @Slot(int, object)
    def execute(self, job_id: int, job: Job) -> None:
        problem = ""
        try:
            player = self._player()
            player.focus = self.focus
            value = job(player, self.cancel_event.is_set, self.progress.emit)
            self.result.emit(job_id, value)
        except Cancelled as exc:
            problem = Reply.CANCELLED.value if exc.why is None else tr(
                "Stopped: the step did not finish, so its worker process was ended; the session was restarted "
                "at step {position}.").format(position=exc.position)
        except EngineCrashed as exc:
            if exc.kind in ("TimeLimit", "WorkerTimeout"):
                # A limit (export --png has `run`'s), not a crash of PyTorch: said as the catalogue says it.
                problem = (exc.why if exc.kind == "TimeLimit" else exc.message).render(current_language())
            else:
                problem = tr("The step stopped the worker: {reason}. The session was restarted at step {position}; "
                             "the window and your steps are safe.").format(reason=exc.why.render(current_language()),
                                                                           position=exc.position)
        except LanguageError as exc:
            problem = exc.render(current_language())
        except EngineError as exc:
            problem = exc.render(current_language())
        except Exception:  # a bug must not take the window down: report it as content
            problem = tr("TensorLab hit an internal error:") + "\n" + traceback.format_exc(limit=4)
        self.cancel_event.clear()
        state = self.player.state() if self.player is not None else None
        self.done.emit(job_id, state, problem)

    def stop(self) -> None:
        if self.player is not None:
            self.player.close()
            self.player = None


class LabController(QObject):
    """Owns the worker thread and, through it, the worker process; the window's actions call it."""

    stateChanged = Signal(object)        # PlayerState
    busyChanged = Signal(bool)
    progressChanged = Signal(int, int)
    problem = Signal(str)                # a message for the user (rejected line, cancel, crash, internal error)
    graphReady = Signal(int, str, object)   # position, name, GraphInfo | None
    jobFinished = Signal(str, object, str)  # job name, result (None on failure), problem
    jobProgress = Signal(str, int, int)     # job name, done, total (a run_job job's own progress)
    _submit = Signal(int, object)

    def __init__(self, device: str = "cpu", parent: QObject | None = None,
                 make_engine: EngineFactory | None = None, limits: Limits = DEFAULT_LIMITS,
                 memory_limit: int | None = None, time_limit: float | None = None,
                 run_time_limit: float | None = None) -> None:
        super().__init__(parent)
        self.limits = limits
        self.memory_limit = memory_limit
        self.time_limits = (time_limit, run_time_limit)
        self._thread = QThread(self)
        self._thread.setObjectName("tensorlab-worker")
        self._worker = _Worker(device, make_engine or process_engine_factory(limits.with_memory(memory_limit),
                                                                            memory_limit, time_limit,
                                                                            run_time_limit))
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.execute)
        self._worker.done.connect(self._on_done)
        self._worker.result.connect(self._on_result)
        self._worker.progress.connect(self.progressChanged)
        self._thread.start()
        self._next_id = 0
        self._pending: set[int] = set()
        self._callbacks: dict[int, Callable[[Any], None]] = {}
        self._quiet: set[int] = set()          # jobs that change no state (graph reads)
        self._jobs_named: dict[int, str] = {}  # job id -> registered job name
        self._state = PlayerState(None, (), 0, (), device, (device,))
        self._closed = False
        # The background replay after going back: when it starts (``prepare_after_ms``), and the job running it.
        self.prepare_after_ms = PREPARE_AFTER_MS
        self._prepare_timer = QTimer(self)
        self._prepare_timer.setSingleShot(True)
        self._prepare_timer.timeout.connect(self.prepare)
        self._preparing: int | None = None
        self._away = False
        # The program to open a lesson with when the caller gives none (a tool opening the scratchpad):
        # the window's saved steps (step_editing.StepEditing.program_for), so none is lost by opening it bare.
        self.saved_program: Callable[[Lesson | None], list[ProgramStep]] | None = None

    # -- state -----------------------------------------------------------------
    @property
    def state(self) -> PlayerState:
        """The latest state (what the panels show)."""
        return self._state

    @property
    def busy(self) -> bool:
        """True while a job is queued or running."""
        return bool(self._pending)

    @property
    def restarted(self) -> SignalInstance:
        """(position, reason) when a new worker process took over."""
        return self._worker.restarted

    # -- actions ---------------------------------------------------------------
    def load_lesson(self, lesson: Lesson | None, program: list[ProgramStep] | None = None) -> None:
        """Open ``lesson`` at position 0 (None: the scratchpad); ``program`` restores saved steps.

        Without ``program``, the saved steps of ``lesson`` (:attr:`saved_program`) come back with it.
        """
        if program is None and self.saved_program is not None:
            program = self.saved_program(lesson)
        self._run(lambda p, c, r: p.load(lesson, program))

    def step_forward(self) -> None:
        """Run the next step."""
        if self._state.position < len(self._state.program):
            self._stop_preparing()
            self._run(lambda p, c, r: p.go_to(p.position + 1, c, r))

    def step_back(self) -> None:
        """Show the state one step earlier at once, and restore it in the worker."""
        if self._state.position > 0:
            self.go_to(self._state.position - 1)

    def go_to(self, position: int, past_crashes: bool = False) -> None:
        """Go to ``position``; going back shows the known earlier state immediately.

        ``past_crashes`` (slides): a step that stops the worker is shown as its error and the later steps run,
        as in ``tensorlab run`` (:meth:`Player.go_to`); without it the player stops before such a step.
        """
        self._stop_preparing()
        if position < self._state.position and self._state.at(position).whole:
            # Known at once; a state whose values the kept history dropped waits for the worker to re-read them.
            self._set_state(self._state.at(position))
        self._run(lambda p, c, r: p.go_to(position, c, r, past_crashes))

    def run_to_end(self) -> None:
        """Run every remaining step (cancellable)."""
        self._run(lambda p, c, r: p.go_to(len(p.program), c, r))

    def reset(self) -> None:
        """Back to before the first step."""
        self.go_to(0)

    @property
    def away(self) -> bool:
        """Whether going back left the worker's live state further on than the position shown (the background
        replay, :meth:`prepare`, or the next step that needs it, brings it there)."""
        return self._away

    @property
    def preparing(self) -> bool:
        """True while the only work queued is the background replay after going back (:meth:`prepare`): the
        window shows it busy, and keeps its controls enabled (stepping on stops it)."""
        return self._preparing is not None and self._pending == {self._preparing}

    def prepare(self) -> None:
        """Rebuild the live state at the position in the worker now, where going back left it further on
        (:meth:`Player.prepare`; busy while it runs, with its progress; stepping on or Esc stops it, and nothing
        shown changes). The controller asks for it itself once going back settles (:data:`PREPARE_AFTER_MS`)."""
        self._prepare_timer.stop()
        if self._closed or not self.away or self._preparing is not None:
            return
        stop = self._worker.background_cancel
        stop.clear()
        self._preparing = self._run(lambda p, c, r: p.prepare(lambda: stop.is_set() or c(), r))

    def _stop_preparing(self) -> None:
        """The learner steps on: the background replay waits for the next pause, and one running stops."""
        self._prepare_timer.stop()
        if self._preparing is not None:
            self._worker.background_cancel.set()

    def set_device(self, device: str) -> None:
        """Replay to the same position on ``device``."""
        self._run(lambda p, c, r: p.set_device(device, c, r))

    def set_memory_limit(self, limit: int) -> None:
        """A new memory budget: the worker restarts with it, where the session stands."""
        self.memory_limit = limit
        make = process_engine_factory(self.limits.with_memory(limit), limit, *self.time_limits)
        self._worker.make_engine = make
        restarted = self._worker.restarted.emit

        def job(p: Player, c: Callable[[], bool], r: Callable[[int, int], None]) -> None:
            old = p.engine
            p.use_engine(make(old.device, restarted))   # the kept history's share follows the new budget
            old.close()
            p.engine.restore([s.code for s in p.program[: p.position]], p.results, c, r)

        self._run(job)

    def set_focus(self, name: str | None) -> None:
        """The tensor whose autograd graph every step's snapshot reads (the selected one)."""
        self._worker.focus = () if name is None else (name,)

    def request_graph(self, name: str) -> None:
        """Read the graph behind ``name`` at the current position; graphReady brings it."""
        position = self._state.position

        def job(p: Player, c: Callable[[], bool], r: Callable[[int, int], None]) -> Any:
            return p.graph(name) if p.position == position else None

        self._run(job, lambda graph: self.graphReady.emit(position, name, graph), quiet=True)

    def submit(self, code: str) -> str | None:
        """Insert a user's statement at the current position and run it.

        Returns the reason when the line is refused (nothing runs), else None.
        """
        from tensorlab.core.lang.parse import check_names, parse_one
        from tensorlab.core.messages.catalogue import msg

        if len(self._state.program) >= self.limits.max_lesson_steps:
            # A longer program could be neither saved nor loaded again (user-steps.toml, a lesson file).
            return msg("steps.too_many_in_program", limit=self.limits.max_lesson_steps).render(current_language())
        try:
            statement = parse_one(code)
            check_names([statement], self._state.names, self._state.kinds)
        except LanguageError as exc:
            return exc.render(current_language())
        self._run(lambda p, c, r: p.insert(code, c, r))
        return None

    def remove_step(self, index: int) -> None:
        """Remove a step the user added."""
        self._run(lambda p, c, r: p.remove(index, c, r))

    def run_job(self, name: str, params: dict[str, Any]) -> None:
        """Run a registered job (measure, copies) in the worker; jobFinished brings its result."""
        def job(p: Player, c: Callable[[], bool], r: Callable[[int, int], None]) -> Any:
            # Its progress goes to jobProgress (queued to the GUI thread), not to the replay progress.
            return p.job(name, params, c, lambda done, total: self.jobProgress.emit(name, done, total))

        job_id = self._run(job, lambda value: self.jobFinished.emit(name, value, ""))
        self._jobs_named[job_id] = name

    def cancel(self) -> None:
        """Stop what runs: between steps, or by ending the worker if a step does not stop at once."""
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
        """Stop the worker thread and process (when the window closes); a running step is ended."""
        if self._closed:
            return
        self._closed = True
        self._prepare_timer.stop()
        self._worker.cancel_event.set()
        player = self._worker.player
        abort = getattr(player.engine, "abort", None) if player is not None else None
        if abort is not None:
            abort()  # a running step ends now: its worker process is killed
        self._thread.quit()
        # A running step notices the cancel and ends its worker process within a second.
        self._thread.wait()
        self._worker.stop()

    # -- plumbing --------------------------------------------------------------
    def _run(self, job: Job, on_result: Callable[[Any], None] | None = None, quiet: bool = False) -> int:
        self._next_id += 1
        job_id = self._next_id
        if on_result is not None:
            self._callbacks[job_id] = on_result
        if quiet:
            self._quiet.add(job_id)
        else:
            self._prepare_timer.stop()   # this job brings the worker where it needs it (or asks again when done)
            was_busy = self.busy
            self._pending.add(job_id)
            if not was_busy:
                self.busyChanged.emit(True)
        self._submit.emit(job_id, job)
        return job_id

    @Slot(int, object)
    def _on_result(self, job_id: int, value: Any) -> None:
        callback = self._callbacks.pop(job_id, None)
        if callback is not None:
            callback(value)

    @Slot(int, object, str)
    def _on_done(self, job_id: int, state: PlayerState | None, problem: str) -> None:
        self._callbacks.pop(job_id, None)
        if job_id in self._quiet:
            self._quiet.discard(job_id)
            return
        name = self._jobs_named.pop(job_id, None)
        if name is not None and problem:
            self.jobFinished.emit(name, None, problem)
        self._pending.discard(job_id)
        prepared, self._preparing = self._preparing == job_id, None if self._preparing == job_id else self._preparing
        if state is not None:
            self._set_state(state)
        if problem:
            self.problem.emit(problem)
        if not self._pending:
            self.busyChanged.emit(False)
            if self.away and not prepared and not problem and not self._closed:
                # Going back settled with the worker further on: its replay starts after a pause (each ← restarts
                # the wait; a replay stopped by Esc or by stepping on is not started again until the next move).
                self._prepare_timer.start(self.prepare_after_ms)

    def _set_state(self, state: PlayerState) -> None:
        self._away = state.away   # the worker's own word (an equal state shown already keeps its object)
        if _same_state(state, self._state):
            return  # e.g. the worker settled on the earlier state already shown: nothing to draw again
        self._state = state
        self.stateChanged.emit(state)


def _same_state(a: PlayerState, b: PlayerState) -> bool:
    """The same objects in the same places (no deep comparison of snapshots)."""
    return (a.position == b.position and a.device == b.device and a.devices == b.devices and a.lesson is b.lesson
            and len(a.program) == len(b.program) and all(x is y for x, y in zip(a.program, b.program))
            and len(a.results) == len(b.results) and all(x is y for x, y in zip(a.results, b.results)))

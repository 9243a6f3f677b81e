"""The session in a worker process: what the window and ``tensorlab run`` talk to.

:class:`ProcessEngine` starts the worker from a fork server that imported torch
once (so restarts take milliseconds), sends it one request at a time and reads
plain data back (:mod:`tensorlab.core.protocol.wire`). It never imports torch itself.

- **Cancel**: a shared flag the worker polls between steps; a step that does not
  stop within :data:`KILL_AFTER` seconds is ended by killing the worker.
- **Crash**: when the worker dies (a native crash, an out-of-memory kill), a
  new one replays to the last position known to be good, and the request raises
  :class:`~tensorlab.core.protocol.engine_api.EngineCrashed`.
- **Time**: an optional limit per step (``time_limit``); a step over it is killed like a crash
  (``kind`` "WorkerTimeout"). A request that reports progress (a replay, a job) gets it per
  step: the clock restarts at each progress. :meth:`ProcessEngine.run_within` bounds a whole
  run: past that deadline a running step is killed and nothing more runs (``kind`` "TimeLimit"),
  and the replay after a crash ends by the deadline too, so a run ends within its time limit
  plus one step's.
- **Fresh-run jobs** (:data:`FRESH_RUN_JOBS`: checking a lesson, the errors of an export) run a
  whole program in a session of their own; a step of it that crashes the worker or runs too
  long is that step's result (``given`` to the next try, which does not run it again), as in
  ``tensorlab run``. Their set-up (reading the program, a fresh session) is not a step: until the
  job's first progress the clock allows :data:`JOB_SETUP_SECONDS` when that is more than the step limit.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.context
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.device_names import DeviceError
from tensorlab.core.protocol.engine_api import NEVER, Cancelled, EngineCrashed, EngineError, Progress, Reply
from tensorlab.core.protocol.history import History, history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.protocol.snapshot import GraphInfo
from tensorlab.core.protocol.wire import InfoReceiver

__all__ = ["stop_fork_server", "ProcessEngine", "prestart", "KILL_AFTER", "FRESH_RUN_JOBS"]

# Jobs that run a whole program with the worker's one fresh-run loop (core/session/fresh_run.py),
# reporting progress after each step, and take ``given`` (step index -> the error it met) and
# ``seconds`` (the time left for the run).
FRESH_RUN_JOBS = frozenset({"lesson_checks", "export_errors"})

# A fresh-run job's set-up, before its first progress: with a small --step-time-limit (0.05 s) a loaded
# machine sometimes took longer than that to parse the lesson and open the session, twice in a row, and
# `check` ended "the worker stopped" instead of naming the slow step (CI of stop 31).
JOB_SETUP_SECONDS = 30.0
KILL_AFTER = 0.5        # seconds a cancelled step may take to stop before its worker is killed
_POLL = 0.02
_MAIN = "tensorlab.core.worker.serve"

_context_lock = threading.Lock()
_context: Any = None


def _short_temp_dir() -> None:
    """Make multiprocessing's folder (where the fork server's socket lives) at a short path.

    A Unix socket's path may not be longer than about 100 bytes: under a long TMPDIR
    the fork server could not listen. multiprocessing makes the folder once and keeps it.
    """
    from multiprocessing import util

    if len(tempfile.gettempdir()) <= 40 or not os.access("/tmp", os.W_OK):
        return
    previous = tempfile.tempdir
    try:
        tempfile.tempdir = "/tmp"
        util.get_temp_dir()
    finally:
        tempfile.tempdir = previous


def _mp_context() -> Any:
    """The multiprocessing context: a fork server with torch preloaded where there is one."""
    global _context
    with _context_lock:
        if _context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                _short_temp_dir()
                _context = multiprocessing.get_context("forkserver")
                _context.set_forkserver_preload([_MAIN])
            else:  # pragma: no cover - Windows
                _context = multiprocessing.get_context("spawn")
        return _context


class _Preparation(Protocol):
    """``multiprocessing.spawn.get_preparation_data``'s signature."""

    def __call__(self, name: str) -> dict[str, Any]: ...


def _worker_main(original: _Preparation, by_name: bool) -> _Preparation:
    """multiprocessing's preparation data without the caller's main module.

    multiprocessing re-runs the caller's main script in a new process (for targets defined
    there); the worker needs only its own module, so an unguarded script, stdin or a notebook
    kernel never runs twice. The worker module is loaded by name in the child, never imported
    here: by the fork server's preload, or (``by_name``, a spawned child) as the child's main.
    """

    def preparation(name: str) -> dict[str, Any]:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        if by_name:
            data["init_main_from_name"] = _MAIN
        return data

    return preparation


def _start_worker(base: Any, process_obj: Any) -> Any:
    from multiprocessing import spawn

    original = spawn.get_preparation_data
    spawn.get_preparation_data = _worker_main(original, by_name=base is multiprocessing.context.SpawnProcess)
    try:
        return base._Popen(process_obj)
    finally:
        spawn.get_preparation_data = original


class _SpawnWorker(multiprocessing.context.SpawnProcess):
    @staticmethod
    def _Popen(process_obj: Any) -> Any:  # noqa: N802 - multiprocessing's name
        return _start_worker(multiprocessing.context.SpawnProcess, process_obj)


if hasattr(multiprocessing.context, "ForkServerProcess"):
    class _ForkServerWorker(multiprocessing.context.ForkServerProcess):
        @staticmethod
        def _Popen(process_obj: Any) -> Any:  # noqa: N802 - multiprocessing's name
            return _start_worker(multiprocessing.context.ForkServerProcess, process_obj)


def _process_class(context: Any) -> Any:
    """The worker's Process class: the context's own, started with :func:`_worker_main`."""
    if context.get_start_method() == "forkserver":
        return _ForkServerWorker
    return _SpawnWorker


def prestart() -> None:
    """Start the fork server now, so torch loads there while the window builds itself."""
    context = _mp_context()
    if context.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def stop_fork_server() -> None:
    """Stop the fork server (if this process started one) and wait for it: no process outlives the caller.

    Workers are stopped by their engines first (``close``). Without this the fork server would notice
    only after this process exited, and end a moment later.
    """
    if _context is None or _context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    # multiprocessing's own stop (what its tests use); a Python without it leaves the server to end alone.
    server = getattr(forkserver, "_forkserver", None)
    stop = getattr(server, "_stop", None)
    if stop is None:
        return
    pid = getattr(server, "_forkserver_pid", None)
    try:
        if pid is not None:
            # It holds nothing to save (the workers are stopped): ended at once, not after torch's exit work.
            os.kill(pid, signal.SIGKILL)
        stop()
    except (OSError, ChildProcessError):
        pass
    # The fork server started multiprocessing's resource tracker; closing its pipe lets it clean up and
    # end. Waited for a second at most: a worker that somehow still holds the pipe must not hang this.
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker, "_resource_tracker", None)
    fd, tracker_pid = getattr(tracker, "_fd", None), getattr(tracker, "_pid", None)
    if tracker is None or fd is None or tracker_pid is None:
        return
    try:
        os.close(fd)
        tracker._fd = None
        deadline = time.monotonic() + 1.0
        while os.waitpid(tracker_pid, os.WNOHANG) == (0, 0) and time.monotonic() < deadline:
            time.sleep(0.005)
        tracker._pid = None
    except (OSError, ChildProcessError):
        pass


def _signal_name(code: int | None) -> Message:
    if code is None:
        return msg("engine.no_answer")
    if code < 0:
        name: str | Message
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = msg("engine.signal", number=-code)
        if -code == signal.SIGKILL:
            return msg("engine.killed", signal=name)
        return msg("engine.crashed", signal=name)
    return msg("engine.exited", status=code)


class ProcessEngine:
    """An engine whose session lives in a worker process (see the module docstring).

    ``on_restart(position, reason)`` is called (from the calling thread) when a
    new worker took over, before the request that met the crash raises.
    """

    def __init__(self, device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
                 memory_limit: int | None = None, time_limit: float | None = None,
                 on_restart: Callable[[int, str], None] | None = None) -> None:
        self.limits = limits
        self.memory_limit = memory_limit
        self.time_limit = time_limit
        self.device = device
        self.devices: tuple[str, ...] = ("cpu",)
        self.info: dict[str, Any] = {}
        self.on_restart = on_restart
        self._receiver = InfoReceiver()
        self._process: Any = None
        self._conn: Any = None
        self._flag: Any = None
        # What a new worker must replay to stand where the old one stood.
        self._codes: list[str] = []
        self._results: list[StepResult] = []
        # Within the session's budget: old snapshots lose their values (the worker keeps its own the same way).
        self._history = History(history_allowance(limits))
        self.history_trimmed = 0   # the most steps whose values the kept history dropped at once
        # Bytes of values the player beside this engine keeps (:meth:`count_kept`): the same results as the
        # engine's, mostly the same objects, so this process holds the larger of the two.
        self.player_held = 0
        self.restarts = 0
        self._closing = False
        # time.monotonic() by which every request and replay ends (run_within); None: no deadline.
        self.deadline: float | None = None
        self._run_seconds = 0.0
        self._start()

    def run_within(self, seconds: float | None) -> None:
        """Bound what runs from now on to ``seconds`` (a run's ``--time-limit``; None: unbounded).

        A step still running at the deadline is killed (``TimeLimit``), later requests raise
        :class:`EngineCrashed` (``TimeLimit``) without running, and a replay after a crash stops there.
        """
        self._run_seconds = seconds or 0.0
        self.deadline = None if seconds is None else time.monotonic() + seconds

    def _time_is_up(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _time_limit_message(self) -> Message:
        return msg("engine.time_limit", seconds=f"{self._run_seconds:g}")

    # -- process -----------------------------------------------------------------
    def _start(self) -> None:
        context = _mp_context()
        parent, child = context.Pipe(duplex=True)
        self._flag = context.Value("b", 0, lock=False)
        # [iteration, count] of a loop the worker is running (0: none): still readable after a kill.
        self._loop = context.Array("q", 2, lock=False)
        process = _process_class(context)(target=_serve, args=(child, self._flag, self.device, self.limits,
                                                       self.memory_limit, self._loop),
                                  name="tensorlab-worker", daemon=True)
        process.start()
        child.close()
        self._process, self._conn = process, parent
        self._receiver.clear()
        try:
            kind, payload = self._read(None, NEVER, None)
        except _Died:
            self._kill()
            raise EngineError(msg("engine.no_start")) from None
        if kind == Reply.BAD_DEVICE:
            self._kill()
            raise DeviceError(payload)
        if kind != Reply.OK:
            self._kill()
            raise EngineError(msg("engine.no_start_detail", detail=str(payload)))
        self.info = dict(payload)
        self.devices = tuple(payload["devices"])
        self.device = payload["device"]

    def _kill(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None and process.is_alive():
            process.kill()
        if process is not None:
            process.join(timeout=5)

    @property
    def pid(self) -> int | None:
        """The worker's process id (for tests and tools)."""
        return None if self._process is None else self._process.pid

    @property
    def position(self) -> int:
        return len(self._codes)

    # -- requests ----------------------------------------------------------------
    def _read(self, timeout: float | None, cancelled: Callable[[], bool],
              progress: Progress | None, deadline: float | None = None,
              setup: float | None = None) -> tuple[str, Any]:
        """The next answer: (a :class:`Reply`: ok, failed or cancelled; payload); progress on the way.

        Raises _Died when the worker dies, stops answering after a cancel, runs over ``timeout``
        (counted from the request or from its last progress; ``setup``, when given, instead of it until
        the first progress), or past ``deadline`` (the engine's).
        """
        started = time.monotonic()
        allowed = setup if setup is not None else timeout
        cancel_asked: float | None = None
        conn = self._conn
        while True:
            try:
                ready = conn.poll(_POLL)
            except (OSError, EOFError):
                raise _Died("crash") from None
            if ready:
                try:
                    data = conn.recv_bytes()
                except (OSError, EOFError):
                    raise _Died("crash") from None
                kind, payload = self._receiver.loads(data)
                if kind == Reply.PROGRESS:
                    started = time.monotonic()   # each step of a replay or a job has its own time
                    allowed = timeout
                    if progress is not None:
                        progress(*payload)
                    continue
                if kind == Reply.READY:
                    return Reply.OK, payload
                return kind, payload
            if self._process is not None and not self._process.is_alive():
                # Read what it said before it died, then report the death.
                if conn.poll(0):
                    continue
                raise _Died("crash")
            now = time.monotonic()
            if cancel_asked is None and cancelled():
                cancel_asked = now
                self._flag.value = 1
            if cancel_asked is not None and now - cancel_asked > KILL_AFTER:
                raise _Died("cancel")
            if allowed is not None and now - started > allowed:
                raise _Died("timeout")
            if deadline is not None and now > deadline:
                raise _Died("deadline")

    def _request(self, command: str, arguments: dict[str, Any], cancelled: Callable[[], bool] = NEVER,
                 progress: Progress | None = None, timeout: float | None = None, setup: float | None = None) -> Any:
        if self._time_is_up() and command in ("run", "restore", "job"):
            # Nothing more runs once the run's time is up (not even a replay that would take long).
            raise EngineCrashed(len(self._codes), self._time_limit_message(), "TimeLimit")
        if self._conn is None:
            self._revive(msg("engine.stopped_worker"))
        self._flag.value = 0
        try:
            self._conn.send((command, arguments))
            kind, payload = self._read(timeout if timeout is not None else self.time_limit, cancelled, progress,
                                       self.deadline, setup)
        except (OSError, EOFError, BrokenPipeError):
            kind, payload = Reply.DIED, _Died("crash")
        except _Died as died:
            kind, payload = Reply.DIED, died
        if kind == Reply.OK:
            return payload
        if kind == Reply.CANCELLED:
            raise Cancelled(payload)
        if kind == Reply.DIED:
            return self._after_death(payload, command)
        raise EngineError(msg("engine.internal", detail=str(payload)))

    def _after_death(self, died: _Died, command: str) -> Any:
        if self._closing:
            self._kill()
            raise Cancelled(len(self._codes), msg("engine.closed"))
        exitcode = None
        if self._process is not None:
            self._process.join(timeout=0.2 if died.why == "crash" else 0)
            exitcode = self._process.exitcode
        self._kill()
        if died.why == "cancel":
            reason, kind = msg("engine.stopped"), "Cancelled"
        elif died.why == "timeout":
            reason, kind = self._timeout_message(), "WorkerTimeout"
        elif died.why == "deadline":
            reason, kind = self._time_limit_message(), "TimeLimit"
        else:
            reason, kind = _signal_name(exitcode), "WorkerCrash"
        position = self._revive(reason)
        if kind == "Cancelled":
            raise Cancelled(position, reason)
        raise EngineCrashed(position, reason, kind)

    def _timeout_message(self) -> Message:
        """The step ran over the time limit: in which iteration, when it was in a loop (the worker keeps it
        in shared memory, still readable after the kill)."""
        seconds = f"{self.time_limit:g}"
        loop = getattr(self, "_loop", None)
        iteration, count = (loop[0], loop[1]) if loop is not None else (0, -1)
        if iteration <= 0:
            return msg("engine.timeout", seconds=seconds)
        if count < 0:
            return msg("engine.timeout_at_iteration", seconds=seconds, iteration=f"{iteration:,}")
        return msg("engine.timeout_in_loop", seconds=seconds, iteration=f"{iteration:,}", count=f"{count:,}")

    def _revive(self, reason: Message) -> int:
        """Start a new worker and replay it to the last position known to be good."""
        self.restarts += 1
        self._start()
        codes, results = self._codes, self._results
        if codes and self._time_is_up():
            self._codes, self._results = [], []   # no time left to replay: nothing more runs anyway
        elif codes:
            self._conn.send(("restore", {"codes": list(codes), "results": list(results),
                                         "outside": self.window_held}))
            try:
                # Each replayed step within the step time limit, the whole replay within the deadline.
                kind, payload = self._read(self.time_limit, NEVER, None, self.deadline)
            except _Died:
                # Replaying what ran before cannot crash in a fresh worker, but it may run out of time:
                # start empty then.
                self._kill()
                self._start()
                self._codes, self._results = [], []
                kind = Reply.OK
            if kind != Reply.OK:
                self._codes, self._results = [], []
        if self.on_restart is not None:
            self.on_restart(len(self._codes), reason.render("en"))  # the window's notice says it in its words
        return len(self._codes)

    @property
    def window_held(self) -> int:
        """Bytes of values this process keeps of the session's history (the engine's and the player's lists hold
        the same results): sent with every run and restore, the worker's guard counts them in the budget."""
        return max(self._history.held, self.player_held)

    def count_kept(self, nbytes: int) -> None:
        """What the player keeps (bytes of values after its last trim), counted from the next request on."""
        self.player_held = nbytes

    # -- the engine interface ----------------------------------------------------------
    def reset(self) -> None:
        self._request("reset", {})
        self._codes, self._results = [], []

    def run(self, code: str, focus: Sequence[str] = (), cancelled: Callable[[], bool] = NEVER) -> StepResult:
        result: StepResult = self._request("run", {"code": code, "focus": tuple(focus),
                                                   "outside": self.window_held}, cancelled)
        self._codes.append(code)
        self._results.append(result)
        self._history.trim(self._results)
        self.history_trimmed = max(self.history_trimmed, self._history.trimmed_steps)
        return result

    def restore(self, codes: Sequence[str], results: Sequence[StepResult],
                cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> None:
        codes, results = list(codes), list(results)
        # The worker keeps the results it made; send them only when it never saw these steps.
        mine = self._codes[: len(codes)] == codes[: len(self._codes)]
        try:
            position = self._request("restore", {"codes": codes, "results": None if mine else results,
                                                 "outside": self.window_held}, cancelled, progress)
        except Cancelled as exc:
            done = exc.position or 0
            self._codes, self._results = codes[:done], results[:done]
            raise
        self._codes, self._results = codes[:position], results[:position]
        self._history.trim(self._results)   # what it keeps now, within its allowance (counted from the next request)

    def graph(self, name: str) -> GraphInfo | None:
        graph: GraphInfo | None = self._request("graph", {"name": name})
        return graph

    def set_device(self, device: str) -> None:
        old = self.device
        self._kill()
        self.device = device
        try:
            self._start()
        except DeviceError:
            # Not here after all: go back to where we stood on the old device, then say why.
            self.device = old
            self._revive(msg("engine.device_gone"))
            raise
        self._codes, self._results = [], []

    def job(self, name: str, params: dict[str, Any], cancelled: Callable[[], bool] = NEVER,
            progress: Progress | None = None) -> Any:
        if name in FRESH_RUN_JOBS:
            return self._fresh_run_job(name, params, cancelled, progress)
        return self._request("job", {"name": name, "params": params}, cancelled, progress)

    def _fresh_run_job(self, name: str, params: dict[str, Any], cancelled: Callable[[], bool],
                       progress: Progress | None) -> Any:
        """Run a fresh-run job; a step that kills the worker becomes that step's error, and the job goes on.

        The job reports progress after each step, so when the worker dies the step it was on is known:
        the next try is ``given`` that step's error and does not run it again (the steps before it
        run again, in a new worker: the time they take counts against ``seconds``, the run's limit).
        """
        given: dict[int, ErrorInfo] = dict(params.get("given") or {})
        seconds = params.get("seconds")
        started = time.monotonic()
        while True:
            done = 0

            def seen(count: int, total: int) -> None:
                nonlocal done
                done = count
                if progress is not None:
                    progress(count, total)

            left = None if seconds is None else max(float(seconds) - (time.monotonic() - started), 0.0)
            try:
                return self._request("job", {"name": name, "params": {**params, "given": given, "seconds": left,
                                                                       "limit": seconds}}, cancelled, seen,
                                     setup=None if self.time_limit is None else max(self.time_limit,
                                                                                    JOB_SETUP_SECONDS))
            except EngineCrashed as exc:
                if done in given or exc.kind == "TimeLimit" and self._time_is_up():
                    raise   # no step was reached this time (or the engine's own deadline passed)
                # Like `tensorlab run`'s error of such a step: the reason, and where the session is now.
                text = msg("engine.step_lost", reason=exc.why)
                given[done] = ErrorInfo(exc.kind, text.render("en"), None, text)

    def abort(self) -> None:
        """End the worker now, from any thread (the window is closing): a running request stops at once."""
        self._closing = True
        process = self._process
        if process is not None and process.is_alive():
            process.kill()

    def close(self) -> None:
        self._closing = True
        if self._conn is not None:
            try:
                self._conn.send(("exit", {}))
            except (OSError, BrokenPipeError):
                pass
        process = self._process
        if process is not None:
            process.join(timeout=0.3)
        self._kill()


class _Died(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def _serve(conn: Any, flag: Any, device: str, limits: Limits, memory_limit: int | None,
           loop: Any = None) -> None:
    # Runs in the worker. This module never imports the worker side (a static contract says so):
    # multiprocessing loaded it by name, in the fork server (preload) or as the child's main module.
    module = sys.modules.get(_MAIN) or sys.modules.get("__mp_main__")
    if module is None or not hasattr(module, "serve"):
        raise RuntimeError(f"the worker process did not load {_MAIN}")
    module.serve(conn, flag, device, limits, memory_limit, loop)


if sys.platform == "win32":  # pragma: no cover
    KILL_AFTER = 1.0

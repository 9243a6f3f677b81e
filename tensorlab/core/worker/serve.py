"""The worker process: one live session, driven by messages from the window (or the CLI).

This module is preloaded by the fork server (it imports torch once there), so a
new worker starts in milliseconds. It answers every request with plain data
(:mod:`tensorlab.core.protocol.wire`); torch objects never leave this process.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any

import torch  # noqa: F401 - imported here so the fork server loads it once

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.device_names import DeviceError
from tensorlab.core.protocol.engine_api import Cancelled, Reply
from tensorlab.core.protocol.history import History, history_allowance
from tensorlab.core.protocol.limits import Limits
from tensorlab.core.protocol.wire import InfoSender
from tensorlab.core.session.devices import available_devices
from tensorlab.core.session.session import Session
from tensorlab.core.worker.in_process import keep_history, restore_session

__all__ = ["serve", "warm_up"]


def warm_up() -> None:
    """Pay torch's one-time costs of a training step here, before any step's time limit runs.

    The first optimizer of a process imports ``torch._dynamo`` and friends (seconds on a busy
    machine): without this a learner's first ``opt = optim.SGD(...)`` could hit the step limit.
    A throwaway SGD and Adam make one step each on a tiny tensor of their own; no global state
    a session sees changes (no random numbers are drawn, grad mode is left as it was).
    """
    weight = torch.zeros(2, requires_grad=True)
    with torch.enable_grad():
        for optimizer in (torch.optim.SGD([weight], lr=0.1, momentum=0.9), torch.optim.Adam([weight])):
            weight.sum().backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            optimizer.zero_grad()


# At import: this module is the fork server's preload, so every worker forked from it starts warm.
warm_up()


def _limit_memory(limit_bytes: int | None, device: str) -> None:
    """Cap the address space on CPU, so an allocation over the budget fails as an error, not a kill."""
    if not limit_bytes or device != "cpu" or not sys.platform.startswith("linux"):
        return
    try:
        import resource

        with open("/proc/self/status") as status:
            vm = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
        # What torch already mapped, the session's budget, and room for torch's own workspaces.
        cap = vm + 2 * limit_bytes + (1 << 30)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (OSError, ValueError, OverflowError, StopIteration):  # pragma: no cover - best effort
        pass


class _Server:
    def __init__(self, conn: Any, cancel_flag: Any, device: str, limits: Limits,
                 loop_watch: Any = None) -> None:
        self.conn = conn
        self.cancel_flag = cancel_flag
        self.limits = limits
        self.session = Session(device=device, limits=limits)
        self.session.watch_loops(loop_watch)
        self.sender = InfoSender()
        self.history = History(history_allowance(limits))
        # Bytes of values the window's process keeps of this session's history (each request says): counted in
        # the budget with what this process keeps.
        self.elsewhere = 0

    # -- plumbing ----------------------------------------------------------------
    def send(self, kind: Reply, payload: Any = None) -> None:
        self.conn.send_bytes(self.sender.dumps((kind.value, payload)))   # plain text on the wire

    def cancelled(self) -> bool:
        return bool(self.cancel_flag.value)

    def progress(self, done: int, total: int) -> None:
        self.send(Reply.PROGRESS, (done, total))

    # -- requests ----------------------------------------------------------------
    def hello(self) -> dict[str, Any]:
        return {"devices": tuple(available_devices()), "device": self.session.device,
                "torch": str(torch.__version__), "pid": os.getpid(), "threads": torch.get_num_threads()}

    def reset(self) -> int:
        self.session.reset()
        self.sender.forget()
        return 0

    def _count_elsewhere(self, outside: int) -> None:
        self.elsewhere = max(int(outside), 0)
        self.session.guard.outside = self.history.held + self.elsewhere

    def run(self, code: str, focus: tuple[str, ...] = (), outside: int = 0) -> Any:
        self.session.focus = frozenset(focus)
        self._count_elsewhere(outside)
        result = self.session.execute(parse_one(code, self.limits))
        keep_history(self.session, self.history, self.elsewhere)
        return result

    def restore(self, codes: list[str], results: list[Any] | None = None, outside: int = 0) -> int:
        # Results this process made itself need not cross the wire again.
        known = list(results if results is not None else self.session.results)
        self.sender.forget()
        self._count_elsewhere(outside)
        restore_session(self.session, codes, known, self.cancelled, self.progress)
        keep_history(self.session, self.history, self.elsewhere)
        return self.session.position

    def graph(self, name: str) -> Any:
        info = self.session.take_snapshot(graphs={name}).tensor(name)
        return None if info is None else info.graph

    def job(self, name: str, params: dict[str, Any]) -> Any:
        from tensorlab.core.worker.jobs import run_job

        return run_job(name, self.session, params, self.cancelled, self.progress)

    def position(self) -> int:
        return self.session.position

    def serve(self) -> None:
        self.send(Reply.READY, self.hello())
        handlers: dict[str, Callable[..., Any]] = {
            "reset": self.reset, "run": self.run, "restore": self.restore, "graph": self.graph,
            "job": self.job, "position": self.position, "hello": self.hello}
        while True:
            try:
                command, arguments = self.conn.recv()
            except (EOFError, OSError):
                return  # the window is gone
            if command == "exit":
                return
            self.cancel_flag.value = False
            try:
                reply = handlers[command](**arguments)
            except Cancelled as exc:
                self.send(Reply.CANCELLED, exc.position if exc.position is not None else self.session.position)
                continue
            except Exception:  # a bug in TensorLab, reported with its details, never a dead worker
                self.send(Reply.FAILED, traceback.format_exc(limit=8))
                continue
            self.send(Reply.OK, reply)


def serve(conn: Any, cancel_flag: Any, device: str, limits: Limits, memory_limit: int | None,
          loop_watch: Any = None) -> None:
    """The worker's main loop (the target of the worker process); ``loop_watch`` is shared memory where
    the session keeps the iteration a running loop is in (read by the engine after a kill)."""
    # Ctrl+C in a terminal reaches the whole process group: the window decides, not the worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit_memory(memory_limit, device)
    try:
        server = _Server(conn, cancel_flag, device, limits, loop_watch)
    except DeviceError as exc:
        conn.send_bytes(InfoSender().dumps((Reply.BAD_DEVICE.value, exc.message)))
        return
    except Exception:
        conn.send_bytes(InfoSender().dumps((Reply.FAILED.value, traceback.format_exc(limit=8))))
        return
    server.serve()

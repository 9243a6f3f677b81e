"""The session in a worker process: crashes, cancels and time limits cost a restart, never the caller."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import replace

import pytest

from tensorlab.core.engine.player import Player
from tensorlab.core.engine.process_engine import ProcessEngine
from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.protocol.engine_api import Cancelled, EngineCrashed
from tensorlab.core.protocol.limits import DEFAULT_LIMITS

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the fork server is POSIX-only")

CYCLE = ["a = [0, 0]", "b = [0, a]", "a[1] = b"]
# Seconds of torch work (each matmul is 2,000^3), allowed by a cost limit raised for these tests.
GENEROUS = replace(DEFAULT_LIMITS, max_cost=10**13)
LONG_STEP = "with torch.no_grad():\n" + "\n".join("    y = torch.ones(2000, 2000) @ torch.ones(2000, 2000)"
                                                   for _ in range(60))


@pytest.fixture
def engine():
    engine = ProcessEngine(limits=GENEROUS)
    yield engine
    engine.close()


def test_steps_run_in_another_process_and_come_back_as_data(engine):
    result = engine.run("x = torch.ones(5, requires_grad=True)")
    assert engine.pid != os.getpid()
    info = result.snapshot.tensor("x")
    assert info.values == (1.0,) * 5 and info.requires_grad and info.storage == "S0"
    assert engine.run("y = x.detach()").snapshot.tensor("y").storage == "S0"


def test_a_native_crash_restarts_the_worker_where_it_stood(engine):
    engine.run("x = torch.ones(3)")
    for code in CYCLE:
        engine.run(code)
    old = engine.pid
    # Kill the worker the way a segfault in torch would.
    os.kill(old, signal.SIGSEGV)
    with pytest.raises(EngineCrashed) as crashed:
        engine.run("y = x * 2")
    assert crashed.value.position == 4 and "SIGSEGV" in crashed.value.reason
    assert engine.pid != old
    # The new worker stands at step 4, with the same names; the next step runs.
    result = engine.run("y = x * 2")
    assert result.snapshot.names == ("x", "y", "a", "b")
    assert result.snapshot.tensor("y").values == (2.0, 2.0, 2.0)


def test_a_long_step_is_stopped_on_cancel_and_the_session_stands_before_it(engine):
    engine.run("x = torch.ones(3)")
    polls = []

    def cancelled() -> bool:
        polls.append(1)
        return len(polls) > 10   # asked while the long step runs (how fast it stops: benchmarks/stops.py)

    with pytest.raises(Cancelled):
        engine.run(LONG_STEP, cancelled=cancelled)
    assert engine.position == 1
    assert engine.run("z = x + 1").snapshot.names == ("x", "z")


def test_a_step_over_the_time_limit_is_stopped():
    engine = ProcessEngine(limits=GENEROUS, time_limit=0.5)
    try:
        engine.run("x = torch.ones(3)")
        with pytest.raises(EngineCrashed) as crashed:
            engine.run(LONG_STEP)
        assert crashed.value.kind == "WorkerTimeout" and crashed.value.position == 1
        assert engine.run("z = x + 1").ok
    finally:
        engine.close()


def test_a_loop_over_the_time_limit_says_in_which_iteration_it_was_stopped():
    engine = ProcessEngine(limits=GENEROUS, time_limit=0.5)
    try:
        engine.run("x = torch.ones(3)")
        loop = "for i in range(60):\n    y = torch.ones(2000, 2000) @ torch.ones(2000, 2000)"
        with pytest.raises(EngineCrashed) as crashed:
            engine.run(loop)
        why = crashed.value.why
        assert crashed.value.kind == "WorkerTimeout" and crashed.value.position == 1
        assert why.key == "engine.timeout_in_loop" and why.values["count"] == "60"
        assert 1 <= int(str(why.values["iteration"])) <= 60
        assert f"in iteration {why.values['iteration']} of 60" in crashed.value.reason
        # The next step is no loop: a timeout there says nothing of iterations.
        with pytest.raises(EngineCrashed) as again:
            engine.run(LONG_STEP)
        assert again.value.why.key == "engine.timeout"
    finally:
        engine.close()


def test_going_back_restores_real_state_and_keeps_storage_labels(engine):
    player = Player(engine=engine)
    player.load(find_lesson("detach-and-the-version-counter"))
    player.go_to(8)
    at_eight = player.state().snapshot
    player.go_to(3)
    player.go_to(8)
    again = player.state().snapshot
    assert [(s.id, s.tensors) for s in again.storages] == [(s.id, s.tensors) for s in at_eight.storages]
    assert again.tensor("c").version == at_eight.tensor("c").version


def test_the_window_side_never_loads_torch():
    code = ("import sys\n"
            "from tensorlab.core.engine.process_engine import ProcessEngine\n"
            "from tensorlab.core.engine.player import Player\n"
            "from tensorlab.core.lessons.lesson import find_lesson\n"
            "if __name__ == '__main__':\n"
            "    p = Player(engine=ProcessEngine())\n"
            "    p.load(find_lesson('clone-keeps-the-graph'))\n"
            "    p.go_to(6)\n"
            "    print(p.state().snapshot.tensor('x').grad, 'torch' in sys.modules)\n"
            "    p.close()\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "False"


def test_what_did_not_change_crosses_to_the_window_once(engine):
    """500 names of 10,000 elements, added one per step: what the window keeps stays linear."""
    engine.run("t0 = torch.rand(10000)")
    first = engine.run("l0 = [0] * 1000").snapshot
    for k in range(1, 30):
        engine.run(f"t{k} = torch.rand(10000)")
    last = engine.run("l1 = [1] * 1000").snapshot
    assert last.tensor("t0") is first.tensor("t0")
    assert last.storage(last.tensor("t0").storage) is first.storage(first.tensor("t0").storage)
    assert next(o for o in last.others if o.name == "l0") is next(o for o in first.others if o.name == "l0")


def test_past_the_run_deadline_a_step_is_stopped_and_nothing_more_runs_not_even_a_replay():
    engine = ProcessEngine(limits=GENEROUS, time_limit=30)
    try:
        engine.run("x = torch.ones(3)")
        engine.run_within(0.5)
        with pytest.raises(EngineCrashed) as stopped:
            engine.run(LONG_STEP)
        assert stopped.value.kind == "TimeLimit"
        # No time left to replay what ran: the new worker stands at the start, and runs nothing more.
        assert stopped.value.position == 0 and engine.position == 0
        with pytest.raises(EngineCrashed) as refused:
            engine.run("z = 1")
        assert refused.value.kind == "TimeLimit" and engine.position == 0
        engine.run_within(None)
        assert engine.run("z = 1").ok
    finally:
        engine.close()


def test_the_replay_after_a_timeout_has_the_step_time_limit():
    # A replayed step that runs past the step limit ends the replay: the worker starts empty instead of
    # taking as long again (before, a replay after a timeout had no limit at all).
    engine = ProcessEngine(limits=GENEROUS, time_limit=0.3)
    try:
        engine._codes = [LONG_STEP]          # as if that step had run within the limit before
        engine._results = [engine.run("x = 1")]
        engine._codes = [LONG_STEP]
        with pytest.raises(EngineCrashed) as crashed:
            engine.run(LONG_STEP)
        assert crashed.value.kind == "WorkerTimeout" and crashed.value.position == 0
        assert engine.run("y = 2").ok
    finally:
        engine.close()


def test_a_fresh_run_job_makes_a_step_that_crashes_the_worker_that_steps_error():
    engine = ProcessEngine(limits=GENEROUS)
    try:
        engine.run("mine = torch.ones(2)")
        # INT64_MIN / -1 traps (SIGFPE) in torch's integer division; INT64_MIN + 1 does not.
        codes = ["a = torch.tensor(-2**63)", "b = a.div(-1, rounding_mode='trunc')", "c = a + 1",
                 "d = c.div(-1, rounding_mode='trunc')", "e = a * 2"]
        errors = engine.job("export_errors", {"codes": codes})
        assert [e.type if e else None for e in errors] == [None, "WorkerCrash", None, None, None]
        assert "SIGFPE" in errors[1].message
        # The live session is where it was.
        assert engine.run("n = mine + 1").snapshot.tensor("n").values == (2.0, 2.0)
    finally:
        engine.close()




class _Recording:
    """A worker connection that remembers the requests sent through it."""

    def __init__(self, conn):
        self.conn, self.sent = conn, []

    def send(self, request):
        self.sent.append(request)
        self.conn.send(request)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_every_request_tells_the_worker_what_the_window_side_keeps_of_the_history():
    """The engine's and the player's kept history (this process) is sent with each run and restore: the
    worker's guard counts it in the session's budget (tests/core/worker/test_serve.py)."""
    from tensorlab.core.lessons.lesson import parse_lesson

    small = DEFAULT_LIMITS.with_memory(16 * 1024**2)   # 1 MB of kept history per process
    codes = ["x = torch.zeros(10000)"] + ["x.add_(1)"] * 6
    lesson = parse_lesson('[lesson]\nid = "h"\ntitle = "H"\n' + "".join(f'[[step]]\ncode = "{c}"\n' for c in codes))
    engine = ProcessEngine(limits=small)
    player = Player(engine, small)
    try:
        player.load(lesson)
        engine._conn = _Recording(engine._conn)
        held = []
        for _ in codes:
            held.append(max(engine._history.held, player.history.held))
            player.forward()
        sent = [arguments["outside"] for command, arguments in engine._conn.sent if command == "run"]
        assert sent == held and sent[-1] > 0
        # Each keeps its own copy within its share (the two lists hold the same trimmed objects).
        assert engine.window_held <= 1024**2 and player.history.held <= 1024**2 and player.state().trimmed
        player.go_to(2)
        restore = [arguments for command, arguments in engine._conn.sent if command == "restore"]
        assert restore and restore[-1]["outside"] > 0
    finally:
        player.close()


def test_the_player_goes_past_a_step_that_crashes_the_worker_when_asked_and_never_reruns_it():
    """Slides (``past_crashes``): the crashed step is its result (over the state before it), later steps run on
    the restarted worker, going back replays without the lost step; without it the player stops there."""
    from tensorlab.core.lessons.lesson import parse_lesson

    codes = ["a = torch.tensor(-2**63)", "b = a.div(-1, rounding_mode='trunc')", "c = a + 1", "e = c * 2"]
    lesson = parse_lesson('[lesson]\nid = "f"\ntitle = "F"\n' + "".join(f'[[step]]\ncode = "{c}"\n' for c in codes))
    engine = ProcessEngine()
    player = Player(engine)
    try:
        player.load(lesson)
        with pytest.raises(EngineCrashed):
            player.go_to(4)
        assert player.position == 1
        player.go_to(4, past_crashes=True)
        state = player.state()
        assert [None if r.error is None else r.error.type for r in state.results] == [None, "WorkerCrash", None, None]
        assert state.results[1].snapshot is state.results[0].snapshot and "SIGFPE" in state.results[1].error.message
        assert [r.index for r in state.results] == [0, 1, 2, 3] and state.names == ("a", "c", "e")
        restarts = engine.restarts
        player.go_to(2)
        player.go_to(4)
        assert engine.restarts == restarts and player.state().names == ("a", "c", "e")
    finally:
        player.close()


def test_a_step_that_crashes_the_worker_after_going_back_leaves_the_player_at_that_position():
    """Going back leaves the worker where it stood; the new step first rebuilds the live state at the
    position, then crashes the worker: the new worker stands at the position, and the program runs on."""
    from tensorlab.core.engine.player import ProgramStep, StepOrigin
    from tensorlab.core.lang.parse import parse_one

    codes = ["a = torch.tensor(-2**63)", "c = a + 1", "e = c * 2", "e.add_(1)"]
    engine = ProcessEngine()
    player = Player(engine)
    try:
        player.load(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER) for c in codes])
        player.go_to(4)
        pid = engine.pid
        player.go_to(2)
        assert engine.pid == pid and engine.position == 4 and not player.in_step
        with pytest.raises(EngineCrashed):
            player.insert("b = a.div(-1, rounding_mode='trunc')")   # SIGFPE in torch
        assert engine.pid != pid and player.position == 2 and engine.position == 2 and player.in_step
        assert player.state().names == ("a", "c")
        player.program = [step for step in player.program if "div" not in step.code]
        player.go_to(4)
        import torch

        plain = (torch.tensor(-2**63) + 1) * 2
        plain.add_(1)
        last = player.state().snapshot
        assert last.names == ("a", "c", "e") and last.tensor("e").values == plain.item()
        assert last.tensor("e").version == plain._version == 1
    finally:
        player.close()


class _SlowStartConnection:
    """A worker that takes ``quiet`` seconds (on a clock the test moves) before its first progress."""

    def __init__(self, clock: list[float], quiet: float) -> None:
        self.clock, self.quiet, self.sent = clock, quiet, []

    def poll(self, timeout: float) -> bool:
        self.clock[0] += timeout
        if not self.sent and self.clock[0] >= self.quiet:
            self.sent.append(("progress", (0, 1)))
            return True
        if len(self.sent) == 1:
            self.sent.append(("ok", "done"))
            return True
        return False

    def recv_bytes(self) -> tuple[str, object]:
        return self.sent[-1]


def test_a_fresh_run_jobs_set_up_is_not_held_to_the_step_time_limit(monkeypatch):
    """Reading the lesson and opening a session are not a step: a loaded machine that takes a second before
    the first step is not "the step ran longer than 0.05 s" (CI of stop 31); the steps are still held to it."""
    import tensorlab.core.engine.process_engine as module

    clock = [0.0]
    monkeypatch.setattr(module.time, "monotonic", lambda: clock[0])
    engine = ProcessEngine.__new__(ProcessEngine)
    engine._process, engine._flag = None, type("Flag", (), {"value": 0})()
    engine._receiver = type("Plain", (), {"loads": staticmethod(lambda data: data)})()
    engine._conn = _SlowStartConnection(clock, quiet=1.0)
    assert engine._read(0.05, lambda: False, None, None, setup=module.JOB_SETUP_SECONDS) == ("ok", "done")
    engine._conn = _SlowStartConnection(clock := [0.0], quiet=1.0)
    monkeypatch.setattr(module.time, "monotonic", lambda: clock[0])
    with pytest.raises(module._Died):
        engine._read(0.05, lambda: False, None, None)

"""The controller's Preferences change of the memory budget: the kept history follows the new budget's share."""

from __future__ import annotations

from tensorlab.core.engine.player import ProgramStep, StepOrigin
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.history import history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.ui.program.controller import LabController


def test_a_new_memory_limit_gives_the_window_sides_history_its_new_share(qtbot):
    big, small = 1024**3, 16 * 1024**2
    controller = LabController(memory_limit=big)
    try:
        codes = ["x = torch.zeros(10000)"] + ["x.add_(1)"] * 8
        controller.load_lesson(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER) for c in codes])
        controller.run_to_end()
        assert controller.wait_idle(60_000)
        player = controller._worker.player
        assert player.history.allowance == history_allowance(DEFAULT_LIMITS.with_memory(big))
        assert not controller.state.trimmed
        controller.set_memory_limit(small)
        assert controller.wait_idle(60_000)
        player = controller._worker.player
        share = history_allowance(DEFAULT_LIMITS.with_memory(small))
        # The player's own copy, and the engine's, are trimmed to the new share at once; the window shows a
        # whole state (the last two steps), at the same position.
        assert player.history.allowance == share == 1024**2 and player.history.held <= share
        assert player.engine.window_held <= share
        controller.step_back()
        assert controller.wait_idle(60_000)
        state = controller.state
        assert state.position == len(codes) - 1 and state.whole and state.trimmed > 0
    finally:
        controller.shutdown()


def test_stepping_back_in_the_window_shows_the_recorded_state_and_a_new_line_runs_on_that_state(qtbot):
    """← shows the state torch held after the earlier step without a replay in the worker; a line typed there
    first rebuilds that state in the worker, so it reads the values of that step, not of the later ones."""
    controller = LabController()
    try:
        codes = ["x = torch.zeros(3)"] + ["x.add_(1)"] * 5
        controller.load_lesson(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER) for c in codes])
        controller.run_to_end()
        assert controller.wait_idle(60_000)
        engine = controller._worker.player.engine
        pid, restarts = engine.pid, engine.restarts
        controller.step_back()
        controller.step_back()
        assert controller.wait_idle(60_000)
        state = controller.state
        assert state.position == 4 and state.snapshot.tensor("x").values == (3.0, 3.0, 3.0)
        assert engine.position == len(codes) and engine.pid == pid   # nothing was replayed
        assert controller.submit("w = x * 1") is None
        assert controller.wait_idle(60_000)
        state = controller.state
        assert state.position == 5 and state.last.error is None
        assert state.snapshot.tensor("w").values == (3.0, 3.0, 3.0) and engine.position == 5
        controller.run_to_end()
        assert controller.wait_idle(60_000)
        assert controller.state.snapshot.tensor("x").values == (5.0, 5.0, 5.0)
        assert engine.pid == pid and engine.restarts == restarts
    finally:
        controller.shutdown()


TRAINING = ["import torch.nn as nn", "import torch.optim as optim", "model = nn.Linear(3, 2)",
            "opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)", "x = torch.randn(4, 3)"] + [
    "opt.zero_grad()", "loss = model(x).pow(2).mean()", "loss.backward()", "opt.step()"] * 3


def _plain_torch(codes: list[str]) -> dict:
    """The namespace plain torch holds after ``codes``, seeded as a TensorLab session is."""
    import torch

    from tensorlab.core.session.session import Session

    torch.manual_seed(Session().seed)
    namespace: dict = {"torch": torch}
    for code in codes:
        exec(code, namespace)  # noqa: S102 - the test's own statements, the plain-torch oracle
    return namespace


def _wait_until(qtbot, condition, timeout=60_000) -> None:
    qtbot.waitUntil(condition, timeout=timeout)


def test_going_back_rebuilds_the_live_state_in_the_background_and_the_next_line_reads_it(qtbot):
    """After ← settles the worker replays to the position by itself, busy while it runs, nothing shown changing;
    the line typed next then runs at once on that state, which is plain torch's after the same steps."""
    controller = LabController()
    controller.prepare_after_ms = 0   # at once once idle (the window waits a moment)
    busy: list[bool] = []
    controller.busyChanged.connect(busy.append)
    try:
        controller.load_lesson(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER) for c in TRAINING])
        controller.run_to_end()
        assert controller.wait_idle(60_000)
        _wait_until(qtbot, lambda: not controller.busy and not controller.away)   # nothing to rebuild
        engine = controller._worker.player.engine
        controller.go_to(11)
        shown = controller.state
        assert shown.position == 11 and shown.away and controller.away
        busy.clear()
        # The go_to job, then the background replay: busy while it runs, and the worker at the position after it.
        _wait_until(qtbot, lambda: not controller.busy and engine.position == 11 and not controller.away)
        assert True in busy and busy[-1] is False
        assert controller._worker.player.in_step
        # Nothing shown changed: the same results, the same snapshot.
        assert controller.state.results == shown.results and controller.state.snapshot is shown.snapshot
        assert controller.submit("w = model.weight * 1") is None
        assert controller.wait_idle(60_000)
        state = controller.state
        plain = _plain_torch(TRAINING[:11] + ["w = model.weight * 1"])
        assert state.position == 12 and state.last.error is None
        assert state.snapshot.tensor("w").values == tuple(tuple(r) for r in plain["w"].tolist())
        assert state.snapshot.tensor("model.weight").values == tuple(tuple(r) for r in plain["model"].weight.tolist())
    finally:
        controller.shutdown()


def _back_and_preparing(controller: LabController, position: int) -> None:
    """The TRAINING program run to its end, then back at ``position`` with the background replay running
    (asked for at once; the timer that would ask for it by itself held off)."""
    controller.prepare_after_ms = 0
    controller.load_lesson(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER) for c in TRAINING])
    controller.run_to_end()
    assert controller.wait_idle(60_000)
    controller.prepare_after_ms = 60_000
    controller.go_to(position)
    assert controller.wait_idle(60_000)
    controller.prepare()
    assert controller.preparing


def test_stepping_on_while_the_background_replay_runs_stops_it_and_nothing_is_lost(qtbot):
    """→ during the background replay stops it (the learner does not wait for it); the state after is torch's,
    and the line typed after it runs on the right state (the replay goes on where it stopped)."""
    controller = LabController()
    try:
        _back_and_preparing(controller, 9)                  # the replay starts...
        controller.step_forward()                           # ... and the learner steps on at once
        controller.step_forward()
        _wait_until(qtbot, lambda: not controller.busy and controller.state.position == 11
                    and controller._worker.player.in_step)
        assert controller.submit("w = model.weight * 1") is None
        assert controller.wait_idle(60_000)
        state = controller.state
        plain = _plain_torch(TRAINING[:11] + ["w = model.weight * 1"])
        assert state.position == 12 and state.last.error is None
        assert state.snapshot.tensor("w").values == tuple(tuple(r) for r in plain["w"].tolist())
        # Every result shown is the one torch's steps give (the steps after the replay ran on the live state).
        assert [r.code for r in state.results] == TRAINING[:11] + ["w = model.weight * 1"]
        assert all(r.error is None for r in state.results)
    finally:
        controller.shutdown()


def test_esc_stops_the_background_replay_and_it_is_not_asked_again_until_the_next_move(qtbot):
    controller = LabController()
    try:
        _back_and_preparing(controller, 8)
        controller.prepare_after_ms = 0   # were it asked again, at once
        controller.cancel()
        _wait_until(qtbot, lambda: not controller.busy)
        qtbot.wait(100)
        assert not controller.busy and controller.state.position == 8   # not started again by itself
        shown = controller.state
        assert controller.submit("w = model.weight * 1") is None   # the line rebuilds what it needs first
        assert controller.wait_idle(60_000)
        plain = _plain_torch(TRAINING[:8] + ["w = model.weight * 1"])
        assert controller.state.results[:8] == shown.results
        assert controller.state.snapshot.tensor("w").values == tuple(tuple(r) for r in plain["w"].tolist())
    finally:
        controller.shutdown()

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

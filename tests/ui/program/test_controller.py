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

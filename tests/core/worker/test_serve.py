"""The worker's serve loop, run in this process: what the window's side keeps is counted in the budget."""

from __future__ import annotations

from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.core.worker.serve import _Server


class _Flag:
    value = 0


def _server(budget: int) -> _Server:
    return _Server(None, _Flag(), "cpu", DEFAULT_LIMITS.with_memory(budget))


def test_the_guard_counts_the_history_the_window_keeps_with_its_own():
    server = _server(64 * 1024**2)
    server.run("x = torch.zeros(10000)", (), outside=12345)
    assert server.session.guard.outside == server.history.held + 12345
    server.restore(["x = torch.zeros(10000)"], None, outside=777)
    assert server.session.guard.outside == server.history.held + 777


def test_a_step_that_fits_alone_is_refused_when_the_windows_history_fills_the_budget():
    budget = 64 * 1024**2
    server = _server(budget)
    result = server.run("x = torch.zeros(1000)", ())
    assert result.error is None
    fits = "y = torch.zeros(2_000_000)"   # 8 MB, well within the budget alone
    refused = server.run(fits, (), outside=budget - 4 * 1024**2)
    assert refused.error is not None and refused.error.type == "LimitError"
    assert server.run(fits, (), outside=0).error is None


def test_a_negative_figure_counts_nothing():
    server = _server(64 * 1024**2)
    server.run("x = torch.zeros(10)", (), outside=-5)
    assert server.session.guard.outside == server.history.held

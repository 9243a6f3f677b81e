"""backward()'s memory estimate is a tight upper bound of what torch allocates (peak resident memory)."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest
import torch

from tensorlab.core.sandbox.estimates import backward_bytes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the peak from /proc")


def _status(field: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith(field))


def _peak_of_backward(loss: torch.Tensor) -> int:
    """Bytes over the resident memory before ``loss.backward()`` at its peak (VmHWM after resetting it)."""
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # resets the peak to the current resident size
    before = _status("VmRSS:")
    loss.backward()
    return _status("VmHWM:") - before


_CASES: dict[str, Callable[[], torch.Tensor]] = {
    "one gradient of a full sum": lambda: torch.ones(15_000_000, requires_grad=True).sum(),
    "x * x": lambda: (lambda x: (x * x).sum())(torch.ones(15_000_000, requires_grad=True)),
    "broadcast outer product": lambda: (torch.ones(3000, 1, requires_grad=True)
                                        * torch.ones(1, 3000, requires_grad=True)).sum(),
    "Linear(3000, 3000)": lambda: torch.nn.Linear(3000, 3000)(torch.ones(1, 3000)).sum(),
    "two Linear and a ReLU": lambda: torch.nn.Sequential(
        torch.nn.Linear(2000, 2000), torch.nn.ReLU(), torch.nn.Linear(2000, 2000))(torch.ones(64, 2000)).pow(2).mean(),
}


@pytest.mark.parametrize("case", list(_CASES))
def test_the_estimate_is_between_what_torch_allocates_and_half_as_much_again(case: str) -> None:
    warm = torch.ones(3, requires_grad=True)
    (warm * warm).sum().backward()  # the engine's own one-time start-up is not the step's
    loss = _CASES[case]()
    estimate = backward_bytes(loss)
    real = _peak_of_backward(loss)
    assert real <= estimate <= 1.5 * real, (estimate, real)


def test_a_second_backward_into_existing_gradients_needs_no_new_gradient_memory() -> None:
    x = torch.ones(15_000_000, requires_grad=True)
    x.sum().backward()
    # The gradient exists: the next full sum's gradient is added into it in place.
    assert backward_bytes(x.sum()) < x.numel() * x.element_size() // 4


@pytest.mark.parametrize("make", ["optim.Adam(m.parameters())", "optim.SGD(m.parameters(), lr=0.1, momentum=0.9)"])
def test_an_optimizers_first_step_is_estimated_between_what_torch_allocates_and_half_as_much_again(make: str) -> None:
    from tensorlab.core.session.session import Session

    session = Session()
    for line in ["import torch.nn as nn", "import torch.optim as optim", "m = nn.Linear(3000, 3000)",
                 f"o = {make}", "m(torch.ones(1, 3000)).sum().backward()"]:
        assert session.run(line).error is None
    reserved: list[int] = []
    guard = session.guard
    original = guard.reserve
    guard.reserve = lambda nbytes, what: (reserved.append(nbytes), original(nbytes, what))[1]  # type: ignore[method-assign]
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        before = _status("VmRSS:")
        assert session.run("o.step()").error is None
        real = _status("VmHWM:") - before
    finally:
        guard.reserve = original  # type: ignore[method-assign]
    estimate = max(reserved)
    assert real <= estimate <= 1.5 * real, (estimate, real)

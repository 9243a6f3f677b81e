"""Issue #16, item 4: the map keeps a strip's parts across steps (its heading, cells, bands and gradients,
each redrawn only when its own look changed) and the Values panel paints big heat maps from NumPy. What is
drawn must still be torch's values at every step, forward and back: compared here with the same training
steps run in plain torch (the worker seeds torch with 0, so the same statements give the same numbers)."""

from __future__ import annotations

import math

import pytest
import torch
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsPixmapItem

from tensorlab.ui.panels.storage_strips import MAX_CELLS
from tensorlab.ui.widgets.array_plot import viridis
from tensorlab.ui.widgets.palette import format_value
from tensorlab.ui.widgets.scene_view import TextBatch
from tests.ui.conftest import idle
from tests.ui.support import TRAINING_PROGRAM, open_lesson, run_line

PROGRAM = TRAINING_PROGRAM
PARAMETERS = ["model[0].weight", "model[0].bias", "model[2].weight", "model[2].bias"]


def _plain_torch() -> list[dict[str, tuple[list[float], list[float] | None, int]]]:
    """After each statement of PROGRAM in plain torch: each parameter's values, gradient and version."""
    torch.manual_seed(0)
    namespace: dict[str, object] = {"torch": torch}
    states = []
    for code in PROGRAM:
        exec(code, namespace)  # noqa: S102 - the test's own program, the reference run
        state = {}
        if "model" in namespace:
            for name in PARAMETERS:
                tensor = eval(name, namespace)  # noqa: S307 - the test's own names
                grad = tensor.grad
                state[name] = (tensor.detach().flatten().tolist(),
                               None if grad is None else grad.flatten().tolist(), tensor._version)
        states.append(state)
    return states


def _cell_texts(view, rects) -> list[str]:
    """The value written inside each of ``rects`` on the map (its index sits above the cell, not inside; a
    "+N more" mark over a cell at the viewport's edge is not the cell's own text)."""
    boxes = [(text, box) for item in view.scene().items() if isinstance(item, TextBatch)
             for box, text in ((item.sceneTransform().mapRect(b), t) for b, t, *_ in item.entries)]
    texts = []
    for rect in rects:
        inside = [text for text, box in boxes if rect.contains(box.center())]
        assert len(inside) == 1, (rect, inside)
        texts.append(inside[0])
    return texts


def _check_map(window, expected: dict[str, tuple[list[float], list[float] | None, int]]) -> None:
    view = window.storage_map
    digits = view._digits
    for name, (values, grad, version) in expected.items():
        strip = next(s for s in view.strips if any(b.name == name for b in s.bands))
        x0, cell_w, top, cell_h = view.cell_rows[strip.storage.id]
        shown = min(len(values), MAX_CELLS)
        rects = [QRectF(x0 + i * cell_w, top, cell_w, cell_h) for i in range(shown)]
        assert _cell_texts(view, rects) == [format_value(v, digits) for v in values[:shown]], name
        grad_rects = view.grad_cells(name)
        if grad is None:
            assert grad_rects == [], name
        else:
            assert _cell_texts(view, grad_rects) == [format_value(v, digits) for v in grad[:MAX_CELLS]], name
        assert f"version {version}" in view.texts(), (name, version)


@pytest.fixture
def steps():
    return _plain_torch()


def test_after_every_training_step_forward_and_back_the_map_draws_torchs_values(window, qtbot, steps):
    open_lesson(window, qtbot, "scratchpad")
    for number, code in enumerate(PROGRAM):
        run_line(window, qtbot, code)
        assert window.controller.state.last.ok, (code, window.controller.state.last.error)
        if steps[number]:
            _check_map(window, steps[number])
    end = window.controller.state.position
    assert end == len(PROGRAM)
    for back in range(1, 6):   # ← shows the results recorded for each earlier step, and → again
        window.controller.go_to(end - back)
        idle(qtbot, window)
        _check_map(window, steps[end - back - 1])
    window.controller.go_to(end)
    idle(qtbot, window)
    _check_map(window, steps[-1])


def test_a_big_heat_map_is_painted_in_the_colours_of_torchs_values(window, qtbot):
    """32x32 weights after an optimizer step (one picture, from NumPy): each cell's centre is the viridis
    colour of torch's value there, and it changes with the step."""
    program = ["import torch.nn as nn", "model = nn.Linear(32, 32)", "x = torch.randn(4, 32)",
               "loss = model(x).sum()", "loss.backward()", "import torch.optim as optim",
               "opt = optim.SGD(model.parameters(), lr=0.5)", "opt.step()"]
    torch.manual_seed(0)
    namespace: dict[str, object] = {"torch": torch}
    open_lesson(window, qtbot, "scratchpad")
    for code in program:
        exec(code, namespace)  # noqa: S102 - the reference run
        run_line(window, qtbot, code)
        assert window.controller.state.last.ok, code
        if code not in ("model = nn.Linear(32, 32)", "opt.step()"):
            continue
        window.table.select_name("model.weight")
        window.show_panel("valuesDock")
        qtbot.waitUntil(lambda: window.values_view.info is not None
                        and window.values_view.info.name == "model.weight")
        plot = window.values_view.values_plot.plot
        pictures = [item for item in plot.scene().items() if isinstance(item, QGraphicsPixmapItem)]
        assert len(pictures) == 1
        weight = namespace["model"].weight.detach().tolist()   # type: ignore[attr-defined]
        low, high = min(map(min, weight)), max(map(max, weight))
        box = pictures[0].sceneBoundingRect()
        image = pictures[0].pixmap().toImage()
        for r, c in [(0, 0), (3, 17), (16, 16), (31, 0), (31, 31)]:
            x = int((c + 0.5) * image.width() / 32)
            y = int((r + 0.5) * image.height() / 32)
            t = (weight[r][c] - low) / (high - low)
            assert math.isfinite(t) and box.width() > 0
            assert QColor(image.pixel(x, y)).rgb() == viridis(t).rgb(), (code, r, c)


def test_a_meta_tensor_is_drawn_as_a_size_without_data(window, qtbot):
    """A tensor on the meta device (to-and-cpu-on-a-leaf) has a shape and a dtype and no data: the map and the
    Values panel say so, never that its cells lie beyond those shown or that it has over 10,000 elements."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem

    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, 'm = torch.ones(3, device="meta")')
    assert window.controller.state.last.ok
    texts = [item.text() for item in window.storage_map.scene().items() if isinstance(item, QGraphicsSimpleTextItem)]
    assert "(the meta device: a size, no data)" in texts
    # the strip's heading gives the size a meta storage stands for, and says that nothing holds it (review r18m)
    assert any("12 bytes, not allocated" in text for text in texts), texts
    assert not any("more cells" in text or "beyond those shown" in text for text in texts), texts
    window.table.select_name("m")
    window.show_panel("valuesDock")
    qtbot.waitUntil(lambda: window.values_view.info is not None and window.values_view.info.name == "m")
    plot = window.values_view.values_plot
    assert not plot.plot_shown and "no data" in plot.note.text() and "10,000" not in plot.note.text()


def _plot_numbers(plot) -> list[str]:
    """The numbers written on a Values plot's cells (its index texts are whole numbers of another colour)."""
    return sorted(plot.plot.value_texts) if plot.plot_shown else []


def test_the_values_panel_shows_torchs_values_and_gradient_after_every_training_step_forward_and_back(
        window, qtbot, steps):
    """The Values panel keeps what it drew while a tensor's values do not change (a step that changes only the
    gradient, going back and forth): what it shows is still torch's values and gradient at every step."""
    open_lesson(window, qtbot, "scratchpad")
    window.show_panel("valuesDock")
    name = "model[0].weight"

    def check(expected: dict[str, tuple[list[float], list[float] | None, int]]) -> None:
        window.table.select_name(name)
        qtbot.waitUntil(lambda: window.values_view.info is not None and window.values_view.info.name == name)
        values, grad, _ = expected[name]
        view = window.values_view
        assert view.values_plot.plot_shown
        assert sorted(view.values_plot.plot.value_texts) == sorted(format_value(v) for v in values)
        assert view.values_plot.labels == [format_value(v) for v in values]
        if grad is None:
            assert not view.grad_plot.plot_shown and "None" in view.grad_plot.note.text()
        else:
            assert view.grad_plot.plot_shown
            assert view.grad_plot.labels == [format_value(v) for v in grad]
            assert sorted(view.grad_plot.plot.value_texts) == sorted(format_value(v) for v in grad)

    for number, code in enumerate(PROGRAM):
        run_line(window, qtbot, code)
        if steps[number]:
            check(steps[number])
    end = window.controller.state.position
    for position in (end - 1, end, end - 1, end - 2, end - 3, end):
        window.controller.go_to(position)
        idle(qtbot, window)
        check(steps[position - 1])


def test_equal_values_but_a_zero_of_the_other_sign_are_drawn_again(qtbot):
    """``-0.0 == 0.0``, but its number reads "-0.0": values equal as numbers are not taken for the ones drawn."""
    from tensorlab.ui.panels.values_view import _Plot

    plot = _Plot("valuesPlot")
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.show()
    plot.show_array("values of a", (0.0, 1.0), (2,), "#1e88e5")
    assert plot.plot.value_texts == ["0.0", "1.0"]
    plot.show_array("values of a", (-0.0, 1.0), (2,), "#1e88e5")
    assert plot.plot.value_texts == ["-0.0", "1.0"] and plot.labels == ["-0.0", "1.0"]
    plot.clear_array()
    plot.show_note("a note")   # (as a gradient of None is shown)
    again = tuple([-0.0, 1.0])
    plot.show_array("values of a", again, (2,), "#1e88e5")   # equal, a new object: the drawn ones again
    assert plot.plot_shown and plot.labels == ["-0.0", "1.0"]
    plot.show_array("values of a", (float("nan"), 1.0), (2,), "#1e88e5")
    assert plot.labels == [format_value(float("nan")), "1.0"]

"""The storage map marks the write of the step that changed a saved tensor a failing backward() needed (#21 item 4),
with a mark of its own (not the last step's amber) and a text label, on screen at 1024x768 in both modes; the
graph names the changed saved tensor and its versions (#17)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tensorlab.core.protocol.snapshot import SavedStatus
from tensorlab.core.session.session import Session
from tensorlab.ui.panels.graph_view import GraphView
from tensorlab.ui.panels.storage_strips import culprit_marks
from tensorlab.ui.widgets.i18n import current_language, set_language
from tensorlab.ui.widgets.palette import CHANGED, CULPRIT
from tests.ui.support import fresh_window, open_lesson, run_line


@pytest.fixture(autouse=True)
def back_to_english():
    """A window made in Korean leaves the translator in Korean: every test here ends in English."""
    yield
    set_language("en")


VIEW = ["x = torch.ones(4, requires_grad=True)", "w = torch.ones(4, requires_grad=True)", "p = x * 2",
        "y = p * w", "v = p[1:3]", "v.mul_(2)", "y.sum().backward()"]


def _results(codes):
    session = Session()
    return [session.run(code) for code in codes]


def test_the_marks_cells_are_the_cells_the_culprit_step_wrote_compared_with_torch():
    results = _results(VIEW)
    marks = culprit_marks(results)
    storage = results[-1].snapshot.tensor("p").storage
    assert set(marks) == {storage}
    assert marks[storage].steps == (6,)
    # In plain torch, `v.mul_(2)` on `p[1:3]` writes p's elements 1 and 2.
    assert marks[storage].cells == frozenset({1, 2})


def test_the_step_that_made_and_changed_the_tensor_marks_the_tensors_cells():
    results = _results(["import torch.nn as nn", "net = nn.Sequential(nn.Linear(3, 2), nn.Sigmoid(), "
                        "nn.ReLU(inplace=True))", "x = torch.ones(1, 3)", "out = net(x)", "out.sum().backward()"])
    marks = culprit_marks(results)
    storage = results[-1].snapshot.tensor("out").storage
    assert marks[storage].steps == (4,) and marks[storage].cells == frozenset({0, 1})


def test_no_mark_when_the_step_cannot_be_told_or_the_backward_did_not_fail():
    assert culprit_marks(_results(["x = torch.ones(3, requires_grad=True)",
                                   "y = (x + 1).sigmoid().mul_(2).sum()", "y.backward()"])) == {}
    assert culprit_marks(_results(VIEW[:-1] + ["p.sum()"])) == {}


@pytest.mark.parametrize(("projector", "language"), [(False, None), (True, None), (True, "ko")])
def test_the_mark_and_its_label_are_on_screen_at_1024x768(qtbot, settings, projector, language):
    window = fresh_window(qtbot, settings, (1024, 768), projector, language=language)
    open_lesson(window, qtbot, "scratchpad")
    for code in VIEW:
        run_line(window, qtbot, code)
    qtbot.wait(30)
    QApplication.processEvents()
    view = window.storage_map
    assert window.controller.state.last.error is not None
    items = view.culprit_items()
    assert items and all(item.brush().color() == CULPRIT for item in items)
    assert all(item.brush().color() != CHANGED for item in items)
    viewport = view.viewport().rect()
    for cell in view.culprit_cells():
        assert viewport.contains(view.mapFromScene(cell).boundingRect()), cell
    label = "6단계에서 바뀜" if language == "ko" else "changed by step 6, after autograd saved it"
    # Its words may go on two lines where the view is narrow (pinned, it never scrolls into view).
    boxes = [box for text, _, box in view.text_boxes(visible_only=True) if label in " ".join(text.split())]
    assert boxes and viewport.contains(view.mapFromScene(boxes[0]).boundingRect())
    window.close()


def test_the_graph_names_the_changed_saved_tensor_and_its_versions(qtbot):
    session = Session()
    for code in ["x = torch.ones(3, requires_grad=True)", "p = x + 1", "y = p * x", "p.add_(1)"]:
        session.run(code)
    info = session.take_snapshot({"y"}).tensor("y")
    changed = [s for node in info.graph.nodes for s in node.saved if s.status is SavedStatus.CHANGED]
    assert [(s.who, s.saved_version, s.version) for s in changed] == [("p", 0, 1)]
    language = current_language()
    try:
        for lang, expected in (("en", "saved self: p, changed in place\nsaved at version 0, now at version 1"),
                               ("ko", "저장된 텐서(self): p, 인플레이스 연산으로 바뀜\n저장할 때 버전 0, 지금 버전 1")):
            set_language(lang)
            view = GraphView()
            qtbot.addWidget(view)
            view.show_tensor(info)
            assert expected in " ".join(view.texts())
    finally:
        set_language(language)


def test_a_changed_saved_view_without_a_name_is_named_by_the_memory_it_shares(qtbot):
    """A module's `weight.t()` changed by the optimizer: the graph says whose memory it is, and both versions."""
    session = Session()
    for code in ["import torch.nn as nn", "import torch.optim as optim",
                 "net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))",
                 "opt = optim.SGD(net.parameters(), lr=0.1)", "loss = net(torch.ones(2, 3)).sum()",
                 "loss.backward(retain_graph=True)", "opt.step()"]:
        session.run(code)
    info = session.take_snapshot({"loss"}).tensor("loss")
    changed = [s for node in info.graph.nodes for s in node.saved if s.status is SavedStatus.CHANGED]
    assert [(s.who, s.shares, s.shape) for s in changed] == [(None, ("net[2].weight",), (4, 1))]
    language = current_language()
    try:
        set_language("en")
        view = GraphView()
        qtbot.addWidget(view)
        view.show_tensor(info)
        text = " ".join(view.texts())
        saved, now = changed[0].saved_version, changed[0].version
        assert now == saved + 1
        assert ("a tensor over the memory of net[2].weight, changed in place\n"
                f"saved at version {saved}, now at version {now}") in text
    finally:
        set_language(language)


def test_an_optimizers_write_into_a_collapsed_modules_parameter_is_marked_on_screen(qtbot, settings):
    window = fresh_window(qtbot, settings, (1024, 768), projector=True)
    open_lesson(window, qtbot, "scratchpad")
    codes = ["import torch.nn as nn", "import torch.optim as optim",
             "net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))",
             "opt = optim.SGD(net.parameters(), lr=0.1)", "loss = net(torch.ones(2, 3)).sum()",
             "loss.backward(retain_graph=True)", "opt.step()"]
    for code in codes:
        run_line(window, qtbot, code)
    view = window.storage_map
    view.toggle_group("net")
    assert "net" in view.collapsed
    run_line(window, qtbot, "loss.backward()")
    qtbot.wait(30)
    QApplication.processEvents()
    assert "net" not in view.collapsed
    weight = window.controller.state.snapshot.tensor("net[2].weight").storage
    strip = next(s for s in view.strips if s.storage.id == weight)
    assert strip.culprit is not None and strip.culprit.steps == (7,)
    viewport = view.viewport().rect()
    cells = view.culprit_cells()
    assert cells and viewport.contains(view.mapFromScene(cells[0]).boundingRect())
    boxes = [box for text, _, box in view.text_boxes(visible_only=True)
             if text == "changed by step 7, after autograd saved it"]
    assert boxes and viewport.contains(view.mapFromScene(boxes[0]).boundingRect())
    window.close()


@pytest.mark.parametrize(("module", "header"), [("nn.Linear(2, 1, bias=False)", "▾ module online: 1 storage"),
                                                ("nn.Linear(2, 1)", "▾ module online: 2 storages")])
def test_a_modules_header_counts_its_storages_in_words_that_agree(qtbot, settings, module, header):
    """review r18ag 12: a module of one storage read "1 storages"."""
    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, "scratchpad")
    for code in ["import torch.nn as nn", f"online = {module}"]:
        run_line(window, qtbot, code)
    qtbot.wait(30)
    QApplication.processEvents()
    assert window.storage_map.group_headers()["online"] == header

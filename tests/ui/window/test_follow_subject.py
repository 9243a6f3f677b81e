"""Follow what the step was about across tensors (review r17 items 5 and 15, issue 17 Build 5).

A step that changes several tensors shows the one its question (or note) is about, and says which others it
changed ("+N more changed: …"); the same step shows the same tensor however it was reached (→, or --step N).
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from tensorlab.ui.window.offscreen import isolated_window
from tests.ui.conftest import idle
from tests.ui.support import fresh_window, go, open_lesson, run_line


def _settle(qtbot):
    qtbot.wait(30)
    QApplication.processEvents()


def _in_view(view, rect) -> bool:
    return view.viewport().rect().contains(view.mapFromScene(rect).boundingRect())


def _assert_in_its_own_row(window) -> None:
    """The "+N more changed" mark lies inside the map, in the row the map keeps under its strips' viewport: never
    over a cell, a band's label or a heading (review r17c findings 8, 12)."""
    view, mark = window.storage_map, window.changed_mark
    assert mark.isVisible() and mark.parent() is view
    viewport = view.viewport().geometry()   # in the map's coordinates, as the mark's geometry
    assert not mark.geometry().intersects(viewport), (mark.geometry(), viewport)
    assert view.rect().contains(mark.geometry()), (mark.geometry(), view.rect())
    assert mark.geometry().top() >= viewport.bottom()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_after_opt_step_the_map_says_the_other_changed_parameter_and_the_question_picks_net1(qtbot, settings,
                                                                                             size):
    window = fresh_window(qtbot, settings, size, projector=True)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    for position in range(1, 8):
        go(window, qtbot, position)
    mark = window.changed_mark
    go(window, qtbot, 8)   # opt.step(): both weights change in place
    _settle(qtbot)
    assert window.selected == "net[0].weight"
    assert mark.isVisible() and mark.names == ("net[1].weight",)
    assert "+1 more changed: net[1].weight" in mark.text()
    _assert_in_its_own_row(window)   # on the map, where the class looks, in a row of its own under the strips
    go(window, qtbot, 9)   # net(x).sum().backward(): its question is about net[1].weight.grad
    _settle(qtbot)
    assert window.selected == "net[1].weight"
    assert window.storage_map.selected == "net[1].weight"   # its bands outlined (the table is behind a tab)
    view = window.storage_map
    cells = view.grad_cells("net[1].weight")
    assert cells and all(_in_view(view, cell) for cell in cells), (cells, view.viewport().rect())
    if view.shows_whole("net[0].weight", gradient_only=True):   # what the step changed is in view: nothing to say
        assert not mark.isVisible()
    else:
        _assert_in_its_own_row(window)   # the mark covers none of them (nor anything else of the strips)
        assert mark.isVisible() and mark.names == ("net[0].weight",)
        # It names what changed: backward() wrote net[0].weight.grad, not net[0].weight (review r17c 8, 12).
        assert "+1 more changed: net[0].weight.grad" in mark.text(), mark.text()
        # A click on the mark selects the other tensor.
        from PySide6.QtCore import Qt

        qtbot.mouseClick(mark, Qt.MouseButton.LeftButton)
        _settle(qtbot)
        assert window.selected == "net[0].weight"
    # A step that changes one tensor only: no mark.
    go(window, qtbot, 10)   # opt.zero_grad(): both .grad dropped
    go(window, qtbot, 11)
    go(window, qtbot, 12)   # loss = net(x).sum(): one tensor made
    _settle(qtbot)
    assert window.selected == "loss" and not mark.isVisible()
    window.close()


def test_the_mark_is_in_the_windows_language_and_names_at_most_three(qtbot, settings):
    window = fresh_window(qtbot, settings, (1280, 720), language="ko")
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "import torch.nn as nn")
    run_line(window, qtbot, "net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 1))")
    run_line(window, qtbot, "net(torch.ones(1, 2)).sum().backward()")   # six parameters get a .grad
    _settle(qtbot)
    mark = window.changed_mark
    assert mark.isVisible() and len(mark.names) == 5
    text = mark.text()
    # At most three names, whole (as many as the map's width holds), the rest as 등; every one in the tooltip.
    assert "5개가 더 바뀌었습니다" in text and "등" in text and text.count(", ") <= 2, text
    assert not text.endswith("…") or "등" in text
    assert all(name in mark.toolTip() for name in mark.names), mark.toolTip()
    window.close()


@pytest.mark.parametrize("lesson", ["detach-shares-memory", "what-step-and-zero-grad-do"])
def test_stepping_to_a_step_and_opening_at_it_select_the_same_tensor(qtbot, settings, lesson):
    # Review r17 item 15: offscreen --step 6 selected total, → six times selected x.
    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, lesson)
    total = len(window.controller.state.program)
    stepped = []
    for position in range(1, total + 1):
        go(window, qtbot, position)
        stepped.append(window.selected)
    window.close()
    with isolated_window(lesson=lesson, size=(1280, 720)) as other:   # what `--step N` renders
        qtbot.addWidget(other)
        opened = []
        for position in range(1, total + 1):
            other.controller.go_to(0)
            idle(qtbot, other)
            other.controller.go_to(position, past_crashes=True)
            idle(qtbot, other)
            opened.append(other.selected)
    assert stepped == opened


def test_after_zero_grad_the_mark_names_the_grad_that_went_to_none_not_the_weight(qtbot, settings):
    # Review r17o finding 3: "+1 more changed: net[0].weight" after opt.zero_grad(), whose values did not change.
    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    for position in range(1, 11):
        go(window, qtbot, position)   # 10: opt.zero_grad()
    _settle(qtbot)
    mark = window.changed_mark
    state = window.controller.state
    assert mark.isVisible() and mark.names, mark.names
    for name in mark.names:   # torch: the weight kept its values and version; only its .grad is None now
        info, old = state.snapshot.tensor(name), state.previous_snapshot.tensor(name)
        assert info.grad is None and old.grad is not None and info.values == old.values
    text = mark.text()
    assert f"{mark.names[0]}.grad (now None)" in text, text
    assert f"{mark.names[0]}," not in text and not text.endswith(mark.names[0]), text
    window.close()


@pytest.mark.parametrize("size,projector", [((1024, 768), False), ((1024, 768), True)])
def test_the_mark_names_only_what_the_map_does_not_show_whole(qtbot, settings, size, projector):
    # Review r17p item 6: "+1 more changed: net[1].weight" at 1024x768 while net[1].weight was whole in view.
    window = fresh_window(qtbot, settings, size, projector=projector)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    for position in range(1, 9):
        go(window, qtbot, position)   # 8: opt.step() changes both weights
    _settle(qtbot)
    view, mark = window.storage_map, window.changed_mark
    assert view.band_rect("net[1].weight") is not None
    if view.shows_whole("net[1].weight"):
        assert not mark.isVisible() and mark.names == ()
    else:
        assert mark.isVisible() and mark.names == ("net[1].weight",)
        # Scrolled into view by the learner: the mark has nothing left to say.
        band = view.band_rect("net[1].weight")
        view.ensureVisible(band.united(view.grad_cells("net[1].weight")[-1]), 0, 0)
        _settle(qtbot)
        if view.shows_whole("net[1].weight"):
            assert not mark.isVisible()
    window.close()


def test_a_gradient_only_change_in_view_is_not_named_and_a_long_mark_is_cut_whole(qtbot, settings):
    # helper-145 items 1 and 4: at 1920x1080 projector, backward() of step 9 changed net[0].weight.grad, whole in
    # view, and the mark named it; at 1280x720 projector the mark's names ran past the map's edge, cut mid-name.
    window = fresh_window(qtbot, settings, (1920, 1080), projector=True)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    for position in range(1, 10):
        go(window, qtbot, position)
    _settle(qtbot)
    view, mark = window.storage_map, window.changed_mark
    if view.shows_whole("net[0].weight", gradient_only=True):
        assert "net[0].weight" not in mark.names, mark.names
    window.resize(1280, 720)
    window.apply_default_layout()
    open_lesson(window, qtbot, "freezing-no-grad-and-eval")
    for position in range(1, 13):
        go(window, qtbot, position)
    _settle(qtbot)
    if mark.isVisible():
        room = view.viewport().width()
        assert mark.fontMetrics().horizontalAdvance(mark.text()) <= room, (mark.text(), room)
        assert mark.text().endswith("…") == bool(mark.toolTip())
    window.close()


def test_the_followed_tensor_scrolled_out_of_view_is_named_and_back_in_view_is_not(qtbot, settings):
    # Review helper-145, item 2: the learner scrolled net[0].weight, which opt.step() changed and the map had
    # scrolled to, out of view; the mark named only net[1].weight.
    window = fresh_window(qtbot, settings, (1024, 768), projector=True)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    for position in range(1, 9):
        go(window, qtbot, position)   # 8: opt.step() changes both weights; the map follows net[0].weight
    _settle(qtbot)
    view, mark = window.storage_map, window.changed_mark
    assert window.selected == "net[0].weight" and view.shows_part("net[0].weight")
    assert "net[0].weight" not in mark.names
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0   # (the map is taller than its viewport here)
    for value in (bar.maximum(), bar.minimum()):
        bar.setValue(value)
        _settle(qtbot)
        if not view.shows_part("net[0].weight"):
            break
    assert not view.shows_part("net[0].weight")
    assert mark.isVisible() and mark.names[0] == "net[0].weight", mark.names
    assert "net[0].weight" in mark.text()
    view.ensureVisible(view.band_rect("net[0].weight"), 0, 0)   # scrolled back: it is said no more
    _settle(qtbot)
    assert "net[0].weight" not in mark.names
    window.close()


def test_a_step_that_prints_one_tensor_selects_it(qtbot, settings):
    # Review helper-158, D5: after `print(x.grad)` (detach-shares-memory) the table selected total, and the Values
    # panel said "total.grad: None" beside the x.grad the step printed. The tensor it read is selected now.
    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, "detach-shares-memory")
    program = window.controller.state.program
    position = next(i for i, step in enumerate(program, start=1) if step.code == "print(x.grad)")
    go(window, qtbot, position)
    assert window.selected == "x"
    qtbot.waitUntil(lambda: window.values_view.info is not None and window.values_view.info.name == "x")
    window.close()


def test_after_zero_grad_the_values_panel_does_not_say_no_gradient_was_ever_written(qtbot, settings):
    # Review helper-158 (D24): after opt.zero_grad() the Values panel said ".grad is None: backward() has not
    # written a gradient yet", though two backward() calls had written it and zero_grad() set it to None.
    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    program = window.controller.state.program
    position = next(i for i, step in enumerate(program, start=1) if step.code.strip() == "opt.zero_grad()")
    go(window, qtbot, position)
    window.table.select_name("net[1].weight")
    qtbot.waitUntil(lambda: window.values_view.info is not None and window.values_view.info.name == "net[1].weight")
    assert window.values_view.info.grad is None
    note = window.values_view.grad_plot.note.text()
    assert "has not written a gradient yet" not in note and "zero_grad()" in note, note
    window.close()

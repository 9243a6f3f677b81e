"""Panels follow the step (issue 6, item 2): map, code, table and values; stable storage labels."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

from tensorlab.core.lessons.lesson import builtin_lessons
from tests.ui.conftest import idle
from tests.ui.support import go, open_lesson, run_line


def _visible_scene_rect(view):
    return view.mapToScene(view.viewport().rect()).boundingRect()


def test_the_map_scrolls_to_a_strip_the_step_changed_below_the_fold(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "x = torch.ones(3, requires_grad=True)")
    run_line(window, qtbot, "w = x.sigmoid()")
    for name in ("p", "q", "r", "s", "t"):
        run_line(window, qtbot, f"{name} = torch.zeros(4)")
    run_line(window, qtbot, "a = w.detach()")
    view = window.storage_map
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())   # look at the bottom
    run_line(window, qtbot, "a[0] = 5")
    storage = window.controller.state.snapshot.tensor("a").storage
    rect = view.strip_rects[storage]
    assert view.followed == (storage,)
    assert rect.intersects(_visible_scene_rect(view))
    assert view.verticalScrollBar().maximum() > 0    # the map was taller than its view: it scrolled
    # And the strip flashes (an overlay that fades out).
    assert view._flash is not None


def test_the_current_code_line_stays_in_view(window, qtbot):
    window.resize(1280, 720)
    open_lesson(window, qtbot, "clone-keeps-the-graph")
    for position in range(1, 13):
        qtbot.keyClick(window, Qt.Key.Key_Right)
        idle(qtbot, window)
        code = window.code_view
        assert code.viewport().rect().contains(code.line_rect(position - 1)), position


def test_the_table_and_values_follow_the_tensor_the_step_assigned(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "x = torch.ones(3)")
    run_line(window, qtbot, "y = x * 2")
    window.table.select_name("x")
    assert window.values_view.info.name == "x"
    run_line(window, qtbot, "z = x + 1")
    assert window.table.selected == "z" and window.values_view.info.name == "z"
    window.table.select_name("x")
    run_line(window, qtbot, "y[1] = 7")           # an in-place change: follow the tensor it changed
    assert window.table.selected == "y" and window.values_view.info.name == "y"
    go(window, qtbot, 2)                          # stepping back keeps the selection where it can
    assert window.table.selected == "y"


def test_a_step_that_binds_a_container_or_a_module_is_followed_at_its_first_row(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "x = torch.ones(4, 3)")
    run_line(window, qtbot, "y = x * 2")
    run_line(window, qtbot, "parts = x.unbind()")
    assert window.selected == "parts[0]"
    assert window.table.selected == "parts[0]" and window.values_view.info.name == "parts[0]"
    assert window.storage_map.selected == "parts[0]"     # its band outlined on x's strip (a view: no new memory)
    run_line(window, qtbot, "import torch.nn as nn")
    run_line(window, qtbot, "net = nn.Sequential(nn.Linear(3, 2))")
    assert window.selected == "net[0].weight" and window.values_view.info.name == "net[0].weight"
    run_line(window, qtbot, "sd = net.state_dict()")
    assert window.selected == "sd['0.weight']"


def test_a_storage_keeps_its_label_at_every_step_of_every_lesson_and_the_map_shows_it(window, qtbot):
    for lesson in builtin_lessons():
        open_lesson(window, qtbot, lesson.id)
        labels: dict[int, str] = {}      # tensor object (while it lives) -> storage label
        for position in range(1, len(lesson.steps) + 1):
            qtbot.keyClick(window, Qt.Key.Key_Right)
            idle(qtbot, window)
            snapshot = window.controller.state.snapshot
            texts = " ".join(window.storage_map.texts())
            now = {info.object_id: info.storage for info in snapshot.tensors if info.storage is not None}
            # `x.data = z` gives the same tensor object other memory (z's): only then may its label change.
            moved = set(re.findall(r"^\s*(\w+)\.data\s*=", lesson.steps[position - 1].code, re.M))
            names = {info.object_id: info.name for info in snapshot.tensors}
            for obj, label in now.items():
                assert labels.get(obj, label) == label or names[obj] in moved, (lesson.id, position, label)
                assert f"{label}  ·" in texts
            labels = now
            model = window.table.table_model
            # keyed by the row's tensor (a second name of one object reads `b is a` in its name cell)
            shown = {model.snapshot.tensors[r].name: model.data(model.index(r, 8)) for r in range(model.rowCount())}
            assert shown == {t.name: t.storage or "-" for t in snapshot.tensors}


def test_detach_and_the_version_counter_keeps_s0_for_the_memory_c_still_views(window, qtbot):
    open_lesson(window, qtbot, "detach-and-the-version-counter")
    go(window, qtbot, 5)
    assert "shared by a, c" in " ".join(window.storage_map.texts())
    s0 = window.controller.state.snapshot.tensor("c").storage
    go(window, qtbot, 6)              # a new `a`: the old memory (still viewed by c) keeps its label
    snapshot = window.controller.state.snapshot
    assert snapshot.tensor("c").storage == s0
    assert snapshot.tensor("a").storage != s0


def test_clicking_a_tensors_band_on_the_map_selects_it_and_its_cells_say_which_elements(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "x = torch.arange(6.)")
    run_line(window, qtbot, "e = x[::2]")
    run_line(window, qtbot, "y = torch.zeros(2)")
    assert window.table.selected == "y"
    view = window.storage_map
    band = next(item for item in view.band_items() if item.data(0) == "e" and "elements 1 of e" in item.toolTip())
    assert band.sceneBoundingRect().left() > view.cell_rect.left() + view.cell_rect.width()   # over cell 2
    view.ensureVisible(band.sceneBoundingRect())
    center = view.mapFromScene(band.sceneBoundingRect().center())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=center)
    qtbot.waitUntil(lambda: window.table.selected == "e", timeout=5000)


def test_after_projector_mode_or_zoom_the_map_still_shows_what_the_step_changed(window, qtbot):
    window.resize(1024, 768)
    open_lesson(window, qtbot, "scratchpad")
    for name in ("a", "b", "c", "d", "e"):
        run_line(window, qtbot, f"{name} = torch.ones(5)")
    run_line(window, qtbot, "e.add_(1)")
    view = window.storage_map
    changed = view.strip_rects[view.followed[0]]
    for toggle in (lambda: window.set_presentation(True), window.zoom.zoom_in,
                   lambda: window.set_presentation(False)):
        toggle()
        qtbot.wait(50)
        changed = view.strip_rects[view.followed[0]]
        assert _visible_scene_rect(view).intersects(changed)

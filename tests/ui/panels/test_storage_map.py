"""The storage map's per-step work (issue #16, item 4): a step whose layout is the same keeps the map's items and
updates them in place (values, versions, colours); what it draws is exactly what a map drawn afresh draws, after
every step of a training program, forward and back. And two #17 residuals of the map: its index labels are read
from the back of a room (never under 11 px, larger in projector mode), and a scroll to what a step changed lands
where it cuts no line of text at the viewport's top."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QAbstractGraphicsShapeItem, QApplication, QGraphicsSimpleTextItem

from tensorlab.ui.panels.storage_map import ELEMENT_PX, INDEX_PX, PROJECTOR_LABEL_PX, VALUE_PX
from tensorlab.ui.widgets.scene_view import TextBatch
from tensorlab.ui.widgets.text_zoom import MIN_PX, px
from tests.ui.conftest import idle
from tests.ui.support import TRAINING_PROGRAM, fresh_window, go, open_lesson, run_line

TRAINING = TRAINING_PROGRAM


def _drawn(view) -> list[tuple[object, ...]]:
    """Everything the map shows, item by item, in a comparable form: each text and where it is, in which font
    size and colour; each rectangle, its pen and brush; tooltips; what is visible (the flash left out)."""
    view._stop_flash()
    shown = []
    for item in view.scene().items():
        if not item.isVisible():
            continue
        box = item.sceneBoundingRect()
        where = (round(box.left(), 1), round(box.top(), 1), round(box.width(), 1), round(box.height(), 1),
                 item.zValue())
        if isinstance(item, TextBatch):
            transform = item.sceneTransform()
            for rect, text, font, color, _ in item.entries:
                r = transform.mapRect(rect)
                shown.append(("text", text, font.pixelSize(), font.bold(), color.name(),
                              round(r.left(), 1), round(r.top(), 1), item.zValue()))
        elif isinstance(item, QGraphicsSimpleTextItem):
            shown.append(("label", item.text(), item.font().pixelSize(), item.brush().color().name(), item.toolTip(),
                          *where))
        elif isinstance(item, QAbstractGraphicsShapeItem):
            if box.width() == 0 and box.height() == 0 and not item.childItems():
                continue   # an empty holder
            pen, brush = item.pen(), item.brush()
            shown.append(("shape", pen.color().name(), round(pen.widthF(), 2), int(pen.style().value),
                          brush.color().name(), int(brush.style().value), round(item.opacity(), 2), item.toolTip(),
                          *where))
    return sorted(shown, key=repr)


def _afresh(view) -> list[tuple[object, ...]]:
    """What the map shows when every item is made anew for the same state (the scroll kept)."""
    bars = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
    view._clear()
    view._draw()
    view.horizontalScrollBar().setValue(bars[0])
    view.verticalScrollBar().setValue(bars[1])
    view._pin()
    return _drawn(view)


def _items(view) -> set[object]:
    """The map's items, the "+N more" marks and the flash left out (remade at every scroll)."""
    view._stop_flash()
    marks = {id(m) for m in view._marks}
    return {item for item in view.scene().items() if id(item) not in marks}


def test_a_step_with_the_same_layout_keeps_every_item_and_writes_the_new_value(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    for code in ("x = torch.zeros(6)", "y = x[1:4]", "z = torch.ones(3)", "x.add_(1)"):
        run_line(window, qtbot, code)
    view = window.storage_map
    before = _items(view)
    count = len(view.scene().items())
    run_line(window, qtbot, "x[2] = 7")
    assert window.controller.state.last.ok
    after = _items(view)
    assert after == before and len(view.scene().items()) == count   # the same items, none made, none dropped
    texts = view.texts()
    assert "7.0" in texts and "version 2" in " ".join(texts)
    strip = next(s for s in view.strips if s.storage.id == window.controller.state.snapshot.tensor("x").storage)
    assert strip.changed == frozenset({2})
    x0, cell_w, top, cell_h = view.cell_rows[strip.storage.id]
    cell = QRectF(x0 + 2 * cell_w, top, cell_w, cell_h)
    inside = [t for t, _, box in view.text_boxes() if cell.contains(box.center())]
    assert inside == ["7.0"]
    # And it is what a map drawn afresh shows.
    assert _drawn(view) == _afresh(view)


def test_every_step_of_a_training_program_draws_what_a_fresh_map_draws_forward_and_back(window, qtbot):
    """Bands appearing (a view), gradients coming and going (backward, zero_grad), versions counting up, a new
    loss each time: the map updated in place shows exactly what one drawn from nothing shows."""
    open_lesson(window, qtbot, "scratchpad")
    view = window.storage_map
    kept: set[object] = set()
    for code in TRAINING:
        run_line(window, qtbot, code)
        assert window.controller.state.last.ok, code
        if code == "opt.step()":
            # An optimizer step changes values and versions only: every item is kept.
            assert _items(view) == kept, code
        incremental = _drawn(view)
        assert incremental == _afresh(view), code
        kept = _items(view)   # (the items of the fresh drawing, which the next step updates)
    end = window.controller.state.position
    for position in (end - 1, end - 3, end - 2, end):
        go(window, qtbot, position)
        assert _drawn(view) == _afresh(view), position


def test_a_layout_change_redraws_the_strip_right(window, qtbot):
    """A view appears on a strip kept on the map (a band more), then its shape changes, then it moves to memory of
    its own (the band goes, a strip comes): each time
    the strip shows what a fresh map shows, and the other strips keep their items."""
    open_lesson(window, qtbot, "scratchpad")
    for code in ("a = torch.arange(8.0)", "b = torch.ones(2)"):
        run_line(window, qtbot, code)
    view = window.storage_map
    b_storage = window.controller.state.snapshot.tensor("b").storage
    kept = 0
    for code in ("v = a[2:5]", "v = a[::2]", "v = a[1:3]", "v = torch.zeros(2)"):
        b_items = {item for item in view.scene().items() if item.topLevelItem() is view._drawn[b_storage].group}
        look = view._drawn[b_storage].look
        run_line(window, qtbot, code)
        assert window.controller.state.last.ok, code
        # (A wider name column may make the fitted map smaller, or its cells narrower; b just made is no longer
        # new; the scroll bar came: all drawn again.)
        if view._drawn[b_storage].look == look:
            assert {item for item in view.scene().items()
                    if item.topLevelItem() is view._drawn[b_storage].group} == b_items, code   # b's strip kept
            kept += 1
        assert _drawn(view) == _afresh(view), code
    assert kept >= 1
    a_storage = window.controller.state.snapshot.tensor("a").storage
    assert [band.name for band in next(s for s in view.strips if s.storage.id == a_storage).bands] == ["a"]


def _index_sizes(view) -> list[float]:
    """The on-screen pixel size of each cell index drawn above a strip's cells."""
    scale = view.transform().m22()
    sizes = []
    for strip in view.strips:
        row = view.cell_rows.get(strip.storage.id)
        if row is None:
            continue
        x0, cell_w, top, _ = row
        for item in view.scene().items():
            if not isinstance(item, TextBatch):
                continue
            transform = item.sceneTransform()
            for rect, text, font, _, _ in item.entries:
                box = transform.mapRect(rect)
                if text.isdigit() and box.bottom() <= top + 1 and box.top() >= top - 40 * view.scale_factor:
                    sizes.append(font.pixelSize() * scale)
    return sizes


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_the_maps_index_labels_are_read_like_its_values_and_grow_in_projector_mode(qtbot, settings, size):
    sizes = {}
    for projector in (False, True):
        window = fresh_window(qtbot, settings, size, projector)
        open_lesson(window, qtbot, "scratchpad")
        run_line(window, qtbot, "x = torch.arange(6.0)")
        run_line(window, qtbot, "y = x[::2]")
        view = window.storage_map
        indices = _index_sizes(view)
        assert len(indices) >= 6
        value = px(VALUE_PX, view.scale_factor)
        assert min(indices) >= MIN_PX
        assert min(indices) == px(INDEX_PX, view.scale_factor)
        assert min(indices) >= 0.8 * value, (indices, value)   # read like the values, a little smaller
        elements = [font.pixelSize() for text, font, _ in view.text_boxes() if text.startswith("[")
                    and text.endswith("]") and text[1:-1].isdigit()]
        assert elements and min(elements) >= px(ELEMENT_PX, view.scale_factor) >= MIN_PX
        if projector:   # never under 14 px in projector mode
            assert min(elements) >= PROJECTOR_LABEL_PX
        sizes[projector] = min(indices)
        window.close()
    assert sizes[True] > sizes[False]


def _cut_at_top(view) -> list[str]:
    """The texts the viewport's top edge cuts (part of a line above it, part below)."""
    top = view.mapToScene(0, 0).y()
    return [text for text, _, box in view.text_boxes(visible_only=True)
            if box.top() < top - 0.5 and box.bottom() > top + 0.5]


def test_a_scroll_to_what_a_step_changed_leaves_no_half_line_at_the_top(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    names = [f"t{k}" for k in range(9)]
    for name in names:
        run_line(window, qtbot, f"{name} = torch.zeros(5)")
    view = window.storage_map
    scrolled = 0
    for name in ["t1", "t7", "t3", "t8", "t0", "t5", "t2"]:
        run_line(window, qtbot, f"{name}[3] = 1")
        QApplication.processEvents()
        assert window.controller.state.last.ok
        storage = window.controller.state.snapshot.tensor(name).storage
        cells = view.changed_run()
        assert cells is not None
        visible = view.mapToScene(view.viewport().rect()).boundingRect()
        assert visible.contains(cells.center()), name   # what changed is in view
        if view.verticalScrollBar().value() > view.verticalScrollBar().minimum():
            scrolled += 1
        assert _cut_at_top(view) == [], (name, storage)
    assert scrolled >= 3   # the map was taller than its viewport: these were real scrolls
    idle(qtbot, window)


def test_a_new_strip_that_fits_is_shown_whole_with_its_band_after_the_scroll_lands(window, qtbot):
    open_lesson(window, qtbot, "scratchpad")
    for k in range(6):
        run_line(window, qtbot, f"t{k} = torch.zeros(3)")
    view = window.storage_map
    for k in range(6, 9):
        run_line(window, qtbot, f"t{k} = torch.arange(5.)")   # a new strip, last on the map
        QApplication.processEvents()
        storage = window.controller.state.snapshot.tensor(f"t{k}").storage
        strip = view.strip_rects[storage]
        visible = view.mapToScene(view.viewport().rect()).boundingRect()
        assert view.verticalScrollBar().value() > view.verticalScrollBar().minimum()   # a real scroll
        assert visible.top() <= strip.top() + 0.5 and strip.bottom() <= visible.bottom() + 0.5, (k, strip, visible)
        assert _cut_at_top(view) == []
    idle(qtbot, window)


@pytest.mark.parametrize("projector", [False, True])
def test_the_empty_map_says_where_to_make_a_tensor_in_either_mode(qtbot, settings, projector):
    # Reviews r17o 9 and r21e F11: "the builders on the left" in projector mode, where Build is a tab on the right;
    # "the lesson's first step" after steps had run.
    from PySide6.QtWidgets import QGraphicsTextItem

    window = fresh_window(qtbot, settings, (1024, 768), projector=projector)
    open_lesson(window, qtbot, "scratchpad")
    idle(qtbot, window)
    texts = [i.toPlainText() for i in window.storage_map.scene().items() if isinstance(i, QGraphicsTextItem)]
    hint = next(t for t in texts if "Build panel" in t)
    assert "left" not in hint and "first step" not in hint and "Ctrl+L" in hint
    window.close()

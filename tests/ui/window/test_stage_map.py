"""The storage map at classroom sizes (issue 17 Build 1 and 5, review r17c findings 8, 11-13, 18, 20, 24, 27, 30,
32, 34): "+N more" never over a value a band still labels, the band a step made whole in view after the docks
settle, the refused tensor followed and outlined, the question's tensor shown while it is open."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication, QGraphicsRectItem

from tests.ui.support import fresh_window, go, open_lesson


def _settle(qtbot):
    qtbot.wait(30)
    QApplication.processEvents()


def _in_view(view, rect: QRectF) -> bool:
    return view.viewport().rect().adjusted(0, 0, 1, 1).contains(view.mapFromScene(rect).boundingRect())


def _end(window, qtbot) -> None:
    go(window, qtbot, len(window.controller.state.program))
    _settle(qtbot)


def _assert_no_band_beside_a_mark(view) -> None:
    """A "+N" mark at the right hides its cells whole, and every band's rectangle over them (no band labels a cell
    the mark hides: review r17c finding 20, "t[3] = +2")."""
    for count, box in view.mark_boxes():
        if box.left() < view.name_width + view.horizontalScrollBar().value() - view.horizontalScrollBar().minimum():
            continue   # the left mark, in the name column
        for item in view.band_items():
            rect = item.sceneBoundingRect()
            if rect.right() <= box.left() + 1 or not item.isVisible():
                continue
            assert box.top() <= rect.top() + 1 and rect.bottom() <= box.bottom() + 1, (count, box, rect)


@pytest.mark.parametrize("lesson", ["strides-and-contiguous", "expand-is-not-repeat"])
def test_at_1024x768_normal_zoomed_a_mark_hides_whole_columns_and_six_cells_fit(qtbot, settings, lesson):
    window = fresh_window(qtbot, settings, (1024, 768))
    open_lesson(window, qtbot, lesson)
    window.zoom.zoom_in()   # Ctrl+=
    _settle(qtbot)
    view = window.storage_map
    for position in range(1, len(window.controller.state.program) + 1):
        go(window, qtbot, position)
        _settle(qtbot)
        _assert_no_band_beside_a_mark(view)
        for strip in view.strips:
            if len(strip.values) <= 6:   # m, t, r of strides-and-contiguous: every value on screen, no "+2"
                assert strip.storage.id in view.fitting, (position, strip.storage.id, view.mark_boxes())
        assert view.smallest_text_px() >= 11
    window.close()


@pytest.mark.parametrize("real", [False, True])
def test_after_z_equals_x_detach_at_1280x720_projector_zoomed_the_band_z_is_in_view(qtbot, settings, real):
    from tensorlab.ui.window.build import first_size

    # (real: the window a 1280x720 screen gives under X, inside its frame: a shorter map.)
    window = fresh_window(qtbot, settings, first_size(1280, 720) if real else (1280, 720), projector=True)
    open_lesson(window, qtbot, "detach-shares-memory")
    window.zoom.zoom_in()
    _settle(qtbot)
    view = window.storage_map
    for position in range(1, 4):
        go(window, qtbot, position)   # 3: z = x.detach(): a band more on x's strip
    _settle(qtbot)
    assert window.selected == "z"
    band = view.band_rect("z")
    assert band is not None and _in_view(view, band), (band, view.mapToScene(view.viewport().rect()).boundingRect())
    # With the cells it covers ("one strip, two bands"), and no half line at the top.
    x0, cell_w, top, cell_h = view.cell_rows[window.controller.state.snapshot.tensor("z").storage]
    assert _in_view(view, QRectF(x0, top, cell_w, cell_h)), (top, view.mapToScene(view.viewport().rect()))
    at = view.mapToScene(0, 0).y()
    assert any(abs(t - at) < 1.5 for t in view.landing_tops()), (at, view.landing_tops())
    window.close()


def test_when_the_map_gets_shorter_the_strip_the_step_made_is_scrolled_to_again_on_a_line(qtbot, settings):
    # Review r17c findings 18, 34: the docks settle after the step, the map is shorter, the new band is cut at
    # the map's bottom (`total` at 1920 projector, `p = w + 1` at 1280 projector).
    window = fresh_window(qtbot, settings, (1920, 1080), projector=True)
    open_lesson(window, qtbot, "detach-shares-memory")
    go(window, qtbot, 4)   # total = (y + z).sum(): a new strip at the bottom
    _settle(qtbot)
    view = window.storage_map
    strip = view.strip_rects[view.followed[0]]
    viewport_h = view.viewport().height()
    need = round(strip.height() * view.transform().m22()) + 60   # the strip fits, with a little room
    assert need < viewport_h
    view.reserve_row(viewport_h - need)   # (as the "+N more changed" row, or docks that settle, make it)
    _settle(qtbot)
    assert view.viewport().height() < viewport_h
    s = view.scale_factor   # (a strip's rectangle starts 4 px above its heading)
    assert _in_view(view, strip.adjusted(0, 5 * s, 0, -1)), (strip, view.mapToScene(view.viewport().rect()))
    top = view.mapToScene(0, 0).y()
    assert any(abs(t - top) < 1.5 for t in view.landing_tops()), (top, view.landing_tops())   # no half line
    view.reserve_row(0)
    window.close()


def test_a_refused_copy_into_a_leaf_follows_the_refused_tensor_and_outlines_its_cells(qtbot, settings):
    # Review r17c finding 24: `target.weight.copy_(online.weight)` raised; the map showed online.weight.
    window = fresh_window(qtbot, settings, (1280, 720), projector=True)
    open_lesson(window, qtbot, "a-target-network")
    step = next(i for i, s in enumerate(window.controller.state.program, 1)
                if s.code.strip() == "target.weight.copy_(online.weight)")
    go(window, qtbot, step)
    _settle(qtbot)
    assert not window.controller.state.last.ok
    view = window.storage_map
    assert window.selected == "target.weight" and view.selected == "target.weight"
    assert view.refused == ("target.weight", None)
    cells = view.refused_cells()
    assert len(cells) == 2 and all(_in_view(view, cell) for cell in cells)
    outlines = [item for item in view.scene().items() if isinstance(item, QGraphicsRectItem)
                and item.pen().color().name() == "#c62828" and item.zValue() == 9]
    assert len(outlines) == 2   # as a refused `x[3] = 0` is outlined, every cell of the tensor written
    band = view.band_rect("target.weight")
    assert band is not None and _in_view(view, band)
    window.close()


@pytest.mark.parametrize("size,projector", [((1280, 720), False), ((1024, 768), True)])
def test_while_a_question_is_open_the_map_and_table_show_the_tensor_it_asks_about(qtbot, settings, size,
                                                                                 projector):
    # Review r17c finding 11: a step that makes and changes nothing (then: what-step-and-zero-grad-do's early
    # opt.step()) before a question on an existing tensor: the map stayed on the tensors an earlier step made.
    # Since review r18ag 8 that lesson asks at the opt.step() itself; clone-keeps-the-graph step 10 is such a
    # step (found by running every lesson), before the question on x.grad.
    window = fresh_window(qtbot, settings, size, projector=projector)
    open_lesson(window, qtbot, "clone-keeps-the-graph")
    for position in range(1, 11):
        go(window, qtbot, position)
    _settle(qtbot)
    program = window.controller.state.program
    assert program[10].ask is not None and program[10].ask.check == "x.grad"
    assert window.selected == "x"
    if not projector:   # (in projector mode the table is behind a tab)
        assert window.table.selected == "x"
    view = window.storage_map
    band = view.band_rect("x")
    assert band is not None and _in_view(view, band), (band, view.mapToScene(view.viewport().rect()).boundingRect())
    window.close()


def test_at_1024x768_normal_zoomed_the_heat_map_of_a_small_matrix_writes_every_value(qtbot, settings):
    # Review r17c finding 21: t ([3, 2]) drawn as six ~18 px squares with no number after Ctrl+=.
    from PySide6.QtGui import QFontInfo

    from tensorlab.ui.widgets.palette import text_color_on

    window = fresh_window(qtbot, settings, (1024, 768))
    open_lesson(window, qtbot, "strides-and-contiguous")
    window.zoom.zoom_in()
    _settle(qtbot)
    checked = 0
    for position in range(1, len(window.controller.state.program) + 1):
        go(window, qtbot, position)
        _settle(qtbot)
        plot = window.values_view.values_plot.plot
        info = window.controller.state.snapshot.tensor(window.selected)
        if info is None or len(info.shape) != 2 or getattr(plot, "mode", None) != "image":
            continue
        checked += 1
        texts = [item for item in plot.scene().items() if hasattr(item, "text") and item.text() in plot.value_texts]
        assert plot.labels_shown, (position, window.selected, plot.viewport().size())
        assert {item.text() for item in texts} == set(plot.value_texts)
        assert min(QFontInfo(item.font()).pixelSize() for item in texts) >= 11
        # Each number in black or white, whichever contrasts more with its own cell (>= 4.5:1).
        rects = [item for item in plot.scene().items() if isinstance(item, QGraphicsRectItem)]
        for item in texts:
            centre = item.sceneBoundingRect().center()
            cell = next(r for r in rects if r.sceneBoundingRect().contains(centre))
            assert item.brush().color() == text_color_on(cell.brush().color())
    assert checked
    window.close()


def test_a_step_that_freezes_a_parameter_is_about_that_parameter(qtbot, settings):
    # Review r17c finding 30's run: after `model[0].weight.requires_grad_(False)` the map and table showed z.
    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, "freezing-no-grad-and-eval")
    step = next(i for i, s in enumerate(window.controller.state.program, 1)
                if s.code.strip() == "model[0].weight.requires_grad_(False)")
    for position in range(1, step + 1):
        go(window, qtbot, position)
    _settle(qtbot)
    assert window.selected == "model[0].weight"
    view = window.storage_map
    band = view.band_rect("model[0].weight")
    assert band is not None and _in_view(view, band)
    window.close()


@pytest.mark.parametrize("size,projector", [((1024, 768), False), ((1280, 720), True), ((1024, 768), True)])
def test_a_bands_label_never_breaks_inside_a_shape_or_a_stride(qtbot, settings, size, projector):
    # Issue 17 (round 2): at 1024x768 normal net[0].weight's label read "[2, 2] stride (2," over "1) offset 0 v2".
    window = fresh_window(qtbot, settings, size, projector)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    go(window, qtbot, 1)
    _settle(qtbot)
    labels = [text for text, _, _ in window.storage_map.text_boxes() if "stride" in text]
    assert labels
    for text in labels:
        for line in text.split("\n"):
            assert line.count("(") == line.count(")") and line.count("[") == line.count("]"), (size, text)
    window.close()


@pytest.mark.parametrize("size,projector", [((1024, 768), False), ((1280, 720), True)])
def test_a_strip_taller_than_the_map_shows_no_half_line_at_its_bottom(qtbot, settings, size, projector):
    # Issue 17 (round 2): a strip taller than the map was cut at its bottom mid-line (half a row of cells).
    from PySide6.QtGui import QColor

    window = fresh_window(qtbot, settings, size, projector)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    go(window, qtbot, 6)
    _settle(qtbot)
    view = window.storage_map
    viewport = view.viewport()
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0   # the strips are taller than the map

    def on_screen(rect):
        return view.mapFromScene(rect).boundingRect()

    # Scrolled (as a user scrolls) so that the bottom edge cuts a row of cells in half.
    cells = sorted((item for item in view.band_items() if item.isVisible()), key=lambda i: i.sceneBoundingRect().top())
    scale = view.transform().m22()
    for cell in cells:
        middle = on_screen(cell.sceneBoundingRect()).center().y()
        value = bar.value() + middle - viewport.height()
        if bar.minimum() < value <= bar.maximum():
            bar.setValue(value)
            break
    else:
        pytest.fail("no row of cells to cut")
    _settle(qtbot)
    cut = on_screen(cell.sceneBoundingRect())
    assert cut.top() < viewport.height() < cut.bottom(), (cut, viewport.height(), scale)
    image = viewport.grab().toImage()
    background = QColor("#fafafa").rgb()
    # What the screen shows of that row: nothing (covered from its top down); a line above it still shows.
    for y in range(max(0, cut.top() + 1), min(viewport.height(), image.height())):
        inked = [x for x in range(image.width()) if image.pixel(x, y) != background]
        assert not inked, (y, len(inked), cut, viewport.height())
    assert any(image.pixel(x, y) != background for y in range(0, max(1, cut.top() - 1)) for x in range(image.width()))
    # A row of cells whose top lies just under the edge draws no outline into the viewport's last row either.
    bar.setValue(bar.value() + on_screen(cell.sceneBoundingRect()).top() - viewport.height() + 1)
    _settle(qtbot)
    image = viewport.grab().toImage()
    last = min(viewport.height(), image.height()) - 1
    assert all(image.pixel(x, last) == background for x in range(image.width())), \
        (on_screen(cell.sceneBoundingRect()), viewport.height())
    window.close()


def test_a_changed_strip_a_little_shorter_than_the_map_shows_whole(qtbot, settings):
    # Issue 17 (round 2, the README's projector picture): after z[3] = 0 at 1024x768 projector S0 (394 px in a
    # 406 px map) showed from the map's top, its z band under the fold.
    window = fresh_window(qtbot, settings, (1024, 768), True)
    open_lesson(window, qtbot, "detach-shares-memory")
    go(window, qtbot, 7)
    _settle(qtbot)
    view = window.storage_map
    strip = view.strip_rects[view.followed[0]]
    assert strip.height() <= view.viewport().height()
    shown = view.mapFromScene(strip).boundingRect()
    # (The strip's rectangle begins a few pixels above its heading: the heading's line is what lands on top.)
    assert shown.top() >= -8 and shown.bottom() <= view.viewport().height(), (shown, view.viewport().rect())
    assert view.cut_at_bottom() is None
    window.close()


def test_a_changed_strip_taller_than_the_map_lands_on_a_whole_line_with_the_band_written(qtbot, settings):
    # Issue 17 (round 2), under X at 1280x720 projector: after z[3] = 0 the map showed its header line ("Memory on
    # cpu: …") above S0, and S0's z band (what the step wrote through) was under the fold.
    from tests.ui.window.test_stage_narration import _real

    window = fresh_window(qtbot, settings, _real((1280, 720)), True)
    open_lesson(window, qtbot, "detach-shares-memory")
    go(window, qtbot, 7)
    _settle(qtbot)
    view = window.storage_map
    strip = view.strip_rects[view.followed[0]]
    assert strip.height() > view.viewport().height()   # taller than the map
    shown = [(view.mapFromScene(box).boundingRect(), text) for text, _, box in view.text_boxes(visible_only=True)]
    in_view = sorted((rect.top(), text) for rect, text in shown
                     if rect.bottom() > 0 and rect.top() < view.viewport().height())
    # The strip's heading first where it fits with the z band; it does not here (review r17o item 2): the band
    # written and x's changed cell come first, the heading above the fold.
    band = view.band_rect("z")
    assert band is not None and view.viewport().rect().adjusted(0, 0, 1, 1).contains(
        view.mapFromScene(band).boundingRect()), band
    assert in_view[0][1].startswith(view.followed[0]) or in_view[0][1] == "0.0", in_view[:3]
    assert in_view[0][0] >= 0, in_view[0]                            # whole
    window.close()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_a_map_whose_strips_fit_has_no_sideways_scroll_bar(qtbot, settings, size):
    # freezing-no-grad-and-eval's end at 1024x768: everything drawn fitted, but the margin past the header (wrapped
    # to the view) made a 52 px scroll range with nothing to scroll to, and took a line of the map's height.
    window = fresh_window(qtbot, settings, size)
    view = window.storage_map
    for lesson in ("freezing-no-grad-and-eval", "detach-shares-memory"):
        open_lesson(window, qtbot, lesson)
        for position in range(1, len(window.controller.state.program) + 1):
            go(window, qtbot, position)
            _settle(qtbot)
            drawn = view.scene().itemsBoundingRect()
            if drawn.right() - view.sceneRect().left() <= view.viewport().width() / view.transform().m11():
                assert view.horizontalScrollBar().maximum() == 0, (lesson, position, size)
    window.close()


def test_a_module_made_at_1280x720_projector_zoomed_shows_its_changed_cells_with_their_band(qtbot, settings):
    # Review helper-145, item 5: Ctrl+= at 1280x720 projector, Korean: `bn = nn.BatchNorm1d(1)` (step 10) and
    # `out = bn(b)` (step 12) landed on S8's heading and cells, bn.running_mean's band below the fold (the step
    # writes bn, a module with no band of its own).
    from tensorlab.ui.window.build import first_size

    window = fresh_window(qtbot, settings, first_size(1280, 720), projector=True, language="ko")
    open_lesson(window, qtbot, "freezing-no-grad-and-eval")
    window.commands.zoom_in.trigger()
    _settle(qtbot)
    view = window.storage_map
    for position in range(1, 13):
        go(window, qtbot, position)
        if position in (10, 12):
            _settle(qtbot)
            assert window.selected == "bn.running_mean"
            run = view.changed_run()
            band = view.band_rect("bn.running_mean")
            assert run is not None and band is not None
            assert _in_view(view, run) and _in_view(view, band), (position, run, band,
                                                                  view.mapToScene(view.viewport().rect()))
    window.close()


def test_an_in_place_write_refused_for_overlapping_elements_outlines_the_cells_written(qtbot, settings):
    # Review helper-158, D8: expand-is-not-repeat's `e.add_(1)` raised "more than one element of the written-to
    # tensor refers to a single memory location" and the map marked nothing.
    window = fresh_window(qtbot, settings, (1024, 768), projector=True)
    open_lesson(window, qtbot, "expand-is-not-repeat")
    step = next(i for i, s in enumerate(window.controller.state.program, 1) if s.code.strip() == "e.add_(1)")
    go(window, qtbot, step)
    _settle(qtbot)
    last = window.controller.state.last
    assert not last.ok and "written-to tensor" in last.error.message
    view = window.storage_map
    assert view.refused == ("e", None)
    cells = view.refused_cells()
    assert cells and all(_in_view(view, cell) for cell in cells)
    window.close()

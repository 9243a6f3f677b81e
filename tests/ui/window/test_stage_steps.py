"""The map between steps in projector mode (review r17o items 1 and 2): its text never shrinks from one step to the
next unless the map must hold more (a new tensor, or a value written wider than any its storage showed before),
never under 11 px; and the cells a step changed are on screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from tensorlab.ui.window.build import first_size
from tests.ui.support import fresh_window, go, open_lesson


def _settle(qtbot) -> None:
    qtbot.wait(30)
    QApplication.processEvents()


def _shown_sizes(view) -> tuple[float, float]:
    """The pixel sizes, as on screen, of the largest cell value and of the largest band name drawn."""
    scale = view.transform().m22()
    values = {t for strip in view.strips for t in view._value_texts(strip.values, strip.storage.dtype)}
    names = {band.name for strip in view.strips for band in strip.bands}
    value_px = max((font.pixelSize() * scale for text, font, _ in view.text_boxes(visible_only=True)
                    if text in values), default=0.0)
    name_px = max((font.pixelSize() * scale for text, font, _ in view.text_boxes(visible_only=True)
                   if text in names), default=0.0)
    return value_px, name_px


LESSONS = ["detach-shares-memory", "expand-is-not-repeat", "views-share-storage", "what-step-and-zero-grad-do",
           "a-target-network"]


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
@pytest.mark.parametrize("lesson", LESSONS)
def test_projector_map_text_does_not_shrink_between_steps(qtbot, settings, lesson, size):
    window = fresh_window(qtbot, settings, first_size(*size), projector=True)
    open_lesson(window, qtbot, lesson)
    view = window.storage_map
    before: tuple[float, float] | None = None
    names: set[str] = set()
    longest: dict[str, int] = {}   # storage -> the most characters a value of it was written in
    for position in range(1, len(window.controller.state.program) + 1):
        go(window, qtbot, position)
        _settle(qtbot)
        value_px, name_px = _shown_sizes(view)
        now_names = {band.name for strip in view.strips for band in strip.bands} | \
                    {grad.name for strip in view.strips for grad in strip.grads}
        wider = False
        for strip in view.strips:
            chars = max((len(t) for t in view._value_texts(strip.values, strip.storage.dtype)), default=0)
            wider |= chars > longest.get(strip.storage.id, chars)
            longest[strip.storage.id] = max(chars, longest.get(strip.storage.id, 0))
        assert value_px >= 11 and name_px >= 11, (position, value_px, name_px)
        if before is not None and not (now_names - names) and not wider:
            assert value_px >= before[0] - 0.01 and name_px >= before[1] - 0.01, (position, before, value_px, name_px)
        before, names = (value_px, name_px), now_names
    window.close()


def test_the_map_fits_the_same_with_or_without_its_scroll_bar(qtbot, settings):
    """A second strip brings the vertical scroll bar: the text stays the size it was (it was fitted to the width
    without the bar, where the bar took 14 px of it and the text shrank from 24 to 21.9 px)."""
    window = fresh_window(qtbot, settings, first_size(1024, 768), projector=True)
    open_lesson(window, qtbot, "detach-shares-memory")
    view = window.storage_map
    go(window, qtbot, 1)
    _settle(qtbot)
    bar = view.verticalScrollBar()
    width = view.fit_width()
    bar.setVisible(not bar.isVisible())
    assert view.fit_width() == width
    window.close()


def _in_view(view, rect: QRectF) -> bool:
    return view.viewport().rect().adjusted(0, 0, 1, 1).contains(view.mapFromScene(rect).boundingRect())


@pytest.mark.parametrize("projector", [True, False])
@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
def test_after_z3_the_written_band_and_the_changed_cell_are_on_screen(qtbot, settings, size, projector):
    """`z[3] = 0` writes through z into x's memory: z's band (the one written, below x's and x.grad's) is on screen
    with x's changed cell [3], and forward again after a step back."""
    window = fresh_window(qtbot, settings, first_size(*size), projector=projector)
    open_lesson(window, qtbot, "detach-shares-memory")
    view = window.storage_map
    program = [getattr(step, "code", step) for step in window.controller.state.program]
    at = program.index("z[3] = 0") + 1
    for position in (*range(1, at + 1), at - 1, at):
        go(window, qtbot, position)
    _settle(qtbot)
    snapshot = window.controller.state.snapshot
    x0, cell_w, top, cell_h = view.cell_rows[snapshot.tensor("x").storage]
    cell = QRectF(x0 + 3 * cell_w, top, cell_w, cell_h)
    band = view.band_rect("z")
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    assert band is not None and _in_view(view, band), (band, seen)
    if size == (1280, 720) and projector:
        # From x's changed cell to z's band's last line is 318 px in a 314 px map: the cell's top edge may go
        # above the viewport, its value never.
        value = next(box for text, _, box in view.text_boxes(visible_only=True)
                     if text == "0.0" and cell.contains(box.center()))
        assert _in_view(view, value) and seen.top() < cell.center().y(), (value, cell, seen)
    else:
        assert _in_view(view, cell), (cell, seen)
    window.close()


def test_the_picker_names_the_lesson_asked_for_before_its_first_state(qtbot, settings):
    """Review r17o item 6: started with `--lesson ID`, the toolbar said "Scratchpad" until the worker had loaded
    the lesson (the blank state shown meanwhile has no lesson); it names the lesson from the first paint."""
    from tensorlab.ui.window.build import build_window

    window = build_window(settings, lesson="detach-shares-memory", wait=False)
    qtbot.addWidget(window)
    window.show()
    seen = set()
    for _ in range(200):
        seen.add(window.lesson_picker.currentData())
        if window.controller.state.lesson is not None and not window.controller.busy:
            break
        qtbot.wait(10)
    seen.add(window.lesson_picker.currentData())
    assert seen == {"detach-shares-memory"}, seen
    # Choosing the scratchpad later still shows it.
    open_lesson(window, qtbot, "scratchpad")
    assert window.lesson_picker.currentData() == "scratchpad"
    window.close()


def test_at_the_end_of_expand_is_not_repeat_the_printed_tensors_are_on_screen_at_1920x1080(qtbot, settings):
    """Review r17o item 2: End at 1920x1080 projector (`print(a, r)`, after `e[0, 0] = 5` wrote a's cell 0): a's
    cells with the 5 written, a's band and r's band are all in view."""
    window = fresh_window(qtbot, settings, first_size(1920, 1080), projector=True)
    open_lesson(window, qtbot, "expand-is-not-repeat")
    go(window, qtbot, len(window.controller.state.program))
    _settle(qtbot)
    view = window.storage_map
    snapshot = window.controller.state.snapshot
    x0, cell_w, top, cell_h = view.cell_rows[snapshot.tensor("a").storage]
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    assert _in_view(view, QRectF(x0, top, cell_w, cell_h)), (top, seen)
    for name in ("a", "r"):
        band = view.band_rect(name)
        assert band is not None and _in_view(view, band), (name, band, seen)
    window.close()

"""The storage map from one step to the next at classroom sizes (helper h17z, issue 17 round 2): the text keeps its
size while the same storages are shown, and what the step changed is in the map's viewport."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from tests.ui.support import fresh_window, go, open_lesson


def _settle(qtbot) -> None:
    qtbot.wait(30)
    QApplication.processEvents()


def _in_view(view, rect: QRectF) -> bool:
    return view.viewport().rect().adjusted(0, 0, 1, 1).contains(view.mapFromScene(rect).boundingRect())


def _value_px(view) -> float:
    """The pixel size of the cells' values as shown (font size × the view's scale)."""
    sizes = [font.pixelSize() * view.transform().m22() for text, font, _ in view.text_boxes(visible_only=True)
             if re.fullmatch(r"-?\d+\.\d*", text)]   # (the cells' values: 0.0, 100.0; indices have no dot)
    assert sizes
    return min(sizes)


@pytest.mark.parametrize("size, projector", [((1024, 768), True), ((1024, 768), False), ((1280, 720), True)])
def test_a_value_growing_wider_keeps_the_maps_text_size_and_shows_the_cell_it_changed(qtbot, settings, size,
                                                                                       projector):
    # views-share-storage: `s[0] = 100` writes 100.0 where 1.0 was (no new tensor): 22.3 -> 16.9 px at 1024x768
    # projector before. Then views come on the same storage (m, mt): still the same size.
    window = fresh_window(qtbot, settings, size, projector=projector)
    open_lesson(window, qtbot, "views-share-storage")
    view = window.storage_map
    go(window, qtbot, 2)   # s = x[1:4]
    _settle(qtbot)
    before = _value_px(view)
    for position in range(3, len(window.controller.state.program) + 1):
        go(window, qtbot, position)
        _settle(qtbot)
        assert _value_px(view) == pytest.approx(before, abs=0.01), (position, before, _value_px(view))
        assert view.smallest_text_px() >= 11
        run = view.changed_run()
        if run is not None:   # what the step changed (x[1], then x[3]) lies in the map's viewport
            assert _in_view(view, run), (position, run, view.mapToScene(view.viewport().rect()).boundingRect())
    window.close()


def test_after_z3_at_1280x720_projector_the_changed_cell_and_the_band_z_lie_in_the_map(qtbot, settings):
    from tensorlab.ui.window.build import first_size

    # The window a 1280x720 screen gives under X: the map is 314 px tall; x's cell [3] and z's band were 318 px
    # (the cell's top edge 4 px above the viewport).
    window = fresh_window(qtbot, settings, first_size(1280, 720), projector=True)
    open_lesson(window, qtbot, "detach-shares-memory")
    view = window.storage_map
    for position in range(1, 8):   # 7: z[3] = 0
        go(window, qtbot, position)
    _settle(qtbot)
    x0, cell_w, top, cell_h = view.cell_rows[window.controller.state.snapshot.tensor("x").storage]
    cell = QRectF(x0 + 3 * cell_w, top, cell_w, cell_h)
    assert _in_view(view, cell), (view.mapFromScene(cell).boundingRect(), view.viewport().size())
    band = view.band_rect("z")
    assert band is not None and _in_view(view, band), (view.mapFromScene(band).boundingRect(), view.viewport().size())
    window.close()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720), (1920, 1080)])
def test_in_projector_mode_the_bands_labels_grow_with_the_cells(qtbot, settings, size):
    # what-step-and-zero-grad-do at 1024x768 projector: "[2, 2] stride (2, 1) offset 0 v3" was 11 px under values
    # of 15 px (the labels stayed at the normal mode's size while the cells grew).
    labels = {}
    for projector in (False, True):
        window = fresh_window(qtbot, settings, size, projector=projector)
        open_lesson(window, qtbot, "what-step-and-zero-grad-do")
        go(window, qtbot, 8)   # opt.step(): the weights and their gradients on the map
        _settle(qtbot)
        view = window.storage_map
        scale = view.transform().m22()
        shown = [(font.pixelSize() * scale, text) for text, font, _ in view.text_boxes(visible_only=True)
                 if "stride" in text or re.fullmatch(r"\[\d+\]", text)]
        assert shown
        labels[projector] = min(shown)
        value = _value_px(view)
        if projector:   # read from the back row: 14 px at least, about as large as the values (12 to 15)
            assert labels[True][0] >= 14, (labels, value)
            assert labels[True][0] >= 0.8 * value - 0.5, (labels, value)
        assert view.smallest_text_px() >= 11
        window.close()


def _hangul(text: str) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in text)


def test_in_korean_the_code_columns_say_what_they_are_and_the_map_says_version_in_korean(qtbot, settings):
    # The glossary keeps torch's names as headers (dtype, requires_grad, is_leaf, grad_fn): their tooltips say in
    # Korean what they are; the map's band label said "v0" for the version.
    from PySide6.QtCore import Qt

    from tensorlab.ui.panels.tensor_table import COLUMNS

    window = fresh_window(qtbot, settings, (1280, 720), language="ko")
    open_lesson(window, qtbot, "detach-shares-memory")
    go(window, qtbot, 3)
    _settle(qtbot)
    model = window.table.table_model
    for column in ("dtype", "requires_grad", "is_leaf", "grad_fn"):
        section = COLUMNS.index(column)
        header = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        tip = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
        assert header.replace("\n", "") == column, (column, header)   # torch's name, as the glossary keeps it
        assert tip.startswith(column) and _hangul(tip), (column, tip)
    labels = [text for text in window.storage_map.texts() if "stride" in text]
    assert labels and all("버전" in text and not re.search(r"\bv\d", text) for text in labels), labels
    window.close()


@pytest.mark.parametrize("size", [(1024, 768)])   # (at 1280x720 projector the map is 314 px tall: they do not fit)
def test_at_the_end_of_expand_is_not_repeat_a_and_rs_cells_are_both_in_the_map(qtbot, settings, size):
    # The last step, `print(a, r)`, changes nothing: a's cells were above the fold at 1024x768 projector (r's strip
    # alone in view). What it prints is on the map: both rows of cells, and r's band.
    from PySide6.QtCore import Qt

    from tensorlab.ui.window.build import first_size
    from tests.ui.conftest import idle

    window = fresh_window(qtbot, settings, first_size(*size), projector=True)
    open_lesson(window, qtbot, "expand-is-not-repeat")
    view = window.storage_map
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_End)
    idle(qtbot, window)
    qtbot.wait(300)   # the docks settle
    QApplication.processEvents()
    snapshot = window.controller.state.snapshot
    assert window.controller.state.position == len(window.controller.state.program)
    for name in ("a", "r"):
        x0, cell_w, top, cell_h = view.cell_rows[snapshot.tensor(name).storage]
        cells = QRectF(x0, top, cell_w * 3, cell_h)
        assert _in_view(view, cells), (name, cells, view.mapToScene(view.viewport().rect()).boundingRect())
    band = view.band_rect("r")
    assert band is not None and _in_view(view, band), (band, view.mapToScene(view.viewport().rect()).boundingRect())
    window.close()


@pytest.mark.parametrize("projector", [False, True])
def test_at_1920x1080_the_widest_strip_spans_the_maps_width(qtbot, settings, projector):
    # A 3-element tensor alone (expand-is-not-repeat's first steps) took 61% of the map's width at 1920x1080, the
    # rest empty. Every strip keeps one cell width (a's 12 bytes beside r's 36 read as a third of them).
    window = fresh_window(qtbot, settings, (1920, 1080), projector=projector)
    open_lesson(window, qtbot, "expand-is-not-repeat")
    view = window.storage_map
    for position in range(1, len(window.controller.state.program) + 1):
        go(window, qtbot, position)
        _settle(qtbot)
        widest = max(rect.width() for rect in view.strip_rects.values()) * view.transform().m11()
        assert widest >= 0.85 * view.viewport().width(), (position, widest, view.viewport().width())
        assert widest <= view.viewport().width()
    window.close()

"""Projector mode, text zoom, and text that stays readable (issue 6, item 1)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QDockWidget

from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.ui.window.build import build_window
from tests.ui.conftest import idle
from tests.ui.support import fresh_window, go, open_lesson, smallest_text, text_sizes


def _cell_on_screen(window):
    view = window.storage_map
    return view.cell_rect.width() * view.transform().m11(), view.cell_rect.height() * view.transform().m22()


def _value_text_px(window):
    view = window.storage_map
    sizes = [QFontInfo(font).pixelSize() * view.transform().m22() for _, font, _ in view.text_boxes()
             if font.family().startswith("DejaVu Sans Mono")]
    assert sizes
    return min(sizes)


def test_projector_mode_makes_the_map_cells_code_and_values_large_at_1920x1080(window, qtbot):
    window.resize(1920, 1080)
    go(window, qtbot, 3)
    normal_w, normal_h = _cell_on_screen(window)
    normal_texts = sorted((text, font.pixelSize()) for text, font, _ in window.storage_map.text_boxes())
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert window.commands.presentation.isChecked()
    idle(qtbot, window)
    projector_w, projector_h = _cell_on_screen(window)
    # (In both modes the cells widen until the widest strip spans the map (h17z item 3): wider in projector mode,
    # and 1.4x as tall, their text 1.4x as large.)
    assert projector_w >= normal_w and projector_h >= 1.4 * normal_h
    projector_texts = {text: font.pixelSize() for text, font, _ in window.storage_map.text_boxes()}
    assert all(projector_texts[text] >= 1.4 * size for text, size in normal_texts), projector_texts
    assert _value_text_px(window) >= 24
    assert QFontInfo(window.code_view.font()).pixelSize() >= 24
    # The map is drawn larger, never scaled down to fit: it scrolls instead.
    assert window.storage_map.transform().m11() == 1.0
    # The narration and the code are shown; the other panels are one tab away.
    for name in ("narrationDock", "codeDock"):
        dock = window.findChild(QDockWidget, name)
        assert dock.isVisible() and not dock.visibleRegion().isEmpty(), name
    tensors = window.findChild(QDockWidget, "tensorsDock")
    assert tensors in window.tabifiedDockWidgets(window.findChild(QDockWidget, "narrationDock"))
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert not window.commands.presentation.isChecked()
    assert _cell_on_screen(window) == (normal_w, normal_h)
    # Every text of the map is back at its size, the heading above the strips included.
    assert sorted((text, font.pixelSize()) for text, font, _ in window.storage_map.text_boxes()) == normal_texts


def test_each_mode_remembers_its_own_layout_and_reset_restores_it(qtbot, settings):
    first = build_window(settings)
    qtbot.addWidget(first)
    first.show()
    first.set_presentation(True)
    graph = first.findChild(QDockWidget, "graphDock")
    graph.toggleViewAction().trigger()          # close the graph panel in projector mode
    assert not graph.isVisible()
    first.set_presentation(False)
    assert graph.isVisible()                     # normal mode has its own layout
    first.set_presentation(True)
    assert not graph.isVisible()
    first.close()
    second = build_window(settings)
    qtbot.addWidget(second)
    second.show()
    assert second.commands.presentation.isChecked()
    graph = second.findChild(QDockWidget, "graphDock")
    assert not graph.isVisible()
    second.commands.reset_layout.trigger()
    assert graph.isVisible() or graph in second.tabifiedDockWidgets(second.findChild(QDockWidget, "narrationDock"))
    assert not graph.isHidden()
    second.close()


def test_ctrl_plus_minus_zero_zoom_every_panel_and_the_zoom_is_remembered(qtbot, settings):
    window = build_window(settings)
    qtbot.addWidget(window)
    window.show()
    go(window, qtbot, 2)
    panels = [window.code_view, window.narration, window.output_view, window.table, window.builders,
              window.values_view]
    before = [QFontInfo(p.font()).pixelSize() for p in panels]
    map_before = _value_text_px(window)
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    after = [QFontInfo(p.font()).pixelSize() for p in panels]
    assert all(a > b for a, b in zip(after, before)), (before, after)
    assert _value_text_px(window) > map_before
    window.close()
    again = build_window(settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    again.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is again)
    assert [QFontInfo(p.font()).pixelSize() for p in (again.code_view, again.narration, again.output_view,
                                                       again.table, again.builders, again.values_view)] == after
    qtbot.keyClick(again, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert [QFontInfo(p.font()).pixelSize() for p in (again.code_view, again.narration, again.output_view,
                                                       again.table, again.builders, again.values_view)] == before
    qtbot.keyClick(again, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert min(size for size, _ in text_sizes(again)) >= 11   # smaller, but never under 11 px
    again.close()


def test_ctrl_plus_at_the_largest_size_the_window_allows_says_so(qtbot, settings):
    # Review helper-145, item 9: in projector mode at 1280x720 Ctrl+= stopped after one press, silently.
    window = fresh_window(qtbot, settings, (1280, 720), projector=True)
    go(window, qtbot, 2)
    presses = 0
    while window.zoom.effective < window.zoom.limit and presses < 20:
        window.commands.zoom_in.trigger()
        presses += 1
        assert window.statusBar().currentMessage() == f"Text size {round(window.zoom.effective * 100)}%"
    largest = window.zoom.effective
    window.commands.zoom_in.trigger()
    assert window.zoom.effective == largest
    assert "largest this window's height allows" in window.statusBar().currentMessage()
    assert f"{round(largest * 100)}%" in window.statusBar().currentMessage()
    window.commands.zoom_reset.trigger()
    assert window.statusBar().currentMessage() == "Text size 100%"
    window.close()


def test_no_text_under_11_px_in_normal_mode_at_1280x720(window, qtbot):
    for lesson in builtin_lessons():
        open_lesson(window, qtbot, lesson.id)
        for position in range(len(lesson.steps) + 1):
            go(window, qtbot, position)
            for name in [t.name for t in window.controller.state.snapshot.tensors][-2:]:
                window.table.select_name(name)
            for tab in ("graphDock", "valuesDock"):
                window.findChild(QDockWidget, tab).raise_()
                qtbot.wait(1)
                size, what = smallest_text(window)
                assert size >= 11, f"{lesson.id} step {position}: {what} is {size} px"


def test_a_question_on_screen_takes_the_projector_size_at_once(window, qtbot):
    """F5 with a question showing: its choices grow with the rest of the narration, not one step later."""
    window.resize(1280, 720)
    open_lesson(window, qtbot, "expand-is-not-repeat")
    go(window, qtbot, 2)   # e.add_(1)'s question open
    narration = window.narration
    assert narration.choice_buttons
    normal = QFontInfo(narration.choice_buttons[0].label.font()).pixelSize()
    qtbot.keyClick(window, Qt.Key.Key_F5)
    idle(qtbot, window)
    panel = QFontInfo(narration.font()).pixelSize()
    assert panel > normal
    for button in narration.choice_buttons:
        assert QFontInfo(button.label.font()).pixelSize() == panel
        assert QFontInfo(button.key.font()).pixelSize() == panel

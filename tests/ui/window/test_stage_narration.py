"""The narration at the projector (issue 17, residuals of review r17): the whole question and its choices in
view at every zoom, the verdict scrolled to, the choices and the dock kept through a reveal, the number and
the text of a choice on one line, no line cut at the top, the map's share with every question of every lesson,
and the measured question's banner only where it belongs. Every measure is of what the screen shows, at the
size a first start gives on that screen (:func:`tensorlab.ui.window.build.first_size`)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from tensorlab.core.lessons.lesson import builtin_lessons
from tests.ui.conftest import idle
from tests.ui.support import fresh_window, go, open_lesson


def _settle(qtbot, ms: int = 30) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def _real(screen: tuple[int, int]) -> tuple[int, int]:
    from tensorlab.ui.window.build import first_size
    return first_size(*screen)


@pytest.fixture
def english_after():
    """The window's language back to English after a test that chose another."""
    from tensorlab.ui.widgets import i18n
    yield
    i18n.set_language("en")


def _client_area(window) -> int:
    from PySide6.QtWidgets import QToolBar

    height = window.height() - window.menuBar().height() - window.statusBar().height()
    height -= sum(bar.height() for bar in window.findChildren(QToolBar) if bar.isVisible() and not bar.isFloating())
    return window.width() * height


def _share(window) -> float:
    viewport = window.storage_map.viewport()
    return viewport.width() * viewport.height() / _client_area(window)


def _box(narration, widget) -> QRect:
    """``widget``'s rectangle in the narration's viewport (what of it the dock shows)."""
    return QRect(widget.mapTo(narration.viewport(), widget.rect().topLeft()), widget.size())


def _whole(narration, widget) -> bool:
    return narration.viewport().rect().contains(_box(narration, widget))


def _question_whole(narration) -> bool:
    return _whole(narration, narration.question) and all(_whole(narration, b) for b in narration.choice_buttons)


def _settled(qtbot, window) -> None:
    """The narration fitted (its dock moves in steps, a moment after the text)."""
    narration = window.narration
    _settle(qtbot)
    qtbot.waitUntil(lambda: narration.widget().width() <= narration.viewport().width(), timeout=5_000)
    _settle(qtbot, 60)


def _to_question(window, qtbot, position: int) -> None:
    go(window, qtbot, position)
    _settled(qtbot, window)
    assert not window.narration.question.isHidden(), position


def _verdict_in_view(narration) -> bool:
    """The verdict's first line is whole in the viewport (scrolled to after a reveal)."""
    box = _box(narration, narration.feedback)
    line = narration.feedback.fontMetrics().lineSpacing()
    return box.top() >= 0 and box.top() + line <= narration.viewport().height()


def _zooms(window):
    """Every zoom the app offers from the normal size up (Ctrl+= until it stops)."""
    window.zoom.reset()
    yield window.zoom.factor
    while True:
        before = window.zoom.factor
        window.zoom.zoom_in()
        if window.zoom.factor == before:
            return
        yield window.zoom.factor


@pytest.mark.parametrize("language", ["en", "ko"])
def test_at_1024x768_normal_every_zoom_shows_the_whole_question_and_then_its_verdict(qtbot, settings, language,
                                                                                    english_after):
    # Review r17 item 9: strides-and-contiguous step 2's question, Ctrl+= twice: choice 1's last line cut,
    # choices 3 and 4 below the fold.
    window = fresh_window(qtbot, settings, _real((1024, 768)), language=language)
    open_lesson(window, qtbot, "strides-and-contiguous")
    narration = window.narration
    go(window, qtbot, 1)
    _to_question(window, qtbot, 2)
    seen = []
    for zoom in _zooms(window):
        _to_question(window, qtbot, 2)
        seen.append(zoom)
        assert _question_whole(narration), (zoom, [_box(narration, b) for b in narration.choice_buttons],
                                            narration.viewport().size())
        assert window.storage_map.viewport().height() >= 150, zoom   # the map keeps its minimum
        narration.choose_key(0)
        _settled(qtbot, window)
        assert narration.revealed and _verdict_in_view(narration), (zoom, _box(narration, narration.feedback))
        go(window, qtbot, 1)          # back: the question is asked again
    assert len(seen) >= 3, seen       # Ctrl+= twice at least
    window.close()


@pytest.mark.parametrize("language", ["en", "ko"])
def test_at_1024x768_projector_every_zoom_shows_the_question_and_scrolls_to_the_verdict(qtbot, settings, language,
                                                                                      english_after):
    # Review r17 item 9: saved-tensors step 4 in Korean, projector mode with Ctrl+=: the verdict stayed below.
    window = fresh_window(qtbot, settings, _real((1024, 768)), projector=True, language=language)
    open_lesson(window, qtbot, "saved-tensors")
    narration = window.narration
    program = window.controller.state.program
    position = next(i for i, step in enumerate(program) if step.ask is not None and i >= 3)
    for zoom in _zooms(window):
        go(window, qtbot, position - 1)
        _to_question(window, qtbot, position)
        assert _question_whole(narration), (zoom, [_box(narration, b) for b in narration.choice_buttons])
        narration.choose_key(1)
        _settled(qtbot, window)
        assert narration.revealed and _verdict_in_view(narration), (zoom, _box(narration, narration.feedback))
    window.close()

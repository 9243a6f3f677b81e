"""The narration at the projector (issue 17, residuals of review r17): the whole question and its choices in
view at every zoom, the verdict scrolled to, the choices and the dock kept through a reveal, the number and
the text of a choice on one line, no line cut at the top, the map's share with every question of every lesson,
and the measured question's banner only where it belongs. Every measure is of what the screen shows, at the
size a first start gives on that screen (:func:`tensorlab.ui.window.build.first_size`)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFontInfo
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



def _map_height(window) -> int:
    """The map's height for the strips: its viewport, and the row it keeps under them for its "+N more changed"
    mark while one shows (the map's own room: the mark was drawn over the viewport's bottom before)."""
    view = window.storage_map
    return view.viewport().height() + view.viewportMargins().bottom()

def _client_area(window) -> int:
    from PySide6.QtWidgets import QToolBar

    height = window.height() - window.menuBar().height() - window.statusBar().height()
    height -= sum(bar.height() for bar in window.findChildren(QToolBar) if bar.isVisible() and not bar.isFloating())
    return window.width() * height


def _share(window) -> float:
    viewport = window.storage_map.viewport()
    return viewport.width() * _map_height(window) / _client_area(window)


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
@pytest.mark.parametrize(("size", "lesson", "every"), [((1024, 768), "saved-tensors", False),
                                                      ((1280, 720), "freezing-no-grad-and-eval", True)])
def test_in_projector_mode_every_zoom_shows_the_questions_whole(qtbot, settings, language, english_after, size,
                                                                  lesson, every):
    # Review r17 item 9: saved-tensors step 4 in Korean, projector mode with Ctrl+= at 1024x768: the verdict stayed
    # below. Review helper-145, item 10: after Ctrl+= at 1280x720 projector, Korean, freezing-no-grad-and-eval's
    # questions at steps 4 and 13 cut choice 4 at the dock's bottom (every question of it, at every zoom).
    window = fresh_window(qtbot, settings, _real(size), projector=True, language=language)
    open_lesson(window, qtbot, lesson)
    narration = window.narration
    program = window.controller.state.program
    asked = [i for i, step in enumerate(program) if step.ask is not None and (every or i >= 3)]
    for zoom in _zooms(window):
        for position in asked if every else asked[:1]:
            go(window, qtbot, max(position - 1, 0))
            _to_question(window, qtbot, position)
            assert _question_whole(narration), (zoom, position, [_box(narration, b) for b in narration.choice_buttons],
                                                narration.viewport().rect())
    window.close()


def _layout_of(narration):
    return (narration.parentWidget().size(), [b.geometry() for b in narration.choice_buttons])


@pytest.mark.parametrize("vote", [False, True])
def test_through_mark_reveal_and_the_next_question_the_choices_keep_their_width_and_the_dock_its_size(
        qtbot, settings, vote):
    # Review r17 item 8 / the lead's case: inplace-on-a-leaf step 6 at 1280x720 normal: after a reveal the choices
    # were ~14 px narrower (a scroll bar came with the verdict) and the dock ~14 px short of its size before.
    window = fresh_window(qtbot, settings, _real((1280, 720)))
    window.set_class_vote(vote)
    open_lesson(window, qtbot, "inplace-on-a-leaf")
    narration = window.narration
    for position in range(1, 6):
        go(window, qtbot, position)
        _settled(qtbot, window)
    assert not narration.question.isHidden()
    dock, choices = _layout_of(narration)
    size = QFontInfo(narration.choice_buttons[0].label.font()).pixelSize()
    narration.choose_key(1)                       # marked (class vote) or revealed
    _settled(qtbot, window)
    if vote:
        assert narration.pending_vote
        now_dock, now_choices = _layout_of(narration)
        assert abs(now_dock.height() - dock.height()) <= 10 and now_dock.width() == dock.width(), (dock, now_dock)
        assert [c.width() for c in now_choices] == [c.width() for c in choices], (choices, now_choices)
        window.step_forward()                     # → reveals (and runs)
        idle(qtbot, window)
        _settled(qtbot, window)
    else:
        assert narration.revealed
        now_dock, now_choices = _layout_of(narration)
        assert abs(now_dock.height() - dock.height()) <= 10 and now_dock.width() == dock.width(), (dock, now_dock)
        assert [c.width() for c in now_choices] == [c.width() for c in choices], (choices, now_choices)
        assert [c.topLeft() for c in now_choices] == [c.topLeft() for c in choices]
        window.step_forward()
        idle(qtbot, window)
        _settled(qtbot, window)
    while narration.question.isHidden() and window.controller.state.position < len(window.controller.state.program):
        window.step_forward()
        idle(qtbot, window)
        _settled(qtbot, window)
    # On to the next question: its choices in the same text size (its dock fits it: another question, another
    # height).
    assert not narration.question.isHidden()
    assert {QFontInfo(b.label.font()).pixelSize() for b in narration.choice_buttons} == {size}, size
    window.close()


def _first_ink(image, rect: QRect) -> int | None:
    """The first row of ``rect`` in ``image`` with a dark pixel (text), or None."""
    for y in range(rect.top(), min(rect.bottom() + 1, image.height())):
        for x in range(rect.left(), min(rect.right() + 1, image.width())):
            if image.pixelColor(x, y).lightness() < 110:
                return y
    return None


@pytest.mark.parametrize("size,projector,language", [((1024, 768), False, "en"), ((1280, 720), True, "en"),
                                                     ((1024, 768), False, "ko"), ((1920, 1080), True, "ko")])
def test_a_choices_text_starts_on_its_numbers_line(qtbot, settings, size, projector, language, english_after):
    # Review r17 item 13, r18 item 12: in a 2x2 grid a choice shorter than its row-mate had its text centred,
    # a line below its number (making-a-new-leaf q3 choice 3, in-and-out-of-torch q7 choice 3).
    window = fresh_window(qtbot, settings, _real(size), projector, language=language)
    checked = 0
    for lesson, nth in (("making-a-new-leaf", 3), ("in-and-out-of-torch", 6)):
        open_lesson(window, qtbot, lesson)
        program = window.controller.state.program
        asked = [i for i, step in enumerate(program) if step.ask is not None]
        _to_question(window, qtbot, asked[min(nth, len(asked) - 1)])
        for button in window.narration.choice_buttons:
            image = button.grab().toImage()
            number, text = _first_ink(image, button.key.geometry()), _first_ink(image, button.label.geometry())
            assert number is not None and text is not None, (lesson, button.text())
            # The same line: the text's first ink within a few pixels of the number's (not a line below).
            line = button.label.fontMetrics().lineSpacing()
            assert abs(number - text) <= line // 3, (lesson, button.text(), number, text, line)
            checked += 1
    assert checked >= 8
    window.close()


# Known exceptions (lesson, position): none now (what-step-and-zero-grad-do's step 14 at 1024x768 projector, whose
# reveal scrolled inside the question's first line, lands on a line since the covers of h17m). Every question of
# both lessons is checked.
_KNOWN_CUT: set[tuple[str, int]] = set()


@pytest.mark.parametrize("size,lesson", [((1024, 768), "what-step-and-zero-grad-do"), ((1280, 720), "leaves-and-grad")])
def test_in_projector_mode_after_a_reveal_no_line_is_cut_at_the_top_of_the_narration(qtbot, settings, size, lesson):
    # Review r17 item 7: after a reveal the title line was half visible at the top of the narration.
    window = fresh_window(qtbot, settings, _real(size), projector=True)
    open_lesson(window, qtbot, lesson)
    narration = window.narration
    program = window.controller.state.program
    revealed = 0
    for position in [i for i, step in enumerate(program) if step.ask is not None]:
        go(window, qtbot, position - 1)
        _to_question(window, qtbot, position)
        narration.choose_key(0)
        _settled(qtbot, window)
        revealed += 1
        assert _verdict_in_view(narration), (position, _box(narration, narration.feedback))
        # What the screen shows: the viewport's top rows hold no ink of a line cut in half (a line's top is its
        # leading, blank; the title's bold half line was ink there).
        texts = [narration.title, narration.answer, narration.note, narration.question, narration.feedback]
        for label in texts + [b.label for b in narration.choice_buttons]:
            box = _box(narration, label)
            if label.isHidden() or not box.top() < 0 < box.bottom():
                continue
            # A text across the top edge: its rows there (the first two shown) are blank, a line's leading.
            image, row = label.grab().toImage(), -box.top()
            inked = [x for x in range(image.width()) if image.pixelColor(x, row).lightness() < 110
                     and image.pixelColor(x, row + 1).lightness() < 110]
            if (lesson, position) in _KNOWN_CUT:
                continue
            assert len(inked) <= 2, (position, label.objectName(), row, narration.verticalScrollBar().value())
    assert revealed >= 2
    window.close()


def test_the_measured_questions_banner_shows_only_on_its_own_step(qtbot, settings):
    # Review r18 item 9: "This question is answered by a measurement… step back (←) and choose to measure it",
    # about q8 (skipped), stayed above q9, as if q9 were unmeasured too.
    from tensorlab.ui.widgets.i18n import tr

    window = fresh_window(qtbot, settings, _real((1280, 720)))
    open_lesson(window, qtbot, "clone-detach-order")
    narration = window.narration
    program = window.controller.state.program
    measured = [i for i, step in enumerate(program) if step.ask is not None and step.ask.measured is not None]
    assert len(measured) == 2 and measured[1] == measured[0] + 1
    banner = tr("This question is answered by a measurement on this session's device: "
                "step back (←) and choose to measure it.")

    def banner_shown() -> bool:
        return narration.answer.isVisible() and banner.split(":")[0] in narration.answer.text()

    go(window, qtbot, measured[1])         # q8's step ran unmeasured; q9 asks
    _settled(qtbot, window)
    assert not narration.question.isHidden() and not banner_shown()
    go(window, qtbot, measured[1] + 1)     # q9's step ran unmeasured: its own banner, nothing asked after it
    _settled(qtbot, window)
    assert banner_shown()
    window.close()


# Known residuals: (lesson, position, language) where the map's share may stay under 30%: none now. (The share cap
# is reckoned on the map's width once its scroll bar comes, and lowered when the map is already under its share:
# making-a-new-leaf step 4 in Korean measured 29.1% because a dock grown to the cap computed on the 612 px viewport
# was never taken back when the scroll bar narrowed it to 598 px; what-step-and-zero-grad-do step 14's Korean
# choices were longer than they need be, 29.7%.)
_KNOWN: set[tuple[str, int, str]] = set()


@pytest.mark.parametrize("language", ["en", "ko"])
def test_at_1280x720_normal_every_question_of_every_lesson_leaves_the_map_30_percent(qtbot, settings, language,
                                                                                   english_after):
    # Review r17 item 2 and the lead's check: steps with long notes gave the map 22-26%. A note scrolls inside the
    # dock (its scroll bar shows) rather than the dock growing past the map's share; the question shows whole.
    window = fresh_window(qtbot, settings, _real((1280, 720)), language=language)
    narration = window.narration
    asked, short, cut = 0, [], []
    for lesson in builtin_lessons():
        open_lesson(window, qtbot, lesson.id)
        for position, step in enumerate(window.controller.state.program):
            if step.ask is None:
                continue
            go(window, qtbot, position)
            _settled(qtbot, window)
            asked += 1
            where = (lesson.id, position, language)
            if not _question_whole(narration) and where not in _KNOWN:
                cut.append(where)
            if narration.needed_height() > narration.height():   # never cut without a scroll bar to say so
                assert narration.verticalScrollBar().isVisible(), where
            share = _share(window)
            if share < 0.30 and where not in _KNOWN:
                short.append((*where, round(share, 3), narration.question_height(), narration.height(),
                              _box(narration, narration.question).top()))
    assert asked > 50
    assert not cut, cut
    assert not short, short
    window.close()


@pytest.mark.parametrize(("size", "language", "lesson"), [((1280, 720), "en", "saved-tensors"),
                                                          ((1280, 720), "en", "what-step-and-zero-grad-do"),
                                                          ((1024, 768), "ko", "detach-shares-memory")])
def test_after_a_reveal_the_verdict_shows_under_the_right_choice_and_the_chosen_one(qtbot, settings, english_after,
                                                                                   size, language, lesson):
    # Review helper-158, D3: in projector mode a revealed verdict scrolled the dock so that only choice 4 stood
    # above "✔ Right." (saved-tensors step 5 at 1280x720, the right choice was 1): the back row read 4 as right.
    window = fresh_window(qtbot, settings, _real(size), projector=True, language=language)
    open_lesson(window, qtbot, lesson)
    narration = window.narration
    program = window.controller.state.program
    for position in [i for i, step in enumerate(program) if step.ask is not None]:
        ask = program[position].ask
        if ask.answer is None:
            continue
        for chosen in {ask.answer, (ask.answer + 1) % len(ask.choices)}:
            go(window, qtbot, position - 1)
            _to_question(window, qtbot, position)
            narration.choose_key(chosen)
            _settled(qtbot, window)
            assert narration.revealed and _verdict_in_view(narration), (position, chosen)
            right = narration.choice_buttons[ask.answer]
            assert _whole(narration, right), (position, chosen, _box(narration, right), narration.viewport().rect())
            if _box(narration, narration.feedback).top() - _box(narration, narration.choice_buttons[chosen]).top() \
                    <= narration.viewport().height() - narration.feedback.fontMetrics().lineSpacing():
                assert _whole(narration, narration.choice_buttons[chosen]), (position, chosen)
            number = str(ask.answer + 1)
            assert number in narration.feedback.text(), narration.feedback.text()
    window.close()


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)])
def test_in_projector_mode_every_question_of_the_course_shows_whole_at_the_normal_zoom(qtbot, settings, size):
    # Review helper-158, D10: at 1280x720 projector, what-step-and-zero-grad-do's step-6 question cut choice 4 at
    # the dock's bottom, at the normal zoom. Every question of the course, English and Korean, shows whole.
    from tensorlab.core.lessons.lesson import builtin_lessons
    from tensorlab.ui.widgets import i18n

    cut = []
    for language in ("en", "ko"):
        window = fresh_window(qtbot, settings, _real(size), projector=True, language=language)
        for lesson in builtin_lessons():
            open_lesson(window, qtbot, lesson.id)
            program = window.controller.state.program
            for position in (i for i, step in enumerate(program) if step.ask is not None):
                go(window, qtbot, max(position - 1, 0))
                _to_question(window, qtbot, position)
                if not _question_whole(window.narration):
                    cut.append((language, lesson.id, position))
        window.close()
    i18n.set_language("en")
    assert not cut, cut


@pytest.mark.parametrize(("size", "vote", "marked"), [((1280, 720), True, True), ((1024, 768), True, True),
                                                     ((1024, 768), True, False)])
def test_a_question_run_unanswered_shows_its_answer_whole_before_the_next_question(qtbot, settings, size, vote,
                                                                                 marked):
    # Review helper-158, D11: with class vote, → revealed what-step's step-6 vote, ran the step and scrolled to
    # step 7's question: the answer the class voted on was above, out of view (helper-159, D2: the same with
    # nothing marked). Now the step runs, the answer shows with its explanation, and the next → shows the next
    # question without running anything.
    window = fresh_window(qtbot, settings, _real(size), projector=True)
    window.set_class_vote(vote)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    narration = window.narration
    program = window.controller.state.program
    position = next(i for i in range(len(program) - 1) if program[i].ask is not None and program[i + 1].ask is not None)
    go(window, qtbot, position - 1)
    _to_question(window, qtbot, position)
    if marked:
        narration.choose_key(program[position].ask.answer)
        _settled(qtbot, window)
        assert narration.pending_vote
    assert narration.unanswered
    window.step_forward()                      # → (reveals the vote and) runs the step
    idle(qtbot, window)
    _settled(qtbot, window)
    assert window.controller.state.position == position + 1 and narration.question.isHidden()
    assert _box(narration, narration.answer).top() >= 0
    if marked:
        explain = program[position].ask.text("explain", "en")
        assert explain.split(":")[0][:30] in narration.answer.text().replace("&nbsp;", " "), narration.answer.text()
    assert "Press → for the next question." in narration.answer.text()
    window.step_forward()                      # → the next question; nothing runs
    idle(qtbot, window)
    _settled(qtbot, window)
    assert window.controller.state.position == position + 1
    assert not narration.question.isHidden() and _question_whole(narration)
    assert "Press → for the next question." not in narration.answer.text()
    window.close()


def test_a_step_without_a_question_shows_the_narration_from_its_top(qtbot, settings, english_after):
    # Review helper-158, D22: at End of state-dict-shares-memory (1024x768 projector, Korean), after the last
    # question was answered, the dock stayed scrolled down: the answer's head ("답: …") was above the fold.
    window = fresh_window(qtbot, settings, _real((1024, 768)), projector=True, language="ko")
    open_lesson(window, qtbot, "state-dict-shares-memory")
    narration = window.narration
    program = window.controller.state.program
    last_ask = max(i for i, step in enumerate(program) if step.ask is not None)
    go(window, qtbot, last_ask - 1)
    _to_question(window, qtbot, last_ask)
    narration.choose_key(0)
    _settled(qtbot, window)
    assert narration.verticalScrollBar().value() > 0 or narration.needed_height() <= narration.height()
    window.step_forward()
    idle(qtbot, window)
    _settled(qtbot, window)
    if last_ask + 1 < len(program):
        assert program[last_ask + 1].ask is None
    assert narration.question.isHidden()
    assert narration.verticalScrollBar().value() == 0
    assert _box(narration, narration.answer).top() >= 0
    window.close()


def test_a_marked_class_vote_shows_its_line_whole(qtbot, settings, english_after):
    # Review helper-159, D3: at 1024x768 projector, Korean, "표시함: 2번. →(또는 Enter)를 누르면 …" under the choices
    # was cut at the dock's bottom.
    window = fresh_window(qtbot, settings, _real((1024, 768)), projector=True, language="ko")
    window.set_class_vote(True)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    narration = window.narration
    program = window.controller.state.program
    for position in [i for i, step in enumerate(program) if step.ask is not None][:4]:
        go(window, qtbot, position - 1)
        _to_question(window, qtbot, position)
        narration.choose_key(1)
        _settled(qtbot, window)
        assert narration.pending_vote
        assert _whole(narration, narration.feedback), (position, _box(narration, narration.feedback))
        assert _whole(narration, narration.choice_buttons[1]), position
    window.close()

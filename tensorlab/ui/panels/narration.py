"""The narration panel: the lesson's note for the current step, and "predict before you run".

Choices are word-wrapped buttons (keys 1–4 choose). Normally a choice reveals at
once whether it is right; in a *class vote* a choice is only marked, and → (or
Enter) reveals the answer and runs the step. After a step with a question has run,
its answer (and whether the prediction was right) stays above the note.

A *measured* question (``check = "verdict"``) has no stored answer: once a choice is made, the
window times the two orders on the session's device (``measureRequested``, a job in the worker),
the panel shows its progress and a Cancel button, and then marks the choice the measured verdict
makes right.
"""

from __future__ import annotations

import math
import re

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QScrollArea,
    QSizePolicy,
    QSpacerItem,
    QVBoxLayout,
    QWidget,
)

from tensorlab.core.engine.player import PlayerState, StepOrigin
from tensorlab.core.lessons.lesson import Ask
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.engine_api import Reply
from tensorlab.core.protocol.measure_results import QUESTION_JOB, MeasureResult
from tensorlab.ui.widgets.html import ZWSP, breakable, breakable_code, code_block, escape, inline_code, note_html
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language, tr
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.progress_row import ProgressRow
from tensorlab.ui.widgets.text_zoom import base_px, pixel_font

__all__ = ["NarrationPanel", "ChoiceButton", "ChoicesLayout"]

# Each look: (border width, border colour, background). Painted, not a style sheet: a style sheet set on
# a choice re-polishes its labels and resets their font to the default size (the choices shrank after
# a reveal), so a look must never touch the fonts.
_LOOKS = {
    "plain": (1, "#9e9e9e", "#ffffff"),
    "marked": (3, "#1565c0", "#e3f2fd"),
    "right": (3, "#2e7d32", "#e8f5e9"),
    "wrong": (1, "#c62828", "#ffebee"),
}



# A step without a note shows its code: its first lines (a 300,000-line statement of a learner's file is cut).
_CODE_LINES = 12


def _code_shown(code: str, language: str) -> str:
    """``code`` as a code block, its first :data:`_CODE_LINES` lines and how many more are not shown."""
    lines = code.split("\n")
    if len(lines) <= _CODE_LINES + 2:
        return code_block(code)
    more = render("source.lines_not_shown", {"count": f"{len(lines) - _CODE_LINES:,}"}, language)
    return code_block("\n".join(lines[:_CODE_LINES])) + "<br>" + escape(more)

class ChoiceButton(QFrame):
    """A choice: its key number and its text, word-wrapped (never cut), clickable."""

    clicked = Signal()

    def __init__(self, number: int, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"askChoice{number - 1}")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        self.key = QLabel(f"<b>{number}</b>")
        self.key.setAlignment(Qt.AlignmentFlag.AlignTop)
        self._text = text
        # Shown with break opportunities inside code, so a long call chain wraps instead of widening the dock.
        self.label = QLabel(breakable_code(text))
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        # Text at the top, beside its number: a choice shorter than its row-mate in the 2x2 grid is as tall as
        # the row, and a label centred in it started a line below its number (the number alone on its line).
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.key, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.label, 1)
        self.setAccessibleName(text)
        self.set_look("plain")

    def text(self) -> str:
        """The choice's text."""
        return self._text

    def set_choice(self, text: str) -> None:
        """Show ``text`` (the button is reused for the next question)."""
        if self._text != text:
            self._text = text
            self.label.setText(breakable_code(text))
            self.setAccessibleName(text)

    def unbroken_width(self) -> int:
        """The narrowest the button can be with no word of its text cut: its number, its margins and its
        longest unbreakable run (the text breaks only at spaces and at the break opportunities in code)."""
        metrics = QFontMetricsF(self.label.font())
        words = re.split(f"[\\s{ZWSP}]+", self.label.text())
        longest = max((metrics.horizontalAdvance(w) for w in words), default=0.0)
        layout = self.layout()
        assert layout is not None   # made with the button
        margins = layout.contentsMargins()
        return math.ceil(longest + self.key.sizeHint().width() + layout.spacing() + margins.left()
                         + margins.right() + 2)

    def set_look(self, look: str) -> None:
        """plain, marked (a class vote), right or wrong."""
        if getattr(self, "look", None) == look:
            return
        self.look = look
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        width, border, background = _LOOKS[self.look]
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(QColor(border))
        pen.setWidth(width)
        painter.setPen(pen)
        painter.setBrush(QColor(background))
        inset = width / 2
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(inset, inset, -inset, -inset), 4, 4)
        painter.end()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt's name
        if self.isEnabled() and self.rect().contains(event.position().toPoint()):
            self.clicked.emit()
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.clicked.emit()
            return
        super().keyPressEvent(event)


COLUMN_CHARS = 28   # the characters a column of choices holds, at least, to take two columns (a long word fits)


class ChoicesLayout(QLayout):
    """The choices stacked, or two side by side (1 2 / 3 4) when the width leaves a column room enough.

    Long choices wrap inside their column. The arrangement follows from the width alone (never from the
    text: every question at this width has the same columns) (``heightForWidth`` and ``setGeometry`` agree), so the
    narration's measure of the height it needs is the height it gets.
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt's name
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt's name
        return Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self._arranged(width)[1]

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        shown = self._shown()
        width = max((i.sizeHint().width() for i in shown), default=0)
        return QSize(width, self.heightForWidth(max(width, 1)))

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(max((i.minimumSize().width() for i in self._shown()), default=0), 0)

    def columns(self) -> int:
        """How many columns the choices take at the layout's width now."""
        return self._arranged(self.geometry().width())[0]

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt's name
        super().setGeometry(rect)
        columns, _height = self._arranged(rect.width())
        shown, gap = self._shown(), self._gap
        width = (rect.width() - gap * (columns - 1)) // columns
        y = rect.y()
        for row in range(0, len(shown), columns):
            items = shown[row:row + columns]
            height = max(i.heightForWidth(width) if i.hasHeightForWidth() else i.sizeHint().height() for i in items)
            for column, item in enumerate(items):
                item.setGeometry(QRect(QPoint(rect.x() + column * (width + gap), y), QSize(width, height)))
            y += height + gap

    def _shown(self) -> list[QLayoutItem]:
        return [i for i in self._items if not i.isEmpty()]

    def _arranged(self, width: int) -> tuple[int, int]:
        """(columns, height) at ``width``: two columns when a column of half the width holds COLUMN_CHARS
        characters of the choices' text, else one; the text wraps inside. The width alone decides (the text
        decided once, and the choices switched between one and two columns from question to question)."""
        shown = self._shown()
        columns = 2 if len(shown) > 1 and self._column_room(width) else 1
        return columns, self._height(shown, columns, width)

    def _column_room(self, width: int) -> bool:
        """A column of half ``width`` holds COLUMN_CHARS characters at the choices' size."""
        parent = self.parentWidget()
        if parent is None:
            return False
        return (width - self._gap) // 2 >= COLUMN_CHARS * QFontMetricsF(parent.font()).averageCharWidth()

    def _height(self, shown: list[QLayoutItem], columns: int, width: int) -> int:
        width = max(1, (width - self._gap * (columns - 1)) // columns)
        rows = [shown[i:i + columns] for i in range(0, len(shown), columns)]
        heights = [max(i.heightForWidth(width) if i.hasHeightForWidth() else i.sizeHint().height() for i in row)
                   for row in rows]
        return sum(heights) + self._gap * max(0, len(rows) - 1)


class NarrationPanel(QScrollArea):
    """Shows what the last step means, and asks about the next one when the lesson does."""

    answered = Signal(int, bool)   # choice, correct (when revealed)
    changed = Signal()             # the text changed (the window makes room for it)
    measureRequested = Signal(dict)   # noqa: N815 - a measured question's job params (the window runs QUESTION_JOB)
    measureCancelRequested = Signal()  # noqa: N815

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("narration")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Narration"))
        self.i18n.on_change(self._retranslate)
        # Scrolls only when the dock is very small (the window makes room for a question).
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # While a question shows, the room of the scroll bar is kept (an empty margin while no bar is needed):
        # the verdict a reveal adds may bring the bar, and a bar coming then narrowed the choices under the
        # teacher's pointer by its width. Kept as a margin, not a bar always on, so that the bar shows only when
        # there is something to scroll (a visible cue), and the viewport's width never changes.
        self._keeping_room = False
        self.verticalScrollBar().rangeChanged.connect(lambda *_: self._keep_bar_room())
        # The content laid out again (a dock resized, a text rewrapped): the question scrolled to again, once.
        self._ensure_pending = False
        self.verticalScrollBar().rangeChanged.connect(lambda *_: self._ensure_later())
        inner = QWidget()
        self.setWidget(inner)
        layout = QVBoxLayout(inner)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.setSpacing(4)   # the style's 6 to 7 px between five texts: 10 px of the map's height
        self.title, self.answer, self.note, self.question, self.feedback = (self._label(n) for n in (
            "narrationTitle", "askAnswer", "narrationNote", "askQuestion", "askFeedback"))
        self.answer.setStyleSheet("background:#f1f8e9; padding:4px;")
        self.choices_box = QWidget()
        # Choices wrapped, so long answers never widen the dock or get cut; two side by side when less tall.
        self.choices_layout = ChoicesLayout(self.choices_box)
        self.measure_row = ProgressRow("askMeasure")
        self.measure_row.cancelRequested.connect(self.measureCancelRequested)
        for widget in (self.title, self.answer, self.note, self.question, self.choices_box, self.feedback,
                       self.measure_row):
            layout.addWidget(widget)
        layout.addStretch(1)
        self._pad = QSpacerItem(0, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)   # see _set_pad
        layout.addItem(self._pad)
        self.choice_buttons: list[ChoiceButton] = []   # the choices of the question shown
        self._pool: list[ChoiceButton] = []             # every choice button made, reused
        self.class_vote = False
        # Normal mode: the toolbar shows the lesson and the step, so a question takes the title's line.
        self.title_with_question = True
        self._ask: Ask | None = None
        self._ask_step = -1                 # program index of the step the question is about
        self._ask_code = ""
        self._chosen: int | None = None
        self._revealed = False
        self._result: tuple[int, str, int | None] | None = None   # (step, code, choice) of the last reveal
        self._state: PlayerState | None = None
        self._built: tuple[object, ...] | None = None   # language, vote, font, title shown: the choices built
        # What measured questions measured, by (device, size, requires_grad): the verdict measured then.
        self._measured: dict[tuple[str, int, bool], MeasureResult] = {}
        self._measuring: tuple[int, str] | None = None   # (step, code) of the measurement running
        # The smallest pixel size a question and its choices may take to fit the panel's height (the window's: its
        # size at the normal zoom, in projector mode, where the side dock cannot grow); None: never smaller.
        self.fit_floor: int | None = None
        # The position whose question waits for the next → (a class vote just revealed the question before it:
        # its answer is read first, whole; review helper-158, D11); None: none waits.
        self.held_question: int | None = None

    @staticmethod
    def _label(name: str) -> QLabel:
        label = QLabel()
        label.setObjectName(name)
        # Every text set here is HTML, escaped where it is plain (_set_text): rich text always. Left to
        # AutoText, a note with no tag (a notebook's `a &amp; b`, unescaped once, escaped again for
        # display) was taken as plain and its `&amp;` shown raw.
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        return label

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Every text of the panel at ``scale``."""
        font = pixel_font(base_px(), scale)
        self.setFont(font)
        self._question_font(font)

    def _question_font(self, font: QFont) -> None:
        """The question and its choices in ``font``. The choice buttons are kept between questions and styled: they
        take the new size now, not at the next question (F5 with a question on screen left its choices small)."""
        if self.question.font() != font:
            self.question.setFont(font)
        for button in self._pool:
            for widget in (button, button.key, button.label):
                if widget.font() != font:
                    widget.setFont(font)

    def _fit_question(self) -> None:
        """A question taller than the panel (the side dock of projector mode cannot grow; Ctrl+= at 1280x720 cut
        choice 4 at its bottom: review helper-145, item 10) is written a pixel smaller at a time, down to
        :attr:`fit_floor`, until it and its choices fit; the same size for all of them, kept through the reveal."""
        full = self.font()
        if self.fit_floor is None or self.question.isHidden() or self._revealed or self.pending_vote:
            return
        room = self.viewport().height()
        size = full.pixelSize()
        floor = min(size, self.fit_floor)
        content = self.widget()
        layout = content.layout() if content is not None else None
        for candidate in range(size, floor - 1, -1):
            font = QFont(full)
            font.setPixelSize(candidate)
            self._question_font(font)
            if layout is not None:
                layout.invalidate()
                self.choices_layout.invalidate()
            if self.question_height() <= room:
                return

    def set_title_with_question(self, on: bool) -> None:
        """Whether the title line (lesson, step) stays while a question shows (projector mode: yes; normal
        mode: no, the toolbar says both, and the map keeps the line's height)."""
        self.title_with_question = on
        if self._state is not None:
            self.show_state(self._state)

    def set_class_vote(self, on: bool) -> None:
        """Class vote: a choice is only marked until → reveals it."""
        self.class_vote = on
        if self._state is not None:
            self.show_state(self._state)

    @property
    def pending_vote(self) -> bool:
        """A choice is marked in a class vote and not revealed yet."""
        return self.class_vote and self._chosen is not None and not self._revealed

    @property
    def unanswered(self) -> bool:
        """A question is shown and its answer not revealed yet (nothing chosen, or a class vote only marked)."""
        return self._ask is not None and not self._revealed and not self.question.isHidden()

    @property
    def revealed(self) -> bool:
        """The question shown has its answer revealed (its verdict in the feedback below the choices)."""
        return self._ask is not None and self._revealed

    def is_answered(self, position: int, code: str) -> bool:
        """The question of step ``position`` (0-based, with this ``code``) is answered: its choice revealed.

        The window holds back the panel hints that would answer an open question until then
        (:mod:`~tensorlab.ui.widgets.held_hints`); ``changed`` is emitted when this becomes true."""
        return self._ask is not None and self._revealed and (self._ask_step, self._ask_code) == (position, code)

    def _retranslate(self) -> None:
        if self._state is not None:
            self.show_state(self._state)

    def render_view(self, view: View) -> None:
        """Show the view's player state."""
        self.show_state(view.state)

    @contained
    def show_state(self, state: PlayerState) -> None:
        """Narrate ``state``: the note of the step just run, and the next step's question."""
        self._state = state
        if self.held_question is not None and state.position != self.held_question:
            self.held_question = None   # stepped elsewhere: nothing waits
        lesson = state.lesson
        language = current_language()
        total = len(state.program)
        where = escape(tr("step {position} of {total}").format(position=state.position, total=total))
        name = inline_code(lesson.text("title", language)) if lesson is not None else escape(tr("Scratchpad"))
        _set_text(self.title, f"<b>{name}</b> &nbsp;·&nbsp; {where}")
        if state.position == 0:
            summary = lesson.text("summary", language) if lesson is not None else ""
            hint = tr("Press → (or Space) to run the first step.") if total else \
                tr("Build a tensor on the left or type a line of PyTorch below it.")
            _set_text(self.note, inline_code(summary) + ("<br><br>" if summary else "") + escape(hint))
        else:
            step = state.program[state.position - 1]
            if step.origin == StepOrigin.USER:
                text = escape(tr("You added this step:")) + f" <code>{inline_code(step.code)}</code>"
            else:
                text = note_html(step.text(language)) or _code_shown(step.code, language)   # a note's lines kept
            if state.position == total and total:
                # The scratchpad has no end: the last step is only the latest one added.
                last = (tr("End of the lesson. ← steps back; Home starts again.") if lesson is not None else
                        tr("Your latest step. Add the next with a builder or the code line; ← steps back."))
                text += "<br><br><i>" + escape(last) + "</i>"
            _set_text(self.note, text)
        self._show_answer(state)
        self._show_ask(state)

    def _show_answer(self, state: PlayerState) -> None:
        """After a step with a question ran: its answer, and whether the prediction was right."""
        index = state.position - 1
        ask = state.program[index].ask if 0 <= index < len(state.program) else None
        if ask is None:
            self.answer.hide()
            return
        language = current_language()
        choices = ask.text("choices", language)
        chosen = self._result[2] if self._result is not None and self._result[:2] == (
            index, state.program[index].code) else None
        answer = self._right(ask)
        if answer is None and state.position < len(state.program) and state.program[state.position].ask is not None:
            # A measured question nobody measured, and the next question shown: the banner about this one
            # would read as if the next were unmeasured (clone-detach-order q8 above q9). Said on its own step.
            self.answer.hide()
            return
        if answer is None:   # a measured question nobody measured (the step ran without a choice)
            _set_text(self.answer, escape(tr("This question is answered by a measurement on this session's device: "
                                          "step back (←) and choose to measure it.")))
            self.answer.show()
            return
        right = choices[answer]
        # The next question waiting, and this one's explanation already shown when it was revealed: the
        # answer alone, so the new question does not push the map down with a text the class has just read.
        short = chosen is not None and state.position < len(state.program) \
            and state.program[state.position].ask is not None and self.held_question != state.position
        # The choices are gone once the step ran: the right one by its number and its text, so that a class that
        # voted by number reads which it was (review helper-159, D4).
        number = answer + 1
        if chosen is None:
            verdict = tr("The answer: {number}, “{answer}”.").format(number=number, answer=right)
        elif chosen == answer:
            verdict = tr("✔ Right: {number}, “{answer}”.").format(number=number, answer=right) if short \
                else tr("✔ Right: the answer is {number}.").format(number=number)
        else:
            verdict = tr("✘ Not quite: the answer is {number}, “{answer}”.").format(number=number, answer=right)
        if right.rstrip().endswith((".", "!", "?", "…", "。")) and verdict.endswith("”."):
            verdict = verdict[:-1]   # the choice ends its own sentence: “…operation.” not “…operation.”.
        explain = "" if short else inline_code(ask.text("explain", language))
        waiting = " " + escape(tr("Press → for the next question.")) if self.held_question == state.position else ""
        _set_text(self.answer, f"<b>{escape(verdict)}</b> {self._measured_text(ask)}{explain}{waiting}")
        self.answer.setToolTip(ask.text("explain", language) if short else "")
        self.answer.show()

    def _found(self, ask: Ask) -> MeasureResult | None:
        """What was measured for ``ask`` on the session's device (None: not measured, or not a measured question)."""
        if ask.measured is None:
            return None
        device = self._state.device if self._state is not None else ""
        return self._measured.get((device, ask.measured.size, ask.measured.requires_grad))

    def _right(self, ask: Ask) -> int | None:
        """The right choice: the stored answer, or the measured verdict's (None: not measured yet)."""
        if ask.measured is None:
            return ask.answer
        found = self._found(ask)
        return ask.measured.choice(found) if found is not None else None

    def _measured_text(self, ask: Ask) -> str:
        """"Measured on …: <verdict>. " for a measured question (empty for any other)."""
        found = self._found(ask)
        verdict = ask.measured.verdict(found) if found is not None and ask.measured is not None else None
        if found is None or verdict is None:
            return ""
        return escape(tr("Measured on {device}: {verdict}.").format(
            device=found.machine.device, verdict=verdict.render(current_language()))) + " "

    def _say_measuring(self, ask: Ask) -> None:
        """The chosen answer is marked while its question is measured."""
        if ask.measured is None or self._chosen is None:
            return
        self.choice_buttons[self._chosen].set_look("marked")
        _set_text(self.feedback, escape(tr("Measuring clone().detach() and detach().clone() at {size} elements on "
                                        "this session's device…").format(size=f"{ask.measured.size:,}")))
        self.feedback.show()

    def release_question(self) -> bool:
        """Show the question held back after a class vote's reveal (→); False: none was held."""
        if self.held_question is None or self._state is None:
            return False
        self.held_question = None
        self.show_state(self._state)
        self._ensure_later()
        return True

    def _show_ask(self, state: PlayerState) -> None:
        ask = state.program[state.position].ask if state.position < len(state.program) else None
        if self.held_question == state.position:
            ask = None   # read the answer above first: the next → shows this question
        code = state.program[state.position].code if ask is not None else ""
        if ask is not self._ask or state.position != self._ask_step or code != self._ask_code:
            self._chosen, self._revealed = None, False
            if self._measuring is None:
                self.measure_row.stop()
        elif ask is not None and self._built == (current_language(), self.class_vote, self.font().key(),
                                                 self.title_with_question):
            # The same question, already built: only the looks of its choices may change.
            self._show_choice()
            return
        self._ask, self._ask_step, self._ask_code = ask, state.position, code
        self._built = (current_language(), self.class_vote, self.font().key(),
                       self.title_with_question) if ask is not None else None
        count = len(ask.text("choices", current_language())) if ask is not None else 0
        for button in self._pool[count:]:
            if not button.isHidden():
                button.hide()
        self.choice_buttons = []
        self.feedback.clear()
        if ask is None:
            self.question.hide()
            self.choices_box.hide()
            self.feedback.hide()
            self.title.show()
            self._keep_bar_room(fresh=True)
            # No question: read from the top, the answer to the question just run first (the scroll stayed where
            # the last question's verdict had put it, and at End the answer's head was above the fold: review
            # helper-158, D22).
            self._set_pad(0)
            self.verticalScrollBar().setValue(0)
            QTimer.singleShot(0, self, self._to_top)
            return
        language = current_language()
        heading = tr("Class vote: mark the class's choice, then press → (or Enter) to reveal it and run the step.") \
            if self.class_vote else tr("Predict before you run:")
        _set_text(self.question, f"<b>{escape(heading)}</b> " + inline_code(ask.text("question", language)))
        for i, choice in enumerate(ask.text("choices", language)):
            # Buttons are made once and reused: a new widget costs a polish, a layout and a destroy.
            if i == len(self._pool):
                button = ChoiceButton(i + 1, choice, self.choices_box)
                button.clicked.connect(lambda i=i: self.choose(i))
                self.choices_layout.addWidget(button)
                self._pool.append(button)
            button = self._pool[i]
            button.set_choice(choice)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            button.set_look("plain")
            if button.isHidden():
                button.show()   # showing a hidden widget polishes and lays it out: only when needed
            self.choice_buttons.append(button)
        # A new question starts at the panel's size (the last may have been written smaller to fit); each label
        # is checked on its own: the button's font alone says nothing about its labels'.
        self._question_font(self.font())
        self.question.show()
        self.choices_box.show()
        self.title.setVisible(self.title_with_question)
        self._keep_bar_room(fresh=True)
        self._show_choice()

    def _show_choice(self) -> None:
        """Looks and feedback for the current choice (none, marked, or revealed)."""
        self.changed.emit()
        ask = self._ask
        if ask is None:
            return
        if self._chosen is None:
            self.feedback.hide()
            return
        if self._measuring is not None and self._measuring == (self._ask_step, self._ask_code):
            self._say_measuring(ask)
            return
        if not self._revealed:
            self.choice_buttons[self._chosen].set_look("marked")
            _set_text(self.feedback, escape(tr("Marked: {number}. Press → (or Enter) to reveal the answer and run "
                                            "the step.").format(number=self._chosen + 1)))
            self.feedback.show()
            return
        answer = self._right(ask)
        if answer is None:
            return
        correct = self._chosen == answer
        # The right choice is marked green, with its number: say the number, not the whole text again.
        verdict = (tr("✔ Right: the answer is {number}.") if correct else tr("✘ Not quite: the answer is {number}.")
                   ).format(number=answer + 1)
        _set_text(self.feedback, f"<b>{escape(verdict)}</b> {self._measured_text(ask)}"
                              f"{inline_code(ask.text('explain', current_language()))} "
                              + escape(tr("Press → to see it happen.")))
        self.feedback.show()
        for i, button in enumerate(self.choice_buttons):
            # Not disabled (greyed text is hard to read on a projector): a revealed question ignores clicks.
            button.setCursor(Qt.CursorShape.ArrowCursor)
            button.set_look("right" if i == answer else "wrong" if i == self._chosen else "plain")

    def choose(self, index: int) -> None:
        """Choose answer ``index``: revealed at once, or only marked in a class vote."""
        if self._ask is None or self._revealed or self._measuring is not None \
                or not 0 <= index < len(self.choice_buttons):
            return
        if self._chosen is not None:
            self.choice_buttons[self._chosen].set_look("plain")
        self._chosen = index
        if self.class_vote:
            self._show_choice()
        else:
            self.reveal()

    def choose_key(self, index: int) -> None:
        """Keys 1–4: choose when a question is shown."""
        if self.question.isVisible():
            self.choose(index)

    def reveal(self) -> None:
        """Say whether the chosen answer is right (the step itself runs with →)."""
        if self._ask is None or self._chosen is None or self._revealed or self._measuring is not None:
            return
        measured = self._ask.measured
        if measured is not None and self._right(self._ask) is None:
            # No stored answer: measure now (in the worker), and reveal when the verdict comes.
            self._measuring = (self._ask_step, self._ask_code)
            self._say_measuring(self._ask)
            self.measure_row.start(measured.params().steps)
            self.changed.emit()
            self.measureRequested.emit(measured.params().to_dict())
            return
        self._revealed = True
        self._result = (self._ask_step, self._ask_code, self._chosen)
        self._show_choice()
        self.answered.emit(self._chosen, self._chosen == self._right(self._ask))

    def measure_progress(self, name: str, done: int, total: int) -> None:
        """A measured question's measurement: ``done`` of ``total`` timed runs."""
        if name == QUESTION_JOB and self._measuring is not None:
            self.measure_row.set_progress(done, total)

    @contained
    def measure_finished(self, name: str, result: object, problem: str) -> None:
        """A measured question's measurement ended: mark the verdict's choice (or say why there is none)."""
        if name != QUESTION_JOB or self._measuring is None:
            return
        key, self._measuring = self._measuring, None
        self.measure_row.stop()
        here = key == (self._ask_step, self._ask_code) and self._ask is not None and self._chosen is not None
        measured = self._ask.measured if self._ask is not None else None
        if isinstance(result, MeasureResult) and measured is not None and measured.choice(result) is not None:
            device = self._state.device if self._state is not None else ""
            for where in {result.machine.device, device}:   # the session's name for it, and the worker's
                self._measured[(where, measured.size, measured.requires_grad)] = result
            if here and self._ask is not None and self._right(self._ask) is not None:   # never measured in a loop
                self.reveal()
            return
        if isinstance(result, MeasureResult):
            said = tr("The measurement found no verdict at this size. Choose again to measure again.")
        elif problem.startswith(Reply.CANCELLED):
            said = tr("Measurement cancelled. Choose again to measure.")
        else:
            said = tr("The measurement failed: {reason}").format(reason=problem)
        if here and self._chosen is not None:
            self.choice_buttons[self._chosen].set_look("plain")
            self._chosen = None
        _set_text(self.feedback, escape(said))
        self.feedback.show()
        self.changed.emit()

    def _keep_bar_room(self, fresh: bool = False) -> None:
        """A question shown: the scroll bar's width kept as a right margin while no bar is needed (see __init__);
        once the bar is needed it stays on until the question changes (``fresh``), so that the width never
        flips between the two (a text that fits only without the bar made them flip for ever)."""
        if self._keeping_room:
            return
        self._keeping_room = True
        try:
            bar = self.verticalScrollBar()
            asking = self._ask is not None
            on, needed = Qt.ScrollBarPolicy.ScrollBarAlwaysOn, Qt.ScrollBarPolicy.ScrollBarAsNeeded
            if fresh or not asking:
                if self.verticalScrollBarPolicy() != needed:
                    self.setVerticalScrollBarPolicy(needed)
            room = bar.sizeHint().width() if asking and self.verticalScrollBarPolicy() == needed else 0
            content = self.widget()
            if room and content is not None and \
                    content.minimumSizeHint().width() > self.width() - 2 * self.frameWidth() - room:
                # Never at the cost of a cut word: a narrow side dock whose choices need the bar's width too
                # (their longest word) keeps it for them.
                room = 0
            if room and bar.maximum() > bar.minimum():
                # Something to scroll: the bar itself takes the room kept for it.
                self.setVerticalScrollBarPolicy(on)
                room = 0
            if self.viewportMargins().right() != room:
                self.setViewportMargins(0, 0, room, 0)
        finally:
            self._keeping_room = False

    def needed_height(self) -> int:
        """The height the panel needs to show everything at its whole width (no scroll bar)."""
        content = self.widget()
        layout = content.layout() if content is not None else None
        assert layout is not None  # the panel's content, laid out, is made with the panel
        # As wide as the text is with the scroll bar shown: a bar left over from a taller state makes the
        # text wrap more, so measuring without it would stop growing the dock a line too early.
        width = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width()
        height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.sizeHint().height()
        return height - self._pad.sizeHint().height()   # (the room for a scroll to a line's top: not needed)

    def question_height(self) -> int:
        """The height the question, its choices and its feedback need at the panel's width (what the class must
        see whole; the note and the answer above may scroll out of view)."""
        content = self.widget()
        layout = content.layout() if content is not None else None
        assert layout is not None  # made with the panel
        margins = layout.contentsMargins()
        width = self.width() - 2 * self.frameWidth() - self.verticalScrollBar().sizeHint().width() \
            - margins.left() - margins.right()
        parts = [w for w in (self.question, self.choices_box, self.feedback, self.measure_row) if not w.isHidden()]
        if not parts:
            return 0
        heights = [w.heightForWidth(width) if w.hasHeightForWidth() else w.sizeHint().height() for w in parts]
        return sum(heights) + layout.spacing() * (len(parts) - 1) + margins.top() + margins.bottom()

    def ensure_question_visible(self) -> None:
        """Scroll to the question, its choices and the feedback (only when the panel cannot show it all), and
        stop at a line's top: no line is cut at the top edge (the title was half shown after a reveal)."""
        self._ensure_pending = False
        self._fit_question()
        bar = self.verticalScrollBar()
        if self.needed_height() <= self.height():
            self._set_pad(0)
            bar.setValue(0)
            return
        # The content laid out at the panel's width now (a dock just widened: its text not yet rewrapped, the
        # scroll computed on the old places missed the choices).
        content = self.widget()
        if content is not None:
            QCoreApplication.sendPostedEvents(content, QEvent.Type.LayoutRequest)
            QCoreApplication.sendPostedEvents(self, QEvent.Type.LayoutRequest)
            QCoreApplication.sendPostedEvents(self.viewport(), QEvent.Type.LayoutRequest)
        if self.question.isHidden():
            return
        viewport = self.viewport().height()
        ends = [w.geometry().bottom() + 1 for w in (self.choices_box, self.feedback, self.measure_row)
                if not w.isHidden()]
        top, bottom = self.question.geometry().top(), max(ends, default=self.question.geometry().bottom() + 1)
        if not self.answer.isHidden() and bottom - self.answer.geometry().top() <= viewport:
            # The answer to the question just run too, when it fits with the next one (→ revealed it and ran the
            # step: scrolled to the next question, the class never saw it; review helper-158, D11).
            top = self.answer.geometry().top()
        if not self.title.isHidden() and bottom - self.title.geometry().top() <= viewport:
            top = self.title.geometry().top()   # the title too, when it fits with the question
        if bottom - top <= viewport:
            lowest, highest = bottom - viewport, top   # every scroll in between shows it all
        elif self.revealed and not self.feedback.isHidden():
            # Revealed: the verdict is what the class must see, from its first line, under the right choice (and
            # the one chosen) it names: with only the last choice above it, "4 … ✔ Right." read as if 4 were right
            # (review helper-158, D3). Where they do not fit together, the verdict a third down at most.
            verdict = self.feedback.geometry().top()
            first_line = verdict + QFontMetricsF(self.feedback.font()).height()
            marked = self._marked_tops()
            if marked and first_line - min(marked) <= viewport:
                value = min(marked)
            elif marked and first_line - marked[-1] <= viewport:
                value = marked[-1]   # the right choice alone
            else:
                tops = [t for t in self.line_tops() if max(top, verdict - viewport // 3) <= t <= verdict]
                value = min(tops, default=verdict)   # a third down at most
            # A line's top even near the content's end: clamped to the scroll's end, the top edge cut a choice's
            # line through its middle (review r17c finding 4); blank room below lets the scroll stop there.
            end = bar.maximum() - self._pad.sizeHint().height()
            self._set_pad(value - end if value > end else 0)
            if value > bar.maximum():   # the scroll bar takes its new range a moment later
                QTimer.singleShot(0, self, lambda: bar.setValue(value))
            bar.setValue(max(bar.minimum(), min(value, bar.maximum())))
            return
        elif self.pending_vote and not self.feedback.isHidden():
            # A class vote marked: its line ("Marked: 2. Press → …") whole at the bottom, the marked choice above it
            # (the question was read already; the line was cut at the dock's bottom: review helper-159, D3).
            lowest = highest = bottom - viewport
        else:
            lowest = highest = top   # the question from its first line, and as many choices as fit
        lines = self.line_tops()
        end = bar.maximum() - self._pad.sizeHint().height()   # the scroll's end without the room added below
        tops = [t for t in lines if lowest <= t <= min(highest, end)]
        if tops:
            value = min(tops, key=lambda t: abs(t - bar.value()))   # the nearest such line: the least jump
            self._set_pad(0)
        else:
            # No line's top in reach (the content ends first): the next line's top, with room below the content
            # to scroll there (blank, under the last line), rather than a line cut in half at the top.
            value = min((t for t in lines if t >= lowest), default=lowest)
            self._set_pad(value - end)
            if value > bar.maximum():   # the scroll bar takes its new range a moment later
                QTimer.singleShot(0, self, lambda: bar.setValue(value))
        bar.setValue(max(bar.minimum(), min(value, bar.maximum())))

    def _marked_tops(self) -> list[int]:
        """Where the right choice and the chosen one start in the content (revealed; the right one last)."""
        ask, content = self._ask, self.widget()
        right = self._right(ask) if ask is not None else None
        if right is None or content is None:
            return []
        indices = [i for i in (self._chosen, right) if i is not None and 0 <= i < len(self.choice_buttons)]
        return [self.choices_box.mapTo(content, QPoint(0, self.choice_buttons[i].geometry().top())).y()
                for i in dict.fromkeys(indices)]

    def _to_top(self) -> None:
        if self.question.isHidden():
            self.verticalScrollBar().setValue(0)

    def _ensure_later(self) -> None:
        if not self._ensure_pending and not self.question.isHidden():
            self._ensure_pending = True
            QTimer.singleShot(0, self, self.ensure_question_visible)

    def _set_pad(self, height: int) -> None:
        """Blank room under the content (so that a scroll can stop at a line's top near its end)."""
        height = max(0, height)
        if self._pad.sizeHint().height() != height:
            self._pad.changeSize(0, height, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            content = self.widget()
            layout = content.layout() if content is not None else None
            if layout is not None:
                layout.invalidate()   # (a posted layout request: the scroll area sizes its content again on it)
            QCoreApplication.sendPostedEvents(content, QEvent.Type.LayoutRequest)
            QCoreApplication.sendPostedEvents(self, QEvent.Type.LayoutRequest)

    def line_tops(self) -> list[int]:
        """Where a line of the panel's content starts (its y in the content): each shown text's lines, each
        choice row, the end of each part; the scroll stops only at these, so that no line is cut at the top."""
        content = self.widget()
        assert content is not None   # made with the panel
        tops = {0}
        for widget in (self.title, self.answer, self.note, self.question, self.choices_box, self.feedback,
                       self.measure_row):
            if widget.isHidden():
                continue
            box = widget.geometry()
            tops.update((box.top(), box.bottom() + 1))
            if widget is self.choices_box:
                tops.update(widget.mapTo(content, QPoint(0, b.geometry().top())).y() for b in self.choice_buttons)
            elif isinstance(widget, QLabel):
                tops.update(box.top() + y for y in _line_tops(widget))
        return sorted(tops)


def _line_tops(label: QLabel) -> list[int]:
    """The tops of a rich-text label's lines, as it lays them out at its width (a document like its own)."""
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    # A word-wrapping QLabel breaks at word boundaries only (a word wider than the label sticks out); a
    # document's default would also break inside it, and its lines would not be the label's.
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    document.setDefaultTextOption(option)
    document.setHtml(label.text())
    document.setTextWidth(max(1, label.contentsRect().width()))
    tops: list[int] = []
    layout = document.documentLayout()
    block = document.begin()
    while block.isValid():
        top, lines = layout.blockBoundingRect(block).top(), block.layout()
        tops.extend(round(top + lines.lineAt(i).y()) + label.contentsRect().top() for i in range(lines.lineCount()))
        block = block.next()
    return tops


def _set_text(label: QLabel, text: str) -> None:
    """A new text only when it changed (each one costs a layout of the panel); code spans may break
    at a call, never wider than the dock."""
    text = breakable(text)
    if label.text() != text:
        label.setText(text)

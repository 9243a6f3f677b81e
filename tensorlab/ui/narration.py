"""The narration panel: the lesson's note for the current step, and "predict before you run"."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from tensorlab.core.player import PlayerState
from tensorlab.ui.html import escape, inline_code
from tensorlab.ui.i18n import Texts, current_language, tr

__all__ = ["NarrationPanel"]


class NarrationPanel(QScrollArea):
    """Shows what the last step means, and asks about the next one when the lesson does."""

    answered = Signal(int, bool)   # choice, correct

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("narration")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, "Narration")
        # Scrolls when a long note and a question do not fit the dock.
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self.setWidget(inner)
        layout = QVBoxLayout(inner)
        self.title = QLabel()
        self.title.setObjectName("narrationTitle")
        self.title.setWordWrap(True)
        self.note = QLabel()
        self.note.setObjectName("narrationNote")
        self.note.setWordWrap(True)
        self.question = QLabel()
        self.question.setObjectName("askQuestion")
        self.question.setWordWrap(True)
        self.choices_box = QWidget()
        # Choices stacked, so long answers never widen the dock and squeeze the code panel.
        self.choices_layout = QVBoxLayout(self.choices_box)
        self.choices_layout.setContentsMargins(0, 0, 0, 0)
        self.feedback = QLabel()
        self.feedback.setObjectName("askFeedback")
        self.feedback.setWordWrap(True)
        for widget in (self.title, self.note, self.question, self.choices_box, self.feedback):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.choice_buttons: list[QPushButton] = []
        self._answer: int | None = None
        self._explain = ""

    def show_state(self, state: PlayerState) -> None:
        """Narrate ``state``: the note of the step just run, and the next step's question."""
        lesson = state.lesson
        language = current_language()
        total = len(state.program)
        where = escape(tr("step {position} of {total}").format(position=state.position, total=total))
        name = inline_code(lesson.text("title", language)) if lesson is not None else escape(tr("Scratchpad"))
        self.title.setText(f"<b>{name}</b> &nbsp;·&nbsp; {where}")
        if state.position == 0:
            summary = lesson.text("summary", language) if lesson is not None else ""
            hint = tr("Press → (or Space) to run the first step.") if total else \
                tr("Build a tensor on the left or type a line of PyTorch below it.")
            self.note.setText(inline_code(summary) + ("<br><br>" if summary else "") + escape(hint))
        else:
            step = state.program[state.position - 1]
            if step.origin == "user":
                text = escape(tr("You added this step:")) + f" <code>{inline_code(step.code)}</code>"
            else:
                text = inline_code(step.text(language)) or f"<code>{inline_code(step.code)}</code>"
            if state.position == total and total:
                text += "<br><br><i>" + escape(tr("End of the lesson. ← steps back; Home starts again.")) + "</i>"
            self.note.setText(text)
        self._show_ask(state)

    def _show_ask(self, state: PlayerState) -> None:
        for button in self.choice_buttons:
            button.deleteLater()
        self.choice_buttons = []
        self.feedback.clear()
        ask = state.program[state.position].ask if state.position < len(state.program) else None
        if ask is None:
            self.question.hide()
            self.choices_box.hide()
            self.feedback.hide()
            self._answer = None
            return
        language = current_language()
        self.question.setText(f"<b>{escape(tr('Predict before you run:'))}</b> "
                              + inline_code(ask.text("question", language)))
        self.question.show()
        self.choices_box.show()
        self.feedback.show()
        self._answer = ask.answer
        self._explain = ask.text("explain", language)
        for i, choice in enumerate(ask.text("choices", language)):
            button = QPushButton(choice)
            button.setObjectName(f"askChoice{i}")
            button.setToolTip(choice)
            button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            button.setStyleSheet("text-align: left;")
            button.clicked.connect(lambda _=False, i=i: self.choose(i))
            self.choices_layout.addWidget(button)
            self.choice_buttons.append(button)

    def choose(self, index: int) -> None:
        """Reveal whether choice ``index`` is right (the step itself runs with → as usual)."""
        if self._answer is None:
            return
        correct = index == self._answer
        answer = self.choice_buttons[self._answer].text()
        verdict = tr("✔ Right.") if correct else tr("✘ Not quite: the answer is “{answer}”.").format(answer=answer)
        self.feedback.setText(f"<b>{escape(verdict)}</b> {inline_code(self._explain)} "
                              + escape(tr("Press → to see it happen.")))
        for i, button in enumerate(self.choice_buttons):
            button.setEnabled(False)
            if i == self._answer:
                button.setStyleSheet("text-align: left; font-weight: bold; color: #1b5e20;")
        self.answered.emit(index, correct)

"""A diagnosis's reproduction opened as a program of its own, stepped through like a lesson.

The Diagnose panel (:mod:`tensorlab.ui.tools.diagnose_panel`) hands over a diagnosis; its reproduction
(statements of the code subset, built by the diagnosis from parsed numbers and known names only) becomes a
lesson titled "Diagnosis: …" (:func:`~tensorlab.ui.program.user_steps.diagnosis_lesson`), listed in the
lesson picker under its own heading, kept under its own key in the saved steps (``diagnosis:<id>``: it
comes back after a restart, and never touches the scratchpad's or a lesson's saved steps), and opened at
its first step: → runs each statement in the worker, and the map shows the saved tensor, its version going
up at the culprit step, and the failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tensorlab.core.files.safe_text import visible
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.messages.catalogue import LANGUAGES, Message, msg
from tensorlab.ui.program.user_steps import MAX_SUMMARY, MAX_TITLE, StepsFileError, diagnosis_lesson
from tensorlab.ui.widgets.i18n import current_language, tr

if TYPE_CHECKING:
    # What opening a diagnosis uses of the main window: the same as opening a lesson file.
    from tensorlab.ui.program.lesson_dialogs import LessonWindow

__all__ = ["open_reproduction", "program_titles", "program_summaries"]


def program_titles(title: Message | None) -> dict[str, str]:
    """The program's title in every language: "Diagnosis: <the error's name>" (one line, bounded)."""
    titles = {}
    for language in LANGUAGES:
        text = msg("steps.diagnosis_title", title=title if title is not None else "…").render(language)
        text = visible(" ".join(text.split()))
        titles[language] = text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"
    return titles


def program_summaries(text: Message | None, advice: Message | None) -> dict[str, str]:
    """What the narration says before the first step, in every language: the explanation and its advice."""
    summaries = {}
    for language in LANGUAGES:
        parts = [text, None if advice is None else msg("steps.diagnosis_advice", advice=advice)]
        said = " ".join(m.render(language) for m in parts if m is not None)   # one paragraph, as a summary is
        said = visible(said, keep_line_breaks=True).strip()
        if said:
            summaries[language] = said if len(said) <= MAX_SUMMARY else said[: MAX_SUMMARY - 1] + "…"
    return summaries


def open_reproduction(window: LessonWindow, reproduction: Sequence[str], title: Message | None,
                      text: Message | None = None, advice: Message | None = None) -> Lesson | None:
    """Open ``reproduction`` as its own program titled after ``title`` (its narration before the first step:
    ``text`` and ``advice``); None (and a message) if it cannot be."""
    try:
        lesson = diagnosis_lesson(list(reproduction), program_titles(title), window.controller.limits,
                                  program_summaries(text, advice))
    except StepsFileError as exc:
        window.show_problem(tr("The reproduction cannot be opened: {reason}").format(
            reason=exc.render(current_language())))
        return None
    known = next((l for l in window.lessons if l.id == lesson.id), None)
    if known is None:
        window.lessons.append(lesson)
        window.fill_lessons()
    else:
        lesson = known   # opened before (this session, or kept from an earlier one): the same program, your steps
    window.editing.keep_diagnosis(lesson)
    window.open_lesson(lesson)
    window.statusBar().showMessage(tr("The reproduction is open: press → to run each step."), 15000)
    return lesson

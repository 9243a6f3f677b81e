"""Lesson files from the window: open one, save the program as one, export it as a script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from tensorlab.core.lessons.lesson import Lesson, LessonError, load_lesson, save_lesson
from tensorlab.core.messages.translate_ko import localize_message
from tensorlab.ui.widgets.i18n import current_language, tr

__all__ = ["open_lesson_file", "open_lesson_dialog", "current_as_lesson", "save_lesson_dialog"]


def open_lesson_file(window: Any, path: str | Path) -> bool:
    """Load a lesson file into ``window``; a bad file is reported and nothing changes."""
    try:
        lesson = load_lesson(path)
    except LessonError as exc:
        # Said in the output panel, without a modal dialog; the open lesson stays as it was.
        window.show_problem(tr("This lesson file cannot be opened: {reason}").format(
            reason=localize_message(str(exc), current_language())))
        return False
    window.lessons = [l for l in window.lessons if l.id != lesson.id] + [lesson]
    window.fill_lessons()
    window.open_lesson(lesson)
    window.lesson_checks.check(lesson)  # its questions and notes, checked against torch in the worker
    return True


def open_lesson_dialog(window: Any) -> None:
    """Ask for a lesson file and open it."""
    path, _ = QFileDialog.getOpenFileName(window, tr("Open lesson"), "", tr("TensorLab lessons (*.toml)"))
    if path:
        open_lesson_file(window, path)


def current_as_lesson(window: Any) -> Lesson:
    """The program as it stands (lesson steps and yours) as a lesson."""
    state = window.controller.state
    base = state.lesson
    steps = tuple(state.program)  # program steps are lesson steps (with an origin)
    if base is None:
        return Lesson("my-steps", "My steps", steps)
    return Lesson(f"{base.id}-mine", f"{base.title} (with my steps)", steps, base.summary,
                  dict(base.translations), chapter=base.chapter, prerequisites=base.prerequisites)


def save_lesson_dialog(window: Any) -> None:
    """Save the program as a lesson file."""
    path, _ = QFileDialog.getSaveFileName(window, tr("Save steps as lesson"), "my-steps.toml",
                                          tr("TensorLab lessons (*.toml)"))
    if path:
        try:
            save_lesson(current_as_lesson(window), path)
        except (OSError, LessonError) as exc:
            window.show_problem(tr("The lesson could not be saved: {reason}").format(
                reason=localize_message(str(exc), current_language())))
            return
        window.statusBar().showMessage(tr("Saved {path}").format(path=path), 5000)
        window.lesson_checks.check(current_as_lesson(window))

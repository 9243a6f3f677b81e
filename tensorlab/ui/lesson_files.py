"""Lesson files from the window: open one, save the program as one, export it as a script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog

from tensorlab.core.atomic import write_text_atomic
from tensorlab.core.export import script_from_code
from tensorlab.core.lessons import Lesson, LessonError, load_lesson, save_lesson
from tensorlab.ui.i18n import tr

__all__ = ["open_lesson_file", "open_lesson_dialog", "current_as_lesson", "save_lesson_dialog", "export_dialog"]


def open_lesson_file(window: Any, path: str | Path) -> bool:
    """Load a lesson file into ``window``; a bad file is reported and nothing changes."""
    try:
        lesson = load_lesson(path)
    except LessonError as exc:
        # Said in the output panel, without a modal dialog; the open lesson stays as it was.
        window.show_problem(tr("This lesson file cannot be opened: {reason}").format(reason=exc))
        return False
    window.lessons = [l for l in window.lessons if l.id != lesson.id] + [lesson]
    window.fill_lessons()
    window.open_lesson(lesson)
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
    return Lesson(f"{base.id}-mine", f"{base.title} (with my steps)", steps, base.summary, dict(base.translations))


def save_lesson_dialog(window: Any) -> None:
    """Save the program as a lesson file."""
    path, _ = QFileDialog.getSaveFileName(window, tr("Save steps as lesson"), "my-steps.toml",
                                          tr("TensorLab lessons (*.toml)"))
    if path:
        try:
            save_lesson(current_as_lesson(window), path)
        except (OSError, LessonError) as exc:
            window.show_problem(tr("The lesson could not be saved: {reason}").format(reason=exc))
            return
        window.statusBar().showMessage(tr("Saved {path}").format(path=path), 5000)


def export_dialog(window: Any) -> None:
    """Save the program as a plain PyTorch script (written atomically)."""
    path, _ = QFileDialog.getSaveFileName(window, tr("Export as Python script"), "tensorlab_steps.py",
                                          "Python (*.py)")
    if path:
        try:
            write_text_atomic(path, script_from_code([s.code for s in window.controller.state.program]))
        except OSError as exc:
            window.show_problem(tr("The script could not be written: {reason}").format(reason=exc))

"""Lesson files from the window: open one, save the program as one, export it as a script."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtWidgets import QFileDialog, QStatusBar, QWidget

from tensorlab.core.engine.player import program_as_lesson
from tensorlab.core.lessons.lesson import Lesson, LessonError, load_lesson, save_lesson
from tensorlab.core.lessons.source_import import (
    SOURCE_JOB,
    answer_error,
    is_source_file,
    lesson_from_parts,
    read_source,
)
from tensorlab.core.messages.catalogue import message_of, msg
from tensorlab.ui.widgets.i18n import current_language, tr

if TYPE_CHECKING:
    from tensorlab.ui.program.controller import LabController
    from tensorlab.ui.program.lesson_check_report import LessonCheckReport
    from tensorlab.ui.program.step_editing import StepEditing

__all__ = ["open_lesson_file", "open_lesson_dialog", "open_source_dialog", "current_as_lesson", "save_lesson_dialog",
           "LessonWindow"]


class LessonWindow(Protocol):
    """What these dialogs use of the main window (a ``MainWindow``, a ``QMainWindow``, the dialogs' parent)."""

    lessons: list[Lesson]

    @property
    def controller(self) -> LabController: ...
    @property
    def lesson_checks(self) -> LessonCheckReport: ...
    @property
    def editing(self) -> StepEditing: ...

    def show_problem(self, message: str, until_next_state: bool = False) -> None: ...
    def fill_lessons(self) -> None: ...
    def open_lesson(self, lesson: Lesson | None) -> None: ...
    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name


def _widget(window: LessonWindow) -> QWidget:
    """The window as the QWidget it is (a dialog's parent; a Protocol cannot say "and a QWidget")."""
    return cast(QWidget, window)


def _cannot_open(window: LessonWindow, exc: LessonError, own_code: bool = False) -> None:
    # Said in the output panel, without a modal dialog; the open lesson stays as it was. A learner's own .py or
    # notebook is "this file", not a lesson file.
    reason = exc.render(current_language())
    window.show_problem(tr("This file cannot be opened: {reason}").format(reason=reason) if own_code else
                        tr("This lesson file cannot be opened: {reason}").format(reason=reason))


def open_lesson_file(window: LessonWindow, path: str | Path) -> bool:
    """Load a lesson file into ``window``; a bad file is reported and nothing changes.

    A ``.py`` file or a notebook is read here (bounded) and parsed in the worker (:data:`SOURCE_JOB`): it opens
    when the worker answers, its refused statements greyed in the Code panel. True: opened, or being opened.
    """
    if is_source_file(path):
        return _open_source(window, path)
    try:
        lesson = load_lesson(path)
    except LessonError as exc:
        _cannot_open(window, exc)
        return False
    _show_opened(window, lesson, path)
    return True


def _open_source(window: LessonWindow, path: str | Path) -> bool:
    """Send the file's bytes to the worker to parse; the lesson opens when its parts come back."""
    try:
        data, name, notebook = read_source(path)
    except LessonError as exc:
        _cannot_open(window, exc, own_code=True)
        return False
    controller = window.controller
    key = str(Path(path).absolute())

    def finished(job: str, result: object, problem: str) -> None:
        if job != SOURCE_JOB or (isinstance(result, dict) and result.get("path") != key):
            return   # another job, or another file's answer
        controller.jobFinished.disconnect(finished)
        if not isinstance(result, dict):   # the worker stopped while parsing: said as the controller says it
            window.show_problem(tr("This file cannot be opened: {reason}").format(reason=problem))
            return
        error = answer_error(result, name)
        if error is not None:   # what the worker found wrong with the file
            _cannot_open(window, error, own_code=True)
            return
        try:
            lesson = lesson_from_parts(result["lesson"])
        except (LessonError, KeyError) as exc:
            _cannot_open(window, exc if isinstance(exc, LessonError) else LessonError(name, msg(
                "engine.internal", detail=repr(exc))), own_code=True)
            return
        _show_opened(window, lesson, path, checked=False)

    controller.jobFinished.connect(finished)
    controller.run_job(SOURCE_JOB, {"data": data, "source": name, "notebook": notebook, "path": key})
    return True


def _show_opened(window: LessonWindow, lesson: Lesson, path: str | Path, checked: bool = True) -> None:
    window.lessons = [l for l in window.lessons if l.id != lesson.id] + [lesson]
    window.fill_lessons()
    window.editing.opened_from(lesson, path)   # its steps are filed by this path, never by a built-in's id
    window.open_lesson(lesson)
    if checked:
        # A lesson file's questions and notes, checked against torch in the worker. A learner's own file
        # has none of TensorLab's questions, and each statement it cannot run is already greyed with its
        # reason in the Code panel (up front, or as it runs): the checks would only say it a second time.
        window.lesson_checks.check(lesson)


def open_lesson_dialog(window: LessonWindow) -> None:
    """Ask for a lesson file and open it."""
    path, _ = QFileDialog.getOpenFileName(_widget(window), tr("Open lesson"), "", tr("TensorLab lessons (*.toml)"))
    if path:
        open_lesson_file(window, path)


def open_source_dialog(window: LessonWindow) -> None:
    """Ask for a Python file or a Jupyter notebook and open it as a lesson of its own."""
    path, _ = QFileDialog.getOpenFileName(_widget(window), tr("Open Python file or notebook"), "",
                                          tr("Python files and notebooks (*.py *.ipynb)"))
    if path:
        open_lesson_file(window, path)


def current_as_lesson(window: LessonWindow) -> Lesson:
    """The window's program as it stands (lesson steps and yours) as a lesson (:func:`program_as_lesson`)."""
    state = window.controller.state
    return program_as_lesson(state.lesson, state.program)


def save_lesson_dialog(window: LessonWindow) -> None:
    """Save the program as a lesson file."""
    path, _ = QFileDialog.getSaveFileName(_widget(window), tr("Save steps as lesson"), "my-steps.toml",
                                          tr("TensorLab lessons (*.toml)"))
    if path:
        try:
            save_lesson(current_as_lesson(window), path)
        except (OSError, LessonError) as exc:
            window.show_problem(tr("The lesson could not be saved: {reason}").format(
                reason=message_of(exc).render(current_language())))
            return
        window.statusBar().showMessage(tr("Saved {path}").format(path=path), 5000)
        window.lesson_checks.check(current_as_lesson(window))

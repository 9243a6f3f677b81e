"""Lesson checks for a lesson a teacher opens or saves: run in the worker, reported in the window.

The checks (:mod:`tensorlab.core.checks.lesson_checks`) run as the ``lesson_checks`` job
beside the session, so the window never imports torch and stays responsive.
Their warnings go to the Output panel and the status bar; a lesson that passes
gets a short note in the status bar.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, cast

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QStatusBar, QWidget

from tensorlab.core.lessons.lesson import Lesson, dump_lesson
from tensorlab.core.messages.catalogue import Message
from tensorlab.core.protocol.results import StepResult
from tensorlab.ui.widgets.i18n import current_language, tr

if TYPE_CHECKING:
    from tensorlab.ui.program.controller import LabController

__all__ = ["LessonCheckReport", "CheckedWindow"]


class _Output(Protocol):
    def show_result(self, result: StepResult | None, problem: str = "") -> None: ...


class CheckedWindow(Protocol):
    """What the report uses of the main window (a ``MainWindow``, a ``QMainWindow``, the report's parent)."""

    problem: str   # a message shown with the next state

    @property
    def controller(self) -> LabController: ...
    @property
    def output_view(self) -> _Output: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name

JOB = "lesson_checks"


class LessonCheckReport(QObject):
    """Asks the worker to check a lesson and shows what it found in ``window``."""

    def __init__(self, window: CheckedWindow) -> None:
        super().__init__(cast(QWidget, window))  # the window is a QMainWindow (a Protocol cannot say so)
        self.window = window
        self._status: tuple[str, int] | None = None
        window.controller.jobFinished.connect(self._finished)
        # After the window's own "Ready" (connected first), so the result stays readable.
        window.controller.busyChanged.connect(self._busy_changed)

    def check(self, lesson: Lesson) -> None:
        """Check ``lesson`` (its TOML text crosses to the worker; findings come back as catalogue messages)."""
        self.window.controller.run_job(JOB, {"text": dump_lesson(lesson), "source": lesson.source or lesson.id})

    def _finished(self, name: str, result: object, problem: str) -> None:
        if name != JOB:
            return
        window = self.window
        if problem:
            text = tr("The lesson could not be checked: {reason}").format(reason=problem)
        elif result:
            language = current_language()  # the job's findings, said in the window's language
            warnings = [w.render(language) if isinstance(w, Message) else str(w)
                        for w in cast("Iterable[object]", result)]
            head = (tr("Lesson checks found a problem:") if len(warnings) == 1
                    else tr("Lesson checks found {count} problems:").format(count=len(warnings)))
            text = "\n".join([head] + [f"• {w}" for w in warnings])
        else:
            self._show(tr("Lesson checks found no problems."), 8000)
            return
        self._show(text.splitlines()[0], 15000)
        # Shown now, and kept for the next render (the job's state arrives right after its result).
        window.problem = text
        window.output_view.show_result(window.controller.state.last, text)

    def _show(self, message: str, milliseconds: int) -> None:
        self._status = (message, milliseconds)
        if not self.window.controller.busy:
            self._busy_changed(False)

    def _busy_changed(self, busy: bool) -> None:
        if not busy and self._status is not None:
            message, milliseconds = self._status
            self._status = None
            self.window.statusBar().showMessage(message, milliseconds)

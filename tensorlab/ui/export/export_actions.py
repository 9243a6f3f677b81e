"""The window's Export menu: the program as a Python script, a Jupyter notebook, or slides (PNG per step).

Script and notebook need to know which steps raise in a TensorLab run of the
program: the worker runs it in a fresh session of its own (job
``"export_errors"``), then the file is written atomically. Slides step the window
through the program and grab it (or only the storage map) after each step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, cast

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtGui import QAction, QKeySequence, QPixmap
from PySide6.QtWidgets import QFileDialog, QGraphicsView, QMenu, QStatusBar, QWidget

from tensorlab.core.engine.player import PlayerState, program_as_lesson
from tensorlab.core.export.program_files import ExportRefused, export_script, notebook_text
from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.protocol.results import ErrorInfo
from tensorlab.ui.export.slides import SlidesController
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Marked, Texts, current_language, tr

__all__ = ["Exporter", "ExportWindow", "build_export_menu"]


class ExportController(SlidesController, Protocol):
    """What the exports use of the window's controller (a ``LabController``)."""

    @property
    def jobFinished(self) -> SignalInstance: ...  # noqa: N802 - the controller's signal

    def run_job(self, name: str, params: dict[str, Any]) -> None: ...


class ExportWindow(Protocol):
    """What the exports use of the main window (a ``MainWindow``, a ``QMainWindow``).

    The window is also the parent of the dialogs, menu and actions made here: where Qt wants
    it as a widget, :func:`_widget` says so.
    """

    exporter: Exporter

    @property
    def controller(self) -> ExportController: ...
    @property
    def i18n(self) -> Texts: ...
    @property
    def storage_map(self) -> QGraphicsView: ...

    def statusBar(self) -> QStatusBar: ...  # noqa: N802 - Qt's name
    def addAction(self, action: QAction, /) -> None: ...  # noqa: N802 - Qt's name
    def grab(self) -> QPixmap: ...


def _widget(window: ExportWindow) -> QWidget:
    """The window as the QWidget it is (Qt's parents are widgets; a Protocol cannot say "and a QWidget")."""
    return cast(QWidget, window)

JOB = "export_errors"


def _program(state: PlayerState) -> Lesson:
    lesson = program_as_lesson(state.lesson, state.program)  # the one Save as lesson uses too
    return lesson if state.lesson is not None else _echoed(lesson, state)


def _echoed(lesson: Lesson, state: PlayerState) -> Lesson:
    """The scratchpad's steps with each bare expression whose value TensorLab showed (`x`, `x.grad`,
    `x.add_(1)`) written as ``print(...)``: a script shows nothing of an expression by itself, and a
    scratchpad is mostly such looks. A step run in the window shows what its value was (None is not
    shown); one not run yet, unless it is a call (`s.backward()` returns None)."""
    import ast
    import dataclasses

    from tensorlab.core.lang.parse import parse_one

    steps = []
    for index, step in enumerate(lesson.steps):
        try:
            body = ast.parse(step.code).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            body = []
        expression = body[0].value if len(body) == 1 and isinstance(body[0], ast.Expr) else None
        printed = (isinstance(expression, ast.Call) and isinstance(expression.func, ast.Name)
                   and expression.func.id == "print")
        if expression is None or printed:
            steps.append(step)
            continue
        if state.trimmed <= index < len(state.results):
            shown = state.results[index].value is not None and state.results[index].error is None
        else:
            shown = not isinstance(expression, ast.Call)
        if shown:
            code = f"print({ast.get_source_segment(step.code, expression) or step.code.strip()})"  # no comment
            step = dataclasses.replace(step, code=code, statement=parse_one(code))
        steps.append(step)
    return dataclasses.replace(lesson, steps=tuple(steps))


class Exporter(QObject):
    """Runs the export the user asked for; reports in the window's status bar and output panel."""

    def __init__(self, window: ExportWindow) -> None:
        super().__init__(_widget(window))
        self.window = window
        self._pending: tuple[str, str, Lesson, str, str] | None = None
        window.controller.jobFinished.connect(self._finished)

    def _say(self, text: str) -> None:
        report = getattr(self.window, "_problem", None)  # the output panel, where the window has one
        if callable(report):
            report(text)
        else:
            self.window.statusBar().showMessage(text.splitlines()[0], 15000)

    def export(self, kind: str, path: str | Path) -> None:
        """Write the program as ``kind`` ("py" or "ipynb") to ``path`` once the worker says what raises."""
        lesson = _program(self.window.controller.state)
        self._pending = (kind, str(path), lesson, current_language(), self.window.controller.state.device)
        self.window.controller.run_job(JOB, {"codes": [s.code for s in lesson.steps]})

    def _finished(self, name: str, errors: object, problem: str) -> None:
        if name != JOB or self._pending is None:
            return
        kind, path, lesson, language, device = self._pending
        self._pending = None
        if errors is None:
            self._say(tr("The export failed: {reason}").format(reason=problem))
            return
        try:
            found = cast("Sequence[ErrorInfo | None]", errors)  # what the export_errors job returns
            text = (export_script if kind == "py" else notebook_text)(lesson, found, language, device)
        except ExportRefused as exc:   # the export failed its own check: nothing is written
            self._say(exc.render(language))
            return
        except ValueError as exc:
            self._say(tr("The export could not be written: {reason}").format(reason=exc))
            return
        try:
            write_text_atomic(path, text)
        except (OSError, ValueError) as exc:
            self._say(tr("The export could not be written: {reason}").format(reason=exc))
            return
        self.window.statusBar().showMessage(tr("Saved {path}").format(path=path), 5000)

    def slides(self, folder: str | Path, map_only: bool) -> list[Path]:
        """One PNG per step of the program into ``folder``; the window returns to where it was."""
        from tensorlab.ui.export.slides import grab_steps

        lesson = _program(self.window.controller.state)
        bar = self.window.statusBar()
        try:
            saved = grab_steps(self.window, Path(folder), lesson.id, map_only,
                               lambda done, total: bar.showMessage(
                                   tr("Saving slide {done} of {total}…").format(done=done, total=total)))
        except OSError as exc:
            self._say(tr("The export could not be written: {reason}").format(reason=exc))
            return []
        bar.showMessage(tr("Saved {count} slides in {path}").format(count=len(saved), path=folder), 5000)
        return saved

    # -- dialogs -----------------------------------------------------------------
    def script_dialog(self) -> None:
        """Ask where to save the script."""
        path, _ = QFileDialog.getSaveFileName(_widget(self.window), tr("Export as Python script"),
                                              f"{_program(self.window.controller.state).id}.py",
                                              "Python (*.py)")
        if path:
            self.export("py", path)

    def notebook_dialog(self) -> None:
        """Ask where to save the notebook."""
        path, _ = QFileDialog.getSaveFileName(_widget(self.window), tr("Export as Jupyter notebook"),
                                              f"{_program(self.window.controller.state).id}.ipynb",
                                              tr("Jupyter notebooks (*.ipynb)"))
        if path:
            self.export("ipynb", path)

    def slides_dialog(self, map_only: bool) -> None:
        """Ask for a folder and save the slides there."""
        folder = QFileDialog.getExistingDirectory(_widget(self.window), tr("Folder for the slides"))
        if folder:
            self.slides(folder, map_only)


def build_export_menu(window: ExportWindow) -> QMenu:
    """The Export submenu (script, notebook, slides), with its actions on ``window``."""
    exporter = Exporter(window)
    window.exporter = exporter
    menu = QMenu(_widget(window))
    menu.setObjectName("exportMenu")
    window.i18n.bind(menu.setTitle, QT_TR_NOOP("&Export"))
    entries: tuple[tuple[Marked, str, list[str], Callable[[], None]], ...] = (
        (QT_TR_NOOP("Python script…"), "exportScriptAction", ["Ctrl+E"], exporter.script_dialog),
        (QT_TR_NOOP("Jupyter notebook…"), "exportNotebookAction", [], exporter.notebook_dialog),
        (QT_TR_NOOP("Slides: the window after each step (PNG)…"), "exportSlidesAction", [],
         lambda: exporter.slides_dialog(False)),
        (QT_TR_NOOP("Slides: the storage map after each step (PNG)…"), "exportMapSlidesAction", [],
         lambda: exporter.slides_dialog(True)),
    )
    for text, name, keys, slot in entries:
        action = QAction(_widget(window))
        action.setObjectName(name)
        action.setShortcuts([QKeySequence(k) for k in keys])
        window.i18n.bind(action.setText, text)
        action.triggered.connect(slot)
        window.addAction(action)
        menu.addAction(action)
    return menu

"""The Diagnose dock: paste an error from your own code, read what it means, step through its reproduction.

Whatever a learner copies (a traceback, a warning line, a message wrapped over lines) goes into the
paste box; Enter (or Diagnose) hands it to :mod:`tensorlab.core.diagnose` in a thread of its own, never
the GUI thread, with a progress bar and a Cancel that really stops it (the diagnosis checks the flag as it
reads; a cancelled one is dropped and its thread ends). What comes back is shown in the window's language:
the error's name, the plain-words explanation and the advice, the facts read from the message, the user's
own failing line, the lessons that raise the same error (each opens that lesson), and *Open the
reproduction*, which hands the reproduction's statements to the window (``reproductionRequested``) to open
as a program of its own (:mod:`tensorlab.ui.program.diagnosis_program`). A text that holds no error
TensorLab explains is said to be so, plainly: no guess, no lesson.

Everything taken from the paste (torch's message, the failing line, the facts) is pasted text: it is
escaped for the HTML it is shown in, its control and bidi characters written as escapes
(:func:`~tensorlab.core.files.safe_text.visible`), and never logged. The window process never imports
torch: the diagnosis is torch-free, and the reproduction runs in the worker when it is opened.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from tensorlab.core.files.safe_text import visible
from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.core.messages.catalogue import Message, MessageError
from tensorlab.ui.tools.tool_controller import ToolController
from tensorlab.ui.widgets.html import escape, inline_code
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Marked, Texts, current_language, tr, tr_marked
from tensorlab.ui.widgets.palette import ERROR
from tensorlab.ui.widgets.progress_row import ProgressRow

__all__ = ["DiagnosePanel", "DiagnosisView", "Diagnoser", "diagnosis_html", "FACT_LABELS", "MAX_SHOWN"]

MAX_SHOWN = 2_000   # characters of one pasted text (torch's message, a fact) shown; the rest is counted


class DiagnosisView(Protocol):
    """What the panel reads of a diagnosis (:class:`tensorlab.core.diagnose.Diagnosis`)."""

    @property
    def explained(self) -> bool: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def type(self) -> str | None: ...  # noqa: A003 - the diagnosis's own name
    @property
    def message(self) -> str | None: ...
    @property
    def line(self) -> str | None: ...
    @property
    def facts(self) -> Mapping[str, Any]: ...
    @property
    def lessons(self) -> Sequence[str]: ...
    @property
    def reproduction(self) -> Sequence[str] | None: ...
    @property
    def needs(self) -> str | None: ...
    @property
    def title(self) -> Message | None: ...
    @property
    def text(self) -> Message | None: ...
    @property
    def advice(self) -> Message | None: ...


# The diagnosis of a pasted text: (text, cancelled, progress) -> diagnosis; raises when cancelled() is True.
Diagnoser = Callable[[str, Callable[[], bool], Callable[..., None]], DiagnosisView]

# The facts a message can hold, in the order shown (their names are torch's, or plain words).
FACT_LABELS: tuple[tuple[str, Marked | None], ...] = (   # None: torch's own name, the same in every language
    ("tensor_type", QT_TR_NOOP("tensor type")),
    ("dtype", None),
    ("shape", QT_TR_NOOP("shape")),
    ("node", QT_TR_NOOP("autograd node")),
    ("output_index", QT_TR_NOOP("output of the node")),
    ("version", QT_TR_NOOP("version now")),
    ("expected_version", QT_TR_NOOP("version saved")),
    ("devices", QT_TR_NOOP("devices")),
)


def _core_diagnoser() -> Diagnoser:
    """TensorLab's diagnosis (:mod:`tensorlab.core.diagnose`): the pasted text read as input is read, then diagnosed."""
    from tensorlab.core.diagnose import diagnose, read_input

    def run(text: str, cancelled: Callable[[], bool], progress: Callable[..., None]) -> DiagnosisView:
        # As the command line reads a file: the same limits (size, NUL bytes) for a paste.
        result: DiagnosisView = diagnose(read_input(text.encode("utf-8")), cancelled=cancelled, progress=progress)
        return result

    return run


def shown_text(text: object) -> str:
    """Pasted text as the panel's HTML shows it: bounded, control and bidi characters as escapes, escaped."""
    value = str(text)
    cut = value[:MAX_SHOWN]
    more = len(value) - len(cut)
    out = escape(visible(cut, keep_line_breaks=True))
    if more:
        out += escape(" " + tr("… ({count} more characters)").format(count=more))
    return out


def _pre(text: object) -> str:
    """Pasted text as a block of its own lines, wrapped at the panel's width (never a sideways scroll)."""
    return f"<pre style='white-space: pre-wrap'>{shown_text(text)}</pre>"


def _fact_value(value: object) -> str:
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return "[" + ", ".join(str(v) for v in value) + "]"    # a shape, as torch writes it
        return ", ".join(str(v) for v in value)
    return str(value)


def runs_here(diagnosis: DiagnosisView) -> bool:
    """The reproduction raises the error on a CPU (its CPU analogue, for an error that needs CUDA)."""
    return bool(getattr(diagnosis, "runs_here", True))


def can_run(diagnosis: DiagnosisView, devices: Sequence[str]) -> bool:
    """The reproduction raises the error on this machine (its CPU, or the CUDA GPU it needs)."""
    return runs_here(diagnosis) or (diagnosis.needs is not None and any(
        d.split(":")[0] == diagnosis.needs for d in devices))


def _lesson_titles(language: str) -> dict[str, str]:
    return {lesson.id: lesson.text("title", language) for lesson in builtin_lessons()}


def diagnosis_html(diagnosis: DiagnosisView, language: str, devices: Sequence[str] = ("cpu",)) -> str:
    """What the panel shows of ``diagnosis`` in ``language``, as HTML (every pasted part escaped)."""
    found = ": ".join(str(p) for p in (diagnosis.type, diagnosis.message) if p)
    if not diagnosis.explained:
        # The diagnosis's own words where it has them (the command line says the same), else the panel's.
        title = diagnosis.title.render(language) if diagnosis.title is not None else \
            tr("TensorLab does not explain this text.")
        text = diagnosis.text.render(language) if diagnosis.text is not None else \
            tr("It holds no PyTorch error or warning that TensorLab knows (an out-of-memory error or a KeyError "
               "from a data loader, say), so it shows no explanation, no lesson and no reproduction rather than "
               "a guess.")
        parts = [f"<p><b>{inline_code(title)}</b></p>", f"<p>{inline_code(text)}</p>"]
        if found:
            parts.append("<p>" + escape(tr("The last error in the text:")) + "</p>" + _pre(found))
        return "".join(parts)
    parts = []
    if diagnosis.title is not None:
        parts.append(f"<h3>{inline_code(diagnosis.title.render(language))}</h3>")
    if diagnosis.text is not None:
        parts.append(f"<p>{inline_code(diagnosis.text.render(language))}</p>")
    if diagnosis.advice is not None:
        advice = inline_code(diagnosis.advice.render(language))
        parts.append("<p><b>" + escape(tr("What to do:")) + f"</b> {advice}</p>")
    if diagnosis.needs == "cuda":
        if runs_here(diagnosis):
            said = tr("This error needs a CUDA GPU.") + " " + \
                tr("The reproduction is its CPU analogue, so that it runs on any machine.")
        elif can_run(diagnosis, devices):
            said = tr("This machine has a CUDA GPU: the reproduction runs on it.")
        else:
            said = tr("This machine has no CUDA GPU, so the reproduction cannot run here.")
        parts.append(f"<p style='color:{ERROR}'>{escape(said)}</p>")
    if diagnosis.line:
        parts.append("<p>" + escape(tr("Your failing line:")) + "</p>" + _pre(diagnosis.line))
    rows = [(key if label is None else tr_marked(label), diagnosis.facts[key]) for key, label in FACT_LABELS
            if diagnosis.facts.get(key) not in (None, "", [], ())]
    if rows:
        cells = "".join(f"<tr><td>{escape(label)}</td><td><code>{shown_text(_fact_value(value))}</code></td></tr>"
                        for label, value in rows)
        parts.append("<p>" + escape(tr("What the message says:")) + "</p>"
                     f"<table cellspacing='0' cellpadding='2'>{cells}</table>")
    if found:
        parts.append("<p>" + escape(tr("PyTorch wrote:")) + "</p>" + _pre(found))
    if diagnosis.lessons:
        titles = _lesson_titles(language)
        links = "".join(f"<li><a href='lesson:{escape(lesson)}'>{escape(titles.get(lesson, lesson))}</a></li>"
                        for lesson in diagnosis.lessons if lesson in titles)
        if links:
            parts.append("<p>" + escape(tr("Lessons that show this error:")) + f"</p><ul>{links}</ul>")
    if diagnosis.reproduction and can_run(diagnosis, devices):
        parts.append("<p>" + escape(tr("Open the reproduction to step through it: it is the error you pasted, made "
                                       "small, with the shapes and the node from the message.")) + "</p>")
    return "".join(parts)


@dataclass(frozen=True)
class _Outcome:
    """What a diagnosis thread brings back: its job, and the diagnosis or why there is none."""

    job: int
    diagnosis: DiagnosisView | None
    problem: str


class _Bridge(QObject):
    """Carries a diagnosis thread's progress and outcome to the GUI thread (queued connections)."""

    progress = Signal(int, int, int)   # job, done, total
    done = Signal(object)              # _Outcome


class _PasteBox(QPlainTextEdit):
    """The paste box: Enter diagnoses, Shift+Enter starts a new line (a paste brings its own lines)."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class DiagnosePanel(QWidget):
    """The paste box, Diagnose and its progress, and the diagnosis (see the module docstring)."""

    reproductionRequested = Signal(object)   # noqa: N815 - the diagnosis whose reproduction to open
    lessonRequested = Signal(str)            # noqa: N815 - a lesson's id
    diagnosed = Signal()                     # a diagnosis is shown (or that there is none, or why it failed)

    def __init__(self, controller: ToolController | None = None, parent: QWidget | None = None,
                 diagnoser: Diagnoser | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diagnosePanel")
        self.controller = controller   # the window's controller: which devices this machine has
        self.diagnoser = diagnoser   # None: TensorLab's own (tensorlab.core.diagnose); tests give theirs
        self.i18n = Texts(self)
        self.diagnosis: DiagnosisView | None = None
        self.problem = ""
        self._job = 0
        self._cancel: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._bridge = _Bridge(self)
        self._bridge.progress.connect(self._progress)
        self._bridge.done.connect(self._done)

        layout = QVBoxLayout(self)
        self.hint = QLabel()
        self.hint.setObjectName("diagnoseHint")
        self.hint.setWordWrap(True)
        self.i18n.bind(self.hint.setText, QT_TR_NOOP(
            "Paste an error or a warning from your own PyTorch code (the whole traceback is best), then press "
            "Enter."))
        self.paste = _PasteBox()
        self.paste.setObjectName("diagnosePaste")
        self.paste.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.paste.setTabChangesFocus(True)
        self.i18n.bind(self.paste.setPlaceholderText, QT_TR_NOOP("Traceback (most recent call last): …"))
        self.paste.submitted.connect(self.start)
        row = QHBoxLayout()
        self.button = QPushButton()
        self.button.setObjectName("diagnoseButton")
        self.i18n.bind(self.button.setText, QT_TR_NOOP("Diagnose"))
        self.button.clicked.connect(self.start)
        self.progress = ProgressRow("diagnoseProgress")
        self.progress.cancelRequested.connect(self.cancel)
        row.addWidget(self.button)
        row.addWidget(self.progress, 1)
        row.addStretch(0)
        self.status = QLabel()
        self.status.setObjectName("diagnoseStatus")
        self.status.setWordWrap(True)
        self.result = QTextBrowser()
        self.result.setObjectName("diagnoseResult")
        self.result.setOpenLinks(False)
        self.result.anchorClicked.connect(self._link)
        self.open_button = QPushButton()
        self.open_button.setObjectName("diagnoseOpenButton")
        self.i18n.bind(self.open_button.setText, QT_TR_NOOP("Open the reproduction"))
        self.open_button.clicked.connect(self.open_reproduction)
        self.open_button.hide()
        layout.addWidget(self.hint)
        layout.addWidget(self.paste, 1)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.result, 3)
        layout.addWidget(self.open_button)
        self.i18n.on_change(self._show)

    # -- the user's actions ----------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True while a diagnosis thread is still running (a cancelled one too, until it has stopped)."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def cancelled(self) -> bool:
        """True when no diagnosis waits for its outcome (none started, it ended, or it was cancelled)."""
        return self._cancel is None or self._cancel.is_set()

    def focus_paste(self) -> None:
        """The cursor in the paste box (Ctrl+Shift+D), its text selected so that a new paste replaces it."""
        self.window().activateWindow()   # a floating dock is a window of its own: the keys go to it
        self.paste.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.paste.selectAll()

    def start(self) -> bool:
        """Diagnose the paste box's text in a thread of its own (False: nothing to diagnose, or one runs)."""
        text = self.paste.toPlainText()
        if not text.strip() or (self._cancel is not None and not self._cancel.is_set()):
            return False
        self._job += 1
        job, cancel = self._job, threading.Event()
        self._cancel = cancel
        self.diagnosis, self.problem = None, ""
        self.open_button.hide()
        self.result.clear()
        self.status.setText(tr("Reading the text…"))
        self.button.setEnabled(False)
        self.progress.start(0)
        self.progress.bar.setRange(0, 0)   # busy until the diagnosis says how far it is
        diagnoser = self.diagnoser or _core_diagnoser()
        self._thread = threading.Thread(target=self._run, args=(diagnoser, text, job, cancel),
                                        name="tensorlab-diagnose", daemon=True)
        self._thread.start()
        return True

    def cancel(self) -> None:
        """Stop the diagnosis that runs: its thread stops at its next check, and what it finds is dropped."""
        if self._cancel is None or self._cancel.is_set():
            return
        self._cancel.set()
        self._finish()
        self.status.setText(tr("Stopped: the diagnosis was cancelled."))
        self.diagnosed.emit()

    def open_reproduction(self) -> None:
        """Open the reproduction of the diagnosis shown (the window opens it as its own program)."""
        if self.diagnosis is not None and self.diagnosis.explained and self.diagnosis.reproduction \
                and can_run(self.diagnosis, self._devices()):
            self.reproductionRequested.emit(self.diagnosis)

    # -- the thread ------------------------------------------------------------------------------------------------
    def _run(self, diagnoser: Diagnoser, text: str, job: int, cancel: threading.Event) -> None:
        """In the diagnosis thread: diagnose ``text``; the outcome goes to the GUI thread (never the log)."""
        bridge = self._bridge

        def progress(*values: object) -> None:
            # (done, total), or a fraction done.
            first, second = (values + (None, None))[:2]
            if isinstance(first, int) and isinstance(second, int):
                bridge.progress.emit(job, first, second)
            elif isinstance(first, float):
                bridge.progress.emit(job, int(first * 1000), 1000)

        diagnosis: DiagnosisView | None = None
        problem = ""
        try:
            diagnosis = diagnoser(text, cancel.is_set, progress)
        except MessageError as exc:   # unreadable input (too large, NUL bytes), said as the catalogue says it
            problem = exc.render(current_language())
        except Exception as exc:   # cancelled (then dropped), or a bug: said by its type only (the text is pasted)
            problem = tr("The diagnosis failed ({kind}).").format(kind=type(exc).__name__)
        try:
            bridge.done.emit(_Outcome(job, diagnosis, problem))
        except RuntimeError:   # the panel was deleted meanwhile (the window closed): nobody waits for it
            pass

    @Slot(int, int, int)
    def _progress(self, job: int, done: int, total: int) -> None:
        if job == self._job and self._cancel is not None and not self._cancel.is_set():
            self.progress.set_progress(done, total)

    @Slot(object)
    def _done(self, outcome: _Outcome) -> None:
        if outcome.job != self._job or self._cancel is None or self._cancel.is_set():
            return   # cancelled, or an earlier paste's: dropped
        self._cancel.set()
        self._finish()
        self.diagnosis, self.problem = outcome.diagnosis, outcome.problem
        self._show()
        self.diagnosed.emit()

    def _finish(self) -> None:
        self.progress.stop()
        self.button.setEnabled(True)

    # -- what is shown ---------------------------------------------------------------------------------------------
    def _devices(self) -> Sequence[str]:
        return ("cpu",) if self.controller is None else tuple(self.controller.state.devices)

    def _show(self) -> None:
        """The diagnosis (or the problem) in the current language."""
        if self.problem:
            self.status.setText(self.problem)
            self.result.clear()
            self.open_button.hide()
            return
        diagnosis = self.diagnosis
        if diagnosis is None:
            return
        try:
            shown = diagnosis_html(diagnosis, current_language(), self._devices())
        except Exception as exc:   # a bug: said by its type only (never the pasted text, never the log)
            self.status.setText(tr("The diagnosis failed ({kind}).").format(kind=type(exc).__name__))
            self.result.clear()
            self.open_button.hide()
            return
        self.status.setText(tr("Diagnosed.") if diagnosis.explained else tr("Not explained."))
        self.result.setHtml(shown)
        self.open_button.setVisible(bool(diagnosis.explained and diagnosis.reproduction)
                                    and can_run(diagnosis, self._devices()))

    def _link(self, url: QUrl) -> None:
        if url.scheme() == "lesson":
            self.lessonRequested.emit(url.path())

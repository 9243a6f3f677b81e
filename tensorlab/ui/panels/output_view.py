"""What the last step printed, warned and raised: torch's real text and what it means."""

from __future__ import annotations

import math
import re

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QFontMetricsF, QResizeEvent
from PySide6.QtWidgets import QTextBrowser, QWidget

from tensorlab.core.lessons.source_import import shown_code
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.results import StepResult
from tensorlab.ui.widgets.held_hints import HELD_NOTE_KEYS, HOLD_NOTHING, Held
from tensorlab.ui.widgets.html import ZWSP, breakable_code, escape, inline_code
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Texts, current_language, tr, tr_marked
from tensorlab.ui.widgets.panel import View
from tensorlab.ui.widgets.panel_errors import contained
from tensorlab.ui.widgets.text_zoom import base_px, mono_font, pixel_font

_NOTHING_LOST = QT_TR_NOOP("Nothing is lost: the step is part of the lesson, and the state shown is the state "
                           "after it.")

__all__ = ["OutputView"]


def _explanation(explanation: Explanation | None) -> str:
    if explanation is None:
        return ""
    language = current_language()
    explanation = explanation.localized(language)
    # The labels are the catalogue's, worded as in the text form of the explanation (`run`, exports).
    instead = escape(render("explain.label.instead", {}, language))
    plain = escape(render("explain.label.plain", {}, language))
    advice = (f"<p style='margin:4px 0'><b>{instead}</b> {inline_code(explanation.advice)}</p>"
              if explanation.advice else "")
    return (f"<p style='margin:4px 0'><b>{plain} — {inline_code(explanation.title)}.</b> "
            f"{inline_code(explanation.text)}</p>{advice}")


# A line broken to fit is marked so that the text read or copied is the line torch printed: the break
# (a zero-width space, the newline and the continuation's indent, a zero-width space) reads as the one space
# it replaced.
_PRE_PADDING = 6
_BREAK = re.compile(f"{ZWSP}\n *{ZWSP}")
# A break inside a word too wide for the panel (after its "(": `Linear(` / `in_features=2,`) reads as nothing.
_JOIN = re.compile(f"{ZWSP}{ZWSP}\n *{ZWSP}")
_LEAD = re.compile(r"^(?:→ )?\s*(?:[A-Za-z_][\w.]*\()?\[*")   # "tensor([[", "        [": where a row's values start


_MATRIX_ROW = re.compile(r"^(?:→ )?(?:[A-Za-z_][\w.]*\()?\[\[|^\s+\[")   # "tensor([[", "        [": a row of a matrix


def wrap_columns(text: str, width: int) -> str:
    """``text`` (what a step printed) with its single rows longer than ``width`` characters broken after a
    ``,`` and continued under the line's first value, as torch itself wraps a wide tensor.

    A matrix's rows are never broken: each stays the one line torch printed, and the panel scrolls
    sideways (a row broken to fit the panel read as one value per line at a projector, the rows lost).
    Only a line that is not a matrix row (a 1-d tensor, a list) is broken, and only into pieces of at
    least two values each; the lines with as many values break after the same number of them, so their
    columns stay one above the other. A line that cannot break so stays whole."""
    if width < 8:
        return text
    lines = text.split("\n")
    # A line of several printed values (`print(a, r)`: "tensor([5., 2., 3.]) tensor([[1., 2., 3.],") breaks
    # between them first, never inside a row (review r17o item 5): each value then starts a line of its own, and
    # a matrix's next rows, indented by torch under its first, line up under it again.
    groups = [_between_values(line) if len(line) > width else [line] for line in lines]
    if all(len(group) == 1 for group in groups):
        return _wrap_words("\n".join(_wrap_lines(lines, width)), width)
    wrapped = _wrap_lines([piece for group in groups for piece in group], width)
    out, at = [], 0
    for group in groups:
        out.append(f"{ZWSP}\n{ZWSP}".join(wrapped[at:at + len(group)]))
        at += len(group)
    return _wrap_words("\n".join(out), width)


_GLUE = "\x00"   # marks a piece of a word cut by _cut_wide (joined to the piece before it, no space)


def _cut_wide(word: str, width: int) -> list[str]:
    """``word``, where it is wider than ``width``, cut after each "(" (the pieces after the first marked)."""
    if len(word) <= width or "(" not in word[:-1]:
        return [word]
    pieces, start = [], 0
    for i, char in enumerate(word[:-1]):
        if char == "(":
            pieces.append(word[start:i + 1])
            start = i + 1
    pieces.append(word[start:])
    return [pieces[0], *(_GLUE + piece for piece in pieces[1:])]


def _wrap_words(text: str, width: int) -> str:
    """``text`` with each line still wider than ``width`` that holds no tensor's values (no ``[``: a module's
    ``print``, ``Linear(in_features=2, out_features=1, bias=True)``, was cut at the panel's right, a scroll bar
    under it) broken at its spaces, continued two columns in from where the line starts (less, where a word fits
    only so); a line with values, and a word wider than the panel, stay as they are."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width or ZWSP in line or "[" in line:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        indent = " " * (lead + 2 if lead + 2 <= width // 2 else 0)
        words = line[lead:].split(" ")
        # A word wider than the panel is cut after its "(" (`Linear(in_features=2,` in a projector's narrow
        # panel): its pieces join again, with nothing between them, when read or copied.
        words = [piece for word in words for piece in _cut_wide(word, width)]
        rows, row = [], " " * lead + words[0]
        for word in words[1:]:
            if word.startswith(_GLUE):   # the rest of a word cut after its "(": no space before it
                piece = word[len(_GLUE):]
                if len(row) + len(piece) <= width:
                    row += piece
                else:
                    rows.append(row + ZWSP)   # (with the joining break, this one reads as nothing)
                    row = " " * max(0, min(len(indent), width - len(piece))) + ZWSP + piece
                continue
            if len(row) + 1 + len(word) <= width:
                row += " " + word
            else:
                rows.append(row)
                # less indent for a word that fits only so (the Linear of a Sequential in a narrow panel)
                row = " " * max(0, min(len(indent), width - len(word))) + ZWSP + word
        rows.append(row)
        out.append(f"{ZWSP}\n".join(rows))
    return "\n".join(out)


def _between_values(line: str) -> list[str]:
    """``line`` cut at each space between two printed values (after a closing bracket, outside every bracket):
    `tensor([1.]) tensor([2.])` is two pieces; words and numbers (`loss 0.5`) stay one."""
    pieces, depth, start = [], 0, 0
    for i, char in enumerate(line):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == " " and depth == 0 and i > start and line[i - 1] in ")]}" and i + 1 < len(line) \
                and line[i + 1] not in " ,)]}":
            pieces.append(line[start:i])
            start = i + 1
    pieces.append(line[start:])
    return pieces


def _wrap_lines(lines: list[str], width: int) -> list[str]:
    """Each of ``lines`` as :func:`wrap_columns` shows it (its breaks inside the one string)."""
    split = [_values_and_keywords(line) for line in lines]
    long = [(line, parts) for line, (parts, keywords) in zip(lines, split, strict=True)
            if len(line) > width and len(parts) + len(keywords) > 2 and not _MATRIX_ROW.match(line)]
    if not long:
        return lines
    most = max(len(p) for _, p in long)   # all of a line's values on one: its keywords broken off
    # Two values a line at least; one a line only where two do not fit (a 1-d tensor in a narrow projector panel
    # was left whole, and its last values were off the panel's right: review r17o 8).
    per_line = next((k for least in (2, 1) for strict in (True, False) for k in range(max(most, least), least - 1, -1)
                     if all(_fits(line, parts, k, width, strict) for line, parts in long)), 0)
    if per_line == 0:
        return lines
    broken = {line for line, _ in long}
    counts = {len(parts) for _, parts in long}
    out = []
    for line, (parts, keywords) in zip(lines, split, strict=True):
        if line not in broken or len(parts) not in counts or (len(parts) <= per_line and not keywords):
            out.append(line)
            continue
        indent = _indent(line, width)
        # A keyword after the values (`grad_fn=<MulBackward0>)`) on a line of its own: never cut off the right.
        pieces = [", ".join(parts[i:i + per_line]) for i in range(0, len(parts), per_line)]
        text = f",{ZWSP}\n{' ' * indent}{ZWSP}".join(pieces)
        for keyword in keywords:   # under the values where it fits so, else from the left
            lead = indent if indent + len(keyword) <= width else 0
            text += f",{ZWSP}\n{' ' * lead}{ZWSP}{keyword}"
        out.append(text)
    return out


_KEYWORD = re.compile(r"^[A-Za-z_]\w*=")


def _values_and_keywords(line: str) -> tuple[list[str], list[str]]:
    """A printed line's ``, ``-separated values, and the keywords that follow them (``grad_fn=<…>)``)."""
    parts = line.split(", ")
    first = next((i for i, part in enumerate(parts) if i > 0 and _KEYWORD.match(part)), len(parts))
    return parts[:first], parts[first:]


def _indent(line: str, width: int) -> int:
    """Where a broken line's continuation starts: under its first value (at the left when that is far)."""
    match = _LEAD.match(line)
    lead = len(match.group(0)) if match is not None else 0
    return lead if lead <= width // 2 else 0


def _fits(line: str, parts: list[str], per_line: int, width: int, strict: bool = True) -> bool:
    """Whether ``line`` broken after every ``per_line`` values has no piece wider than ``width`` (not
    ``strict``: but for the comma after a piece and a row's closing brackets, "],", "]])": never a value)."""
    indent = _indent(line, width)
    for i in range(0, len(parts), per_line):
        piece = ", ".join(parts[i:i + per_line]) + ("," if i + per_line < len(parts) else "")
        if not strict:
            piece = piece.rstrip("]),")
        if (indent if i else 0) + len(piece) > width:
            return False
    return True


def unwrap_columns(text: str) -> str:
    """The text as printed: the breaks :func:`wrap_columns` made read as the space each replaced."""
    return _BREAK.sub(" ", _JOIN.sub("", text))


def _echo_line(line: str) -> str:
    """A line of the step's code as echoed: a statement of up to 20 characters (its indentation not
    counted) never wraps; a longer one wraps only between tokens, as the Code panel does."""
    if len(line.strip()) <= 20:
        return f"<span style='white-space:pre'>{escape(line)}</span>"
    # HTML collapses leading spaces: a loop body's indentation is kept as it is, only the rest may wrap.
    body = line.lstrip(" \t")
    indent = line[:len(line) - len(body)]
    lead = f"<span style='white-space:pre'>{escape(indent)}</span>" if indent else ""
    return lead + escape(breakable_code(body))


class OutputView(QTextBrowser):
    """The last step's output, warnings and error, as lesson content."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("outputView")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, QT_TR_NOOP("Output, warnings and errors of the last step"))
        self.setOpenExternalLinks(False)
        self.result: StepResult | None = None
        self._problem = ""
        self.held: Held = HOLD_NOTHING   # hints held back while a question is open (held_hints)
        self._html = ""
        self._columns = 0   # the printed text's width in characters, as last wrapped

    @contained
    def set_text_scale(self, scale: float) -> None:
        """Every text of the panel at ``scale``."""
        self.setFont(pixel_font(base_px(), scale))

    def toPlainText(self) -> str:  # noqa: N802 - Qt's name
        """The text as shown, without the invisible break opportunities in the echoed code, and printed
        lines as printed (not as wrapped to the panel)."""
        return unwrap_columns(super().toPlainText()).replace(ZWSP, "")

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 - Qt's name
        # Copied code runs when pasted: no zero-width spaces in it, and printed lines as torch printed them.
        data = QMimeData()
        data.setText(unwrap_columns(self.textCursor().selection().toPlainText()).replace(ZWSP, ""))
        return data

    def columns(self) -> int:
        """How many characters of printed text fit across the panel (0: not shown, nothing is wrapped)."""
        if not self.isVisible():
            return 0
        metrics = QFontMetricsF(mono_font(self.font().pixelSize()))
        room = self.viewport().width() - 2 * self.document().documentMargin() - 2 * _PRE_PADDING - 2
        return max(0, math.floor(room / max(metrics.horizontalAdvance("0"), 1.0)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self.result is not None and self.columns() != self._columns:
            self.show_result(self.result, self._problem)   # printed tensors wrapped again to the new width

    @contained
    def _set_html(self, html: str) -> None:
        # The same text is not laid out again (a redraw of the same state, a language change aside).
        if html != self._html:
            self._html = html
            self.setHtml(html)

    def render_view(self, view: View) -> None:
        """Show the last step's result, with the view's problem (a TensorLab message) if any."""
        self.show_result(view.state.last, view.problem, view.held)

    def show_result(self, result: StepResult | None, problem: str = "", held: Held | None = None) -> None:
        """Render ``result`` (None: before the first step); ``problem`` is a TensorLab message; ``held``: hints
        held back while a question is open (:mod:`~tensorlab.ui.widgets.held_hints`; None: as last rendered)."""
        self.result, self._problem = result, problem
        if held is not None:
            self.held = held
        self._columns = columns = self.columns()
        pre = f"font-family:'{mono_font(base_px()).family()}';padding:{_PRE_PADDING}px"
        parts = []
        if problem:
            parts.append(f"<div style='background:#fff3e0;padding:6px'><b>TensorLab:</b> "
                         f"{escape(problem)}</div>")
        if result is None:
            hint = escape(tr("Output, warnings and errors of each step appear here."))
            parts.append(f"<p style='color:#757575'>{hint}</p>")
            self._set_html("".join(parts))
            return
        # Its first lines where it is long (a 300,000-line statement of a file), as the Narration cuts it.
        code = "<br>".join(_echo_line(line) for line in shown_code(result.code, current_language()).split("\n"))
        step = escape(tr("Step {number}:").format(number=result.index + 1))
        parts.append(f"<p style='margin:2px 0;color:#616161'>{step} <code>{code}</code></p>")
        if result.iterations is not None:   # a loop step (issue #16): one step, its iterations counted
            ran = escape(tr("↻ The loop ran {count} iterations to their end.").format(count=result.iterations))
            parts.append(f"<p style='margin:2px 0;color:#616161'>{ran}</p>")
        if result.output:
            # Wrapped to the panel keeping a tensor's columns (a scroll bar hid most of a printed matrix).
            parts.append(f"<pre style=\"background:#f5f5f5;margin:4px 0;{pre}\">"
                         f"{escape(wrap_columns(result.output.rstrip(chr(10)), columns))}</pre>")
        if result.value is not None:
            parts.append(f"<pre style=\"color:#455a64;margin:4px 0;{pre}\">"
                         f"{escape(wrap_columns('→ ' + result.value, columns))}</pre>")
        for warning in result.warnings:
            parts.append(
                "<div style='border-left:4px solid #ef6c00;background:#fff8e1;padding:6px;margin:4px 0'>"
                f"<p style='margin:2px 0'><b style='color:#e65100'>⚠ {escape(warning.category)}</b> "
                f"<span style='font-family:monospace;white-space:pre-wrap'>{escape(warning.message)}</span></p>"
                f"{_explanation(warning.explanation)}</div>")
        noticed = escape(tr("TensorLab noticed"))
        for note in result.notes:
            # TensorLab's own observation (not a message of torch's), e.g. memory changed behind autograd's back.
            # One that says what the next step's backward() will do is left out, box and heading, while its
            # question is open: the box comes only after a write autograd cannot see, so even a held line in it
            # said "no error" (review r18y).
            if self.held.backward_notes and note.key in HELD_NOTE_KEYS:
                continue
            parts.append(
                "<div style='border-left:4px solid #1565c0;background:#e3f2fd;padding:6px;margin:4px 0'>"
                f"<p style='margin:2px 0'><b style='color:#0d47a1'>ⓘ {noticed}</b></p>"
                f"{_explanation(note)}</div>")
        if result.error is not None:
            error = result.error
            # Who raised it comes from where it was raised (origin), never from its text: TensorLab's
            # own refusals and limits are not torch's; their text is the catalogue's, in this language.
            language = current_language()
            raised = escape(error.heading(language))
            parts.append(
                "<div style='border-left:4px solid #c62828;background:#ffebee;padding:6px;margin:4px 0'>"
                f"<p style='margin:2px 0'><b style='color:#b71c1c'>"
                f"{raised}</b></p>"
                f"<p style='margin:2px 0;font-family:monospace;white-space:pre-wrap'>{escape(error.text(language))}</p>"
                f"{_explanation(error.explanation)}"
                f"<p style='margin:2px 0;color:#616161'>{escape(tr_marked(_NOTHING_LOST))}</p></div>")
        if result.ok and not result.output and not result.warnings and result.value is None and not result.notes:
            quiet = escape(tr("✔ Ran without output, warnings or errors."))
            parts.append(f"<p style='color:#2e7d32'>{quiet}</p>")
        self._set_html("".join(parts))

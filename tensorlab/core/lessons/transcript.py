"""A readable terminal transcript of a lesson run."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence

from tensorlab.core.files.safe_text import display_width as _width
from tensorlab.core.files.safe_text import visible
from tensorlab.core.lessons.lesson import Lesson, RefusedStep
from tensorlab.core.lessons.source_import import may_differ_mark
from tensorlab.core.lessons.tensor_rows import COLUMNS, column_header, name_text, row_texts, same_tensor
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["transcript", "tensor_table"]

class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def red(self, text: str) -> str:
        return self._wrap("31", text)

    def yellow(self, text: str) -> str:
        return self._wrap("33", text)

    def cyan(self, text: str) -> str:
        return self._wrap("36", text)


def _short(value: object, width: int = 28) -> str:
    text = visible(str(value))
    return text if len(text) <= width else text[: width - 1] + "…"


def tensor_table(snapshot: Snapshot, indent: str = "  ", language: str = "en") -> str:
    """The tensors of ``snapshot`` as an aligned text table, its word headers in ``language``."""
    if not snapshot.tensors:
        return ""
    same = same_tensor(snapshot)   # a second name of one tensor object says so (`s is r`)
    # A tensor a statement not run may have changed says so beside its name, as the Tensors table does
    # (`w · may differ (line 7 not run)`; issue #21, review r21g).
    rows = [[column_header(c, language) for c in COLUMNS]] + [
        [name_text(row[0], same.get(t.name)) + (f" · {may_differ_mark(t.may_differ, language)}"
                                                if t.may_differ is not None else ""), *row[1:]]
        for t in snapshot.tensors for row in (row_texts(t),)]
    widths = [max(_width(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = ["  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(indent + line for line in lines)


# Hyphens are not break points: "in-place" and code stay whole.
_lines = functools.partial(textwrap.wrap, break_on_hyphens=False)


def _note_lines(note: str, width: int) -> list[str]:
    """A step's note: each paragraph wrapped on its own (a blank line between), a code line in it (indented, as
    an opened file's comment or docstring writes code) kept whole with its indentation, never run together."""
    out: list[str] = []
    for line in note.split("\n"):
        if not line.strip():
            out.append("")
        elif line.startswith(" "):
            out.append("  " + line.rstrip())
        else:
            out += _lines(line, width, initial_indent="  ", subsequent_indent="  ")
    return out

def _explained(explanation: Explanation, language: str) -> str:
    return explanation.localized(language).as_text()


def transcript(lesson: Lesson, device: str, results: Sequence[StepResult], color: bool = False,
               width: int = 100, language: str = "en") -> str:
    """The whole run as text: each step's code, note, output, warnings, error and tensors.

    ``language`` ("en", "ko") is that of the lesson's texts, the explanations and
    TensorLab's own messages; torch's messages stay as torch wrote them.
    """
    style = _Style(color)
    v = functools.partial(visible, keep_line_breaks=True)  # control and bidi characters escaped, lines kept
    where = "  " + render("transcript.where", {"lesson": lesson.id, "device": device}, language)
    # The title on one line: a line break in it must not print what looks like a step.
    out = [style.bold(visible(lesson.text("title", language))) + style.dim(where)]
    summary = lesson.text("summary", language)
    if summary:
        out += _lines(v(summary), width)
    # Steps are numbered as the window's Code panel and the explanations number them ("step 16"): only
    # the steps that run. An opened file's refused statements are in their places, named by their line.
    total = len(lesson.steps)
    refused = list(lesson.refused)
    for result, step in zip(results, lesson.steps):
        while refused and refused[0].after <= result.index:
            out += _refused(refused.pop(0), style, width, language)
        out.append("")
        code_lines = v(result.code).splitlines() or [""]
        out.append(style.bold(f"[{result.index + 1}/{total}] ") + style.cyan(code_lines[0]))
        out += ["      " + style.cyan(line) for line in code_lines[1:]]
        note = step.text(language)
        if note:
            out += _note_lines(v(note), width)
        if result.iterations is not None:   # a loop step: one step, its iterations counted
            key = "transcript.loop_iteration" if result.iterations == 1 else "transcript.loop_iterations"
            out.append("  " + style.dim("↻ " + render(key, {"count": result.iterations}, language)))
        for line in result.output.splitlines():
            out.append("  " + style.dim("│ ") + v(line))
        if result.value is not None:
            out.append("  " + style.dim("→ ") + v(result.value))
        for warning in result.warnings:
            out += _lines(v(f"{warning.category}: {warning.message}"), width,
                          initial_indent="  " + style.yellow("⚠ "), subsequent_indent="    ")
            if warning.explanation is not None:
                out += _lines(v(_explained(warning.explanation, language)), width,
                              initial_indent="    ", subsequent_indent="    ")
        for observation in result.notes:
            out += _lines(v(_explained(observation, language)), width, initial_indent="  " + style.cyan("ⓘ "),
                          subsequent_indent="    ")
        if result.error is not None:
            message = result.error.text(language)  # TensorLab's own in the language, torch's as torch wrote it
            # The heading says who raised it (origin): "torch raised …" only for torch's own.
            out += _lines(v(f"{result.error.heading(language)}: {message}"), width,
                          initial_indent="  " + style.red("✗ "), subsequent_indent="    ")
            if result.error.explanation is not None:
                out += _lines(v(_explained(result.error.explanation, language)), width,
                              initial_indent="    ", subsequent_indent="    ")
        table = tensor_table(result.snapshot, language=language)
        if table:
            out.append(style.dim(table))
        for other in result.snapshot.others:
            first, *rest = _repr_lines(other.repr)
            out.append(style.dim(f"  {other.name} = {first}" + ("" if rest else f"  ({other.type})")))
            indent = " " * (len(other.name) + 5)   # under the repr's first character
            out += [style.dim(indent + line) for line in rest]
            if rest:
                out[-1] += style.dim(f"  ({other.type})")
    if len(results) == len(lesson.steps):   # the refused steps after the last one run (a cut run stops there)
        for skipped in refused:
            out += _refused(skipped, style, width, language)
    return "\n".join(out) + "\n"


def _refused(step: RefusedStep, style: _Style, width: int, language: str) -> list[str]:
    """A refused step's lines: where it is in the file, its code dimmed and marked, its note, and why it is
    not run. It has no step number: it is not a step (the window's Code panel numbers it neither)."""
    v = functools.partial(visible, keep_line_breaks=True)
    code_lines = v(step.code).splitlines() or [""]
    where = render("source.cell_line", {"cell": step.cell, "line": step.line}, language) if step.cell else \
        render("source.line", {"line": step.line}, language)
    out = ["", style.bold(f"[{where}] ") + style.dim("⊘ " + code_lines[0])]
    out += ["      " + style.dim(line) for line in code_lines[1:]]
    if step.note:
        out += _note_lines(v(step.note), width)
    out += _lines(v(render("source.not_run", {"reason": step.reason}, language)), width,
                  initial_indent="  " + style.yellow("⊘ "), subsequent_indent="    ")
    return out


# A module's or an optimizer's repr spans lines: shown as lines (each escaped, none longer than this),
# and no more of them than a transcript should print for one name.
_REPR_WIDTH = 76
_REPR_LINES = 12


def _repr_lines(text: str) -> list[str]:
    """``text`` (a repr) as the lines to print: every line escaped on its own (a control or bidi character
    never reaches the terminal; only the repr's own line breaks become lines), long lines cut, the rest
    counted away after :data:`_REPR_LINES`."""
    lines = [_short(line, _REPR_WIDTH) for line in text.split("\n")] or [""]
    if len(lines) > _REPR_LINES:
        lines = lines[: _REPR_LINES - 1] + ["…"]
    return lines

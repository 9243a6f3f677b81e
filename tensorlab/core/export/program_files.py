"""Write a lesson (or a session's steps) as a plain PyTorch script or a Jupyter notebook.

Both are made from the lesson and what each step raised in a TensorLab run of it
(``errors``, one per step). A step whose own operation raised there (torch, or Python on
its values: ``ErrorInfo.origin == "torch"``, as plain Python raises it too) is wrapped so
the script goes on, printing the error as the app shows it (``RuntimeError: message``),
and its notebook cell carries the ``raises-exception`` tag, so "Run all" continues. A
statement TensorLab itself refused or stopped (the allowlist, a type check, the guard, a
limit, a crash, a time limit) is written commented out, as it did not run, and so is every
later line of its ``with`` block; the lines of the block before it, which ran, stay code.
Imports are written only when a step uses them. Every lesson text is escaped for its
format (:mod:`tensorlab.core.export.escaping`). Before the text is returned it passes
:mod:`tensorlab.core.export.verify` (its own scaffold removed by the syntax tree, the rest
subset code, the whole compiled), else :class:`ExportRefused`. This module imports no torch.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Sequence
from typing import Any

from tensorlab.core.export.escaping import comment_lines, commented_code, markdown_text
from tensorlab.core.export.verify import ExportRefused, check_cells, check_script, compile_problem, handler_source
from tensorlab.core.files.safe_text import visible
from tensorlab.core.lessons.lesson import Ask, Lesson, LessonStep, RefusedStep
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.results import ErrorInfo

__all__ = ["NOT_RUN", "ExportRefused", "export_script", "export_notebook", "notebook_text", "refused",
           "script_from_code", "used_modules", "IMPORT_LINES"]

# Error kinds that mean TensorLab did not let the step run to its end, whatever the origin says.
NOT_RUN = frozenset({"TensorLabError", "LimitError", "WorkerCrash", "WorkerTimeout", "TimeLimit", "Cancelled"})


def refused(error: ErrorInfo | None) -> bool:
    """Whether ``error`` means TensorLab refused or stopped the statement (it did not run as in plain Python)."""
    return error is not None and (error.refused or error.type in NOT_RUN)

def _torch_setup(device: str, language: str, end: str = "") -> list[str]:
    """The seed (and the device, if not the CPU) for a program that uses torch."""
    lines = ["", *comment_lines(_label("seed_note", language)), "torch.manual_seed(0)" + end]
    if device != "cpu":
        lines += [*comment_lines(_label("device_note", language)), f"torch.set_default_device({device!r})"]
    return lines
def _label(key: str, language: str, **params: object) -> str:
    """The export's own words (``export.<key>`` in the catalogue) in ``language``."""
    return render(f"export.{key}", params, language)


def _measured_size(ask: Ask) -> str:
    """The size a measured question is about, as its answer line writes it."""
    return f"{ask.measured.size:,}" if ask.measured is not None else "?"


# The import each module name of the subset needs (DESIGN.md's accepted forms), in import order.
IMPORT_LINES: dict[str, str] = {"copy": "import copy", "torch": "import torch", "nn": "import torch.nn as nn",
                                "F": "import torch.nn.functional as F", "optim": "import torch.optim as optim"}


def used_modules(codes: Sequence[str]) -> list[str]:
    """The modules (`copy`, `torch`, `nn`, `F`, `optim`) the statements read, in import order.

    `nn`, `F` and `optim` need `torch` too: their layers and optimizers draw from torch's seed."""
    names: set[str] = set()
    for code in codes:
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        names.update(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
    if names & {"nn", "F", "optim"}:
        names.add("torch")
    return [module for module in IMPORT_LINES if module in names]


def _all_names(codes: Sequence[str]) -> set[str]:
    names: set[str] = set()
    for code in codes:
        try:
            names.update(n.id for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Name))
        except SyntaxError:
            continue
    return names


def _string_lines(code: str) -> set[int]:
    """1-based lines of ``code`` that begin inside a multi-line string (indenting them would change it)."""
    inside: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return inside


def _indented(code: str, indent: str = "    ") -> list[str]:
    keep = _string_lines(code)
    return [line if number in keep or not line.strip() else indent + line
            for number, line in enumerate(code.split("\n"), start=1)]


def _source(code: str) -> str:
    """A step's code with Python's own line breaks (\\r\\n, \\r) as \\n, without blank ends, its indentation
    without form feeds (:func:`_without_form_feeds`), and its string literals and comments written without
    control or bidi characters (see :func:`_escaped_literals`)."""
    return _escaped_literals(_without_form_feeds(code.replace("\r\n", "\n").replace("\r", "\n").strip("\n")))


def _without_form_feeds(code: str) -> str:
    """``code`` with each line's leading whitespace cut after its last form feed: the same program.

    Python's tokenizer resets the indentation it counts at a form feed, so ``"\\f    y"`` is indented
    by 4 whatever comes before the form feed: indented once more (in a ``try``) it would no longer be.
    What follows the last form feed is the indentation Python reads. Lines inside a multi-line string
    keep every character.
    """
    if "\f" not in code:
        return code
    keep = _string_lines(code)
    lines = code.split("\n")
    for number, line in enumerate(lines, start=1):
        lead = line[: len(line) - len(line.lstrip(" \t\f"))]
        if "\f" in lead and number not in keep:
            lines[number - 1] = lead.rsplit("\f", 1)[1] + line[len(lead):]
    return "\n".join(lines)


def _escaped_literals(code: str) -> str:
    """``code`` with every control or bidi character inside a string literal or a comment written as its escape.

    The same program ("Trojan Source": a U+202E in a string makes an editor show the code in another
    order than Python reads it): ``'\\u202e'`` in a literal is the same string. A raw string keeps its
    characters (an escape would change it); the subset's own code has no other place for them.
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    lines = code.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    edits = []
    for token in tokens:
        raw = token.type == tokenize.STRING and "r" in token.string.split(token.string[-1])[0].lower()
        if token.type in (tokenize.STRING, tokenize.COMMENT) and not raw:
            safe = visible(token.string, keep_line_breaks=True)
            if safe != token.string:
                begin = starts[token.start[0] - 1] + token.start[1]
                end = starts[token.end[0] - 1] + token.end[1]
                edits.append((begin, end, safe))
    for begin, end, safe in reversed(edits):
        code = code[:begin] + safe + code[end:]
    return code


def _statements_in_order(node: ast.stmt) -> list[ast.stmt] | None:
    """``node`` and the statements of its ``with`` blocks in the order TensorLab runs them (source order);
    None when it holds any other compound statement (whose lines may run more than once, or not at all)."""
    found = [node]
    if isinstance(node, ast.With):
        for child in node.body:
            inner = _statements_in_order(child)
            if inner is None:
                return None
            found += inner
    elif hasattr(node, "body") or hasattr(node, "orelse") or hasattr(node, "handlers"):
        return None
    return found


def _refused_from(code: str, at: int | None) -> int | None:
    """The line of ``code`` from which it did not run, when TensorLab refused its ``at``-th statement
    inside a ``with`` block (the lines before it ran); None when the whole step is written as not run.

    A refused first line of a block leaves the block empty: the block itself is cut (entering a grad
    mode and leaving it at once does nothing). The cut must fall between lines: a statement before it
    ending on the line it starts on (``a = 1; b = ...``) leaves the whole step commented out.
    """
    if at is None or at < 2:
        return None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1:
        return None
    order = _statements_in_order(tree.body[0])
    if order is None or at > len(order):
        return None
    parent: dict[int, ast.With] = {}
    for node in order:
        if isinstance(node, ast.With):
            parent.update((id(child), node) for child in node.body)
    cut = order[at - 1]
    while id(cut) in parent and parent[id(cut)].body[0] is cut:
        cut = parent[id(cut)]
    if cut is tree.body[0]:
        return None
    line = cut.lineno
    ancestors = set()
    walk: ast.stmt = cut
    while id(walk) in parent:
        walk = parent[id(walk)]
        ancestors.add(id(walk))
    for node in order[: order.index(cut)]:
        last = node.lineno if id(node) in ancestors else (node.end_lineno or node.lineno)
        if last >= line:
            return None
    text = code.split("\n")[line - 1]
    if text.encode("utf-8")[: cut.col_offset].decode("utf-8", "replace").strip():
        return None
    return line


def _diverged_at(errors: Sequence[ErrorInfo | None]) -> int | None:
    """The step (from 1) TensorLab refused after part of it had run, if any: what ran of it (a random draw,
    a flag set) is not in the script, so the script's state differs from TensorLab's from there on."""
    for number, error in enumerate(errors, start=1):
        if error is not None and refused(error) and error.partial:
            return number
    return None


def _code_lines(step: LessonStep, error: ErrorInfo | None, error_name: str, language: str,
                wrap: bool = True, diverged: int | None = None) -> list[str]:
    """One step's code as the script (``wrap``) or a notebook cell runs it: plain, wrapped in try/except
    (a script's step that raised in torch), or (from the refused statement on) commented out.

    Code that Python itself cannot compile (TensorLab walks the tree, so it runs, say, ``with`` blocks
    nested deeper than CPython's 20) is written commented out too, saying why: the file always compiles.
    """
    code = _source(step.code)
    if diverged is not None:
        return comment_lines(_label("after_partial", language, step=diverged)) + commented_code(code)
    lines = _runnable_lines(code, error, error_name, language, wrap)
    problem = compile_problem("\n".join(lines))
    if problem is None:
        return lines
    return comment_lines(_label("not_compiled", language, detail=problem)) + commented_code(code)


def _runnable_lines(code: str, error: ErrorInfo | None, error_name: str, language: str, wrap: bool) -> list[str]:
    if error is None or (not wrap and not refused(error)):
        return code.split("\n")
    if refused(error):
        lines = code.split("\n")
        line = _refused_from(code, error.at)
        why = {"type": error.type, "text": error.text(language)}
        if line is None:
            # What happened is said after the code, never between the question and it (predict, then read).
            return commented_code(code) + comment_lines(_label("not_run", language, **why))
        return (lines[: line - 1] + comment_lines(_label("not_run_rest", language, **why))
                + commented_code("\n".join(lines[line - 1:])))
    return (["try:", *_indented(code), *handler_source(error_name)]
            + comment_lines(_label("raised", language, type=error.type)))


def _refused_before(lesson: Lesson, number: int) -> list[RefusedStep]:
    """The statements of an opened file that TensorLab refused, that stand right before step ``number`` (from 1;
    ``len(lesson.steps) + 1``: after the last step)."""
    last = number > len(lesson.steps)
    return [r for r in lesson.refused if r.after == number - 1 or (last and r.after >= number - 1)]


def _refused_lines(refused: RefusedStep, language: str) -> list[str]:
    """A refused statement as the export writes it: its note, why, then its lines, every one a comment (never run)."""
    note = comment_lines(refused.note) if refused.note else []   # its own note, above it as in the file
    return note + comment_lines(_label("file_refused", language, reason=refused.reason.render(language))) + \
        commented_code(_source(refused.code))


def _error_name(lesson: Lesson) -> str:
    """A name for the caught error that no step uses (the except clause unbinds it)."""
    taken = _all_names([s.code for s in lesson.steps])
    name = "error"
    while name in taken:
        name += "_"
    return name


def _check(lesson: Lesson, errors: Sequence[ErrorInfo | None]) -> list[ErrorInfo | None]:
    errors = list(errors)
    if len(errors) != len(lesson.steps):
        raise ValueError(f"{len(errors)} results for {len(lesson.steps)} steps")
    return errors


def _ask_comment(step: LessonStep, language: str) -> list[str]:
    ask = step.ask
    if ask is None:
        return []
    lines = comment_lines(f"{_label('question', language)}: {ask.text('question', language)}")
    for number, choice in enumerate(ask.text("choices", language), start=1):
        lines += comment_lines(f"{number}) {choice}", prefix="#   ")
    return lines


def _answer_comment(step: LessonStep, language: str) -> list[str]:
    ask = step.ask
    if ask is None:
        return []
    choices = ask.text("choices", language)
    if ask.answer is None:   # measured: the answer is the device's, when the step is asked
        text = f"{_label('answer', language)}: {_label('measured', language, size=_measured_size(ask))}"
    else:
        text = f"{_label('answer', language)}: {ask.answer + 1}) {choices[ask.answer]}"
    explain = ask.text("explain", language)
    return comment_lines(text + (f". {explain}" if explain else ""))


def export_script(lesson: Lesson, errors: Sequence[ErrorInfo | None], language: str = "en",
                  device: str = "cpu") -> str:
    """``lesson`` as a runnable script; ``errors``: what each step raised in a TensorLab run on ``device``.

    :class:`ExportRefused` when the script fails its own check (:func:`~tensorlab.core.export.verify.check_script`).
    """
    errors = _check(lesson, errors)
    error_name = _error_name(lesson)
    # Line 1 fixes the encoding, so no lesson text below can declare another one.
    out = ["# -*- coding: utf-8 -*-"]
    out += comment_lines(visible(lesson.text("title", language)))   # a title is one line
    out += comment_lines(_label("exported", language, lesson=lesson.id) + ".")
    if lesson.text("summary", language):
        out += ["#", *comment_lines(lesson.text("summary", language))]
    setup = _setup(lesson, device, language, prints=_prints(lesson, errors))
    if setup:
        out += ["", *setup]
    diverged = _diverged_at(errors)
    for number, (step, error) in enumerate(zip(lesson.steps, errors), start=1):
        # An opened file's statements TensorLab refused stand where they stood, as comments: the script shows
        # everything the file had, and runs nothing TensorLab did not.
        for other in _refused_before(lesson, number):
            out += ["", *_refused_lines(other, language)]
        # As the app narrates a step: the question before its code (predict, then run), the answer and
        # the note (which says what happened) after it, as in the notebook.
        note = step.text(language)
        out.append("")
        out += comment_lines(_label("step", language, number=number))
        out += _ask_comment(step, language)
        out += _code_lines(step, error, error_name, language,
                           diverged=diverged if diverged is not None and number > diverged else None)
        out += _answer_comment(step, language)
        if note:
            out += comment_lines(note)
    for other in _refused_before(lesson, len(lesson.steps) + 1):
        out += ["", *_refused_lines(other, language)]
    text = "\n".join(out) + "\n"
    check_script(text, "\n".join(setup), error_name)
    return text


def _setup(lesson: Lesson, device: str, language: str, end: str = "", prints: bool = False) -> list[str]:
    """The statements a program starts with (its scaffold): the modules its steps read, the seed, the device,
    and (``prints``: a script that prints) an output that can write every string."""
    modules = used_modules([s.code for s in lesson.steps])
    setup = [IMPORT_LINES[module] for module in modules]
    if prints:
        # A string may hold a lone surrogate ('\ud800'): TensorLab shows it, but a terminal's encoder
        # (UTF-8, or ASCII under LC_ALL=C) raises UnicodeEncodeError on it and the script would stop there.
        # Backslash escapes keep the script going and say which character it was.
        setup = ["import sys", *setup, *comment_lines(_label("print_note", language)),
                 'sys.stdout.reconfigure(errors="backslashreplace")' + end]
    if "torch" in modules:
        setup += _torch_setup(device, language, end)
    return setup


def _prints(lesson: Lesson, errors: Sequence[ErrorInfo | None]) -> bool:
    """Whether the script prints: a step calls ``print``, or a step that raised in torch is wrapped (its handler
    prints the error)."""
    return "print" in _all_names([s.code for s in lesson.steps]) or any(
        error is not None and not refused(error) for error in errors)


def script_from_code(codes: Sequence[str], title: str = "") -> str:
    """A script of bare statements (none known to raise): imports, the seed, each statement."""
    from tensorlab.core.lang.parse import parse_one

    steps = tuple(LessonStep(code, parse_one(code)) for code in codes)
    lesson = Lesson("my-steps", title or "My steps", steps)
    return export_script(lesson, [None] * len(steps))


# -- notebook ------------------------------------------------------------------------------

def _markdown(source: str, cell_id: str) -> Any:
    from nbformat import v4

    cell = v4.new_markdown_cell(source)
    cell.id = cell_id
    return cell


def _question_markdown(step: LessonStep, language: str) -> str:
    ask = step.ask
    assert ask is not None
    choices = ask.text("choices", language)
    lines = [f"**{markdown_text(_label('question', language))}:** {markdown_text(ask.text('question', language))}", ""]
    lines += [f"{number}. {markdown_text(choice)}" for number, choice in enumerate(choices, start=1)]
    if ask.answer is None:
        answer = [markdown_text(_label("measured", language, size=_measured_size(ask)))]
    else:
        answer = [f"**{ask.answer + 1}\\.** {markdown_text(choices[ask.answer])}"]
    if ask.text("explain", language):
        answer += ["", markdown_text(ask.text("explain", language))]
    summary = markdown_text(_label("answer", language))
    lines += ["", f"<details><summary>{summary}</summary>", "", *answer, "", "</details>"]
    return "\n".join(lines)


def export_notebook(lesson: Lesson, errors: Sequence[ErrorInfo | None], language: str = "en",
                    device: str = "cpu") -> Any:
    """``lesson`` as an nbformat v4 notebook without outputs (validated).

    The title and summary first, an imports cell, then per step: its question
    (choices, the answer in a collapsed ``<details>``) above its code cell, and
    its note below it, as the app narrates a step after it ran.
    """
    import nbformat
    from nbformat import v4

    errors = _check(lesson, errors)
    header = [f"# {markdown_text(visible(lesson.text('title', language)))}"]   # a heading is one line
    if lesson.text("summary", language):
        header += ["", markdown_text(lesson.text("summary", language))]
    header += ["", f"*{markdown_text(_label('exported', language, lesson=lesson.id))}\\.*"]
    cells = [_markdown("\n".join(header), "title")]
    setup = _setup(lesson, device, language, ";")
    if setup:
        cell = v4.new_code_cell("\n".join(setup))
        cell.id = "setup"
        cells.append(cell)
    error_name = _error_name(lesson)
    diverged = _diverged_at(errors)
    def refused_cells(number: int) -> None:
        for other in _refused_before(lesson, number):   # as in the script: comments where they stood
            cell = v4.new_code_cell("\n".join(_refused_lines(other, language)))
            cell.id = f"refused-{other.cell}-{other.line}"
            cells.append(cell)

    for number, (step, error) in enumerate(zip(lesson.steps, errors), start=1):
        refused_cells(number)
        if step.ask is not None:
            cells.append(_markdown(_question_markdown(step, language), f"step-{number}-ask"))
        source = "\n".join(_code_lines(step, error, error_name, language, wrap=False,
                                        diverged=diverged if diverged is not None and number > diverged else None))
        cell = v4.new_code_cell(source)
        cell.id = f"step-{number}"
        if error is not None and not refused(error) and source == _source(step.code):
            cell.metadata["tags"] = ["raises-exception"]
        cells.append(cell)
        note = step.text(language)
        heading = f"*{markdown_text(_label('step', language, number=number))}*"
        cells.append(_markdown(heading + (f" — {markdown_text(note)}" if note else ""), f"step-{number}-note"))
    refused_cells(len(lesson.steps) + 1)
    notebook = v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    notebook.metadata["tensorlab"] = {"lesson": lesson.id, "language": language}
    nbformat.validate(notebook)
    check_cells([cell.source for cell in cells if cell.cell_type == "code"], "\n".join(setup))
    return notebook


def notebook_text(lesson: Lesson, errors: Sequence[ErrorInfo | None], language: str = "en",
                  device: str = "cpu") -> str:
    """The notebook as the text of an ``.ipynb`` file (JSON, written by nbformat)."""
    import nbformat

    text: str = nbformat.writes(export_notebook(lesson, errors, language, device))
    return text

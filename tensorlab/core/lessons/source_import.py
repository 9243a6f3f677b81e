"""A learner's own ``.py`` file or Jupyter notebook, opened as a lesson (issue #21).

Each top-level statement (each statement of a code cell) is a step; the comment lines right
above it are its note, and a markdown cell is the note of the step after it, as plain text (no
links, images or HTML). A statement outside the code subset is kept as a *refused* step
(:class:`~tensorlab.core.lessons.lesson.RefusedStep`) with the subset checker's reason, and so is
a statement that reads a name only a refused statement binds ("depends on line N"): refused
steps are never part of ``Lesson.steps``, so nothing plays, checks or exports them as code.

Bounded and torch-free: a ``.py`` is read up to :data:`MAX_PY_BYTES` and decoded as its PEP 263
encoding cookie says; a notebook up to :data:`MAX_NOTEBOOK_BYTES`, its JSON read with every
``outputs`` (and ``attachments``) dropped as each cell's object is read, before any cell is
looked at. Parsing stays inside Python's own bounds: a file nested too deeply is a message, not a
``RecursionError``.
"""

from __future__ import annotations

import ast
import builtins
import codecs
import copy
import html
import io
import json
import math
import re
import string
import tokenize
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tensorlab.core.explain.version_culprit import at_file_lines
from tensorlab.core.files.bounded_read import UnreadableFile, read_regular_file
from tensorlab.core.lang.parse import LanguageError, Statement, code_lines, parse_one, undefined_name_message
from tensorlab.core.lessons.lesson import Lesson, LessonError, LessonStep, RefusedStep, find_lesson
from tensorlab.core.messages.catalogue import Message, msg, render
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["MAX_PY_BYTES", "MAX_NOTEBOOK_BYTES", "SOURCE_SUFFIXES", "SOURCE_JOB", "is_source_file", "load_source",
           "read_source", "parse_source", "parse_python", "parse_notebook", "find_program", "markdown_as_text",
           "source_import_job", "parse_in_engine", "answer_error", "lesson_parts", "lesson_from_parts",
           "with_file_lines", "run_time_refusal", "refused_line", "refused_at_run_time", "echoed_steps",
           "as_python_echoes",
           "random_shifts", "RANDOM_SHIFTED", "with_random_note", "opened_file", "as_the_file_runs", "refused_changes",
           "changes_after_step", "changes_before_refused", "with_may_differ", "may_differ_mark", "may_differ_tip",
           "shown_code",
           "SHOWN_CODE_LINES"]

MAX_PY_BYTES = 1_000_000
MAX_NOTEBOOK_BYTES = 20_000_000
SOURCE_SUFFIXES = (".py", ".ipynb")

# PEP 263: the cookie is a comment on line 1 or 2 (its own line is not a note).
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")
# A line IPython would treat as a magic, a shell command or a help request.
# IPython's assignment forms too: `files = !ls`, `t = %timeit -o f()`, `a, b = !cmd` (its own pattern).
_HELP = re.compile(r"^\s*(?:\?\??\s*[A-Za-z_][\w.]*|[A-Za-z_][\w.]*\?\??)\s*$")   # `x?`, `x??`, `?x`, `??x`
_MAGIC = re.compile(r"^\s*(?:[%!]|\?|[A-Za-z_][\w.]*\?\??\s*$|[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[%!])")
# Names TensorLab binds for every step that plain Python binds only by an import; and Python's builtins.
_PROVIDED = frozenset({"torch", "nn", "F", "optim", "copy"})
_BUILTINS = frozenset(dir(builtins))
# Method calls that change the object they are called on: a refused one taints its receiver.
_CHANGES_RECEIVER = frozenset({"backward", "step", "zero_grad", "append", "extend", "insert", "update", "pop",
                               "clear", "remove", "add_module", "register_buffer", "register_parameter",
                               "load_state_dict", "train", "eval", "apply", "setdefault"})
# A module's methods that convert it in place and return it (`model.to(device)`, `net.double()`): called as a
# statement of its own they change the module (a tensor's would return a new tensor and drop it).
_CONVERTS_RECEIVER = frozenset({"to", "double", "float", "half", "bfloat16", "cuda", "cpu", "type", "xpu", "mps"})
# torch's process-wide settings: a refused call to one changes what every later step computes or prints.
_GLOBAL_SETTINGS = frozenset({"set_default_dtype", "set_default_device", "set_default_tensor_type",
                              "set_grad_enabled", "use_deterministic_algorithms",
                              "set_num_threads", "set_flush_denormal", "set_anomaly_enabled",
                              "set_detect_anomaly"})
EVERYTHING = "<settings>"   # the name a refused global setting changes: every later step reads it
ANY_NAME = "<any name>"     # the name `exec(...)`, `globals()[...]`, `vars()` change: any name at all
PRINTING = "<printing>"     # the name `torch.set_printoptions(...)` changes: what every later print shows
# Builtins that reach any name (a string of code, the namespace itself).
_REACHES_ANY_NAME = frozenset({"exec", "eval", "globals", "locals", "vars", "__import__", "compile"})
# Functions that change their first argument although their name has no `_` (NumPy's, `random.shuffle`).
_CHANGES_FIRST_ARGUMENT = frozenset({"copyto", "put", "place", "putmask", "put_along_axis", "fill_diagonal",
                                     "shuffle", "setattr", "delattr"})


def is_source_file(name: str | Path) -> bool:
    """Whether ``name`` is opened by this importer (a ``.py`` or ``.ipynb`` file) rather than as TOML."""
    return Path(name).suffix.lower() in SOURCE_SUFFIXES


def find_program(name: str) -> Lesson:
    """A built-in lesson by id, a lesson file, or a ``.py``/``.ipynb`` file by path (what `run` opens)."""
    if is_source_file(name):
        return load_source(name)
    return find_lesson(name)


def read_source(path: str | Path) -> tuple[bytes, str, bool]:
    """The bytes of the ``.py`` or ``.ipynb`` file at ``path`` (bounded: regular files only, at most
    :data:`MAX_PY_BYTES` or :data:`MAX_NOTEBOOK_BYTES`), its name, and whether it is a notebook."""
    path = Path(path)
    name = path.name or str(path)
    notebook = path.suffix.lower() == ".ipynb"
    try:
        return read_regular_file(path, MAX_NOTEBOOK_BYTES if notebook else MAX_PY_BYTES), name, notebook
    except UnreadableFile as exc:
        raise LessonError(name, exc.message) from None


def parse_source(data: bytes, source: str, notebook: bool, limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """A ``.py`` file's or a notebook's bytes as a lesson (:func:`parse_python`, :func:`parse_notebook`)."""
    return parse_notebook(data, source, limits) if notebook else parse_python(data, source, limits)


def load_source(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """Read the ``.py`` or ``.ipynb`` file at ``path`` as a lesson; :class:`LessonError` says what is wrong.

    In this process (the headless commands); the window parses through :data:`SOURCE_JOB` in the worker."""
    data, name, notebook = read_source(path)
    return parse_source(data, name, notebook, limits)


# -- the window's way: parsed in the worker, the lesson's parts sent back as plain data ----------------

SOURCE_JOB = "source_import"   # the worker job (core/worker/jobs.py) that parses a file for the window


def lesson_parts(lesson: Lesson) -> dict[str, Any]:
    """An opened file's lesson as plain data (texts, numbers and messages: what crosses the wire)."""
    return {"id": lesson.id, "title": lesson.title, "source": lesson.source,
            "steps": [(step.code, step.note, step.line, step.cell, dict(step.translations)) for step in lesson.steps],
            "refused": [(r.code, r.reason, r.after, r.line, r.cell, r.note) for r in lesson.refused]}


def lesson_from_parts(parts: dict[str, Any], limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """The lesson of :func:`lesson_parts` again: each step's statement parsed (one checked, bounded statement
    at a time; the file as a whole was parsed in the worker). :class:`LessonError` if a part is not one."""
    source = str(parts.get("source", "<file>"))
    steps = []
    try:
        for number, (code, note, line, cell, *more) in enumerate(parts["steps"], start=1):
            translations = {str(k): str(v) for k, v in (more[0] if more else {}).items()}
            try:
                steps.append(LessonStep(str(code), parse_one(str(code), limits), str(note),
                                        translations=translations, line=int(line), cell=int(cell)))
            except LanguageError as exc:
                raise LessonError(source, exc.message, number) from None
        refused = tuple(RefusedStep(str(code), reason, int(after), int(line), int(cell), str(note))
                        for code, reason, after, line, cell, note in parts["refused"])
        if not all(isinstance(r.reason, Message) for r in refused):
            raise TypeError("a reason that is not a message")
        return Lesson(str(parts["id"]), str(parts["title"]), tuple(steps), source=source, refused=refused)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, LessonError):
            raise
        raise LessonError(source, msg("engine.internal", detail=f"{type(exc).__name__}: {exc}")) from None


def parse_in_engine(data: bytes, source: str, notebook: bool, engine: Any) -> Lesson:
    """The file's lesson, parsed by :data:`SOURCE_JOB` on ``engine`` (the worker process: Python's parser runs
    there, under the worker's limits); :class:`LessonError` for a file that cannot be opened."""
    answer = engine.job(SOURCE_JOB, {"data": data, "source": source, "notebook": notebook, "path": source})
    if not isinstance(answer, dict):
        raise LessonError(source, msg("engine.internal", detail=repr(answer)[:200]))
    error = answer_error(answer, source)
    if error is not None:
        raise error
    return lesson_from_parts(answer["lesson"])


def answer_error(answer: dict[str, Any], source: str) -> LessonError | None:
    """The :class:`LessonError` a :data:`SOURCE_JOB` answer carries, or None when it holds the lesson."""
    reason, step = answer.get("error"), answer.get("step")
    if not isinstance(reason, Message):
        return None
    return LessonError(source, reason, step if isinstance(step, int) and not isinstance(step, bool) else None)


def source_import_job(session: Any, params: dict[str, Any], cancelled: Any, progress: Any) -> dict[str, Any]:
    """The :data:`SOURCE_JOB` job, in the worker: params ``data`` (the file's bytes), ``source`` (its name),
    ``notebook`` and ``path`` (given back, so the window knows which file it was). Returns ``{"path",
    "lesson": lesson_parts(...)}``, or ``{"path", "error", "step"}`` (a :class:`LessonError`'s reason and step)
    for a file that cannot be opened."""
    path = str(params.get("path", ""))
    data = params.get("data")
    source = str(params.get("source", "<file>"))
    if not isinstance(data, bytes):
        return {"path": path, "error": msg("source.not_notebook", detail="no bytes")}
    try:
        lesson = parse_source(data, source, bool(params.get("notebook")))
    except LessonError as exc:
        return {"path": path, "error": exc.reason, "step": exc.step}
    return {"path": path, "lesson": lesson_parts(lesson)}


def with_file_lines(result: StepResult, steps: Sequence[LessonStep]) -> StepResult:
    """``result`` with the culprit steps its explanation names said with their file lines too, where ``steps``
    (the program it ran in, numbered as the results are) come from an opened file: "step 5 (line 12: …)"."""
    error = result.error
    if error is None or error.explanation is None or not error.explanation.culprit_steps:
        return result
    explanation = at_file_lines(error.explanation, [(step.line, step.cell) for step in steps])
    if explanation is error.explanation:
        return result
    return replace(result, error=replace(error, explanation=explanation))


# -- what Python shows of a bare expression ---------------------------------------------------------------

def echoed_steps(lesson: Lesson) -> frozenset[int]:
    """The steps of an opened file whose value Python itself shows: in a notebook the last statement of a cell,
    where it is an expression that runs (Jupyter echoes it); in a ``.py`` none (a script prints nothing of a bare
    expression: `torch.manual_seed(1)` shows no `<torch._C.Generator object at 0x…>`)."""
    cached = _ECHOES.get(id(lesson))
    if cached is not None and cached[0] is lesson:
        return cached[1]
    last: dict[int, tuple[int, int, int]] = {}   # cell -> (line, order, step index or -1 for a refused statement)
    order = 0
    waiting = list(lesson.refused)
    for number, step in enumerate(lesson.steps):
        while waiting and waiting[0].after <= number:
            refused = waiting.pop(0)
            last[refused.cell] = max(last.get(refused.cell, (0, 0, -1)), (refused.line, order, -1))
            order += 1
        last[step.cell] = max(last.get(step.cell, (0, 0, -1)), (step.line, order, number))
        order += 1
    echoed = frozenset(index for cell, (_line, _order, index) in last.items()
                       if cell and index >= 0 and isinstance(_one_node(lesson.steps[index].code), ast.Expr)
                       and not _ends_in_semicolon(lesson.steps[index].code))
    if len(_ECHOES) > 8:
        _ECHOES.clear()
    _ECHOES[id(lesson)] = (lesson, echoed)
    return echoed


_ECHOES: dict[int, tuple[Lesson, frozenset[int]]] = {}


def _ends_in_semicolon(code: str) -> bool:
    """Whether a statement's code ends in `;` (a comment after it aside): Jupyter then shows no value (`x;`)."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline)
                  if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER,
                                    tokenize.INDENT, tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError, RecursionError, MemoryError):
        return False
    return bool(tokens) and tokens[-1].type == tokenize.OP and tokens[-1].string == ";"


def as_python_echoes(result: StepResult, echoes: bool) -> StepResult:
    """``result`` of an opened file's step without its value where Python shows none (``echoes`` False)."""
    return result if echoes or result.value is None else replace(result, value=None)


# -- random numbers after a statement that is not run ----------------------------------------------------

RANDOM_SHIFTED = "explain.random_shifted"   # the note of a step whose random numbers are not the file's
# Calls that draw from torch's generator (a layer with parameters initialises them at random as it is made).
_DRAWS = frozenset({
    "randn", "rand", "randint", "randperm", "normal", "bernoulli", "multinomial", "poisson", "randn_like",
    "rand_like", "randint_like", "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout",
    "feature_alpha_dropout", "rrelu", "gumbel_softmax", "random_split", "RandomSampler", "reset_parameters",
    "uniform_", "normal_", "random_", "bernoulli_", "exponential_", "geometric_", "cauchy_", "log_normal_",
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "Embedding", "EmbeddingBag", "RNN", "LSTM", "GRU",
    "RNNCell", "LSTMCell", "GRUCell", "MultiheadAttention", "Transformer", "TransformerEncoderLayer",
    "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder"})
_SEEDS = frozenset({"manual_seed", "seed"})   # they set the generator: what was drawn before no longer counts


def _called_names(node: ast.AST) -> list[tuple[str, ast.expr, ast.Call]]:
    """Each call in ``node``: the name it calls (`torch.randn` → "randn"), the expression it is called on."""
    found = []
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        func = call.func
        if isinstance(func, ast.Attribute):
            found.append((func.attr, func.value, call))
        elif isinstance(func, ast.Name):
            found.append((func.id, func, call))
    return found


def _draws(node: ast.AST | None, drawing: set[str], shuffling: set[str]) -> bool:
    """Whether a statement may draw random numbers from torch's generator: a call that draws (`torch.randn`,
    `nn.Linear(...)`, `nn.init.*`, `w.uniform_()`), a call to a function or class of the file that does
    (``drawing``, or whose body seeds), or a loop over a loader (``shuffling``: any `DataLoader(...)`, whose
    iteration takes a base seed from the generator even with `shuffle=False`)."""
    if node is None:
        return False
    for name, owner, _call in _called_names(node):
        if name in _DRAWS or name in drawing or (isinstance(owner, (ast.Name, ast.Attribute)) and (
                getattr(owner, "id", None) == "init" or getattr(owner, "attr", None) == "init")):
            return True
    # A function of the file that draws, given to code that calls it (`lin.apply(init)`, `map(make, xs)`).
    if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in drawing for n in ast.walk(node)):
        return True
    loops = [n.iter for n in ast.walk(node) if isinstance(n, (ast.For, ast.AsyncFor))]
    loops += [g.iter for n in ast.walk(node) if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp,
                                                               ast.DictComp)) for g in n.generators]
    return any(_roots(iterable) & shuffling or any(name in ("DataLoader", "RandomSampler")
                                                   for name, _owner, _call in _called_names(iterable))
               for iterable in loops)


def _seeds(node: ast.AST | None) -> bool:
    """Whether a statement sets torch's generator (`torch.manual_seed(0)`, `torch.random.manual_seed(0)`)."""
    return node is not None and any(name in _SEEDS and isinstance(owner, (ast.Name, ast.Attribute))
                                    and (getattr(owner, "id", None) == "torch" or getattr(owner, "attr", None)
                                         in ("torch", "random", "cuda"))
                                    for name, owner, _call in _called_names(node))


def random_shifts(lesson: Lesson) -> dict[int, RefusedStep]:
    """The steps of an opened file (by index) whose random numbers may not be the ones Python draws running the
    file, each with the refused statement before it that uses torch's generator first (draws from it, `nn.Linear`
    made with a layer TensorLab refuses, or sets its seed) with no `torch.manual_seed(...)` run between them."""
    cached = _SHIFTS.get(id(lesson))
    if cached is not None and cached[0] is lesson:
        return cached[1]
    drawing: set[str] = set()     # functions and classes of the file whose body draws
    shuffling: set[str] = set()   # names bound to a loader or sampler (any DataLoader draws)
    shifter: RefusedStep | None = None
    shifts: dict[int, RefusedStep] = {}
    waiting = list(lesson.refused)
    order: list[tuple[int, LessonStep | RefusedStep]] = []
    for number, step in enumerate(lesson.steps):
        while waiting and waiting[0].after <= number:
            order.append((-1, waiting.pop(0)))
        order.append((number, step))
    order += [(-1, refused) for refused in waiting]
    for number, entry in order:
        node = _one_node(entry.code)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # A body that seeds counts as one that draws: a call of it sets the generator as Python runs it.
            body = ast.Module(body=node.body, type_ignores=[])
            # What runs as it is defined (review r21h 9): its decorators and defaults (`def h(x=torch.randn(2))`),
            # a class's body (`class Holder: p = torch.randn(3)`); not the bodies of its functions.
            now = ast.Module(body=[ast.Expr(value=part) for part in _runs_now(node)
                                   if isinstance(part, ast.expr)], type_ignores=[])
            if (isinstance(entry, RefusedStep) and shifter is None
                    and (_draws(now, drawing, shuffling) or _seeds(now))):
                shifter = entry
            (drawing.add if _draws(body, drawing, shuffling) or _seeds(body) else drawing.discard)(node.name)
            continue
        if isinstance(node, ast.Assign) and any(
                # Any DataLoader: each iteration takes a base seed from the generator, `shuffle=False` too.
                name in ("DataLoader", "RandomSampler") for name, _owner, _call in _called_names(node.value)):
            shuffling |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        if isinstance(entry, RefusedStep):
            if shifter is None and (_draws(node, drawing, shuffling) or _seeds(node)):
                shifter = entry
            continue
        if _seeds(node):
            shifter = None
        elif shifter is not None and _draws(node, drawing, shuffling):
            shifts[number] = shifter
    if len(_SHIFTS) > 8:
        _SHIFTS.clear()
    _SHIFTS[id(lesson)] = (lesson, shifts)
    return shifts


_SHIFTS: dict[int, tuple[Lesson, dict[int, RefusedStep]]] = {}


def with_random_note(result: StepResult, shifter: RefusedStep | None) -> StepResult:
    """``result`` with the note that its random numbers may not be the file's (:func:`random_shifts`)."""
    if shifter is None:
        return result
    note = Explanation(RANDOM_SHIFTED, (("where", _where(shifter.line, shifter.cell)),))
    return replace(result, notes=(*result.notes, note))


# -- a statement refused as it runs -----------------------------------------------------------------------

def run_time_refusal(result: StepResult) -> Message | None:
    """The subset's refusal a step of an opened file met as it ran (`model = model.to(device)` on a module: only
    the worker knows the type), or None: a torch error is content, and a crash is not the subset refusing the
    statement. A refusal after part of the statement had run (a loop's body refused in its first
    iteration, `for g in opt.param_groups: g["lr"] = 0.0`; a `with` block's second line) is one too: the step
    is refused whole and its readers with it, since what ran of it may have changed anything it may change. So is
    a TensorLab limit the step met (a loop of 2,000 iterations): Python has none."""
    error = result.error
    if error is not None and error.type == "LimitError" and error.own is not None:
        # A TensorLab limit (`for i in range(2000)`, the 1,000 iterations of a loop; a statement's element budget)
        # is not Python's: Python runs the statement to its end, so what it changes may differ from here on and its
        # readers are greyed (issue #21: `print(x)` after the loop showed TensorLab's x, never Python's).
        return error.own
    if error is None or error.type != "TensorLabError" or not error.refused:
        return None
    own = error.own
    return own if own is not None and own.key.startswith("subset.") else None


def refused_line(result: StepResult) -> int | None:
    """The line of the step (1: its first) where the subset refused it as it ran (`g["lr"] = 0.0` on line 3 of a
    loop), None where that is its first or not known (a limit: a loop's counted after its body ran)."""
    error = result.error
    if error is None or error.line is None or error.line < 2 or error.own is None:
        return None
    return error.line if error.own.key.startswith("subset.") else None


def refused_at_run_time(lesson: Lesson, index: int, reason: Message, within: int | None = None) -> Lesson:
    """``lesson`` (an opened file's) with its step ``index`` refused for ``reason`` (met as it ran,
    :func:`run_time_refusal`), and every later step that reads what it binds or may change refused as
    "depends on line N", as the import refuses them (:func:`_follow_names`). The steps before it stay as they are
    (numbered as they were); the refused statements keep their reasons."""
    order = _in_order(lesson)
    target = lesson.steps[index]
    pieces = []
    for entry in order:
        node = _one_node(entry.code)
        if isinstance(entry, RefusedStep):   # its own reason stays (`own`): it was found when the file opened
            pieces.append(_Piece(entry.code, entry.line, entry.cell, entry.note, reason=entry.reason, node=node,
                                 own=True))
        elif entry is target:
            pieces.append(_Piece(entry.code, entry.line, entry.cell, entry.note, node=node,
                                 reason=_at(entry.line + (within or 1) - 1, entry.cell, _with_hint(reason))))
        else:
            pieces.append(_Piece(entry.code, entry.line, entry.cell, entry.note, statement=entry.statement,
                                 node=node))
    _follow_names(pieces)
    steps: list[LessonStep] = []
    refused: list[RefusedStep] = []
    for piece, entry in zip(pieces, order):
        if isinstance(entry, RefusedStep):
            refused.append(replace(entry, after=len(steps)))
        elif piece.statement is not None:
            steps.append(entry)
        else:
            assert piece.reason is not None
            refused.append(RefusedStep(entry.code, piece.reason, len(steps), entry.line, entry.cell, entry.note))
    return replace(lesson, steps=tuple(steps), refused=tuple(refused))


# -- tensors a statement that is not run may have changed ---------------------------------------------------

def _in_order(lesson: Lesson) -> list[LessonStep | RefusedStep]:
    """An opened file's statements in the file's order: its steps, each refused one in its place."""
    order: list[LessonStep | RefusedStep] = []
    waiting = list(lesson.refused)
    for number, step in enumerate(lesson.steps):
        while waiting and waiting[0].after <= number:
            order.append(waiting.pop(0))
        order.append(step)
    return order + waiting


def refused_changes(lesson: Lesson) -> list[dict[str, tuple[int, int]]]:
    """For each statement of an opened file in the file's order (its steps, each refused one in its place, as
    `run --json` lists them): the names whose last binding or possible in-place change, after it, is a refused
    statement's, each with that statement's ``(line, cell)``; by the rule that greys their readers
    (:func:`_follow_names`). A tensor under such a name is shown as TensorLab's run left it, which Python's may
    not be (:func:`with_may_differ`). ``"<any name>"``: a refused `exec(...)` may have changed every name."""
    cached = _CHANGES.get(id(lesson))
    if cached is not None and cached[0] is lesson:
        return cached[1]
    order = _in_order(lesson)
    pieces = [_Piece(entry.code, entry.line, entry.cell, entry.note, reason=entry.reason,
                      node=_refused_node(entry.code), own=True) if isinstance(entry, RefusedStep)
              else _Piece(entry.code, entry.line, entry.cell, entry.note, statement=entry.statement,
                          node=_one_node(entry.code)) for entry in order]
    record: list[dict[str, _Piece]] = []
    _follow_names(pieces, record)
    drawn = _random_marks(lesson, order)
    found: list[dict[str, tuple[int, int]]] = []
    for marks, random_marks in zip(record, drawn, strict=True):   # consecutive statements mostly hold the same
        made = {**random_marks, **{name: (piece.line, piece.cell) for name, piece in marks.items()}}   # marks
        found.append(found[-1] if found and found[-1] == made else made)
    if len(_CHANGES) > 8:
        _CHANGES.clear()
    _CHANGES[id(lesson)] = (lesson, found)
    return found


def _random_marks(lesson: Lesson, order: list[LessonStep | RefusedStep]) -> list[dict[str, tuple[int, int]]]:
    """For each statement in the file's order: the names holding random numbers that may not be the file's, each
    with the refused statement that shifted torch's generator (:func:`random_shifts`): what a step that draws after
    it binds (`noise = torch.randn(2)`, `head = nn.Linear(2, 1)`), and what a step computes from those (`c = noise
    * 2`, `out = head(x)`, `x += noise`), until a step binds the name again from other values (review r21g)."""
    shifts = random_shifts(lesson)
    marks: dict[str, tuple[int, int]] = {}
    found: list[dict[str, tuple[int, int]]] = []
    # name -> the names it was computed from, transitively: a `backward()` through a tensor computed from numbers that
    # may differ gives gradients that may differ to all of them (`x.grad` after `(x * w).sum().backward()`).
    sources: dict[str, set[str]] = {}
    number = -1
    for entry in order:
        node = _one_node(entry.code)
        if isinstance(entry, LessonStep):
            number += 1
            reads = {name for kind, name, _line, _col in entry.statement.events if kind != "def"}
            defines = set(entry.statement.defines)
            shifter = shifts.get(number)
            where = ((shifter.line, shifter.cell) if shifter is not None
                     else next((marks[name] for name in sorted(reads) if name in marks), None))
            if where is None:   # a new dict: the ones found for earlier statements stay as they were (review r21h 8)
                marks = {name: at for name, at in marks.items() if name not in defines}
            else:   # bound, or changed in place (`x += noise`, `x.add_(noise)`), from values that may differ
                changed = _bindings(node)[1] if node is not None else set()
                # review r21h 11: a backward's gradients reach what its tensors were computed from (`x.grad`)
                grads = (set().union(*(sources.get(r, set()) | {r} for r in _backward_roots(node)))
                         if node is not None else set())
                marks = {**marks, **{name: where for name in defines | (changed & reads) | grads
                                     if name not in _PROVIDED}}
            origin = (reads - _PROVIDED).union(*(sources.get(r, set()) for r in reads))
            for name in defines:
                sources[name] = origin - {name} | (sources.get(name, set()) if name in reads else set())
        elif node is not None:
            rebound = _bindings(node)[0]   # a refused statement's own names are marked by the rule for those
            marks = {name: where for name, where in marks.items() if name not in rebound}
        found.append(marks)
    return found


_CHANGES: dict[int, tuple[Lesson, list[dict[str, tuple[int, int]]]]] = {}
_ROOT = re.compile(r"[A-Za-z_]\w*")
GRADIENT = ".grad"   # a name marked by its gradient only (`w.grad`: a refused `backward()` may have changed it)


def changes_after_step(lesson: Lesson, index: int) -> dict[str, tuple[int, int]]:
    """:func:`refused_changes` after the opened file's step ``index`` (0-based, among the steps that run)."""
    position = index + sum(1 for refused in lesson.refused if refused.after <= index)
    found = refused_changes(lesson)
    return found[position] if 0 <= position < len(found) else {}


def changes_before_refused(lesson: Lesson, refused: RefusedStep) -> dict[str, tuple[int, int]]:
    """:func:`refused_changes` before the refused statement ``refused`` of the lesson (the state its JSON shows)."""
    position = refused.after + next((k for k, r in enumerate(lesson.refused) if r is refused), 0)
    found = refused_changes(lesson)
    return found[position - 1] if 0 < position <= len(found) else {}


def with_may_differ(snapshot: Snapshot, changes: dict[str, tuple[int, int]]) -> Snapshot:
    """``snapshot`` with each tensor a refused statement may have changed marked (``may_differ``: its line and
    cell; a tensor is marked by the name it is reached from, `model` for `model.weight`). Unchanged where none is."""
    if not changes and not any(tensor.may_differ is not None for tensor in snapshot.tensors):
        return snapshot
    anything = changes.get(ANY_NAME)
    tensors = []
    for tensor in snapshot.tensors:
        root = _ROOT.match(tensor.name)
        where = (changes.get(root.group()) if root is not None else None) or anything
        if where is None and root is not None and (tensor.requires_grad or tensor.grad is not None):
            # Only its gradient may differ: a tensor that has none and needs none has none in Python either (the
            # data `X` of `pred = X @ w` in a refused training loop; review r21g).
            where = changes.get(root.group() + GRADIENT)
        tensors.append(tensor if tensor.may_differ == where else replace(tensor, may_differ=where))
    if all(new is old for new, old in zip(tensors, snapshot.tensors)):
        return snapshot
    return replace(snapshot, tensors=tuple(tensors))


def may_differ_mark(where: tuple[int, int], language: str = "en") -> str:
    """The short words shown beside a tensor a statement not run may have changed (:attr:`TensorInfo.may_differ`,
    its ``(line, cell)``): "may differ (line 7 not run)", in a notebook "may differ (cell 3, line 2 not run)"."""
    line, cell = where
    if cell:
        return render("source.may_differ_mark_cell", {"line": line, "cell": cell}, language)
    return render("source.may_differ_mark", {"line": line}, language)


def may_differ_tip(where: tuple[int, int], language: str = "en") -> str:
    """The sentence that says what :func:`may_differ_mark` means (a tooltip, a screen reader's text)."""
    return render("source.may_differ_tip", {"where": _where(where[0], where[1])}, language)


SHOWN_CODE_LINES = 12   # a step's code shown in a panel (the Narration's cut): its first lines, then how many more


def shown_code(code: str, language: str = "en") -> str:
    """A step's code as a panel shows it (the Code panel's row, the Output's echo, the Narration): whole up to
    :data:`SHOWN_CODE_LINES` lines (and two more), else its first lines and "… N more lines (not shown)". A
    learner's file may hold a statement of 300,000 lines, which is never laid out whole."""
    total = code.count("\n") + 1
    if total <= SHOWN_CODE_LINES + 2:   # (a long line is wrapped where it is shown, as before)
        return code
    lines = code.split("\n", SHOWN_CODE_LINES)
    more = render("source.lines_not_shown", {"count": f"{total - SHOWN_CODE_LINES:,}"}, language)
    return "\n".join(lines[:SHOWN_CODE_LINES]) + "\n" + more


def _refused_node(code: str) -> ast.stmt | None:
    """A refused statement's tree as its names are followed: an IPython line's or a cell magic's what it runs
    (`%time x.mul_(2)` runs `x.mul_(2)`; a `%%timeit` cell its body), so what they change is marked (review r21g)."""
    node = _one_node(code)
    if node is not None:
        return node
    lines = code_lines(code)
    if lines and lines[0].lstrip().startswith("%%"):
        return _cell_magic_binding(lines[1:])
    return _magic_binding(code) if len(lines) == 1 else None


def _one_node(code: str) -> ast.stmt | None:
    """The tree of one statement's code (None where it is not one statement: a magic, a cell that does not parse)."""
    try:
        body = ast.parse(code, mode="exec").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return body[0] if len(body) == 1 else None


# -- reading the text ------------------------------------------------------------------------------------

def _decode_python(data: bytes, source: str) -> str:
    """The text of a ``.py`` file, in the encoding its cookie (or BOM) names, else UTF-8 (PEP 263)."""
    if len(data) > MAX_PY_BYTES:
        raise LessonError(source, msg("file.too_large", limit=MAX_PY_BYTES))
    wide = _wide_encoding(data)
    if wide is not None:   # Python reads no UTF-16 or UTF-32 source: say so, not "invalid declaration"
        raise LessonError(source, msg("source.wide_encoding", encoding=wide))
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:   # an unknown encoding, or a cookie that contradicts the BOM: said at its line
        cookie, line = _cookie_of(data), _cookie_line(data)
        if data.startswith(codecs.BOM_UTF8) and cookie is not None:
            reason = msg("source.bom_cookie", encoding=cookie)
        else:
            reason = msg("source.bad_cookie", detail=str(exc.msg))
        raise LessonError(source, reason if line is None else _at(line, 0, reason)) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1   # as Python says it: "... on line 3"
        raise LessonError(source, msg("source.not_encoded", encoding=encoding, line=line, byte=exc.start)) from None
    except LookupError as exc:   # detect_encoding knows it, the codec registry may still not
        line = _cookie_line(data)
        reason = msg("source.bad_cookie", detail=str(exc))
        raise LessonError(source, reason if line is None else _at(line, 0, reason)) from None
    return text.removeprefix("\ufeff")


def _wide_encoding(data: bytes) -> str | None:
    """"UTF-16" or "UTF-32" where ``data`` starts with that BOM, or reads as ASCII in it (every other byte 0)."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    head = data[:64]
    if len(head) >= 4 and (not any(head[1::2]) or not any(head[0::2])) and any(head):
        return "UTF-16"
    return None


def _cookie_line(data: bytes) -> int | None:
    """The line (1 or 2) of the PEP 263 cookie, if there is one."""
    for number, line in enumerate(data.removeprefix(codecs.BOM_UTF8).splitlines()[:2], start=1):
        if re.match(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", line):
            return number
    return None


def _cookie_of(data: bytes) -> str | None:
    """The encoding the PEP 263 cookie on line 1 or 2 names, if there is one."""
    for line in data.removeprefix(codecs.BOM_UTF8).splitlines()[:2]:
        found = re.match(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", line)
        if found:
            return found.group(1).decode("ascii", "replace")
    return None


def _drop_outputs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Called as each JSON object is read: a cell's outputs are let go before the cell is looked at.
    return {key: value for key, value in pairs if key not in ("outputs", "attachments")}


def _cells(data: bytes, source: str) -> list[tuple[str, str]]:
    """``(cell_type, source)`` of each cell of a notebook (nbformat 4), its outputs never kept."""
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise LessonError(source, msg("file.too_large", limit=MAX_NOTEBOOK_BYTES))
    wide = _wide_encoding(data)
    if wide is not None:   # not "byte 0": what it is saved as
        raise LessonError(source, msg("source.notebook_wide", encoding=wide))
    try:
        document = json.loads(data.decode("utf-8-sig"), object_pairs_hook=_drop_outputs)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise LessonError(source, msg("source.not_encoded", encoding="UTF-8", line=line, byte=exc.start)) from None
    except RecursionError:
        raise LessonError(source, msg("source.not_notebook", detail="nested too deeply")) from None
    except ValueError as exc:   # json.JSONDecodeError, and an integer of too many digits
        raise LessonError(source, msg("source.not_notebook", detail=str(exc)[:200])) from None
    if not isinstance(document, dict):
        raise LessonError(source, msg("source.not_notebook", detail="not a JSON object"))
    version = document.get("nbformat")
    if version != 4:
        if isinstance(version, int) and not isinstance(version, bool):
            raise LessonError(source, msg("source.notebook_version", version=version))
        raise LessonError(source, msg("source.not_notebook", detail="no `nbformat` 4"))
    cells = document.get("cells")
    if not isinstance(cells, list):
        raise LessonError(source, msg("source.not_notebook", detail="no list of `cells`"))
    found = []
    for cell in cells:
        if not isinstance(cell, dict):
            raise LessonError(source, msg("source.not_notebook", detail="a cell that is not an object"))
        kind, text = cell.get("cell_type"), cell.get("source", "")
        if isinstance(text, list) and all(isinstance(part, str) for part in text):
            text = "".join(text)
        if not isinstance(kind, str) or not isinstance(text, str):
            raise LessonError(source, msg("source.not_notebook", detail="a cell without text `source`"))
        found.append((kind, text))
    return found


_HTML_BLOCK = re.compile(r"<!--.*?-->|<(script|style)\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
# A link's or an image's URL may hold parentheses of its own (`.../Tensor_(machine_learning)`): one level kept.
_URL = r"\((?:[^()\n]|\([^()\n]*\))*\)"
_IMAGE = re.compile(r"!\[([^\]\n]*)\]" + _URL + r"|!\[([^\]\n]*)\]\[[^\]\n]*\]")
_LINK = re.compile(r"\[([^\]\n]*)\]" + _URL + r"|\[([^\]\n]*)\]\[[^\]\n]*\]")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]\n]+\]:\s*\S.*$", re.M)
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+", re.M)
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")   # `|---|:--:|`
_CODE_INDENT = "    "   # a note's code line (as_note): shown as code, kept a line, exported as a line


def markdown_as_text(markdown: str) -> str:
    """A markdown cell as plain text: images as their alt text, links as their text, no HTML, no marks.

    Lines stay lines (a list item, a heading); a fenced code block's lines and a table's rows are code lines
    of the note (indented: shown in monospace, each a line), a fence's lines exactly as written."""
    out: list[str] = []
    prose: list[str] = []
    fence = ""
    for line in markdown.splitlines():
        found = _FENCE.match(line)
        if fence:
            if found and found.group(1) == fence:
                fence = ""
            else:
                out.append(_CODE_INDENT + line.expandtabs(4) if line.strip() else "")
        elif found:
            out.extend(_prose_as_text("\n".join(prose)))
            prose = []
            fence = found.group(1)
        else:
            prose.append(line)
    out.extend(_prose_as_text("\n".join(prose)))
    text = "\n".join(line.rstrip() for line in out)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def _prose_as_text(markdown: str) -> list[str]:
    """Markdown outside code fences as plain text lines; a table's rows as code lines (:data:`_CODE_INDENT`)."""
    text = _HTML_BLOCK.sub("", markdown)
    text = _IMAGE.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _LINK.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _REFERENCE.sub("", text)
    text = _TAG.sub("", text)
    text = html.unescape(text)
    text = _HEADING.sub("", text)
    text = _STRONG.sub(r"\2", text)
    lines = text.splitlines()
    table = [False] * len(lines)
    for number, line in enumerate(lines):
        if number and _TABLE_RULE.match(line) and "|" in lines[number - 1]:
            end = number + 1
            while end < len(lines) and "|" in lines[end]:
                end += 1
            table[number - 1:end] = [True] * (end - number + 1)
    return [_CODE_INDENT + line.strip() if table[n]
            else line if line.startswith(_CODE_INDENT) else re.sub(r"(?<=\S)[ \t]{2,}(?=\S)", " ", line)
            for n, line in enumerate(lines)]


# -- statements ------------------------------------------------------------------------------------------

@dataclass
class _Piece:
    """One statement found in the file, before names are followed: its code, where, its note, and either
    its checked statement or why it is refused (``node``: its tree, None for a magic or a cell that does not
    parse)."""

    code: str
    line: int
    cell: int
    note: str
    statement: Statement | None = None
    reason: Message | None = None
    node: ast.stmt | None = None
    prose: str = ""   # a notebook's markdown before it: said with the next step that runs, not refused with it
    own: bool = False  # its own reason says it best (`if __name__ == "__main__":`), not what it reads


# What to write instead, for a refusal where the subset has a form that does the same.
_HINTS: dict[str, str] = {"nn.MSELoss": "F.mse_loss(output, target)", "torch.nn.MSELoss": "F.mse_loss(output, target)"}


# A method the subset refuses on a type (as the step runs), and what to write instead (review r21e F3).
_TYPE_HINTS: dict[tuple[str, str], str] = {
    ("values", "max"): "x.amax(dim)", ("indices", "max"): "x.argmax(dim)", ("values", "min"): "x.amin(dim)",
    ("indices", "min"): "x.argmin(dim)"}


# A loss the subset does not have (`nn.CrossEntropyLoss`, `F.nll_loss`): the one it has is said, as another loss.
_LOSS = re.compile(r"(?:torch\.)?nn\.\w+Loss|(?:torch\.nn\.functional|F|nn\.functional)\.(?:\w*cross_entropy\w*|"
                   r"\w*_loss|nll_loss|kl_div|binary_cross_entropy\w*)")


def _print_instead(node: ast.stmt) -> str | None:
    """The `print(...)` to write for a `print` of an f-string or of `"...".format(...)`: its text and its values
    given to `print` one by one (`print(f"loss {loss.item():.3f}")` → `print("loss", loss.item())`); None where
    the statement is no such `print`, or a long one."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "print"):
        return None
    parts: list[ast.expr] = []

    def text(value: str) -> None:
        if value.strip():
            parts.append(ast.Constant(value.strip()))

    for argument in node.value.args:
        if isinstance(argument, ast.JoinedStr):
            for value in argument.values:
                if isinstance(value, ast.FormattedValue):
                    parts.append(value.value)
                elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                    text(value.value)
        elif (isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute)
              and argument.func.attr == "format" and isinstance(argument.func.value, ast.Constant)
              and isinstance(argument.func.value.value, str) and not argument.keywords
              and not any(isinstance(a, ast.Starred) for a in argument.args)):
            try:
                fields = list(string.Formatter().parse(argument.func.value.value))
            except ValueError:
                return None
            position = 0
            for literal, field, _spec, _conversion in fields:
                text(literal)
                if field is None:
                    continue
                index = position if field == "" else int(field) if field.isdigit() else None
                if index is None or index >= len(argument.args):
                    return None
                parts.append(argument.args[index])
                position += 1
        else:
            parts.append(argument)
    written = ast.unparse(ast.Call(func=ast.Name("print"), args=parts, keywords=node.value.keywords))
    return written if len(written) <= 100 else None


def _with_hint(reason: Message, node: ast.stmt | None = None) -> Message:
    """``reason``, with what to write instead where the subset has a form for it (:data:`_HINTS`; an f-string:
    `print` given its values; a method on a type, :data:`_TYPE_HINTS`); a loss the subset does not have says the
    one it has (`F.mse_loss`, another loss); `from torch.nn import functional as F` says the import to write. A
    refusal that names a listed name near it (``subset.near``) keeps it, unless its own refusal has a hint."""
    if reason.key == "subset.near" and isinstance(inner := reason.values.get("reason"), Message):
        hinted = _with_hint(inner, node)
        return reason if hinted is inner else hinted
    name = reason.values.get("name") if reason.key in ("subset.not_available", "subset.not_on_type") else None
    if (reason.key == "subset.not_available" and isinstance(name, str) and name not in _HINTS
            and _LOSS.fullmatch(name) and name not in ("F.mse_loss", "torch.nn.functional.mse_loss")):
        return msg("source.loss_hint", reason=reason, name=name)
    if reason.key == "subset.import_from" and reason.values.get("module") in ("torch.nn", "nn") \
            and str(reason.values.get("name", "")).split(" as ")[0].strip() == "functional":
        return msg("source.import_forms", reason=reason, instead="import torch.nn.functional as F")
    hint = _HINTS.get(name) if isinstance(name, str) and reason.key == "subset.not_available" else None
    construct = reason.values.get("construct") if reason.key == "subset.construct" else None
    if isinstance(construct, Message) and construct.key == "construct.f_string":
        # (Its own values given to `print`; none for an f-string that is not printed, `name = f"{x}"`.)
        hint = _print_instead(node) if node is not None else 'print("loss:", loss.item())'
    kind = reason.values.get("type") if reason.key == "subset.not_on_type" else None
    if isinstance(kind, Message) and isinstance(name, str):
        hint = _TYPE_HINTS.get((name, str(kind.values.get("name", ""))))
    if hint is None and reason.key == "subset.not_listed" and reason.values.get("name") == "format" and node:
        hint = _print_instead(node)   # `print("{}".format(x))`
    return reason if hint is None else msg("source.hint", reason=reason, instead=hint)


# `math`'s constants, said as the number they are (Python's own value): `math` is not imported in TensorLab.
_MATH_CONSTANTS = ("pi", "tau", "e")


def _math_hint(reason: Message, name: str, node: ast.stmt | None, source: ast.stmt | None) -> Message:
    """``reason`` (a step that reads ``name``, bound by the refused ``source``), with the number to write for a
    `math.pi` it reads where ``source`` is `import math` (`import math as m`): Python's own value."""
    imports_math = isinstance(source, ast.Import) and any(
        alias.name == "math" and (alias.asname or alias.name) == name for alias in source.names)
    if node is None or not imports_math:
        return reason
    for inner in ast.walk(node):
        if (isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == name
                and inner.attr in _MATH_CONSTANTS):
            return msg("source.math_hint", reason=reason, name=f"{name}.{inner.attr}",
                       value=repr(getattr(math, inner.attr)))
    for inner in ast.walk(node):   # `math.sqrt(2)`: Python's own number; `math.sqrt(x)`: torch's function
        func = inner.func if isinstance(inner, ast.Call) else None
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name
                and func.attr in _MATH_FUNCTIONS):
            continue
        assert isinstance(inner, ast.Call)
        number = _math_of_numbers(func.attr, inner)
        if number is not None:
            return msg("source.math_hint", reason=reason, name=_code_of(inner), value=repr(number))
        return msg("source.math_function_hint", reason=reason, name=f"{name}.{func.attr}",
                   call=_MATH_FUNCTIONS[func.attr])
    return reason


# `math`'s functions of one number that torch has for a tensor (`math.fabs` is `torch.abs`).
_MATH_FUNCTIONS = {name: name for name in ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos",
                                           "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "floor", "ceil",
                                           "trunc", "erf", "erfc")} | {"fabs": "abs"}


def _math_of_numbers(function: str, call: ast.Call) -> float | int | None:
    """Python's value of `math.<function>(2)` where its one argument is a number written in the file (None for
    anything else, or where Python raises: `math.sqrt(-1)`, `math.exp(1e9)`)."""
    if len(call.args) != 1 or call.keywords:
        return None
    argument = call.args[0]
    sign = 1
    if isinstance(argument, ast.UnaryOp) and isinstance(argument.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(argument.op, ast.USub) else 1
        argument = argument.operand
    given = argument.value if isinstance(argument, ast.Constant) else None
    if not (isinstance(given, (int, float)) and not isinstance(given, bool) and abs(given) < 1e300):
        return None
    try:
        value: float | int = getattr(math, function)(sign * given)
    except (ValueError, OverflowError):
        return None
    return value


def _code_of(node: ast.expr) -> str:
    """An expression as code (`math.sqrt(2)`), for a hint."""
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return "math"



def _is_main_guard(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":``, the script's own guard."""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def _where(line: int, cell: int) -> Message:
    return msg("source.cell_line", cell=cell, line=line) if cell else msg("source.line", line=line)


def _at(line: int, cell: int, reason: Message) -> Message:
    if cell:
        return msg("source.at_cell_line", cell=cell, line=line, reason=reason)
    return msg("source.at_line", line=line, reason=reason)


def _closing_note(lines: list[str], stop: int) -> str:
    """The comment lines after line ``stop`` (the last statement's), to the end of the text, as a note: they
    are no statement's note, and are said with the last step (a cell's: with the next step that runs)."""
    taken = []
    for number in range(stop + 1, len(lines) + 1):
        text = lines[number - 1].strip()
        if number <= 2 and (_COOKIE.match(text) or text.startswith("#!")):
            continue
        body = text[1:] if text.startswith("#") else ""
        taken.append(body[1:] if body.startswith(" ") else body)
    return as_note(taken)


def _comment_note(lines: list[str], first: int, stop: int) -> str:
    """The comment lines right above line ``first`` (1-based), not above ``stop``, as a note."""
    taken: list[str] = []
    number = first - 1
    while number > stop and lines[number - 1].lstrip().startswith("#"):
        text = lines[number - 1].strip()
        if number <= 2 and (_COOKIE.match(text) or text.startswith("#!")):
            break
        body = text[1:]
        taken.append(body[1:] if body.startswith(" ") else body)   # `# text`: the one space after `#` is the mark's
        number -= 1
    return as_note(list(reversed(taken)))


def as_note(lines: Sequence[str]) -> str:
    """Comment or docstring lines as a note: a blank line starts a paragraph (paragraphs apart by a blank line);
    the lines of a paragraph are one text (joined by a space), except code lines (indented by two spaces or more,
    or ``>>>``/``...`` prompts): each stays a line, its indentation kept, so code in a note is still code."""
    paragraphs: list[list[str]] = [[]]
    for raw in lines:
        line = raw.rstrip().expandtabs(4)
        if not line.strip() or (_RULE.match(line) and not line.startswith("  ")):   # `====` under an RST title,
            # a `# -----` rule: a paragraph break (in a code line it is code)
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        code = line.startswith("  ") or _is_prompt(line)
        if code or not paragraphs[-1] or paragraphs[-1][-1].startswith(" ") or _is_prompt(paragraphs[-1][-1]):
            paragraphs[-1].append(line if code else line.strip())
        else:
            paragraphs[-1][-1] += " " + line.strip()
    if not any(p for p in paragraphs):
        return ""
    return "\n\n".join("\n".join(p) for p in paragraphs if p)


_RULE = re.compile(r"^\s*([=\-~^*#+_])\1{2,}\s*$")


def _is_prompt(line: str) -> bool:
    return line.lstrip().startswith((">>>", "... "))


def _pieces(text: str, cell: int, limits: Limits, source: str) -> tuple[list[_Piece], str]:
    """The statements of one ``.py`` text or one code cell (``cell`` > 0: its number), each checked, and the
    note that closes it (:func:`_closing_note`; a docstring after the last statement too)."""
    lines = code_lines(text)
    if cell and lines and lines[0].lstrip().startswith("%%"):
        # Its own reason first (review r21g): that the cell magic is not run says more than what it reads.
        return [_Piece(text.rstrip("\n"), 1, cell, "", reason=_at(1, cell, msg("source.cell_magic")),
                       node=_cell_magic_binding(lines[1:]), own=True)], ""
    magics: list[_Piece] = []
    inner: dict[int, Message] = {}   # a magic line inside a block -> why
    if cell:
        # IPython's own lines: refused where they stand, blanked (the line numbers stay) before Python parses.
        # One inside a block (`if True:` then `    %time x = f()`) is the block's: its line stands in for it as the
        # statement it runs (`x = f()`) or `pass`, so the cell still parses, and the block is refused for it.
        kept = []
        original = lines
        continued = _continued_lines(lines)
        for number, line in enumerate(lines, start=1):
            help_request = number not in continued and _is_help(line)
            if (number not in continued and (_MAGIC.match(line) or help_request)
                    and not line.lstrip().startswith("#")):
                what = msg("source.help" if help_request or _HELP.match(line) else "source.magic")
                binding = _magic_binding(line)
                indent = line[:len(line) - len(line.lstrip())]
                if indent:
                    inner[number] = what
                    shown = ast.unparse(binding) if binding is not None else "pass"
                    kept.append(indent + (shown if "\n" not in shown else "pass"))
                    continue
                magics.append(_Piece(line.strip(), number, cell, "", reason=_at(number, cell, what), node=binding,
                                     own=True))
                kept.append("")
            else:
                kept.append(line)
        lines = kept
        text = "\n".join(kept)
    found, closing = _statements(text, lines, cell, limits, source, magics)
    if inner:
        for piece in found:   # the top-level statement that holds a magic line: refused for it, shown as written
            if piece.node is None:
                continue
            end = piece.node.end_lineno or piece.node.lineno
            held = sorted(number for number in inner if piece.node.lineno <= number <= end)
            if held:
                piece.code = "\n".join(original[piece.node.lineno - 1:end])
                piece.statement, piece.own = None, True
                piece.reason = _at(held[0], cell, inner[held[0]])
    return sorted(found, key=lambda p: p.line), closing


def _continued_lines(lines: list[str]) -> set[int]:
    """The lines (1-based) of a cell that do not begin a logical line of Python: inside a triple-quoted string, a
    bracket left open or after a backslash. IPython reads a magic (`%time`, `!ls`, `x?`) only where a logical
    line begins, so `%` there is the string's, or the expression's (`5 \\` then `% 3`). Empty where the cell does
    not tokenize (an unclosed string): then each line is read as it stands."""
    continued: set[int] = set()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    before = tokenize.NEWLINE
    depth = 0   # brackets open
    seen: set[int] = set()
    for token in tokens:
        if token.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        row, end = token.start[0], token.end[0]
        if row not in seen:
            seen.add(row)
            if depth > 0 or before not in (tokenize.NEWLINE, tokenize.NL):
                continued.add(row)
        continued.update(range(row + 1, end + 1))   # the lines a string (or an f-string's part) spans
        seen.update(range(row + 1, end + 1))
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth = max(depth - 1, 0)
        before = token.type
    return continued


def _is_help(line: str) -> bool:
    """`EXPR?` or `EXPR??`, IPython's help on any expression (`torch.randn(2)?`, `x.shape??`): a line ending in
    `?` whose text before it is one Python expression, not a comment's or a string's question mark."""
    stripped = line.strip()
    if not stripped.endswith("?") or len(stripped) > 10_000:
        return False
    expression = stripped.removesuffix("?").removesuffix("?").rstrip()
    if not expression or expression.endswith("?"):
        return False
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(expression).readline))
        ast.parse(expression, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError, tokenize.TokenError):
        return False
    return not any(token.type == tokenize.COMMENT for token in tokens)


_MAGIC_ASSIGN = re.compile(r"^\s*([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[%!]")
_TIMED = re.compile(r"^\s*%(?:time|timeit|prun)\b\s*(.*)$")
_TIMED_OPTION = re.compile(r"^(?:-[nrp]\s*\S+|-[a-zA-Z]+)\s*")
# Magics that run code TensorLab never sees or bind and delete names it cannot know (review r21h 12): `%run -i
# file` (and `%run file`, which puts the file's names into the notebook's), `%reset`, `%reset_selective`, `%store -r`.
_ANY_NAME_MAGIC = re.compile(r"^\s*%(?:run|reset|reset_selective|store\s+-r)\b")


def _magic_binding(line: str) -> ast.stmt | None:
    """What an IPython line binds, as a statement to follow names with (never run): ``files = !ls`` binds
    ``files``; ``%time x = f()`` runs (and binds) its statement. None: it binds nothing TensorLab can see."""
    found = _MAGIC_ASSIGN.match(line)
    code = f"{found.group(1)} = None" if found else ""
    if not found and _ANY_NAME_MAGIC.match(line):
        code = "exec(None)"   # followed as `exec(...)`: it may change any name
    if not found and (timed := _TIMED.match(line)):
        code = timed.group(1)
        while (option := _TIMED_OPTION.match(code)) is not None and option.end():
            code = code[option.end():]
    if not code or len(code) > 10_000:
        return None
    try:
        body = ast.parse(code.strip(), mode="exec").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(body) > 1:   # `%time c.add_(1); print(c)` runs the rest of the line: all of it, as one block
        return ast.If(test=ast.Constant(True), body=body, orelse=[], lineno=1, col_offset=0)
    return body[0] if body else None


def _cell_magic_binding(lines: list[str]) -> ast.stmt | None:
    """What a cell under a cell magic (``%%capture``) binds, as one statement to follow names with (never run):
    its body as if under ``if True:``. None: it does not parse as Python."""
    text = "\n".join(lines)
    if len(text) > MAX_PY_BYTES:
        return None
    try:
        body = ast.parse(text, mode="exec").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ast.If(test=ast.Constant(True), body=body, orelse=[], lineno=2, col_offset=0) if body else None


def _segment(lines: list[str], node: ast.stmt) -> str:
    """The source of a top-level statement (as :func:`ast.get_source_segment`, whose offsets are UTF-8 bytes),
    from lines split once (``get_source_segment`` splits the whole text again for every statement), with the
    comment that ends its last line (`x = x.view(-1, 4)  # -1 is inferred`): the source's text as written, shown
    and exported with it; a comment is text to Python, never run."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    decorators = getattr(node, "decorator_list", None)
    if decorators:   # `@deco` above a def or a class is part of it: it runs as the statement runs (review r21h)
        first = min(first, *(decorator.lineno - 1 for decorator in decorators))
    end = node.end_col_offset
    if end is None:
        return "\n".join(lines[first:last + 1])
    ending = lines[last].encode()
    after = ending[end:].lstrip()
    if after.startswith(b";") and (not after[1:].strip() or after[1:].lstrip().startswith(b"#")):
        end = len(ending) - len(after) + 1   # `x;` ending its line: the `;` is written (Jupyter then shows nothing)
    if ending[end:].lstrip().startswith(b"#"):   # not `; y = 2  # ...`: that comment is the next statement's
        end = len(ending.rstrip())
    head = lines[first].encode()[node.col_offset:]
    if first == last:
        return head[:end - node.col_offset].decode(errors="replace")
    tail = ending[:end]
    return "\n".join([head.decode(errors="replace"), *lines[first + 1:last], tail.decode(errors="replace")])


def _too_complex_line(text: str) -> int | None:
    """The first line of the top-level statement Python's parser cannot build (it gives no line for a
    ``RecursionError``): the text split into its top-level statements by the tokenizer (which nests nothing),
    each parsed alone. None where the tokenizer cannot split it."""
    starts: list[int] = []
    depth, new_line = 0, True
    layout = (tokenize.NL, tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in (tokenize.INDENT, tokenize.DEDENT):
                depth += 1 if token.type == tokenize.INDENT else -1
            elif token.type == tokenize.NEWLINE:
                new_line = True
            elif token.type not in layout and new_line:
                if depth == 0:   # a logical line at top level starts a statement (an indented one is its block's)
                    starts.append(token.start[0])
                new_line = False
    except (tokenize.TokenError, SyntaxError, RecursionError, MemoryError):
        return None
    lines = code_lines(text, keepends=True)
    for begin, end in zip(starts, [*starts[1:], len(lines) + 1]):
        try:
            ast.parse("".join(lines[begin - 1:end - 1]), mode="exec")
        except (RecursionError, MemoryError):
            return begin
        except (SyntaxError, ValueError):
            continue
    return None


def _statements(text: str, lines: list[str], cell: int, limits: Limits, source: str,
                magics: list[_Piece]) -> tuple[list[_Piece], str]:
    """The statements of ``text`` (``magics``: the IPython lines taken out of it, refused), each checked, and
    the note after the last one."""
    found = list(magics)
    # A cell that does not parse is one refused piece, from its first line that is not blank (nor a magic's).
    first = next((number for number, line in enumerate(lines, start=1) if line.strip()), 1)

    def unparsable(line: int | None, reason: Message) -> tuple[list[_Piece], str]:
        """A file that does not parse is refused whole (with its line, where known); a cell is one refused piece."""
        if line is not None or cell:
            reason = _at(line or 1, cell, reason)
        if not cell:
            raise LessonError(source, reason)
        return found + [_Piece(text.strip("\n"), first, cell, "", reason=reason)], ""

    if "\x00" in text:   # Python says "line 1" (or no line) for a NUL anywhere: name the line it is on
        return unparsable(text.count("\n", 0, text.index("\x00")) + 1, msg("subset.nul"))
    try:
        module = ast.parse(text, mode="exec")
    except SyntaxError as exc:
        return unparsable(exc.lineno or 1, msg("subset.syntax", detail=exc.msg))
    except (RecursionError, MemoryError):
        return unparsable(_too_complex_line(text), msg("subset.too_complex"))
    except ValueError as exc:   # a NUL byte
        return unparsable(None, msg("subset.unparsable", detail=str(exc)))
    if len(module.body) + len(found) > limits.max_lesson_steps:   # before any statement is looked at
        raise LessonError(source, msg("source.too_many", count=len(module.body) + len(found),
                                      limit=limits.max_lesson_steps))
    previous_end = 0
    note_text = ""
    for node in module.body:
        code = _segment(lines, node)
        note = _comment_note(lines, node.lineno, previous_end) if node.lineno > previous_end else ""
        previous_end = node.end_lineno or node.lineno
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            # A docstring (a bare string) says something about what follows: the next step's note.
            # At top level a docstring's lines are as written: an indented one is code, as in a comment.
            # It is prose, as a notebook's markdown (review r21e F8): said with the next step that runs, also where
            # the statement after it is refused (a file's docstring above a refused `import math`).
            docstring = as_note(node.value.value.strip().splitlines())
            note_text = "\n\n".join(t for t in (note_text, note, docstring) if t)
            continue
        prose, note_text = note_text, ""
        try:
            statement = parse_one(code, limits)
        except (RecursionError, MemoryError):   # Python parsed it; the subset's checker nests deeper (`w + ... + w`)
            found.append(_Piece(code, node.lineno, cell, note, prose=prose, node=node,
                                reason=_at(node.lineno, cell, msg("subset.too_complex"))))
            continue
        except LanguageError as exc:
            at = node.lineno + (exc.line or 1) - 1
            if _is_main_guard(node):   # its own words: the `if` is what is not run, whatever its block reads
                reason = _at(node.lineno, cell, msg("source.main_guard"))
            else:
                reason = _at(at, cell, _with_hint(exc.reason, node))
            found.append(_Piece(code, node.lineno, cell, note, prose=prose, reason=reason, node=node,
                                own=_is_main_guard(node)))
        else:
            converted = _converted_in_place(node)
            if converted is not None:
                # On a module it converts in place, which TensorLab does not run (refused at run time, the file's
                # later steps then read the module unconverted): refused here, so that they depend on it.
                found.append(_Piece(code, node.lineno, cell, note, prose=prose, node=node,
                                    reason=_at(node.lineno, cell, msg("source.converts", call=converted))))
            else:
                found.append(_Piece(code, node.lineno, cell, note, prose=prose, statement=statement, node=node))
    return found, _joined(note_text, _closing_note(lines, previous_end))


def _converted_in_place(node: ast.stmt) -> str | None:
    """`model.to(device)` / `net.double()` as a statement of its own: the method's name, else None."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        func = node.value.func
        if isinstance(func, ast.Attribute) and func.attr in _CONVERTS_RECEIVER:
            return func.attr
    return None


# -- names: what a refused statement binds, and who reads it --------------------------------------------

# Functions whose `inplace` may be given by position (`F.relu(w, True)`, `F.leaky_relu(a, 0.5, True)`,
# `F.hardtanh(a, 0., .5, True)`, `F.dropout(a, 1.0, True, True)`).
_INPLACE_BY_POSITION = frozenset({"relu", "relu6", "elu", "selu", "celu", "leaky_relu", "hardtanh", "rrelu",
                                  "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "threshold",
                                  "hardsigmoid", "hardswish", "silu", "mish"})


def _positional_inplace(call: ast.Call) -> bool:
    """Whether a call of one of :data:`_INPLACE_BY_POSITION` gives the constant True by position beyond its first
    argument: taken as `inplace=True` (conservative: `F.dropout(a, 0.5, True)`'s True is `training`)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name in _INPLACE_BY_POSITION and any(isinstance(a, ast.Constant) and a.value is True
                                                for a in call.args[1:])


def _changed_by_call(call: ast.Call, modules: frozenset[str] | set[str], base: Callable[[ast.expr], None]) -> None:
    """The objects a call may change in place, each given to ``base``: the receiver of a method that changes it
    (``v.add_(1)``, ``opt.step()``); for a function of a module (``nn.init.zeros_(w)``, ``torch.relu_(x)``)
    its first argument instead, never the module; ``out=`` (``torch.add(e, 1, out=e)``); and the first argument
    of a call with ``inplace=True`` (``F.relu(c, inplace=True)``)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _GLOBAL_SETTINGS:
        base(ast.Name(id=EVERYTHING, ctx=ast.Load()))   # `torch.set_default_dtype(...)`: every later step
    if isinstance(func, ast.Attribute) and func.attr == "set_printoptions":
        base(ast.Name(id=PRINTING, ctx=ast.Load()))     # what later prints show, nothing they compute
    if isinstance(func, ast.Name) and func.id in _REACHES_ANY_NAME:
        base(ast.Name(id=ANY_NAME, ctx=ast.Load()))     # `exec("x.add_(1)")`, `globals()['x']`: any name
    if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in _CHANGES_FIRST_ARGUMENT:
        for argument in call.args[:1]:   # `np.copyto(t.numpy(), 5)`, `shuffle(lst)`
            base(argument)
    elif isinstance(func, ast.Attribute) and (func.attr.endswith("_") or func.attr in _CHANGES_RECEIVER):
        root: ast.expr = func.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if isinstance(root, ast.Name) and root.id in modules:
            for argument in call.args[:1]:
                base(argument)
        else:
            base(func.value)
    if _positional_inplace(call):   # `F.relu(w, True)`, `F.dropout(a, 1.0, True, True)` (review r21i 19)
        for argument in call.args[:1]:
            base(argument)
    for keyword in call.keywords:
        if keyword.arg == "out":
            base(keyword.value)
        elif (keyword.arg == "inplace" and not (isinstance(keyword.value, ast.Constant)
                                                and keyword.value.value in (False, None))):
            for argument in call.args[:1]:
                base(argument)


def _bound_by(node: ast.stmt, modules: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """Names a (refused) statement binds or changes at top level (:func:`_bindings`, both kinds)."""
    rebound, changed = _bindings(node, modules)
    return rebound | changed


def _bindings(node: ast.stmt, modules: frozenset[str] | set[str] = frozenset()) -> tuple[set[str], set[str]]:
    """What a (refused) statement does to names at top level: the names it (re)binds, and the names whose
    object it may change in place.

    Rebound (the name then holds something else; the object it held is untouched): plain-name targets of an
    assignment, a loop, a ``with ... as``, a walrus or a ``del``, imports, a def's or a class's name, an
    ``except ... as`` name, ``global``. Changed: the root name of an attribute or subscript target
    (``a.b = 1``, ``x[0] = 1``, ``del d[k]``), an augmented assignment's target (``x += 1`` is in place on a
    tensor), and the objects a call may change (:func:`_changed_by_call`; ``modules``: the names of the
    modules imported, never an object a step changes)."""
    rebound: set[str] = set()
    changed: set[str] = set()

    def base(target: ast.expr) -> None:
        """A target as assigned: a plain name is rebound, the root of an attribute or subscript changed."""
        while isinstance(target, ast.Starred):
            target = target.value
        if isinstance(target, ast.Name):
            rebound.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                base(element)
        else:
            change(target)

    def change(target: ast.expr) -> None:
        """The root name of what changes: through attributes, items and method calls, since a view or an alias
        an expression makes (`t.view(3)`, `t.T`, `t[0].view(1)`, `t2.numpy()`) is that name's object too."""
        while True:
            if isinstance(target, (ast.Attribute, ast.Subscript, ast.Starred)):
                target = target.value
            elif isinstance(target, ast.Call) and isinstance(target.func, ast.Attribute):
                target = target.func.value
            else:
                break
        if isinstance(target, ast.Name):
            changed.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                change(element)
        elif isinstance(target, ast.Call):   # `memoryview(w.numpy())[0] = 9`, `type(w).add_(w, 1)`: what it is given
            for argument in [*target.args, *(k.value for k in target.keywords)]:
                change(argument)

    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            rebound.add(current.name)
            # What runs as it is defined (review r21g): its decorators, a function's defaults
            # (`def g(x=r.add_(5))`), a class's bases and its body's statements (`class K: q.add_(1)`; what they
            # bind is the class's, what they change in place is changed).
            stack.extend(current.decorator_list)
            if isinstance(current, ast.ClassDef):
                stack.extend([*current.bases, *(keyword.value for keyword in current.keywords)])
                for statement in current.body:
                    changed.update(_bindings(statement, modules)[1])
            else:
                stack.extend([*current.args.defaults, *(d for d in current.args.kw_defaults if d is not None)])
            continue   # a function's body runs when it is called
        if isinstance(current, ast.Lambda):   # its defaults run now (`lambda t=w.add_(1): t`), its body when called
            stack.extend([*current.args.defaults, *(d for d in current.args.kw_defaults if d is not None)])
            continue
        if isinstance(current, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # Its loop names are its own; a walrus in it binds the enclosing name (`[v := t for _ in ys]`), and its
            # calls may change objects from outside (`[w.add_(1) for _ in range(2)]`; one of its own names, `t`
            # of `for t in ys`, is what it iterates: below).
            local = {n.id for part in ast.walk(current) if isinstance(part, ast.comprehension)
                     for n in ast.walk(part.target) if isinstance(n, ast.Name)}

            def outside(target: ast.expr, local: set[str] = local) -> None:
                if not (_roots(_holder_root(target)) & local):
                    change(target)

            for part in ast.walk(current):
                if isinstance(part, ast.NamedExpr):
                    base(part.target)
                elif isinstance(part, ast.Call):
                    _changed_by_call(part, modules, outside)
            continue
        if isinstance(current, (ast.MatchAs, ast.MatchStar)) and current.name:
            rebound.add(current.name)   # `case k:`, `case [*rest]`, `case P() as y`: capture patterns bind
        elif isinstance(current, ast.MatchMapping) and current.rest:
            rebound.add(current.rest)
        if isinstance(current, (ast.Import, ast.ImportFrom)):
            for alias in current.names:
                rebound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(current, ast.Assign):
            for target in current.targets:
                base(target)
        elif isinstance(current, ast.AugAssign):
            change(current.target)
        elif isinstance(current, (ast.AnnAssign, ast.For, ast.AsyncFor)):
            base(current.target)
        elif isinstance(current, ast.NamedExpr):
            base(current.target)
        elif isinstance(current, ast.withitem) and current.optional_vars is not None:
            base(current.optional_vars)
        elif isinstance(current, ast.ExceptHandler) and current.name:
            rebound.add(current.name)
        elif isinstance(current, (ast.Global, ast.Nonlocal)):
            rebound.update(current.names)
        elif isinstance(current, ast.Delete):
            for target in current.targets:
                base(target)
        elif isinstance(current, ast.Call):
            _changed_by_call(current, modules, change)
        if isinstance(current, ast.Expr) and _converted_in_place(current) is not None:
            change(current.value.func.value)   # type: ignore[attr-defined]  # `model.to(device)`: the module
        stack.extend(ast.iter_child_nodes(current))
    # A loop (or a comprehension, skipped above) whose body changes what its target holds changes the items of
    # what it iterates: `for i, p in enumerate(model.parameters()): p.add_(1)` changes `model`.
    for loop in _runs_now(node):   # not a def's or a lambda's body: it runs when called (review r21i 14)
        generators: list[tuple[ast.expr, ast.expr, list[ast.AST]]] = []
        if isinstance(loop, (ast.For, ast.AsyncFor)):
            generators.append((loop.target, loop.iter, list(loop.body)))
        elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            generators.extend((g.target, g.iter, [loop.elt, *g.ifs]) for g in loop.generators)
        elif isinstance(loop, ast.DictComp):
            generators.extend((g.target, g.iter, [loop.key, loop.value, *g.ifs]) for g in loop.generators)
        for target, iterable, body in generators:
            targets = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
            inner: set[str] = set()

            def note(expression: ast.expr, found: set[str] = inner) -> None:
                found.update(_roots(expression))

            for part in body:
                for call in (n for n in ast.walk(part) if isinstance(n, ast.Call)):
                    _changed_by_call(call, modules, note)
                for sub in ast.walk(part):
                    if isinstance(sub, ast.AugAssign) or (isinstance(sub, ast.Assign) and any(
                            not isinstance(t, ast.Name) for t in sub.targets)):
                        for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                            inner.update(_roots(t))
            if inner & targets:
                for name in _roots(iterable):
                    change(ast.Name(id=name, ctx=ast.Load()))
            elif {name.removesuffix(GRADIENT) for name in inner if name.endswith(GRADIENT)} & targets:
                # (:func:`_changed_gradients`: `for p in model.parameters(): p.grad.zero_()` changes the gradients of
                # what it iterates only.)
                for name in _roots(iterable):
                    change(ast.Name(id=name + GRADIENT, ctx=ast.Load()))
    return rebound, changed


# Methods that put what they are given into the object they are called on (a list's, a dict's, a set's, a deque's,
# a module's, an optimizer's): a refused call of one relates the object and what it is given (issue #21, r21f).
_STORES_ARGUMENT = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__", "appendleft",
                              "extendleft", "add_module", "register_buffer", "register_parameter", "register_module",
                              "add_param_group", "put", "push"})
# Of those, a name that is also a tensor's method returning something new (`y = x.add(1)`): taken as a store (and a
# change of the receiver) only where the call's result is dropped, a statement of its own (`s.add(w)`).
_STORES_AS_STATEMENT = frozenset({"add"})


def _holder_root(expression: ast.expr) -> ast.expr:
    """The expression an object is reached from through attributes, items and method calls (`box[0].t` → `box`,
    `d.get("k")` → `d`): a view or an alias such an expression makes is that object's too."""
    while True:
        if isinstance(expression, (ast.Attribute, ast.Subscript, ast.Starred)):
            expression = expression.value
        elif isinstance(expression, ast.Call) and isinstance(expression.func, ast.Attribute):
            expression = expression.func.value
        else:
            return expression


def _stores(node: ast.stmt, modules: frozenset[str] | set[str] = frozenset()) -> list[tuple[set[str], set[str]]]:
    """What a (refused) statement may put into an object: ``(holders, stored)`` pairs, the root names of the object
    it stores into and of what it stores there. An attribute or item assignment, augmented too (`Z.t = w`,
    `box[0] = w`, `d["k"] += [w]`, `lst += [w]`), a method that stores its arguments (:data:`_STORES_ARGUMENT`:
    `lst.append(w)`, `d.update(k=w)`) and `setattr(Z, "t", w)`. After it, a refused change through either side may
    change the other (`Z.t.mul_(2)` changes `w`). A store inside a comprehension stores its loops' items: the
    names they iterate are stored too. A class body stores what it reads into the class. A function's or a
    lambda's body is not looked at (it runs when called)."""
    found: list[tuple[set[str], set[str]]] = []
    skip = set(modules) | _PROVIDED

    def roots(expression: ast.expr, outer: set[str]) -> set[str]:
        return (_roots(expression) | outer) - skip

    def holder(target: ast.expr) -> set[str]:
        while isinstance(target, ast.Starred):
            target = target.value
        if isinstance(target, (ast.Tuple, ast.List)):
            return set().union(*(holder(element) for element in target.elts))
        root = _holder_root(target) if isinstance(target, (ast.Attribute, ast.Subscript)) else None
        return {root.id} - skip if isinstance(root, ast.Name) else set()

    # An explicit stack, not recursion: a statement Python parses may nest a thousand levels (`w + w + ... + w`).
    stack: list[tuple[ast.AST, set[str], bool]] = [(node, set(), False)]
    if isinstance(node, ast.ClassDef):
        # A class body runs as the class is made: what it binds is the class's (`class Z: t = w` is `Z.t = w`).
        body = [statement for statement in node.body
                if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        found.append(({node.name}, set().union(*(_read_by(statement) for statement in body)) - skip))
    while stack:
        current, outer, statement = stack.pop()
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(current, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            outer = outer | set().union(*(_roots(g.iter) for g in current.generators))
        if isinstance(current, (ast.Assign, ast.AnnAssign)) and current.value is not None:
            # What is new memory (`params["w"] = w.detach().clone()`, `d["k"] = w * 2`) is no object of the file's:
            # the holder changes, nothing is related to it (review r21g).
            targets = current.targets if isinstance(current, ast.Assign) else [current.target]
            found.append((set().union(*(holder(t) for t in targets)),
                          set() if _new_value(current.value) else roots(current.value, outer)))
        elif isinstance(current, ast.AugAssign):
            # `lst += [w]` keeps w's object in the list (`x += w` on a tensor copies: conservatively related too,
            # unless what is added is new memory, `x += w * 2`).
            if isinstance(current.target, ast.Name):
                if not _new_value(current.value):
                    found.append(({current.target.id} - skip, roots(current.value, outer)))
            else:
                found.append((holder(current.target),
                              set() if _new_value(current.value) else roots(current.value, outer)))
        elif isinstance(current, ast.Call):
            func = current.func
            # Per argument: `lst.append(w.clone())` stores new memory, `lst.insert(0, w)` stores w.
            arguments = [a for a in [*current.args, *(keyword.value for keyword in current.keywords)]
                         if not _new_value(a)]
            if isinstance(func, ast.Name) and func.id == "setattr" and current.args:
                found.append((roots(current.args[0], set()),
                              set().union(*(roots(argument, outer) for argument in arguments[1:]))))
            elif isinstance(func, ast.Attribute) and (func.attr in _STORES_ARGUMENT
                                                      or (statement and func.attr in _STORES_AS_STATEMENT)):
                root = _holder_root(func.value)
                if isinstance(root, ast.Name):
                    found.append(({root.id} - skip, set().union(*(roots(argument, outer) for argument in arguments))))
        stack.extend((child, outer, isinstance(current, ast.Expr) and child is current.value)
                     for child in ast.iter_child_nodes(current))
    return [(holders, stored) for holders, stored in found if holders]


def _container_value(value: ast.expr | None) -> bool:
    """Whether an expression makes a dict, list or set (`{"w": w}`, `[w, b]`, `dict(w=w)`, `list(...)`): storing
    into it or deleting from it (`params["w"] = ...`, `lst.append(...)`) replaces what it holds, never changes it."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id in ("dict", "list", "set"))


def _container_stores(node: ast.stmt) -> tuple[set[str], list[ast.expr]]:
    """The names a statement stores into or deletes from by item or by a storing method, as a whole statement
    (`params["w"] = v`, `del d[k]`, `lst.append(v)`), and the expressions it evaluates besides (their own calls may
    change objects: `d["k"] = w.add_(1)`). Empty where it does anything else with them."""
    if isinstance(node, (ast.Assign, ast.Delete)):
        targets = node.targets
        if targets and all(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) for t in targets):
            rest = [t.slice for t in targets if isinstance(t, ast.Subscript)]   # (for mypy: all are)
            if isinstance(node, ast.Assign):
                rest.append(node.value)
            return {t.value.id for t in targets if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)}, rest
    if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
            and isinstance(node.value.func.value, ast.Name)
            and node.value.func.attr in ("append", "extend", "insert", "update", "setdefault", "add", "pop",
                                         "remove", "clear")):
        call = node.value
        return {call.func.value.id}, [*call.args, *(k.value for k in call.keywords)]   # type: ignore[attr-defined]
    return set(), []


def _only_deletes(node: ast.stmt, name: str) -> bool:
    """Whether a statement deletes the name (`del w`, in a block too) and binds it nowhere."""
    deletes = binds = False
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and inner.id == name:
            deletes |= isinstance(inner.ctx, ast.Del)
            binds |= isinstance(inner.ctx, ast.Store)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and inner.name == name:
            binds = True
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            binds |= any((alias.asname or alias.name.split(".")[0]) == name for alias in inner.names)
    return deletes and not binds


def _function_changes(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
                      modules: frozenset[str] | set[str]) -> tuple[list[str], bool, set[str]]:
    """A function's parameters in order, whether it takes `*args`/`**kwargs`, and the names its body may change
    in place (:func:`_bindings` of each statement; a `backward()` may change every tensor its receiver reads)."""
    arguments = function.args
    parameters = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    rest_names = {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    statements: list[ast.stmt] = (list(function.body) if isinstance(function.body, list)
                                  else [ast.Expr(value=function.body)])
    changes: set[str] = set()
    for statement in statements:
        changes |= _bindings(statement, modules)[1]
        for call in (n for n in ast.walk(statement) if isinstance(n, ast.Call)):
            if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
                changes |= _roots(call.func.value)
    parameters += [a.arg for a in arguments.kwonlyargs]
    return parameters, bool(rest_names & changes), changes - _PROVIDED - set(modules)


# Methods and functions whose result is new memory, never their receiver's nor their arguments' (`x.sum()`,
# `torch.matmul(x, w)`, `x.clone()`): what they bind is not related to what they read (a view's methods, `view`,
# `detach`, `to`, `reshape`, `contiguous`, `float` (which may return the tensor itself), are not here;
# nor `dropout`, which returns its input itself when p is 0 or not training).
_COMPUTES = frozenset({
    "clone", "sum", "mean", "exp", "log", "log2", "log10", "pow", "matmul", "mm", "bmm", "mv", "dot", "outer",
    "add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "abs", "sqrt", "rsqrt", "sin", "cos",
    "tan", "tanh", "sigmoid", "relu", "gelu", "silu", "softmax", "log_softmax", "norm", "std", "var", "prod",
    "cumsum", "cumprod", "neg", "square", "reciprocal", "argmax", "argmin", "amax", "amin", "maximum", "minimum",
    "item", "tolist", "allclose", "equal", "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isfinite", "where",
    "zeros", "ones", "randn", "rand", "randint", "empty", "full", "arange", "linspace", "eye", "tensor",
    "zeros_like", "ones_like", "randn_like", "rand_like", "empty_like", "full_like", "stack", "cat", "deepcopy",
    "mse_loss", "cross_entropy", "nll_loss", "l1_loss", "binary_cross_entropy", "linear",
    "clamp", "clip", "round", "floor", "ceil", "sign", "einsum", "numel", "dim", "size"})


def _computes_new(node: ast.stmt | None, fresh: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether a (supported) assignment binds new memory computed from what it reads (`y = x @ w`, `z = x + 1`,
    `s = x.sum()`), never a view or an alias of it (`h = w.detach()`, `a = w`, `p = list(model.parameters())`,
    `b = [w] * 2`): then its names share nothing with what it reads. ``fresh``: the names of modules whose call
    always returns new memory (:func:`_fresh_module`): `out = model(x)` computes new memory from x and model."""
    # (`x += w * 2` adds new memory into x's own: x shares nothing with w; `lst += [w]` keeps w in the list.)
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) else None
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in fresh
            and not value.keywords):
        return True
    return value is not None and _new_value(value)


# Module constructors whose forward always returns new memory, never its input nor a parameter or buffer (checked
# on torch 2.13 in train and eval mode: `F.linear`, `torch.tanh`, `F.batch_norm`, ...). Not here: `Identity` and
# `Dropout` in eval mode return their input; `ReLU(inplace=True)` changes and returns it; an empty `Sequential`
# returns its input.
_FRESH_MODULES = frozenset({"Linear", "Tanh", "Sigmoid", "BatchNorm1d", "ReLU", "LeakyReLU", "GELU", "Softmax",
                            "LayerNorm"})


def _fresh_module(value: ast.expr, modules: frozenset[str] | set[str]) -> bool:
    """Whether an expression makes a module whose call always returns new memory: one of :data:`_FRESH_MODULES`
    (`nn.Linear(3, 1)`, `nn.ReLU()`; not `nn.ReLU(True)` nor `inplace=True`), or a non-empty `nn.Sequential` made
    only of those."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
        name = func.attr
    elif isinstance(func, ast.Name):
        name = func.id
    else:
        return False
    if name == "Sequential":
        return bool(value.args) and not value.keywords and all(_fresh_module(a, modules) for a in value.args)
    if name not in _FRESH_MODULES or any(isinstance(a, ast.Starred) for a in value.args):
        return False
    if any(k.arg is None or (k.arg == "inplace" and not (isinstance(k.value, ast.Constant)
                                                         and k.value.value in (False, None)))
           for k in value.keywords):
        return False
    # `nn.ReLU(True)`, `nn.LeakyReLU(0.1, True)`: inplace given by position.
    return not ((name == "ReLU" and value.args) or (name == "LeakyReLU" and len(value.args) > 1))


def _new_value(value: ast.expr) -> bool:
    if isinstance(value, (ast.UnaryOp, ast.Compare, ast.Constant, ast.JoinedStr)):
        return True
    if isinstance(value, ast.BinOp):   # a list's `+` and `*` keep its items (`[w] * 2`, `list(a) + list(b)`)
        return not any(isinstance(side, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)) or (
            isinstance(side, ast.Call) and isinstance(side.func, ast.Name) and side.func.id in ("list", "tuple"))
            for side in (value.left, value.right))
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _COMPUTES:
        return not any(keyword.arg in ("out", "inplace") for keyword in value.keywords)
    return False


def _backward_roots(node: ast.AST) -> set[str]:
    """The names whose `backward()` a statement calls (`loss.backward()`, `(a * 2).sum().backward()` reads `a`),
    and the tensors given to `torch.autograd.backward(...)`/`grad(...)`."""
    names: set[str] = set()
    for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
        func = call.func
        if not isinstance(func, ast.Attribute):
            continue
        owner = func.value
        autograd = (isinstance(owner, ast.Name) and owner.id == "autograd") or (
            isinstance(owner, ast.Attribute) and owner.attr == "autograd")
        if autograd and func.attr in ("backward", "grad"):
            for argument in call.args[:1]:
                names |= _roots(argument)
        elif func.attr == "backward":
            names |= _roots(owner)
    return names


def _roots(expression: ast.expr) -> set[str]:
    """The names an expression reads its objects from (`enumerate(model.parameters())` reads `model`; the
    callee's own name aside)."""
    names: set[str] = set()
    for node in ast.walk(expression):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Load, ast.Store)):
            names.add(node.id)
    if isinstance(expression, ast.Call) and isinstance(expression.func, ast.Name):
        names.discard(expression.func.id)
    return names - _BUILTINS


def _relates_nothing(node: ast.stmt | None) -> bool:
    """Whether a statement that binds nothing leaves every object's sharing as it was: a `print(...)`, and a copy
    of values into an object's own memory (`c.load_state_dict(a.state_dict())` without `assign=True`,
    `x.copy_(y)`): what it reads is not made to share with anything."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return False
    func = node.value.func
    if isinstance(func, ast.Name):
        return func.id == "print"
    return (isinstance(func, ast.Attribute) and func.attr in ("load_state_dict", "copy_")
            and not any(keyword.arg in ("assign", None) for keyword in node.value.keywords))


def _reads_gradients(node: ast.stmt | None) -> bool:
    """Whether a statement may read a tensor's gradient: `.grad` anywhere (`print(w.grad)`, `[p.grad for p in
    model.parameters()]`), or a copy of a module or of its state (`copy.deepcopy(model)` copies the gradients),
    or an optimizer's step or `backward()` (which read or add to them)."""
    if node is None:
        return True
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and inner.attr in ("grad", "step", "backward", "state_dict",
                                                                 "load_state_dict", "zero_grad"):
            return True
        if isinstance(inner, ast.Name) and inner.id in ("deepcopy", "copy"):
            return True
    return False


def _read_when_defined(node: ast.stmt) -> list[str]:
    """Names a (refused) statement reads as it runs (:func:`_read_by`); a `def` reads only its decorators', its
    defaults' and its annotations' names then (its body runs when it is called, its parameters are its own)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _read_by(node)
    arguments = node.args
    evaluated: list[ast.AST] = [*node.decorator_list, *arguments.defaults,
                                *(d for d in arguments.kw_defaults if d is not None)]
    evaluated += [a.annotation for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                         *(x for x in (arguments.vararg, arguments.kwarg) if x is not None)]
                  if a.annotation is not None]
    if node.returns is not None:
        evaluated.append(node.returns)
    return _read_by(ast.Expr(value=ast.Tuple(elts=[e for e in evaluated if isinstance(e, ast.expr)], ctx=ast.Load())))


def _defined_now(node: ast.stmt) -> ast.stmt:
    """What of a statement runs as it runs, for the rules that walk all of it: a `def` only its decorators and
    defaults (its body runs when it is called: what it may change applies at a call, review r21i 3, 14)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return node
    arguments = node.args
    evaluated = [*node.decorator_list, *arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
    return ast.Expr(value=ast.Tuple(elts=evaluated, ctx=ast.Load()))


def _changes_torch(node: ast.stmt, modules: frozenset[str] | set[str]) -> bool:
    """Whether a (refused) statement changes a module itself as it runs (review r21i 13): a store into a module's
    attribute (`torch.ones = torch.zeros`, `F.relu = torch.neg`, `torch.Tensor.__repr__ = ...`, `nn.Linear =
    nn.Identity`) or a global module hook (`torch.nn.modules.module.register_module_forward_hook(...)`). Not a
    flag under `torch.backends` (`torch.backends.cudnn.deterministic = True`): those change nothing a step shows
    on this CPU, and stay unfollowed as before."""
    for part in _runs_now(node):
        targets: list[ast.expr] = []
        if isinstance(part, ast.Assign):
            targets = list(part.targets)
        elif isinstance(part, (ast.AugAssign, ast.AnnAssign)):
            targets = [part.target]
        elif isinstance(part, ast.Delete):
            targets = list(part.targets)
        elif (isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute)
              and part.func.attr.startswith("register_module_")):
            targets = [part.func]
        for target in targets:
            if not isinstance(target, ast.Attribute):
                continue
            root = _holder_root(target)
            chain = {n.attr for n in ast.walk(target) if isinstance(n, ast.Attribute)}
            if isinstance(root, ast.Name) and root.id in modules and "backends" not in chain:
                return True
    return False


def _read_by(node: ast.stmt) -> list[str]:
    """Names a statement reads, in the order they appear: not a comprehension's or a lambda's own names
    (`[t.add_(1) for t in ys]` reads `ys`, not a `t` bound elsewhere)."""
    local: set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            local |= {n.id for g in inner.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        elif isinstance(inner, ast.Lambda):
            local |= {a.arg for a in [*inner.args.posonlyargs, *inner.args.args, *inner.args.kwonlyargs]}
    found = [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
             and n.id not in local]
    found.sort(key=lambda n: (n.lineno, n.col_offset))
    return list(dict.fromkeys(n.id for n in found))


# -- code TensorLab cannot follow: the coarse rule (issue #21, review r21h) ----------------------------------

# Positions where a name is only read, its object neither changed, kept, nor handed to code TensorLab does not
# see: a builtin's argument that looks only (`print(w)`, `len(xs)`), a tensor attribute that describes it
# (`w.shape`); see :func:`_unsafe_reads`.
_LOOKING_BUILTINS = frozenset({"print", "len", "isinstance", "range", "float", "int", "str", "repr", "bool", "round",
                               "abs", "hasattr", "id", "format"})
_DESCRIBING = frozenset({"shape", "dtype", "device", "ndim", "requires_grad", "is_leaf", "names", "layout"})


def _runs_now(node: ast.AST) -> list[ast.AST]:
    """The parts of a statement that run as it runs: all of it, but of a `def` or a lambda only its decorators
    and defaults (its body runs when it is called), of a `class` its bases, decorators and body (not its methods'
    bodies)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = current.args
            stack.extend([*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)])
            if not isinstance(current, ast.Lambda):
                stack.extend(current.decorator_list)
            continue
        found.append(current)
        stack.extend(ast.iter_child_nodes(current))
    return found


def _unsafe_reads(node: ast.AST, modules: frozenset[str] | set[str]) -> set[str]:
    """The names a piece of code (a function's or a class's body, all of it) reads in a place where what it does
    with the object cannot be bounded: anything but an operand (`a - b`), the argument of a torch function that
    changes nothing (`torch.relu(x)`, `F.mse_loss(p, y)`), a builtin that only looks (`print(w)`), a computing
    method's receiver (`x.sum()`) or a describing attribute (`w.shape`). Coarse on purpose: an alias
    (`t = w`), a method of its own (`k.m()`), a store (`self.p = t`), a `return w`, an argument of the file's own
    code are all unsafe: that code may change the object (review r21h)."""
    parents: dict[int, ast.AST] = {}
    for outer in ast.walk(node):
        for child in ast.iter_child_nodes(outer):
            parents[id(child)] = outer
    found: set[str] = set()
    for name in (n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)):
        if name.id in modules or name.id in _PROVIDED:
            continue
        parent: ast.AST | None = parents.get(id(name))
        if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in _DESCRIBING:
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in _COMPUTES:
            grand = parents.get(id(parent))
            if isinstance(grand, ast.Call) and grand.func is parent and not any(
                    k.arg in ("out", "inplace") for k in grand.keywords):
                continue
        if isinstance(parent, ast.keyword):
            parent = parents.get(id(parent))
        if isinstance(parent, ast.Call) and parent.func is not name and not _positional_inplace(parent) and not any(
                k.arg in ("out", "inplace", None) for k in parent.keywords):
            func = parent.func
            if isinstance(func, ast.Name) and func.id in _LOOKING_BUILTINS:
                continue
            root = _holder_root(func)
            if (isinstance(func, ast.Attribute) and isinstance(root, ast.Name) and root.id in modules
                    and not func.attr.endswith("_") and func.attr not in _CHANGES_FIRST_ARGUMENT
                    and func.attr not in _STORES_ARGUMENT):
                continue
        found.add(name.id)
    return found


def _followable_callee(func: ast.expr) -> bool:
    """Whether what a call calls is named by the file's names through attributes, items and method calls
    (`w.add_`, `w.detach().clone`, `lst[0].add_`, `model(x).sum().backward`), never an item or a call's result
    called itself (`fs[0]()`, `getattr(w, "add_")(1)`) nor a method of what a builtin returns (`type(w).add_`)."""
    if isinstance(func, (ast.Subscript, ast.Call, ast.Lambda)):
        return False
    expression: ast.expr = func
    while True:
        if isinstance(expression, (ast.Attribute, ast.Subscript)):
            expression = expression.value
        elif isinstance(expression, ast.Call):
            if not isinstance(expression.func, ast.Attribute):
                return not (isinstance(expression.func, ast.Name) and expression.func.id in _BUILTINS)
            expression = expression.func.value
        else:   # a name, or a value computed here (`((p - y) ** 2).mean`): a method of what the file's names hold
            return True


def _own_arguments(node: ast.AST) -> set[str]:
    """The parameters of every function and lambda in ``node`` (local names, not the file's)."""
    return {a.arg for a in ast.walk(node) if isinstance(a, ast.arg)}


def _unbounded_call(call: ast.Call) -> bool:
    """Whether a call runs code that cannot be bounded at all: a `getattr` with a name that is no literal
    (`getattr(torch, name)(...)`), `get_ipython()` (any magic), `operator.methodcaller(...)`."""
    for inner in ast.walk(call.func):
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
            if inner.func.id == "getattr" and not (len(inner.args) > 1 and isinstance(inner.args[1], ast.Constant)):
                return True
            if inner.func.id in ("get_ipython", "methodcaller", "attrgetter"):
                return True
    return False


# A statement that stops the program where it stands (issue #21, review r21h 13): Python runs nothing after it.
_STOPS = frozenset({"exit", "quit", "_exit"})


def _stops(node: ast.stmt | None, named: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether a top-level statement always stops the program: `raise ...`, `exit()`, `quit()`, `sys.exit(...)`,
    `os._exit(...)` as a statement of its own, or a call of a name in ``named`` (:func:`_stopper_names`)."""
    if isinstance(node, ast.Raise):
        return True
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        return _is_stopper(node.value.func, named)
    return False


def _is_stopper(func: ast.expr, named: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether ``func`` is `exit`, `quit`, `sys.exit`, `os._exit`, or a name in ``named`` bound to one."""
    return ((isinstance(func, ast.Name) and (func.id in ("exit", "quit") or func.id in named))
            or (isinstance(func, ast.Attribute) and func.attr in _STOPS and isinstance(func.value, ast.Name)
                and func.value.id in ("sys", "os")))


def _stopper_names(node: ast.stmt | None, named: frozenset[str] | set[str]) -> set[str]:
    """The name a statement binds to a function that stops the program (`e = exit`, `bye = sys.exit`)."""
    if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and _is_stopper(node.value, named)):
        return {node.targets[0].id}
    return set()


def _stop_inside(node: ast.stmt | None) -> int | None:
    """The line of the first statement inside a compound statement that would stop the program (`if ...:
    sys.exit()`, a `raise` in a loop's body), not counting the bodies of functions and classes it defines."""
    if node is None or not isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith,
                                             ast.Try, ast.TryStar, ast.Match)):
        return None
    todo: list[ast.AST] = list(ast.iter_child_nodes(node))
    found: list[int] = []
    while todo:
        child = todo.pop()
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(child, ast.stmt) and _stops(child):
            found.append(child.lineno)
            continue
        todo.extend(ast.iter_child_nodes(child))
    return min(found) if found else None


def _outside_functions(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and every node inside it, not counting the bodies of the functions, lambdas and classes it defines
    (their names are their own)."""
    todo: list[ast.AST] = [node]
    while todo:
        child = todo.pop()
        yield child
        if child is not node and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                                    ast.Lambda)):
            continue
        todo.extend(ast.iter_child_nodes(child))


def _module_aliases(node: ast.stmt, modules: frozenset[str] | set[str]) -> tuple[set[str], set[str], set[str]]:
    """What ``node`` binds (outside the functions it defines): the names it surely binds to a module or a module's
    attribute (`T = torch.Tensor`, `F = torch.nn.functional`, `t = torch`, `T, U = torch.Tensor, torch.nn`,
    `T: type = torch.Tensor`), the names it binds to anything else, and the names it may bind either way (in a
    block that may not run, `T = torch.Tensor if c else b`, bound both ways in it): what those hold is not known,
    a module or an object, so a later call on one may change both its receiver and its first argument."""

    def module_like(value: ast.expr) -> bool:
        while isinstance(value, ast.Attribute):
            value = value.value
        return isinstance(value, ast.Name) and value.id in modules

    sure: set[str] = set()
    maybe: set[str] = set()
    others: set[str] = set()
    alias_targets: set[int] = set()   # the Name nodes bound to a module: not among the others
    for child in _outside_functions(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            others.add(child.name)
        pairs: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(child, ast.Assign):
            for target in child.targets:
                if (isinstance(target, ast.Tuple) and isinstance(child.value, ast.Tuple)
                        and len(target.elts) == len(child.value.elts)):
                    pairs += list(zip(target.elts, child.value.elts))
                else:
                    pairs.append((target, child.value))
        elif isinstance(child, ast.AnnAssign) and child.value is not None:
            pairs.append((child.target, child.value))
        for target, value in pairs:
            if not isinstance(target, ast.Name):
                continue
            if module_like(value):
                alias_targets.add(id(target))
                (sure if child is node else maybe).add(target.id)
            elif isinstance(value, ast.IfExp) and (module_like(value.body) or module_like(value.orelse)):
                alias_targets.add(id(target))
                maybe.add(target.id)
        if (isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del))
                and id(child) not in alias_targets):
            others.add(child.id)
    maybe |= (sure | maybe) & others
    if node is not None and not isinstance(node, (ast.Assign, ast.AnnAssign)):
        maybe |= others & set(modules)   # rebound to an object in a block that may not run: maybe still a module
    return sure - maybe, others - maybe, maybe


def _changed_through_either(node: ast.stmt, either: set[str], modules: frozenset[str] | set[str]) -> set[str]:
    """What a call through a name that may hold a module or an object changes (`T.add_(c, 5)` where `T` may be
    `torch.Tensor` or the tensor `b`): its receiver and its first argument both."""
    changed: set[str] = set()
    for call in (n for n in _outside_functions(node) if isinstance(n, ast.Call)):
        func = call.func
        if not (isinstance(func, ast.Attribute) and (func.attr.endswith("_") or func.attr in _CHANGES_RECEIVER)):
            continue
        root = _holder_root(func.value)
        if isinstance(root, ast.Name) and root.id in either:
            changed.add(root.id)
            for argument in call.args[:1]:
                changed |= _roots(_holder_root(argument))
    return changed - set(modules)


class _GradientAsName(ast.NodeTransformer):
    """Each `ROOT...grad` expression (`w.grad`, `model.weight.grad`) as one name, `ROOT.grad` (:data:`GRADIENT`):
    what a statement changes through it is then told apart from what it changes of `ROOT` itself."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if node.attr != "grad":
            return node
        root: ast.expr = node.value
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if not isinstance(root, ast.Name):
            return node
        return ast.copy_location(ast.Name(id=root.id + GRADIENT, ctx=node.ctx), node)


def _changed_gradients(node: ast.stmt, modules: frozenset[str] | set[str]) -> set[str]:
    """The names whose gradient only a (refused) statement changes, never their values: `w.grad.zero_()`,
    `w.grad = None`, `model.weight.grad += 1` (review helper-132: a refused `w.grad.zero_()` greyed `print(w)`)."""
    if not any(isinstance(n, ast.Attribute) and n.attr == "grad" for n in ast.walk(node)):
        return set()
    rebound, changed = _bindings(_GradientAsName().visit(copy.deepcopy(node)), modules)
    gradients = {name.removesuffix(GRADIENT) for name in rebound | changed if name.endswith(GRADIENT)}
    return gradients - {name for name in changed if not name.endswith(GRADIENT)}


def _follow_names(pieces: list[_Piece], record: list[dict[str, _Piece]] | None = None) -> None:
    """Refuse, in place, each statement that reads a name whose last binding is a refused statement's
    ("depends on line N"), or a name nothing binds; a refused statement's names then come from it.

    A refused statement that changes an object (``v.add_(1)``, ``opt.step()``, ``a.b = ...``) may also
    change every name that shares it by construction: a supported step binds its names together with
    the names it reads (``v = w[:2]`` relates ``v`` and ``w``; ``opt = optim.SGD(model.parameters())``
    relates ``opt`` and ``model``). Those are refused as "may depend on line N (it may change `w`)",
    conservative and never "`w` is defined there".

    ``record``: given, it gets for each piece the names whose last binding or possible change is then a refused
    statement's (after that piece), each with that statement (:func:`refused_changes`)."""
    bound: dict[str, _Piece | None] = {}    # name -> the refused piece that bound it last (None: a step did)
    changed: set[str] = set()               # names whose last refused binding only (may have) changed them
    related: dict[str, set[str]] = {}       # name -> the names that may share its memory (itself included)
    modules: set[str] = set()               # `torch`, `nn`: read by every step, never a shared object
    module_aliases: set[str] = set()        # those of them a statement bound (`T = torch.Tensor`), not an import
    stopper_names: set[str] = set()         # names bound to a function that stops Python (`e = exit`)
    either: set[str] = set()                # names that may hold a module or an object (`if c: T = torch.Tensor`)
    gradients_only: set[str] = set()        # changed names whose gradients only a refused `backward()` may change
    fresh: set[str] = set()                 # modules a step made whose call returns new memory (`nn.Linear(3, 1)`)
    containers: set[str] = set()            # names last bound to a dict, list or set (`params = {"w": w}`)

    def learn_container(node: ast.stmt | None, defined: set[str]) -> None:
        containers.difference_update(defined)
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and _container_value(node.value)):
            containers.add(node.targets[0].id)

    # name -> the names it was computed from (`y = x @ w`: x and w), transitively: a refused `backward()` through
    # it changes their gradients, and nothing else of them (a result never shares its inputs' memory).
    sources: dict[str, set[str]] = {}

    def relate(defined: set[str], read: set[str], derived: bool = False, shares: bool = True,
               keep: bool = False) -> None:
        # ``derived``: a statement that is not run binds names from what it reads, whatever it did with them
        # (`while ...: y = y * 2` keeps y derived from x, so a later refused `y.backward()` may change x.grad).
        # ``shares``: what it binds may be what it reads, a view or an alias (`h = w.detach()`, `a = w`,
        # `sd = model.state_dict()`); a computation's result (`y = x @ w`) is new memory: not related to them.
        objects = {name for name in read if name in bound and name not in modules}
        origin = set().union(*({name} | sources.get(name, set()) for name in objects))
        if derived:
            origin |= set().union(*(sources.get(name, set()) for name in defined))
        before = set().union(*(related.get(name, {name}) for name in objects)) if derived else set()
        if keep:   # ``keep``: inside a loop, `if` or `with` (may run again, or not at all): old relations stay too
            before |= set().union(*(related.get(name, {name}) for name in defined))
            origin |= set().union(*(sources.get(name, set()) for name in defined))
        else:
            for name in defined:   # bound again: its old relations end
                for other in related.pop(name, set()) - {name}:
                    related.get(other, set()).discard(name)
        group = set(defined).union(before, *(related.get(name, {name}) for name in objects if shares))
        for name in group:
            related[name] = group
        for name in defined:
            sources[name] = origin

    def relate_compound(node: ast.stmt, bindings_only: bool = False) -> None:
        """A loop, `with` or `if` that a step runs: each statement inside relates what it binds as a step of its own
        would (`out = model(x)` in a training loop computes new memory, sharing nothing with x), the loop's target
        with what it iterates; relations only grow (a body may run again: `a = b; b = c` relates a and c the second
        time), repeated until they settle. ``bindings_only``: only what its assignments, loops and `with`s bind (not
        what a call may relate, `w.add_(g)`)."""
        simple: list[tuple[set[str], set[str], bool]] = []
        pending: list[ast.stmt] = [node]
        while pending:
            statement = pending.pop(0)
            if isinstance(statement, (ast.For, ast.AsyncFor)):
                simple.append(({n.id for n in ast.walk(statement.target) if isinstance(n, ast.Name)},
                               _roots(statement.iter), True))
                pending[:0] = [*statement.body, *statement.orelse]
            elif isinstance(statement, (ast.While, ast.If)):
                pending[:0] = [*statement.body, *statement.orelse]
            elif isinstance(statement, (ast.With, ast.AsyncWith)):
                for item in statement.items:
                    if item.optional_vars is not None:
                        simple.append(({n.id for n in ast.walk(item.optional_vars) if isinstance(n, ast.Name)},
                                       _roots(item.context_expr), True))
                pending[:0] = list(statement.body)
            elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                holders = set().union(*(_roots(t) for t in targets if not isinstance(t, ast.Name)))
                simple.append((names, set(_read_by(statement)) | holders,
                               not _computes_new(statement, fresh) or bool(holders)))
            elif (isinstance(statement, ast.Expr) and _relates_nothing(statement)) or bindings_only:
                continue
            else:
                simple.append((_bound_by(statement, modules), set(_read_by(statement)), True))
        for _round in range(len(simple) + 1):
            before = ({k: frozenset(v) for k, v in related.items()}, {k: frozenset(v) for k, v in sources.items()})
            for defined, read, shares in simple:
                relate(defined, read, shares=shares, keep=True)
            if before == ({k: frozenset(v) for k, v in related.items()},
                          {k: frozenset(v) for k, v in sources.items()}):
                break

    def reached(names: set[str], backward: set[str]) -> set[str]:
        """The names a refused change of ``names`` may change: each one's aliases and views; and for a
        ``backward()`` through those of ``backward``, the names they were computed from too (their gradients)."""
        through = set(names).union(*(sources.get(name, set()) for name in backward))
        return set().union(*(related.get(name, {name}) for name in through)) if through else set()

    star: _Piece | None = None              # the last refused `from m import *`: it may bind any name
    # A function a refused `def` or lambda binds -> its parameters and the names its body may change (its own
    # parameters or names from outside): a call to it (itself not run) may change what it is given there and
    # those outside names (`def train(model, opt, x): model(x).sum().backward(); opt.step()`), never an argument
    # its body only reads (`loss_fn(model(x), y)`).
    functions: dict[str, tuple[list[str], bool, set[str]]] = {}
    function_reads: dict[str, set[str]] = {}   # the names a refused function's body reads, its parameters aside

    backward_functions: set[str] = set()   # those of them whose body calls `backward()`
    # What such a function's body may store into an object (`def add(v): lst.append(v)`), as :func:`_stores`'s
    # pairs: a call to it (not run) stores what it is given there (`add(w)`: `lst` holds `w`).
    function_stores: dict[str, tuple[set[str], list[tuple[set[str], set[str]]]]] = {}   # (its *args/**kwargs, pairs)

    # A refused `def` or `class` -> the names its body (a method's) declares `global`: a call of it (`f()`, `Net()`
    # runs `__init__`) may bind them, so it binds them as far as its readers know (review r21g).
    global_binders: dict[str, set[str]] = {}

    def globals_bound(node: ast.stmt) -> set[str]:
        names: set[str] = set()
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if isinstance(call.func, ast.Name) and bound.get(call.func.id) is not None:
                names |= global_binders.get(call.func.id, set())
        return names

    def rest_of(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
        return {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}

    # Such a function's parameters with a default -> the names the default reads (`lambda t=w: t.add_(1)`): a call
    # that gives it nothing there changes what the default holds.
    function_defaults: dict[str, dict[str, set[str]]] = {}

    def defaults_of(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> dict[str, set[str]]:
        arguments = function.args
        positional = [*arguments.posonlyargs, *arguments.args]
        found = {a.arg: _roots(d) for a, d in zip(positional[len(positional) - len(arguments.defaults):],
                                                  arguments.defaults, strict=True)}
        found.update({a.arg: _roots(d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
                      if d is not None})
        return found

    def learn_functions(node: ast.stmt) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function_defaults[node.name] = defaults_of(node)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    function_defaults[target.id] = defaults_of(node.value)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            global_binders[node.name] = {name for inner in ast.walk(node) if isinstance(inner, ast.Global)
                                         for name in inner.names}
        for name, function in ([(node.name, node)] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                               else [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
                               if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) else []):
            own = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
            function_reads[name] = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)
                                    and isinstance(n.ctx, ast.Load)} - own - set(modules) - _PROVIDED - _BUILTINS
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[node.name] = _function_changes(node, modules)
            function_stores[node.name] = (rest_of(node),
                                          [pair for statement in node.body for pair in _stores(statement, modules)])
            (backward_functions.add if _backward_roots(node) else backward_functions.discard)(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    functions[target.id] = _function_changes(node.value, modules)
                    function_stores[target.id] = (rest_of(node.value),
                                                  _stores(ast.Expr(value=node.value.body), modules))
                    (backward_functions.add if _backward_roots(node) else backward_functions.discard)(target.id)

    def called(node: ast.stmt) -> tuple[set[str], set[str], list[tuple[set[str], set[str]]]]:
        """What the calls to such functions in a statement that is not run may change, those of them a
        `backward()` in the function's body may reach (the names they were computed from, too), and what the
        calls may store into objects (:func:`_stores`'s pairs, each parameter read as what it was given)."""
        names: set[str] = set()
        backward: set[str] = set()
        stored_pairs: list[tuple[set[str], set[str]]] = []
        # A call whose result a method is called on (`helper().add_(2)`): the result may be any name the body reads
        # that is not a parameter (a global it returns) or any argument, so the method may change it.
        receivers = {id(n.value) for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            if (id(call) in receivers and isinstance(call.func, ast.Name) and call.func.id in function_reads
                    and bound.get(call.func.id) is not None):
                names |= function_reads[call.func.id]   # and any argument (`ident(x6).mul_(3)`)
                names |= set().union(*(_roots(a) for a in [*call.args, *(k.value for k in call.keywords)]))
            if not (isinstance(call.func, ast.Name) and call.func.id in functions
                    and bound.get(call.func.id) is not None):
                # A callable a refused statement bound that is not a known `def` or lambda (`lr =
                # nn.LeakyReLU(inplace=True)`, `alias = g2`, `fs[0]`): unknown code, it may change every argument.
                # (A method, `lst.append(w)`, is followed by the rules for methods and stores.)
                callee = (_roots(call.func) - set(modules) - _PROVIDED
                          if isinstance(call.func, (ast.Name, ast.Subscript, ast.Call)) else set())
                if any(bound.get(n) is not None and n not in functions for n in callee):
                    names |= set().union(*(_roots(a) for a in [*call.args, *(k.value for k in call.keywords)]))
                continue
            parameters, rest, changes = functions[call.func.id]
            found: set[str] = set()
            for position, argument in enumerate(call.args):
                name = parameters[position] if position < len(parameters) else None
                if (name in changes) if name is not None else rest:
                    found |= _roots(argument)
            for keyword in call.keywords:
                if keyword.arg in changes or (keyword.arg is None and rest):
                    found |= _roots(keyword.value)
            given_names = set(parameters[:len(call.args)]) | {k.arg for k in call.keywords if k.arg is not None}
            if not any(isinstance(a, ast.Starred) for a in call.args) and not any(k.arg is None for k in call.keywords):
                for name, default in function_defaults.get(call.func.id, {}).items():
                    if name in changes and name not in given_names:
                        found |= default   # `f()` of `lambda t=w: t.add_(1)` changes w
            found |= changes - set(parameters)
            names |= found
            if call.func.id in backward_functions:
                backward |= found
            given: dict[str, set[str]] = {name: set() for name in parameters}
            for position, argument in enumerate(call.args):
                if position < len(parameters):
                    given[parameters[position]] |= _roots(argument)
            for keyword in call.keywords:
                if keyword.arg in given:
                    given[keyword.arg] |= _roots(keyword.value)
            everything = set().union(*(_roots(a) for a in [*call.args, *(k.value for k in call.keywords)]))

            rest_names, pairs = function_stores.get(call.func.id, (set(), []))
            given.update({name: everything for name in rest_names})
            # A parameter is what the call gave it (`*args`/`**kwargs`: everything it was given); a name of the body's
            # own, a local or a global, stays itself (conservative: a global of that name is related).
            for holders, stored in pairs:
                stored_pairs.append((set().union(*(given.get(n, {n}) for n in holders)) - set(modules),
                                     set().union(*(given.get(n, {n}) for n in stored)) - set(modules)))
        return names, backward, stored_pairs

    # The coarse rule (review r21h): a name a refused statement bound last -> that statement's tree. A refused call
    # of code TensorLab cannot follow (a def's, a class's, a lambda's, a method of an object a refused statement
    # made, a stored bound method, `getattr(...)(...)`) may change every object that code can reach: the names its
    # bodies read (transitively, through the names they read that are such code too), its arguments, its receiver,
    # and it may rebind every name those bodies declare `global`.
    code_nodes: dict[str, ast.AST] = {}
    # name -> what a call of the object it holds may run, summed up as it was bound (`alias = g2` holds g2's code as it
    # was then): whether that reaches a body of the file's (a def, lambda or class), the names those bodies read
    # where the coarse rule counts them (:func:`_unsafe_reads`), the names they declare `global`, and the names
    # they read (looked up when called: a body finds the file's names as they are then).
    summaries: dict[str, tuple[bool, frozenset[str], frozenset[str], frozenset[str]]] = {}
    # names a step bound to an attribute or an item (`s = opt.step`, `f = fs[0]`) -> the attribute's name ("" for an
    # item): a call of one runs the bound method it may hold (`bw = loss.backward; bw()` is a backward through loss)
    attribute_bound: dict[str, str] = {}
    unsafe_cache: dict[int, set[str]] = {}

    def summarize(node: ast.AST) -> tuple[bool, frozenset[str], frozenset[str], frozenset[str]]:
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        body = has_body(node)
        reads = set(unsafe(node) - _own_arguments(node)) if body else set()
        rebinds = {n for g in ast.walk(node) if isinstance(g, ast.Global) for n in g.names}
        later = set(names) if body else set()
        for name in names & set(summaries):   # what it holds was made of those, as they were
            other = summaries[name]
            body |= other[0]
            reads |= other[1]
            rebinds |= other[2]
            later |= other[3]
        return body, frozenset(reads), frozenset(rebinds), frozenset(later)

    def resolve(names: set[str]) -> tuple[bool, set[str], set[str]]:
        """What a call of ``names`` may run (their summaries, and those of the names their bodies read, as they are
        now): whether it reaches a body of the file's, the names it may change, the names it may rebind."""
        body = False
        reads: set[str] = set()
        rebinds: set[str] = set()
        visited: set[str] = set()
        queue = [name for name in names if name in summaries]
        while queue:
            name = queue.pop()
            if name in visited:
                continue
            visited.add(name)
            found = summaries[name]
            body |= found[0]
            reads |= found[1]
            rebinds |= found[2]
            queue.extend(n for n in found[3] if n in summaries and n not in visited)
        return body, reads, rebinds

    def has_body(node: ast.AST) -> bool:
        return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
                   for n in ast.walk(node))

    def unsafe(node: ast.AST) -> set[str]:
        if id(node) not in unsafe_cache:
            unsafe_cache[id(node)] = _unsafe_reads(node, modules)
        return unsafe_cache[id(node)]

    def coarse(node: ast.stmt) -> tuple[set[str], set[str], bool, set[str]]:
        """What the calls of code TensorLab cannot follow in a statement that is not run may change, the names they
        may rebind (`global`), whether the code cannot be bounded at all (then any name may change), and the names
        a stored `backward` is called through (`bw()` of `bw = loss.backward`)."""
        changes: set[str] = set()
        rebinds: set[str] = set()
        backward: set[str] = set()
        anything = False
        # A bound method or an item stored inside the statement itself (`if c: m = e.mul_; m(7)`) is called as one a
        # step stored would be (review helper-133 #2).
        holding = dict(attribute_bound)
        for inner in _outside_functions(node):
            if (isinstance(inner, ast.Assign) and len(inner.targets) == 1 and isinstance(inner.targets[0], ast.Name)
                    and isinstance(inner.value, (ast.Attribute, ast.Subscript))):
                holding[inner.targets[0].id] = inner.value.attr if isinstance(inner.value, ast.Attribute) else ""
        calls = [part for part in _runs_now(node) if isinstance(part, ast.Call)]
        # A decorator is called with what it decorates as the statement runs (`@deco def g(): ...` runs deco).
        calls += [ast.Call(func=decorator, args=[], keywords=[]) for inner in ast.walk(node)
                  if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  for decorator in inner.decorator_list]
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(root := _holder_root(node.value.func), ast.Name) and root.id in modules
                and not (isinstance(node.value.func, ast.Attribute) and node.value.func.attr.endswith("_"))):
            # A torch function called for what it does, its result dropped (`torch.nn.utils.vector_to_parameters(v,
            # [w])`): it may write what it is given, in a list too.
            changes |= set().union(*(_roots(a) for a in [*node.value.args, *(k.value for k in node.value.keywords)]))
        for call in calls:
            func = call.func
            plain = _followable_callee(func)
            func_roots = _roots(func) - modules - _PROVIDED
            arguments = [*call.args, *(k.value for k in call.keywords)]
            argument_roots = set().union(*(_roots(a) for a in arguments)) - modules - _PROVIDED
            lambdas = [a for a in arguments if isinstance(a, ast.Lambda)]
            looking = isinstance(func, ast.Name) and func.id in _LOOKING_BUILTINS
            passed = set() if looking else {name for name in argument_roots if name in summaries
                                            and resolve({name})[0]}
            # (A module a refused import bound, `plt.plot(x)`, is a library's code: not the file's, not followed.)
            # An object a refused statement made runs the file's code only where that statement reaches a `def`, a
            # lambda or a `class` of the file (`k = K()`, `y = helper()`), not `lst = list(np.zeros(0))`.
            own_code = {name for name in func_roots if name in summaries and resolve({name})[0]}
            dunder = isinstance(func, ast.Attribute) and func.attr.startswith("__")
            stored = isinstance(func, ast.Name) and func.id in holding
            if _unbounded_call(call):
                anything = True
            if (isinstance(func, ast.Attribute) and func.attr in _COMPUTES and plain and not (passed or lambdas)
                    and not any(k.arg in ("out", "inplace", None) for k in call.keywords)):
                # A computing or describing method on what a refused call returned (`r.item()`, `loss.sum()` of
                # `r = f(X)`) is torch's, not the file's code: it changes nothing (review r21i 10, 18).
                continue
            if not (own_code or passed or lambdas or not plain or dunder or stored):
                continue
            if stored and holding[func.id] == "backward":   # type: ignore[attr-defined]
                backward |= func_roots
            given = argument_roots
            if (isinstance(func, ast.Name) and func.id in functions and func.id in code_nodes
                    and not any(isinstance(a, ast.Starred) for a in call.args)):
                # Narrowed where sure: an argument of the file's own function whose parameter its body only reads
                # (`loss_fn(pred, y)` of `def loss_fn(a, b): return ((a - b) ** 2).mean()`) is not changed.
                parameters, _rest, _changes = functions[func.id]
                body_unsafe = unsafe(code_nodes[func.id])
                rest = rest_of_node(code_nodes[func.id])
                given = set()
                for position, argument in enumerate(call.args):
                    name = parameters[position] if position < len(parameters) else None
                    if (name in body_unsafe) if name is not None else bool(rest & body_unsafe):
                        given |= _roots(argument)
                for keyword in call.keywords:
                    if keyword.arg is None or keyword.arg in body_unsafe or (keyword.arg not in parameters
                                                                             and rest & body_unsafe):
                        given |= _roots(keyword.value)
                given -= modules | _PROVIDED
            reads = set().union(*({n.id for n in ast.walk(l) if isinstance(n, ast.Name)} for l in lambdas))
            if isinstance(func, ast.Attribute) and func.attr == "register_hook":
                # A tensor's hook runs only in a backward, on the gradient (review r21i 21): the tensor's values and
                # every forward step stay Python's; only the gradients a backward through it makes may differ.
                backward |= func_roots
                changes |= given
            else:
                changes |= func_roots | given
            _body, reached_reads, reached_rebinds = resolve(own_code | passed | reads)
            for code in lambdas:
                lambda_reads = set(unsafe(code) - _own_arguments(code))
                _body, more, more_rebinds = resolve(lambda_reads | reads)
                reached_reads |= lambda_reads | more
                reached_rebinds |= more_rebinds
            changes |= reached_reads & set(bound)
            rebinds |= reached_rebinds
        return changes, rebinds, anything, backward

    def rest_of_node(node: ast.AST) -> set[str]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return rest_of(node)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            return rest_of(node.value)
        return set()

    stopper: _Piece | None = None   # the last refused statement that stops Python (`raise`, `exit()`)

    def unbound(name: str, piece: _Piece, line: int) -> Message:
        if star is not None:   # not "not defined": the refused star import may well define it
            return msg("source.star", where=_where(star.line, star.cell), name=name)
        return _at(piece.line + line - 1, piece.cell, undefined_name_message(name))

    def depends(name: str, source: _Piece) -> Message:
        where = _where(source.line, source.cell)
        if name in changed:
            return msg("source.may_change", where=where, name=name)
        if source.node is not None and _only_deletes(source.node, name):
            return msg("source.deleted", where=where, name=name)   # `del w`: not "defined there"
        return msg("source.depends", where=where, name=name)

    def provided(piece: _Piece) -> Message | None:
        """Why a step may not run because of a name TensorLab provides (`torch`, `nn`, `F`, `optim`, `copy`,
        a builtin): a refused statement bound it (`import numpy as torch`, `def print`), or no import did."""
        assert piece.node is not None and piece.statement is not None
        own = {name for _kind, name, _line, _col in piece.statement.events}
        for node in sorted((n for n in ast.walk(piece.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                            and n.id not in own and (n.id in _PROVIDED or n.id in _BUILTINS)),
                           key=lambda n: (n.lineno, n.col_offset)):
            if (source := bound.get(node.id)) is not None:
                return depends(node.id, source)
            if node.id in _PROVIDED and node.id not in modules:   # plain Python: a NameError
                return unbound(node.id, piece, node.lineno - piece.node.lineno + 1)
        return None

    def marks() -> dict[str, _Piece]:
        # A name whose gradient only may differ is marked as its gradient (`w.grad`), its values as Python's.
        return {name + GRADIENT if name in gradients_only else name: piece for name, piece in bound.items()
                if piece is not None and name not in (EVERYTHING, PRINTING)}

    for number, piece in enumerate(pieces):
        if record is not None and number:
            record.append(marks())   # after the piece before this one
        if number:
            before = pieces[number - 1]
            if (before.statement is None and before.node is not None and stopper is None
                    and _stops(before.node, stopper_names)):
                stopper = before
        # A notebook runs on after a cell that stops (IPython shows the error): only that cell's later statements.
        if stopper is not None and stopper.cell and stopper.cell != piece.cell:
            stopper = None
        if stopper is not None:
            # Python stops at a refused `raise`/`exit()` (review r21h 13): nothing after it runs there, so nothing
            # runs here. (A refused `assert` greys nothing after it (review r21i 9): most check what holds, `assert
            # z.shape == (3,)`; its own row says Python stops there if it fails, and the steps after show what
            # happens when it holds.)
            piece.reason = msg("source.stops", where=_where(stopper.line, stopper.cell))
            piece.statement = None
            continue
        if piece.node is not None:
            # A name bound to a module or its attribute (`T = torch.Tensor`) is a module too: a later refused
            # `T.add_(b, 1)` changes `b`, as `torch.Tensor.add_(b, 1)` would, not `T` (review helper-132 #2).
            # Bound to anything else later, it is an object again.
            aliases, others, maybe = _module_aliases(piece.node, modules)
            # (An import's name bound to a tensor by a step, `T = b`, is an object from then on too; torch's names
            # stay TensorLab's: `torch = None` is followed as the rebinding it is.)
            modules.difference_update(others - _PROVIDED)
            module_aliases.difference_update(others | maybe)
            modules.update(aliases)
            module_aliases.update(aliases)
            modules.difference_update(maybe - _PROVIDED)
            either.difference_update(aliases | others)
            either.update(maybe)
            # `e = exit` then `e()` stops Python as `exit()` does (review helper-133).
            stopping = _stopper_names(piece.node, stopper_names)
            stopper_names.difference_update(others - stopping)
            stopper_names.update(stopping)
        setter = bound.get(EVERYTHING) or bound.get(ANY_NAME)
        printer = bound.get(PRINTING)
        if (setter is None and printer is not None and piece.node is not None
                and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
                        for n in ast.walk(piece.node))):
            setter = printer
        if piece.statement is not None and setter is not None:
            # A refused change of torch's settings (`torch.set_default_dtype(...)`) or of any name (`exec(...)`):
            # every later step may differ.
            key = "source.any_name" if bound.get(ANY_NAME) is setter else "source.settings"
            piece.reason = msg(key, where=_where(setter.line, setter.cell))
            piece.statement = None
            if piece.node is not None:
                learn_functions(piece.node)
            continue
        if piece.statement is not None:
            for kind, name, line, _col in piece.statement.events:
                if kind == "def":
                    bound[name] = None
                    changed.discard(name)
                    gradients_only.discard(name)
                    continue
                if name not in bound:
                    piece.reason = unbound(name, piece, line)
                elif (source := bound[name]) is not None and not (name in gradients_only
                                                                 and not _reads_gradients(piece.node)):
                    piece.reason = _math_hint(depends(name, source), name, piece.node, source.node)
                else:
                    continue
                break
            if piece.reason is None and piece.node is not None:
                piece.reason = provided(piece)
            if piece.reason is None and piece.node is not None:
                # A `backward()` reads what its graph saved: the tensors its result was computed from. One a refused
                # statement may have changed in place (`b.mul_(2)` after `c = b * 2`) may make it fail in Python.
                roots = _backward_roots(piece.node)
                through = sorted(roots.union(*(sources.get(name, set()) for name in roots)))
                saved = next((n for n in through if n in changed and bound.get(n) is not None), None)
                if saved is not None:
                    source = bound[saved]
                    assert source is not None
                    piece.reason = depends(saved, source)
            if piece.reason is None:
                for name in piece.statement.defines:   # bound by a step: no refused code under the name now
                    code_nodes.pop(name, None)
                    summaries.pop(name, None)
                    attribute_bound.pop(name, None)
                if (isinstance(piece.node, ast.Assign) and len(piece.node.targets) == 1
                        and isinstance(piece.node.targets[0], ast.Name)
                        and isinstance(piece.node.value, (ast.Attribute, ast.Subscript))):
                    value = piece.node.value   # a bound method may be what it holds
                    attribute_bound[piece.node.targets[0].id] = value.attr if isinstance(value, ast.Attribute) else ""
                if isinstance(piece.node, (ast.Import, ast.ImportFrom)):
                    imported = set(piece.statement.defines)
                    imported.update(alias.asname or alias.name.split(".")[0] for alias in piece.node.names)
                    modules.update(imported)
                    for name in imported:   # bound again by a step: a refused rebinding before it ends here
                        bound.pop(name, None)
                        changed.discard(name)
                        gradients_only.discard(name)
                    continue
                reads = {name for kind, name, _line, _col in piece.statement.events if kind != "def"}
                if piece.statement.defines or not _relates_nothing(piece.node):
                    # `x += 1` changes a tensor in place: x is still the object it was (a view of `z` stays one), so
                    # its relations stay (review r21f: a later refused `x.mul_(2)` then reaches `z`).
                    augmented = ({piece.node.target.id} if isinstance(piece.node, ast.AugAssign)
                                 and isinstance(piece.node.target, ast.Name) else set())
                    if isinstance(piece.node, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith)):
                        relate_compound(piece.node)
                    else:
                        relate(set(piece.statement.defines) - augmented, reads,
                               shares=not _computes_new(piece.node, fresh))
                    fresh.difference_update(piece.statement.defines)
                    learn_container(piece.node, set(piece.statement.defines))
                    if (isinstance(piece.node, ast.Assign) and len(piece.node.targets) == 1
                            and isinstance(piece.node.targets[0], ast.Name)
                            and _fresh_module(piece.node.value, modules)):
                        fresh.add(piece.node.targets[0].id)
                    for name in augmented:   # and it is computed from what it adds too (`x += w`: w's gradient)
                        objects = {r for r in reads - {name} if r in bound and r not in modules}
                        sources[name] = sources.get(name, set()).union(objects, *(sources.get(r, set())
                                                                                  for r in objects))
                continue
            rebound, changes = _bindings(piece.node, modules) if piece.node is not None else (set(), set())
            rebound |= set(piece.statement.defines)
            piece.statement = None
            through_backward: set[str] = set()
            call_stores: list[tuple[set[str], set[str]]] = []
            if piece.node is not None:
                more, through_backward, call_stores = called(_defined_now(piece.node))
                changes |= more
                rebound |= globals_bound(piece.node)
                more, rebinds, anything, stored_backward = coarse(piece.node)
                changes |= more
                through_backward |= stored_backward
                rebound |= rebinds | ({ANY_NAME} if anything else set())
        else:
            rebound, changes = _bindings(piece.node, modules) if piece.node is not None else (set(), set())
            through_backward = set()
            call_stores = []
            if piece.node is not None:
                more, through_backward, call_stores = called(_defined_now(piece.node))
                changes |= more
                rebound |= globals_bound(piece.node)
                more, rebinds, anything, stored_backward = coarse(piece.node)
                changes |= more
                through_backward |= stored_backward
                rebound |= rebinds | ({ANY_NAME} if anything else set())
                learn_functions(piece.node)
            # Refused anyway: its first reason is the refused statement it reads from, when there is one.
            read = _read_when_defined(piece.node) if piece.node is not None else []
            source = next((s for name in read if (s := bound.get(name)) is not None), None)
            if source is not None and not piece.own:
                name = next(n for n in read if bound.get(n) is source)
                piece.reason = _math_hint(depends(name, source), name, piece.node, source.node)
        if piece.reason is not None and isinstance(piece.node, (ast.Import, ast.ImportFrom)):
            # A refused import binds a module (or a module's function) too: a later refused `init.constant_(w, 3)`
            # of `import torch.nn.init as init` changes `w`, not `init` (review helper-132 #1).
            # (Not the root `torch` of a refused `import torch.utils.data` before `import torch`: what reads it
            # depends on that line.)
            modules.update(alias.asname or alias.name for alias in piece.node.names
                           if alias.name != "*" and (alias.asname or isinstance(piece.node, ast.ImportFrom)))
        if isinstance(piece.node, ast.ImportFrom) and any(alias.name == "*" for alias in piece.node.names):
            star = piece
        # A module's attributes (`torch.backends.cudnn.deterministic = True`) are its settings, not an object a
        # step shares: not followed (rebinding the module's name, `torch = None`, is).
        # The objects it may store into are changed too (`s.add(w)`, `d.__setitem__("k", w)`).
        stores = (_stores(_defined_now(piece.node), modules) if piece.node is not None else []) + call_stores
        changes |= set().union(*(holders for holders, _stored in stores))
        if piece.node is not None and either:
            changes |= _changed_through_either(piece.node, either, modules)
        changes -= modules | _PROVIDED
        # An object it may change in place (`v.add_(1)`, `a.b = 1`) is changed, and so are the names that may
        # share it; then a name it rebinds (`for i in ...`, `x = ...`, `import numpy as np`) is defined there:
        # rebinding a name never changes the object it held, so its old relatives stay as they were.
        backward = _backward_roots(_defined_now(piece.node)) if piece.node is not None else set()
        backward |= through_backward
        # The objects it may change, and those sharing them (a `backward()`'s receiver keeps its values: only the
        # gradients of what it was computed from change, and its graph may be freed).
        # A store into a dict or a list (`params["w"] = w.detach().clone()`, `lst.append(v)`) changes that container,
        # never the objects it holds: those (and what shares them) stay as they were (review r21g).
        if isinstance(piece.node, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith)):
            # What the block binds and then changes (`h = [g]; h[0].add_(1)`, `m = e.mul_; m(7)`) reaches what it
            # was bound to there (review helper-133 #2): what its assignments share first (relations only grow), and
            # what its results are computed from, so that a `loss.backward()` in a refused training loop changes the
            # gradients of what `loss = (w * x).sum()` in it was computed from (`print(w.grad)` after it printed
            # None). What a call in it may relate (`w.add_(g)`) is related after: not to reach `g` through `w` here.
            sharing = {name: set(names) for name, names in related.items()}
            for name in rebound - set(bound):   # its own names are objects to relate (`a = g; b = a; b.mul_(3)`)
                bound[name] = piece
            relate_compound(piece.node)
            related.clear()
            related.update(sharing)
            relate_compound(piece.node, bindings_only=True)
        held, evaluated = _container_stores(_defined_now(piece.node)) if piece.node is not None else (set(), [])
        own = set().union(*(_bindings(ast.Expr(value=e), modules)[1] for e in evaluated)) if evaluated else set()
        items_only = (held & containers & changes) - own
        # (`w.grad.zero_()` changes w's gradient only: its values stay Python's, as after a `backward()`.)
        gradients = _changed_gradients(piece.node, modules) if piece.node is not None else set()
        whole = reached(changes - items_only - gradients - (_backward_roots(_defined_now(piece.node))
                                                            if piece.node is not None else set()), set()) | items_only
        for name in reached((changes - items_only) | backward, backward) | items_only:
            if bound.get(name) is not None and name not in changed and name not in changes | backward:
                continue   # a name a refused statement binds is first of all defined there (its readers say so)
            if name not in whole and bound.get(name) is not None and name not in gradients_only:
                continue   # already changed whole by a refused statement before: that stays its first reason
            bound[name] = piece
            changed.add(name)
            fresh.discard(name)   # `model[0] = nn.Identity()`: what its call returns is no longer known
            # Reached only through a `backward()`: only its gradient may change (`print(w)` after a refused
            # `loss.backward()` shows w as Python does; `print(w.grad)` may not).
            (gradients_only.discard if name in whole else gradients_only.add)(name)
        if piece.node is not None and _changes_torch(piece.node, modules):
            rebound.add(EVERYTHING)   # `torch.ones = torch.zeros`, `F.relu = torch.neg`: every later step may differ
        if isinstance(piece.node, ast.Import):   # `import torch.utils.data` binds `torch` to the module it names
            rebound -= {alias.name.split(".")[0] for alias in piece.node.names
                        if alias.asname is None and "." in alias.name and alias.name.split(".")[0] in modules}
        reads = set(_read_by(piece.node)) if piece.node is not None else set()
        # What it binds may be anything made of what it reads as it runs (a view, an alias, a result: TensorLab
        # cannot know): it shares with them and is computed from them (`v = w.view(4) if c else w`,
        # `p = nn.Parameter(c)`, `loss = F.binary_cross_entropy_with_logits(z, y)`), so a later refused change or
        # `backward()` through it reaches them. A name it binds from itself (`while ...: y = y * 2`) stays derived
        # from what it was derived from too. (Rebinding never changes the object a name held.)
        made_of = (set(_read_when_defined(piece.node)) if piece.node is not None else set()) - modules - _PROVIDED
        if isinstance(piece.node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            made_of = set()   # a function, a class or a module is no object made of the file's tensors
        if piece.node is not None:
            learn_container(piece.node, rebound)
        summary = summarize(piece.node) if piece.node is not None else None
        for name in rebound:
            bound[name] = piece
            if piece.node is not None and summary is not None:
                code_nodes[name] = piece.node
                summaries[name] = summary
            attribute_bound.pop(name, None)
            fresh.discard(name)
            changed.discard(name)
            gradients_only.discard(name)
        if rebound and isinstance(piece.node, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith)):
            # A refused loop relates, statement by statement, as one that runs would (`pred = X @ w + b` in a training
            # loop is new memory: X is no view of w); relations only grow, so what it binds stays derived from what
            # it was (review r21g).
            relate_compound(piece.node)
        elif rebound:   # a computation's result (`n = (model(x) > 0).sum().item()`) is new memory, as for a step
            relate(rebound, made_of | (rebound & reads), derived=bool(rebound & reads),
                   shares=not _computes_new(piece.node))
        # What it may have put into an object (`Z.t = w`, `lst.append(w)`) is that object's from now on: a later
        # refused change through either (`Z.t.mul_(2)`, `w.zero_()`) may change both (issue #21, review r21f).
        for holders, stored in stores:
            relate(set(), holders | stored)
    if record is not None and pieces:
        record.append(marks())
    for piece in pieces:   # a refused `assert` is not checked here: its row says so, with why it is refused
        if (piece.statement is None and isinstance(piece.node, ast.Assert) and piece.reason is not None
                and piece.reason.key != "source.stops"):
            piece.reason = msg("source.assert_may_stop", reason=piece.reason)
        elif piece.statement is None and piece.reason is not None and piece.reason.key != "source.stops":
            # A refused block that may stop Python (`if w.isnan().any(): sys.exit(1)`; review helper-133 #4): the
            # steps after run, as after a refused `assert`, and its row says that Python may stop there.
            stop_line = _stop_inside(piece.node)
            if stop_line is not None and piece.node is not None:
                where = _where(piece.line + stop_line - piece.node.lineno, piece.cell)
                piece.reason = msg("source.block_may_stop", reason=piece.reason, where=where)


def _joined(*notes: str) -> str:
    return "\n\n".join(note for note in notes if note)


# A note is shown whole in the Narration: a big markdown cell or docstring is cut where it is made (its first
# characters and lines), so the window stays responsive; the cut says how much is left out, in each language.
NOTE_CHARACTERS = 4000
NOTE_LINES = 80
MARKDOWN_READ = 4 * NOTE_CHARACTERS   # a markdown cell's first characters are made plain text, the rest counted
_DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=\s]*")
_CUT = "\ue000"   # marks where a note was cut (then the count left out, then the mark again), said at the end


def _cut_note(note: str, more: int = 0) -> str:
    """``note`` cut to :data:`NOTE_CHARACTERS` characters and :data:`NOTE_LINES` lines, marked with how many
    characters it leaves out (``more``: those already left out before it was made, of a markdown cell)."""
    lines = note.split("\n")
    kept = "\n".join(lines[:NOTE_LINES]) if len(lines) > NOTE_LINES else note
    kept = kept[:NOTE_CHARACTERS]
    if kept.count(_CUT) % 2:   # not inside the mark of a cut made before (a markdown cell's, joined to others)
        kept = kept[:kept.rindex(_CUT)]
    parts = note[len(kept):].split(_CUT)   # what is left out: its text, and what earlier cuts left out
    more += sum(len(part) for part in parts[0::2]) + sum(int(part) for part in parts[1::2] if part.isdigit())
    return note if not more else f"{kept.rstrip()}{_CUT}{more}{_CUT}"


def _said(note: str, language: str) -> str:
    """A note as shown in ``language``: each cut's mark said as "… (N more characters not shown)"."""
    if _CUT not in note:
        return note
    parts = note.split(_CUT)
    out = parts[0]
    for index in range(1, len(parts) - 1, 2):
        count = int(parts[index]) if parts[index].isdigit() else 0
        cut = render("source.note_cut", {"count": f"{count:,}"}, language) if language else "…"
        out += "\n" + cut + parts[index + 1]
    return out


def _made_step(code: str, statement: Statement, note: str, line: int, cell: int) -> LessonStep:
    """A step of the file, its note (with any cut) said in English and in Korean."""
    note = _cut_note(note)
    if _CUT not in note:
        return LessonStep(code, statement, note, line=line, cell=cell)
    return LessonStep(code, statement, _said(note, "en"), translations={"note_ko": _said(note, "ko")},
                      line=line, cell=cell)


def _lesson(pieces: list[_Piece], source: str, limits: Limits, trailing_note: str = "") -> Lesson:
    if not pieces:
        raise LessonError(source, msg("source.no_statements"))
    if len(pieces) > limits.max_lesson_steps:
        raise LessonError(source, msg("source.too_many", count=len(pieces), limit=limits.max_lesson_steps))
    _follow_names(pieces)
    steps: list[LessonStep] = []
    refused: list[RefusedStep] = []
    # A statement's comment note is about that statement: a refused one keeps it (its greyed row, its commented
    # block in an export), never another step's narration. A notebook's markdown is prose about what follows:
    # it waits for the next step that runs.
    waiting = ""
    for piece in pieces:
        if piece.statement is not None:
            steps.append(_made_step(piece.code, piece.statement, _joined(waiting, piece.prose, piece.note),
                                    piece.line, piece.cell))
            waiting = ""
        else:
            assert piece.reason is not None
            waiting = _joined(waiting, piece.prose)
            refused.append(RefusedStep(piece.code, piece.reason, len(steps), piece.line, piece.cell,
                                       _said(_cut_note(piece.note), "")))
    waiting = _joined(waiting, trailing_note)
    if waiting and steps:   # notes after the last step that runs: said with it
        last = steps[-1]
        steps[-1] = _made_step(last.code, last.statement, _joined(last.note, waiting), last.line, last.cell)
    stem = re.sub(r"[^a-z0-9]+", "-", source.lower()).strip("-") or "my-code"
    return Lesson(stem, source, tuple(steps), source=source, refused=tuple(refused))


def parse_python(data: bytes | str, source: str = "<file>", limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """A ``.py`` file's bytes (or text) as a lesson: one step per top-level statement."""
    text = _decode_python(data, source) if isinstance(data, bytes) else data
    if len(text) > MAX_PY_BYTES:
        raise LessonError(source, msg("file.too_large", limit=MAX_PY_BYTES))
    pieces, closing = _pieces(text, 0, limits, source)
    return _lesson(pieces, source, limits, trailing_note=closing)


def parse_notebook(data: bytes, source: str = "<notebook>", limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """A notebook's bytes as a lesson: one step per statement of each code cell, markdown cells as notes."""
    pieces: list[_Piece] = []
    note = ""
    cells = _cells(data, source)
    code_size = sum(len(text) for kind, text in cells if kind == "code")
    if code_size > MAX_PY_BYTES:   # its code is bounded as a .py is (the rest of 20 MB is outputs and prose)
        raise LessonError(source, msg("source.code_too_large", size=f"{code_size:,}", limit=f"{MAX_PY_BYTES:,}"))
    # "cell 7" is the notebook's 7th cell as Jupyter shows them, markdown and raw cells counted too.
    for number, (kind, text) in enumerate(cells, start=1):
        if kind == "markdown":   # its first characters only: a cell of megabytes is cut, not all made text
            text = _DATA_URI.sub("data:", text)   # an inline image's bytes are no text (its alt text stays)
            prose = _cut_note(markdown_as_text(text[:MARKDOWN_READ]), max(0, len(text) - MARKDOWN_READ))
            note = "\n\n".join(t for t in (note, prose) if t)
            continue
        if kind != "code":
            continue   # raw cells are neither Python nor prose
        try:
            found, closing = _pieces(text, number, limits, source)
        except LessonError as exc:
            if exc.reason.key == "source.too_many":   # the notebook's count, not one cell's
                raise LessonError(source, msg("source.too_many", count=_statement_count(cells),
                                              limit=limits.max_lesson_steps)) from None
            raise
        if found and note:
            found[0].prose = _joined(note, found[0].prose)
            note = ""
        note = _joined(note, closing)   # a cell's closing comments: with the next step that runs, as markdown is
        pieces += found
        if len(pieces) > limits.max_lesson_steps:   # every statement of the notebook counted, not those read so far
            raise LessonError(source, msg("source.too_many", count=_statement_count(cells),
                                          limit=limits.max_lesson_steps))
    return _lesson(pieces, source, limits, trailing_note=note)


def _statement_count(cells: list[tuple[str, str]]) -> int:
    """How many steps a notebook's code cells hold (statements, IPython lines; a cell that does not parse, or
    under a cell magic, is one), as :func:`parse_notebook` makes them (its code is bounded: at most 1 MB)."""
    count = 0
    for kind, text in cells:
        if kind != "code":
            continue
        lines = code_lines(text)
        if lines and lines[0].lstrip().startswith("%%"):
            count += 1
            continue
        continued = _continued_lines(lines)
        magic = [number not in continued and (_MAGIC.match(line) is not None or _is_help(line))
                 and not line.lstrip().startswith("#") for number, line in enumerate(lines, start=1)]
        count += sum(1 for m, line in zip(magic, lines) if m and line[:1] not in (" ", "\t"))
        # A magic line stands aside (its own step), one inside a block as `pass` (the block's), as _pieces reads them.
        code = "\n".join((line[:len(line) - len(line.lstrip())] + "pass" if line[:1] in (" ", "\t") else "")
                         if m else line for m, line in zip(magic, lines))
        try:
            body = ast.parse(code, mode="exec").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            count += 1 if any(line.strip() for line, m in zip(lines, magic) if not m) else 0
            continue
        count += sum(1 for node in body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                                                and isinstance(node.value.value, str)))
    return count


def opened_file(lesson: Lesson) -> bool:
    """Whether ``lesson`` is a learner's opened ``.py`` or notebook (its steps carry their file lines), not TOML."""
    return bool(lesson.refused) or any(step.line for step in lesson.steps)


def as_the_file_runs(result: StepResult, lesson: Lesson, index: int) -> StepResult:
    """The result of an opened file's step ``index`` (0-based, among the lesson's steps) as running the file
    shows it: a bare expression's value only where Python shows it (a notebook cell's last statement), and a
    note where a statement not run used the random generator first (its random numbers are not the file's); each
    tensor a statement not run may have changed is marked (:func:`with_may_differ`)."""
    result = as_python_echoes(result, index in echoed_steps(lesson))
    result = with_random_note(with_passed_note(result, lesson, index), random_shifts(lesson).get(index))
    marked = with_may_differ(result.snapshot, changes_after_step(lesson, index))
    return result if marked is result.snapshot else replace(result, snapshot=marked)


PASSED_REFUSED = "explain.passed_refused"   # the note of a step right after statements of the file not run


def with_passed_note(result: StepResult, lesson: Lesson, index: int) -> StepResult:
    """``result`` of an opened file's step ``index`` with a note naming the statements right before it that are
    not run (the first one's reason): → passed over them, and the Output says so, not only the greyed rows."""
    passed = [r for r in lesson.refused if r.after == index]
    if not passed:
        return result
    where = _where(passed[0].line, passed[0].cell)
    if len(passed) > 1:
        where = msg("source.and_more", where=where, count=len(passed) - 1)
    reason = passed[0].reason   # its own words, without the line the title says
    inner = reason.values.get("reason") if reason.key in ("source.at_line", "source.at_cell_line") else None
    note = Explanation(PASSED_REFUSED, (("where", where), ("reason", inner if isinstance(inner, Message) else reason)))
    return replace(result, notes=(note, *result.notes))

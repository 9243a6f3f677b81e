"""Parse the TensorLab code subset.

User text is parsed with :mod:`ast` and every node is checked against the
allowlists of :mod:`tensorlab.core.lang.allowlist` (by :mod:`tensorlab.core.lang.subset_rules`)
before anything runs. Nothing here
evaluates user text: :mod:`tensorlab.core.sandbox.interpreter` walks the checked tree.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.lang.subset_rules import Checker, LanguageError, dotted, is_dunder, undefined_name_message
from tensorlab.core.messages.catalogue import msg
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "code_lines",
    "LanguageError",
    "Statement",
    "parse",
    "parse_one",
    "read_full_forms",
    "check_names",
    "NameCheck",
    "dotted",
    "is_dunder",
    "undefined_name_message",
]


@dataclass(frozen=True)
class Statement:
    """One checked statement of the subset: its source text and its tree."""

    source: str
    node: ast.stmt = field(repr=False, compare=False)
    line: int = 1
    # Name events in execution order: ("use" | "def", name, line, col).
    events: tuple[tuple[str, str, int, int], ...] = field(default=(), repr=False, compare=False)

    @property
    def defines(self) -> tuple[str, ...]:
        """Names this statement binds, in order."""
        return tuple(dict.fromkeys(n for kind, n, _, _ in self.events if kind == "def"))

    @property
    def uses(self) -> tuple[str, ...]:
        """User names this statement reads, in order."""
        return tuple(dict.fromkeys(n for kind, n, _, _ in self.events if kind == "use"))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def code_lines(text: str, keepends: bool = False) -> list[str]:
    """The lines of Python code as Python numbers them: split at \\n, \\r\\n and \\r only. (`str.splitlines`
    also splits at U+2028, a form feed or \\x1c, which are characters of a line to Python: a string literal
    holding one was cut in two.)"""
    lines = _LINE.findall(text)
    return lines if keepends else [line.rstrip("\r\n") for line in lines]


def parse(source: str, limits: Limits = DEFAULT_LIMITS) -> list[Statement]:
    """Parse ``source`` into checked statements, or raise :class:`LanguageError`."""
    if not isinstance(source, str):
        raise LanguageError(msg("subset.not_text"))
    if "\x00" in source:
        raise LanguageError(msg("subset.nul"))
    for number, text in enumerate(code_lines(source), start=1):
        if len(text) > limits.max_statement_chars:
            raise LanguageError(msg("subset.line_too_long", length=len(text), limit=limits.max_statement_chars),
                                number)
    try:
        module = ast.parse(source, mode="exec")
    except SyntaxError as exc:
        col = exc.offset if exc.offset else None
        raise LanguageError(msg("subset.syntax", detail=exc.msg), exc.lineno, col) from None
    except (RecursionError, MemoryError):
        raise LanguageError(msg("subset.too_complex")) from None
    except ValueError as exc:
        raise LanguageError(msg("subset.unparsable", detail=str(exc))) from None
    lines = code_lines(source)
    statements = []
    for node in module.body:
        _refuse_too_deep(node, limits.max_depth)   # before any recursive walk (a 900-term sum is 900 deep)
        node = read_full_forms(node)
        checker = Checker(limits)
        checker.statement(node, depth=0)
        text = ast.get_source_segment(source, node) or "\n".join(
            lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
        )
        text += _closing_comment(lines, node)
        statements.append(Statement(text, node, node.lineno, tuple(checker.events)))
    return statements


def _refuse_too_deep(node: ast.stmt, limit: int) -> None:
    """Raise the checker's "nested too deeply" refusal for a tree deeper than ``limit``, walked with a stack.

    Python's parser takes trees far deeper than Python's own recursion limit (`y = w + w + … + w`, 900 terms,
    is a chain 900 deep); the recursive walks after it (`read_full_forms`, the checker) would raise
    RecursionError on them, so the depth is checked first, without recursion."""
    stack: list[tuple[ast.AST, int]] = [(node, 1)]
    while stack:
        current, depth = stack.pop()
        # The checker counts fewer levels than the tree has (an operator, a keyword, a context are nodes too),
        # so only a tree certainly past its limit is refused here; the checker words the rest as it always did.
        if depth > 3 * limit:
            line = getattr(current, "lineno", None)
            col = getattr(current, "col_offset", None)
            raise LanguageError(msg("subset.too_deep", limit=limit), line, None if col is None else col + 1)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(current))


def _closing_comment(lines: list[str], node: ast.stmt) -> str:
    """The comment that ends ``node``'s last line (`x = x.view(-1)  # -1 is inferred`), with the spaces before it,
    or "": the statement's text is its source as written (a comment is text to Python, never run)."""
    if node.end_lineno is None or node.end_col_offset is None or node.end_lineno > len(lines):
        return ""
    rest = lines[node.end_lineno - 1].encode()[node.end_col_offset:].decode(errors="replace")
    return rest.rstrip() if rest.lstrip().startswith("#") else ""


def _path(node: ast.expr) -> tuple[str, ...] | None:
    """`torch.nn.functional` as ("torch", "nn", "functional"); None for anything but names and attributes."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


# `nn.functional` (after `import torch.nn as nn`) is torch.nn.functional, the subset's `F`: read as `F` too
# (`nn` is a reserved name, so it is always the module). Not a full form of `torch.` (what `torch.` completes).
_READ_AS: dict[tuple[str, ...], str] = {**allow.FULL_FORMS, ("nn", "functional"): "F"}


class _FullForms(ast.NodeTransformer):
    """Replaces `torch.nn`, `torch.nn.functional` and `torch.optim` (read, not assigned) by the alias's name
    (:data:`~tensorlab.core.lang.allowlist.FULL_FORMS`: the same allowlists, keyword lists and estimates hold),
    at the same place; the name keeps the text written (``written``) for the messages that name it."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:  # noqa: N802 - ast's name
        if isinstance(node.ctx, ast.Load):
            path = _path(node)
            alias = _READ_AS.get(path) if path is not None else None
            if alias is not None and path is not None:
                name = ast.copy_location(ast.Name(id=alias, ctx=ast.Load()), node)
                name.end_lineno, name.end_col_offset = node.end_lineno, node.end_col_offset
                name.written = ".".join(path)   # type: ignore[attr-defined]  # read by subset_rules.written
                return name
        return self.generic_visit(node)


def read_full_forms(node: ast.stmt) -> ast.stmt:
    """``node`` with `torch.nn`, `torch.nn.functional` and `torch.optim` read as `nn`, `F` and `optim` (changed in
    place): what the subset's checker and interpreter take. The parser does it, and the export's check of a
    script it wrote (the script's lines are the steps as written)."""
    read = _FullForms().visit(node)
    assert isinstance(read, ast.stmt)   # a statement is never a module's attribute
    return read


def parse_one(source: str, limits: Limits = DEFAULT_LIMITS) -> Statement:
    """Parse exactly one statement (a lesson step, a code line)."""
    if isinstance(source, str) and len(source) <= limits.max_statement_chars * 8:
        return _parse_one_cached(source, limits)
    return _parse_one(source, limits)


@functools.lru_cache(maxsize=4096)
def _parse_one_cached(source: str, limits: Limits) -> Statement:
    # Replays parse the same lines again and again; a Statement is immutable, so it can be shared.
    return _parse_one(source, limits)


def _parse_one(source: str, limits: Limits) -> Statement:
    statements = parse(source, limits)
    if not statements:
        raise LanguageError(msg("subset.no_statement"))
    if len(statements) > 1:
        second = statements[1]
        raise LanguageError(
            msg("subset.one_statement", count=len(statements), code=second.source.splitlines()[0][:40]),
            second.line,
            second.node.col_offset + 1,
        )
    return statements[0]


def check_names(statements: Iterable[Statement], known: Iterable[str] = (),
                kinds: Mapping[str, str] | None = None) -> None:
    """Raise :class:`LanguageError` at the first name read before any statement binds it, and at the first
    member refused on a name whose kind is known (`opt.load_state_dict(...)` after `opt = optim.SGD(...)`).

    ``known``: the names bound before the first statement; ``kinds``: the type of those that are not tensors
    (``type(value).__name__``, as a snapshot's ``others`` say it: `SGD`, `Linear`), and ``TENSOR_KIND`` for a
    name bound to a tensor (a loop over it is refused). The kinds the statements
    themselves bind are followed from one statement to the next (:class:`NameCheck`)."""
    check = NameCheck(known, kinds)
    for statement in statements:
        check.add(statement)


class NameCheck:
    """The names a program has bound so far, and the kinds of those a statement alone says (a constructor):
    :meth:`add` checks the next statement against them (:func:`check_names`, one statement at a time)."""

    def __init__(self, known: Iterable[str] = (), kinds: Mapping[str, str] | None = None) -> None:
        self.defined: set[str] = set(known)
        self.kinds: dict[str, str] = dict(kinds) if kinds is not None else {}

    def add(self, statement: Statement) -> None:
        """Check ``statement`` (:class:`LanguageError` if it reads a name not bound, or a member refused on a
        name of a known kind), then take the names it binds."""
        _check_members(statement, self.kinds)
        for kind, name, line, col in statement.events:
            if kind == "def":
                self.defined.add(name)
            elif name not in self.defined:
                raise LanguageError(undefined_name_message(name), line, col)
        _check_tensor_loops(statement, self.kinds)
        _bind_kinds(statement.node, self.kinds)


def _check_members(statement: Statement, kinds: dict[str, str]) -> None:
    """Refuse `NAME.member` where NAME's kind is known and torch's object of that kind has ``member`` but the
    subset does not allow it (the run time check says the same; :func:`allowlist.refused_on`)."""
    if not kinds:
        return
    node = statement.node
    # A loop may bind the name again before it reads it: its kind is then unknown inside the loop.
    rebound = set(statement.defines) if isinstance(node, (ast.For, ast.With)) else set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id not in rebound:
            type_name = kinds.get(sub.value.id)
            if type_name is not None and sub.attr in allow.refused_on(type_name):
                raise LanguageError(msg("subset.not_on_type", name=sub.attr,
                                        type=msg("subset.type.other", name=type_name)),
                                    sub.lineno, sub.col_offset + 1)


# The kind a name bound to a tensor has in ``kinds`` (where the caller knows it: the window's PlayerState.kinds).
TENSOR_KIND = "Tensor"


def _check_tensor_loops(statement: Statement, kinds: dict[str, str]) -> None:
    """Refuse `for r in x` where ``x`` is known to be a tensor (the run time refuses it the same way): a line
    typed in the window is then refused under it, with the column, instead of becoming a step that fails."""
    if not kinds:
        return
    node = statement.node
    # Inside a `with` block a line before the loop may bind the name again: its kind is then unknown.
    rebound = set(statement.defines) if isinstance(node, ast.With) else set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.For) and isinstance(sub.iter, ast.Name) and sub.iter.id not in rebound \
                and kinds.get(sub.iter.id) == TENSOR_KIND:
            raise LanguageError(msg("subset.for_tensor", code=sub.iter.id), sub.iter.lineno, sub.iter.col_offset + 1)


def _kind_of(value: ast.expr, kinds: dict[str, str]) -> str | None:
    """The type a value of the subset has, where the statement alone says it (a constructor, a copy of a name of
    a known kind, a dict literal, a module's `state_dict()`), else None."""
    if isinstance(value, ast.Name):
        return kinds.get(value.id)
    if isinstance(value, ast.Dict):
        return "dict"
    if not isinstance(value, ast.Call) or not isinstance(value.func, (ast.Attribute, ast.Name)):
        return None
    func = value.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        owner, attr = func.value.id, func.attr
        if (owner == "nn" and attr in allow.NN_CLASSES) or (owner == "optim" and attr in allow.OPTIMIZERS):
            return attr
        if owner == "copy" and attr == "deepcopy" and len(value.args) == 1:
            return _kind_of(value.args[0], kinds)
        if attr == "state_dict" and kinds.get(owner) in allow.MODULE_CLASS_ATTRIBUTES:
            return "OrderedDict"
    return None


def _bind_kinds(node: ast.stmt, kinds: dict[str, str]) -> None:
    """What ``node`` leaves in ``kinds``: a name bound by `NAME = VALUE` has VALUE's kind (when known); every
    other name it binds, any way, has none known."""
    kind = None
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        kind = _kind_of(node.value, kinds)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            kinds.pop(sub.id, None)
        elif isinstance(sub, ast.alias):
            kinds.pop(sub.asname or sub.name.split(".")[0], None)
    if kind is not None and isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
        kinds[node.targets[0].id] = kind


def iter_names(statements: Iterable[Statement]) -> Iterator[str]:
    """Every name bound by ``statements``, in order, once each."""
    seen: set[str] = set()
    for statement in statements:
        for name in statement.defines:
            if name not in seen:
                seen.add(name)
                yield name

"""The check every export passes before it is written: only the lesson's own subset code runs.

The exporter parses its own output, removes exactly the scaffold it wrote (the imports and
the seed at the top, the ``try``/``except`` around a step that raised in torch), matched by
the syntax tree and never by text, checks every statement left with the subset checker of
:mod:`tensorlab.core.lang`, and compiles the whole file (each code cell of a notebook). Any
failure is :class:`ExportRefused`: nothing is written. This module imports no torch.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Sequence

from tensorlab.core.lang.parse import read_full_forms
from tensorlab.core.lang.subset_rules import Checker, LanguageError
from tensorlab.core.messages.catalogue import Message, MessageError, msg
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits

__all__ = ["ExportRefused", "check_script", "check_cells", "compile_problem", "handler_source"]


class ExportRefused(MessageError, ValueError):
    """The export TensorLab made failed its own check: it is not written (exit 2 in the CLI)."""

    def __init__(self, reason: Message) -> None:
        super().__init__(msg("export.refused", detail=reason))


def handler_source(name: str) -> list[str]:
    """The ``except`` clause the script writes after a step that raised in torch (``name``: the caught error)."""
    return [f"except Exception as {name}:", f'    print(f"{{type({name}).__name__}}: {{{name}}}")']


def _dumps(code: str) -> list[str]:
    return [ast.dump(node) for node in ast.parse(code).body]


def _handler_dump(name: str) -> str:
    tree = ast.parse("\n".join(["try:", "    pass", *handler_source(name)]))
    node = tree.body[0]
    assert isinstance(node, ast.Try)
    return ast.dump(node.handlers[0])


def compile_problem(code: str) -> str | None:
    """Why Python cannot compile ``code`` (None: it can), as ``python file.py`` would compile it.

    The one place TensorLab compiles text: the code object is dropped at once, never run (the
    architecture test allows ``compile`` here and nowhere else on the window side). The compiler
    refuses what the parser accepts, such as blocks nested deeper than CPython's 20.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # an invalid escape in a string is a warning, not a failure
            compile(code, "<export>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return f"{exc.msg}, line {exc.lineno}" if exc.lineno else str(exc.msg)
    except (ValueError, RecursionError, MemoryError) as exc:
        return type(exc).__name__
    return None


def _tree(code: str) -> ast.Module:
    """``code`` compiled (as Python would, to a code object) and parsed; ExportRefused if either fails."""
    problem = compile_problem(code)
    if problem is None:
        try:
            return ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:  # pragma: no cover - compiled
            problem = type(exc).__name__
    raise ExportRefused(msg("export.refused_compile", detail=problem))


def _check_subset(statements: Sequence[ast.stmt], limits: Limits) -> None:
    for node in statements:
        try:
            Checker(limits).statement(read_full_forms(node), depth=0)
        except LanguageError as exc:
            raise ExportRefused(msg("export.refused_subset", detail=exc.message)) from None


def _strip_scaffold(body: list[ast.stmt], setup: str) -> list[ast.stmt]:
    """``body`` without the setup statements it must start with (exactly those, in order)."""
    expected = _dumps(setup) if setup.strip() else []
    if [ast.dump(node) for node in body[: len(expected)]] != expected:
        raise ExportRefused(msg("export.refused_scaffold"))
    return body[len(expected):]


def check_script(text: str, setup: str, error_name: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse ``text`` (a script the exporter made) unless it compiles and, without its scaffold, is subset code.

    ``setup``: the statements it wrote first (imports, seed, device); ``error_name``: the name of
    the caught error in the ``except`` clause it writes around a step that raised in torch.
    """
    body = _strip_scaffold(list(_tree(text).body), setup)
    handler = _handler_dump(error_name)
    rest: list[ast.stmt] = []
    for node in body:
        if (isinstance(node, ast.Try) and len(node.body) == 1 and len(node.handlers) == 1 and not node.orelse
                and not node.finalbody and ast.dump(node.handlers[0]) == handler):
            rest += node.body        # exactly the wrapper it writes: the step inside is checked
        else:
            rest.append(node)        # anything else, a `try` of any other form included, is checked as it is
    _check_subset(rest, limits)


def check_cells(cells: Sequence[str], setup: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a notebook whose code cells (``cells``, in order, the setup cell first when ``setup``) do not
    each compile, or hold, besides the setup cell's exact statements, anything but subset code."""
    trees = [_tree(source) for source in cells]
    if setup.strip():
        if not trees or _strip_scaffold(list(trees[0].body), setup):
            raise ExportRefused(msg("export.refused_scaffold"))
        trees = trees[1:]
    for tree in trees:
        _check_subset(tree.body, limits)

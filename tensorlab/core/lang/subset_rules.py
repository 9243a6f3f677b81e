"""Check one statement's tree against the subset, node by node (nothing is evaluated).

:func:`tensorlab.core.lang.parse.parse` runs a :class:`Checker` over every statement
it parses: each node must be a construct of the subset and each name, attribute
and call must be on the allowlists of :mod:`tensorlab.core.lang.allowlist`. The
checker also records, in execution order, the names a statement reads and binds.
"""

from __future__ import annotations

import ast
import builtins
import sys

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.protocol.limits import LimitError, Limits, factory_numel

__all__ = ["Checker", "LanguageError", "dotted", "is_dunder", "undefined_name_message"]

# Names a careless or hostile line may reach for; undefined, they read "not available".
_FOREIGN_NAMES = frozenset(dir(builtins)) | frozenset(sys.stdlib_module_names)

_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)
_UNARYOPS = (ast.USub, ast.UAdd, ast.Not)

# Constructs a user might try, named the way a Python programmer calls them.
_CONSTRUCT_NAMES: dict[type, str] = {
    ast.Lambda: "lambda",
    ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.JoinedStr: "an f-string",
    ast.FunctionDef: "def",
    ast.AsyncFunctionDef: "async def",
    ast.ClassDef: "class",
    ast.For: "a for loop",
    ast.AsyncFor: "a for loop",
    ast.While: "a while loop",
    ast.If: "if",
    ast.IfExp: "a conditional expression",
    ast.Try: "try",
    ast.Raise: "raise",
    ast.Assert: "assert",
    ast.Delete: "del",
    ast.Global: "global",
    ast.Nonlocal: "nonlocal",
    ast.Return: "return",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
    ast.Await: "await",
    ast.NamedExpr: "the walrus operator `:=`",
    ast.Dict: "a dict",
    ast.Set: "a set",
    ast.BoolOp: "`and` / `or`",
    ast.Starred: "`*` unpacking",
    ast.AnnAssign: "an annotated assignment",
    ast.ImportFrom: "`from ... import`",
    ast.Pass: "pass",
    ast.Break: "break",
    ast.Continue: "continue",
    ast.AsyncWith: "async with",
    ast.Match: "match",
}
if hasattr(ast, "TryStar"):
    _CONSTRUCT_NAMES[ast.TryStar] = "try"


class LanguageError(ValueError):
    """A line is outside the TensorLab subset; nothing of it has run.

    ``line`` and ``col`` are 1-based and point at the offending construct.
    """

    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        self.reason = message
        self.line = line
        self.col = col
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.line is None:
            return self.reason
        if self.col is None:
            return f"line {self.line}: {self.reason}"
        return f"line {self.line}, col {self.col}: {self.reason}"


def undefined_name_message(name: str) -> str:
    """The message for reading ``name`` when nothing has bound it."""
    if name in _FOREIGN_NAMES:
        return f"`{name}` is not available in TensorLab"
    return f"`{name}` is not defined: no earlier step assigns it"


def dotted(node: ast.expr) -> str:
    """`torch.ones`, `x.grad`, ... for messages; `...` for anything more complex."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{dotted(node.func)}(...)"
    if isinstance(node, ast.Subscript):
        return f"{dotted(node.value)}[...]"
    return "..."


def is_dunder(name: str) -> bool:
    """True for `__class__`-like names, which TensorLab never touches."""
    return name.startswith("__") or name.endswith("__")


class Checker:
    """Walks one statement's tree, refusing anything outside the subset.

    It also records, in execution order, which names are read and bound, so
    that a lesson can be checked for names used before definition.
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.events: list[tuple[str, str, int, int]] = []

    # -- helpers ---------------------------------------------------------------
    def fail(self, node: ast.AST, message: str) -> LanguageError:
        line = getattr(node, "lineno", None)
        col = getattr(node, "col_offset", None)
        return LanguageError(message, line, None if col is None else col + 1)

    def refuse_construct(self, node: ast.AST) -> LanguageError:
        name = _CONSTRUCT_NAMES.get(type(node), type(node).__name__)
        return self.fail(node, f"{name} is not available in TensorLab")

    def deeper(self, node: ast.AST, depth: int) -> int:
        if depth + 1 > self.limits.max_depth:
            raise self.fail(
                node, f"the expression is nested too deeply (more than {self.limits.max_depth} levels)"
            )
        return depth + 1

    def use(self, node: ast.Name) -> None:
        self.events.append(("use", node.id, node.lineno, node.col_offset + 1))

    def bind(self, node: ast.Name) -> None:
        self.check_user_name(node)
        self.events.append(("def", node.id, node.lineno, node.col_offset + 1))

    def check_user_name(self, node: ast.Name) -> None:
        if is_dunder(node.id):
            raise self.fail(node, f"`{node.id}`: names with double underscores are not available in TensorLab")
        if node.id in allow.RESERVED_NAMES:
            raise self.fail(node, f"`{node.id}` is reserved in TensorLab and cannot be assigned")

    # -- statements ------------------------------------------------------------
    def statement(self, node: ast.stmt, depth: int) -> None:
        depth = self.deeper(node, depth)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in allow.MODULES or alias.asname not in (None, alias.name):
                    raise self.fail(node, f"`import {alias.name}` is not available in TensorLab "
                                          "(only `import torch` and `import copy`)")
            return
        if isinstance(node, ast.Expr):
            self.expr(node.value, depth)
            return
        if isinstance(node, ast.Assign):
            self.expr(node.value, depth)
            for target in node.targets:
                self.target(target, depth)
            return
        if isinstance(node, ast.AugAssign):
            if not isinstance(node.op, _BINOPS):
                raise self.fail(node, f"the operator `{_op_text(node.op)}=` is not available in TensorLab")
            if isinstance(node.target, ast.Name):
                self.check_user_name(node.target)
                self.use(node.target)
                self.expr(node.value, depth)
                self.events.append(("def", node.target.id, node.lineno, node.col_offset + 1))
                return
            if isinstance(node.target, ast.Subscript):
                self.expr(node.target.value, depth)
                self.index(node.target.slice, depth)
                self.expr(node.value, depth)
                return
            raise self.fail(node.target, "only a name or an item (`x[0]`) can be updated in place with `+=`")
        if isinstance(node, ast.With):
            self.with_statement(node, depth)
            return
        raise self.refuse_construct(node)

    def with_statement(self, node: ast.With, depth: int) -> None:
        if len(node.items) != 1:
            raise self.fail(node, "a `with` statement takes exactly one of torch.no_grad(), "
                                  "torch.enable_grad(), torch.inference_mode()")
        item = node.items[0]
        ctx = item.context_expr
        ok = (
            isinstance(ctx, ast.Call)
            and isinstance(ctx.func, ast.Attribute)
            and isinstance(ctx.func.value, ast.Name)
            and ctx.func.value.id == "torch"
            and ctx.func.attr in allow.GRAD_MODES
            and not ctx.args
            and not ctx.keywords
        )
        if not ok:
            raise self.fail(ctx, f"`with {dotted(ctx)}` is not available in TensorLab: use "
                                 "torch.no_grad(), torch.enable_grad() or torch.inference_mode()")
        if item.optional_vars is not None:
            raise self.fail(item.optional_vars, "`with ... as NAME` is not available in TensorLab")
        for child in node.body:
            self.statement(child, depth)

    def target(self, node: ast.expr, depth: int) -> None:
        if isinstance(node, ast.Name):
            self.bind(node)
            return
        if isinstance(node, (ast.Tuple, ast.List)):
            if not node.elts:
                raise self.fail(node, "nothing to assign to")
            for element in node.elts:
                if not isinstance(element, ast.Name):
                    raise self.fail(element, "unpacking assigns to plain names only: `a, b = x.split(2)`")
                self.bind(element)
            return
        if isinstance(node, ast.Subscript):
            self.expr(node.value, depth)
            self.index(node.slice, depth)
            return
        if isinstance(node, ast.Attribute):
            if node.attr not in allow.TENSOR_SETTABLE:
                raise self.fail(node, f"`{dotted(node)}` cannot be assigned in TensorLab "
                                      f"(only {', '.join(sorted(allow.TENSOR_SETTABLE))})")
            self.expr(node.value, depth)
            return
        raise self.fail(node, "this cannot be assigned to in TensorLab")

    # -- expressions -----------------------------------------------------------
    def expr(self, node: ast.expr, depth: int, *, hook_argument: bool = False) -> None:
        depth = self.deeper(node, depth)
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float, complex, bool, str, type(None), type(Ellipsis))):
                raise self.fail(node, f"a {type(node.value).__name__} literal is not available in TensorLab")
            return
        if isinstance(node, ast.Name):
            self.name(node, hook_argument)
            return
        if isinstance(node, ast.Attribute):
            self.attribute(node, depth)
            return
        if isinstance(node, (ast.List, ast.Tuple)):
            for element in node.elts:
                self.expr(element, depth)
            return
        if isinstance(node, ast.BinOp):
            if not isinstance(node.op, _BINOPS):
                raise self.fail(node, f"the operator `{_op_text(node.op)}` is not available in TensorLab")
            self.expr(node.left, depth)
            self.expr(node.right, depth)
            return
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, _UNARYOPS):
                raise self.fail(node, f"the operator `{_op_text(node.op)}` is not available in TensorLab")
            self.expr(node.operand, depth)
            return
        if isinstance(node, ast.Compare):
            self.expr(node.left, depth)
            for comparator in node.comparators:
                self.expr(comparator, depth)
            return
        if isinstance(node, ast.Subscript):
            self.expr(node.value, depth)
            self.index(node.slice, depth)
            return
        if isinstance(node, ast.Call):
            self.call(node, depth)
            return
        raise self.refuse_construct(node)

    def name(self, node: ast.Name, hook_argument: bool) -> None:
        if is_dunder(node.id):
            raise self.fail(node, f"`{node.id}`: names with double underscores are not available in TensorLab")
        if node.id in allow.MODULES:
            raise self.fail(node, f"`{node.id}` can only be used as `{node.id}.<function>`")
        if node.id in allow.BUILTINS:
            if not hook_argument:
                raise self.fail(node, f"`{node.id}` can only be called: `{node.id}(...)`")
            return
        self.use(node)

    def attribute(self, node: ast.Attribute, depth: int) -> None:
        name = node.attr
        base = node.value
        if is_dunder(name):
            raise self.fail(node, f"`{name}`: names with double underscores are not available in TensorLab")
        if isinstance(base, ast.Name) and base.id == "torch":
            if name not in allow.TORCH_FUNCTIONS and name not in allow.TORCH_DTYPES:
                raise self.fail(node, f"`torch.{name}` is not available in TensorLab")
            return
        if isinstance(base, ast.Name) and base.id == "copy":
            if name not in allow.COPY_FUNCTIONS:
                raise self.fail(node, f"`copy.{name}` is not available in TensorLab (only copy.deepcopy)")
            return
        # The base first, so that `torch.hub.load` is refused for `torch.hub`.
        self.expr(base, depth)
        if name.startswith("_") and name not in allow.UNDERSCORE_ALLOWED:
            raise self.fail(node, f"`{name}` is not available in TensorLab")
        if name not in allow.ALL_ATTRIBUTES:
            raise self.fail(node, f"`{dotted(node)}` is not available in TensorLab: `{name}` is not on "
                                  "the list of tensor methods and attributes")

    def index(self, node: ast.expr, depth: int) -> None:
        if isinstance(node, ast.Slice):
            for part in (node.lower, node.upper, node.step):
                if part is not None:
                    self.expr(part, depth)
            return
        if isinstance(node, ast.Tuple):
            for element in node.elts:
                self.index(element, depth)
            return
        self.expr(node, depth)

    def call(self, node: ast.Call, depth: int) -> None:
        func = node.func
        if isinstance(func, ast.Name):
            if func.id not in allow.BUILTINS:
                if is_dunder(func.id):
                    raise self.fail(func, f"`{func.id}`: names with double underscores are not available in TensorLab")
                if func.id in _FOREIGN_NAMES:
                    raise self.fail(func, f"`{func.id}` is not available in TensorLab")
                raise self.fail(func, f"`{func.id}` cannot be called: only torch functions, "
                                      "tensor methods, print, len, id and copy.deepcopy can be called")
        elif isinstance(func, ast.Attribute):
            self.attribute(func, depth)
            if isinstance(func.value, ast.Name) and func.value.id == "torch" and func.attr in allow.GRAD_MODES:
                raise self.fail(func, f"`torch.{func.attr}()` is used as `with torch.{func.attr}():`")
        else:
            raise self.fail(func, "only torch functions, tensor methods, print, len, id and "
                                  "copy.deepcopy can be called")
        hook = isinstance(func, ast.Attribute) and func.attr == "register_hook"
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.refuse_construct(arg)
            self.expr(arg, depth, hook_argument=hook)
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.fail(keyword.value, "`**` unpacking is not available in TensorLab")
            if is_dunder(keyword.arg):
                raise self.fail(keyword.value, f"`{keyword.arg}`: names with double underscores are not available")
            self.expr(keyword.value, depth, hook_argument=hook)
        self.factory_size(node)

    def factory_size(self, node: ast.Call) -> None:
        """Refuse, before anything runs, a factory whose literal size is over the limit."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "torch"):
            return
        try:
            args = [_constant(a) for a in node.args]
            kwargs = {k.arg: _constant(k.value) for k in node.keywords if k.arg is not None}
        except _NotConstant:
            return
        try:
            factory_numel(func.attr, args, kwargs, self.limits)
        except LimitError as exc:
            raise self.fail(node, str(exc)) from None
        except (TypeError, ValueError, OverflowError):
            return  # torch will say what is wrong with the arguments


class _NotConstant(Exception):
    pass


def _constant(node: ast.expr) -> object:
    """Value of a literal size argument (numbers, tuples, lists, `10**9`), else raise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool, str)):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_constant(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _constant(node.operand)
        if isinstance(value, (int, float)):
            return -value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Pow, ast.Add)):
        left, right = _constant(node.left), _constant(node.right)
        if isinstance(left, (int, float)) and isinstance(right, (int, float)):
            if isinstance(node.op, ast.Pow):
                if abs(right) > 64 or abs(left) > 2**32:
                    raise _NotConstant
                return left**right
            return left * right if isinstance(node.op, ast.Mult) else left + right
    raise _NotConstant


def _op_text(op: ast.AST) -> str:
    return {
        ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
        ast.Invert: "~", ast.Not: "not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
        ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@",
    }.get(type(op), type(op).__name__)

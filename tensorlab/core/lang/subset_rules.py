"""Check one statement's tree against the subset, node by node (nothing is evaluated).

:func:`tensorlab.core.lang.parse.parse` runs a :class:`Checker` over every statement
it parses: each node must be a construct of the subset and each name, attribute
and call must be on the allowlists of :mod:`tensorlab.core.lang.allowlist`. The
checker also records, in execution order, the names a statement reads and binds.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import sys

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.messages.catalogue import Message, MessageError, msg
from tensorlab.core.protocol.limits import LimitError, Limits, factory_numel

__all__ = ["Checker", "LanguageError", "construct_name", "dotted", "is_dunder", "keyword_problem", "module_names",
           "undefined_name_message"]

# Names a careless or hostile line may reach for; undefined, they read "not available".
_FOREIGN_NAMES = frozenset(dir(builtins)) | frozenset(sys.stdlib_module_names)

_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult)
_UNARYOPS = (ast.USub, ast.UAdd, ast.Not)

# Constructs a user might try, named the way a Python programmer calls them (a keyword: as written).
_CONSTRUCT_KEYS: dict[type, str] = {
    ast.Lambda: "construct.lambda",
    ast.ListComp: "construct.list_comprehension",
    ast.SetComp: "construct.set_comprehension",
    ast.DictComp: "construct.dict_comprehension",
    ast.GeneratorExp: "construct.generator",
    ast.JoinedStr: "construct.f_string",
    ast.For: "construct.for",
    ast.AsyncFor: "construct.for",
    ast.While: "construct.while",
    ast.IfExp: "construct.conditional",
    ast.NamedExpr: "construct.walrus",
    ast.Set: "construct.set",
    ast.BoolOp: "construct.bool_op",
    ast.Starred: "construct.starred",
    ast.AnnAssign: "construct.annotated",
    ast.ImportFrom: "construct.import_from",
}
_KEYWORDS: dict[type, str] = {
    ast.FunctionDef: "def", ast.AsyncFunctionDef: "async def", ast.ClassDef: "class", ast.If: "if",
    ast.Try: "try", ast.Raise: "raise", ast.Assert: "assert", ast.Delete: "del", ast.Global: "global",
    ast.Nonlocal: "nonlocal", ast.Return: "return", ast.Yield: "yield", ast.YieldFrom: "yield",
    ast.Await: "await", ast.Pass: "pass", ast.Break: "break", ast.Continue: "continue",
    ast.AsyncWith: "async with", ast.Match: "match",
}
if hasattr(ast, "TryStar"):
    _KEYWORDS[ast.TryStar] = "try"


def construct_name(node: ast.AST) -> Message:
    """What a Python programmer calls ``node``'s construct ("a list comprehension", "def")."""
    key = _CONSTRUCT_KEYS.get(type(node))
    if key is not None:
        return msg(key)
    return msg("construct.keyword", keyword=_KEYWORDS.get(type(node), type(node).__name__))


# A list's own methods (`append`, `extend`, ...): none is in the subset, whose lists grow by `+=` (whose cost
# the guard counts like any statement's); the refusal says what lists allow instead.
_LIST_METHODS = frozenset({"append", "extend", "insert", "remove", "reverse", "sort"})   # a list's alone


def _near(refusal: Message, name: str, names: frozenset[str], lead: str) -> Message:
    """``refusal`` with the listed name ``name`` is near (a typo: `x.shap` is near `x.shape`, `torch.onse` near
    `torch.ones`), as Python's own AttributeError suggests one; ``lead`` is what is written before ``name``."""
    near = difflib.get_close_matches(name, sorted(names), n=1, cutoff=0.75)
    if not near or len(name) < 3:
        return refusal
    return msg("subset.near", reason=refusal, near=f"{lead}{near[0]}")

class LanguageError(MessageError, ValueError):
    """A line is outside the TensorLab subset; nothing of it has run.

    ``reason`` says what is wrong; ``line`` and ``col`` are 1-based and point at the
    offending construct (``message`` says both, ``str()`` in English).
    """

    def __init__(self, reason: Message, line: int | None = None, col: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.col = col
        if line is None:
            super().__init__(reason)
        elif col is None:
            super().__init__(msg("subset.at_line", line=line, reason=reason))
        else:
            super().__init__(msg("subset.at_line_col", line=line, col=col, reason=reason))


def undefined_name_message(name: str) -> Message:
    """The message for reading ``name`` when nothing has bound it."""
    if name in _FOREIGN_NAMES:
        return msg("subset.not_available", name=name)
    return msg("subset.undefined_name", name=name)


def written(node: ast.Name) -> str:
    """A name as the step wrote it: `torch.nn` where the parser read `torch.nn` as the alias `nn`."""
    text = getattr(node, "written", None)
    return text if isinstance(text, str) else node.id


def dotted(node: ast.expr) -> str:
    """`torch.ones`, `x.grad`, ... for messages; `...` for anything more complex."""
    if isinstance(node, ast.Name):
        return written(node)
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return f"{dotted(node.func)}(...)"
    if isinstance(node, ast.Subscript):
        return f"{dotted(node.value)}[...]"
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 20:
        return repr(node.value)   # `'{}'.format`, not `....format`
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
        self._in_loop = False

    # -- helpers ---------------------------------------------------------------
    def fail(self, node: ast.AST, message: Message) -> LanguageError:
        line = getattr(node, "lineno", None)
        col = getattr(node, "col_offset", None)
        return LanguageError(message, line, None if col is None else col + 1)

    def refuse_construct(self, node: ast.AST) -> LanguageError:
        return self.fail(node, msg("subset.construct", construct=construct_name(node)))

    def deeper(self, node: ast.AST, depth: int) -> int:
        if depth + 1 > self.limits.max_depth:
            raise self.fail(node, msg("subset.too_deep", limit=self.limits.max_depth))
        return depth + 1

    def use(self, node: ast.Name) -> None:
        self.events.append(("use", node.id, node.lineno, node.col_offset + 1))

    def bind(self, node: ast.Name) -> None:
        self.check_user_name(node)
        self.events.append(("def", node.id, node.lineno, node.col_offset + 1))

    def check_user_name(self, node: ast.Name) -> None:
        if is_dunder(node.id):
            raise self.fail(node, msg("subset.dunder", name=node.id))
        if node.id in allow.RESERVED_NAMES:
            raise self.fail(node, msg("subset.reserved", name=node.id))

    # -- statements ------------------------------------------------------------
    def statement(self, node: ast.stmt, depth: int) -> None:
        depth = self.deeper(node, depth)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.name, alias.asname) not in allow.IMPORT_FORMS:
                    written = alias.name if alias.asname is None else f"{alias.name} as {alias.asname}"
                    raise self.fail(node, msg("subset.import", module=written))
            return
        if isinstance(node, ast.ImportFrom):
            # The contract's forms only: `from torch import nn`, `from torch import optim`.
            module = "." * node.level + (node.module or "")
            if module != "torch":   # the module itself is not available: say which, with every name it imports
                written = ", ".join(a.name if a.asname is None else f"{a.name} as {a.asname}" for a in node.names)
                if len(written) > 60:   # a long list of names: the module is what matters
                    written = node.names[0].name + ", …"
                raise self.fail(node, msg("subset.import_from", module=module, name=written))
            for alias in node.names:
                if node.level or (node.module or "", alias.name, alias.asname) not in allow.IMPORT_FROM_FORMS:
                    written = alias.name if alias.asname is None else f"{alias.name} as {alias.asname}"
                    raise self.fail(node, msg("subset.import_from", module="." * node.level + (node.module or ""),
                                              name=written))
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
                raise self.fail(node, msg("subset.operator", op=f"{_op_text(node.op)}="))
            if isinstance(node.target, ast.Name):
                self.check_user_name(node.target)
                self.use(node.target)
                self.expr(node.value, depth)
                self.events.append(("def", node.target.id, node.lineno, node.col_offset + 1))
                return
            if isinstance(node.target, ast.Subscript):
                self.param_groups_write(node.target)
                self.expr(node.target.value, depth)
                self.index(node.target.slice, depth)
                self.expr(node.value, depth)
                return
            raise self.fail(node.target, msg("subset.augassign_target"))
        if isinstance(node, ast.With):
            self.with_statement(node, depth)
            return
        if isinstance(node, ast.For):
            self.for_statement(node, depth)
            return
        raise self.refuse_construct(node)

    # -- for loops (issue #16) ---------------------------------------------------------------------------
    def for_statement(self, node: ast.For, depth: int) -> None:
        """`for NAME in ITERABLE:` (or `for a, b in ...`) over `range(...)` or an expression of the subset
        (what it is, a list, a tuple or a module's parameters, is checked when it runs), with a body of
        subset statements. No `else:`, no loop inside a loop (one loop is one step of at most
        ``limits.max_iterations`` iterations)."""
        if self._in_loop:
            raise self.fail(node, msg("subset.for_nested"))
        if node.orelse:
            raise self.fail(node.orelse[0], msg("subset.for_else"))
        iterable = node.iter
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
            if iterable.keywords or not 1 <= len(iterable.args) <= 3:
                raise self.fail(iterable, msg("subset.for_range"))
            for arg in iterable.args:
                if isinstance(arg, ast.Starred):
                    raise self.refuse_construct(arg)
                self.expr(arg, depth)
        else:
            self.expr(iterable, depth)
        target = node.target
        names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        if not names or not all(isinstance(name, ast.Name) for name in names):
            raise self.fail(target, msg("subset.for_target"))
        for name in names:
            assert isinstance(name, ast.Name)
            self.bind(name)
        self._in_loop = True
        try:
            for child in node.body:
                self.statement(child, depth)
        finally:
            self._in_loop = False

    def with_statement(self, node: ast.With, depth: int) -> None:
        if len(node.items) != 1:
            raise self.fail(node, msg("subset.with_one"))
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
            raise self.fail(ctx, msg("subset.with_other", context=dotted(ctx)))
        if item.optional_vars is not None:
            raise self.fail(item.optional_vars, msg("subset.with_as"))
        for child in node.body:
            self.statement(child, depth)

    def target(self, node: ast.expr, depth: int) -> None:
        if isinstance(node, ast.Name):
            self.bind(node)
            return
        if isinstance(node, (ast.Tuple, ast.List)):
            if not node.elts:
                raise self.fail(node, msg("subset.nothing_to_assign"))
            for element in node.elts:
                if not isinstance(element, ast.Name):
                    raise self.fail(element, msg("subset.unpack_names"))
                self.bind(element)
            return
        if isinstance(node, ast.Subscript):
            self.param_groups_write(node)
            self.expr(node.value, depth)
            self.index(node.slice, depth)
            return
        if isinstance(node, ast.Attribute):
            if node.attr not in allow.TENSOR_SETTABLE:
                raise self.fail(node, msg("subset.assign_only", target=dotted(node),
                                          allowed=", ".join(sorted(allow.TENSOR_SETTABLE))))
            self.expr(node.value, depth)
            return
        raise self.fail(node, msg("subset.cannot_assign_here"))

    # -- expressions -----------------------------------------------------------
    def expr(self, node: ast.expr, depth: int, *, hook_argument: bool = False) -> None:
        depth = self.deeper(node, depth)
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float, complex, bool, str, type(None), type(Ellipsis))):
                raise self.fail(node, msg("subset.literal", type=type(node.value).__name__))
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
        if isinstance(node, ast.Dict):
            self.dict_literal(node, depth)
            return
        if isinstance(node, ast.BinOp):
            if not isinstance(node.op, _BINOPS):
                raise self.fail(node, msg("subset.operator", op=_op_text(node.op)))
            self.expr(node.left, depth)
            self.expr(node.right, depth)
            return
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, _UNARYOPS):
                raise self.fail(node, msg("subset.operator", op=_op_text(node.op)))
            self.expr(node.operand, depth)
            return
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                # `1000 is 1000` depends on how Python compiled the file (TensorLab and an exported
                # script would disagree): identity is for names and None, as CPython's warning says.
                if isinstance(op, (ast.Is, ast.IsNot)) and (_literal(left) or _literal(right)):
                    raise self.fail(node, msg("subset.is_literal"))
            for operand in operands:
                self.expr(operand, depth)
            return
        if isinstance(node, ast.Subscript):
            self.expr(node.value, depth)
            self.index(node.slice, depth)
            return
        if isinstance(node, ast.Call):
            self.call(node, depth)
            return
        raise self.refuse_construct(node)

    def dict_literal(self, node: ast.Dict, depth: int) -> None:
        """`{'weight': w}`: keys are string literals (no `**d`, no numbers, names or expressions)."""
        if len(node.keys) > self.limits.max_sequence:
            raise self.fail(node, msg("subset.dict_keys"))
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise self.fail(value, msg("subset.double_star"))
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise self.fail(key, msg("subset.dict_keys"))
            self.expr(value, depth)

    def name(self, node: ast.Name, hook_argument: bool) -> None:
        if is_dunder(node.id):
            raise self.fail(node, msg("subset.dunder", name=node.id))
        if node.id in allow.MODULES:
            raise self.fail(node, msg("subset.module_use", name=written(node)))
        if node.id in allow.BUILTINS:
            if not hook_argument:
                raise self.fail(node, msg("subset.builtin_use", name=node.id))
            return
        self.use(node)

    def attribute(self, node: ast.Attribute, depth: int) -> None:
        name = node.attr
        base = node.value
        if is_dunder(name):
            raise self.fail(node, msg("subset.dunder", name=name))
        if isinstance(base, ast.Name) and base.id == "torch":
            if name not in allow.TORCH_FUNCTIONS and name not in allow.TORCH_DTYPES:
                refusal = msg("subset.not_available", name=f"torch.{name}")
                raise self.fail(node, _near(refusal, name, allow.TORCH_FUNCTIONS | allow.TORCH_DTYPES, "torch."))
            return
        if isinstance(base, ast.Name) and base.id == "copy":
            if name not in allow.COPY_FUNCTIONS:
                raise self.fail(node, msg("subset.copy_only", name=name))
            return
        if isinstance(base, ast.Name) and base.id in allow.MODULE_ALIASES:
            if name not in module_names(base.id):
                raise self.fail(node, msg("subset.not_available", name=f"{written(base)}.{name}"))
            return
        # The base first, so that `torch.hub.load` is refused for `torch.hub`.
        self.expr(base, depth)
        if name.startswith("_") and name not in allow.UNDERSCORE_ALLOWED:
            raise self.fail(node, msg("subset.not_available", name=name))
        if name not in allow.ALL_ATTRIBUTES:
            if name in _LIST_METHODS:   # say what a list does allow, rather than only what it does not
                raise self.fail(node, msg("subset.list_method", what=dotted(node), name=name))
            refusal = msg("subset.not_listed", what=dotted(node), name=name)
            raise self.fail(node, _near(refusal, name, allow.ALL_ATTRIBUTES, dotted(node)[:-len(name)]))

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
                    raise self.fail(func, msg("subset.dunder", name=func.id))
                if func.id in _FOREIGN_NAMES:
                    raise self.fail(func, msg("subset.not_available", name=func.id))
                if func.id in allow.MODULES:
                    raise self.fail(func, msg("subset.cannot_call", name=written(func)))
                # A user name: only a module of the subset may be called (`model(x)`), checked at run time.
                self.use(func)
        elif isinstance(func, (ast.Subscript, ast.Call)):
            self.expr(func, depth)  # `net[0](x)`, `nn.ReLU()(x)`: the same run-time check
        elif isinstance(func, ast.Attribute):
            if func.attr == "type":
                # `device.type` is read; called, `.type(name)` of a storage imports the module it names.
                raise self.fail(func, msg("subset.type_call"))
            self.attribute(func, depth)
            if isinstance(func.value, ast.Name) and func.value.id == "torch" and func.attr in allow.GRAD_MODES:
                raise self.fail(func, msg("subset.grad_mode_call", call=f"torch.{func.attr}()"))
        else:
            raise self.fail(func, msg("subset.only_callables"))
        if isinstance(func, ast.Name) and func.id == "id" and not (
                len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Name)):
            # The id of a temporary or a literal depends on when Python frees and merges objects:
            # TensorLab and the exported script would not agree.
            raise self.fail(func, msg("subset.id_of_name"))
        hook = isinstance(func, ast.Attribute) and func.attr == "register_hook"
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.refuse_construct(arg)
            self.expr(arg, depth, hook_argument=hook)
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.fail(keyword.value, msg("subset.double_star"))
            if is_dunder(keyword.arg):
                raise self.fail(keyword.value, msg("subset.dunder_short", name=keyword.arg))
            self.expr(keyword.value, depth, hook_argument=hook)
        if (isinstance(func, ast.Attribute) and _through_param_groups(func.value)
                and func.attr not in allow.DICT_METHODS):
            raise self.fail(func, msg("subset.param_groups_write"))  # `.append(x)`, `.update(...)` on a group
        self.call_keywords(node)
        self.factory_size(node)

    def call_keywords(self, node: ast.Call) -> None:
        """A call of `nn.`, `F.` or `optim.` takes only its listed keywords and positional arguments."""
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        if not (isinstance(func.value, ast.Name) and func.value.id in allow.MODULE_ALIASES):
            self.method_keywords(node, func)
            return
        key = f"{func.value.id}.{func.attr}" if func.value.id != "F" else f"F.{func.attr}"
        if func.value.id == "nn" and func.attr in allow.NN_CLASSES:
            key = f"nn.{func.attr}"
        problem = keyword_problem(key, len(node.args), [k.arg for k in node.keywords if k.arg is not None],
                                  shown=dotted(func))
        if problem is not None:
            raise self.fail(node, problem)

    def param_groups_write(self, node: ast.expr) -> None:
        """An optimizer's `param_groups` are read, never written: `opt.param_groups[0]['lr'] = 1e9` and
        `opt.param_groups[0]['params'] += [x]` (which would skip the optimizer's own checks) are refused."""
        if _through_param_groups(node):
            raise self.fail(node, msg("subset.param_groups_write"))

    def method_keywords(self, node: ast.Call, func: ast.Attribute) -> None:
        """A module's, optimizer's or dict's method takes only the keywords one of them takes: refused here, when
        the step is checked, as `nn.` calls are (the object's type is known only when it runs; a keyword no kind
        of object takes for that method, like `load_state_dict(assign=True)`, is refused whatever it is)."""
        if func.attr in allow.TENSOR_METHODS:
            return  # a tensor's keywords are checked where tensor calls are
        problem = method_keyword_problem(func.attr, len(node.args),
                                         [k.arg for k in node.keywords if k.arg is not None], dotted(func))
        if problem is not None:
            raise self.fail(node, problem)

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
            raise self.fail(node, exc.message) from None
        except (TypeError, ValueError, OverflowError):
            return  # torch will say what is wrong with the arguments


def _through_param_groups(node: ast.expr) -> bool:
    """Whether ``node`` reads an optimizer's `param_groups` (`opt.param_groups[0]['params']`)."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Attribute) and node.attr == "param_groups":
            return True
        node = node.value
    return False


def module_names(alias: str) -> frozenset[str]:
    """What `nn.`, `F.` and `optim.` may name."""
    return {"nn": allow.NN_CLASSES, "F": allow.FUNCTIONAL, "optim": allow.OPTIMIZERS}.get(alias, frozenset())


def keyword_problem(key: str, positional: int, keywords: list[str], shown: str | None = None) -> Message | None:
    """Why a call of ``key`` ("nn.Linear", "module.load_state_dict") with these arguments is refused, or None.

    ``shown`` is the call as the step wrote it (`model`, `opt.step`), else the key without its kind."""
    entry = allow.CALL_KEYWORDS.get(key)
    if entry is None:
        return None
    most, allowed = entry
    call = shown if shown is not None else key.split(".", 1)[-1] if key.startswith(("module.", "optimizer.",
                                                                                   "dict.")) else key
    return _arguments_problem(call, most, allowed, positional, keywords)


def _arguments_problem(call: str, most: int, allowed: frozenset[str], positional: int,
                       keywords: list[str]) -> Message | None:
    for keyword in keywords:
        if keyword not in allowed:
            if not allowed:
                return msg("subset.keyword_none", call=call, keyword=keyword)
            return msg("subset.keyword", call=call, keyword=keyword, allowed=", ".join(sorted(allowed)))
    if positional > most:
        return msg("subset.positional", call=call, count=positional, limit=most)
    return None


def method_keyword_problem(name: str, positional: int, keywords: list[str], shown: str) -> Message | None:
    """Why ``obj.name(...)`` is refused whatever ``obj`` is (a module, an optimizer or a dict), or None.

    The keywords and positional arguments of every kind that has the method are taken together: what none of
    them takes is refused before the step runs; the run time check of the object's own kind stays."""
    entries = [entry for key, entry in allow.CALL_KEYWORDS.items()
               if key.startswith(("module.", "optimizer.", "dict.")) and key.split(".", 1)[1] == name]
    if not entries:
        return None
    most = max(entry[0] for entry in entries)
    allowed = frozenset().union(*(entry[1] for entry in entries))
    return _arguments_problem(shown, most, allowed, positional, keywords)


class _NotConstant(Exception):
    pass


def _literal(node: ast.expr) -> bool:
    """Whether ``node`` makes a new object each time Python reads it, or one the compiler may share."""
    if isinstance(node, ast.Constant):
        return not (node.value is None or node.value is Ellipsis or isinstance(node.value, bool))
    return isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.JoinedStr, ast.ListComp, ast.SetComp,
                             ast.DictComp, ast.GeneratorExp))


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

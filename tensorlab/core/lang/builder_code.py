"""The statements the builder widgets write.

Each builder turns a few choices into one line of the code subset, so that
widgets, lessons and the code panel speak one language. Bad input raises
:class:`BuilderError` with a message that names the problem; every line produced
is still parsed and checked by :mod:`tensorlab.core.lang.parse` before it runs.
"""

from __future__ import annotations

import ast
import keyword
import math
import re

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.messages.catalogue import Message, MessageError, msg

__all__ = [
    "BuilderError",
    "FACTORIES",
    "DTYPES",
    "COPY_OPERATIONS",
    "MUTATIONS",
    "augmentable",
    "mutations_for",
    "COMPUTATIONS",
    "create_code",
    "copy_code",
    "mutate_code",
    "compute_code",
    "backward_code",
    "check_name",
    "check_operand",
]


class BuilderError(MessageError, ValueError):
    """A builder's input cannot make a statement; the message says which field and why."""


def _field(what: str) -> Message:
    """The field a builder checks ("target_name"), as the catalogue names it."""
    return msg("builder.field." + what.replace(" ", "_").replace("-", "_"))


def check_operand(text: str, what: str = "name") -> str:
    """A tensor a builder reads: a name, or the expression of a row that reaches a tensor inside a container
    or a module (`parts[0]`, `sd['weight']`, `net[0].bias`: contract 3), or :class:`BuilderError`."""
    text = text.strip()
    if not text or text.isidentifier() or keyword.iskeyword(text):
        return check_name(text, what)
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise BuilderError(msg("builder.invalid_name", name=text, field=_field(what))) from None
    node = tree
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                raise BuilderError(msg("builder.invalid_name", name=text, field=_field(what)))
        elif not (isinstance(node.slice, ast.Constant) and type(node.slice.value) in (int, str)):
            raise BuilderError(msg("builder.invalid_name", name=text, field=_field(what)))
        node = node.value
    if node is tree or not isinstance(node, ast.Name):
        raise BuilderError(msg("builder.invalid_name", name=text, field=_field(what)))
    check_name(node.id, what)
    return text


FACTORIES = ("ones", "zeros", "full", "arange", "rand", "randn", "values")
DTYPES = ("float32", "float64", "float16", "bfloat16", "complex64", "int64", "int32", "uint8", "bool")
FLOATING = frozenset({"float32", "float64", "float16", "bfloat16", "complex64"})

COPY_OPERATIONS = (
    "=", "clone()", "detach()", "clone().detach()", "detach().clone()", ".data", "view(...)",
    "slice", ".t()", ".to(dtype)", "torch.tensor(src)", "copy.deepcopy",
)
MUTATIONS = ("x[i] = v", "zero_()", "fill_(v)", "add_(v)", "mul_(v)", "+= v")
COMPUTATIONS = ("(a + b).sum()", "(a * b).sum()", "a * k", "a ** 2", "a.sigmoid()", "a.sum()",
                "a.mean()")


def check_name(name: str, what: str = "name") -> str:
    """A valid new name for a result, or :class:`BuilderError`."""
    name = name.strip()
    if not name:
        raise BuilderError(msg("builder.empty", field=_field(what)))
    if not name.isidentifier() or keyword.iskeyword(name):
        raise BuilderError(msg("builder.invalid_name", name=name, field=_field(what)))
    if name.startswith("__") or name.endswith("__"):
        raise BuilderError(msg("subset.dunder_short", name=name))
    if name in allow.RESERVED_NAMES:
        raise BuilderError(msg("builder.reserved", name=name))
    return name


def parse_shape(text: str) -> tuple[int, ...]:
    """`"2, 3"`, `"(2, 3)"` or `"5"` as a shape; `""` is a 0-d tensor."""
    cleaned = text.strip().strip("()[]").strip()
    if not cleaned:
        return ()
    parts = [p.strip() for p in cleaned.split(",") if p.strip()]
    try:
        shape = tuple(int(p) for p in parts)
    except ValueError:
        raise BuilderError(msg("builder.shape_numbers", text=text)) from None
    if any(s < 0 for s in shape):
        raise BuilderError(msg("builder.shape_negative", text=text))
    return shape


def parse_number(text: str, what: str = "value") -> str:
    """A number as it will be written in code (`5`, `-1.5`, `True`), or :class:`BuilderError`."""
    cleaned = text.strip()
    if cleaned in ("True", "False"):
        return cleaned
    try:
        value = float(cleaned)
    except ValueError:
        raise BuilderError(msg("builder.not_number", field=_field(what), text=text)) from None
    if not math.isfinite(value):
        raise BuilderError(msg("builder.not_finite", field=_field(what), text=text))
    return cleaned


def _index(text: str, what: str) -> str:
    """An index typed by the user (`1:3`, `0`, `:, 1`); calls and assignments are refused here."""
    if any(c in text for c in "()=;\n") or text.count("[") != text.count("]"):
        raise BuilderError(msg("builder.index", field=_field(what), text=text))
    return text


def _view_args(text: str) -> str:
    """`2, -1` for view(): whole numbers, at most one of them -1."""
    parts = [p.strip() for p in text.strip().strip("()[]").split(",") if p.strip()]
    try:
        sizes = [int(p) for p in parts]
    except ValueError:
        raise BuilderError(msg("builder.view_numbers", text=text)) from None
    if not sizes or sizes.count(-1) > 1 or any(s < -1 for s in sizes):
        raise BuilderError(msg("builder.view_one_minus", text=text))
    return ", ".join(map(str, sizes))


def _dtype_arg(dtype: str) -> str:
    if dtype not in DTYPES:
        raise BuilderError(msg("builder.unknown", kind=msg("builder.kind.dtype"), text=dtype))
    return f"torch.{dtype}"


def _shape_args(shape: tuple[int, ...]) -> str:
    return ", ".join(map(str, shape))


def _shape_tuple(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _values_literal(text: str, floating: bool) -> str:
    """A nested list of numbers typed by the user, re-written as a clean literal."""
    source = text.strip()
    if not source:
        raise BuilderError(msg("builder.values_empty"))
    if not source.startswith("["):
        source = f"[{source}]"
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError:
        raise BuilderError(msg("builder.values_not_list", text=text)) from None

    def render(node: ast.expr) -> str:
        if isinstance(node, ast.List):
            return "[" + ", ".join(render(e) for e in node.elts) + "]"
        sign = ""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            sign, node = "-", node.operand
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, bool)):
            value = node.value
            if isinstance(value, bool):
                return str(value)
            if floating and isinstance(value, int):
                return f"{sign}{value}.0"
            return f"{sign}{value!r}"
        raise BuilderError(msg("builder.values_numbers", text=text))

    return render(tree)


def create_code(name: str, factory: str, shape: str = "5", dtype: str = "float32",
                requires_grad: bool = False, fill: str = "0", values: str = "") -> str:
    """`x = torch.ones(5, requires_grad=True)` and the other factories."""
    name = check_name(name)
    if factory not in FACTORIES:
        raise BuilderError(msg("builder.unknown", kind=msg("builder.kind.factory"), text=factory))
    kwargs = []
    if dtype != "float32" or factory in ("arange",):
        kwargs.append(f"dtype={_dtype_arg(dtype)}")
    grad = ", requires_grad=True" if requires_grad else ""
    extra = (", " + ", ".join(kwargs)) if kwargs else ""
    if factory == "values":
        literal = _values_literal(values, dtype in FLOATING)
        dtype_kw = "" if dtype == "float32" and "." in literal else f", dtype={_dtype_arg(dtype)}"
        return f"{name} = torch.tensor({literal}{dtype_kw}{grad})"
    dims = parse_shape(shape)
    if factory == "full":
        return f"{name} = torch.full({_shape_tuple(dims)}, {parse_number(fill, 'fill_value')}{extra}{grad})"
    if factory == "arange":
        count = math.prod(dims) if dims else 1
        if len(dims) <= 1:
            return f"{name} = torch.arange({count}{extra}{grad})"
        tail = ".requires_grad_()" if requires_grad else ""
        return f"{name} = torch.arange({count}{extra}).reshape({_shape_args(dims)}){tail}"
    return f"{name} = torch.{factory}({_shape_args(dims)}{extra}{grad})"


def copy_code(target: str, source: str, operation: str, argument: str = "", follow_up: str = "") -> str:
    """`y = x.clone() * 2` and the other copies, views and conversions."""
    target = check_name(target, "target_name")
    source = check_operand(source, "source_tensor")
    if operation not in COPY_OPERATIONS:
        raise BuilderError(msg("builder.unknown", kind=msg("builder.kind.copy"), text=operation))
    argument = argument.strip()
    if operation == "=":
        expression = source
    elif operation == ".data":
        expression = f"{source}.data"
    elif operation == "view(...)":
        expression = f"{source}.view({_view_args(argument or '-1')})"
    elif operation == "slice":
        expression = f"{source}[{_index(argument or '1:3', 'slice')}]"
    elif operation == ".t()":
        expression = f"{source}.t()"
    elif operation == ".to(dtype)":
        expression = f"{source}.to({_dtype_arg(argument or 'float64')})"
    elif operation == "torch.tensor(src)":
        expression = f"torch.tensor({source})"
    elif operation == "copy.deepcopy":
        expression = f"copy.deepcopy({source})"
    else:
        expression = f"{source}.{operation}"
    return f"{target} = {expression}{_follow_up(follow_up)}"


# The follow-up ("then") of a copy: an operator and a number, spaced or not (`* 2`, `*2`, `**2`), or the
# method that names the operator (`.mul(2)`).
_FOLLOW_OPERATOR = re.compile(r"(\*\*|[*+\-/])\s*(\S.*)")
_FOLLOW_METHOD = re.compile(r"\.(mul|add|sub|div|pow)\(\s*([^()]*?)\s*\)")


def _follow_up(text: str) -> str:
    """The code written after a copy's expression for its follow-up ``text`` ("" for none)."""
    text = text.strip()
    if not text:
        return ""
    operator = _FOLLOW_OPERATOR.fullmatch(text)
    if operator is not None:
        return f" {operator.group(1)} {parse_number(operator.group(2), 'follow_up_number')}"
    method = _FOLLOW_METHOD.fullmatch(text)
    if method is not None:
        return f".{method.group(1)}({parse_number(method.group(2), 'follow_up_number')})"
    raise BuilderError(msg("builder.follow_up", text=text))


def augmentable(target: str) -> bool:
    """Whether the language lets ``target`` be updated with `+=`: a name or an item (`x`, `parts[0]`), not an
    attribute (`net[0].weight`: Python would assign the result back to the module's attribute)."""
    target = target.strip()
    return target.isidentifier() or target.endswith("]")


def mutations_for(target: str) -> tuple[str, ...]:
    """The in-place operations the language accepts on ``target`` (the Mutate builder offers only these)."""
    return MUTATIONS if augmentable(target) else tuple(m for m in MUTATIONS if m != "+= v")


def mutate_code(target: str, operation: str, index: str = "0", value: str = "1", no_grad: bool = False) -> str:
    """`x[0] = 5`, `x.add_(1)`, ... optionally inside `with torch.no_grad():`."""
    target = check_operand(target, "target_tensor")
    if operation not in MUTATIONS:
        raise BuilderError(msg("builder.unknown", kind=msg("builder.kind.mutation"), text=operation))
    if operation == "+= v" and not augmentable(target):
        raise BuilderError(msg("subset.augassign_target"))   # `net[0].bias += 1`: the language's own rule
    if operation == "x[i] = v":
        line = f"{target}[{_index(index.strip() or '0', 'index')}] = {parse_number(value)}"
    elif operation == "zero_()":
        line = f"{target}.zero_()"
    elif operation == "+= v":
        line = f"{target} += {parse_number(value)}"
    else:
        line = f"{target}.{operation[:-3]}({parse_number(value)})"
    if no_grad:
        return f"with torch.no_grad():\n    {line}"
    return line


def compute_code(target: str, computation: str, a: str, b: str = "", k: str = "2") -> str:
    """`s = (x + y).sum()` and the other small computations."""
    target = check_name(target, "result_name")
    a = check_operand(a, "first_operand")
    if computation not in COMPUTATIONS:
        raise BuilderError(msg("builder.unknown", kind=msg("builder.kind.computation"), text=computation))
    if "b" in computation.replace("a.", ""):
        b = check_operand(b, "second_operand")
    if computation == "(a + b).sum()":
        expression = f"({a} + {b}).sum()"
    elif computation == "(a * b).sum()":
        expression = f"({a} * {b}).sum()"
    elif computation == "a * k":
        expression = f"{a} * {parse_number(k, 'factor_k')}"
    elif computation == "a ** 2":
        expression = f"{a} ** 2"
    else:
        expression = f"{a}{computation[1:]}"
    return f"{target} = {expression}"


def backward_code(target: str) -> str:
    """`s.backward()`."""
    return f"{check_operand(target, 'tensor')}.backward()"

"""Run checked statements by walking their tree.

Only trees accepted by :mod:`tensorlab.core.lang.parse` reach this module. Every
attribute is checked again against the type of the object it is read from, and
sizes are checked before torch allocates, so a name allowed on a tensor cannot be
reached on anything else and one line cannot exhaust the machine.
"""

from __future__ import annotations

import ast
import copy
import itertools
import operator
import types
from collections.abc import Callable, ItemsView, Iterable, KeysView, MutableSequence, Sequence, Sized, ValuesView
from typing import Any

import torch

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.lang.parse import dotted
from tensorlab.core.lang.subset_rules import keyword_problem, module_names, written
from tensorlab.core.messages.catalogue import MessageError, msg
from tensorlab.core.observe.reprs import bounded_str
from tensorlab.core.protocol.limits import LimitError, Limits
from tensorlab.core.sandbox import nn_rules
from tensorlab.core.sandbox.guard import Guard

__all__ = ["Interpreter", "TensorLabError", "NO_VALUE", "ORIGIN", "raised_by_interpreter", "raised_by_operation"]


class TensorLabError(MessageError):
    """TensorLab refused something while running a step (not an error of torch)."""


class _NoValue:
    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()

# Where an exception of a step came from (for export: only what the step's own operation raised, as
# plain Python would raise it, may be written as code that raises; anything TensorLab raised means the
# statement was refused). Set on the exception object where it is raised, never read from its text.
ORIGIN = "_tensorlab_origin"
_OPERATION, _TENSORLAB = "operation", "tensorlab"


def _mark(exc: BaseException, origin: str) -> None:
    """Say where ``exc`` was raised, unless something nearer to its raise said it first."""
    if not isinstance(exc, MessageError) and getattr(exc, ORIGIN, None) is None:
        try:
            setattr(exc, ORIGIN, origin)
        except (AttributeError, TypeError):  # pragma: no cover - an exception without a __dict__
            pass


def _own(exc: BaseException) -> BaseException:
    """``exc``, raised by TensorLab itself (a check of its own that reads like Python's error)."""
    _mark(exc, _TENSORLAB)
    return exc


_BEGUN = [0]   # operations begun in this process that change some state (see _changes_state)
# Calls that change state a later step can read: autograd's, and torch's random draws (the generator moves).
_CHANGING = frozenset({"backward", "retain_grad", "register_hook", "rand", "randn", "randint", "randperm",
                       "rand_like", "randn_like", "randint_like", "normal", "bernoulli", "multinomial", "poisson"})


def _changes_state(function: Callable[..., Any]) -> bool:
    """Whether calling ``function`` may change what a later step reads: an in-place method (`add_`,
    `requires_grad_`), autograd's calls, a random draw. Reading (`untyped_storage()`, `clone()`) does not."""
    name = getattr(function, "__name__", "")
    return (name.endswith("_") and not name.startswith("_")) or name in _CHANGING


def _operation(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)``: one operation the step itself asks for (torch's, or Python's own
    on the step's values), which plain Python runs the same way; what it raises is the operation's."""
    if _changes_state(function):
        _BEGUN[0] += 1
    try:
        return function(*args, **kwargs)
    except (RecursionError, MemoryError) as exc:
        # How deep Python may go and how much it may take depend on TensorLab's own frames and limits:
        # plain Python may well finish this operation, so it counts as TensorLab's, not the step's.
        _mark(exc, _TENSORLAB)
        raise
    except Exception as exc:
        _mark(exc, _OPERATION)
        raise


def raised_by_interpreter(exc: BaseException) -> bool:
    """Whether TensorLab's interpreter raised ``exc`` itself in Python's words (a check of its own)."""
    return not isinstance(exc, MessageError) and getattr(exc, ORIGIN, None) == _TENSORLAB


def raised_by_operation(exc: BaseException) -> bool:
    """Whether ``exc`` came out of the step's own operation (torch or Python raised it, as plain Python
    would), not from TensorLab (a refusal, a check, the guard, a limit, anything else)."""
    return not isinstance(exc, MessageError) and getattr(exc, ORIGIN, None) == _OPERATION

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.MatMult: operator.matmul,
}
_INPLACE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.iadd, ast.Sub: operator.isub, ast.Mult: operator.imul,
    ast.Div: operator.itruediv, ast.FloorDiv: operator.ifloordiv, ast.Mod: operator.imod,
    ast.Pow: operator.ipow, ast.MatMult: operator.imatmul,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}

def _allowed_on(obj: object) -> frozenset[str]:
    """The attribute names TensorLab may read on ``obj``, by its type."""
    if isinstance(obj, torch.Tensor):
        return allow.TENSOR_METHODS | allow.TENSOR_ATTRIBUTES
    if isinstance(obj, (torch.UntypedStorage, torch.TypedStorage)):
        return allow.STORAGE_ATTRIBUTES
    if isinstance(obj, torch.autograd.graph.Node):
        return allow.GRAD_FN_ATTRIBUTES
    if isinstance(obj, torch.device):
        return allow.DEVICE_ATTRIBUTES
    if isinstance(obj, torch.dtype):
        return allow.DTYPE_ATTRIBUTES
    trained = nn_rules.allowed_on(obj)  # modules, optimizers, dicts: each class its own list
    if trained is not None:
        return trained
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy is a dependency
        return frozenset()
    if isinstance(obj, numpy.ndarray):
        return allow.NUMPY_ATTRIBUTES
    return frozenset()


def _check_attribute(obj: object, name: str) -> None:
    """Refuse reading ``name`` on ``obj`` unless its type's allowlist has it.

    Where the type has no such attribute at all, Python's own AttributeError is
    raised, so that `x.grad.zero_()` with no grad reads as it would in plain torch.
    """
    if name in _allowed_on(obj):
        return
    # A module's parameters and an optimizer's state live on the object, not its type (TensorLab reads them).
    trained = nn_rules.is_module(obj) or nn_rules.is_optimizer(obj)
    if not (hasattr(obj, name) if trained else hasattr(type(obj), name)):
        raise _own(AttributeError(f"'{type(obj).__name__}' object has no attribute '{name}'"))
    kind = msg("subset.type.tensor") if isinstance(obj, torch.Tensor) else msg("subset.type.other",
                                                                                name=_type_name(obj))
    raise TensorLabError(msg("subset.not_on_type", name=name, type=kind))


_DICT_VIEWS = (dict, KeysView, ValuesView, ItemsView)   # a dict's own views are these ABCs' subclasses


def _range_length(steps: range) -> int:
    """How many numbers ``steps`` has (``len`` overflows past ``sys.maxsize``)."""
    start, stop, step = steps.start, steps.stop, steps.step
    if step > 0:
        return max(0, (stop - start + step - 1) // step)
    return max(0, (start - stop - step - 1) // -step)


def count_text(count: int) -> str:
    """A count for a message, with thousands separators (a huge one as a power of ten)."""
    return f"{count:,}" if count < 10**12 else f"{count:.1e}"


_ALIASED: dict[str, Any] = {"nn": torch.nn, "F": torch.nn.functional, "optim": torch.optim}
_MAX_KEY = 200  # characters of a dict key a step may make (keys are shown and exported)


def _check_item(container: Any, index: Any, assigning: bool = False) -> None:
    """A dict takes string keys only (`sd['weight']`); a module's items are read, never written."""
    if isinstance(container, dict):
        if not isinstance(index, str):
            raise TensorLabError(msg("subset.dict_key_type", type=_type_name(index)))
        if assigning and len(index) > _MAX_KEY:
            raise TensorLabError(msg("subset.dict_key_long", length=len(index), limit=_MAX_KEY))
    elif assigning and isinstance(container, torch.nn.Module):
        raise TensorLabError(msg("subset.module_item"))


def _type_name(obj: object) -> str:
    if obj is None:
        return "None"
    if isinstance(obj, torch.Tensor):
        return "tensor"
    return type(obj).__name__


class Interpreter:
    """Executes statements of the subset against a namespace of user names."""

    def __init__(self, namespace: dict[str, Any], limits: Limits, write: Callable[[str, bool], None]) -> None:
        self.namespace = namespace
        self.limits = limits
        self.write = write
        self._builtins: dict[str, Callable[..., Any]] = {"print": self._print, "len": len, "id": id}
        # register_hook takes TensorLab's print, len and id only (list is no hook).
        self.guard = Guard(namespace, limits, tuple(self._builtins.values()))
        self._builtins["list"] = list
        # Statements started since run_statement, in source order (a `with` block's lines count):
        # after an error, the position of the one that raised.
        self.started = 0
        self.line = 1
        self._begun_before = 0
        # The loops of the statement now running (or that just stopped): iterations that ran to their end
        # (None: the statement has no loop), and the iteration a stop came in, as (k, n): n the length the
        # object had then, None when the stop was the iteration limit itself (a list the body grows).
        self.iterations: int | None = None
        self.stopped_in: tuple[int, int | None] | None = None
        self._loop_ran = False
        # Where the running loop is, for a process that may be killed mid-loop (the worker's 10 s limit):
        # [iteration, count or -1], shared memory the engine reads after the kill; 0 outside a loop.
        self.loop_watch: MutableSequence[int] | None = None

    def _watch(self, iteration: int, count: int | None) -> None:
        if self.loop_watch is not None:
            self.loop_watch[1] = -1 if count is None else count
            self.loop_watch[0] = iteration

    def partly_ran(self) -> bool:
        """Whether the statement now running (or that just stopped) began an operation that changes state:
        then a refusal came after some of it ran (a value drawn, a flag set, a loop's names bound by the
        iterations that ran), which an export cannot replay."""
        return _BEGUN[0] > self._begun_before or self._loop_ran

    def run_statement(self, node: ast.stmt) -> Any:
        """Run one top-level statement (a `with` block, a `for` loop is one): its cost is counted from zero."""
        self.started = 0
        self._begun_before = _BEGUN[0]
        self.iterations = None
        self.stopped_in = None
        self._loop_ran = False
        self._watch(0, None)
        self.guard.start()
        return self.execute(node)

    # -- statements ------------------------------------------------------------
    def execute(self, node: ast.stmt) -> Any:
        """Run one statement; return the value of an expression statement, else NO_VALUE."""
        self.started += 1
        self.line = getattr(node, "lineno", 1)   # after an error, the line (of the step) of the one that raised
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return NO_VALUE  # the language accepted only the contract's forms; the names are TensorLab's own
        if isinstance(node, ast.Expr):
            return self.evaluate(node.value)
        if isinstance(node, ast.Assign):
            value = self.evaluate(node.value)
            for target in node.targets:
                self.assign(target, value)
            return NO_VALUE
        if isinstance(node, ast.AugAssign):
            self.augmented(node)
            return NO_VALUE
        if isinstance(node, ast.With):
            mode = getattr(torch, node.items[0].context_expr.func.attr)  # type: ignore[attr-defined]
            with mode():
                for child in node.body:
                    self.execute(child)
            return NO_VALUE
        if isinstance(node, ast.For):
            self.loop(node)
            return NO_VALUE
        raise TensorLabError(msg("subset.not_available", name=type(node).__name__))

    # -- for loops ---------------------------------------------------------------
    def loop(self, node: ast.For) -> None:
        """Run a `for` loop as Python does, at most ``limits.max_iterations`` iterations counted as they run.

        The loop reads its object with Python's own iterator, live: an item the body changes is seen, a
        list the body grows loops longer and one it shrinks ends where Python's would, a dict the body
        resizes raises Python's own RuntimeError at the next item. An iteration past the limit (the
        1,001st) is stopped before its body runs. Before each iteration after the first, the guard's count
        of the statement's cost so far and the costliest iteration yet say whether the rest may still fit:
        the first iteration's cost times the iterations left (the object's length now) over the statement's
        limit is refused before the second begins. A stop leaves the names as the iterations that ran left them, with
        the target bound to the item of the iteration stopped (Python binds it as an iteration begins).
        """
        # A loop refused before its first iteration (too many, a tensor) ran 0 iterations: the JSON says so.
        self.iterations = self.iterations or 0
        items, count = self.loop_items(node.iter)
        limit = self.limits.max_iterations
        before = self.guard.cost
        costliest = 0
        live = _operation(iter, items)
        number = 0
        while True:
            known = len(items) if isinstance(items, Sized) else count   # a list the body resized: its length now
            self.stopped_in = (number + 1, known)
            self._watch(number + 1, known)
            item = _operation(next, live, NO_VALUE)   # a dict resized by the body: Python's RuntimeError here
            if item is NO_VALUE:
                break
            # Python binds the target as the iteration begins: a stop before its body leaves it bound too.
            self.assign(node.target, item)
            self._loop_ran = True
            if number >= limit:   # Python would run this iteration: TensorLab stops before its body
                self.stopped_in = (number + 1, None)
                raise LimitError(msg("limit.loop_ran_over", iteration=f"{number + 1:,}", limit=limit))
            if number:
                left = max(known - number, 1)
                if self.guard.cost + costliest * left > self.limits.max_cost:
                    raise LimitError(msg("limit.loop_cost", iteration=number + 1, count=known,
                                         cost=f"{self.guard.cost + costliest * left:.1e}",
                                         limit=f"{self.limits.max_cost:.0e}"))
            for child in node.body:
                self.execute(child)
            spent = self.guard.cost - before
            before = self.guard.cost
            costliest = max(costliest, spent)
            self.iterations += 1
            number += 1
        self.stopped_in = None
        self._watch(0, None)

    def loop_items(self, node: ast.expr) -> tuple[Sequence[Any] | Iterable[Any], int]:
        """What a loop iterates (read by position) and how many iterations it may run, refused up front when
        that is over the limit or the value is not a range, a list, a tuple or a module's parameters."""
        limit = self.limits.max_iterations
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            bounds = [self.evaluate(a) for a in node.args]
            steps = _operation(range, *bounds)   # Python's own TypeError for a bound that is not an integer
            count = _range_length(steps)
            if count > limit:
                raise LimitError(msg("limit.loop_iterations", count=count_text(count), limit=limit))
            return steps, count
        value = self.evaluate(node)
        if isinstance(value, torch.Tensor):
            raise TensorLabError(msg("subset.for_tensor", code=dotted(node)))
        if isinstance(value, (list, tuple)):
            if len(value) > limit:
                raise LimitError(msg("limit.loop_iterations", count=count_text(len(value)), limit=limit))
            return value, len(value)
        if isinstance(value, _DICT_VIEWS):   # `for key in sd`, `for key, value in sd.items()`
            if len(value) > limit:
                raise LimitError(msg("limit.loop_iterations", count=count_text(len(value)), limit=limit))
            return value, len(value)
        if isinstance(value, types.GeneratorType):   # what an allowlisted method returns (`model.parameters()`)
            # Read once up front: no statement of the subset adds or removes a module's parameters, so the
            # generator yields what it would yield live, and the loop knows how many iterations are left.
            items = _operation(list, itertools.islice(value, limit + 1))
            if len(items) > limit:
                raise LimitError(msg("limit.loop_iterations", count=f"> {limit:,}", limit=limit))
            return items, len(items)
        raise TensorLabError(msg("subset.for_iterable", code=dotted(node), type=_type_name(value)))

    def assign(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.namespace[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            names = [element.id for element in target.elts]  # type: ignore[attr-defined]
            self.guard.iterate(value, whole=False)  # a tensor is unbound whole before the first item
            if not hasattr(type(value), "__iter__") and not hasattr(type(value), "__getitem__"):
                raise _own(TypeError(f"cannot unpack non-iterable {_type_name(value)} object"))
            iterator = _operation(iter, value)  # a 0-d tensor raises torch's own TypeError, as in plain Python
            items = _operation(list, itertools.islice(iterator, len(names) + 1))
            if len(items) < len(names):
                raise _own(ValueError(f"not enough values to unpack (expected {len(names)}, got {len(items)})"))
            if len(items) > len(names):
                raise _own(ValueError(f"too many values to unpack (expected {len(names)})"))
            for name, item in zip(names, items):
                self.namespace[name] = item
        elif isinstance(target, ast.Subscript):
            container = self.evaluate(target.value)
            index = self.index(target.slice)
            self.refuse_param_group(container)
            _check_item(container, index, assigning=True)
            self.guard.subscript(container, index, value, assigning=True)
            _operation(operator.setitem, container, index, value)
        elif isinstance(target, ast.Attribute):
            obj = self.evaluate(target.value)
            if not isinstance(obj, torch.Tensor) or target.attr not in allow.TENSOR_SETTABLE:
                raise TensorLabError(msg("subset.cannot_assign", target=dotted(target)))
            _operation(setattr, obj, target.attr, value)
        else:  # pragma: no cover - the language refuses other targets
            raise TensorLabError(msg("subset.cannot_assign_here"))

    def refuse_param_group(self, container: Any) -> None:
        """An optimizer's `param_groups` (the list, a group, a group's `params`) are read only, also when a name
        holds them (`g = opt.param_groups[0]; g['lr'] = 1e9`); the check when the step is read sees `opt.`."""
        if not isinstance(container, (list, dict)):
            return
        for value in list(self.namespace.values()):
            if not isinstance(value, torch.optim.Optimizer):
                continue
            groups = value.param_groups
            if container is groups or any(container is g or container is g.get("params") for g in groups):
                raise TensorLabError(msg("subset.param_groups_write"))

    def augmented(self, node: ast.AugAssign) -> None:
        update = _INPLACE[type(node.op)]
        if isinstance(node.target, ast.Name):
            current = self.lookup(node.target.id)
            value = self.evaluate(node.value)
            self.refuse_param_group(current)  # `ps = opt.param_groups[0]['params']; ps += [x]` grows it in place
            self.guard.binary(node.op, current, value, inplace=True)
            self.namespace[node.target.id] = _operation(update, current, value)
            return
        target = node.target
        assert isinstance(target, ast.Subscript)
        container = self.evaluate(target.value)
        index = self.index(target.slice)
        value = self.evaluate(node.value)
        self.refuse_param_group(container)
        _check_item(container, index, assigning=True)
        self.guard.subscript(container, index)
        current = _operation(operator.getitem, container, index)
        self.guard.binary(node.op, current, value, inplace=True)
        _operation(operator.setitem, container, index, _operation(update, current, value))

    # -- expressions -----------------------------------------------------------
    def lookup(self, name: str) -> Any:
        try:
            return self.namespace[name]
        except KeyError:
            # Python's own error, as plain torch code would raise it.
            raise _own(NameError(f"name '{name}' is not defined")) from None

    def evaluate(self, node: ast.expr) -> Any:
        """The value of an expression of the subset."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self._builtins:
                return self._builtins[node.id]
            return self.lookup(node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.List):
            values = [self.evaluate(e) for e in node.elts]
            return values
        if isinstance(node, ast.Tuple):
            return tuple(self.evaluate(e) for e in node.elts)
        if isinstance(node, ast.Dict):
            # String keys only (the language checked them); values in order, as Python evaluates them.
            return {key.value: self.evaluate(value)  # type: ignore[union-attr]
                    for key, value in zip(node.keys, node.values)}
        if isinstance(node, ast.BinOp):
            left = self.evaluate(node.left)
            right = self.evaluate(node.right)
            self.guard.binary(node.op, left, right)
            return _operation(_BINARY[type(node.op)], left, right)
        if isinstance(node, ast.UnaryOp):
            operand = self.evaluate(node.operand)
            self.guard.unary(operand, node.op)
            return _operation(_UNARY[type(node.op)], operand)
        if isinstance(node, ast.Compare):
            left = self.evaluate(node.left)
            result: Any = True
            for op, comparator in zip(node.ops, node.comparators):
                right = self.evaluate(comparator)
                self.guard.compare(op, left, right)
                result = _operation(_COMPARE[type(op)], left, right)
                if len(node.ops) > 1 and not result:
                    return result
                left = right
            return result
        if isinstance(node, ast.Subscript):
            container = self.evaluate(node.value)
            index = self.index(node.slice)
            _check_item(container, index)
            self.guard.subscript(container, index)
            return self.guard.result(_operation(operator.getitem, container, index))
        if isinstance(node, ast.Call):
            return self.call(node)
        raise TensorLabError(msg("subset.not_available", name=type(node).__name__))

    def index(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Slice):
            parts = (node.lower, node.upper, node.step)
            return slice(*(None if p is None else self.evaluate(p) for p in parts))
        if isinstance(node, ast.Tuple):
            return tuple(self.index(e) for e in node.elts)
        return self.evaluate(node)

    def attribute(self, node: ast.Attribute) -> Any:
        name = node.attr
        base = node.value
        if isinstance(base, ast.Name) and base.id == "torch":
            if name not in allow.TORCH_FUNCTIONS and name not in allow.TORCH_DTYPES:
                raise TensorLabError(msg("subset.not_available", name=f"torch.{name}"))
            return getattr(torch, name)
        if isinstance(base, ast.Name) and base.id == "copy":
            if name not in allow.COPY_FUNCTIONS:
                raise TensorLabError(msg("subset.not_available", name=f"copy.{name}"))
            return copy.deepcopy
        if isinstance(base, ast.Name) and base.id in allow.MODULE_ALIASES:
            if name not in module_names(base.id):
                raise TensorLabError(msg("subset.not_available", name=f"{written(base)}.{name}"))
            return getattr(_ALIASED[base.id], name)
        obj = self.evaluate(base)
        _check_attribute(obj, name)
        return _operation(getattr, obj, name)

    def call(self, node: ast.Call) -> Any:
        func_node = node.func
        owner: Any = None
        if isinstance(func_node, ast.Name) and func_node.id in self._builtins:
            function = self._builtins[func_node.id]
            name = func_node.id
        elif isinstance(func_node, (ast.Name, ast.Subscript, ast.Call)):
            return self.call_module(node, self.evaluate(func_node))
        else:
            assert isinstance(func_node, ast.Attribute)
            name = func_node.attr
            base = func_node.value
            if isinstance(base, ast.Name) and base.id in allow.MODULES:
                function = self.attribute(func_node)
                owner = base.id
            else:
                owner = self.evaluate(base)
                _check_attribute(owner, name)
                function = _operation(getattr, owner, name)
        args = [self.evaluate(a) for a in node.args]
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            assert keyword.arg is not None  # the language has no `**` unpacking (subset_rules)
            kwargs[keyword.arg] = self.evaluate(keyword.value)
        key = nn_rules.call_key(owner, name) if not isinstance(owner, str) else None
        if key is not None or function is list:
            problem = keyword_problem(key or "list", len(args), list(kwargs))
            if problem is not None:
                raise TensorLabError(problem)
        self.guard.call(owner, name, args, kwargs)
        if function is self._builtins["print"]:   # TensorLab's own print: what it raises is TensorLab's
            return self.guard.result(function(*args, **kwargs))
        return self.guard.result(_operation(function, *args, **kwargs))

    def call_module(self, node: ast.Call, module: Any) -> Any:
        """`model(x)`, `net[0](x)`: only a module of the subset may be called, with one tensor."""
        if not nn_rules.is_module(module):
            raise TensorLabError(msg("subset.call_value", type=_type_name(module), code=dotted(node.func)))
        args = [self.evaluate(a) for a in node.args]
        kwargs = {k.arg: self.evaluate(k.value) for k in node.keywords if k.arg is not None}
        problem = keyword_problem("module()", len(args), list(kwargs), shown=dotted(node.func))
        if problem is not None:
            raise TensorLabError(problem)
        self.guard.module_call(module, args)
        return self.guard.result(_operation(module, *args, **kwargs))

    # -- builtins --------------------------------------------------------------
    def _print(self, *values: Any, sep: str | None = " ", end: str | None = "\n", file: Any = None,
               flush: bool = False) -> None:
        """`print` that writes to the current step's output (``file`` may only be None: stdout).

        Strings are written whole: the step's output keeps what it may and counts the
        rest. Any other value's text is built only up to what a step may print (a
        list of a million long strings must not become a terabyte string first).
        Characters that cannot be written as UTF-8 (lone surrogates) are written as
        their escapes.
        """
        try:
            self._print_values(values, sep, end, file)
        except Exception as exc:  # print is TensorLab's code (also when a hook calls it inside torch)
            _mark(exc, _TENSORLAB)
            raise

    def _print_values(self, values: tuple[Any, ...], sep: str | None, end: str | None, file: Any) -> None:
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        if not isinstance(sep, str) or not isinstance(end, str):
            raise TypeError("sep and end must be None or a string")
        if file is not None:
            raise TensorLabError(msg("subset.print_file"))
        budget = self.limits.max_output_chars + 1
        for number, value in enumerate(values):
            if number:
                self.write(_writable(sep), False)
            if isinstance(value, str):
                self.write(_writable(value), False)
                continue
            text = bounded_str(value, budget)
            # A text cut while it was made: how much more there was is not known.
            self.write(_writable(text), len(text) > self.limits.max_output_chars)
        self.write(_writable(end), False)


def _writable(text: str) -> str:
    """``text`` with lone surrogates (not encodable as UTF-8) written as their escapes."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text

"""What one step may ask of the machine, checked before torch (or Python) does it.

The interpreter asks the guard before every call, operator and subscript, and
shows it every tensor a call or subscript returns. From shapes, sizes and types
alone (:mod:`tensorlab.core.sandbox.estimates`), by the rule each allowlisted callable has
(:mod:`tensorlab.core.sandbox.torch_rules`: a callable without one is refused), the guard estimates how many elements a
result will have, how much memory it will take and how many element-operations
it will cost, and refuses with a :class:`~tensorlab.core.protocol.limits.LimitError` that
names the problem when a step would exceed:

- the element limit of one tensor (or operand), and the number of dimensions;
- the session's memory budget (what the session holds, :mod:`tensorlab.core.sandbox.census`,
  plus the new result) — tensors, Python lists and strings, copies alike;
- the cost limit of one statement (a ``with`` block counts as one): arithmetic,
  matmul, backward, Python-level work such as tolist, printing and comparisons;
- the number of tensors one ``split``/``unbind``/``chunk`` may return, or iterating a tensor makes
  (``a, b = x``, ``l += x``, ``l[0:0] = x``: torch unbinds it whole, one tensor object per row);
- the length of a Python sequence or string, or the width of a ``%`` format.

Nested lists are checked too: a list that contains itself, or one nested deeper
than torch can take, never reaches torch (torch would recurse until it crashes).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import torch

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.limits import (
    LimitError,
    Limits,
    broadcast_numel,
    check_numel,
    code_subject,
    count_param,
    factory_numel,
    matmul_numel,
    new_factory_numel,
    size_message,
    subject,
)
from tensorlab.core.sandbox import estimates as est
from tensorlab.core.sandbox import torch_rules as rules
from tensorlab.core.sandbox.census import Census
from tensorlab.core.sandbox.guard_operators import OperatorChecks
from tensorlab.core.sandbox.nn_rules import MODULE_OBJECT_BYTES, ModuleChecks, is_module, is_optimizer

__all__ = ["Guard", "MAX_NESTING"]

MAX_NESTING = est.MAX_NESTING
_CHECK_MEMORY_FROM = 1 << 20  # bytes approved since the last census before the next one

def _plain(value: Any) -> Any:
    """Sizes given as one-element tensors or NumPy scalars, as Python numbers (for the estimates)."""
    if isinstance(value, (list, tuple)) and len(value) <= 64:
        return type(value)(_plain(v) for v in value)
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        return value.item()
    numpy = est.numpy_module()
    if numpy is not None and isinstance(value, (numpy.generic, numpy.ndarray)) and numpy.size(value) == 1:
        return value.item()
    return value


def _dtype_size(kwargs: Mapping[str, Any], default: int = 4) -> int:
    size = est.dtype_itemsize(kwargs.get("dtype"))
    return default if size is None else size


def _arrays(values: Iterable[Any]) -> list[Any]:
    """Tensors and arrays among call arguments (one level into lists and tuples, every item)."""
    found = []
    for value in values:
        if est.is_array(value):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(v for v in value if est.is_array(v))
    return found


# In-place methods whose tensor operands are values computed with (not masks, indices or sources).
_VALUE_OPERANDS = frozenset({"add_", "sub_", "mul_", "div_", "pow_", "clamp_"})


def _is_contiguous(tensor: torch.Tensor, kwargs: Mapping[str, Any]) -> bool:
    """Whether `.contiguous(memory_format=...)` returns the tensor itself (else it copies)."""
    memory_format = kwargs.get("memory_format", torch.contiguous_format)
    try:
        return bool(tensor.is_contiguous(memory_format=memory_format))
    except (TypeError, RuntimeError):
        return True  # torch refuses the format itself


class Guard(OperatorChecks, ModuleChecks):
    """Checks the steps of one session against its :class:`~tensorlab.core.protocol.limits.Limits`."""

    def __init__(self, namespace: Mapping[str, Any], limits: Limits, hooks: Iterable[Any] = ()) -> None:
        self.namespace = namespace
        self.limits = limits
        self.hooks = tuple(hooks)  # the callables register_hook may take (TensorLab's print, len, id)
        self.census = Census()
        self.cost = 0
        self.pending = 0           # bytes approved since the last census (across statements)
        # Bytes the session holds outside its names, counted in the budget too: the values of the
        # kept history (core/protocol/history.py), set by the worker after each step.
        self.outside = 0

    def start(self) -> None:
        """A new statement: its cost starts from zero (and, on an empty session, memory too)."""
        self.cost = 0
        if not self.namespace:
            self.census.restart()

    # -- accounting --------------------------------------------------------------
    def charge(self, operations: int) -> None:
        """Count ``operations`` element-operations against the statement's cost limit."""
        self.cost += max(int(operations), 0)
        if self.cost > self.limits.max_cost:
            raise LimitError(msg("limit.cost", cost=f"{self.cost:.1e}", limit=f"{self.limits.max_cost:.0e}"))

    def allocate(self, elements: int, itemsize: int, what: Message | None = None) -> None:
        """Check a new result of ``elements`` x ``itemsize`` bytes against the limits and the budget.

        ``what`` names it in a refusal (the result, unless said).
        """
        what = what if what is not None else subject("result")
        check_numel(elements, self.limits, what)
        self.reserve(max(elements, 0) * max(itemsize, 1), what)

    def reserve(self, nbytes: int, what: Message) -> None:
        """Check ``nbytes`` of new memory (a tensor, a list, a string) against the session's budget."""
        budget = self.limits.max_memory_bytes
        if budget is None:
            return
        self.pending += max(nbytes, 0)
        if self.pending < _CHECK_MEMORY_FROM:
            return
        held = self.census.held(self.namespace) + self.outside
        self.charge(self.census.walked * est.WALK_ITEM)
        if held + nbytes > budget:
            held = self.census.held_after_release(self.namespace) + self.outside
            if held + nbytes > budget:
                self.pending -= max(nbytes, 0)  # refused: it will not be allocated
                raise LimitError(msg("limit.memory", what=what, size=size_message(nbytes), held=size_message(held),
                                     budget=size_message(budget)))
        self.pending = nbytes

    def memory_held(self) -> int:
        """Bytes the session holds now (see :mod:`tensorlab.core.sandbox.census`), kept history included."""
        return self.census.held(self.namespace) + self.outside

    def objects(self, count: int, nbytes: int, what: Message, work: int = est.VIEW_OBJECT) -> None:
        """``count`` new Python objects (tensor objects, NumPy items) of ``nbytes`` each."""
        self.reserve(count * nbytes, what)
        self.charge(count * work)

    # -- iteration -----------------------------------------------------------------
    def iterate(self, value: Any, whole: bool = True) -> None:
        """Iterating ``value``: a tensor is unbound whole (torch's ``__iter__`` is ``unbind(0)``), one tensor
        object per row; a NumPy array yields one object per item, all of them when ``whole``
        (``l += a``, ``l[0:0] = a``), only as many as are taken otherwise (``a, b = arr``)."""
        if isinstance(value, torch.Tensor):
            if value.dim() == 0:
                return  # torch: iteration over a 0-d tensor
            rows = int(value.shape[0])
            if rows > self.limits.max_views:
                raise LimitError(msg("limit.iteration", count=count_param(rows), limit=self.limits.max_views,
                                     size=size_message(rows * est.VIEW_OBJECT_BYTES)))
            self.objects(rows, est.VIEW_OBJECT_BYTES, subject("result"))
        elif whole and est.is_array(value) and value.ndim:
            items = int(value.shape[0])
            if items > self.limits.max_sequence:
                raise LimitError(msg("limit.sequence", count=count_param(items), limit=self.limits.max_sequence))
            size = est.ARRAY_ITEM_BYTES if value.ndim > 1 else est.ARRAY_SCALAR_BYTES
            self.objects(items, size, subject("sequence"), est.ARRAY_ITEM)

    # -- nested lists --------------------------------------------------------------
    def nested(self, value: Any, what: Message | None = None) -> est.Nested:
        """What a nested list/tuple holds; LimitError if it contains itself, nests too deep or is too big."""
        what = what if what is not None else subject("list")
        found = est.measure_nested(value, self.limits.max_sequence, what)
        self.charge(found.visits * est.WALK_ITEM)
        return found

    def _nested_arguments(self, values: Iterable[Any]) -> None:
        for value in values:
            if isinstance(value, (list, tuple)) and value:
                self.nested(value, subject("call_list"))

    # -- results -------------------------------------------------------------------
    def result(self, value: Any) -> Any:
        """Refuse a tensor a step may not hold: too many dimensions, or empty with enormous dimensions."""
        if isinstance(value, torch.Tensor):
            if value.dim() > self.limits.max_dims:
                raise LimitError(msg("limit.dims", count=value.dim(), limit=self.limits.max_dims))
            if value.numel() == 0 and 0 in value.shape:
                # tolist() of an empty (n, 0) tensor makes n empty lists: as many as the sizes before the zero.
                lists = math.prod(value.shape[: value.shape.index(0)])
                if lists > self.limits.max_sequence:
                    raise LimitError(msg("limit.empty_lists", count=count_param(lists),
                                         limit=self.limits.max_sequence))
        return value

    # -- calls -----------------------------------------------------------------------
    def call(self, owner: Any, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """Refuse a call whose result, memory or cost would exceed the limits."""
        if owner is None:
            if name not in rules.OTHER_RULES:
                raise LimitError(msg("limit.no_estimate", name=f"{name}(...)"))
            if name == "print":
                self._print(args)
            elif name == "list":
                self._list(args)
            return  # len and id walk nothing unbounded
        self._nested_arguments(args)
        self._nested_arguments(kwargs.values())
        if name == "register_hook":
            self._hook(args, kwargs)
        if isinstance(owner, str) and owner in ("nn", "F", "optim"):
            self.nn_call(owner, name, args, kwargs)
        elif is_module(owner) or is_optimizer(owner) or isinstance(owner, dict):
            self.object_call(owner, name, args, kwargs)
        elif isinstance(owner, str):
            if owner == "torch":
                self._torch_call(name, args, kwargs)
            elif owner == "copy":
                if f"copy.{name}" not in rules.OTHER_RULES:
                    raise LimitError(msg("limit.no_estimate", name=f"copy.{name}(...)"))
                self._deepcopy(args)
        elif isinstance(owner, torch.Tensor):
            self._tensor_call(owner, name, args, kwargs)
        elif name == "tolist" and est.is_array(owner):
            self._tolist(owner)

    def _print(self, args: list[Any]) -> None:
        for value in args:
            if est.is_array(value):
                self.charge(min(est.numel(value), 1_000) * est.FORMATTED_ELEMENT)
            elif isinstance(value, str):
                self.charge(len(value))
            else:
                size, visits = est.text_size(value, self.limits.max_output_chars)
                self.charge(min(size, self.limits.max_output_chars) * est.PYTHON_ITEM + visits * est.WALK_ITEM)

    def _list(self, args: list[Any]) -> None:
        """`list(x)`: a tensor is unbound whole; a sequence or a dict is copied one slot per item."""
        if not args:
            return
        value = args[0]
        if est.is_array(value):
            self.iterate(value)
            return
        try:
            items = len(value)
        except TypeError:
            return  # a generator of parameters: as many as the module has (its nesting is capped)
        if items > self.limits.max_sequence:
            raise LimitError(msg("limit.sequence", count=count_param(items), limit=self.limits.max_sequence))
        self.reserve(8 * items + 64, subject("list"))
        self.charge(items * est.PYTHON_ITEM)

    def _hook(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        for hook in list(args) + list(kwargs.values()):
            if not any(hook is allowed for allowed in self.hooks):
                raise LimitError(msg("limit.hook"))

    def _operands(self, owner: Any, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        operands = _arrays(args) + _arrays(kwargs.values())
        if est.is_array(owner):
            operands.insert(0, owner)
        for operand in operands:
            check_numel(est.numel(operand), self.limits, subject("call_operand"))
        return operands

    def _torch_call(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        rule = rules.TORCH_RULES.get(name)
        if rule is None:
            raise LimitError(msg("limit.no_estimate", name=f"torch.{name}"))
        what = code_subject(f"torch.{name}(...)")
        if rule == "factory":
            plain_args, plain_kwargs = [_plain(a) for a in args], {k: _plain(v) for k, v in kwargs.items()}
            try:
                numel = factory_numel(name, plain_args, plain_kwargs, self.limits)
            except (TypeError, ValueError, IndexError, OverflowError):
                return  # torch reports its own error for arguments it cannot use
            if numel is not None:
                default = 8 if name in ("arange", "randint") else 4
                self.allocate(numel, _dtype_size(kwargs, default), what)
                self.charge(numel)
            return
        if rule == "data":
            self._from_data(args[0] if args else kwargs.get("data"), kwargs, what, shares=name == "as_tensor")
            return
        operands = self._operands(None, args, kwargs)
        if rule in ("none", "view") or not operands:
            return
        if rule == "concat":
            self._concat(operands, what)
            return
        # The first tensor is the one the function works on (`torch.add(x, y)` is `x.add(y)`).
        first = operands[0]
        position = next((i for i, a in enumerate(args) if a is first), None)
        rest = args[:position] + args[position + 1:] if position is not None else list(args)
        self._estimate(rule, name, first, rest, {k: v for k, v in kwargs.items() if v is not first}, what)

    def _tensor_call(self, owner: torch.Tensor, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        rule = rules.METHOD_RULES.get(name)
        if rule is None:
            raise LimitError(msg("limit.no_estimate", name=f".{name}(...)"))
        what = code_subject(f".{name}(...)")
        if rule == "new_factory":
            try:
                numel = new_factory_numel(name, [_plain(a) for a in args], kwargs, self.limits)
            except (TypeError, ValueError, IndexError, OverflowError):
                return
            if numel is not None:
                self.allocate(numel, _dtype_size(kwargs, owner.element_size()), what)
                self.charge(numel)
            return
        if rule == "data":
            self._from_data(args[0] if args else kwargs.get("data"), kwargs, what)
            return
        if rule == "split":
            self._views(owner, name, args, kwargs)
            return
        if rule == "tolist":
            self._tolist(owner)
            return
        if rule == "repeat":
            self._repeat_tensor(owner, args, kwargs)
            return
        if rule == "backward":
            self._backward(owner, bool(kwargs.get("create_graph", False)))
            return
        if rule == "none":
            return
        if rule not in ("view", "reshape", "contiguous", "conversion"):
            # A view of a huge expanded tensor is fine; what copies is checked as its result.
            self._operands(owner, args, kwargs)
        self._estimate(rule, name, owner, args, kwargs, what)

    def _estimate(self, rule: str, name: str, first: Any, rest: list[Any], kwargs: dict[str, Any],
                  what: Message) -> None:
        """What the call ``name(first, *rest, **kwargs)`` allocates and costs, by its ``rule``.

        ``first`` is the tensor a method is called on (or a function's first argument).
        """
        if not est.is_array(first):
            return  # a function given no tensor first: torch says what it expects
        first_tensor = first
        others = _arrays(rest) + _arrays(kwargs.values())
        positional = [_plain(a) for a in rest if not est.is_array(a)]
        plain_kwargs = {k: _plain(v) for k, v in kwargs.items() if not est.is_array(v)}
        if rule == "view":
            return
        if rule == "reshape":
            self._reshape(first_tensor, name, rest, positional, plain_kwargs, what)
            return
        if rule == "contiguous":
            if isinstance(first_tensor, torch.Tensor) and not _is_contiguous(first_tensor, kwargs):
                self.allocate(first_tensor.numel(), first_tensor.element_size(), what)
                self.charge(first_tensor.numel())
            return
        if rule == "conversion":
            self._conversion(first_tensor, name, rest, kwargs, what)
            return
        if rule == "clone":
            self.allocate(est.numel(first_tensor), est.itemsize(first_tensor), what)
            self.charge(est.numel(first_tensor))
            return
        if rule == "like":
            self.allocate(est.numel(first_tensor), _dtype_size(kwargs, est.itemsize(first_tensor)), what)
            self.charge(est.numel(first_tensor))
            return
        if rule in ("inplace", "pow_inplace"):
            self._inplace(rule, name, first_tensor, rest, kwargs)
            return
        if rule == "matmul" and others:
            self._matmul(first_tensor, others[0], what)
            return
        if rule == "index_select" and others:
            dim = plain_kwargs.get("dim", positional[0] if positional else None)
            shape = tuple(first_tensor.shape)
            numel = est.numel(others[0]) * (math.prod(shape) // max(shape[int(dim)], 1) if isinstance(dim, int)
                                            and -len(shape) <= dim < len(shape) else est.numel(first_tensor))
            self.allocate(numel, est.itemsize(first_tensor), what)
            self.charge(numel)
            return
        if rule == "gather" and others:
            self.allocate(est.numel(others[-1]), est.itemsize(first_tensor), what)
            self.charge(est.numel(others[-1]))
            return
        if rule == "close":
            self._close(first_tensor, others, what)
            return
        if rule == "equal":
            self._equal(first_tensor, others)
            return
        if rule == "maxmin" and others:
            rule = "elementwise"  # a.max(b), torch.min(a, b): elementwise, with broadcasting
        if rule in ("reduction", "maxmin"):
            self._reduction(name, first_tensor, positional, plain_kwargs, what)
            return
        if rule in ("elementwise", "float_elementwise", "pow"):
            values = [first_tensor, *(a if est.is_array(a) else _plain(a) for a in rest),
                      *(v if est.is_array(v) else _plain(v) for k, v in kwargs.items()
                        if k in ("other", "exponent", "mask", "value"))]
            keeps = first_tensor.dtype if name == "masked_fill" and isinstance(first_tensor, torch.Tensor) else None
            self.elementwise(rule, values, kwargs, what, result_dtype=keeps)
            return
        if rule in ("matmul", "index_select", "gather"):
            return  # one operand: torch says what is missing
        raise LimitError(msg("limit.no_estimate", name=name))  # pragma: no cover - every rule is handled above

    def _reshape(self, tensor: Any, name: str, rest: list[Any], positional: list[Any],
                 kwargs: dict[str, Any], what: Message) -> None:
        """reshape/reshape_as/flatten view when torch can view the strides, else copy (its computeStride)."""
        if not isinstance(tensor, torch.Tensor):
            return
        shape = list(tensor.shape)
        if name == "reshape_as":
            if not rest or not isinstance(rest[0], torch.Tensor):
                return
            target: list[int] | None = list(rest[0].shape)
        elif name == "flatten":
            target = rules.flatten_target(shape, positional, kwargs)
        else:
            target = rules.reshape_target(tensor.numel(), positional, kwargs)
        if target is None or (name == "flatten" and len(shape) <= 1):
            return  # torch explains a shape it cannot use; flatten of 0-d/1-d returns a view (or self)
        if rules.view_strides(shape, list(tensor.stride()), target) is None:
            self.allocate(tensor.numel(), tensor.element_size(), what)
            self.charge(tensor.numel())

    def _conversion(self, tensor: Any, name: str, rest: list[Any], kwargs: dict[str, Any], what: Message) -> None:
        """`.to(...)`, `.float()`, `.cpu()` ... copy only when the dtype or device changes (else torch returns self)."""
        if not isinstance(tensor, torch.Tensor):
            return
        dtype, device = rules.conversion_target(name, tensor, rest, kwargs)
        if dtype == tensor.dtype and device == tensor.device.type and not kwargs.get("copy", False):
            return
        self.allocate(tensor.numel(), dtype.itemsize, what)
        self.charge(tensor.numel())

    def _inplace(self, rule: str, name: str, tensor: Any, rest: list[Any], kwargs: dict[str, Any]) -> None:
        """In place: the work on every element, and a converted copy of an operand of another dtype."""
        operands = [tensor, *_arrays(rest), *_arrays(kwargs.values())]
        try:
            numel = broadcast_numel([tuple(o.shape) for o in operands])
        except ValueError:
            return
        rounds = 1
        if rule == "pow_inplace" and isinstance(tensor, torch.Tensor):
            exponent = _plain(rest[0]) if rest else _plain(kwargs.get("exponent"))
            rounds = 2 * rules.power_iterations(tensor.dtype, exponent)
        self.charge(numel * rounds)
        if isinstance(tensor, torch.Tensor) and name in _VALUE_OPERANDS:
            # x.add_(y) computes in the promoted dtype: where it is not x's own, torch converts x and each
            # operand of another dtype, and computes into a temporary that is copied back into x.
            compute = rules.promoted_dtype([tensor, *rest])
            if compute != tensor.dtype:
                converted = sum(o.numel() for o in operands if isinstance(o, torch.Tensor) and o.dtype != compute)
                self.reserve((converted + numel) * compute.itemsize, subject("result"))

    def _concat(self, tensors: list[Any], what: Message) -> None:
        total = sum(est.numel(t) for t in tensors)
        dtypes = [t.dtype for t in tensors if isinstance(t, torch.Tensor)]
        size = max([est.itemsize(t) for t in tensors], default=4)
        if dtypes:
            promoted = dtypes[0]
            for dtype in dtypes[1:]:
                promoted = torch.promote_types(promoted, dtype)
            size = promoted.itemsize
            # Operands of another dtype are converted to the result's first.
            converted = sum(t.numel() for t in tensors if isinstance(t, torch.Tensor) and t.dtype != promoted)
            if converted:
                self.reserve(converted * size, what)
        self.allocate(total, size, what)
        self.charge(total)

    def _close(self, first: Any, others: list[Any], what: Message) -> None:
        """allclose/isclose broadcast both operands and keep three temporaries of that size, plus the bools."""
        operands = [first, *others[:1]]
        try:
            numel = broadcast_numel([tuple(o.shape) for o in operands])
        except ValueError:
            return
        size = rules.promoted_dtype(operands).itemsize if all(isinstance(o, torch.Tensor) for o in operands) \
            else max(est.itemsize(o) for o in operands)
        check_numel(numel, self.limits, what)
        self.reserve(numel * (3 * size + 4), what)
        self.charge(numel * 6)

    def _equal(self, first: Any, others: list[Any]) -> None:
        """torch.equal compares without broadcasting; operands of two dtypes are converted to one first."""
        if not others or not isinstance(first, torch.Tensor) or not isinstance(others[0], torch.Tensor):
            return
        other = others[0]
        if first.shape != other.shape:
            return
        self.charge(first.numel())
        if first.dtype != other.dtype:
            promoted = torch.promote_types(first.dtype, other.dtype)
            converted = sum(t.numel() for t in (first, other) if t.dtype != promoted)
            self.reserve(converted * promoted.itemsize, subject("result"))

    def _reduction(self, name: str, tensor: Any, positional: list[Any], kwargs: dict[str, Any],
                   what: Message) -> None:
        """sum/mean/max/min over ``dim`` (all of it without one); sums of integers are converted to int64 first."""
        numel = est.reduction_numel(tuple(tensor.shape), positional, kwargs)
        self.charge(est.numel(tensor))
        if not isinstance(tensor, torch.Tensor):
            self.allocate(numel, est.itemsize(tensor), what)
            return
        if name in ("max", "min"):
            has_dim = kwargs.get("dim", positional[0] if positional else None) is not None
            self.allocate(numel, tensor.element_size() + (8 if has_dim else 0), what)  # values and int64 indices
            return
        dtype = rules.sum_dtype(tensor, kwargs)
        if dtype != tensor.dtype:
            self.reserve(tensor.numel() * dtype.itemsize, what)
        self.allocate(numel, dtype.itemsize, what)

    def _matmul(self, a: Any, b: Any, what: Message) -> None:
        shape_a, shape_b = tuple(a.shape), tuple(b.shape)
        try:
            numel = matmul_numel(shape_a, shape_b)
        except (ValueError, IndexError):
            return
        inner = shape_a[-1] if shape_a else 1
        size = max(est.itemsize(a), est.itemsize(b))
        self.allocate(numel, size, what)
        self.charge(numel * max(inner, 1))
        # An operand BLAS cannot read as it is (expanded, or broadcast over batches) is copied first.
        copies = sum(rules.matmul_copy_numel(o, shape_a, shape_b) for o in (a, b) if isinstance(o, torch.Tensor))
        if copies:
            self.reserve(copies * size, what)

    def _views(self, owner: torch.Tensor, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """split/chunk/unbind/tensor_split return one tensor object per piece: count them first."""
        pieces = est.split_pieces(name, tuple(owner.shape), [_plain(a) for a in args],
                                  {k: _plain(v) for k, v in kwargs.items()})
        if pieces is None:
            return
        if pieces > self.limits.max_views:
            raise LimitError(msg("limit.views", name=name, count=count_param(pieces), limit=self.limits.max_views))
        self.reserve(pieces * est.VIEW_OBJECT_BYTES, code_subject(f".{name}(...)"))
        self.charge(pieces * est.VIEW_OBJECT)

    def _repeat_tensor(self, owner: torch.Tensor, args: list[Any], kwargs: dict[str, Any]) -> None:
        """`x.repeat(2, 3)` copies x once per repeat: numel times every count."""
        counts = _plain(kwargs.get("repeats", args[0] if len(args) == 1 and isinstance(args[0], (tuple, list))
                                   else tuple(args)))
        if not isinstance(counts, (tuple, list)) or not all(isinstance(c, int) for c in counts):
            return  # torch says what is wrong with the counts
        numel = owner.numel() * math.prod(max(c, 0) for c in counts)
        self.allocate(numel, owner.element_size(), code_subject(".repeat(...)"))
        self.charge(numel)

    def _tolist(self, owner: Any) -> None:
        numel = est.numel(owner)
        if numel > self.limits.max_sequence:
            raise LimitError(msg("limit.tolist", count=count_param(numel), limit=self.limits.max_sequence))
        self.reserve(numel * est.PYTHON_NUMBER_BYTES, code_subject(".tolist()"))
        self.charge(numel * est.PYTHON_ITEM)

    def _backward(self, owner: torch.Tensor, create_graph: bool = False) -> None:
        work, _ = est.backward_work(owner)
        # With create_graph the gradients keep their own graph (what it saves, about as much again).
        self.reserve(est.backward_bytes(owner) * (2 if create_graph else 1), subject("gradients"))
        self.charge(work)

    def _from_data(self, data: Any, kwargs: Mapping[str, Any], what: Message, shares: bool = False) -> None:
        """torch.tensor/as_tensor/new_tensor of ``data``; ``shares``: as_tensor, which returns a tensor or an
        array of the same dtype (on the same device) as it is, without a copy."""
        if shares and est.is_array(data):
            dtype = kwargs.get("dtype")
            device = kwargs.get("device")
            same_dtype = dtype is None or (isinstance(data, torch.Tensor) and dtype == data.dtype)
            if same_dtype and device in (None, "cpu") and (isinstance(data, torch.Tensor) or data.dtype.isnative):
                return
        if est.is_array(data):
            self.allocate(est.numel(data), _dtype_size(kwargs, est.itemsize(data)), what)
            self.charge(est.numel(data))
            return
        if isinstance(data, (torch.UntypedStorage, torch.TypedStorage)):
            # torch walks a storage as a Python sequence, one byte (or item) at a time.
            items = (data.nbytes() if isinstance(data, torch.UntypedStorage)
                     else data.size())  # type: ignore[no-untyped-call]  # torch leaves TypedStorage.size untyped
            self.charge(items * est.STORAGE_ITEM)
            self.allocate(items, _dtype_size(kwargs, 8), what)
            return
        found = self.nested(data, subject("data_given", what=what))
        self.charge(found.leaves * est.TORCH_ITEM + found.storage_bytes * est.STORAGE_ITEM)
        self.allocate(found.elements, _dtype_size(kwargs, 8), what)

    def _deepcopy(self, args: list[Any]) -> None:
        """copy.deepcopy copies each object once (its memo): count unique storages, arrays and lists."""
        if not args:
            return
        seen: set[int] = set()
        storages: set[tuple[str, int]] = set()
        nbytes = items = 0
        stack = [args[0]]
        while stack:
            value = stack.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            items += 1
            if items > self.limits.max_sequence:
                raise LimitError(msg("limit.deepcopy", limit=self.limits.max_sequence))
            if isinstance(value, torch.Tensor):
                # A copy of a view copies its whole storage once (and stays a view of the copy).
                storage = value.untyped_storage()
                key = (str(value.device), storage.data_ptr() or id(storage))
                if key not in storages:
                    storages.add(key)
                    nbytes += storage.nbytes()
                if value.is_leaf and value.grad is not None:
                    stack.append(value.grad)
            elif isinstance(value, (torch.UntypedStorage, torch.TypedStorage)):
                nbytes += value.nbytes()
            elif est.is_array(value):
                check_numel(est.numel(value), self.limits, code_subject("copy.deepcopy(...)"))
                nbytes += est.numel(value) * est.itemsize(value)
            elif isinstance(value, (list, tuple)):
                nbytes += 8 * len(value) + 64
                stack.extend(value)
            elif isinstance(value, dict):
                nbytes += 100 * len(value) + 64
                stack.extend(value.values())
            elif isinstance(value, torch.nn.Module):
                # Its parameters and buffers (and their grads), and each submodule's object and dicts.
                nbytes += MODULE_OBJECT_BYTES
                stack.extend(value._parameters.values())
                stack.extend(value._buffers.values())
                stack.extend(value._modules.values())
            elif isinstance(value, torch.optim.Optimizer):
                nbytes += MODULE_OBJECT_BYTES
                stack.extend(value.param_groups)
                stack.extend(value.state.values())
        self.charge(items * est.WALK_ITEM + nbytes)
        self.reserve(nbytes, code_subject("copy.deepcopy(...)"))

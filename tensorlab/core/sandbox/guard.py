"""What one step may ask of the machine, checked before torch (or Python) does it.

The interpreter asks the guard before every call, operator and subscript, and
shows it every tensor a call or subscript returns. From shapes, sizes and types
alone (:mod:`tensorlab.core.sandbox.estimates`) the guard estimates how many elements a
result will have, how much memory it will take and how many element-operations
it will cost, and refuses with a :class:`~tensorlab.core.protocol.limits.LimitError` that
names the problem when a step would exceed:

- the element limit of one tensor (or operand), and the number of dimensions;
- the session's memory budget (what the session holds, :mod:`tensorlab.core.sandbox.census`,
  plus the new result) — tensors, Python lists and strings, copies alike;
- the cost limit of one statement (a ``with`` block counts as one): arithmetic,
  matmul, backward, Python-level work such as tolist, printing and comparisons;
- the number of tensors one ``split``/``unbind``/``chunk`` may return;
- the length of a Python sequence or string, or the width of a ``%`` format.

Nested lists are checked too: a list that contains itself, or one nested deeper
than torch can take, never reaches torch (torch would recurse until it crashes).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import torch

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.limits import (
    LimitError,
    Limits,
    broadcast_numel,
    check_numel,
    code_subject,
    count_param,
    factory_numel,
    format_size,
    matmul_numel,
    new_factory_numel,
    subject,
)
from tensorlab.core.sandbox import estimates as est
from tensorlab.core.sandbox.census import Census
from tensorlab.core.sandbox.guard_operators import OperatorChecks

__all__ = ["Guard", "MAX_NESTING"]

MAX_NESTING = est.MAX_NESTING
_CHECK_MEMORY_FROM = 1 << 20  # bytes approved since the last census before the next one

# Methods that make no new elements (views, queries, bookkeeping).
_NO_ALLOCATION = allow.VIEW_METHODS | allow.QUERY_METHODS | frozenset(
    {"detach", "detach_", "requires_grad_", "retain_grad", "register_hook", "item", "numpy",
     "is_tensor", "manual_seed", "equal", "broadcast_shapes", "view_as_real", "view_as_complex", "device",
     "no_grad", "enable_grad", "inference_mode", "from_numpy", "data_ptr", "nbytes", "size", "name"}
)
_MULTI_VIEW = frozenset({"split", "chunk", "unbind", "tensor_split"})
_REDUCTIONS = frozenset({"sum", "mean", "max", "min"})
_COMPARISONS = frozenset({"equal", "allclose"})
_FROM_DATA = frozenset({"tensor", "as_tensor", "new_tensor"})


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


class Guard(OperatorChecks):
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
                raise LimitError(msg("limit.memory", what=what, size=format_size(nbytes), held=format_size(held),
                                     budget=format_size(budget)))
        self.pending = nbytes

    def memory_held(self) -> int:
        """Bytes the session holds now (see :mod:`tensorlab.core.sandbox.census`), kept history included."""
        return self.census.held(self.namespace) + self.outside

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
            if name == "print":
                self._print(args)
            return  # print, len and id walk nothing unbounded
        self._nested_arguments(args)
        self._nested_arguments(kwargs.values())
        if name == "register_hook":
            self._hook(args, kwargs)
        if isinstance(owner, str):
            if owner == "torch":
                self._torch_call(name, args, kwargs)
            elif owner == "copy":
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
        plain_args, plain_kwargs = [_plain(a) for a in args], {k: _plain(v) for k, v in kwargs.items()}
        try:
            numel = factory_numel(name, plain_args, plain_kwargs, self.limits)
        except (TypeError, ValueError, IndexError, OverflowError):
            numel = None  # torch reports its own error for arguments it cannot use
        if numel is not None:
            default = 8 if name in ("arange", "randint") else 4
            self.allocate(numel, _dtype_size(kwargs, default), code_subject(f"torch.{name}(...)"))
            self.charge(numel)
            return
        if name in _FROM_DATA:
            self._from_data(args[0] if args else kwargs.get("data"), kwargs, code_subject(f"torch.{name}(...)"))
            return
        operands = self._operands(None, args, kwargs)
        if name in _NO_ALLOCATION or not operands:
            return
        positional = [_plain(a) for a in args[1:] if not est.is_array(a)]
        self._result_of(name, operands, kwargs, code_subject(f"torch.{name}(...)"), positional)

    def _tensor_call(self, owner: torch.Tensor, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        try:
            numel = new_factory_numel(name, [_plain(a) for a in args], kwargs, self.limits)
        except (TypeError, ValueError, IndexError, OverflowError):
            numel = None
        if numel is not None:
            self.allocate(numel, _dtype_size(kwargs, owner.element_size()), code_subject(f".{name}(...)"))
            self.charge(numel)
            return
        if name == "new_tensor":
            self._from_data(args[0] if args else kwargs.get("data"), kwargs, code_subject(".new_tensor(...)"))
            return
        if name in _MULTI_VIEW:
            self._views(owner, name, args, kwargs)
            return
        if name == "tolist":
            self._tolist(owner)
            return
        if name == "repeat":
            self._repeat_tensor(owner, args, kwargs)
            return
        if name == "backward":
            self._backward(owner)
            return
        if name in _NO_ALLOCATION:
            return
        operands = self._operands(owner, args, kwargs)
        size = est.conversion_itemsize(name, args, kwargs, 0)
        self._result_of(name, operands, kwargs, code_subject(f".{name}(...)"),
                        [_plain(a) for a in args if not est.is_array(a)],
                        size or None)

    def _result_of(self, name: str, operands: list[Any], kwargs: dict[str, Any], what: Message,
                   positional: list[Any], itemsize: int | None = None) -> None:
        """Size, memory and cost of an operation on ``operands`` (the first is ``self`` for a method)."""
        size = itemsize or max(max((est.itemsize(o) for o in operands), default=4), 4)
        if name in ("cat", "stack", "concat"):
            total = sum(est.numel(o) for o in operands)
            self.allocate(total, size, what)
            self.charge(total)
            return
        if name == "matmul" and len(operands) >= 2:
            self._matmul(operands[0], operands[1], what)
            return
        if name == "index_select" and len(operands) >= 2:
            source, index = operands[0], operands[1]
            dim = kwargs.get("dim", positional[0] if positional else None)
            shape = tuple(source.shape)
            numel = est.numel(index) * (math.prod(shape) // max(shape[int(dim)], 1) if isinstance(dim, int)
                                        and -len(shape) <= dim < len(shape) else est.numel(source))
            self.allocate(numel, size, what)
            self.charge(numel)
            return
        if name == "gather" and len(operands) >= 2:
            self.allocate(est.numel(operands[-1]), size, what)
            self.charge(est.numel(operands[-1]))
            return
        if name in _REDUCTIONS or name in _COMPARISONS:
            self.charge(sum(est.numel(o) for o in operands))
            if name in _REDUCTIONS:
                numel = est.reduction_numel(tuple(operands[0].shape), positional, kwargs)
                self.allocate(numel, size + (8 if name in ("max", "min") else 0), what)
            return
        try:
            numel = broadcast_numel([tuple(o.shape) for o in operands])
        except ValueError:
            return  # torch explains shapes that do not broadcast
        if name.endswith("_"):
            self.charge(numel)  # in place: no new memory
            return
        self.allocate(numel, size, what)
        self.charge(numel)

    def _matmul(self, a: Any, b: Any, what: Message) -> None:
        shape_a, shape_b = tuple(a.shape), tuple(b.shape)
        try:
            numel = matmul_numel(shape_a, shape_b)
        except (ValueError, IndexError):
            return
        inner = shape_a[-1] if shape_a else 1
        self.allocate(numel, max(est.itemsize(a), est.itemsize(b)), what)
        self.charge(numel * max(inner, 1))

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

    def _backward(self, owner: torch.Tensor) -> None:
        work, new_grads = est.backward_work(owner)
        self.reserve(new_grads, subject("gradients"))
        self.charge(work)

    def _from_data(self, data: Any, kwargs: Mapping[str, Any], what: Message) -> None:
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
        self.charge(items * est.WALK_ITEM + nbytes)
        self.reserve(nbytes, code_subject("copy.deepcopy(...)"))

"""What one step may ask of the machine, checked before torch (or Python) does it.

The interpreter asks the guard before every call, operator and subscript. The
guard estimates, from shapes and sizes alone, how many elements the result will
have, how much memory it will take and how many element-operations it will cost,
and refuses with a :class:`~tensorlab.core.limits.LimitError` that names the
problem when a step would exceed:

- the element limit of one tensor (or operand),
- the session's memory budget (the memory its names hold plus the new result),
- the cost limit of one statement (a ``with`` block counts as one),
- the number of tensors one ``split``/``unbind``/``chunk`` may return,
- the length of a Python sequence or string, or the width of a ``%`` format.

Nested lists are checked too: a list that contains itself, or one nested deeper
than torch can take, never reaches torch (torch would recurse until it crashes).
"""

from __future__ import annotations

import ast
import math
import operator
import re
import sys
from collections.abc import Iterable, Mapping
from typing import Any

import torch

from tensorlab.core import allowlist as allow
from tensorlab.core.limits import (
    LimitError,
    Limits,
    broadcast_numel,
    check_numel,
    factory_numel,
    format_size,
    matmul_numel,
    new_factory_numel,
)

__all__ = ["Guard"]

MAX_NESTING = 32            # nesting of a list torch is given (torch allows 64 dimensions)
_CHECK_MEMORY_FROM = 1 << 20  # results smaller than this (per statement) skip the memory census

# Methods that make no new elements (views, queries, bookkeeping).
_NO_ALLOCATION = allow.VIEW_METHODS | allow.QUERY_METHODS | frozenset(
    {"detach", "detach_", "requires_grad_", "retain_grad", "register_hook", "item", "numpy", "backward",
     "is_tensor", "manual_seed", "equal", "broadcast_shapes", "view_as_real", "view_as_complex", "device",
     "no_grad", "enable_grad", "inference_mode", "from_numpy", "data_ptr", "nbytes", "size", "name"}
)
_MULTI_VIEW = frozenset({"split", "chunk", "unbind", "tensor_split"})
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "equal", "allclose"})
_LIKE = frozenset({"ones_like", "zeros_like", "full_like", "rand_like", "randn_like", "empty_like"})
_FROM_DATA = frozenset({"tensor", "as_tensor", "new_tensor"})
_FORMAT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?")


def _numpy() -> Any:
    return sys.modules.get("numpy")


def _is_array(value: Any) -> bool:
    if isinstance(value, torch.Tensor):
        return True
    numpy = _numpy()
    return numpy is not None and isinstance(value, numpy.ndarray)


def _numel(value: Any) -> int:
    return value.numel() if isinstance(value, torch.Tensor) else int(value.size)


def _shape(value: Any) -> tuple[int, ...]:
    return tuple(value.shape)


def _itemsize(value: Any) -> int:
    return value.element_size() if isinstance(value, torch.Tensor) else int(value.itemsize)


def _plain(value: Any) -> Any:
    """Sizes given as one-element tensors or NumPy scalars, as Python numbers (for the estimates)."""
    if isinstance(value, (list, tuple)) and len(value) <= 64:
        return type(value)(_plain(v) for v in value)
    if isinstance(value, torch.Tensor) and value.numel() == 1:
        return value.item()
    numpy = _numpy()
    if numpy is not None and isinstance(value, (numpy.generic, numpy.ndarray)) and numpy.size(value) == 1:
        return value.item()
    return value


def _dtype_size(kwargs: Mapping[str, Any], default: int = 4) -> int:
    dtype = kwargs.get("dtype")
    if isinstance(dtype, torch.dtype):
        return torch.empty(0, dtype=dtype).element_size()
    return default


def _arrays(values: Iterable[Any]) -> list[Any]:
    """Tensors and arrays among call arguments (one level into lists and tuples)."""
    found = []
    for value in values:
        if _is_array(value):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(v for v in value[:10_000] if _is_array(v))
    return found


class Guard:
    """Checks the steps of one session against its :class:`~tensorlab.core.limits.Limits`."""

    def __init__(self, namespace: Mapping[str, Any], limits: Limits, hooks: Iterable[Any] = ()) -> None:
        self.namespace = namespace
        self.limits = limits
        self.hooks = tuple(hooks)  # the callables register_hook may take (TensorLab's print, len, id)
        self.cost = 0
        self.allocated = 0

    def start(self) -> None:
        """A new statement: its cost and allocations start from zero."""
        self.cost = 0
        self.allocated = 0

    # -- accounting --------------------------------------------------------------
    def charge(self, operations: int) -> None:
        """Count ``operations`` element-operations against the statement's cost limit."""
        self.cost += max(int(operations), 0)
        if self.cost > self.limits.max_cost:
            raise LimitError(
                f"this step would do about {self.cost:.1e} element-operations; TensorLab allows at most "
                f"{self.limits.max_cost:.0e} per step (a `with` block counts as one step)"
            )

    def allocate(self, elements: int, itemsize: int, what: str = "the result") -> None:
        """Check a new result of ``elements`` x ``itemsize`` bytes against the limits and the budget."""
        check_numel(elements, self.limits, what)
        budget = self.limits.max_memory_bytes
        nbytes = max(elements, 0) * max(itemsize, 1)
        self.allocated += nbytes
        if budget is None or self.allocated < _CHECK_MEMORY_FROM:
            return
        held = self.memory_held()
        if held + nbytes > budget:
            raise LimitError(
                f"{what} needs {format_size(nbytes)}, and the session already holds {format_size(held)}; "
                f"its memory budget is {format_size(budget)} (TensorLab allows at most that much; "
                "free some names or set a larger limit in Preferences or with --memory-limit)"
            )

    def memory_held(self) -> int:
        """Bytes of the storages (and gradients, and NumPy arrays) the session's names hold."""
        seen: set[tuple[str, int]] = set()
        total = 0

        def add(value: Any) -> None:
            nonlocal total
            if isinstance(value, torch.Tensor):
                try:
                    storage = value.untyped_storage()
                except (RuntimeError, NotImplementedError):
                    return
                key = (str(value.device), storage.data_ptr())
                if key not in seen:
                    seen.add(key)
                    total += storage.nbytes()
                try:
                    grad = value.grad if value.is_leaf else None  # a leaf's .grad is read without a warning
                except RuntimeError:  # a view torch refuses to describe (split output changed in place)
                    grad = None
                if grad is not None:
                    add(grad)
                return
            numpy = _numpy()
            if numpy is not None and isinstance(value, numpy.ndarray) and value.base is None:
                total += value.nbytes

        for value in list(self.namespace.values()):
            if isinstance(value, (list, tuple)):
                for item in value[:10_000]:
                    add(item)
            else:
                add(value)
        return total

    # -- nested lists --------------------------------------------------------------
    def nested(self, value: Any, what: str = "this list") -> int:
        """Leaves of a nested list/tuple; LimitError if it contains itself, nests too deep or is too big."""
        if not isinstance(value, (list, tuple)):
            return 1
        leaves = 0
        visits = 0
        stack: list[tuple[Any, int, set[int]]] = [(value, 1, {id(value)})]
        while stack:
            current, depth, path = stack.pop()
            if depth > MAX_NESTING:
                raise LimitError(f"{what} is nested more than {MAX_NESTING} levels deep; TensorLab refuses it "
                                 "before torch sees it")
            for item in current:
                visits += 1
                if visits > self.limits.max_sequence:
                    raise LimitError(f"{what} holds more than {self.limits.max_sequence:,} items "
                                     "(counting nested lists); TensorLab refuses it")
                if isinstance(item, (list, tuple)):
                    if id(item) in path:
                        raise LimitError(f"{what} contains itself (a cycle); torch would recurse until it "
                                         "crashes, so TensorLab refuses it")
                    stack.append((item, depth + 1, path | {id(item)}))
                else:
                    leaves += 1
        return leaves

    def _nested_arguments(self, values: Iterable[Any]) -> None:
        for value in values:
            if isinstance(value, (list, tuple)) and value:
                self.nested(value, "a list given to this call")

    # -- calls -----------------------------------------------------------------------
    def call(self, owner: Any, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """Refuse a call whose result, memory or cost would exceed the limits."""
        self._nested_arguments(args)
        self._nested_arguments(kwargs.values())
        if name == "register_hook":
            self._hook(args, kwargs)
        if owner == "torch":
            self._torch_call(name, args, kwargs)
        elif isinstance(owner, torch.Tensor):
            self._tensor_call(owner, name, args, kwargs)
        elif owner == "copy":
            self._deepcopy(args)
        elif name == "tolist" and _is_array(owner):
            self._tolist(owner)

    def _hook(self, args: list[Any], kwargs: dict[str, Any]) -> None:
        for hook in list(args) + list(kwargs.values()):
            if not any(hook is allowed for allowed in self.hooks):
                raise LimitError("register_hook takes only print, len or id in TensorLab "
                                 "(a hook that runs tensor methods could call backward() inside backward())")

    def _operands(self, owner: Any, args: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        operands = _arrays(args) + _arrays(kwargs.values())
        if _is_array(owner):
            operands.insert(0, owner)
        for operand in operands:
            check_numel(_numel(operand), self.limits, "an operand of this call")
        return operands

    def _torch_call(self, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        plain_args, plain_kwargs = [_plain(a) for a in args], {k: _plain(v) for k, v in kwargs.items()}
        try:
            numel = factory_numel(name, plain_args, plain_kwargs, self.limits)
        except LimitError:
            raise
        except (TypeError, ValueError, IndexError, OverflowError):
            numel = None  # torch reports its own error for arguments it cannot use
        if numel is not None:
            default = 8 if name in ("arange", "randint") else 4
            self.allocate(numel, _dtype_size(kwargs, default), f"torch.{name}(...)")
            self.charge(numel)
            return
        if name in _FROM_DATA:
            self._from_data(args[0] if args else kwargs.get("data"), kwargs, f"torch.{name}(...)")
            return
        operands = self._operands(None, args, kwargs)
        if name in _NO_ALLOCATION or not operands:
            return
        self._result_of(name, operands, kwargs, f"torch.{name}(...)", [_plain(a) for a in args[1:]
                                                                      if not _is_array(a)])

    def _tensor_call(self, owner: torch.Tensor, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        try:
            numel = new_factory_numel(name, [_plain(a) for a in args], kwargs, self.limits)
        except LimitError:
            raise
        except (TypeError, ValueError, IndexError, OverflowError):
            numel = None
        if numel is not None:
            self.allocate(numel, _dtype_size(kwargs, owner.element_size()), f".{name}(...)")
            self.charge(numel)
            return
        if name == "new_tensor":
            self._from_data(args[0] if args else kwargs.get("data"), kwargs, ".new_tensor(...)")
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
        if name in _NO_ALLOCATION:
            return
        operands = self._operands(owner, args, kwargs)
        self._result_of(name, operands, kwargs, f".{name}(...)", [_plain(a) for a in args if not _is_array(a)])

    def _result_of(self, name: str, operands: list[Any], kwargs: dict[str, Any], what: str,
                   positional: list[Any] | None = None) -> None:
        """Size, memory and cost of an operation on ``operands`` (the first is ``self`` for a method)."""
        itemsize = max((_itemsize(o) for o in operands), default=4)
        if name in ("cat", "stack", "concat"):
            total = sum(_numel(o) for o in operands)
            self.allocate(total, itemsize, what)
            self.charge(total)
            return
        if name == "matmul" and len(operands) >= 2:
            self._matmul(operands[0], operands[1], what)
            return
        if name == "index_select" and len(operands) >= 2:
            source, index = operands[0], operands[1]
            dim = kwargs.get("dim", positional[0] if positional else None)
            shape = _shape(source)
            numel = _numel(index) * (math.prod(shape) // max(shape[int(dim)], 1) if isinstance(dim, int)
                                     and -len(shape) <= dim < len(shape) else _numel(source))
            self.allocate(numel, itemsize, what)
            self.charge(numel)
            return
        if name == "gather" and len(operands) >= 2:
            self.allocate(_numel(operands[-1]), itemsize, what)
            self.charge(_numel(operands[-1]))
            return
        if name in _REDUCTIONS:
            self.charge(sum(_numel(o) for o in operands))
            return
        try:
            numel = broadcast_numel([_shape(o) for o in operands])
        except ValueError:
            return  # torch explains shapes that do not broadcast
        if name.endswith("_"):
            self.charge(numel)  # in place: no new memory
            return
        self.allocate(numel, max(itemsize, 4), what)
        self.charge(numel)

    def _matmul(self, a: Any, b: Any, what: str) -> None:
        shape_a, shape_b = _shape(a), _shape(b)
        try:
            numel = matmul_numel(shape_a, shape_b)
        except (ValueError, IndexError):
            return
        inner = shape_a[-1] if shape_a else 1
        self.allocate(numel, max(_itemsize(a), _itemsize(b)), what)
        self.charge(numel * max(inner, 1))

    def _views(self, owner: torch.Tensor, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """split/chunk/unbind/tensor_split return one tensor object per piece: count them first."""
        dim = kwargs.get("dim", args[1] if len(args) > 1 else 0)
        shape = _shape(owner)
        try:
            size = shape[int(dim)] if shape else 0
        except (TypeError, ValueError, IndexError):
            return
        first = _plain(args[0]) if args else _plain(kwargs.get("split_size_or_sections", kwargs.get("chunks",
                                                                kwargs.get("indices_or_sections"))))
        pieces: int | None = None
        if name == "unbind":
            dim = kwargs.get("dim", args[0] if args else 0)
            try:
                pieces = shape[int(dim)]
            except (TypeError, ValueError, IndexError):
                return
        elif isinstance(first, (list, tuple)):
            pieces = len(first) + (1 if name == "tensor_split" else 0)
        elif isinstance(first, int) and not isinstance(first, bool):
            if name == "split":
                pieces = math.ceil(size / first) if first > 0 else None
            else:  # chunk, tensor_split: the number of pieces
                pieces = first
        if pieces is not None and pieces > self.limits.max_views:
            raise LimitError(f".{name}(...) would return {pieces:,} tensors; TensorLab allows at most "
                             f"{self.limits.max_views:,}")

    def _repeat_tensor(self, owner: torch.Tensor, args: list[Any], kwargs: dict[str, Any]) -> None:
        """`x.repeat(2, 3)` copies x once per repeat: numel times every count."""
        counts = _plain(kwargs.get("repeats", args[0] if len(args) == 1 and isinstance(args[0], (tuple, list))
                                   else tuple(args)))
        if not isinstance(counts, (tuple, list)) or not all(isinstance(c, int) for c in counts):
            return  # torch says what is wrong with the counts
        numel = owner.numel() * math.prod(max(c, 0) for c in counts)
        self.allocate(numel, owner.element_size(), ".repeat(...)")
        self.charge(numel)

    def _tolist(self, owner: Any) -> None:
        numel = _numel(owner)
        if numel > self.limits.max_sequence:
            raise LimitError(f".tolist() would make {numel:,} Python numbers; TensorLab allows at most "
                             f"{self.limits.max_sequence:,}")

    def _from_data(self, data: Any, kwargs: Mapping[str, Any], what: str) -> None:
        if _is_array(data):
            self.allocate(_numel(data), _dtype_size(kwargs, _itemsize(data)), what)
            self.charge(_numel(data))
            return
        leaves = self.nested(data, "the data given to " + what)
        self.allocate(leaves, _dtype_size(kwargs, 8), what)
        self.charge(leaves)

    def _deepcopy(self, args: list[Any]) -> None:
        if not args:
            return
        value = args[0]
        if isinstance(value, (list, tuple)):
            self.nested(value, "the value given to copy.deepcopy")
        held = [value] if _is_array(value) else _arrays(value) if isinstance(value, (list, tuple)) else []
        for array in held:
            self.allocate(_numel(array), _itemsize(array), "copy.deepcopy(...)")

    # -- operators -------------------------------------------------------------------
    def binary(self, op: ast.operator, left: Any, right: Any) -> None:
        """Refuse arithmetic whose result would be too large (tensors, arrays, ints, sequences, formats)."""
        if isinstance(op, ast.Mult):
            self._repeat(left, right)
        if _is_array(left) or _is_array(right):
            for side in (left, right):
                if isinstance(side, (list, tuple)):
                    self.nested(side, "a list in this expression")
            arrays = [side for side in (left, right) if _is_array(side)]
            for array in arrays:
                check_numel(_numel(array), self.limits, "an operand of this expression")
            if len(arrays) == 2 and isinstance(op, ast.MatMult):
                self._matmul(left, right, "the product")
                return
            try:
                numel = broadcast_numel([_shape(a) for a in arrays])
            except ValueError:
                return
            self.allocate(numel, max(max(_itemsize(a) for a in arrays), 4), "the result")
            self.charge(numel)
            return
        limits = self.limits
        ints = (isinstance(left, int) and not isinstance(left, bool),
                isinstance(right, int) and not isinstance(right, bool))
        if all(ints):
            if isinstance(op, ast.Pow) and right > 0 and abs(left) > 1:
                if right * left.bit_length() > limits.max_int_bits:
                    raise LimitError("this power is too large a number for TensorLab")
            elif isinstance(op, ast.Mult) and left.bit_length() + right.bit_length() > limits.max_int_bits:
                raise LimitError("this product is too large a number for TensorLab")
        if isinstance(op, ast.Mod) and isinstance(left, str):
            self._format(left)
        sequences = (str, list, tuple, bytes)
        if isinstance(op, ast.Add) and isinstance(left, sequences) and isinstance(right, sequences):
            if len(left) + len(right) > limits.max_sequence:
                raise LimitError(f"this would build a sequence longer than {limits.max_sequence:,} items")

    def _repeat(self, left: Any, right: Any) -> None:
        """`seq * n` (n may be an int tensor: Python takes its __index__) builds len(seq) * n items."""
        sequences = (str, list, tuple, bytes)
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, sequences) and not isinstance(count, sequences):
                times = _count(count)
                if times is not None and len(seq) * max(times, 0) > self.limits.max_sequence:
                    raise LimitError(
                        f"this would build a sequence of {len(seq) * times:,} items; "
                        f"TensorLab allows at most {self.limits.max_sequence:,}"
                    )

    def _format(self, template: str) -> None:
        for match in _FORMAT.finditer(template[: self.limits.max_sequence]):
            for number in match.groups():
                if number == "*":
                    raise LimitError("`*` widths in a % format are not available in TensorLab")
                if number is not None and int(number) > self.limits.max_sequence:
                    raise LimitError(f"a % format width of {int(number):,} is larger than TensorLab allows "
                                     f"({self.limits.max_sequence:,})")

    def unary(self, operand: Any) -> None:
        """`-x` makes a new tensor as large as ``x`` (an expanded view too)."""
        if _is_array(operand):
            numel = _numel(operand)
            self.allocate(numel, _itemsize(operand), "the result")
            self.charge(numel)

    def compare(self, op: ast.cmpop, left: Any, right: Any) -> None:
        """Comparisons of tensors and arrays make a result as large as the broadcast; `in` scans."""
        if isinstance(op, (ast.Is, ast.IsNot)):
            return
        if isinstance(op, (ast.In, ast.NotIn)):
            if _is_array(right):
                for side in (left, right):
                    if isinstance(side, (list, tuple)):
                        self.nested(side, "a list in this comparison")
                check_numel(_numel(right), self.limits, "the tensor searched by `in`")
                self.charge(_numel(right))
            return
        if _is_array(left) or _is_array(right):
            self.binary(ast.Eq(), left, right)  # type: ignore[arg-type]

    # -- subscripts -------------------------------------------------------------------
    def subscript(self, container: Any, index: Any, value: Any = None, assigning: bool = False) -> None:
        """Advanced indexing copies: estimate its result; lists in an index are checked like data."""
        parts = index if isinstance(index, tuple) else (index,)
        for part in parts:
            if isinstance(part, (list, tuple)):
                self.nested(part, "a list used as an index")
        if assigning and isinstance(value, (list, tuple)):
            self.nested(value, "the list assigned")
        if not _is_array(container):
            return
        advanced = [p for p in parts if _is_array(p) or isinstance(p, list)]
        if not advanced:
            return
        shapes, consumed = [], 0
        for part in advanced:
            if isinstance(part, list):
                shapes.append((self.nested(part, "a list used as an index"),))
                consumed += 1
            else:
                shapes.append(_shape(part))
                is_mask = getattr(part, "dtype", None) in (torch.bool,) or str(getattr(part, "dtype", "")) == "bool"
                consumed += max(len(_shape(part)), 1) if is_mask else 1
        try:
            selected = broadcast_numel(shapes)
        except ValueError:
            return
        shape = _shape(container)
        rest = math.prod(shape[consumed:]) if consumed <= len(shape) else 1
        numel = selected * rest
        if assigning:
            self.charge(numel)
            return
        self.allocate(numel, _itemsize(container), "the result of this indexing")
        self.charge(numel)


def _count(value: Any) -> int | None:
    """How many times `seq * value` repeats (ints, bools, and anything with __index__, like int tensors)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return operator.index(value)
    except (TypeError, RuntimeError, ValueError):
        return None

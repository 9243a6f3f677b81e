"""The guard's checks for operators and subscripts: `a + b`, `-x`, `a < b`, `s % args`, `x[i]`.

A mixin of :class:`~tensorlab.core.sandbox.guard.Guard`: it relies on the guard's
``limits``, ``charge``, ``allocate``, ``reserve``, ``nested`` and ``_matmul``.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Mapping
from typing import Any

import torch

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.limits import (
    LimitError,
    Limits,
    broadcast_numel,
    check_numel,
    count_param,
    subject,
)
from tensorlab.core.sandbox import estimates as est
from tensorlab.core.sandbox import torch_rules as rules

__all__ = ["OperatorChecks"]

_FORMAT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?")
_SEQUENCES = (str, list, tuple, bytes)


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


def _item_bytes(sequence: Any) -> int:
    """Bytes per item of a new sequence like ``sequence`` (a str's characters, a list's pointers)."""
    if isinstance(sequence, str):
        return 1 if sequence.isascii() else 4
    return 8


class OperatorChecks:
    """Checks of operators and subscripts (see the module docstring)."""

    limits: Limits

    # Provided by Guard.
    def charge(self, operations: int) -> None: ...  # pragma: no cover
    def allocate(self, elements: int, itemsize: int, what: Message | None = None) -> None: ...  # pragma: no cover
    def reserve(self, nbytes: int, what: Message) -> None: ...  # pragma: no cover
    def nested(self, value: Any, what: Message | None = None) -> est.Nested:  # pragma: no cover
        raise NotImplementedError
    def _matmul(self, a: Any, b: Any, what: Message) -> None: ...  # pragma: no cover
    def iterate(self, value: Any, whole: bool = True) -> None: ...  # pragma: no cover

    # -- arithmetic ------------------------------------------------------------------
    def binary(self, op: ast.operator, left: Any, right: Any, inplace: bool = False) -> None:
        """Refuse arithmetic whose result would be too large (tensors, arrays, ints, sequences, formats)."""
        if isinstance(op, ast.Mod) and isinstance(left, str):
            self._format(left, right)
            return
        if isinstance(op, ast.Mult) and self._repeat(left, right):
            return
        if inplace and isinstance(op, ast.Add) and isinstance(left, list) and isinstance(right, torch.Tensor):
            self.iterate(right)  # `l += x` extends the list with every row of x (torch unbinds it whole)
            return
        if est.is_array(left) or est.is_array(right):
            self._arrays(op, left, right, inplace)
            return
        limits = self.limits
        ints = (isinstance(left, int) and not isinstance(left, bool),
                isinstance(right, int) and not isinstance(right, bool))
        if all(ints):
            if isinstance(op, ast.Pow) and right > 0 and abs(left) > 1:
                if right * math.log2(abs(left)) > limits.max_int_bits:
                    raise LimitError(msg("limit.power"))
            elif isinstance(op, ast.Mult) and left.bit_length() + right.bit_length() > limits.max_int_bits:
                raise LimitError(msg("limit.product"))
            # Python multiplies and divides long integers digit by digit (30 bits a digit).
            self.charge((left.bit_length() // 30 + 1) * (abs(right).bit_length() // 30 + 1))
        if isinstance(op, ast.Add) and isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
            total = len(left) + len(right)
            if total > limits.max_sequence:
                raise LimitError(msg("limit.sequence", count=f"{total:,}", limit=limits.max_sequence))
            self.reserve(total * max(_item_bytes(left), _item_bytes(right)), subject("sequence"))
            self.charge(total)

    def _arrays(self, op: ast.operator | ast.cmpop, left: Any, right: Any, inplace: bool) -> None:
        for side in (left, right):
            if isinstance(side, (list, tuple)):
                self.nested(side, subject("expression_list"))
        arrays = [side for side in (left, right) if est.is_array(side)]
        for array in arrays:
            check_numel(est.numel(array), self.limits, subject("expression_operand"))
        if len(arrays) == 2 and isinstance(op, ast.MatMult):
            self._matmul(left, right, subject("product"))
            return
        rule = ("pow" if isinstance(op, ast.Pow) else "float_elementwise" if isinstance(op, ast.Div)
                else "elementwise")
        self.elementwise(rule, [left, right], {}, subject("result"), inplace=inplace,
                         comparison=isinstance(op, ast.cmpop))

    def elementwise(self, rule: str, values: list[Any], kwargs: Mapping[str, Any], what: Message,
                    inplace: bool = False, result_dtype: torch.dtype | None = None,
                    comparison: bool = False) -> None:
        """An elementwise operation on ``values`` (tensors, arrays, numbers), by torch's rules.

        The result has the broadcast shape, in the promoted dtype (bool for a comparison, floating for
        ``float_elementwise`` of integers); each tensor operand of another dtype than the one torch
        computes in is converted first (a temporary as large as that operand); an integer power loops
        over the exponent's bits (``pow``).
        """
        arrays = [v for v in values if est.is_array(v)]
        try:
            numel = broadcast_numel([tuple(a.shape) for a in arrays])
        except ValueError:
            return  # torch explains shapes that do not broadcast
        exponent = values[1] if len(values) > 1 else None
        temporaries = 0
        tensors = [a for a in arrays if isinstance(a, torch.Tensor)]
        if len(tensors) == len(arrays):
            compute = rules.compute_dtype(rule, values, kwargs)
            size = (torch.bool if comparison else result_dtype or compute).itemsize
            temporaries = sum(t.numel() for t in tensors if t.dim() and t.dtype != compute) * compute.itemsize
            rounds = 2 * rules.power_iterations(compute, exponent) if rule == "pow" else 1
        else:  # NumPy promotes by its own rules (and a tensor with an array: torch converts the array)
            size = 1 if comparison else max(max(est.itemsize(a) for a in arrays), 8 if rule != "elementwise" else 1)
            integral = all(getattr(a.dtype, "kind", "f") in "biu" for a in arrays)
            rounds = 128 if rule == "pow" and integral else 1
        self.charge(numel * rounds)
        if temporaries:
            self.reserve(temporaries, what)
        if not inplace:
            self.allocate(numel, size, what)

    def _repeat(self, left: Any, right: Any) -> bool:
        """`seq * n` (n may be an int tensor: Python takes its __index__) builds len(seq) * n items."""
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, _SEQUENCES) and not isinstance(count, _SEQUENCES):
                times = _count(count)
                if times is None:
                    continue
                total = len(seq) * max(times, 0)
                if total > self.limits.max_sequence:
                    raise LimitError(msg("limit.sequence", count=count_param(total), limit=self.limits.max_sequence))
                self.reserve(total * _item_bytes(seq), subject("sequence"))
                self.charge(total if isinstance(seq, str) else total * est.PYTHON_ITEM)
                return True
        return False

    def _format(self, template: str, args: Any) -> None:
        """`template % args`: widths, precisions and the whole result are bounded before Python builds it."""
        limit = self.limits.max_sequence
        widths = 0
        for match in _FORMAT.finditer(template[:limit]):
            for number in match.groups():
                if number == "*":
                    raise LimitError(msg("limit.format_star"))
                if number is not None and int(number) > limit:
                    raise LimitError(msg("limit.format_width", width=f"{int(number):,}", limit=limit))
                widths += int(number or 0)
        length = est.format_length(template, args, limit) + widths
        if length > limit:
            raise LimitError(msg("limit.format_length", count=count_param(length), limit=limit))
        self.reserve(length, subject("string"))
        self.charge(length)

    def unary(self, operand: Any, op: ast.unaryop | None = None) -> None:
        """`-x` makes a new tensor as large as ``x`` (an expanded view too)."""
        if isinstance(op, ast.Not):
            return
        if est.is_array(operand):
            numel = est.numel(operand)
            self.allocate(numel, est.itemsize(operand), subject("result"))
            self.charge(numel)

    # -- comparisons -----------------------------------------------------------------
    def compare(self, op: ast.cmpop, left: Any, right: Any) -> None:
        """Comparisons of tensors and arrays make a result as large as the broadcast; `in` scans;
        comparing long strings and lists walks them."""
        if isinstance(op, (ast.Is, ast.IsNot)):
            return
        limit = self.limits.max_cost
        if isinstance(op, (ast.In, ast.NotIn)):
            if est.is_array(right):
                if isinstance(left, (list, tuple)):
                    self.nested(left, subject("comparison_list"))
                check_numel(est.numel(right), self.limits, subject("searched"))
                # `v in x` is `(v == x).any()`: a bool for every element of the broadcast.
                self.elementwise("elementwise", [right, left], {}, subject("searched"), comparison=True)
            elif isinstance(right, str) and isinstance(left, str):
                self.charge(len(left) + len(right))
            elif isinstance(right, (list, tuple)):
                size, visits = est.text_size(left, limit)
                self.charge(len(right) * (size + 1) + visits * est.WALK_ITEM)
            return
        if est.is_array(left) or est.is_array(right):
            self._arrays(op, left, right, False)
            return
        if isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
            left_size, left_visits = est.text_size(left, limit)
            right_size, right_visits = est.text_size(right, limit)
            self.charge(min(left_size, right_size) * est.PYTHON_ITEM + (left_visits + right_visits) * est.WALK_ITEM)

    # -- subscripts -------------------------------------------------------------------
    def subscript(self, container: Any, index: Any, value: Any = None, assigning: bool = False) -> None:
        """Advanced indexing copies: estimate its result; lists in an index are checked like data."""
        parts = index if isinstance(index, tuple) else (index,)
        for part in parts:
            if isinstance(part, (list, tuple)):
                self.nested(part, subject("index_list"))
        if assigning and isinstance(value, (list, tuple)):
            self.nested(value, subject("assigned_list"))
        if assigning and isinstance(container, list) and isinstance(index, slice):
            self.iterate(value)  # `l[0:0] = x` makes a list of every row (or item) of x first
        if isinstance(container, _SEQUENCES) and isinstance(index, slice) and not assigning:
            try:
                items = len(range(*index.indices(len(container))))
            except (TypeError, ValueError):
                return
            self.reserve(items * _item_bytes(container), subject("slice"))
            self.charge(items)
            return
        if not est.is_array(container):
            return
        advanced = [p for p in parts if est.is_array(p) or isinstance(p, list)]
        if not advanced:
            return
        shapes, consumed = [], 0
        indices = 0   # bytes of the int64 indices torch makes first: of a list, or of a mask's nonzero()
        for part in advanced:
            if isinstance(part, list):
                leaves = self.nested(part, subject("index_list")).leaves
                shapes.append((leaves,))
                indices += 8 * leaves
                consumed += 1
            else:
                shapes.append(tuple(part.shape))
                is_mask = part.dtype == torch.bool if isinstance(part, torch.Tensor) else part.dtype == bool
                consumed += max(len(part.shape), 1) if is_mask else 1
                if is_mask and isinstance(part, torch.Tensor) and not assigning:
                    indices += 8 * est.numel(part) * max(len(part.shape), 1)  # torch reads a mask as nonzero()
        try:
            selected = broadcast_numel(shapes)
        except ValueError:
            return
        shape = tuple(container.shape)
        rest = math.prod(shape[consumed:]) if consumed <= len(shape) else 1
        numel = selected * rest
        self.charge(numel)
        if indices:
            self.reserve(indices, subject("indexing"))
        if not assigning:
            self.allocate(numel, est.itemsize(container), subject("indexing"))

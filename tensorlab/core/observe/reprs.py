"""Bounded text of any value: never builds more than a fixed number of characters.

``repr(["a" * 10**6] * 10**6)`` would build a terabyte-long string before anyone
could cut it. These functions write containers piece by piece and stop at the
budget, and describe values whose own repr is unbounded (storages, huge ints).
For the small values lessons use, the text equals Python's and torch's own.
"""

from __future__ import annotations

import sys
from typing import Any

from tensorlab.core.files.safe_text import visible

__all__ = ["bounded_repr", "bounded_str"]

_MAX_DEPTH = 32
_ELLIPSIS = " ..."
# Tensors and arrays written inside one list or tuple before it is cut: torch takes milliseconds
# to format each, and a snapshot may ask for the text of many such lists at every step.
_MAX_ARRAYS = 16


class _Budget(Exception):
    """The text reached its budget."""


class _Writer:
    def __init__(self, budget: int) -> None:
        self.parts: list[str] = []
        self.left = budget
        self.cut = False
        self.arrays = 0

    def array(self) -> None:
        """One more tensor or array is written inside a container; cut after :data:`_MAX_ARRAYS`."""
        self.arrays += 1
        if self.arrays > _MAX_ARRAYS:
            self.cut = True
            raise _Budget

    def write(self, text: str) -> None:
        if len(text) > self.left:
            self.parts.append(text[: max(self.left, 0)])
            self.left = 0
            self.cut = True
            raise _Budget
        self.parts.append(text)
        self.left -= len(text)

    def text(self) -> str:
        return "".join(self.parts) + (_ELLIPSIS if self.cut else "")


def _int_text(value: int) -> str:
    bits = value.bit_length()
    if bits > 10_000:
        # Python refuses to print ints over 4300 digits; say how big it is instead.
        return f"<int of {bits:,} bits>"
    try:
        return repr(value)
    except ValueError:
        return f"<int of {bits:,} bits>"


def _is_array(value: Any) -> bool:
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(value, torch.Tensor):
        return True
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.ndarray)


def _is_storage(value: Any) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, (torch.UntypedStorage, torch.TypedStorage))


def _atom(value: Any, budget: int) -> str:
    """The repr of a value that is not a list or tuple, computed within ``budget`` where it can be."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return _int_text(value)
    if isinstance(value, str):
        return repr(value[: budget + 1])
    if _is_storage(value):
        nbytes = value.nbytes()
        if nbytes > 1024:
            # A storage's repr lists every element.
            return f"<{type(value).__name__} of {nbytes:,} bytes on {value.device}>"
    try:
        return repr(value)  # tensors and arrays summarise themselves above 1000 elements
    except Exception as exc:  # a repr that raises is still shown, never crashes
        return f"<{type(value).__name__}: repr failed: {exc}>"


_MAX_KEY = 100  # characters of a dict key shown (then "...")


def _is_module(value: Any) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.nn.Module)


def _key_text(key: Any) -> str:
    """A dict key as its repr, cut to :data:`_MAX_KEY` characters and with control and bidi characters escaped."""
    if isinstance(key, str):
        return visible(repr(key[:_MAX_KEY]) if len(key) <= _MAX_KEY else repr(key[:_MAX_KEY])[:-1] + "...'")
    return visible(_atom(key, _MAX_KEY)[: _MAX_KEY + 3])


def _write_dict(value: dict[Any, Any], out: _Writer, depth: int, active: set[int]) -> None:
    """A dict (an OrderedDict as Python 3.11 writes it) item by item, its keys escaped and capped."""
    ordered = type(value).__name__ == "OrderedDict"
    if id(value) in active or depth >= _MAX_DEPTH:
        # Python's own marks: an OrderedDict inside itself is `...` (its C repr), a plain dict `{...}`.
        out.write("..." if ordered else "{...}")
        return
    active.add(id(value))
    try:
        if ordered:
            out.write("OrderedDict(" if not value else "OrderedDict([")
        else:
            out.write("{")
        for i, (key, item) in enumerate(value.items()):
            if i:
                out.write(", ")
            out.write(f"({_key_text(key)}, " if ordered else f"{_key_text(key)}: ")
            if _is_array(item):
                out.array()
            _write(item, out, depth + 1, active, False)
            if ordered:
                out.write(")")
        out.write(("])" if value else ")") if ordered else "}")
    finally:
        active.discard(id(value))


def _write_module(module: Any, out: _Writer, indent: str, depth: int) -> None:
    """A module as torch's ``Module.__repr__`` writes it, piece by piece (a nesting of shared modules can
    have a number of paths exponential in its depth: the budget stops the walk, not the end of it)."""
    if depth >= _MAX_DEPTH:
        out.write(f"{type(module).__name__}(...)")
        return
    try:
        extra = module.extra_repr()
    except Exception as exc:
        extra = f"<extra_repr failed: {exc}>"
    extra_lines = extra.split("\n") if extra else []
    children = [(key, child) for key, child in module._modules.items()]
    out.write(type(module).__name__ + "(")
    if len(extra_lines) == 1 and not children:
        out.write(extra_lines[0])
    elif extra_lines or children:
        for line in extra_lines:
            out.write(f"\n{indent}  {line}")
        for key, child in children:
            out.write(f"\n{indent}  ({key}): ")
            if child is None:
                out.write("None")
            else:
                _write_module(child, out, indent + "  ", depth + 1)
        out.write(f"\n{indent}")
    out.write(")")


def _write(value: Any, out: _Writer, depth: int, active: set[int], as_str: bool) -> None:
    if isinstance(value, dict):
        _write_dict(value, out, depth, active)
        return
    if _is_module(value):
        _write_module(value, out, "", 0)
        return
    # Plain lists and tuples only: torch.Size and named tuples keep their own repr.
    if type(value) in (list, tuple):
        if id(value) in active:
            out.write("[...]" if isinstance(value, list) else "(...)")
            return
        if depth >= _MAX_DEPTH:
            out.write("[...]" if isinstance(value, list) else "(...)")
            return
        if _write_flat(value, out):
            return
        active.add(id(value))
        try:
            opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
            out.write(opening)
            for i, item in enumerate(value):
                if i:
                    out.write(", ")
                if _is_array(item):
                    out.array()
                _write(item, out, depth + 1, active, False)
            if isinstance(value, tuple) and len(value) == 1:
                out.write(",")
            out.write(closing)
        finally:
            active.discard(id(value))
        return
    if as_str and isinstance(value, str):
        out.write(value[: out.left + 1])
        return
    if as_str and not _is_storage(value):  # a storage's str lists every element: described like its repr
        try:
            text = str(value) if not isinstance(value, int) or isinstance(value, bool) else _int_text(value)
        except Exception as exc:
            text = f"<{type(value).__name__}: str failed: {exc}>"
        out.write(text)
        return
    out.write(_atom(value, out.left))


_FLAT = frozenset({int, float, bool, type(None), str})


def _write_flat(value: list[Any] | tuple[Any, ...], out: _Writer) -> bool:
    """A list or tuple of plain numbers and short strings: Python's own repr of just enough items.

    The repr of the first n items is a prefix of the repr of the whole (less its
    closing bracket), and n items of at least 3 characters each ("1, ") fill the
    budget. False (nothing written) for anything else.
    """
    count = out.left // 3 + 2
    head = value[:count]
    kinds = set(map(type, head))
    if not kinds <= _FLAT or (str in kinds and any(type(i) is str and len(i) > 100 for i in head)):
        return False
    try:
        text = repr(head)
    except ValueError:  # an int too long for str()
        return False
    if len(head) < len(value):
        text = text[:-1]  # the closing bracket: more items follow
    out.write(text)
    return True


def bounded_repr(value: Any, budget: int = 2_000) -> str:
    """``repr(value)``, cut to ``budget`` characters (then " ...") without building more."""
    out = _Writer(budget)
    try:
        _write(value, out, 0, set(), False)
    except _Budget:
        pass
    return out.text()


def bounded_str(value: Any, budget: int = 2_000) -> str:
    """``str(value)`` as ``print`` writes it, cut to ``budget`` characters without building more."""
    out = _Writer(budget)
    try:
        _write(value, out, 0, set(), True)
    except _Budget:
        pass
    return out.text()

"""Bounds that keep one line from exhausting the machine.

Sizes are estimated from the arguments before torch allocates anything, so a
request over the limit is refused with a message instead of swapping or crashing.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tensorlab.core.messages.catalogue import Message, MessageError, msg, verbatim

__all__ = ["Limits", "DEFAULT_LIMITS", "LimitError", "SizeError", "factory_numel", "check_numel", "parse_size",
           "session_memory_limit", "format_size", "size_message", "count_text", "count_param", "subject",
           "code_subject"]


class LimitError(MessageError):
    """A request TensorLab refuses before running it because it is too large."""


class SizeError(MessageError, ValueError):
    """A memory limit given as text that is not a size TensorLab accepts."""


def subject(key: str, **params: object) -> Message:
    """What a limit is about, from the catalogue: ``subject("result")`` is "the result"."""
    return msg(f"limit.what.{key}", **params)


def code_subject(code: str) -> Message:
    """What a limit is about, as code: `torch.ones(...)`, `.tolist()`."""
    return msg("limit.what.code", code=code)


@dataclass(frozen=True)
class Limits:
    """The configurable bounds of a session and of lesson files."""

    max_elements: int = 10**8          # elements one tensor (or operand) may have
    max_statement_chars: int = 2000    # characters in one line of code
    max_depth: int = 100               # nesting of one statement's tree
    max_lesson_steps: int = 500
    max_lesson_bytes: int = 1_000_000
    max_sequence: int = 10**6          # length of a Python list/str built by `*`
    max_int_bits: int = 100_000        # size of a Python integer result
    max_output_chars: int = 100_000    # what one step may print; the rest is counted, not kept
    max_memory_bytes: int | None = None  # the session's memory budget (None: no budget)
    max_cost: int = 10**10             # element-operations one statement may ask for
    max_views: int = 10_000            # tensors one split/unbind/chunk may return
    max_dims: int = 64                 # dimensions of a tensor a step may make
    max_iterations: int = 1000         # iterations one `for` loop may run

    def with_memory(self, limit: int | None) -> Limits:
        """These limits with a memory budget of ``limit`` bytes."""
        return replace(self, max_memory_bytes=limit)



_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.I)


def parse_size(text: str) -> int:
    """`2G`, `500M`, `1.5GB`, `1048576` as bytes; ValueError names what is wrong.

    Refused: a size under 16 MB, and one over this machine's memory (which it cannot honour).
    """
    match = _SIZE.match(str(text))
    if match is None:
        raise SizeError(msg("limit.memory_size", text=text))
    factor: int = 1024 ** " kmgt".index(match.group(2).lower() or " ")
    whole, _, fraction = match.group(1).partition(".")
    # Exact arithmetic: 9999999999G or a 400-digit number is a size too large, never a float infinity.
    size = int(whole) * factor + (int(fraction) * factor // 10 ** len(fraction) if fraction else 0)
    if size < 16 * 1024**2:
        raise SizeError(msg("limit.memory_small", text=text))
    total = physical_memory()
    ceiling = total if total is not None else 1 << 50
    if size > ceiling:
        # A budget the machine cannot honour: the address-space cap would overflow, and the
        # guard would let a step allocate what the system then kills the worker for.
        raise SizeError(msg("limit.memory_large", text=text, size=format_size(ceiling)))
    return size


def format_size(size: int) -> str:
    """A byte count the way people read it: `2.0 GB`, `512 MB`."""
    for unit, factor in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if size >= factor:
            value = size / factor
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{size} bytes"


def size_message(size: int) -> Message:
    """:func:`format_size` as a message: under a kilobyte the unit is a word ("12 bytes", "12바이트")."""
    if size < 1024:
        return msg("size.bytes", count=size)
    return verbatim(format_size(size))


def physical_memory() -> int | None:
    """This machine's memory in bytes, where the system says."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def session_memory_limit() -> int:
    """The default budget: the smaller of 2 GB and a quarter of physical memory."""
    total = physical_memory()
    two_gb = 2 * 1024**3
    return two_gb if total is None else min(two_gb, total // 4)


def count_param(count: int) -> str | Message:
    """``count`` with thousands separators; a number too long to print as "about 10^N" (a message)."""
    if abs(count).bit_length() > 1000:
        return msg("limit.count_about", exponent=int(abs(count).bit_length() * math.log10(2)))
    return f"{count:,}"


def count_text(count: int) -> str:
    """``count`` as :func:`count_param` says it, in English."""
    return str(count_param(count))


def check_numel(numel: int, limits: Limits, what: Message | None = None) -> None:
    """Raise :class:`LimitError` if ``numel`` elements exceed the limit (``what``: this tensor)."""
    if numel > limits.max_elements:
        raise LimitError(msg("limit.elements", what=what if what is not None else subject("tensor"),
                             count=count_param(numel), limit=limits.max_elements))


def _size_from(args: Sequence[object]) -> tuple[int, ...]:
    """The size of `torch.ones(2, 3)` or `torch.ones((2, 3))`."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    size = []
    for value in args:
        if isinstance(value, bool) or not isinstance(value, int):
            index = getattr(value, "__index__", None)
            if index is None:
                raise TypeError("size must be integers")
            value = index()
        size.append(int(value))
    return tuple(size)


def _product(size: Sequence[int]) -> int:
    return math.prod(max(int(s), 0) for s in size)


def _range_count(start: float, end: float, step: float) -> int:
    if step == 0:
        return 0
    return max(0, math.ceil((float(end) - float(start)) / float(step)))


def factory_numel(name: str, args: Sequence[object], kwargs: dict[str, object], limits: Limits) -> int | None:
    """Elements that ``torch.<name>(*args, **kwargs)`` would allocate, checked against ``limits``.

    Returns None for functions that are not size factories. Raises
    :class:`LimitError` when over the limit, TypeError/ValueError when the
    arguments cannot be understood (torch will then report its own error).
    """
    numel: int | None
    if name in ("ones", "zeros", "empty", "rand", "randn"):
        size = kwargs.get("size")
        numel = _product(_size_from([size] if size is not None else list(args)))
    elif name == "full":
        size = kwargs.get("size", args[0] if args else ())
        numel = _product(_size_from([size]))
    elif name == "randint":
        size = kwargs.get("size")
        if size is None:
            size = next((a for a in args if isinstance(a, (tuple, list))), ())
        numel = _product(_size_from([size]))
    elif name == "arange":
        numbers = [float(a) for a in args if isinstance(a, (int, float)) and not isinstance(a, bool)]
        start = float(kwargs.get("start", 0.0))  # type: ignore[arg-type]
        step = float(kwargs.get("step", 1.0))  # type: ignore[arg-type]
        if len(numbers) == 1:
            end = numbers[0]
        elif len(numbers) >= 2:
            start, end = numbers[0], numbers[1]
            if len(numbers) >= 3:
                step = numbers[2]
        else:
            end = float(kwargs.get("end", 0.0))  # type: ignore[arg-type]
        if not all(map(math.isfinite, (start, end, step))):
            return None
        numel = _range_count(start, end, step)
    elif name == "linspace":
        steps = kwargs.get("steps", args[2] if len(args) > 2 else 0)
        numel = int(steps)  # type: ignore[call-overload]
    elif name == "eye":
        n = int(args[0]) if args else int(kwargs.get("n", 0))  # type: ignore[call-overload]
        m = int(args[1]) if len(args) > 1 else int(kwargs.get("m", n))  # type: ignore[call-overload]
        numel = max(n, 0) * max(m, 0)
    else:
        return None
    check_numel(numel, limits, code_subject(f"torch.{name}(...)"))
    return numel


def new_factory_numel(name: str, args: Sequence[object], kwargs: dict[str, object], limits: Limits) -> int | None:
    """Elements for `t.new_ones(size)` and friends (None for other methods)."""
    if name in ("new_ones", "new_zeros", "new_empty"):
        size = kwargs.get("size")
        numel = _product(_size_from([size] if size is not None else list(args)))
    elif name == "new_full":
        size = kwargs.get("size", args[0] if args else ())
        numel = _product(_size_from([size]))
    else:
        return None
    check_numel(numel, limits, code_subject(f".{name}(...)"))
    return numel


def broadcast_numel(shapes: Sequence[Sequence[int]]) -> int:
    """Elements of the broadcast of ``shapes`` (ValueError if they do not broadcast)."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for axis in range(ndim):
        sizes = {s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            raise ValueError("shapes do not broadcast")
        out.append(sizes.pop() if sizes else 1)
    return _product(out)


def matmul_numel(a: Sequence[int], b: Sequence[int]) -> int:
    """Elements of ``a @ b`` for shapes that multiply (ValueError otherwise)."""
    if not a or not b:
        raise ValueError("matmul needs at least 1-D operands")
    a2 = list(a) if len(a) > 1 else [1, a[0]]
    b2 = list(b) if len(b) > 1 else [b[0], 1]
    batch = broadcast_numel([a2[:-2], b2[:-2]])
    return batch * a2[-2] * b2[-1]


DEFAULT_LIMITS = Limits(max_memory_bytes=session_memory_limit())

# Time limits of every command that runs steps (`run`'s --step-time-limit and --time-limit): the
# window has the step limit too (and Esc); a run that ends (`run`, `check`, `export`) has both.
STEP_SECONDS = 10.0
RUN_SECONDS = 60.0

"""What an operation will make, estimated from shapes, sizes and types alone (nothing runs).

Pure functions used by :mod:`tensorlab.core.sandbox.guard`: the elements of a reduction,
the dtype a conversion makes, how many tensors a split returns, how much a
nested list holds (and whether it holds itself), how long a ``%`` format or a
Python value's text can get, and the work an autograd graph asks of backward.
Costs are in element-operations: one unit is about one elementwise float op.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.limits import LimitError

__all__ = [
    "MAX_NESTING",
    "PYTHON_ITEM",
    "WALK_ITEM",
    "TORCH_ITEM",
    "STORAGE_ITEM",
    "FORMATTED_ELEMENT",
    "VIEW_OBJECT",
    "VIEW_OBJECT_BYTES",
    "ARRAY_ITEM",
    "ARRAY_ITEM_BYTES",
    "ARRAY_SCALAR_BYTES",
    "PYTHON_NUMBER_BYTES",
    "Nested",
    "measure_nested",
    "is_array",
    "numel",
    "itemsize",
    "dtype_itemsize",
    "conversion_itemsize",
    "reduction_numel",
    "split_pieces",
    "text_size",
    "format_length",
    "backward_work",
    "backward_bytes",
]

MAX_NESTING = 32            # nesting of a list torch is given (torch allows 64 dimensions)

# Costs of Python-level work, in element-operations (measured on CPU, rounded up).
PYTHON_ITEM = 10            # one Python object made by Python or torch (tolist, list repeat)
WALK_ITEM = 200             # one item TensorLab itself looks at in Python (nested lists, comparisons, deepcopy)
TORCH_ITEM = 50             # one item of a Python sequence that torch.tensor() walks
STORAGE_ITEM = 1_000        # one byte of a storage that torch.tensor() walks as a Python sequence
FORMATTED_ELEMENT = 5_000   # one tensor element torch formats as text
# One tensor object (a split piece, an unbind, a row of an iterated tensor), measured on torch 2.x: its
# TensorImpl ~620 bytes (glibc mallinfo2), the Python object and a list slot 88 bytes (tracemalloc);
# ~1.3 us to make, about 1,300 float additions. A NumPy array yields a scalar (~140 bytes) or a row view
# (~350 bytes) per item when it is iterated whole, ~1 us each.
VIEW_OBJECT = 2_000         # one tensor object a split/unbind/iteration makes
VIEW_OBJECT_BYTES = 1024    # its memory (the Python object and its TensorImpl: measured ~710, with a margin)
ARRAY_ITEM = 1_500          # one item of a NumPy array iterated whole
ARRAY_ITEM_BYTES = 384      # its memory: a row view of an array of 2 or more dimensions
ARRAY_SCALAR_BYTES = 48     # a NumPy scalar (an item of a 1-d array) and its list slot (measured: 40)
PYTHON_NUMBER_BYTES = 48    # a Python float in a list (the object, the list's pointer: measured 40 with tracemalloc)
_NODE = 1_000               # one autograd node that backward visits
_MAX_NODES = 100_000        # nodes walked to estimate backward (beyond: charged as this many)


def numpy_module() -> Any:
    """NumPy, if something imported it (TensorLab never imports it just to check a type)."""
    return sys.modules.get("numpy")


def is_array(value: Any) -> bool:
    """A tensor or a NumPy array (what has a shape and elements)."""
    if isinstance(value, torch.Tensor):
        return True
    numpy = numpy_module()
    return numpy is not None and isinstance(value, numpy.ndarray)


def numel(value: Any) -> int:
    """Elements of a tensor or array."""
    return value.numel() if isinstance(value, torch.Tensor) else int(value.size)


def itemsize(value: Any) -> int:
    """Bytes per element of a tensor or array."""
    return value.element_size() if isinstance(value, torch.Tensor) else int(value.itemsize)


def dtype_itemsize(dtype: Any) -> int | None:
    """Bytes per element of a torch dtype (None for anything else)."""
    if isinstance(dtype, torch.dtype):
        return dtype.itemsize
    return None


_CONVERSIONS = {"double": 8, "float": 4, "half": 2, "int": 4, "long": 8, "bool": 1}


def conversion_itemsize(name: str, args: Sequence[Any], kwargs: Mapping[str, Any], current: int) -> int:
    """Bytes per element of what `.double()`, `.to(torch.float64)`, `.to(other)` ... make."""
    if name in _CONVERSIONS:
        return _CONVERSIONS[name]
    if name in ("to", "new_tensor", "new_ones", "new_zeros", "new_full", "new_empty", "type"):
        for value in [kwargs.get("dtype"), *args]:
            size = dtype_itemsize(value)
            if size is not None:
                return size
            if name == "to" and isinstance(value, torch.Tensor):
                return value.element_size()
    return current


def _dims(dim: Any, ndim: int) -> set[int] | None:
    values = dim if isinstance(dim, (tuple, list)) else [dim]
    found = set()
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not -max(ndim, 1) <= value < max(ndim, 1):
            return None
        found.add(value % max(ndim, 1))
    return found


def reduction_numel(shape: Sequence[int], args: Sequence[Any], kwargs: Mapping[str, Any]) -> int:
    """Elements of `sum/mean/max/min` over ``dim`` of a tensor of ``shape`` (1 without a dim).

    Over a zero-size dimension the result keeps every other dimension: sum(0) of a
    (0, n) tensor has n elements, made from none.
    """
    dim = kwargs.get("dim", args[0] if args else None)
    if dim is None or not shape:
        return 1
    dims = _dims(dim, len(shape))
    if dims is None:
        return 1  # torch explains a dim it cannot use
    return math.prod(max(int(s), 0) for axis, s in enumerate(shape) if axis not in dims)


def split_pieces(name: str, shape: Sequence[int], args: Sequence[Any], kwargs: Mapping[str, Any]) -> int | None:
    """Tensors that split/chunk/unbind/tensor_split return (None where torch will complain)."""
    if name == "unbind":
        dims = _dims(kwargs.get("dim", args[0] if args else 0), len(shape))
        return None if dims is None or not shape else int(shape[dims.pop()])
    dims = _dims(kwargs.get("dim", args[1] if len(args) > 1 else 0), len(shape))
    if dims is None or not shape:
        return None
    size = int(shape[dims.pop()])
    first = args[0] if args else kwargs.get("split_size_or_sections", kwargs.get(
        "split_size", kwargs.get("chunks", kwargs.get("indices_or_sections", kwargs.get("sections")))))
    if isinstance(first, (list, tuple)):
        return len(first) + (1 if name == "tensor_split" else 0)
    if name == "tensor_split" and isinstance(first, torch.Tensor) and first.dim() == 1:
        return first.numel() + 1  # a 1-d tensor of indices: one piece more than indices
    if isinstance(first, int) and not isinstance(first, bool):
        if name == "split":
            return math.ceil(size / first) if first > 0 else None
        return first  # chunk, tensor_split: the number of pieces
    return None


@dataclass(frozen=True)
class Nested:
    """What a nested list or tuple holds: leaves (with repeats), their elements, its depth."""

    leaves: int
    elements: int
    depth: int
    storage_bytes: int = 0   # bytes of storages among the leaves (torch walks them one by one)
    visits: int = 0          # items this measure looked at (its own cost)


_END = object()


def measure_nested(value: Any, max_leaves: int, what: Message) -> Nested:
    """Measure a nested list/tuple without walking a shared sublist twice.

    Raises :class:`LimitError` when it contains itself, nests deeper than
    :data:`MAX_NESTING` or holds more than ``max_leaves`` leaves (counted with
    repeats: ``[l] * 1000`` holds 1000 times what ``l`` holds, as torch would see).
    """
    if not isinstance(value, (list, tuple)):
        return Nested(1, numel(value) if is_array(value) else 1, 0)
    memo: dict[int, tuple[int, int, int, int]] = {}
    on_path = {id(value)}
    # Frames: [container, iterator, leaves, elements, depth below, storage bytes]
    stack: list[list[Any]] = [[value, iter(value), 0, 0, 0, 0]]
    result = (0, 0, 0, 0)
    visits = 0
    while stack:
        frame = stack[-1]
        item = next(frame[1], _END)
        visits += 1
        if item is _END:
            stack.pop()
            on_path.discard(id(frame[0]))
            result = (frame[2], frame[3], frame[4] + 1, frame[5])
            memo[id(frame[0])] = result
            if stack:
                _add(stack[-1], result)
            continue
        if isinstance(item, (list, tuple)):
            key = id(item)
            if key in on_path:
                raise LimitError(msg("limit.cycle", what=what))
            if key in memo:
                _add(frame, memo[key])
            elif len(stack) >= MAX_NESTING:
                raise LimitError(msg("limit.nesting", what=what, limit=MAX_NESTING))
            else:
                on_path.add(key)
                stack.append([item, iter(item), 0, 0, 0, 0])
        else:
            frame[2] += 1
            if is_array(item):
                frame[3] += numel(item)
            elif isinstance(item, (torch.UntypedStorage, torch.TypedStorage)):
                frame[3] += item.nbytes()
                frame[5] += item.nbytes()
            else:
                frame[3] += 1
        if frame[2] > max_leaves:
            raise LimitError(msg("limit.leaves", what=what, limit=max_leaves))
    return Nested(result[0], result[1], result[2], result[3], visits)


def _add(frame: list[Any], child: tuple[int, int, int, int]) -> None:
    frame[2] += child[0]
    frame[3] += child[1]
    frame[4] = max(frame[4], child[2])
    frame[5] += child[3]


def text_size(value: Any, limit: int) -> tuple[int, int]:
    """(size, visits): characters and items a comparison or a text of ``value`` may go through (up to
    ``limit``), and how many items this walk looked at.

    Strings count their length, lists and tuples their items plus what the items
    hold (a shared sublist counted each time it appears, as Python would walk it),
    tensors and arrays their elements. A list that holds itself counts once.
    """
    if isinstance(value, str):
        return len(value), 1
    if is_array(value):
        return numel(value), 1
    if not isinstance(value, (list, tuple)):
        return 1, 1
    memo: dict[int, int] = {}
    on_path: set[int] = set()
    visits = 0

    def walk(container: Sequence[Any], depth: int) -> int:
        nonlocal visits
        key = id(container)
        if key in memo:
            return memo[key]
        if key in on_path or depth > MAX_NESTING:
            return 1
        on_path.add(key)
        total = len(container)
        for item in container:
            visits += 1
            if total > limit:
                break
            if isinstance(item, (list, tuple)):
                total += walk(item, depth + 1)
            elif isinstance(item, str):
                total += len(item)
            elif is_array(item):
                total += numel(item)
        on_path.discard(key)
        memo[key] = total
        return total

    return walk(value, 0), visits


def format_length(template: str, args: Any, limit: int) -> int:
    """An upper estimate of ``len(template % args)`` (each argument's text is bounded by ``limit``)."""
    from tensorlab.core.observe.reprs import bounded_str

    values = args if type(args) is tuple else (args,)
    total = len(template)
    for value in values:
        if isinstance(value, str):
            total += 10 * len(value) + 2   # %r/%a may escape each character (\U0001f600)
        elif isinstance(value, bool) or value is None:
            total += 5
        elif isinstance(value, int):
            total += value.bit_length() // 3 + 2
        elif isinstance(value, float):
            total += 330
        else:
            total += len(bounded_str(value, limit + 1))
        if total > limit:
            break
    return total


def _graph(tensor: torch.Tensor) -> tuple[int, list[torch.Tensor]]:
    """(nodes, leaves) of the autograd graph behind ``tensor`` (each node once, up to :data:`_MAX_NODES`)."""
    root = tensor.grad_fn
    if root is None:
        return 0, []
    seen = {id(root)}
    queue = [root]
    leaves: list[torch.Tensor] = []
    nodes = 0
    while queue and nodes < _MAX_NODES:
        node = queue.pop()
        nodes += 1
        variable = getattr(node, "variable", None)
        if isinstance(variable, torch.Tensor):
            leaves.append(variable)
        for child, _ in getattr(node, "next_functions", ()):
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                queue.append(child)
    return (_MAX_NODES if queue else nodes), leaves


def backward_work(tensor: torch.Tensor) -> tuple[int, int]:
    """(element-operations, bytes of new gradients) that ``tensor.backward()`` may ask for.

    Walks the graph from ``tensor.grad_fn`` (each node once): each node costs a
    visit and the elements of the largest tensor flowing through the graph; each
    leaf without a gradient yet gets one as large as itself.
    """
    nodes, leaves = _graph(tensor)
    if not nodes:
        return 0, 0
    widest = max([tensor.numel(), *(leaf.numel() for leaf in leaves)])
    new_grads = sum(leaf.numel() * leaf.element_size() for leaf in leaves if leaf.grad is None)
    return nodes * (_NODE + widest), new_grads


def backward_bytes(tensor: torch.Tensor) -> int:
    """Memory ``tensor.backward()`` may hold at its peak, over what the session holds before it.

    Replays the engine's walk (a node runs once all the gradients it receives have arrived, newest node
    first): each gradient a node sends is a new buffer of its receiver's size, except a view node's (``t()``,
    ``permute``, ...), which aliases the one it received; a node that reduces (its output smaller than what it
    received: a broadcast's ``sum_to``) holds one temporary as large as its input while it runs; a leaf
    without a ``.grad`` keeps the buffer it receives as its gradient, one with a ``.grad`` adds it in place.
    Graphs too large to replay are charged the coarse bound (new gradients and two of the widest in flight).
    """
    root = tensor.grad_fn
    if root is None:
        return 0
    replayed = _replay_backward(root, _bytes(tensor.numel(), tensor.element_size()))
    if replayed is not None:
        return replayed
    nodes, leaves = _graph(tensor)
    widest = max([tensor, *leaves], key=lambda t: t.numel() * t.element_size())
    new_grads = sum(leaf.numel() * leaf.element_size() for leaf in leaves if leaf.grad is None)
    return new_grads + 2 * max(widest.numel() * widest.element_size(), _widest_gradient(tensor))


# Kernels' workspaces and the allocator's rounding during a backward (measured: a few hundred KB to 2 MB).
_BACKWARD_SLACK = 4 << 20

# Backward nodes whose gradient is a view of the one they receive (no new memory).
_VIEW_NODES = frozenset({"TBackward", "TransposeBackward", "PermuteBackward", "SqueezeBackward",
                         "UnsqueezeBackward", "AliasBackward"})


def _bytes(numel: int, size: int) -> int:
    return max(numel, 1) * size


def _meta_bytes(node: Any, index: int) -> int:
    """Bytes of the gradient ``node`` receives at input ``index`` (from its input metadata)."""
    try:
        meta = node._input_metadata[index]
        return _bytes(math.prod(meta.shape), torch.empty((), dtype=meta.dtype).element_size())
    except (RuntimeError, TypeError, AttributeError, IndexError):
        return 0


def _replay_backward(root: Any, seed: int) -> int | None:
    """Peak bytes of the engine's walk from ``root`` (see :func:`backward_bytes`); None over :data:`_MAX_NODES`."""
    import heapq

    # Dependencies: how many edges reach each node (the engine runs a node when all have arrived).
    pending: dict[int, int] = {id(root): 0}
    nodes: dict[int, Any] = {id(root): root}
    queue = [root]
    while queue:
        node = queue.pop()
        for child, _ in getattr(node, "next_functions", ()):
            if child is None:
                continue
            if id(child) not in nodes:
                if len(nodes) >= _MAX_NODES:
                    return None
                nodes[id(child)] = child
                pending[id(child)] = 0
                queue.append(child)
            pending[id(child)] += 1
    # The buffers waiting at each node: (bytes really allocated, bytes of the gradient's shape).
    received: dict[int, tuple[int, int]] = {id(root): (seed, seed)}
    live = peak = seed
    ready: list[tuple[int, int, Any]] = [(0, 0, root)]
    order = 0
    while ready:
        _, _, node = heapq.heappop(ready)
        real, nominal = received.pop(id(node), (0, 0))
        name = type(node).__name__.rstrip("0123456789")
        variable = getattr(node, "variable", None)
        if isinstance(variable, torch.Tensor):  # AccumulateGrad
            if variable.grad is not None:
                live -= real  # added in place into the .grad
            elif real < nominal:  # an expanded gradient: .grad is a copy of it
                live += nominal - real
                peak = max(peak, live)
            continue  # else the buffer itself becomes .grad
        sends = [(child, index) for child, index in getattr(node, "next_functions", ()) if child is not None]
        if name in _VIEW_NODES:
            shares = [(real, nominal)] + [(0, 0)] * (len(sends) - 1)
            made = temporary = 0
        else:
            sizes = [_meta_bytes(child, index) for child, index in sends]
            expands = name == "SumBackward" and real <= 64  # a full sum's gradient: an expanded scalar
            shares = [(0 if expands else size, size) for size in sizes]
            made = sum(share[0] for share in shares)
            # A reducing node (a broadcast's sum_to) computes each reduced gradient at its input's size first.
            temporary = 0 if expands else nominal * min(2, sum(size < nominal for size in sizes))
        peak = max(peak, live + made + temporary)
        live += made - (0 if name in _VIEW_NODES else real)
        for (child, _), share in zip(sends, shares, strict=True):
            key = id(child)
            if key in received:  # a second gradient for the same input is added to the first
                old = received[key]
                live -= min(old[0], share[0])
                received[key] = (max(old[0], share[0]), max(old[1], share[1]))
            else:
                received[key] = share
            pending[key] -= 1
            if pending[key] == 0:
                order += 1
                sequence = child._sequence_nr() if hasattr(child, "_sequence_nr") else 0
                heapq.heappush(ready, (-sequence, order, child))
    return peak + _BACKWARD_SLACK


def _widest_gradient(tensor: torch.Tensor) -> int:
    """Bytes of the widest gradient a node of ``tensor``'s graph receives (its input metadata), 0 if unknown."""
    root = tensor.grad_fn
    if root is None:
        return 0
    seen, queue, widest, nodes = {id(root)}, [root], 0, 0
    while queue and nodes < _MAX_NODES:
        node = queue.pop()
        nodes += 1
        for meta in getattr(node, "_input_metadata", ()):
            try:
                numel = math.prod(meta.shape)
                size = torch.empty((), dtype=meta.dtype).element_size()
            except (RuntimeError, TypeError, AttributeError):
                continue
            widest = max(widest, numel * size)
        for child, _ in getattr(node, "next_functions", ()):
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                queue.append(child)
    return widest

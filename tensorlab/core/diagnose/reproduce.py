"""A reproduction of a diagnosed error: statements of the code subset that raise it again, from its facts alone.

The statements are built only from the parsed integers (shape, versions, output index, device index)
and from names in this module's allowlists (node -> the expression that makes a tensor with that
``grad_fn``; dtype names; device types), never from a substring of the paste. Run with plain torch
(and in TensorLab's worker), a reproduction raises the same type with the same node (or the named
analogue it says), shape, dtype and versions as the pasted message, with these exceptions, each
reported: a shape over :data:`MAX_ELEMENTS` is scaled down keeping its rank, and versions over
:data:`MAX_BUMPS` are lowered (``scaled_down``); a CUDA tensor is reproduced on the CPU (its CPU
analogue, ``needs="cuda"``); a device mismatch has no CPU analogue (``runs_here=False``), unless the
devices it names are the CPU and meta (torch's Python check's wording), which every machine has.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tensorlab.core.diagnose.families import Family, normal_node, tensor_dtype

__all__ = ["Reproduction", "reproduce", "MAX_ELEMENTS", "MAX_BUMPS", "scale_shape", "CREATORS", "VIEW_NODES",
           "ANALOGUES", "SHAPED"]

MAX_ELEMENTS = 100_000     # elements of the reproduction's tensor: enough to see, small for the map
MAX_BUMPS = 1_000          # in-place changes one loop makes (a `for` loop's iteration limit)
MAX_OUTPUTS = 99           # outputs of unbind/split a reproduction makes

# node (as torch 2.x names it) -> the expression of ``x`` whose result has that grad_fn and x's shape.
CREATORS: dict[str, str] = {
    "Relu": "torch.relu(x)", "Sigmoid": "torch.sigmoid(x)", "Tanh": "torch.tanh(x)", "Exp": "torch.exp(x)",
    "Mul": "x * 2", "Add": "x + 1", "Sub": "x - 1", "Div": "x / 2", "Pow": "x ** 2", "Neg": "-x",
    "Clone": "x.clone()", "Sin": "torch.sin(x)", "Cos": "torch.cos(x)", "Abs": "torch.abs(x)",
    "Sqrt": "torch.sqrt(x)", "Log": "torch.log(x)",
}
# Nodes that save their own output: with an expected version of 0 the simplest reproduction changes the result.
_SAVE_OUTPUT = frozenset({"Relu", "Sigmoid", "Tanh", "Exp"})
# Views: once a view's base changes in place, torch 2.x names the view's node AsStrided.
VIEW_NODES = frozenset({"AsStrided", "View", "T", "Transpose", "Select", "Slice", "Unsqueeze", "Squeeze",
                        "Permute", "Expand", "Narrow", "Diagonal", "Unfold", "Alias", "Reshape", "UnsafeView"})
_REDUCTIONS = {"Sum": "sum", "Mean": "mean"}
# Nodes whose operation changes the shape: x's shape and the expression, from the saved tensor's shape.
SHAPED = frozenset({"Mm", "Cat", "Stack", "Index", "Max"})
# Nodes the code subset cannot make, and the operation of the same kind that stands in (named in the explanation).
ANALOGUES = {"Addmm": "Mm", "Bmm": "Mm", "Matmul": "Mm", "Mv": "Mm", "LeakyRelu": "Relu", "Hardtanh": "Relu",
             "Threshold": "Relu", "Elu": "Relu", "Gelu": "Relu", "Silu": "Sigmoid", "Softplus": "Sigmoid",
             "Softmax": "Exp", "LogSoftmax": "Exp", "Embedding": "Index", "IndexSelect": "Index", "Gather": "Index",
             "Maximum": "Max", "Amax": "Max", "Rsub": "Sub", "Reciprocal": "Div", "Square": "Pow"}
_MULTI_VIEWS = {"Unbind": "unbind", "Split": "split", "SplitWithSizes": "split_sizes"}
_FLOAT = frozenset({"float32", "float64", "float16", "bfloat16", "complex64", "complex128"})
_INTEGER = frozenset({"int64", "int32", "int16", "int8"})


@dataclass(frozen=True)
class Reproduction:
    """The statements, and what they could not keep of the message.

    ``needs``: the device the pasted error ran on that the reproduction replaces ("cuda"), None for none;
    ``runs_here``: the statements run on a CPU-only machine; ``scaled_down``: a shape, version or output
    index is smaller than the message's; ``analogue``: the node the reproduction uses in place of the
    message's (None: the message's own, or no node); ``versions_replaced``, ``node_dropped``, ``dtype_used``:
    what else the reproduction's own message says differently (each said in the explanation).
    """

    statements: tuple[str, ...]
    needs: str | None = None
    runs_here: bool = True
    scaled_down: bool = False
    analogue: str | None = None
    versions_replaced: bool = False    # the message's versions are impossible: the reproduction shows 1 and 0
    node_dropped: bool = False         # the message names a node; the reproduction's message names none
    dtype_used: str | None = None      # the saved tensor's dtype, when it is not the message's


def scale_shape(shape: list[int], limit: int = MAX_ELEMENTS) -> tuple[list[int], bool]:
    """``shape`` with at most ``limit`` elements, keeping its rank: the largest sizes halved until it fits."""
    dims = list(shape)
    total = 1
    for size in dims:
        total *= max(size, 1)
    scaled = False
    while total > limit:
        largest = max(range(len(dims)), key=lambda i: dims[i])
        before = dims[largest]
        if before > 2 * limit:       # far too large (10^12): straight to the limit, not one halving at a time
            dims[largest] = limit
        else:
            dims[largest] = (before + 1) // 2
        total = total // before * dims[largest] if before else total
        scaled = True
    return dims, scaled


def _shape_args(dims: list[int]) -> str:
    return ", ".join(str(int(size)) for size in dims) if dims else "()"


def _randn(name: str, dims: list[int], dtype: str = "float32", grad: bool = True) -> str:
    dtype_arg = "" if dtype == "float32" else f", dtype=torch.{dtype}"
    grad_arg = ", requires_grad=True" if grad else ""
    return f"{name} = torch.randn({_shape_args(dims)}{dtype_arg}{grad_arg})"


def _bumps(name: str, count: int, change: str = "add_(0)") -> list[str]:
    """Statements that raise ``name``'s version by ``count`` without recording anything (as an optimizer does)."""
    if count <= 0:
        return []
    if count == 1:
        return [f"with torch.no_grad():\n    {name}.{change}"]
    return [f"with torch.no_grad():\n    for step in range({int(count)}):\n        {name}.{change}"]


def reproduce(family: Family) -> Reproduction | None:
    """The reproduction of ``family`` (None: none can be made)."""
    if family.name == "integer_grad":
        return _integer_grad(family.message)
    maker = _MAKERS.get(family.name)
    return None if maker is None else maker(family.facts)


def _integer_grad(message: str) -> Reproduction:
    """torch 2 words this error three ways, by where the flag is set: the factory's ``requires_grad=True`` ("Only
    Tensors of floating point and complex dtype ..."), ``requires_grad_()`` ("only Tensors of floating point dtype
    ...", also torch 1.x's words for every way), or the attribute ``x.requires_grad = True`` ("only Tensors of
    floating point and complex dtype ..."); the reproduction sets it the way the message says, so it raises the
    same words."""
    if message.startswith("only Tensors of floating point dtype"):
        return Reproduction(("x = torch.tensor([1, 2, 3])", "x.requires_grad_()"))
    if message.startswith("only Tensors of floating point and complex dtype"):
        return Reproduction(("x = torch.tensor([1, 2, 3])", "x.requires_grad = True"))
    return Reproduction(("x = torch.tensor([1, 2, 3], requires_grad=True)",))


def _saved_changed(facts: dict[str, Any]) -> Reproduction:
    dims, scaled = scale_shape(facts.get("shape", [3]))
    dtype = facts.get("dtype", "float32")
    version, expected = facts.get("version"), facts.get("expected_version")
    replaced = isinstance(version, int) and isinstance(expected, int) and version <= expected
    if not isinstance(version, int) or not isinstance(expected, int) or version <= expected:
        version, expected = 1, 0     # a version only goes up: an impossible pair is shown as the usual one
    if expected > MAX_BUMPS or version - expected > MAX_BUMPS:
        expected, version = min(expected, MAX_BUMPS), min(expected, MAX_BUMPS) + min(version - expected, MAX_BUMPS)
        scaled = True
    device = tensor_dtype(str(facts.get("tensor_type", "")))[1]
    needs = device if device not in (None, "cpu") else None
    node = normal_node(str(facts["node"])) if "node" in facts else None
    analogue = None
    if facts.get("output_index", 0) != 0 and node is not None:
        analogue = node    # another output of a node with several: reproduced as output 0 of the same kind
    if dtype not in _FLOAT:
        return replace(_saved_index(dims, dtype, expected, version, needs, scaled, node), versions_replaced=replaced)
    return replace(_saved_float(dims, dtype, expected, version, needs, scaled, node, analogue),
                   versions_replaced=replaced)


def _saved_float(dims: list[int], dtype: str, expected: int, version: int, needs: str | None, scaled: bool,
                 node: str | None, analogue: str | None) -> Reproduction:
    """A saved floating tensor changed in place: made by ``node`` (or its analogue), or a leaf (no node)."""
    if node is None:           # a leaf (a parameter an optimizer stepped): saved, then changed
        statements = [_randn("w", dims, dtype), *_bumps("w", expected), "z = w.sin()",
                      *_bumps("w", version - expected), "z.sum().backward()"]
        return Reproduction(tuple(statements), needs, True, scaled, None)
    if node in VIEW_NODES:
        statements = [_randn("w", dims, dtype), "y = w.view_as(w)", *_bumps("w", expected), "z = y.sin()",
                      *_bumps("w", version - expected), "z.sum().backward()"]
        return Reproduction(tuple(statements), needs, True, scaled, None if node == "AsStrided" else "AsStrided")
    if node == "CopySlices" and dims and expected >= 1:
        statements = [_randn("x", dims, dtype), "y = x * 1", "y[0] = 0", *_bumps("y", expected - 1), "z = y.sin()",
                      *_bumps("y", version - expected), "z.sum().backward()"]
        return Reproduction(tuple(statements), needs, True, scaled, analogue)
    if node == "ToCopy":
        source = "float64" if dtype == "float32" else "float32"
        creator = f"x.to(torch.{dtype})"
        first = _randn("x", dims, source)
    elif node in _REDUCTIONS:
        method = _REDUCTIONS[node]
        first = _randn("x", [2, *dims] if dims else [3], dtype)
        creator = f"x.{method}(0)" if dims else f"x.{method}()"
    else:
        kind = node if node in CREATORS or node in SHAPED else ANALOGUES.get(node, "Mul")
        shaped = _shaped(kind, dims, dtype) if kind in SHAPED else None
        if kind in SHAPED and shaped is None:
            kind = "Mul"     # this shape cannot come out of that operation: its analogue of the same shape
        if kind != node:
            analogue = kind
        if shaped is not None:
            x_dims, creator = shaped
        else:
            x_dims, creator = dims, CREATORS[kind]
        first = _randn("x", x_dims, dtype)
    if node in _SAVE_OUTPUT and expected == 0:
        change = ["y.add_(1)"] if version == 1 else [f"for step in range({int(version)}):\n    y.add_(1)"]
        statements = [first, f"y = {creator}", *change, "y.sum().backward()"]
    else:
        statements = [first, f"y = {creator}", *_bumps("y", expected), "z = y.sin()",
                      *_bumps("y", version - expected), "z.sum().backward()"]
    return Reproduction(tuple(statements), needs, True, scaled, analogue)


def _shaped(node: str, dims: list[int], dtype: str) -> tuple[list[int], str] | None:
    """x's shape and the expression of ``node`` whose result has shape ``dims`` (None: no such shape)."""
    dtype_arg = "" if dtype == "float32" else f", dtype=torch.{dtype}"
    if node == "Mm" and len(dims) == 2:
        return [dims[0], 3], f"torch.matmul(x, torch.ones(3, {int(dims[1])}{dtype_arg}))"
    if node == "Cat" and dims and dims[0] >= 2 and dims[0] % 2 == 0:
        return [dims[0] // 2, *dims[1:]], "torch.cat([x, x])"
    if node == "Stack" and dims and dims[0] == 2:
        return dims[1:], "torch.stack([x, x])"
    if node == "Index" and dims:
        return [1, *dims[1:]], f"x[torch.zeros({int(dims[0])}, dtype=torch.int64)]"
    if node == "Max":
        return [2, *dims], "x.max(0)[0]"
    return None


def _saved_index(dims: list[int], dtype: str, expected: int, version: int, needs: str | None, scaled: bool,
                 node: str | None) -> Reproduction:
    """A saved integer or bool tensor changed in place: indices that indexing saved, or a mask ``masked_fill``
    saved. torch names no node for such a tensor (it is an input of the operation, not an output), so when the
    message names one the reproduction says its own message names none."""
    if not dims:
        dims, scaled = [1], True
    if dtype == "bool":
        statements = [f"src = torch.randn({_shape_args(dims)}, requires_grad=True)",
                      f"mask = torch.rand({_shape_args(dims)}) > 0.5",
                      *_bumps("mask", expected, "zero_()"), "z = src.masked_fill(mask, 0)",
                      *_bumps("mask", version - expected, "zero_()"), "z.sum().backward()"]
        return Reproduction(tuple(statements), needs, True, scaled, None, node_dropped=node is not None)
    index_dtype = dtype if dtype in _INTEGER else "int64"
    dtype_arg = "" if index_dtype == "int64" else f", dtype=torch.{index_dtype}"
    statements = ["src = torch.randn(10, requires_grad=True)",
                  f"idx = torch.randint(0, 10, ({_shape_args(dims)},){dtype_arg})" if len(dims) == 1 else
                  f"idx = torch.randint(0, 10, ({_shape_args(dims)}){dtype_arg})",
                  *_bumps("idx", expected), "z = src[idx]", *_bumps("idx", version - expected), "z.sum().backward()"]
    return Reproduction(tuple(statements), needs, True, scaled, None, node_dropped=node is not None,
                        dtype_used=None if index_dtype == dtype else index_dtype)


def _multi_view(facts: dict[str, Any]) -> Reproduction:
    node = normal_node(str(facts.get("node", "Unbind")))
    analogue = None if node in _MULTI_VIEWS else "Unbind"
    index = facts.get("output_index", 0)
    scaled = False
    if not isinstance(index, int) or index > MAX_OUTPUTS:
        index, scaled = MAX_OUTPUTS, True
    count = index + 2
    how = _MULTI_VIEWS.get(node, "unbind")
    call = {"unbind": "y.unbind(0)", "split": "y.split(1)",
            "split_sizes": "y.split([" + ", ".join(["1"] * count) + "])"}[how]
    statements = (f"x = torch.randn({count}, 3, requires_grad=True)", "y = x * 1", f"parts = {call}",
                  f"p = parts[{int(index)}]", "p.add_(1)")
    return Reproduction(statements, None, True, scaled, analogue)


def _mixed_devices(facts: dict[str, Any]) -> Reproduction:
    named = list(facts.get("devices", []))
    devices = [d for d in named if d != "meta"]
    if len(devices) < 2 and "meta" in named and len(named) >= 2:
        devices = named   # a meta tensor beside a CPU one: the same check, and it runs on any machine
    elif len(devices) < 2:
        devices = ["cuda:0", "cpu"]
    first, second = devices[0], devices[1]
    needs = next((d.split(":")[0] for d in (first, second) if d not in ("cpu", "meta")), None)

    def make(name: str, device: str) -> str:
        return f"{name} = torch.randn(3)" if device == "cpu" else f"{name} = torch.randn(3, device={device!r})"

    return Reproduction((make("x", first), make("y", second), "x + y"), needs, needs is None, False, None)


def _fixed(*statements: str) -> Any:
    return lambda facts: Reproduction(tuple(statements))


_MAKERS: dict[str, Any] = {
    "saved_changed": _saved_changed,
    "multi_view_inplace": _multi_view,
    "mixed_devices": _mixed_devices,
    "leaf_inplace": _fixed("x = torch.randn(3, requires_grad=True)", "x.add_(1)"),
    "leaf_view_inplace": _fixed("x = torch.randn(3, requires_grad=True)", "v = x[0:2]", "v.add_(1)"),
    "graph_used": _fixed("x = torch.randn(3, requires_grad=True)", "y = torch.exp(x).sum()", "y.backward()",
                         "y.backward()"),
    "nothing_to_differentiate": _fixed("x = torch.randn(3)", "y = (x * 2).sum()", "y.backward()"),
    "numpy_grad": _fixed("x = torch.randn(3, requires_grad=True)", "x.numpy()"),
    "nonleaf_grad": _fixed("x = torch.randn(3, requires_grad=True)", "y = x * 2", "y.sum().backward()", "y.grad"),
    "view_strides": _fixed("x = torch.randn(4, 6)", "y = x.t()", "y.view(24)"),
    "no_grad_view": _fixed("x = torch.randn(3, requires_grad=True)", "y = x * 1",
                           "with torch.no_grad():\n    v = y[0:2]", "v.add_(1)"),
    "expanded_write": _fixed("x = torch.zeros(1, 3)", "y = x.expand(4, 3)", "y.add_(1)"),
    "tensor_copies": _fixed("x = torch.randn(3)", "y = torch.tensor(x)"),
    "backward_scalar": _fixed("x = torch.randn(3, requires_grad=True)", "y = x * 2", "y.backward()"),
    "inference_saved": _fixed("with torch.inference_mode():\n    x = torch.randn(3)",
                              "w = torch.randn(3, requires_grad=True)", "y = w * x"),
    "inference_readonly": _fixed("with torch.inference_mode():\n    x = torch.randn(3)", "x.add_(1)"),
    "overlapping_write": _fixed("x = torch.arange(6.0)", "x[1:].copy_(x[:-1])"),
    "leaf_requires_grad": _fixed("x = torch.randn(3, requires_grad=True)", "y = x * 2", "y.requires_grad_(False)"),
    "deepcopy_nonleaf": _fixed("import copy", "x = torch.randn(3, requires_grad=True)", "y = x * 2",
                               "z = copy.deepcopy(y)"),
}

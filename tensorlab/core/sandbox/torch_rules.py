"""Torch's own rules, as the guard needs them: which rule estimates each allowlisted callable, the dtype
a result gets, when a reshape can view and when it must copy, the work of an integer power.

Every callable :mod:`tensorlab.core.lang.allowlist` lets a step reach has exactly one entry in
:data:`TORCH_RULES` (``torch.<name>``), :data:`METHOD_RULES` (``tensor.<name>``) or
:data:`OTHER_RULES` (``copy.deepcopy`` and the builtins); the guard
refuses a callable that has none (a name added to the allowlist without a rule is never
run unestimated). Each rule names how torch sizes what the call allocates:

- ``factory``/``new_factory``: a new tensor of a given size; ``like``: one as large as a tensor;
- ``data``: a tensor made from data (a tensor, an array, a nested list, a storage);
- ``elementwise``: one result of the broadcast shape of every operand, in the promoted dtype,
  plus a converted copy of each operand whose dtype is not the one torch computes in;
- ``float_elementwise``: the same, computed in a floating dtype (``exp`` of an int tensor);
- ``pow``/``pow_inplace``: elementwise (in place), and an integer power loops over the exponent's bits;
- ``close``: ``allclose``/``isclose`` broadcast their operands and keep three temporaries;
- ``equal``: compares without broadcasting; a dtype mismatch converts one operand;
- ``reduction``: ``sum``/``mean`` (integers and bools are summed as int64: converted first);
- ``maxmin``: ``max``/``min``: a reduction, or elementwise with a tensor argument;
- ``concat``, ``matmul``, ``index_select``, ``gather``, ``repeat``, ``tolist``, ``backward``,
  ``deepcopy``: their own shapes;
- ``reshape``: a view when torch can view the strides (:func:`view_strides`), else a copy;
- ``contiguous``: a copy unless the tensor is contiguous already;
- ``conversion``: a copy unless the dtype (and device) stay the same;
- ``clone``: a copy of every element (an expanded tensor's too);
- ``split``: one tensor object per piece;
- ``view``: no new elements (a tensor object);
- ``inplace``: work on the tensor, no new result (a temporary where it computes in another dtype);
- ``none``: queries, bookkeeping, grad modes;
- ``list``: ``list(...)`` of a tensor (unbound whole), a dict, a sequence;
- :data:`NN_RULES` (the training step's calls, :mod:`tensorlab.core.sandbox.nn_rules`): ``module`` (its parameters
  and buffers), ``sequential`` (nesting capped), ``forward`` (each layer's output), ``optimizer``, ``step``
  (state made at the first step, temporaries), ``state_dict`` (a tensor object per entry), ``load_state_dict``,
  ``walk`` (a walk over the module's parameters), ``dict_copy``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import torch

__all__ = [
    "TORCH_RULES",
    "METHOD_RULES",
    "ATTRIBUTE_RULES",
    "OTHER_RULES",
    "NN_RULES",
    "conversion_target",
    "matmul_copy_numel",
    "view_strides",
    "reshape_target",
    "flatten_target",
    "promoted_dtype",
    "compute_dtype",
    "power_iterations",
    "sum_dtype",
]

TORCH_RULES: Mapping[str, str] = {
    **dict.fromkeys(["ones", "zeros", "full", "empty", "arange", "linspace", "eye", "rand", "randn", "randint"],
                    "factory"),
    **dict.fromkeys(["ones_like", "zeros_like", "full_like", "rand_like", "randn_like", "empty_like"], "like"),
    **dict.fromkeys(["tensor", "as_tensor"], "data"),
    "from_numpy": "view",
    **dict.fromkeys(["add", "mul", "sub", "abs", "relu"], "elementwise"),
    **dict.fromkeys(["div", "exp", "log", "sin", "cos", "sigmoid", "tanh", "sqrt"], "float_elementwise"),
    "clone": "clone",
    **dict.fromkeys(["cat", "stack"], "concat"),
    "matmul": "matmul",
    **dict.fromkeys(["sum", "mean"], "reduction"),
    "equal": "equal",
    "allclose": "close",
    # Not in the allowlist yet (the training-step issue may add them): estimated the day they are.
    **dict.fromkeys(["max", "min"], "maxmin"),
    **dict.fromkeys(["maximum", "minimum"], "elementwise"),
    "isclose": "close",
    **dict.fromkeys(["view_as_real", "view_as_complex"], "view"),
    **dict.fromkeys(["is_tensor", "manual_seed", "no_grad", "enable_grad", "inference_mode", "device",
                     "broadcast_shapes"], "none"),
}

METHOD_RULES: Mapping[str, str] = {
    # PyTorch's "Tensor Views" page: views, except where torch has to copy.
    **dict.fromkeys(["view", "view_as", "unflatten", "squeeze", "unsqueeze", "t", "transpose", "swapaxes",
                     "permute", "movedim", "expand", "expand_as", "narrow", "select", "diagonal", "unfold",
                     "as_strided", "detach", "detach_"], "view"),
    **dict.fromkeys(["reshape", "reshape_as", "flatten"], "reshape"),
    **dict.fromkeys(["split", "chunk", "unbind", "tensor_split"], "split"),
    "contiguous": "contiguous",
    **dict.fromkeys(["to", "cpu", "cuda", "float", "double", "half", "int", "long", "bool"], "conversion"),
    "clone": "clone",
    "numpy": "none",
    "tolist": "tolist",
    "item": "none",
    "new_tensor": "data",
    **dict.fromkeys(["new_ones", "new_zeros", "new_full", "new_empty"], "new_factory"),
    "copy_": "inplace",
    "repeat": "repeat",
    "backward": "backward",
    **dict.fromkeys(["requires_grad_", "retain_grad", "register_hook"], "none"),
    **dict.fromkeys(["zero_", "fill_", "add_", "sub_", "mul_", "div_", "neg_", "abs_", "exp_", "clamp_",
                     "sigmoid_", "uniform_", "normal_", "masked_fill_", "index_fill_", "scatter_"], "inplace"),
    "pow_": "pow_inplace",
    **dict.fromkeys(["add", "sub", "mul", "neg", "abs", "relu", "masked_fill"], "elementwise"),
    **dict.fromkeys(["div", "exp", "log", "sqrt", "sin", "cos", "sigmoid", "tanh"], "float_elementwise"),
    "pow": "pow",
    **dict.fromkeys(["sum", "mean"], "reduction"),
    **dict.fromkeys(["max", "min"], "maxmin"),
    "matmul": "matmul",
    "index_select": "index_select",
    "gather": "gather",
    **dict.fromkeys(["size", "dim", "numel", "stride", "storage_offset", "is_contiguous", "data_ptr",
                     "untyped_storage", "element_size", "is_set_to", "is_inference"], "none"),
    "equal": "equal",
    "allclose": "close",
    # Not in the allowlist yet: estimated the day they are.
    **dict.fromkeys(["maximum", "minimum"], "elementwise"),
    "isclose": "close",
}

# copy.deepcopy (each storage and list once, its memo) and the builtins (print is bounded by what a step
# may print; len and id make nothing).
OTHER_RULES: Mapping[str, str] = {"copy.deepcopy": "deepcopy", "print": "print", "len": "none", "id": "none",
                                  "list": "list"}

# The training step (issue #16): `nn.` constructors, `F.` functions, `optim.` constructors, and the methods of
# modules, optimizers and dicts (core/sandbox/nn_rules.py estimates each rule), and calling a module.
NN_RULES: Mapping[str, str] = {
    **dict.fromkeys(["nn.Linear", "nn.BatchNorm1d", "nn.ReLU", "nn.Tanh", "nn.Sigmoid", "nn.Identity",
                     "nn.Dropout"], "module"),
    "nn.Sequential": "sequential",
    "F.relu": "elementwise",
    **dict.fromkeys(["F.sigmoid", "F.mse_loss"], "float_elementwise"),
    **dict.fromkeys(["optim.SGD", "optim.Adam"], "optimizer"),
    "module()": "forward",
    **dict.fromkeys(["module.parameters", "module.named_parameters", "module.buffers", "module.named_buffers",
                     "module.zero_grad", "module.requires_grad_", "module.train", "module.eval"], "walk"),
    "module.state_dict": "state_dict",
    "module.load_state_dict": "load_state_dict",
    "optimizer.step": "step",
    "optimizer.zero_grad": "none",
    **dict.fromkeys(["dict.keys", "dict.values", "dict.items", "dict.get"], "none"),
    "dict.copy": "dict_copy",
}

# Attributes a step reads on a tensor: every one is a view or bookkeeping (`.H` of a complex tensor
# sets the lazy conjugate bit, `.real` views the real halves): none allocates elements.
ATTRIBUTE_RULES: Mapping[str, str] = dict.fromkeys(
    ["grad", "data", "requires_grad", "is_leaf", "grad_fn", "shape", "dtype", "device", "ndim", "T", "mT", "H",
     "mH", "_version", "_base", "retains_grad", "is_cuda", "real", "imag"], "view")


def view_strides(shape: Sequence[int], stride: Sequence[int], new_shape: Sequence[int]) -> list[int] | None:
    """The strides a view of ``new_shape`` would have, or None where torch must copy (its ``computeStride``).

    ``reshape`` views when this returns strides and copies (``clone(contiguous_format)``) otherwise.
    """
    if not shape:
        return [1] * len(new_shape)
    numel = math.prod(shape)
    if numel == 0:
        if list(shape) == list(new_shape):
            return list(stride)
        return [1] * len(new_shape)  # any strides view an empty tensor
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = stride[-1]
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        if tensor_d == 0 or (shape[tensor_d - 1] != 1 and stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = stride[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return new_stride


def _ints(values: Any) -> list[int] | None:
    if isinstance(values, (tuple, list, torch.Size)):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return None
        return [int(v) for v in values]
    return None


def reshape_target(numel: int, args: Sequence[Any], kwargs: Mapping[str, Any]) -> list[int] | None:
    """The shape `reshape(*args)` asks for, with a -1 inferred (None where torch will complain)."""
    size = kwargs.get("shape", args[0] if len(args) == 1 else tuple(args))
    if isinstance(size, int) and not isinstance(size, bool):
        size = (size,)
    shape = _ints(size)
    if shape is None or shape.count(-1) > 1 or any(s < -1 for s in shape):
        return None
    if -1 in shape:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or numel % known:
            return None
        shape[shape.index(-1)] = numel // known
    return shape if math.prod(shape) == numel else None


def flatten_target(shape: Sequence[int], args: Sequence[Any], kwargs: Mapping[str, Any]) -> list[int] | None:
    """The shape `flatten(start_dim, end_dim)` asks for (None where torch will complain)."""
    start = kwargs.get("start_dim", args[0] if args else 0)
    end = kwargs.get("end_dim", args[1] if len(args) > 1 else -1)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        return None
    if not shape:
        return [1]
    ndim = len(shape)
    if not (-ndim <= start < ndim and -ndim <= end < ndim):
        return None
    start, end = start % ndim, end % ndim
    if start > end:
        return None
    return [*shape[:start], math.prod(shape[start:end + 1]), *shape[end + 1:]]


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (int, float, complex, bool))


def promoted_dtype(operands: Sequence[Any]) -> torch.dtype:
    """The dtype torch computes ``operands`` (tensors and Python numbers) in, by its promotion rules.

    Folded pairwise with :func:`torch.result_type`, the running result standing for a tensor with
    dimensions once one took part (a zero-dimension tensor or a number then only raises its category).
    """
    values = [v for v in operands if isinstance(v, torch.Tensor) or _is_scalar(v)]
    if not any(isinstance(v, torch.Tensor) for v in values):
        return torch.get_default_dtype()
    result: Any = values[0]
    for value in values[1:]:
        try:
            dtype = torch.result_type(result, value)
        except (TypeError, RuntimeError):
            return torch.float64  # torch will explain; the widest real type bounds the estimate
        dims = any(isinstance(v, torch.Tensor) and v.dim() for v in (result, value))
        result = torch.empty((1,) if dims else (), dtype=dtype)
    if isinstance(result, torch.Tensor):
        return result.dtype
    return torch.result_type(torch.tensor(0), result)


def compute_dtype(rule: str, operands: Sequence[Any], kwargs: Mapping[str, Any]) -> torch.dtype:
    """The dtype an elementwise call computes in: promoted, and floating for ``float_elementwise``."""
    given = kwargs.get("dtype")
    if isinstance(given, torch.dtype):
        return given
    dtype = promoted_dtype(operands)
    if rule == "float_elementwise" and not (dtype.is_floating_point or dtype.is_complex):
        if kwargs.get("rounding_mode") is None:
            return torch.get_default_dtype()
    return dtype


def sum_dtype(tensor: torch.Tensor, kwargs: Mapping[str, Any]) -> torch.dtype:
    """The dtype `sum`/`mean` accumulate in: the one given, int64 for integers and bools, else the tensor's."""
    given = kwargs.get("dtype")
    if isinstance(given, torch.dtype):
        return given
    if not (tensor.dtype.is_floating_point or tensor.dtype.is_complex):
        return torch.int64
    return tensor.dtype


def power_iterations(dtype: torch.dtype, exponent: Any) -> int:
    """Rounds of torch's integer power loop (square and multiply, one per bit of the exponent).

    A float power is one ``pow`` per element (1); an integer tensor raised to an integer tensor loops
    over every bit of the exponent's dtype; to a Python int, over that int's bits (2 and 3 are special).
    """
    if dtype.is_floating_point or dtype.is_complex or dtype == torch.bool:
        return 1
    if isinstance(exponent, bool):
        return 1
    if isinstance(exponent, int):
        return 1 if abs(exponent) <= 3 else abs(exponent).bit_length()
    if isinstance(exponent, torch.Tensor):
        if exponent.dtype.is_floating_point or exponent.dtype.is_complex:
            return 1
        return 8 * exponent.element_size()
    return 1


_CONVERSIONS = {"double": torch.float64, "float": torch.float32, "half": torch.float16, "int": torch.int32,
                "long": torch.int64, "bool": torch.bool}


def conversion_target(name: str, tensor: torch.Tensor, args: Sequence[Any],
                      kwargs: Mapping[str, Any]) -> tuple[torch.dtype, str]:
    """(dtype, device type) that `.to(...)`, `.float()`, `.cpu()`, `.cuda()` ... make of ``tensor``."""
    dtype, device = tensor.dtype, tensor.device.type
    if name in _CONVERSIONS:
        return _CONVERSIONS[name], device
    if name == "cuda":
        return dtype, "cuda"
    if name == "cpu":
        return dtype, "cpu"
    for value in [*args, kwargs.get("dtype"), kwargs.get("device")]:
        if isinstance(value, torch.dtype):
            dtype = value
        elif isinstance(value, torch.Tensor):
            dtype, device = value.dtype, value.device.type
        elif isinstance(value, (str, torch.device)):
            try:
                device = torch.device(value).type
            except (RuntimeError, TypeError, ValueError):
                pass  # torch explains a device it does not know
    return dtype, device


def matmul_copy_numel(operand: torch.Tensor, shape_a: Sequence[int], shape_b: Sequence[int]) -> int:
    """Elements of the copy matmul makes of ``operand`` before BLAS reads it (0 when it reads it as it is).

    A matrix is read as it is when it or its transpose is dense (strides of a row-major or a column-major
    matrix); a batched operand whose batch dimensions are broadcast (or not dense) is expanded and copied.
    """
    if operand.dim() < 2:
        return 0 if operand.dim() == 0 or operand.stride()[0] == 1 else operand.numel()
    rows, cols = operand.shape[-2], operand.shape[-1]
    row_stride, col_stride = operand.stride()[-2], operand.stride()[-1]
    dense = (col_stride == 1 and row_stride >= max(cols, 1)) or (row_stride == 1 and col_stride >= max(rows, 1))
    batch_a = list(shape_a[:-2]) if len(shape_a) > 2 else []
    batch_b = list(shape_b[:-2]) if len(shape_b) > 2 else []
    ndim = max(len(batch_a), len(batch_b))
    batch = [max(x, y) for x, y in zip([1] * (ndim - len(batch_a)) + batch_a, [1] * (ndim - len(batch_b)) + batch_b,
                                        strict=True)]
    full = math.prod(batch) * rows * cols
    if not dense or (operand.dim() > 2 and not operand.is_contiguous()) or (ndim and operand.numel() < full
                                                                           and operand.dim() > 2):
        return full
    return 0

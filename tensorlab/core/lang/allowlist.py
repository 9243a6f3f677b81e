"""What the TensorLab code subset may name.

Every name a user line can reach is listed here. The language checks attribute
names against these sets before anything runs; the interpreter checks them again
against the type of the object at run time, so a name allowed on a tensor is never
looked up on anything else.
"""

from __future__ import annotations

# torch.<name> that may be called or referenced.
TORCH_FUNCTIONS: frozenset[str] = frozenset(
    """
    tensor as_tensor from_numpy ones zeros full empty arange linspace eye rand randn
    randint ones_like zeros_like full_like rand_like randn_like empty_like manual_seed
    clone cat stack add mul sub div matmul sum mean exp log sin cos sigmoid tanh relu
    abs sqrt equal allclose is_tensor view_as_real view_as_complex no_grad enable_grad
    inference_mode device broadcast_shapes
    """.split()
)

TORCH_DTYPES: frozenset[str] = frozenset(
    """
    float16 half bfloat16 float32 float float64 double complex64 cfloat complex128
    cdouble int8 int16 short int32 int int64 long uint8 bool
    """.split()
)

# The context managers a `with` statement may use (no arguments, no `as`).
GRAD_MODES: frozenset[str] = frozenset({"no_grad", "enable_grad", "inference_mode"})

# PyTorch's "Tensor Views" page.
VIEW_METHODS: frozenset[str] = frozenset(
    """
    view view_as reshape reshape_as flatten unflatten squeeze unsqueeze t transpose
    swapaxes permute movedim expand expand_as narrow select diagonal unfold split
    chunk unbind tensor_split as_strided
    """.split()
)

COPY_METHODS: frozenset[str] = frozenset(
    """
    clone detach detach_ contiguous to cpu cuda float double half int long bool numpy
    tolist item new_tensor new_ones new_zeros new_full new_empty copy_ repeat
    """.split()
)

AUTOGRAD_METHODS: frozenset[str] = frozenset(
    {"backward", "requires_grad_", "retain_grad", "register_hook"}
)

INPLACE_METHODS: frozenset[str] = frozenset(
    """
    zero_ fill_ add_ sub_ mul_ div_ pow_ neg_ abs_ exp_ clamp_ sigmoid_ uniform_
    normal_ masked_fill_ index_fill_ scatter_
    """.split()
)

MATH_METHODS: frozenset[str] = frozenset(
    """
    add sub mul div pow neg abs exp log sqrt sin cos sigmoid tanh relu sum mean max
    min matmul masked_fill index_select gather
    """.split()
)

QUERY_METHODS: frozenset[str] = frozenset(
    """
    size dim numel stride storage_offset is_contiguous data_ptr untyped_storage
    element_size equal allclose is_set_to is_inference
    """.split()
)

TENSOR_METHODS: frozenset[str] = (
    VIEW_METHODS | COPY_METHODS | AUTOGRAD_METHODS | INPLACE_METHODS | MATH_METHODS
    | QUERY_METHODS
)

TENSOR_ATTRIBUTES: frozenset[str] = frozenset(
    """
    grad data requires_grad is_leaf grad_fn shape dtype device ndim T mT H mH _version
    _base retains_grad is_cuda real imag
    """.split()
)

# Attributes a statement may assign: `x.grad = None`, `x.requires_grad = False`.
TENSOR_SETTABLE: frozenset[str] = frozenset({"grad", "requires_grad", "data"})

STORAGE_ATTRIBUTES: frozenset[str] = frozenset({"data_ptr", "nbytes", "size"})
GRAD_FN_ATTRIBUTES: frozenset[str] = frozenset({"next_functions", "name"})
NUMPY_ATTRIBUTES: frozenset[str] = frozenset({"shape", "dtype", "tolist"})
DEVICE_ATTRIBUTES: frozenset[str] = frozenset({"type", "index"})
DTYPE_ATTRIBUTES: frozenset[str] = frozenset({"is_floating_point", "is_complex", "itemsize"})

# Underscore names that are part of the subset; every other `_name` is refused.
UNDERSCORE_ALLOWED: frozenset[str] = frozenset({"_version", "_base"})

ALL_ATTRIBUTES: frozenset[str] = (
    TENSOR_METHODS | TENSOR_ATTRIBUTES | STORAGE_ATTRIBUTES | GRAD_FN_ATTRIBUTES
    | NUMPY_ATTRIBUTES | DEVICE_ATTRIBUTES | DTYPE_ATTRIBUTES
)

# Plain names with a meaning of their own.
MODULES: frozenset[str] = frozenset({"torch", "copy"})
COPY_FUNCTIONS: frozenset[str] = frozenset({"deepcopy"})
BUILTINS: frozenset[str] = frozenset({"print", "len", "id"})
# Names a step may not bind: the modules and builtins it uses, and the two an exported script's
# `except Exception as error: print(f"{type(error).__name__}: ...")` reads (a step's `type = x` would break it).
RESERVED_NAMES: frozenset[str] = MODULES | BUILTINS | frozenset({"True", "False", "None", "type", "Exception"})

# torch functions that allocate a new tensor from a size.
SIZE_FACTORIES: frozenset[str] = frozenset({"ones", "zeros", "empty", "rand", "randn"})

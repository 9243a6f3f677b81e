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

# -- the training step (issue #16): modules, functional, optimizers, dicts ------------------------------
# torch.nn classes a step may make (`nn.Linear(3, 2)`); each has its own attributes below.
NN_CLASSES: frozenset[str] = frozenset(
    "Linear Sequential ReLU Tanh Sigmoid Identity Dropout BatchNorm1d".split()
)
# torch.nn.functional (`F.relu`).
FUNCTIONAL: frozenset[str] = frozenset({"relu", "sigmoid", "mse_loss"})
# torch.optim classes.
OPTIMIZERS: frozenset[str] = frozenset({"SGD", "Adam"})

# What every allowlisted module has (methods and the `training` flag).
MODULE_METHODS: frozenset[str] = frozenset(
    """
    parameters named_parameters buffers named_buffers state_dict load_state_dict zero_grad
    requires_grad_ train eval
    """.split()
)
# Attributes of one class of module (its parameters, buffers and settings), on top of MODULE_METHODS.
MODULE_CLASS_ATTRIBUTES: dict[str, frozenset[str]] = {
    "Linear": frozenset({"weight", "bias", "in_features", "out_features"}),
    "BatchNorm1d": frozenset({"weight", "bias", "running_mean", "running_var", "num_batches_tracked",
                              "num_features", "eps", "momentum"}),
    "Dropout": frozenset({"p", "inplace"}),
    "ReLU": frozenset({"inplace"}),
    "Sequential": frozenset(),
    "Tanh": frozenset(),
    "Sigmoid": frozenset(),
    "Identity": frozenset(),
}
MODULE_ATTRIBUTES: frozenset[str] = MODULE_METHODS | frozenset({"training"}).union(*MODULE_CLASS_ATTRIBUTES.values())
OPTIMIZER_METHODS: frozenset[str] = frozenset({"step", "zero_grad"})
OPTIMIZER_ATTRIBUTES: frozenset[str] = OPTIMIZER_METHODS | frozenset({"param_groups"})
# A dict's methods, one by one: reading only (`sd['w'] = t` is a subscript).
DICT_METHODS: frozenset[str] = frozenset({"keys", "values", "items", "get", "copy"})

# What torch's objects of each kind have and a step may not read (public names only; an underscore is refused
# anyway): refused when the step is checked (a lesson loaded, a line typed) wherever the name's kind is known
# from the statement that bound it (`opt = optim.SGD(...)`), as the run time check refuses it. A name torch's
# object does not have at all is not listed: reading it raises Python's own AttributeError, as in plain torch.
# tests/core/lang/test_refused_members.py compares these lists with torch's objects.
OPTIMIZER_REFUSED: frozenset[str] = frozenset(
    """
    OptimizerPostHook OptimizerPreHook add_param_group defaults load_state_dict profile_hook_step
    register_load_state_dict_post_hook register_load_state_dict_pre_hook register_state_dict_post_hook
    register_state_dict_pre_hook register_step_post_hook register_step_pre_hook state state_dict
    """.split()
)
MODULE_REFUSED: frozenset[str] = frozenset(
    """
    T_destination add_module apply bfloat16 call_super_init children compile cpu cuda double dump_patches
    extra_repr float forward get_buffer get_extra_state get_parameter get_submodule half ipu modules mtia
    named_children named_modules register_backward_hook register_buffer register_forward_hook
    register_forward_pre_hook register_full_backward_hook register_full_backward_pre_hook
    register_load_state_dict_post_hook register_load_state_dict_pre_hook register_module register_parameter
    register_state_dict_post_hook register_state_dict_pre_hook set_extra_state set_submodule share_memory to
    to_empty type xpu
    """.split()
)
MODULE_CLASS_REFUSED: dict[str, frozenset[str]] = {
    "Linear": frozenset({"reset_parameters"}),
    "Sequential": frozenset({"append", "extend", "insert", "pop"}),
    "BatchNorm1d": frozenset({"affine", "reset_parameters", "reset_running_stats", "track_running_stats"}),
}
DICT_REFUSED: frozenset[str] = frozenset({"clear", "fromkeys", "pop", "popitem", "setdefault", "update"})
ORDERED_DICT_REFUSED: frozenset[str] = DICT_REFUSED | frozenset({"move_to_end"})


def refused_on(type_name: str) -> frozenset[str]:
    """The public names torch's object of type ``type_name`` (``type(obj).__name__``: a module class, an optimizer,
    a dict) has and a step may not read; empty for any other type (checked when the step runs)."""
    if type_name in MODULE_CLASS_ATTRIBUTES:
        return MODULE_REFUSED | MODULE_CLASS_REFUSED.get(type_name, frozenset())
    if type_name in OPTIMIZERS:
        return OPTIMIZER_REFUSED
    return {"dict": DICT_REFUSED, "OrderedDict": ORDERED_DICT_REFUSED}.get(type_name, frozenset())


# Keywords each new call takes (any other keyword, and more positional arguments than listed, is refused):
# (positional arguments at most, keywords). Keys: "nn.Linear", "F.relu", "optim.SGD", "module.state_dict",
# "optimizer.step", "dict.get", "module()" (calling a module).
CALL_KEYWORDS: dict[str, tuple[int, frozenset[str]]] = {
    "nn.Linear": (3, frozenset({"in_features", "out_features", "bias"})),
    "nn.Sequential": (64, frozenset()),
    "nn.ReLU": (1, frozenset({"inplace"})),
    "nn.Tanh": (0, frozenset()),
    "nn.Sigmoid": (0, frozenset()),
    "nn.Identity": (0, frozenset()),
    "nn.Dropout": (2, frozenset({"p", "inplace"})),
    "nn.BatchNorm1d": (5, frozenset({"num_features", "eps", "momentum", "affine", "track_running_stats"})),
    "F.relu": (2, frozenset({"input", "inplace"})),
    "F.sigmoid": (1, frozenset({"input"})),
    "F.mse_loss": (3, frozenset({"input", "target", "reduction"})),
    # fused=, capturable=, foreach=, differentiable=, maximize= are keyword-only in torch: refused here.
    "optim.SGD": (6, frozenset({"params", "lr", "momentum", "dampening", "weight_decay", "nesterov"})),
    "optim.Adam": (6, frozenset({"params", "lr", "betas", "eps", "weight_decay", "amsgrad"})),
    "module()": (1, frozenset()),
    "module.parameters": (1, frozenset({"recurse"})),
    "module.named_parameters": (0, frozenset()),
    "module.buffers": (1, frozenset({"recurse"})),
    "module.named_buffers": (0, frozenset()),
    "module.state_dict": (0, frozenset()),
    # assign= would make the dict's tensors the parameters themselves: refused.
    "module.load_state_dict": (2, frozenset({"state_dict", "strict"})),
    "module.zero_grad": (1, frozenset({"set_to_none"})),
    "module.requires_grad_": (1, frozenset({"requires_grad"})),
    "module.train": (1, frozenset({"mode"})),
    "module.eval": (0, frozenset()),
    "optimizer.step": (0, frozenset()),
    "optimizer.zero_grad": (1, frozenset({"set_to_none"})),
    "dict.keys": (0, frozenset()),
    "dict.values": (0, frozenset()),
    "dict.items": (0, frozenset()),
    "dict.get": (2, frozenset()),
    "dict.copy": (0, frozenset()),
    "list": (1, frozenset()),
}

# Module aliases a step may import (the contract decision of DESIGN.md): name -> what it is.
MODULE_ALIASES: dict[str, str] = {"nn": "torch.nn", "F": "torch.nn.functional", "optim": "torch.optim"}
# The same modules written out from `torch` (after `import torch`, `torch.nn.Linear(2, 3)` is `nn.Linear(2, 3)`):
# the parser reads them as the aliases. They are attributes of `torch`, not imports: the import forms stay these.
FULL_FORMS: dict[tuple[str, ...], str] = {("torch", "nn", "functional"): "F", ("torch", "nn"): "nn",
                                          ("torch", "optim"): "optim"}
# The accepted import forms: `import torch.nn as nn`, ... and `from torch import nn`.
IMPORT_FORMS: frozenset[tuple[str, str | None]] = frozenset({
    ("torch", None), ("copy", None), ("torch", "torch"), ("copy", "copy"),
    ("torch.nn", "nn"), ("torch.nn.functional", "F"), ("torch.optim", "optim"),
})
IMPORT_FROM_FORMS: frozenset[tuple[str, str, str | None]] = frozenset({
    ("torch", "nn", None), ("torch", "optim", None), ("torch", "nn", "nn"), ("torch", "optim", "optim"),
})

ALL_ATTRIBUTES: frozenset[str] = (
    TENSOR_METHODS | TENSOR_ATTRIBUTES | STORAGE_ATTRIBUTES | GRAD_FN_ATTRIBUTES
    | NUMPY_ATTRIBUTES | DEVICE_ATTRIBUTES | DTYPE_ATTRIBUTES | MODULE_ATTRIBUTES | OPTIMIZER_ATTRIBUTES
    | DICT_METHODS
)

# Plain names with a meaning of their own.
MODULES: frozenset[str] = frozenset({"torch", "copy"}) | frozenset(MODULE_ALIASES)
COPY_FUNCTIONS: frozenset[str] = frozenset({"deepcopy"})
BUILTINS: frozenset[str] = frozenset({"print", "len", "id", "list"})
# Names a step may not bind: the modules and builtins it uses, and the two an exported script's
# `except Exception as error: print(f"{type(error).__name__}: ...")` reads (a step's `type = x` would break it).
RESERVED_NAMES: frozenset[str] = MODULES | BUILTINS | frozenset({"True", "False", "None", "type", "Exception"})

# torch functions that allocate a new tensor from a size.
SIZE_FACTORIES: frozenset[str] = frozenset({"ones", "zeros", "empty", "rand", "randn"})


# -- what the code line completes after `NAME.` (issue #16, h16c; torch-free: the window reads it) ----------
def members_of(type_name: str) -> frozenset[str]:
    """The methods and attributes a step may read on a value whose ``type(value).__name__`` is
    ``type_name`` (a module class, an optimizer, a dict, a tensor); empty for a type that has none."""
    if type_name in MODULE_CLASS_ATTRIBUTES:
        return MODULE_METHODS | frozenset({"training"}) | MODULE_CLASS_ATTRIBUTES[type_name]
    if type_name in OPTIMIZERS:
        return OPTIMIZER_ATTRIBUTES
    if type_name in ("dict", "OrderedDict"):
        return DICT_METHODS
    if type_name in ("Tensor", "Parameter", "tensor"):
        return TENSOR_METHODS | TENSOR_ATTRIBUTES
    return frozenset()

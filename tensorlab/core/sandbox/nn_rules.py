"""The training step's objects (issue #16): modules, optimizers and dicts, checked by their type.

What a step may read on each object (:func:`allowed_on`, checked at run time as tensors are), the
keywords each of their calls takes (:func:`call_key` and the table of
:data:`tensorlab.core.lang.allowlist.CALL_KEYWORDS`), and the guard's estimates of what they allocate
before torch allocates it (:class:`ModuleChecks`, a part of :class:`~tensorlab.core.sandbox.guard.Guard`):

- a module's constructor: its parameters and buffers (``nn.Linear(10**5, 10**5)`` is 10^10 parameters);
- ``nn.Sequential(...)``: nesting capped in depth and in paths (a module listed twice counts twice, as
  ``state_dict`` and ``repr`` walk it: ``net = nn.Sequential(net, net)`` repeated doubles them);
- calling a module: the output (and the temporaries) of each layer, from the input's shape;
- ``opt.step()``: the state it makes at the first step (SGD's momentum buffers, Adam's two moments) and
  its temporaries; the flags a step refuses (``foreach``, ``fused``, ``capturable``, ``differentiable``
  set in a param group);
- ``state_dict()`` (one tensor object per entry), ``load_state_dict`` (a dict of tensors only, copied
  in place), ``list(...)`` and the dict methods.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import torch

from tensorlab.core.lang import allowlist as allow
from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.limits import LimitError, check_numel, code_subject, count_param, subject
from tensorlab.core.sandbox import estimates as est
from tensorlab.core.sandbox import torch_rules as rules

__all__ = ["ModuleChecks", "allowed_on", "call_key", "is_module", "is_optimizer", "module_shape",
           "MAX_MODULE_DEPTH", "MAX_MODULE_PATHS", "MODULE_OBJECT_BYTES"]

MAX_MODULE_DEPTH = 16       # modules inside modules
MAX_MODULE_PATHS = 1_000    # submodules counted along every path (what state_dict and repr walk)
MODULE_OBJECT_BYTES = 4_096  # one module object and its dicts (measured ~2.5 KB for a Linear)
_NODE_WORK = 2_000          # Python work of one module call, in element-operations

_CLASSES: dict[type, str] = {getattr(torch.nn, name): name for name in allow.NN_CLASSES}
_OPTIMIZERS: dict[type, str] = {getattr(torch.optim, name): name for name in allow.OPTIMIZERS}
_FLAGS = ("foreach", "fused", "capturable", "differentiable")


def is_module(obj: object) -> bool:
    """A module of one of the subset's classes (exactly: no subclass can be made in the subset)."""
    return type(obj) in _CLASSES


def is_optimizer(obj: object) -> bool:
    """An optimizer of the subset's classes."""
    return type(obj) in _OPTIMIZERS


def allowed_on(obj: object) -> frozenset[str] | None:
    """What a step may read on a module, an optimizer or a dict (None: not one of them)."""
    name = _CLASSES.get(type(obj))
    if name is not None:
        return allow.MODULE_METHODS | {"training"} | allow.MODULE_CLASS_ATTRIBUTES[name]
    if type(obj) in _OPTIMIZERS:
        return allow.OPTIMIZER_ATTRIBUTES
    if isinstance(obj, dict):
        return allow.DICT_METHODS
    return None


def call_key(owner: object, name: str) -> str | None:
    """The key of :data:`~tensorlab.core.lang.allowlist.CALL_KEYWORDS` for ``owner.name(...)``."""
    if is_module(owner):
        return f"module.{name}"
    if is_optimizer(owner):
        return f"optimizer.{name}"
    if isinstance(owner, dict):
        return f"dict.{name}"
    return None


def module_shape(module: torch.nn.Module, seen: dict[int, tuple[int, int]] | None = None) -> tuple[int, int]:
    """(depth, paths) of ``module``: how deep it nests and how many submodules every path reaches."""
    seen = {} if seen is None else seen
    known = seen.get(id(module))
    if known is not None:
        return known
    depth, paths = 1, 1
    for child in module._modules.values():
        if child is None:
            continue
        child_depth, child_paths = module_shape(child, seen)
        depth = max(depth, child_depth + 1)
        paths += child_paths
    seen[id(module)] = (depth, paths)
    return depth, paths


def _itemsize(kwargs: Mapping[str, Any]) -> int:
    size = est.dtype_itemsize(kwargs.get("dtype"))
    return torch.get_default_dtype().itemsize if size is None else size


def _int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


class ModuleChecks:
    """The guard's checks of the training step's calls (mixed into the guard, which supplies the budget)."""

    limits: Any

    def charge(self, operations: int) -> None: ...  # pragma: no cover
    def allocate(self, elements: int, itemsize: int, what: Message | None = None) -> None: ...  # pragma: no cover
    def reserve(self, nbytes: int, what: Message) -> None: ...  # pragma: no cover
    def objects(self, count: int, nbytes: int, what: Message,
                work: int = est.VIEW_OBJECT) -> None: ...  # pragma: no cover
    def iterate(self, value: Any, whole: bool = True) -> None: ...  # pragma: no cover
    def elementwise(self, rule: str, values: list[Any], kwargs: Mapping[str, Any], what: Message,
                    inplace: bool = False, result_dtype: torch.dtype | None = None,
                    comparison: bool = False) -> None: ...  # pragma: no cover

    # -- constructors ------------------------------------------------------------------
    def nn_call(self, owner: str, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """`nn.Linear(...)`, `F.relu(...)`, `optim.SGD(...)`: estimated by the rule of torch_rules.NN_RULES."""
        key = f"{owner}.{name}"
        rule = rules.NN_RULES.get(key)
        if rule is None:
            raise LimitError(msg("limit.no_estimate", name=f"{key}(...)"))
        what = code_subject(f"{key}(...)")
        if rule == "module":
            self._constructor(name, args, kwargs, what)
        elif rule == "sequential":
            self._sequential(args)
        elif rule in ("elementwise", "float_elementwise"):
            values = [a for a in [*args, *kwargs.values()] if est.is_array(a)]
            if kwargs.get("inplace", args[1] if len(args) > 1 else False) is True:
                if values:
                    self.charge(est.numel(values[0]))
                return
            if values:
                self.elementwise(rule, values[:2], {}, what)
        elif rule == "optimizer":
            self.objects(1, MODULE_OBJECT_BYTES, what)

    def _constructor(self, name: str, args: list[Any], kwargs: dict[str, Any], what: Message) -> None:
        """A layer's parameters and buffers: each one tensor under the per-tensor element limit (the refusal
        names it), all of them together new memory under the session's budget (the refusal names the call)."""
        itemsize = _itemsize(kwargs)
        tensors: list[tuple[str, int]] = []
        if name == "Linear":
            fan_in = _int(kwargs.get("in_features", args[0] if args else None))
            fan_out = _int(kwargs.get("out_features", args[1] if len(args) > 1 else None))
            if fan_in is None or fan_out is None or fan_in < 0 or fan_out < 0:
                return  # torch says what is wrong with the sizes
            bias = kwargs.get("bias", args[2] if len(args) > 2 else True)
            tensors = [("weight", fan_in * fan_out)] + ([("bias", fan_out)] if bias else [])
        elif name == "BatchNorm1d":
            features = _int(kwargs.get("num_features", args[0] if args else None))
            if features is None or features < 0:
                return
            tensors = [(tensor, features) for tensor in ("weight", "bias", "running_mean", "running_var")]
        for tensor, elements in tensors:
            check_numel(elements, self.limits, subject("module_tensor", name=tensor, code=f"nn.{name}(...)"))
        if tensors:
            self.reserve(sum(elements for _, elements in tensors) * max(itemsize, 1), what)
            # kaiming_uniform_ draws every weight (twice the work); BatchNorm fills its four tensors.
            self.charge(2 * tensors[0][1] if name == "Linear" else sum(elements for _, elements in tensors))
        self.objects(1, MODULE_OBJECT_BYTES, what, _NODE_WORK)

    def _sequential(self, args: list[Any]) -> None:
        depth, paths = 1, 1
        seen: dict[int, tuple[int, int]] = {}
        # `nn.Sequential(sd)` of an OrderedDict (a state_dict given modules as values) adds its values.
        children = list(args[0].values()) if len(args) == 1 and isinstance(args[0], dict) else args
        for child in children:
            if isinstance(child, torch.nn.Module):
                child_depth, child_paths = module_shape(child, seen)
                depth = max(depth, child_depth + 1)
                paths += child_paths
        if depth > MAX_MODULE_DEPTH or paths > MAX_MODULE_PATHS:
            raise LimitError(msg("limit.module_nesting", depth=depth, paths=count_param(paths),
                                 depth_limit=MAX_MODULE_DEPTH, paths_limit=MAX_MODULE_PATHS))
        self.objects(1, MODULE_OBJECT_BYTES, code_subject("nn.Sequential(...)"), _NODE_WORK)

    # -- calling a module ----------------------------------------------------------------
    def module_call(self, module: torch.nn.Module, args: list[Any]) -> None:
        """`model(x)`: what each layer makes, from the input's shape (torch explains a shape it refuses)."""
        if not args or not isinstance(args[0], torch.Tensor):
            return
        x = args[0]
        self._forward(module, tuple(x.shape), max(x.element_size(), 4), 0)

    def _forward(self, module: torch.nn.Module, shape: tuple[int, ...] | None, itemsize: int,
                 depth: int) -> tuple[int, ...] | None:
        if shape is None or depth > MAX_MODULE_DEPTH:
            return None
        what = code_subject(f"{type(module).__name__}(...)")
        numel = math.prod(shape)
        self.charge(_NODE_WORK)
        if isinstance(module, torch.nn.Sequential):
            for child in module:
                shape = self._forward(child, shape, itemsize, depth + 1)
            return shape
        if isinstance(module, torch.nn.Linear):
            if not shape or shape[-1] != module.in_features:
                return None
            out = (*shape[:-1], module.out_features)
            out_numel = math.prod(out)
            self.allocate(out_numel, itemsize, what)
            self.charge(out_numel * max(module.in_features, 1))
            return out
        if isinstance(module, torch.nn.Identity):
            return shape
        if isinstance(module, torch.nn.Dropout):
            if module.training and module.p > 0:
                self.allocate(numel * (1 if module.inplace else 2), itemsize, what)  # the mask, the output
                self.charge(2 * numel)
            return shape
        if isinstance(module, torch.nn.BatchNorm1d):
            self.allocate(numel, itemsize, what)
            self.reserve(4 * module.num_features * itemsize, what)  # the batch's mean and inverse std
            self.charge(6 * numel)
            return shape
        # ReLU, Tanh, Sigmoid: elementwise (ReLU(inplace=True) writes its input).
        if not getattr(module, "inplace", False):
            self.allocate(numel, itemsize, what)
        self.charge(numel)
        return shape

    # -- methods ---------------------------------------------------------------------------
    def object_call(self, owner: Any, name: str, args: list[Any], kwargs: dict[str, Any]) -> None:
        """A method of a module, an optimizer or a dict, by its rule in torch_rules.NN_RULES."""
        key = call_key(owner, name)
        rule = rules.NN_RULES.get(key) if key is not None else None
        if rule is None:
            raise LimitError(msg("limit.no_estimate", name=f".{name}(...)"))
        what = code_subject(f".{name}(...)")
        if rule == "state_dict":
            self.objects(_entries(owner), est.VIEW_OBJECT_BYTES + 128, what)
        elif rule == "load_state_dict":
            self._load_state_dict(owner, args[0] if args else kwargs.get("state_dict"), what)
        elif rule == "step":
            self._step(owner, what)
        elif rule == "dict_copy":
            self.reserve(64 * len(owner) + 256, what)
            self.charge(len(owner) * est.PYTHON_ITEM)
        elif rule == "walk":
            self.charge(_entries(owner) * est.PYTHON_ITEM)

    def _load_state_dict(self, module: torch.nn.Module, given: Any, what: Message) -> None:
        # Only a dict of tensors under string keys (a module, an optimizer, a list or a dict of other values
        # would reach torch's code paths TensorLab does not teach): refused before torch reads it.
        if not isinstance(given, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                                  for k, v in given.items()):
            raise LimitError(msg("limit.load_state_dict"))
        total = sum(v.numel() for v in given.values())
        self.charge(total + len(given) * est.PYTHON_ITEM)
        self.reserve(64 * len(given) + 256, what)  # torch's shallow copy of the dict

    def _step(self, optimizer: torch.optim.Optimizer, what: Message) -> None:
        """The state a step makes (only at a parameter's first step) and the temporaries it computes in."""
        adam = isinstance(optimizer, torch.optim.Adam)
        new = temporary = work = 0
        for group in optimizer.param_groups:
            for flag in _FLAGS:
                if group.get(flag):
                    raise LimitError(msg("limit.optimizer_flag", flag=flag))
            params = group.get("params", [])
            if not isinstance(params, list):
                continue
            for p in params:
                if not isinstance(p, torch.Tensor) or p.grad is None:
                    continue
                size = p.numel() * p.element_size()
                state = optimizer.state.get(p)
                if adam:
                    if not state:
                        new += size * (3 if group.get("amsgrad") else 2) + est.VIEW_OBJECT_BYTES
                    temporary = max(temporary, 2 * size)
                    work += 12 * p.numel()
                else:
                    if group.get("momentum") and not (state and "momentum_buffer" in state):
                        new += size
                    if group.get("weight_decay"):
                        temporary = max(temporary, size)
                    work += 3 * p.numel()
        self.charge(work)
        # The kernels' workspaces and the allocator's rounding (measured about 1% over the state and temporaries).
        slack = (new + temporary) // 64 + (1 << 20) if new + temporary else 0
        self.reserve(new + temporary + slack, subject("optimizer_state"))


def _entries(module: Any) -> int:
    """How many entries ``module.state_dict()`` has: its parameters and buffers along every path."""
    if not isinstance(module, torch.nn.Module):
        return 0
    own = len(module._parameters) + len(module._buffers)
    return own + sum(_entries(child) for child in module._modules.values() if child is not None)


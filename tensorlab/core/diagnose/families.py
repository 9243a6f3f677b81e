"""Which of the errors TensorLab diagnoses a message is, and the facts it holds, in any torch's wording.

The form of a message is read by the one parser of torch's message forms
(:func:`tensorlab.core.explain.torch_messages.parse_message`), from its start. Older torch wrote some
of them differently; those wordings are read as today's first (:data:`OLDER_WORDINGS`: only a
message's *start* is rewritten, never a word found inside it), and a few torch 1.x forms the parser no
longer knows are named here by their start (:data:`OLDER_FORMS`). The facts are what torch computed
(numbers, shapes, type and node names), never the parts of a message that repeat a program's strings.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from typing import Any

from tensorlab.core.explain.torch_messages import parse_message
from tensorlab.core.files.safe_text import BIDI_CONTROLS

__all__ = ["FAMILIES", "WARNING_FAMILIES", "Family", "read_family", "readable", "normal_node", "DTYPES", "MAX_DIGITS",
           "PARSED", "tensor_dtype", "inner_message"]

# The errors and warnings TensorLab diagnoses (issue #20's list), by the parser's kinds. Others, even
# those a lesson explains (a broadcast or matmul shape mismatch), get no diagnosis: a pasted error from
# one's own model is about that model's shapes, which only its code can say.
FAMILIES: tuple[str, ...] = (
    "saved_changed", "leaf_inplace", "leaf_view_inplace", "graph_used", "nothing_to_differentiate",
    "numpy_grad", "nonleaf_grad", "view_strides", "multi_view_inplace", "no_grad_view", "expanded_write",
    "tensor_copies", "mixed_devices", "backward_scalar", "inference_saved", "integer_grad",
    "leaf_requires_grad", "deepcopy_nonleaf",
    # Next to two of them (h20c): the other inference-tensor error, and an overlap that is not an expand.
    "inference_readonly", "overlapping_write",
)
WARNING_FAMILIES = frozenset({"nonleaf_grad", "tensor_copies"})
_TYPES = {family: ("UserWarning" if family in WARNING_FAMILIES else "RuntimeError") for family in FAMILIES}
# Python's own exception and warning classes: raised as one of these (but not the family's own), a message is
# not torch's. A wrapper's class (torch.compile's TorchRuntimeError, DDP's ProcessRaisedException) is not here.
_PYTHON_TYPES = frozenset(name for name, value in vars(builtins).items()
                          if isinstance(value, type) and issubclass(value, BaseException))

# Older torch's words for the start of a message, and today's (read as today's by the one parser).
OLDER_WORDINGS: tuple[tuple[str, str], ...] = (
    ("Can't call numpy() on Variable that requires grad.", "Can't call numpy() on Tensor that requires grad."),
    ("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach()",
     "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone()"),
    ("a leaf Variable that requires grad has been used in an in-place operation",
     "a leaf Variable that requires grad is being used in an in-place operation"),
    ("a view of a leaf Variable that requires grad has been used in an in-place operation",
     "a view of a leaf Variable that requires grad is being used in an in-place operation"),
    ("Only Tensors of floating point dtype can require gradients", "only Tensors of floating point dtype can require "
     "gradients"),
)
# torch 0.x/1.x put "invalid argument 2: " before some messages (the TH library's words): read after it.
_TH_PREFIX = "invalid argument "
# torch 1.x forms the parser does not know (today's torch no longer writes them), by their start.
OLDER_FORMS: tuple[tuple[str, str], ...] = (
    ("one of the variables needed for gradient computation has been modified by an inplace operation",
     "saved_changed"),
    ("Expected object of device type ", "mixed_devices"),
    ("Expected tensor for argument #", "mixed_devices"),
    ("Input type (torch.", "mixed_devices"),
    ("expected device ", "mixed_devices"),
    ("Tensor for argument #", "mixed_devices"),            # "... is on CPU, but expected it to be on GPU"
    ("A view was created in no_grad mode and ", "no_grad_view"),
    # What torch.compile's fake tensors raise (a ValueError, quoted in its TorchRuntimeError) where eager torch
    # raises "view size is not compatible with input tensor's size and stride".
    ("Cannot view a tensor with shape ", "view_strides"),
)

# tensor types torch names in messages, and their dtypes.
DTYPES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
          "BFloat16Tensor": "bfloat16", "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16",
          "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool", "ComplexFloatTensor": "complex64",
          "ComplexDoubleTensor": "complex128"}
# torch's legacy type names: "torch.FloatTensor", "torch.cuda.HalfTensor" (what most messages write) and
# "CPUBFloat16Type", "CUDAFloatType" (what the version error writes for the dtypes without a legacy class, and
# some forms for all): the scalar type's name, its dtype.
_SCALAR_TYPES = {"Float": "float32", "Double": "float64", "Half": "float16", "BFloat16": "bfloat16",
                 "Byte": "uint8", "Char": "int8", "Short": "int16", "Int": "int32", "Long": "int64", "Bool": "bool",
                 "ComplexFloat": "complex64", "ComplexDouble": "complex128", "ComplexHalf": "complex32"}
_DEVICE_PREFIXES = (("CPU", "cpu"), ("CUDA", "cuda"), ("MPS", "mps"), ("XPU", "xpu"))
MAX_DIGITS = 40          # a number longer than this in a message is no fact (a hostile paste)
_DEVICE = re.compile(r"\b(cuda(?::\d{1,4})?|cpu|mps|xpu|meta|CPU|GPU)\b")
_INPUT_TYPES = re.compile(r"Input type \((torch\.[\w.]{1,40})\) and weight type \((torch\.[\w.]{1,40})\)")


# Characters of a message its form is read from: torch's forms and their facts are in the first few hundred, and
# a bound here bounds the work of every form's pattern on a hostile paste (some scan ahead from each bracket).
PARSED = 1_500
# Characters no torch message holds, that a paste may (a terminal's controls, bidi overrides): not read.
_UNREADABLE = {code: None for code in [*range(0x00, 0x09), *range(0x0a, 0x20), 0x7f, *range(0x80, 0xa0),
                                       *(ord(char) for char in BIDI_CONTROLS), 0x2028, 0x2029, 0xfeff, 0x200b]}


def readable(message: str) -> str:
    """``message`` as its form is read: its first :data:`PARSED` characters, without control, bidi and zero-width
    characters (they stay where the message is shown, escaped)."""
    return message[:PARSED * 2].translate(_UNREADABLE)[:PARSED]



@dataclass(frozen=True)
class Family:
    """A message read as one of :data:`FAMILIES` (``name``), with its facts; ``type``: what torch raises it as."""

    name: str
    type: str
    facts: dict[str, Any]
    message: str            # the message as the parser read it (an older wording's start rewritten)


def tensor_dtype(kind: str) -> tuple[str | None, str | None]:
    """The dtype and device type of a tensor type as torch names it in a message, each None when not known.

    ``torch.FloatTensor`` -> float32 on cpu, ``torch.cuda.LongTensor`` -> int64 on cuda, ``CPUBFloat16Type`` ->
    bfloat16 on cpu, ``CUDABFloat16Type`` -> bfloat16 on cuda; anything else (a hostile name) -> (None, None).
    """
    if kind.startswith("torch.") and kind.endswith("Tensor"):
        middle = kind[len("torch."):-len("Tensor")]
        device, _, scalar = middle.rpartition(".")
        if device in ("", "cuda") and scalar in _SCALAR_TYPES:
            return _SCALAR_TYPES[scalar], device or "cpu"
        return None, None
    if kind.endswith("Type"):
        for prefix, device in _DEVICE_PREFIXES:
            scalar = kind[len(prefix):-len("Type")]
            if kind.startswith(prefix) and scalar in _SCALAR_TYPES:
                return _SCALAR_TYPES[scalar], device
    return None, None


# A wrapper's message quoting the exception it caught: torch.compile's "... got ValueError('Cannot view ...')".
_QUOTED_EXCEPTION = re.compile(r"\bgot (?P<type>[A-Za-z_][\w.]{0,80})\((?P<quote>['\"])")


def inner_message(line: str) -> tuple[str, str] | None:
    """The type and message of the exception that ``line`` quotes as ``got Type('message')`` (torch.compile's
    wording since torch 2.1), or None. The message ends at its closing quote and parenthesis (or the line's end)."""
    line = line[:PARSED * 2]
    found = _QUOTED_EXCEPTION.search(line)
    if found is None:
        return None
    rest = line[found.end():]
    end = rest.rfind(found.group("quote") + ")")
    return found.group("type").rsplit(".", 1)[-1], (rest[:end] if end >= 0 else rest).strip()


def normal_node(node: str) -> str:
    """A node's kind, however torch wrote it ("ReluBackward0", "ReluBackward1", "Relu" -> "Relu"; "Sum1" -> "Sum")."""
    node = node.rsplit("::", 1)[-1]     # torch::autograd::CopySlices
    at = node.rfind("Backward")
    suffix = node[at + len("Backward"):] if at > 0 else "-"
    if suffix == "" or suffix.isdigit():
        node = node[:at]
    # torch 2 writes an overload's number on the name itself (SumBackward1 -> "Sum1"); 1.x's ReluBackward1 was the
    # in-place relu_, today's Relu: one digit after a letter is the overload, not the name (Log10 stays).
    if len(node) > 2 and node[-1] in "123456789" and node[-2].isalpha():
        node = node[:-1]
    return node


def read_family(message: str, type_name: str) -> Family | None:
    """``message`` (raised as ``type_name``; empty: not known) as one of :data:`FAMILIES`, or None.

    Only its :func:`readable` part is read.
    """
    message = readable(message)
    if message.startswith(_TH_PREFIX):
        number, colon, rest = message[len(_TH_PREFIX):].partition(": ")
        if colon and number.isdigit():
            message = rest
    if message.startswith("element ") and " of variables does not require grad" in message[:60]:
        message = message.replace(" of variables ", " of tensors ", 1)     # torch 0.4's Variables
    for older, today in OLDER_WORDINGS:
        if message.startswith(older):
            message = today + message[len(older):]
            break
    checked = type_name if type_name in ("RuntimeError", "UserWarning", "AssertionError", "IndexError",
                                         "ValueError", "AttributeError", "NameError") else ""
    parsed = parse_message(message, checked)
    name = parsed.kind
    if name in FAMILIES and type_name in _PYTHON_TYPES and type_name != _TYPES[name]:
        return None   # Python's own exception quoting torch's words (a KeyError's key): not torch's error
    if name not in FAMILIES:
        name = next((family for start, family in OLDER_FORMS if message.startswith(start)), None)
        if name is None:
            return None
        parsed = parse_message("", "")
    facts: dict[str, Any] = {}
    values = dict(parsed.facts)
    if name == "saved_changed":
        kind = values.get("kind")
        if kind is not None:
            facts["tensor_type"] = kind
            dtype, device = tensor_dtype(kind)
            if dtype is not None:
                facts["dtype"] = dtype
            if device is not None and device != "cpu":
                facts["devices"] = [device]
        shape = _shape(values.get("shape"))
        if shape is not None:
            facts["shape"] = shape
        for key, fact in (("node", "node"), ("output", "output_index"), ("now", "version"),
                          ("expected", "expected_version")):
            value = values.get(key)
            if value is None:
                continue
            if key == "node":
                facts[fact] = value
            elif len(value) <= MAX_DIGITS:
                facts[fact] = int(value)
    elif name == "multi_view_inplace":
        if "node" in values:
            facts["node"] = values["node"]
        if "output" in values and len(values["output"]) <= MAX_DIGITS:
            facts["output_index"] = int(values["output"])
    elif name == "mixed_devices":
        # torch's Python check names the other operand's device first, then the expected one (the first operand's).
        named = f"{values['expected']} {values['device']}" if "expected" in values and "device" in values else message
        facts["devices"] = _devices(named)
    return Family(name, _TYPES[name], facts, message)


def _shape(text: str | None) -> list[int] | None:
    """``"27, 32"`` as ``[27, 32]``; None for anything else (a size too long to be one)."""
    if text is None:
        return None
    if not text.strip():
        return []
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > 64 or not all(part.isdigit() and len(part) <= MAX_DIGITS for part in parts):
        return None
    return [int(part) for part in parts]


def _devices(message: str) -> list[str]:
    """The devices a device-mismatch message names, in order, each once (a fixed vocabulary)."""
    head = message[:2000]
    found: list[str] = []
    typed = _INPUT_TYPES.search(head)
    if typed is not None:   # "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor)"
        found = ["cuda" if ".cuda." in name else "cpu" for name in typed.groups()]
    for match in _DEVICE.finditer(head):
        device = {"CPU": "cpu", "GPU": "cuda"}.get(match.group(1), match.group(1))
        if device not in found and not (device == "cuda" and any(d.startswith("cuda:") for d in found)):
            found.append(device)
    return list(dict.fromkeys(found))

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
           "PARSED"]

# The errors and warnings TensorLab diagnoses (issue #20's list), by the parser's kinds. Others, even
# those a lesson explains (a broadcast or matmul shape mismatch), get no diagnosis: a pasted error from
# one's own model is about that model's shapes, which only its code can say.
FAMILIES: tuple[str, ...] = (
    "saved_changed", "leaf_inplace", "leaf_view_inplace", "graph_used", "nothing_to_differentiate",
    "numpy_grad", "nonleaf_grad", "view_strides", "multi_view_inplace", "no_grad_view", "expanded_write",
    "tensor_copies", "mixed_devices", "backward_scalar", "inference_saved", "integer_grad",
    "leaf_requires_grad", "deepcopy_nonleaf",
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
)

# tensor types torch names in messages, and their dtypes.
DTYPES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
          "BFloat16Tensor": "bfloat16", "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16",
          "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool", "ComplexFloatTensor": "complex64",
          "ComplexDoubleTensor": "complex128"}
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
            dtype = DTYPES.get(kind.rsplit(".", 1)[-1])
            if dtype is not None:
                facts["dtype"] = dtype
            if ".cuda." in kind:
                facts["devices"] = ["cuda"]
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
        facts["devices"] = _devices(message)
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

"""One parser of torch's message forms: a message in, its kind and facts out.

Torch writes its errors and warnings in fixed forms ("index 5 is out of bounds for
dimension 0 with size 2"); some forms repeat a step's argument inside them ("Invalid
device string: '<what the step passed>'"). Everything that reads meaning from a
message goes through :func:`parse_message`, so that nothing reads meaning from the
part a step wrote:

- a form is matched from the *start* of the message, in full, never found somewhere
  inside it: ``torch.device("<torch's in-place error text>")`` raises "Invalid device
  string: '…'", whose kind is ``invalid_device``, not the in-place error it quotes;
- a form names the parts that echo an argument (``echo``); :attr:`ParsedMessage.own`
  is the message with them masked, the only text a claim about torch's words may be
  found in (:mod:`tensorlab.core.checks.choice_claims`);
- a message of no known form is still torch's, but what it quotes is not: its own
  words are the text outside its outermost quotes.

The explanations (:mod:`tensorlab.core.explain.explanations`) name their rule by the
kind, and the later ``diagnose`` command reads the facts. This module imports no torch:
it reads texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ParsedMessage", "parse_message", "own_words", "ECHO", "FORMS"]

ECHO = "…"   # what an echoed part reads as in ParsedMessage.own


@dataclass(frozen=True)
class ParsedMessage:
    """A message read as torch's form ``kind`` (None: no known form).

    ``facts`` are the parts the form names (numbers, shapes, type names: what torch
    computed); ``echoed`` the parts that repeat a step's argument; ``own`` the message
    with the echoed parts written as :data:`ECHO`.
    """

    kind: str | None
    facts: tuple[tuple[str, str], ...]
    echoed: tuple[str, ...]
    own: str

    def fact(self, name: str) -> str | None:
        """The fact ``name``, or None."""
        return dict(self.facts).get(name)


@dataclass(frozen=True)
class _Form:
    kind: str
    pattern: re.Pattern[str]
    types: frozenset[str]        # the exception or warning types torch raises it with (empty: any)


def _form(kind: str, pattern: str, *types: str) -> _Form:
    # Matched from the start (re.match); a form that names its end uses \Z.
    return _Form(kind, re.compile(pattern, re.S), frozenset(types))


_ERRORS = ("RuntimeError",)
# Order matters where one form begins like another (the view variant before the leaf one). A group
# named ``echo`` (or ``echo2``) repeats an argument; every other group is a fact.
FORMS: tuple[_Form, ...] = (
    _form("leaf_view_inplace", r"a view of a leaf Variable that requires grad is being used in an in-place "
          r"operation\.?\Z", *_ERRORS),
    _form("leaf_inplace", r"a leaf Variable that requires grad is being used in an in-place operation\.?\Z",
          *_ERRORS),
    _form("saved_changed", r"one of the variables needed for gradient computation has been modified by an "
          r"inplace operation: \[(?P<kind>[^\]]*?) \[(?P<shape>[^\]]*)\]\](?:, which is output (?P<output>\d+) of "
          r"(?P<node>[\w:]+),)? is at version (?P<now>\d+); expected version (?P<expected>\d+) instead\.", *_ERRORS),
    _form("nothing_to_differentiate", r"element (?P<element>\d+) of tensors does not require grad and does not "
          r"have a grad_fn\Z", *_ERRORS),
    _form("backward_scalar", r"grad can be implicitly created only for (?:real )?scalar outputs\Z", *_ERRORS),
    _form("graph_used", r"Trying to backward through the graph a second time", *_ERRORS),
    # Three wordings in torch 2 (the factory's flag, requires_grad_(), the attribute set): all the same error.
    _form("integer_grad", r"[Oo]nly Tensors of floating point (?:and complex )?dtype can require gradients\Z",
          *_ERRORS),
    _form("numpy_grad", r"Can't call numpy\(\) on Tensor that requires grad\.", *_ERRORS),
    _form("nonleaf_grad", r"The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed\.",
          "UserWarning"),
    _form("tensor_copies", r"To copy construct from a tensor, it is recommended to use "
          r"sourceTensor\.detach\(\)\.clone\(\)", "UserWarning"),
    _form("no_device", r"(?:Torch not compiled with CUDA enabled\Z|Found no NVIDIA driver on your system|"
          r"No CUDA GPUs are available\Z|The NVIDIA driver on your system is too old|CUDA driver|"
          r"PyTorch is not linked with support for (?:mps|cuda|xpu) devices\Z|The MPS backend is supported on|"
          r"MPS backend is not available|mps is not available)", "AssertionError", "RuntimeError"),
    # The same check in two wordings: torch's C++ kernels ("Expected all tensors ...") and its Python reference
    # implementations (`torch._prims_common.check_same_device`: what a meta tensor mixed with a CPU one raises, on
    # any machine, and what torch's own tests record for MPS): "Tensor on device cpu is not on the expected device
    # meta!". The devices are torch's names, never a step's words.
    _form("mixed_devices", r"(?:Expected all tensors to be on the same device|Tensor on device "
          r"(?P<device>[\w:]{1,40}) is not on the expected device (?P<expected>[\w:]{1,40})!\Z)", *_ERRORS),
    _form("view_strides", r"view size is not compatible with input tensor's size and stride", *_ERRORS),
    _form("shape_numel", r"shape '\[(?P<shape>[-\d, ]*)\]' is invalid for input of size (?P<size>\d+)\Z",
          *_ERRORS),
    _form("broadcast", r"The size of tensor a \((?P<a>\d+)\) must match the size of tensor b \((?P<b>\d+)\) at "
          r"non-singleton dimension (?P<dim>-?\d+)\Z", *_ERRORS),
    _form("index_range", r"index (?P<index>-?\d+) is out of bounds for dimension (?P<dim>\d+) with size "
          r"(?P<size>\d+)\Z", "IndexError", "RuntimeError"),
    _form("expanded_write", r"(?:unsupported operation: )?more than one element of the written-to tensor refers "
          r"to a single memory location\.", *_ERRORS),
    _form("overlapping_write", r"(?:unsupported operation: )?some elements of the input tensor and the written-to "
          r"tensor refer to a single memory location\.", *_ERRORS),
    _form("inplace_dtype", r"result type (?P<result>\w+) can't be cast to the desired output type "
          r"(?P<output>\w+)\Z", *_ERRORS),
    _form("matmul_shapes", r"(?:mat1 and mat2 shapes cannot be multiplied \((?P<a>\d+x\d+) and (?P<b>\d+x\d+)\)"
          r"\Z|size mismatch, got |Expected size for first two dimensions of batch2 tensor to be)", *_ERRORS),
    _form("item_one", r"a Tensor with (?P<count>\d+) elements cannot be converted to Scalar\Z", *_ERRORS),
    _form("truth_many", r"Boolean value of Tensor with more than one (?:value|element) is ambiguous\Z", *_ERRORS),
    _form("hook_no_grad", r"cannot register a hook on a tensor that doesn't require gradient\Z", *_ERRORS),
    _form("retain_no_grad", r"can't retain_grad on Tensor that has requires_grad=False\Z", *_ERRORS),
    _form("leaf_requires_grad", r"you can only change requires_grad flags of leaf variables\.", *_ERRORS),
    _form("deepcopy_nonleaf", r"Only Tensors created explicitly by the user \(graph leaves\) support the "
          r"deepcopy protocol", *_ERRORS),
    _form("inference_saved", r"Inference tensors cannot be saved for backward\.", *_ERRORS),
    _form("inference_readonly", r"Inplace update to inference tensor outside InferenceMode is not allowed",
          *_ERRORS),
    _form("no_grad_view", r"A view was created in no_grad mode and is being modified inplace with grad mode "
          r"enabled\.", *_ERRORS),
    # Its first sentence alone (what a learner often copies) too, but only for the functions that return several
    # views: the same sentence begins the custom-Function and no_grad forms of other views (the lookahead).
    _form("multi_view_inplace", r"(?!Output \d+ of (?!(?:Unbind|Split|SplitWithSizes|Chunk|UnsafeSplit|"
          r"UnsafeSplitWithSizes)(?:Backward\d*)? )\w+ is a view and is being modified inplace\.?\s*\Z)"
          r"Output (?P<output>\d+) of (?P<node>\w+) is a view and (?:its base or another "
          r"view of its base has been modified inplace|is being modified inplace\. This view is the output of a "
          r"function that returns multiple views|is being modified inplace\.?\s*\Z)", *_ERRORS),
    _form("detach_view", r"Can't detach views in-place\. Use detach\(\) instead\.", *_ERRORS),
    _form("grad_shape", r"attempting to assign a gradient of size '\[(?P<grad>[\d, ]*)\]' to a tensor of size "
          r"'\[(?P<size>[\d, ]*)\]'", *_ERRORS),
    # The training step (issue #16): loading a state dict, making an optimizer.
    _form("state_dict_size", r"Error\(s\) in loading state_dict for (?P<module>\w+):\s+size mismatch for "
          r"(?P<echo>[\w.]+): copying a param with shape torch\.Size\(\[(?P<given>[\d, ]*)\]\) from checkpoint, "
          r"the shape in current model is torch\.Size\(\[(?P<shape>[\d, ]*)\]\)", *_ERRORS),
    _form("state_dict_keys", r"Error\(s\) in loading state_dict for (?P<module>\w+):\s+(?:Missing|Unexpected) "
          r"key\(s\) in state_dict", *_ERRORS),
    _form("invalid_lr", r"Invalid learning rate: (?P<echo>.*)\Z", "ValueError"),
    _form("nonleaf_optimize", r"can't optimize a non-leaf Tensor\Z", "ValueError"),
    # Python's words, as TensorLab's interpreter raises them: the only parts they repeat are identifiers.
    _form("none_value", r"'NoneType' object has no attribute '(?P<attribute>\w+)'\Z", "AttributeError"),
    _form("no_name", r"name '(?P<name>\w+)' is not defined\Z", "NameError"),
    # Forms that repeat a string the step passed: no explanation, but what they quote is not torch's.
    _form("invalid_device", r"Invalid device string: '(?P<echo>.*)'\Z"),
    _form("device_type", r"Expected one of (?P<types>[\w, ]*) device type at start of device string: "
          r"(?P<echo>.*)\Z"),
    _form("invalid_type", r"invalid type: '(?P<echo>.*)'\Z"),
    _form("no_module", r"No module named '(?P<echo>.*)'\Z"),
    _form("no_attribute", r"'(?P<type>[\w.]+)' object has no attribute '(?P<echo>.*)'\Z"),
)
_QUOTED = re.compile(r"'.*'|\".*\"|`.*`|“.*”", re.S)   # outermost: an echo may hold quotes of its own


def parse_message(message: str, type_name: str = "") -> ParsedMessage:
    """``message`` (raised or warned as ``type_name``; empty: any type) read as one of torch's forms."""
    for form in FORMS:
        if form.types and type_name and type_name not in form.types:
            continue
        match = form.pattern.match(message)
        if match is None:
            continue
        facts, echoed, own, last = [], [], [], 0
        for name, value in match.groupdict().items():
            if value is None:
                continue
            if name.startswith("echo"):
                echoed.append(value)
                start, end = match.span(name)
                own.append(message[last:start] + ECHO)
                last = end
            else:
                facts.append((name, value))
        own.append(message[last:])
        return ParsedMessage(form.kind, tuple(facts), tuple(echoed), "".join(own))
    quoted = tuple(m.group(0) for m in _QUOTED.finditer(message))
    return ParsedMessage(None, (), quoted, _QUOTED.sub(ECHO, message))


def own_words(message: str, type_name: str = "") -> str:
    """The part of ``message`` that is torch's own words (what it repeats of a step's arguments masked)."""
    return parse_message(message, type_name).own

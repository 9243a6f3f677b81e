"""Plain-language explanations of the errors and warnings torch raises.

Each rule matches the real message by pattern; the real message is always kept
beside the explanation, never replaced. Where the history of a session is known,
the version-counter error also names which tensor was saved and which step
changed it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tensorlab.core.explain.version_culprit import version_culprit
from tensorlab.core.messages.catalogue import Message
from tensorlab.core.protocol.explanation import Explanation, HistoryEntry
from tensorlab.core.protocol.snapshot import SavedTensor

__all__ = ["Explanation", "explain", "HistoryEntry"]


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    name: str  # in the catalogue: explain.<name>.title, .text, .advice

    @property
    def key(self) -> str:
        return f"explain.{self.name}"


def _rule(pattern: str, name: str) -> _Rule:
    return _Rule(re.compile(pattern, re.S), name)


# Order matters: the first rule that matches wins (the view variant before the leaf one). The words are in
# tensorlab/core/messages/text_explanations.py, under explain.<name>.
_RULES: tuple[_Rule, ...] = (
    _rule(r"a view of a leaf Variable that requires grad is being used in an in-place operation",
          "leaf_view_inplace"),
    _rule(r"a leaf Variable that requires grad is being used in an in-place operation",
          "leaf_inplace"),
    _rule(r"modified by an inplace operation: \[(?P<kind>[^\]]*?) \[(?P<shape>[^\]]*)\]\](?P<rest>.*?)"
          r"is at version (?P<now>\d+); expected version (?P<expected>\d+)",
          "saved_changed"),
    _rule(r"element 0 of tensors does not require grad and does not have a grad_fn",
          "nothing_to_differentiate"),
    _rule(r"grad can be implicitly created only for scalar outputs",
          "backward_scalar"),
    _rule(r"Trying to backward through the graph a second time",
          "graph_used"),
    _rule(r"Only Tensors of floating point and complex dtype can require gradients|"
        r"only Tensors of floating point dtype can require gradients",
          "integer_grad"),
    _rule(r"Can't call numpy\(\) on Tensor that requires grad",
          "numpy_grad"),
    _rule(r"The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed",
          "nonleaf_grad"),
    _rule(r"To copy construct from a tensor, it is recommended to use sourceTensor\.detach\(\)\.clone\(\)",
          "tensor_copies"),
    _rule(r"Torch not compiled with CUDA enabled|Found no NVIDIA driver|No CUDA GPUs are available|"
        r"CUDA driver|MPS backend|mps.*not available",
          "no_device"),
    _rule(r"Expected all tensors to be on the same device",
          "mixed_devices"),
    _rule(r"view size is not compatible with input tensor's size and stride",
          "view_strides"),
    _rule(r"shape '\[[^\]]*\]' is invalid for input of size \d+",
          "shape_numel"),
    _rule(r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\)",
          "broadcast"),
    _rule(r"index -?\d+ is out of bounds for dimension \d+ with size \d+",
          "index_range"),
    _rule(r"more than one element of the written-to tensor refers to a single memory location",
          "expanded_write"),
    _rule(r"result type \w+ can't be cast to the desired output type \w+",
          "inplace_dtype"),
    _rule(r"mat1 and mat2 shapes cannot be multiplied|size mismatch|Expected size for first two dimensions",
          "matmul_shapes"),
    _rule(r"a Tensor with \d+ elements cannot be converted to Scalar",
          "item_one"),
    _rule(r"Boolean value of Tensor with more than one value is ambiguous",
          "truth_many"),
    _rule(r"cannot register a hook on a tensor that doesn't require gradient",
          "hook_no_grad"),
    _rule(r"can't retain_grad on Tensor that has requires_grad=False",
          "retain_no_grad"),
    _rule(r"you can only change requires_grad flags of leaf variables",
          "leaf_requires_grad"),
    _rule(r"support the deepcopy protocol",
          "deepcopy_nonleaf"),
    _rule(r"Inference tensors cannot be saved for backward",
          "inference_saved"),
    _rule(r"Inplace update to inference tensor outside InferenceMode is not allowed",
          "inference_readonly"),
    _rule(r"A view was created in no_grad mode and is being modified inplace with grad mode enabled",
          "no_grad_view"),
    _rule(r"is a view and its base or another view of its base has been modified inplace|"
        r"is a view and is being modified inplace\. This view is the output of a function that returns multiple views",
          "multi_view_inplace"),
    _rule(r"attempting to assign a gradient of size",
          "grad_shape"),
    _rule(r"'NoneType' object has no attribute",
          "none_value"),
    _rule(r"^name '\w+' is not defined",
          "no_name"),
    _rule(r"TensorLab allows at most|too large a number for TensorLab",
          "too_large"),
    _rule(r"is not available",
          "not_subset"),
)


def explain(
    message: str, error_type: str = "", history: Sequence[HistoryEntry] = (),
    saved: Sequence[SavedTensor] = (),
) -> Explanation | None:
    """The explanation for a torch error or warning message, or None if none applies.

    ``history`` (earlier steps and their snapshots, oldest first) lets the
    version-counter explanation name the tensor and the step that changed it;
    ``saved`` lists the tensors the graphs of the session's names saved for
    backward, as they were when the step raised.
    """
    for rule in _RULES:
        match = rule.pattern.search(message)
        if match is None:
            continue
        more: tuple[Message, ...] = ()
        if "now" in match.groupdict() and history:
            more = version_culprit(match["shape"], int(match["now"]), int(match["expected"]), history, saved)
        return Explanation(rule.key, (), more)
    return None

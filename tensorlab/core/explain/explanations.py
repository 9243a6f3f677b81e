"""Plain-language explanations of the errors and warnings torch raises.

Explanations come only from torch's own words: a message is read by the one parser of
torch's message forms (:mod:`tensorlab.core.explain.torch_messages`), from its start and
by its form, never by a phrase found somewhere inside it (a message that quotes a step's
string quotes whatever the step wrote). Each explained form has its words in the
catalogue (``explain.<kind>``); the real message is always kept beside the explanation,
never replaced. Where the history of a session is known, the version-counter
explanation also names which tensor was saved and which step changed it.

Only what torch raised is explained (``origin``, see :func:`explain`); TensorLab's own
refusals and limits carry their own message, and are explained by its catalogue key,
never by their text.
"""

from __future__ import annotations

from collections.abc import Sequence

from tensorlab.core.explain.torch_messages import parse_message
from tensorlab.core.explain.version_culprit import version_culprit
from tensorlab.core.messages.catalogue import Message
from tensorlab.core.protocol.explanation import Explanation, HistoryEntry
from tensorlab.core.protocol.snapshot import SavedTensor

__all__ = ["Explanation", "explain", "explain_own", "HistoryEntry", "EXPLAINED", "ORIGINS"]

# The forms of torch's messages that have an explanation (explain.<kind> in
# tensorlab/core/messages/text_explanations.py).
EXPLAINED: frozenset[str] = frozenset({
    "leaf_view_inplace", "leaf_inplace", "saved_changed", "nothing_to_differentiate", "backward_scalar",
    "graph_used", "integer_grad", "numpy_grad", "nonleaf_grad", "tensor_copies", "no_device", "mixed_devices",
    "view_strides", "shape_numel", "broadcast", "index_range", "expanded_write", "overlapping_write",
    "inplace_dtype", "matmul_shapes",
    "item_one", "truth_many", "hook_no_grad", "retain_no_grad", "leaf_requires_grad", "deepcopy_nonleaf",
    "inference_saved", "inference_readonly", "no_grad_view", "multi_view_inplace", "grad_shape",
    "none_value", "no_name", "detach_view",
    "state_dict_size", "state_dict_keys", "invalid_lr", "nonleaf_optimize",
})
# Where an exception came from: torch (its code, or a compiled operator the interpreter called), the
# interpreter (an error TensorLab raises in Python's words: a name not bound, an attribute of None),
# TensorLab (a refusal or a limit, with its own message), or anything else (not explained).
ORIGINS = ("torch", "interpreter", "tensorlab", "other")
# The forms an error the interpreter raised in Python's words can have.
_INTERPRETER_FORMS = frozenset({"none_value", "no_name"})
# TensorLab's own messages, by catalogue key prefix: what kind of refusal they are.
# (A nesting limit is a depth, not a size: "use a smaller size" would mislead; issue #21 review r21g.)
_OWN = (("limit.nesting", "too_deep"), ("limit.", "too_large"), ("subset.", "not_subset"))


def explain_own(message: Message) -> Explanation | None:
    """The explanation of one of TensorLab's own refusals, chosen by its catalogue key (never its text)."""
    for prefix, name in _OWN:
        if message.key.startswith(prefix):
            return Explanation(f"explain.{name}")
    return None


def explain(
    message: str, error_type: str = "", history: Sequence[HistoryEntry] = (),
    saved: Sequence[SavedTensor] = (), origin: str = "torch",
) -> Explanation | None:
    """The explanation for a torch error or warning message, or None if none applies.

    ``origin`` says who raised it (:data:`ORIGINS`): only torch's messages are explained,
    and of the interpreter's only the Python errors it raises for a missing name or an
    attribute of None. ``history`` (earlier steps and their snapshots, oldest first) lets
    the version-counter explanation name the tensor and the step that changed it;
    ``saved`` lists the tensors the graphs of the session's names saved for backward, as
    they were when the step raised.
    """
    if origin not in ("torch", "interpreter"):
        return None
    parsed = parse_message(message, error_type)
    if parsed.kind is None or parsed.kind not in EXPLAINED:
        return None
    if origin == "interpreter" and parsed.kind not in _INTERPRETER_FORMS:
        return None
    now, expected, shape = parsed.fact("now"), parsed.fact("expected"), parsed.fact("shape")
    if parsed.kind == "saved_changed" and history and now is not None and expected is not None and shape is not None:
        culprit = version_culprit(shape, int(now), int(expected), history, saved)
        return Explanation(f"explain.{parsed.kind}", (), culprit.sentences, culprit_steps=culprit.steps,
                           culprit_names=culprit.names)
    return Explanation(f"explain.{parsed.kind}")

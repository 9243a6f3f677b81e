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

from tensorlab.core.explain.explanations_ko import KOREAN
from tensorlab.core.explain.version_culprit import version_culprit
from tensorlab.core.protocol.explanation import Explanation, HistoryEntry
from tensorlab.core.protocol.snapshot import SavedTensor

__all__ = ["Explanation", "explain", "HistoryEntry"]


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    title: str
    text: str
    advice: str = ""


def _rule(pattern: str, title: str, text: str, advice: str = "") -> _Rule:
    return _Rule(re.compile(pattern, re.S), title, text, advice)


# Order matters: the first rule that matches wins (the view variant before the leaf one).
_RULES: tuple[_Rule, ...] = (
    _rule(
        r"a view of a leaf Variable that requires grad is being used in an in-place operation",
        "In-place change of a leaf, through a view",
        "Basic indexing of a leaf (`x[0]`, `x[1:3]`) gives a view of it: the same memory, so "
        "writing into the view would change the leaf itself. Autograd records an in-place change "
        "by rewriting the history (the grad_fn) of the tensor that changed, but a leaf that "
        "requires grad has no history to rewrite: it is where its gradient is accumulated. So "
        "torch refuses while autograd is recording, before writing anything.",
        "wrap the change in `with torch.no_grad():` if you mean to edit the parameter itself, "
        "or work on a copy: `y = x.clone(); y[0] = 2`.",
    ),
    _rule(
        r"a leaf Variable that requires grad is being used in an in-place operation",
        "In-place change of a leaf",
        "Every in-place operation on a leaf that requires grad is refused while autograd is "
        "recording: a method whose name ends in `_` (`x.add_(1)`), an augmented assignment "
        "(`x += 1`), an assignment through a list or mask index (`x[[0]] = 2`, `x[x > 0] = 0`). "
        "The leaf is where its gradient is accumulated and has no history in which the change "
        "could be recorded.",
        "use `with torch.no_grad():` to update it on purpose (as optimizers do), or use the "
        "out-of-place form (`x.add(1)`) or a `clone()`.",
    ),
    _rule(
        r"modified by an inplace operation: \[(?P<kind>[^\]]*?) \[(?P<shape>[^\]]*)\]\](?P<rest>.*?)"
        r"is at version (?P<now>\d+); expected version (?P<expected>\d+)",
        "A saved tensor was changed in place",
        "To compute gradients, autograd saved a tensor during the forward pass and noted its "
        "version counter. Something later changed that tensor in place (directly, through a view, "
        "or through a `detach()` alias, which shares the version counter), so the saved value is "
        "no longer the one the forward pass used, and backward() refuses to give a wrong answer.",
        "change a `clone()` instead of the saved tensor, or do the in-place change before the "
        "tensor is used in the computation.",
    ),
    _rule(
        r"element 0 of tensors does not require grad and does not have a grad_fn",
        "Nothing to differentiate",
        "backward() was called on a tensor that is not part of any graph: no tensor it was "
        "computed from requires grad (or it was computed under `torch.no_grad()` or from a "
        "`detach()`ed tensor).",
        "create the input with `requires_grad=True` and compute the result outside "
        "`torch.no_grad()`.",
    ),
    _rule(
        r"grad can be implicitly created only for scalar outputs",
        "backward() needs a scalar",
        "Without an argument, backward() starts from a gradient of 1 for a single number. This "
        "tensor has more than one element, so torch does not know how to weight them.",
        "reduce it first (`y.sum().backward()`) or pass the weights: `y.backward(torch.ones_like(y))`.",
    ),
    _rule(
        r"Trying to backward through the graph a second time",
        "The graph was already used",
        "After backward(), autograd frees the tensors it saved for the backward pass, so the "
        "same graph cannot be walked again.",
        "recompute the forward pass, or call the first backward with `retain_graph=True`.",
    ),
    _rule(
        r"Only Tensors of floating point and complex dtype can require gradients|"
        r"only Tensors of floating point dtype can require gradients",
        "Integers have no gradient",
        "Gradients are defined for real or complex numbers; an integer or bool tensor cannot "
        "require grad.",
        "give the tensor a floating dtype: `torch.ones(5, dtype=torch.float32, requires_grad=True)` "
        "or `torch.arange(5.)`.",
    ),
    _rule(
        r"Can't call numpy\(\) on Tensor that requires grad",
        "numpy() would leave the graph silently",
        "A NumPy array shares the tensor's memory but autograd cannot follow it, so torch "
        "refuses to convert a tensor that requires grad.",
        "`x.detach().numpy()`: detach says explicitly that you leave the graph.",
    ),
    _rule(
        r"The \.grad attribute of a Tensor that is not a leaf Tensor is being accessed",
        "Reading .grad of a non-leaf",
        "After backward(), only leaves that require grad (tensors no recorded operation "
        "produced) keep their gradient in `.grad`. This tensor was computed by a recorded "
        "operation, so its `.grad` stays None.",
        "call `y.retain_grad()` before backward() to keep it, or read the leaf's `.grad`.",
    ),
    _rule(
        r"To copy construct from a tensor, it is recommended to use sourceTensor\.detach\(\)\.clone\(\)",
        "torch.tensor(t) copies",
        "`torch.tensor()` always copies its data. Given a tensor, the copy leaves the graph "
        "(like `detach().clone()`), which torch warns about because it is easy to misread.",
        "write what you mean: `t.detach().clone()` for a plain copy, "
        "`t.detach().clone().requires_grad_(True)` for a new leaf, `t.clone()` to stay in the graph.",
    ),
    _rule(
        r"Torch not compiled with CUDA enabled|Found no NVIDIA driver|No CUDA GPUs are available|"
        r"CUDA driver|MPS backend|mps.*not available",
        "That device is not here",
        "This build of PyTorch, or this machine, has no such device.",
        "pick a device from the device list; cpu always works.",
    ),
    _rule(
        r"Expected all tensors to be on the same device",
        "Tensors on different devices",
        "An operation mixed tensors that live on different devices; torch never moves data "
        "implicitly between them.",
        "move one of them with `.to(other.device)`.",
    ),
    _rule(
        r"view size is not compatible with input tensor's size and stride",
        "view() needs compatible strides",
        "view() never copies: it reinterprets the same memory. This tensor's elements are not "
        "laid out in memory in an order that the new shape can describe (a transpose, for "
        "example), so no view exists.",
        "`reshape()` (which copies when it must), or `contiguous().view(...)`.",
    ),
    _rule(
        r"shape '\[[^\]]*\]' is invalid for input of size \d+",
        "The new shape has a different number of elements",
        "A view or reshape keeps every element; the product of the new shape must equal the "
        "number of elements.",
        "use -1 for one dimension to let torch compute it: `x.view(-1, 2)`.",
    ),
    _rule(
        r"The size of tensor a \(\d+\) must match the size of tensor b \(\d+\)",
        "Shapes do not broadcast",
        "Element-wise operations line shapes up from the right; each pair of sizes must be equal "
        "or one of them 1.",
        "reshape or unsqueeze one operand so the sizes agree.",
    ),
    _rule(
        r"index -?\d+ is out of bounds for dimension \d+ with size \d+",
        "Index out of range",
        "Indices count from 0, so the last valid index is the size minus one.",
    ),
    _rule(
        r"more than one element of the written-to tensor refers to a single memory location",
        "Writing into an expanded view",
        "expand() repeats elements without copying: several positions of this tensor are the "
        "same memory cell, so an in-place write would be ambiguous.",
        "`clone()` the expanded tensor first, which gives each position its own cell.",
    ),
    _rule(
        r"result type \w+ can't be cast to the desired output type \w+",
        "In-place cannot change the dtype",
        "An in-place operation writes into the existing memory, whose dtype is fixed; the result "
        "of this operation has a type that does not fit into it.",
        "use the out-of-place form (`x + 0.5`), or convert first (`x = x.float()`).",
    ),
    _rule(
        r"mat1 and mat2 shapes cannot be multiplied|size mismatch|Expected size for first two dimensions",
        "Matrix shapes do not fit",
        "For `A @ B` the number of columns of A must equal the number of rows of B.",
        "transpose one of them (`B.t()`) or check the shapes.",
    ),
    _rule(
        r"a Tensor with \d+ elements cannot be converted to Scalar",
        "item() needs exactly one element",
        "item() returns a single Python number; this tensor has several elements.",
        "index one element first (`x[0].item()`) or use `tolist()`.",
    ),
    _rule(
        r"Boolean value of Tensor with more than one value is ambiguous",
        "True or False of many values",
        "Python asked this tensor for one truth value, but it has several elements.",
        "compare whole tensors with `torch.equal(a, b)`, or look at one element (`x[0].item()`).",
    ),
    _rule(
        r"cannot register a hook on a tensor that doesn't require gradient",
        "No gradient will pass here",
        "A gradient hook runs when backward() computes this tensor's gradient; it does not "
        "require grad, so that never happens.",
        "register the hook on a tensor that requires grad.",
    ),
    _rule(
        r"can't retain_grad on Tensor that has requires_grad=False",
        "Nothing to retain",
        "retain_grad() keeps the gradient of a non-leaf, but this tensor does not require grad, "
        "so it will never get one.",
    ),
    _rule(
        r"you can only change requires_grad flags of leaf variables",
        "Only leaves can change requires_grad",
        "A computed tensor requires grad because its inputs do; turning that off would cut the "
        "graph silently.",
        "`y.detach()` gives the same values outside the graph.",
    ),
    _rule(
        r"support the deepcopy protocol",
        "deepcopy of a computed tensor",
        "copy.deepcopy only works for leaf tensors; a tensor in the middle of a graph cannot be "
        "copied together with its history.",
        "`y.detach().clone()` copies the values; `y.clone()` copies and stays in the graph.",
    ),
    _rule(
        r"Inference tensors cannot be saved for backward",
        "Inference tensors have no autograd bookkeeping",
        "Tensors made under `torch.inference_mode()` carry no version counter, so autograd cannot "
        "save them for a backward pass.",
        "make them with `torch.no_grad()` instead, or `clone()` them outside inference mode.",
    ),
    _rule(
        r"Inplace update to inference tensor outside InferenceMode is not allowed",
        "Inference tensors are read-only outside inference mode",
        "A tensor created under `torch.inference_mode()` has no version counter, so changing it "
        "in place later could not be tracked. torch raises this only after the operation has "
        "run: look at the values, they may already have changed.",
        "`clone()` it first.",
    ),
    _rule(
        r"A view was created in no_grad mode and is being modified inplace with grad mode enabled",
        "View made under no_grad, changed with grad on",
        "Autograd cannot tell whether this in-place change should be recorded, because the view "
        "was made while recording was off.",
        "do both the view and the change inside `torch.no_grad()`, or both outside.",
    ),
    _rule(
        r"is a view and its base or another view of its base has been modified inplace|"
        r"is a view and is being modified inplace\. This view is the output of a function that returns multiple views",
        "Views from split/unbind/chunk cannot be changed in place",
        "split, chunk and unbind return several views of one tensor; autograd cannot rewrite "
        "the history of all of them when one is changed in place.",
        "use the out-of-place operation, or `clone()` the piece first.",
    ),
    _rule(
        r"attempting to assign a gradient of size",
        "A gradient must match its tensor",
        "`.grad` holds one number per element of the tensor, so it must have the same shape.",
    ),
    _rule(
        r"'NoneType' object has no attribute",
        "This value is None",
        "The expression before the dot is None. A `.grad` is None until backward() has written "
        "one (and always for a non-leaf that does not retain grad).",
        "run backward() first, or check with `x.grad is None`.",
    ),
    _rule(
        r"^name '\w+' is not defined",
        "No such name yet",
        "No step that ran has assigned this name: either no earlier step assigns it or the step "
        "that should have assigned it raised an error.",
    ),
    _rule(
        r"TensorLab allows at most|too large a number for TensorLab",
        "Too large for TensorLab",
        "TensorLab refused this before allocating anything, to keep the machine responsive.",
        "use a smaller size; the idea is the same with five elements.",
    ),
    _rule(
        r"is not available",
        "Not part of TensorLab's code",
        "TensorLab runs a safe subset of PyTorch; this name or construct is outside it.",
        "see the code subset in the README.",
    ),
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
        text = rule.text
        translations = {}
        korean = KOREAN.get(rule.title)
        if korean is not None:
            translations["ko"] = korean
        if "now" in match.groupdict() and history:
            now, expected = int(match["now"]), int(match["expected"])
            text = text + version_culprit(match["shape"], now, expected, history, saved)
            if korean is not None:
                culprit = version_culprit(match["shape"], now, expected, history, saved, "ko")
                translations["ko"] = (korean[0], korean[1] + culprit, korean[2])
        return Explanation(rule.title, text, rule.advice, translations)
    return None

"""Texts: the explanations of torch's errors and warnings (explain/explanations.py, version_culprit.py,
 hidden_writes.py).

``explain.<rule>.title``, ``.text`` and ``.advice`` (an empty advice: none). torch's own message is
never translated: it is shown as torch wrote it, beside the explanation. Registered in
:mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # -- explain.leaf_view_inplace ---------------------------------------------------------------------------
    "explain.leaf_view_inplace.title": (
        "In-place change of a leaf, through a view",
        "뷰를 통한 리프 텐서의 인플레이스 변경",
    ),
    "explain.leaf_view_inplace.text": (
        "Basic indexing of a leaf (`x[0]`, `x[1:3]`) gives a view of it: the same memory, so writing into the view "
        "would change the leaf itself. Autograd records an in-place change by rewriting the history (the grad_fn) "
        "of the tensor that changed, but a leaf that requires grad has no history to rewrite: it is where its "
        "gradient is accumulated. So torch refuses while autograd is recording, before writing anything.",
        "리프 텐서를 기본 인덱싱하면(`x[0]`, `x[1:3]`) 같은 메모리를 보는 뷰가 나옵니다. 그래서 뷰에 값을 써 넣으면 "
        "리프 텐서 자체가 바뀌게 됩니다. autograd는 바뀐 텐서의 이력(grad_fn)을 고쳐서 인플레이스 변경을 기록하는데, "
        "requires_grad=True인 리프 텐서에는 고칠 이력이 없습니다. 기울기가 누적되는 곳이기 때문입니다. 그래서 "
        "autograd가 기록하는 동안에는 torch가 아무것도 써 넣기 전에 거부합니다.",
    ),
    "explain.leaf_view_inplace.advice": (
        "wrap the change in `with torch.no_grad():` if you mean to edit the parameter itself, or work on a copy: `y "
        "= x.clone(); y[0] = 2`.",
        "매개변수 자체를 일부러 바꾸려면 `with torch.no_grad():` 안에서 하고, 아니면 복사본에서 작업하세요(`y = "
        "x.clone(); y[0] = 2`).",
    ),
    # -- explain.leaf_inplace --------------------------------------------------------------------------------
    "explain.leaf_inplace.title": ("In-place change of a leaf", "리프 텐서의 인플레이스 변경"),
    "explain.leaf_inplace.text": (
        "Every in-place operation on a leaf that requires grad is refused while autograd is recording: a method "
        "whose name ends in `_` (`x.add_(1)`), an augmented assignment (`x += 1`), an assignment through a list or "
        "mask index (`x[[0]] = 2`, `x[x > 0] = 0`). The leaf is where its gradient is accumulated and has no "
        "history in which the change could be recorded.",
        "autograd가 기록하는 동안에는 requires_grad=True인 리프 텐서에 대한 인플레이스 연산이 모두 거부됩니다. "
        "이름이 `_`로 끝나는 메서드(`x.add_(1)`), 복합 대입(`x += 1`), 리스트나 마스크 인덱스를 통한 대입(`x[[0]] = "
        "2`, `x[x > 0] = 0`)이 모두 그렇습니다. 리프 텐서는 기울기가 누적되는 곳이고, 변경을 기록할 이력이 "
        "없습니다.",
    ),
    "explain.leaf_inplace.advice": (
        "use `with torch.no_grad():` to update it on purpose (as optimizers do), or use the out-of-place form "
        "(`x.add(1)`) or a `clone()`.",
        "일부러 갱신하려면 `with torch.no_grad():` 안에서 하고(옵티마이저가 하는 방식), 아니면 인플레이스가 아닌 "
        "형태(`x.add(1)`)나 `clone()`을 사용하세요.",
    ),
    # -- explain.saved_changed -------------------------------------------------------------------------------
    "explain.saved_changed.title": ("A saved tensor was changed in place", "저장된 텐서가 인플레이스로 바뀌었습니다"),
    "explain.saved_changed.text": (
        "To compute gradients, autograd saved a tensor during the forward pass and noted its version counter. "
        "Something later changed that tensor in place (directly, through a view, or through a `detach()` alias, "
        "which shares the version counter), so the saved value is no longer the one the forward pass used, and "
        "backward() refuses to give a wrong answer.",
        "기울기를 계산하려고 autograd는 순전파 때 텐서를 저장하고 그 버전 카운터를 적어 둡니다. 그 뒤 무언가가 그 "
        "텐서를 인플레이스로 바꿨습니다(직접, 뷰를 통해, 또는 버전 카운터를 공유하는 `detach()` 별칭을 통해). "
        "저장된 값이 순전파 때의 값이 아니므로, backward()는 틀린 답을 내놓는 대신 멈춥니다.",
    ),
    "explain.saved_changed.advice": (
        "change a `clone()` rather than the saved tensor, or do the in-place change before the tensor is used in the "
        "computation.",
        "저장된 텐서가 아니라 그 `clone()`을 바꾸거나, 그 텐서가 계산에 사용되기 전에 인플레이스 변경을 하세요.",
    ),
    # -- explain.nothing_to_differentiate --------------------------------------------------------------------
    "explain.nothing_to_differentiate.title": ("Nothing to differentiate", "미분할 것이 없습니다"),
    "explain.nothing_to_differentiate.text": (
        "backward() was called on a tensor that is not part of any graph: no tensor it was computed from requires "
        "grad (or it was computed under `torch.no_grad()` or from a `detach()`ed tensor).",
        "계산 그래프에 속하지 않은 텐서에서 backward()를 호출했습니다. 이 텐서를 만든 입력 중 requires_grad=True인 "
        "것이 없거나, `torch.no_grad()` 안에서 또는 `detach()`한 텐서에서 계산되었습니다.",
    ),
    "explain.nothing_to_differentiate.advice": (
        "create the input with `requires_grad=True` and compute the result outside `torch.no_grad()`.",
        "입력을 `requires_grad=True`로 만들고, 결과를 `torch.no_grad()` 밖에서 계산하세요.",
    ),
    # -- explain.backward_scalar -----------------------------------------------------------------------------
    "explain.backward_scalar.title": ("backward() needs a scalar", "backward()에는 스칼라가 필요합니다"),
    "explain.backward_scalar.text": (
        "Without an argument, backward() starts from a gradient of 1, which fits a single number only. This tensor "
        "has more than one element, so backward() needs a starting gradient of the same shape.",
        "인수 없이 호출하면 backward()는 기울기 1에서 시작하는데, 이것은 숫자 하나에만 맞습니다. 이 텐서는 원소가 "
        "여러 개이므로 backward()에는 같은 모양의 시작 기울기가 필요합니다.",
    ),
    "explain.backward_scalar.advice": (
        "reduce it first (`y.sum().backward()`) or pass a gradient of its shape: `y.backward(torch.ones_like(y))`.",
        "먼저 집계 연산으로 줄이거나(`y.sum().backward()`) 같은 모양의 기울기를 넘기세요"
        "(`y.backward(torch.ones_like(y))`).",
    ),
    # -- explain.graph_used ----------------------------------------------------------------------------------
    "explain.graph_used.title": ("The graph was already used", "계산 그래프를 이미 사용했습니다"),
    "explain.graph_used.text": (
        "After backward(), autograd frees the tensors it saved for the backward pass, so a second backward() through "
        "a node that needed them fails.",
        "backward()가 끝나면 autograd는 역전파를 위해 저장해 둔 텐서를 해제하므로, 저장된 텐서가 필요한 노드를 다시 "
        "거치는 두 번째 backward()는 실패합니다.",
    ),
    "explain.graph_used.advice": (
        "recompute the forward pass, or call the first backward with `retain_graph=True`.",
        "순전파를 다시 계산하거나, 첫 `backward()`를 `retain_graph=True`로 호출하세요.",
    ),
    # -- explain.integer_grad --------------------------------------------------------------------------------
    "explain.integer_grad.title": ("Integers have no gradient", "정수에는 기울기가 없습니다"),
    "explain.integer_grad.text": (
        "Gradients are defined for real or complex numbers; an integer or bool tensor cannot require grad.",
        "기울기는 실수나 복소수에 대해 정의됩니다. 정수나 bool 텐서는 requires_grad=True가 될 수 없습니다.",
    ),
    "explain.integer_grad.advice": (
        "give the tensor a floating dtype: `torch.ones(5, dtype=torch.float32, requires_grad=True)` or "
        "`torch.arange(5.)`.",
        "부동소수점 dtype을 주세요(`torch.ones(5, dtype=torch.float32, requires_grad=True)` 또는 "
        "`torch.arange(5.)`).",
    ),
    # -- explain.numpy_grad ----------------------------------------------------------------------------------
    "explain.numpy_grad.title": (
        "numpy() would leave the graph silently",
        "numpy()는 조용히 계산 그래프에서 분리됩니다",
    ),
    "explain.numpy_grad.text": (
        "A NumPy array shares the tensor's memory but autograd cannot follow it, so torch refuses to convert a "
        "tensor that requires grad.",
        "NumPy 배열은 텐서와 메모리를 공유하지만 autograd가 따라갈 수 없으므로, torch는 requires_grad=True인 텐서의 "
        "변환을 거부합니다.",
    ),
    "explain.numpy_grad.advice": (
        "`x.detach().numpy()`: detach says explicitly that you leave the graph.",
        "`x.detach().numpy()`처럼 detach()로 계산 그래프에서 분리한다는 것을 드러내세요.",
    ),
    # -- explain.nonleaf_grad --------------------------------------------------------------------------------
    "explain.nonleaf_grad.title": ("Reading .grad of a non-leaf", "리프 텐서가 아닌 텐서의 .grad 읽기"),
    "explain.nonleaf_grad.text": (
        "After backward(), only leaves that require grad (tensors no recorded operation produced) keep their "
        "gradient in `.grad`. This tensor was computed by a recorded operation, so its `.grad` stays None.",
        "backward() 뒤에 `.grad`에 기울기를 보관하는 것은 requires_grad=True인 리프 텐서(기록된 연산이 만들지 않은 "
        "텐서)뿐입니다. 이 텐서는 기록된 연산이 계산했으므로 `.grad`가 `None`으로 남습니다.",
    ),
    "explain.nonleaf_grad.advice": (
        "call `.retain_grad()` on this tensor before backward() to keep it, or read the leaf's `.grad`.",
        "backward() 전에 이 텐서의 `.retain_grad()`를 호출하거나, 리프 텐서의 `.grad`를 읽으세요.",
    ),
    # -- explain.tensor_copies -------------------------------------------------------------------------------
    "explain.tensor_copies.title": ("torch.tensor(t) copies", "torch.tensor(t)는 복사합니다"),
    "explain.tensor_copies.text": (
        "`torch.tensor()` always copies its data. Given a tensor, the copy leaves the graph (like "
        "`detach().clone()`), which torch warns about because it is easy to misread.",
        "`torch.tensor()`는 항상 데이터를 복사합니다. 텐서를 넘기면 그 복사본은 `detach().clone()`처럼 계산 "
        "그래프에서도 분리되는데, 헷갈리기 쉬워서 torch가 경고합니다.",
    ),
    "explain.tensor_copies.advice": (
        "write what you mean: `t.detach().clone()` for a plain copy, `t.detach().clone().requires_grad_(True)` for "
        "a new leaf, `t.clone()` to stay in the graph.",
        "의도에 맞는 것을 사용하세요. 값만 복사하려면 `t.detach().clone()`, 새 리프 텐서가 필요하면 "
        "`t.detach().clone().requires_grad_(True)`, 계산 그래프에 남으려면 `t.clone()`.",
    ),
    # -- explain.no_device -----------------------------------------------------------------------------------
    "explain.no_device.title": ("That device is not here", "그 장치가 없습니다"),
    "explain.no_device.text": (
        "This build of PyTorch, or this machine, has no such device.",
        "이 PyTorch 빌드나 이 컴퓨터에는 그런 장치가 없습니다.",
    ),
    "explain.no_device.advice": (
        "pick a device from the device list; cpu always works.",
        "장치 목록에서 고르세요. cpu는 항상 됩니다.",
    ),
    # -- explain.mixed_devices -------------------------------------------------------------------------------
    "explain.mixed_devices.title": ("Tensors on different devices", "서로 다른 장치의 텐서"),
    "explain.mixed_devices.text": (
        "An operation mixed tensors that live on different devices; torch never moves data implicitly between them "
        "(except a 0-dim CPU tensor, which it reads as a number).",
        "연산이 서로 다른 장치에 있는 텐서를 섞었습니다. torch는 장치 사이에서 데이터를 몰래 옮기지 않습니다"
        "(0차원 CPU 텐서는 예외로, 숫자처럼 읽습니다).",
    ),
    "explain.mixed_devices.advice": (
        "move one of them with `.to(other.device)`.",
        "하나를 `.to(other.device)`로 옮기세요.",
    ),
    # -- explain.view_strides --------------------------------------------------------------------------------
    "explain.view_strides.title": ("view() needs compatible strides", "view()에는 맞는 stride가 필요합니다"),
    "explain.view_strides.text": (
        "view() never copies: it reinterprets the same memory. This tensor's elements are not laid out in memory in "
        "an order that the new shape can describe (a transpose, for example), so no view exists.",
        "view()는 복사하지 않고 같은 메모리를 다르게 읽을 뿐입니다. 이 텐서의 원소는 새 모양이 나타낼 수 있는 "
        "순서로 메모리에 놓여 있지 않아서(예: 전치), 그런 뷰는 없습니다.",
    ),
    "explain.view_strides.advice": (
        "`reshape()`, or `contiguous().view(...)`.",
        "`reshape()`나 `contiguous().view(...)`를 사용하세요.",
    ),
    # -- explain.shape_numel ---------------------------------------------------------------------------------
    "explain.shape_numel.title": ("The new shape has a different number of elements", "새 모양의 원소 수가 다릅니다"),
    "explain.shape_numel.text": (
        "A view or reshape keeps every element; the product of the new shape must equal the number of elements.",
        "`view()`와 `reshape()`는 모든 원소를 유지합니다. 새 모양의 곱이 원소 수와 같아야 합니다.",
    ),
    "explain.shape_numel.advice": (
        "use -1 for one dimension to let torch compute it: `x.view(-1, 2)`.",
        "한 차원을 -1로 두면 torch가 그 크기를 계산합니다(`x.view(-1, 2)`).",
    ),
    # -- explain.broadcast -----------------------------------------------------------------------------------
    "explain.broadcast.title": ("Shapes do not broadcast", "모양이 브로드캐스트되지 않습니다"),
    "explain.broadcast.text": (
        "Element-wise operations line shapes up from the right; each pair of sizes must be equal or one of them 1.",
        "원소별 연산은 모양을 오른쪽부터 맞춥니다. 각 쌍의 크기는 같거나 둘 중 하나가 1이어야 합니다.",
    ),
    "explain.broadcast.advice": (
        "reshape or unsqueeze one operand so the sizes agree.",
        "한쪽을 `reshape()`나 `unsqueeze()`로 바꿔서 크기를 맞추세요.",
    ),
    # -- explain.index_range ---------------------------------------------------------------------------------
    "explain.index_range.title": ("Index out of range", "인덱스가 범위를 벗어났습니다"),
    "explain.index_range.text": (
        "Indices count from 0, so the last valid index is the size minus one.",
        "인덱스는 0부터 세므로, 마지막 유효한 인덱스는 크기에서 1을 뺀 값입니다.",
    ),
    # -- explain.expanded_write ------------------------------------------------------------------------------
    "explain.expanded_write.title": ("Writing into an expanded view", "expand한 뷰에 써 넣기"),
    "explain.expanded_write.text": (
        "expand() repeats elements without copying: several positions of this tensor are the same memory cell. "
        "Most in-place operations refuse a destination whose elements overlap like this (`add_`, `mul_`, `copy_`, "
        "even writing one number into a column); `fill_()`, `zero_()` and writes through a view that does not "
        "overlap (`e[0] = t`) are allowed, and `masked_fill_`, `index_fill_` and index assignment with a mask or a "
        "list (`e[mask] = v`, `e[[0]] = v`) still run, with a "
        "warning that this is deprecated.",
        "expand()는 복사 없이 원소를 반복해 보여 줍니다. 이 텐서의 여러 위치가 같은 메모리 칸입니다. 대부분의 "
        "인플레이스 연산은 이렇게 원소가 겹치는 대상에 써 넣기를 거부합니다(`add_`, `mul_`, `copy_`, 한 열에 숫자 "
        "하나를 써 넣는 것까지). `fill_()`, `zero_()`와 겹치지 않는 뷰를 통해 써 넣기(`e[0] = t`)는 허용되고, "
        "`masked_fill_`, `index_fill_`, 마스크나 리스트로 대입하기(`e[mask] = v`, `e[[0]] = v`)는 아직 실행되지만 "
        "폐기 예정이라는 경고가 나옵니다.",
    ),
    "explain.expanded_write.advice": (
        "`clone()` the expanded tensor first, which gives each position its own cell.",
        "먼저 expand한 텐서를 `clone()`하면 위치마다 자기 칸을 갖습니다.",
    ),
    # -- explain.overlapping_write (h20c: the partial overlap of an operation's input and output) -------------
    "explain.overlapping_write.title": (
        "The input and the written-to tensor overlap in memory",
        "입력과 써 넣을 텐서가 메모리에서 겹칩니다",
    ),
    "explain.overlapping_write.text": (
        "The operation writes into a tensor that shares some of its memory cells with one of its inputs (two "
        "slices of one tensor, such as `x[1:]` and `x[:-1]`): an element could be read after it was already "
        "overwritten, so the result would depend on the order of the writes, and torch refuses.",
        "연산이 써 넣는 텐서가 입력 중 하나와 메모리 칸 일부를 공유합니다(`x[1:]`과 `x[:-1]`처럼 한 텐서의 두 "
        "슬라이스). 이미 덮어쓴 원소를 다시 읽을 수 있어서 결과가 써 넣는 순서에 따라 달라지므로, torch가 거부합니다.",
    ),
    "explain.overlapping_write.advice": (
        "`clone()` the input first (`x[1:].copy_(x[:-1].clone())`), or compute into a new tensor.",
        "먼저 입력을 `clone()`하거나(`x[1:].copy_(x[:-1].clone())`), 새 텐서에 계산하세요.",
    ),
    # -- explain.inplace_dtype -------------------------------------------------------------------------------
    "explain.inplace_dtype.title": ("In-place cannot change the dtype", "인플레이스 연산은 dtype을 바꿀 수 없습니다"),
    "explain.inplace_dtype.text": (
        "An in-place operation writes into the existing memory, whose dtype is fixed; the result of this operation "
        "has a type that does not fit into it.",
        "인플레이스 연산은 기존 메모리에 씁니다. 그 메모리의 dtype은 고정되어 있는데, 이 연산의 결과 타입이 거기에 "
        "맞지 않습니다.",
    ),
    "explain.inplace_dtype.advice": (
        "use the out-of-place form (`x + 0.5`), or convert first (`x = x.float()`).",
        "인플레이스가 아닌 형태(`x + 0.5`)를 사용하거나 먼저 변환하세요(`x = x.float()`).",
    ),
    # -- explain.matmul_shapes -------------------------------------------------------------------------------
    "explain.matmul_shapes.title": ("Matrix shapes do not fit", "행렬 모양이 맞지 않습니다"),
    "explain.matmul_shapes.text": (
        "For `A @ B` the number of columns of A must equal the number of rows of B.",
        "`A @ B`에서 A의 열 수는 B의 행 수와 같아야 합니다.",
    ),
    "explain.matmul_shapes.advice": (
        "transpose one of them (`B.t()`) or check the shapes.",
        "하나를 전치하거나(`B.t()`) 모양을 확인하세요.",
    ),
    # -- explain.item_one ------------------------------------------------------------------------------------
    "explain.item_one.title": ("item() needs exactly one element", "item()에는 원소가 정확히 하나 있어야 합니다"),
    "explain.item_one.text": (
        "item() returns a single Python number; this tensor has several elements.",
        "item()은 Python 숫자 하나를 반환합니다. 이 텐서에는 원소가 여러 개 있습니다.",
    ),
    "explain.item_one.advice": (
        "index one element first (`x[0].item()`) or use `tolist()`.",
        "원소 하나를 먼저 고르거나(`x[0].item()`) `tolist()`를 사용하세요.",
    ),
    # -- explain.truth_many ----------------------------------------------------------------------------------
    "explain.truth_many.title": ("True or False of many values", "여러 값의 참/거짓"),
    "explain.truth_many.text": (
        "Python asked this tensor for one truth value, but it has several elements.",
        "Python이 이 텐서에 참/거짓 하나를 물었지만, 원소가 여러 개입니다.",
    ),
    "explain.truth_many.advice": (
        "compare whole tensors with `torch.equal(a, b)`, or look at one element (`x[0].item()`).",
        "텐서 전체를 비교하려면 `torch.equal(a, b)`를, 원소 하나를 보려면 `x[0].item()`을 사용하세요.",
    ),
    # -- explain.hook_no_grad --------------------------------------------------------------------------------
    "explain.hook_no_grad.title": ("No gradient will pass here", "여기로는 기울기가 지나가지 않습니다"),
    "explain.hook_no_grad.text": (
        "A gradient hook runs when backward() computes this tensor's gradient; it does not require grad, so that "
        "never happens.",
        "기울기 훅은 backward()가 이 텐서의 기울기를 계산할 때 실행됩니다. 이 텐서는 requires_grad=False이므로 그런 "
        "일은 일어나지 않습니다.",
    ),
    "explain.hook_no_grad.advice": (
        "register the hook on a tensor that requires grad.",
        "requires_grad=True인 텐서에 훅을 등록하세요.",
    ),
    # -- explain.retain_no_grad ------------------------------------------------------------------------------
    "explain.retain_no_grad.title": ("Nothing to retain", "보관할 것이 없습니다"),
    "explain.retain_no_grad.text": (
        "retain_grad() keeps the gradient of a non-leaf, but this tensor does not require grad, so it will never "
        "get one.",
        "retain_grad()는 리프 텐서가 아닌 텐서의 기울기를 보관하지만, 이 텐서는 requires_grad=False라서 기울기를 "
        "받을 일이 없습니다.",
    ),
    # -- explain.leaf_requires_grad --------------------------------------------------------------------------
    "explain.leaf_requires_grad.title": (
        "Only leaves can change requires_grad",
        "requires_grad는 리프 텐서만 바꿀 수 있습니다",
    ),
    "explain.leaf_requires_grad.text": (
        "A computed tensor requires grad because its inputs do; turning that off would cut the graph silently.",
        "계산된 텐서는 입력이 requires_grad=True라서 requires_grad=True입니다. 이것을 끄면 계산 그래프가 조용히 "
        "끊깁니다.",
    ),
    "explain.leaf_requires_grad.advice": (
        "`y.detach()` gives the same values outside the graph.",
        "`y.detach()`는 같은 값을 계산 그래프 밖에서 줍니다.",
    ),
    # -- explain.deepcopy_nonleaf ----------------------------------------------------------------------------
    "explain.deepcopy_nonleaf.title": ("deepcopy of a computed tensor", "계산된 텐서의 deepcopy"),
    "explain.deepcopy_nonleaf.text": (
        "copy.deepcopy only works for leaf tensors; a tensor in the middle of a graph cannot be copied together "
        "with its history.",
        "copy.deepcopy는 리프 텐서에만 됩니다. 계산 그래프 중간의 텐서는 그 이력과 함께 복사할 수 없습니다.",
    ),
    "explain.deepcopy_nonleaf.advice": (
        "`y.detach().clone()` copies the values; `y.clone()` copies and stays in the graph.",
        "값만 복사하려면 `y.detach().clone()`, 복사하면서 계산 그래프에 남으려면 `y.clone()`.",
    ),
    # -- explain.inference_saved -----------------------------------------------------------------------------
    "explain.inference_saved.title": (
        "Inference tensors have no autograd bookkeeping",
        "추론 텐서에는 autograd 관리 정보가 없습니다",
    ),
    "explain.inference_saved.text": (
        "Tensors made under `torch.inference_mode()` carry no version counter, so autograd cannot save them for a "
        "backward pass.",
        "`torch.inference_mode()`에서 만든 텐서에는 버전 카운터가 없어서, autograd가 역전파를 위해 저장할 수 "
        "없습니다.",
    ),
    "explain.inference_saved.advice": (
        "make them with `torch.no_grad()`, or `clone()` them outside inference mode.",
        "`torch.no_grad()`로 만들거나, 추론 모드 밖에서 `clone()`하세요.",
    ),
    # -- explain.inference_readonly --------------------------------------------------------------------------
    "explain.inference_readonly.title": (
        "Changing an inference tensor in place outside inference mode raises, after the write",
        "추론 모드 밖에서 추론 텐서를 인플레이스로 바꾸면 써 넣은 뒤에 오류가 발생합니다",
    ),
    "explain.inference_readonly.text": (
        "A tensor created under `torch.inference_mode()` has no version counter, so changing it in place later "
        "could not be tracked. torch raises this only after the operation has run: look at the values, they may "
        "already have changed.",
        "`torch.inference_mode()`에서 만든 텐서에는 버전 카운터가 없어서, 나중의 인플레이스 변경을 추적할 수 "
        "없습니다. torch는 연산이 실행된 뒤에야 이 오류를 발생시키므로, 값을 확인하세요. 이미 바뀌었을 수 있습니다.",
    ),
    "explain.inference_readonly.advice": ("`clone()` it first.", "먼저 `clone()`하세요."),
    # -- explain.no_grad_view --------------------------------------------------------------------------------
    "explain.no_grad_view.title": (
        "View made under no_grad, changed with grad on",
        "no_grad에서 만든 뷰를 기록 중에 변경",
    ),
    "explain.no_grad_view.text": (
        "Autograd cannot tell whether this in-place change should be recorded, because the view was made while "
        "recording was off.",
        "뷰를 기록이 꺼진 상태에서 만들었으므로, 이 인플레이스 변경을 기록해야 할지 autograd가 알 수 없습니다.",
    ),
    "explain.no_grad_view.advice": (
        "do both the view and the change inside `torch.no_grad()`, or both outside.",
        "뷰와 변경을 둘 다 `torch.no_grad()` 안에서 하거나, 둘 다 밖에서 하세요.",
    ),
    # -- explain.multi_view_inplace --------------------------------------------------------------------------
    "explain.multi_view_inplace.title": (
        "Views from split/unbind/chunk of a tensor that requires grad cannot be changed in place while grad mode is on",
        "기울기 모드가 켜져 있으면 requires_grad=True인 텐서의 split/unbind/chunk 뷰는 인플레이스로 바꿀 수 없습니다",
    ),
    "explain.multi_view_inplace.text": (
        "split, chunk and unbind return several views of one tensor; autograd cannot correct the history of all of "
        "them when one is changed in place.",
        "`split`, `chunk`, `unbind`는 한 텐서의 뷰를 여러 개 반환합니다. 그중 하나가 인플레이스로 바뀌면 autograd가 "
        "모든 뷰의 이력을 고쳐 기록할 수 없습니다.",
    ),
    "explain.multi_view_inplace.advice": (
        "use the out-of-place operation, or `clone()` the piece first.",
        "인플레이스가 아닌 연산을 사용하거나, 그 조각을 먼저 `clone()`하세요.",
    ),
    # -- explain.detach_view (h18b: the detach-in-place-and-data lesson) -------------------------------------
    "explain.detach_view.title": ("A view cannot be detached in place", "뷰는 인플레이스로 분리할 수 없습니다"),
    "explain.detach_view.text": (
        "`detach_()` cuts the tensor itself out of the graph, and torch refuses to do that to a view.",
        "`detach_()`는 텐서 자체를 계산 그래프에서 분리하는데, torch는 뷰에 대해서는 이를 거부합니다.",
    ),
    "explain.detach_view.advice": (
        "use `detach()`, which returns a new tensor that shares the memory.",
        "메모리를 공유하는 새 텐서를 반환하는 `detach()`를 사용하세요.",
    ),
    # -- explain.grad_shape ----------------------------------------------------------------------------------
    "explain.grad_shape.title": ("A gradient must match its tensor", "기울기는 텐서와 모양이 같아야 합니다"),
    "explain.grad_shape.text": (
        "`.grad` holds one number per element of the tensor, so it must have the same shape.",
        "`.grad`는 텐서의 원소마다 숫자 하나를 가지므로, 모양이 같아야 합니다.",
    ),
    # -- the training step (issue #16) -----------------------------------------------------------------------
    "explain.state_dict_size.title": ("The saved weights have another shape", "저장된 가중치의 모양이 다릅니다"),
    "explain.state_dict_size.text": (
        "load_state_dict copies each saved tensor into the parameter of the same name, in place: the two must have "
        "the same shape. The dict was saved from a module with other sizes (another in_features or out_features).",
        "load_state_dict는 저장된 각 텐서를 같은 이름의 매개변수에 인플레이스로 복사하므로, 두 텐서의 모양이 같아야 "
        "합니다. 이 딕셔너리는 크기가 다른 모듈(in_features나 out_features가 다른 모듈)에서 저장한 것입니다.",
    ),
    "explain.state_dict_size.advice": (
        "make the module with the sizes the dict was saved with, or load into a module of the same layers.",
        "딕셔너리를 저장한 모듈과 같은 크기로 모듈을 만들거나, 같은 층으로 된 모듈에 넘기세요.",
    ),
    "explain.state_dict_keys.title": ("The names do not match", "이름이 맞지 않습니다"),
    "explain.state_dict_keys.text": (
        "load_state_dict expects one entry for every parameter and buffer of the module, under its name "
        "(`weight`, `0.bias`), and no other.",
        "load_state_dict는 모듈의 모든 매개변수와 버퍼마다 그 이름(`weight`, `0.bias`)으로 된 항목을 하나씩, "
        "그리고 그것만 기대합니다.",
    ),
    "explain.state_dict_keys.advice": (
        "use the dict that state_dict() of the same kind of module returned, or pass `strict=False` to load only "
        "the names that match.",
        "같은 종류의 모듈에서 state_dict()가 반환한 딕셔너리를 사용하거나, 맞는 이름만 읽으려면 `strict=False`를 "
        "넘기세요.",
    ),
    "explain.invalid_lr.title": ("The learning rate cannot be negative", "학습률은 음수일 수 없습니다"),
    "explain.invalid_lr.text": (
        "The optimizer checks its settings when it is made: a step moves each parameter against its gradient by "
        "the learning rate, which must be 0 or more.",
        "옵티마이저는 만들어질 때 설정을 검사합니다. 한 단계는 각 매개변수를 기울기의 반대 방향으로 학습률만큼 "
        "움직이므로, 학습률은 0 이상이어야 합니다.",
    ),
    "explain.invalid_lr.advice": ("pass a positive `lr=`, such as `lr=0.1`.",
                                  "`lr=0.1`처럼 양수인 `lr=`를 넘기세요."),
    "explain.nonleaf_optimize.title": ("An optimizer updates leaves only", "옵티마이저는 리프 텐서만 갱신합니다"),
    "explain.nonleaf_optimize.text": (
        "The tensor given to the optimizer was computed from others (it has a grad_fn): backward() does not keep "
        "its `.grad`, and writing it in place would change the graph it belongs to.",
        "옵티마이저에 넘긴 텐서는 다른 텐서로부터 계산되었습니다(`grad_fn`이 있습니다). backward()는 이 텐서의 "
        "`.grad`를 남기지 않고, 인플레이스로 써 넣으면 그 텐서가 속한 계산 그래프가 바뀝니다.",
    ),
    "explain.nonleaf_optimize.advice": (
        "give it the leaves themselves (`model.parameters()`, or a tensor made with requires_grad=True), not a "
        "result such as `w * 2`.",
        "`w * 2` 같은 결과가 아니라 리프 텐서 자체(`model.parameters()`, 또는 requires_grad=True로 만든 텐서)를 "
        "넘기세요.",
    ),
    # -- explain.none_value ----------------------------------------------------------------------------------
    "explain.none_value.title": ("This value is None", "이 값은 `None`입니다"),
    "explain.none_value.text": (
        "The expression before the dot is None. A `.grad` is None until backward() has written one (and always for "
        "a non-leaf that does not retain grad).",
        "점 앞의 식이 `None`입니다. `.grad`는 backward()가 써 넣기 전까지 `None`이고, 기울기를 보관하지 않는 리프 "
        "텐서가 아닌 텐서에서는 항상 `None`입니다.",
    ),
    "explain.none_value.advice": (
        "run backward() first, or check with `x.grad is None`.",
        "먼저 backward()를 실행하거나, `x.grad is None`으로 확인하세요.",
    ),
    # -- explain.no_name -------------------------------------------------------------------------------------
    "explain.no_name.title": ("No such name yet", "아직 그런 이름이 없습니다"),
    "explain.no_name.text": (
        "No step that ran has assigned this name: either no earlier step assigns it or the step that should have "
        "assigned it raised an error.",
        "실행된 단계 중 이 이름을 정의한 단계가 없습니다. 앞 단계가 정의하지 않았거나, 정의해야 할 단계가 오류를 "
        "발생시켰습니다.",
    ),
    # -- explain.too_large -----------------------------------------------------------------------------------
    "explain.too_large.title": ("Too large for TensorLab", "TensorLab에는 너무 큽니다"),
    "explain.too_large.text": (
        "TensorLab refused this before allocating anything, to keep the machine responsive.",
        "컴퓨터가 멈추지 않도록 TensorLab이 아무것도 할당하기 전에 거부했습니다.",
    ),
    "explain.too_large.advice": (
        "use a smaller size; the idea is the same with five elements.",
        "더 작은 크기를 사용하세요. 원소 다섯 개로도 같은 개념을 볼 수 있습니다.",
    ),
    # -- explain.too_deep (issue #21 review r21g: a depth limit, not a size) ---------------------------------
    "explain.too_deep.title": ("Nested too deeply for TensorLab", "TensorLab에는 너무 깊게 중첩되었습니다"),
    "explain.too_deep.text": (
        "TensorLab limits how deeply lists or expressions may nest, and refused this before torch saw it.",
        "TensorLab은 리스트나 식이 중첩되는 깊이를 제한하며, torch가 보기 전에 이것을 거부했습니다.",
    ),
    "explain.too_deep.advice": (
        "nest fewer levels; a tensor of two or three dimensions shows the same idea.",
        "중첩을 줄이세요. 2차원이나 3차원 텐서로도 같은 개념을 볼 수 있습니다.",
    ),
    # -- explain.not_subset ----------------------------------------------------------------------------------
    "explain.not_subset.title": ("Not part of TensorLab's code", "TensorLab 코드에 없는 것"),
    "explain.not_subset.text": (
        "TensorLab runs a safe subset of PyTorch; this name or construct is outside it.",
        "TensorLab은 PyTorch의 안전한 부분집합만 실행합니다. 이 이름이나 구문은 그 밖에 있습니다.",
    ),
    "explain.not_subset.advice": ("see the code subset in the README.", "README의 코드 부분집합을 보세요."),
    # -- explain.culprit -------------------------------------------------------------------------------------
    "explain.culprit.one": (
        "The failing graph saved {who} at version {expected}; {who} is now at version {now}.",
        "실패한 계산 그래프는 {who:을} 버전 {expected}일 때 저장했는데, 지금 {who:은} 버전 {now}입니다.",
    ),
    "explain.culprit.several": (
        "The failing graph saved several tensors that went from version {expected} to {now} since: the one that "
        "changed is one of {who}.",
        "실패한 계산 그래프가 저장한 텐서 중 그 뒤 버전이 {expected}에서 {now:으로} 바뀐 것이 여럿이라, 바뀐 텐서는 "
        "{who} 중 하나입니다.",
    ),
    "explain.culprit.changed": ("The version went up at {steps}.", "버전은 {steps}에서 올라갔습니다."),
    "explain.culprit.step": ("step {step} (`{code}`)", "{step}단계 (`{code}`)"),
    # -- explain.culprit for an opened .py or notebook (#21, h21e): the step named by its file line too --------
    "explain.culprit.step_line": ("step {step} (line {line}: `{code}`)", "{step}단계 ({line}번째 줄: `{code}`)"),
    "explain.culprit.step_cell": ("step {step} (cell {cell}, line {line}: `{code}`)",
                                  "{step}단계 ({cell}번째 셀의 {line}번째 줄: `{code}`)"),
    "explain.culprit.inside_line": (
        "Step {step} (line {line}) made this tensor and changed it in place in the same statement: an in-place "
        "operation inside a call (such as `ReLU(inplace=True)` in a module's `forward()`) or a later line of a loop.",
        "{step}단계({line}번째 줄)가 이 텐서를 만들고, 같은 문장 안에서 인플레이스 연산으로 바꾸었습니다. 호출 안의 "
        "인플레이스 연산(모듈의 `forward()` 안에 있는 `ReLU(inplace=True)` 같은 것)이나 반복문의 뒤쪽 줄이 그렇게 "
        "합니다.",
    ),
    "explain.culprit.inside_cell": (
        "Step {step} (cell {cell}, line {line}) made this tensor and changed it in place in the same statement: an "
        "in-place operation inside a call (such as `ReLU(inplace=True)` in a module's `forward()`) or a later line "
        "of a loop.",
        "{step}단계({cell}번째 셀의 {line}번째 줄)가 이 텐서를 만들고, 같은 문장 안에서 인플레이스 연산으로 "
        "바꾸었습니다. 호출 안의 인플레이스 연산(모듈의 `forward()` 안에 있는 `ReLU(inplace=True)` 같은 것)이나 "
        "반복문의 뒤쪽 줄이 그렇게 합니다.",
    ),
    # -- explain.culprit, for any program (#21): the saved tensor read from torch's saved variable -----------
    "explain.culprit.alias": (
        "The failing graph saved a tensor of shape {shape} at version {expected} that has no name of its own; it "
        "shares its memory with {who}, now at version {now}.",
        "실패한 계산 그래프는 모양이 {shape}인 텐서를 버전 {expected}일 때 저장했는데, 이 텐서에는 이름이 따로 "
        "없습니다. 이 텐서는 {who:와} 메모리를 공유하며, 지금 버전은 {now}입니다.",
    ),
    "explain.culprit.nameless": (
        "The failing graph saved a tensor of shape {shape} at version {expected}, now at version {now}, that "
        "TensorLab cannot match to any name (none reaches its memory), so it cannot tell which step changed it.",
        "실패한 계산 그래프는 모양이 {shape}인 텐서를 버전 {expected}일 때 저장했고 지금 버전은 {now}입니다. 이 "
        "텐서를 어떤 이름과도 연결할 수 없어서(그 메모리에 닿는 이름이 없습니다) TensorLab은 어느 단계가 "
        "바꾸었는지 알 수 없습니다.",
    ),
    "explain.culprit.not_found": (
        "TensorLab did not find this saved tensor in the graphs the session's names reach (the graph may belong "
        "to a result without a name), so it cannot tell which step changed it.",
        "세션의 이름들이 닿는 계산 그래프에서 이 저장된 텐서를 찾지 못했습니다(이름 없는 결과의 그래프일 수 "
        "있습니다). 그래서 TensorLab은 어느 단계가 바꾸었는지 알 수 없습니다.",
    ),
    "explain.culprit.inside": (
        "Step {step} made this tensor and changed it in place in the same statement: an in-place operation "
        "inside a call (such as `ReLU(inplace=True)` in a module's `forward()`) or a later line of a loop.",
        "{step}단계가 이 텐서를 만들고, 같은 문장 안에서 인플레이스 연산으로 바꾸었습니다. 호출 안의 인플레이스 "
        "연산(모듈의 `forward()` 안에 있는 `ReLU(inplace=True)` 같은 것)이나 반복문의 뒤쪽 줄이 그렇게 합니다.",
    ),
    "explain.culprit.no_step": (
        "No step's recorded version counter shows when it went up, so TensorLab cannot tell which step changed it.",
        "기록된 버전 카운터 중 언제 올라갔는지 보여 주는 단계가 없어서, TensorLab은 어느 단계가 바꾸었는지 알 "
        "수 없습니다.",
    ),
    # -- explain.hidden_write --------------------------------------------------------------------------------
    "explain.hidden_write.title": ("Memory changed behind autograd's back", "autograd 모르게 바뀐 메모리"),
    "explain.hidden_write.text": (
        "The memory of {names} ({storage}) changed in this step, but the version counter of {names} did not move. "
        "Either the write went through `.data`, a NumPy array or `untyped_storage()`, which have a version counter "
        "of their own or none at all, or a torch function wrote the memory without counting a version (batch "
        "norm does this with its running statistics). Autograd checks only the counter, so it cannot see this "
        "change: a saved tensor changed this way is used by backward() without any error, and the gradient is "
        "silently wrong.",
        "이 단계에서 {names}의 메모리({storage})가 바뀌었지만 {names}의 버전 카운터는 그대로입니다. `.data`, NumPy "
        "배열, `untyped_storage()`처럼 버전 카운터가 따로 있거나 아예 없는 것을 통해 썼거나, torch 함수가 버전을 "
        "세지 않고 메모리에 써 넣었습니다(배치 정규화가 이동 통계를 이렇게 갱신합니다). autograd는 카운터만 "
        "확인하므로 이 변경을 볼 수 없습니다. 이렇게 바뀐 텐서가 역전파를 위해 저장된 것이라면 backward()는 오류 "
        "없이 그 값을 사용하고, 기울기는 조용히 틀립니다.",
    ),
    "explain.hidden_write.advice": (
        "change tensors through `detach()` (which shares the counter) when autograd must notice.",
        "autograd가 알아야 하는 변경은 버전 카운터를 공유하는 `detach()`를 통해 하세요.",
    ),
    # -- explain.hidden_write_buffer (issue #19, h19b: a module's buffer written by a torch kernel) ------
    "explain.hidden_write_buffer.title": ("A buffer updated without a new version",
                                          "버전이 바뀌지 않고 갱신된 버퍼"),
    "explain.hidden_write_buffer.text": (
        "The memory of {names} ({storage}) changed in this step, but the version counter of {names} did not move. "
        "This memory belongs to a module's buffers: unless the step wrote it through `.data` or NumPy, a torch "
        "function updated it in place without counting a version. Batch norm updates its running statistics this "
        "way in training mode (only `num_batches_tracked` counts its updates). The values on the map are the new ones; "
        "an unchanged version does not show that nothing was written.",
        "이 단계에서 {names}의 메모리({storage})가 바뀌었지만 {names}의 버전 카운터는 그대로입니다. 이 메모리는 "
        "모듈의 버퍼에 속합니다. 이 단계가 `.data`나 NumPy를 통해 써 넣은 것이 아니라면, torch 함수가 버전을 "
        "세지 않고 버퍼를 인플레이스로 갱신한 것입니다. 학습 모드의 배치 정규화가 이동 통계를 이렇게 갱신합니다"
        "(`num_batches_tracked`만 갱신 횟수를 셉니다). 지도의 값은 새 값입니다. 버전이 그대로라고 해서 아무것도 써 "
        "넣지 않았다는 뜻은 아닙니다.",
    ),
    # -- explain.loop_stopped (issue #16, h16b) ----------------------------------------------------------
    "explain.loop_stopped.title": ("The loop stopped in iteration {iteration} of {count}",
                                   "반복문이 {count}번 중 {iteration}번째 반복에서 멈췄습니다"),
    # -- explain.loop_stopped_at (issue #16, h16c: a loop stopped at the iteration limit) ------------------
    "explain.loop_stopped_at.title": ("The loop stopped at iteration {iteration}",
                                      "반복문이 {iteration}번째 반복에서 멈췄습니다"),
    "explain.loop_stopped_at.text": (
        "The iterations before it ran to their end, and the names hold what they left; Python would have gone "
        "on (the body keeps giving the loop more to read).",
        "그 앞의 반복은 끝까지 실행되었고, 이름에는 그 반복들이 남긴 값이 들어 있습니다. Python이라면 계속 "
        "반복했을 것입니다(본문이 반복할 항목을 계속 늘립니다).",
    ),
    "explain.loop_stopped.text": (
        "The iterations before it ran to their end, and the names hold what they left, as Python leaves them "
        "when a loop raises.",
        "그 앞의 반복은 끝까지 실행되었고, 이름에는 그 반복들이 남긴 값이 들어 있습니다. 반복문에서 오류가 나면 "
        "Python도 이렇게 남깁니다.",
    ),
    # -- explain.passed_refused (review r21e F5/F8: → passes over statements of the file that are not run) -----
    "explain.passed_refused.title": ("Not run before this step: {where}", "이 단계 앞에서 실행하지 않은 문장: {where}"),
    "explain.passed_refused.text": (
        "{reason}. TensorLab passes over it to this step (the Code panel shows it greyed, with its reason).",
        "{reason}. TensorLab은 그 문장을 건너뛰고 이 단계로 옵니다(코드 패널에 회색으로, 이유와 함께 보입니다).",
    ),
    # -- explain.random_shifted (issue #21 review r21c 3: random numbers after a statement that is not run) -----
    "explain.random_shifted.title": ("Its random numbers may differ from running the file",
                                     "파일을 실행할 때와 난수가 다를 수 있습니다"),
    "explain.random_shifted.text": (
        "The statement at {where} is not run, and it uses torch's random number generator before this step (it "
        "draws random numbers or sets the seed), so the random numbers this step draws are not the ones Python "
        "draws when it runs the file. A `torch.manual_seed(...)` that runs after that line makes them the same "
        "again.",
        "실행하지 않는 {where}에서 이 단계보다 먼저 torch의 난수 생성기를 씁니다(난수를 뽑거나 시드를 정합니다). "
        "그래서 이 단계가 뽑는 난수는 Python이 파일을 실행할 때 뽑는 난수와 같지 않습니다. 그 줄 뒤에서 "
        "`torch.manual_seed(...)`가 실행되면 다시 같아집니다.",
    ),
}

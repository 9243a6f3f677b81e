"""Korean text of the explanations in :mod:`tensorlab.core.explain.explanations`, keyed by the English title.

Each entry is (title, text, advice), written with the terms of ``docs/glossary.md``.
The real torch message is never translated: it is shown as torch wrote it,
beside this explanation.
"""

from __future__ import annotations

KOREAN: dict[str, tuple[str, str, str]] = {
    "In-place change of a leaf, through a view": (
        "뷰를 통한 리프 텐서의 인플레이스 변경",
        "리프 텐서를 기본 인덱싱하면(`x[0]`, `x[1:3]`) 그 텐서의 뷰, 곧 같은 메모리가 나오므로 뷰에 쓰면 "
        "리프 텐서 자체가 바뀝니다. autograd는 인플레이스 변경을 바뀐 텐서의 이력(grad_fn)을 다시 써서 "
        "기록하는데, requires_grad=True인 리프 텐서에는 다시 쓸 이력이 없습니다. 기울기가 누적되는 "
        "곳이기 때문입니다. 그래서 autograd가 기록하는 동안에는 torch가 아무것도 쓰기 전에 거부합니다.",
        "매개변수 자체를 일부러 바꾸려면 `with torch.no_grad():` 안에서 하고, 아니면 복사본에서 "
        "작업하세요: `y = x.clone(); y[0] = 2`.",
    ),
    "In-place change of a leaf": (
        "리프 텐서의 인플레이스 변경",
        "autograd가 기록하는 동안에는 requires_grad=True인 리프 텐서에 대한 인플레이스 연산이 모두 "
        "거부됩니다. 이름이 `_`로 끝나는 메서드(`x.add_(1)`), 복합 대입(`x += 1`), 리스트나 마스크 "
        "인덱스를 통한 대입(`x[[0]] = 2`, `x[x > 0] = 0`)이 모두 그렇습니다. 리프 텐서는 기울기가 "
        "누적되는 곳이고, 변경을 기록할 이력이 없습니다.",
        "일부러 갱신하려면 `with torch.no_grad():`를 쓰고(옵티마이저가 하는 방식), 아니면 인플레이스가 "
        "아닌 형태(`x.add(1)`)나 `clone()`을 쓰세요.",
    ),
    "A saved tensor was changed in place": (
        "저장된 텐서가 인플레이스로 바뀌었습니다",
        "기울기를 계산하려고 autograd는 순전파 때 텐서를 저장하고 그 버전 카운터를 적어 둡니다. "
        "그 뒤 무언가가 그 텐서를 인플레이스로 바꿨습니다(직접, 뷰를 통해, 또는 버전 카운터를 공유하는 "
        "`detach()` 별칭을 통해). 저장된 값이 순전파 때의 값이 아니므로, backward()는 틀린 답을 "
        "내놓는 대신 멈춥니다.",
        "저장된 텐서 대신 `clone()`을 바꾸거나, 그 텐서가 계산에 쓰이기 전에 인플레이스 변경을 하세요.",
    ),
    "Nothing to differentiate": (
        "미분할 것이 없습니다",
        "계산 그래프에 속하지 않은 텐서에서 backward()를 호출했습니다. 이 텐서를 만든 입력 중 "
        "requires_grad=True인 것이 없거나, `torch.no_grad()` 안에서 또는 `detach()`한 텐서에서 "
        "계산되었습니다.",
        "입력을 `requires_grad=True`로 만들고, 결과를 `torch.no_grad()` 밖에서 계산하세요.",
    ),
    "backward() needs a scalar": (
        "backward()에는 스칼라가 필요합니다",
        "인자 없이 호출하면 backward()는 숫자 하나에 대한 기울기 1에서 시작합니다. 이 텐서는 원소가 "
        "여러 개라서 각 원소에 어떤 가중치를 줄지 torch가 알 수 없습니다.",
        "먼저 집계 연산으로 줄이거나(`y.sum().backward()`) 가중치를 넘기세요: "
        "`y.backward(torch.ones_like(y))`.",
    ),
    "The graph was already used": (
        "계산 그래프를 이미 사용했습니다",
        "backward()가 끝나면 autograd는 역전파를 위해 저장해 둔 텐서를 해제하므로, 같은 계산 그래프를 "
        "다시 따라갈 수 없습니다.",
        "순전파를 다시 계산하거나, 첫 backward를 `retain_graph=True`로 호출하세요.",
    ),
    "Integers have no gradient": (
        "정수에는 기울기가 없습니다",
        "기울기는 실수나 복소수에 대해 정의됩니다. 정수나 bool 텐서는 requires_grad=True가 될 수 없습니다.",
        "부동소수점 dtype을 주세요: `torch.ones(5, dtype=torch.float32, requires_grad=True)` 또는 "
        "`torch.arange(5.)`.",
    ),
    "numpy() would leave the graph silently": (
        "numpy()는 조용히 계산 그래프에서 분리됩니다",
        "NumPy 배열은 텐서와 메모리를 공유하지만 autograd가 따라갈 수 없으므로, torch는 "
        "requires_grad=True인 텐서의 변환을 거부합니다.",
        "`x.detach().numpy()`: detach()로 계산 그래프에서 분리한다는 것을 드러내세요.",
    ),
    "Reading .grad of a non-leaf": (
        "리프 텐서가 아닌 텐서의 .grad 읽기",
        "backward() 뒤에 `.grad`에 기울기를 보관하는 것은 requires_grad=True인 리프 텐서(기록된 연산이 "
        "만들지 않은 텐서)뿐입니다. 이 텐서는 기록된 연산이 계산했으므로 `.grad`가 None으로 남습니다.",
        "backward() 전에 `y.retain_grad()`를 호출하거나, 리프 텐서의 `.grad`를 읽으세요.",
    ),
    "torch.tensor(t) copies": (
        "torch.tensor(t)는 복사합니다",
        "`torch.tensor()`는 항상 데이터를 복사합니다. 텐서를 넘기면 그 복사본은 `detach().clone()`처럼 "
        "계산 그래프에서도 분리되는데, 헷갈리기 쉬워서 torch가 경고합니다.",
        "의도를 그대로 쓰세요: 값만 복사하려면 `t.detach().clone()`, 새 리프 텐서가 필요하면 "
        "`t.detach().clone().requires_grad_(True)`, 계산 그래프에 남으려면 `t.clone()`.",
    ),
    "That device is not here": (
        "그 장치가 없습니다",
        "이 PyTorch 빌드나 이 컴퓨터에는 그런 장치가 없습니다.",
        "장치 목록에서 고르세요. cpu는 항상 됩니다.",
    ),
    "Tensors on different devices": (
        "서로 다른 장치의 텐서",
        "연산이 서로 다른 장치에 있는 텐서를 섞었습니다. torch는 장치 사이에서 데이터를 몰래 옮기지 않습니다.",
        "하나를 `.to(other.device)`로 옮기세요.",
    ),
    "view() needs compatible strides": (
        "view()에는 맞는 stride가 필요합니다",
        "view()는 복사하지 않고 같은 메모리를 다르게 읽을 뿐입니다. 이 텐서의 원소는 새 모양이 나타낼 수 "
        "있는 순서로 메모리에 놓여 있지 않아서(예: 전치), 그런 뷰는 없습니다.",
        "`reshape()`(필요하면 복사함)나 `contiguous().view(...)`를 쓰세요.",
    ),
    "The new shape has a different number of elements": (
        "새 모양의 원소 수가 다릅니다",
        "view와 reshape는 모든 원소를 유지합니다. 새 모양의 곱이 원소 수와 같아야 합니다.",
        "한 차원에 -1을 쓰면 torch가 계산합니다: `x.view(-1, 2)`.",
    ),
    "Shapes do not broadcast": (
        "모양이 브로드캐스트되지 않습니다",
        "원소별 연산은 모양을 오른쪽부터 맞춥니다. 각 쌍의 크기는 같거나 둘 중 하나가 1이어야 합니다.",
        "한쪽을 reshape나 unsqueeze해서 크기를 맞추세요.",
    ),
    "Index out of range": (
        "인덱스가 범위를 벗어났습니다",
        "인덱스는 0부터 세므로, 마지막 유효한 인덱스는 크기에서 1을 뺀 값입니다.",
        "",
    ),
    "Writing into an expanded view": (
        "expand한 뷰에 쓰기",
        "expand()는 복사 없이 원소를 반복해 보여 줍니다. 이 텐서의 여러 위치가 같은 메모리 칸이라서, "
        "인플레이스 쓰기의 결과가 모호합니다.",
        "먼저 expand한 텐서를 `clone()`하면 위치마다 자기 칸을 갖습니다.",
    ),
    "In-place cannot change the dtype": (
        "인플레이스 연산은 dtype을 바꿀 수 없습니다",
        "인플레이스 연산은 기존 메모리에 씁니다. 그 메모리의 dtype은 고정되어 있는데, 이 연산의 결과 "
        "타입이 거기에 맞지 않습니다.",
        "인플레이스가 아닌 형태(`x + 0.5`)를 쓰거나 먼저 변환하세요(`x = x.float()`).",
    ),
    "Matrix shapes do not fit": (
        "행렬 모양이 맞지 않습니다",
        "`A @ B`에서 A의 열 수는 B의 행 수와 같아야 합니다.",
        "하나를 전치하거나(`B.t()`) 모양을 확인하세요.",
    ),
    "item() needs exactly one element": (
        "item()에는 원소가 정확히 하나 있어야 합니다",
        "item()은 파이썬 숫자 하나를 반환합니다. 이 텐서에는 원소가 여러 개 있습니다.",
        "원소 하나를 먼저 고르거나(`x[0].item()`) `tolist()`를 쓰세요.",
    ),
    "True or False of many values": (
        "여러 값의 참/거짓",
        "파이썬이 이 텐서에 참/거짓 하나를 물었지만, 원소가 여러 개입니다.",
        "텐서 전체를 비교하려면 `torch.equal(a, b)`를, 원소 하나를 보려면 `x[0].item()`을 쓰세요.",
    ),
    "No gradient will pass here": (
        "여기로는 기울기가 지나가지 않습니다",
        "기울기 훅은 backward()가 이 텐서의 기울기를 계산할 때 실행됩니다. 이 텐서는 "
        "requires_grad=False이므로 그런 일은 일어나지 않습니다.",
        "requires_grad=True인 텐서에 훅을 등록하세요.",
    ),
    "Nothing to retain": (
        "보관할 것이 없습니다",
        "retain_grad()는 리프 텐서가 아닌 텐서의 기울기를 보관하지만, 이 텐서는 requires_grad=False라서 "
        "기울기를 받을 일이 없습니다.",
        "",
    ),
    "Only leaves can change requires_grad": (
        "requires_grad는 리프 텐서만 바꿀 수 있습니다",
        "계산된 텐서는 입력이 requires_grad=True라서 requires_grad=True입니다. 이것을 끄면 계산 그래프가 "
        "조용히 끊깁니다.",
        "`y.detach()`는 같은 값을 계산 그래프 밖에서 줍니다.",
    ),
    "deepcopy of a computed tensor": (
        "계산된 텐서의 deepcopy",
        "copy.deepcopy는 리프 텐서에만 됩니다. 계산 그래프 중간의 텐서는 그 이력과 함께 복사할 수 없습니다.",
        "값만 복사하려면 `y.detach().clone()`, 복사하면서 계산 그래프에 남으려면 `y.clone()`.",
    ),
    "Inference tensors have no autograd bookkeeping": (
        "추론 텐서에는 autograd 관리 정보가 없습니다",
        "`torch.inference_mode()`에서 만든 텐서에는 버전 카운터가 없어서, autograd가 역전파를 위해 저장할 "
        "수 없습니다.",
        "`torch.no_grad()`로 만들거나, 추론 모드 밖에서 `clone()`하세요.",
    ),
    "Inference tensors are read-only outside inference mode": (
        "추론 텐서는 추론 모드 밖에서 인플레이스로 바꿀 수 없습니다",
        "`torch.inference_mode()`에서 만든 텐서에는 버전 카운터가 없어서, 나중의 인플레이스 변경을 추적할 "
        "수 없습니다. torch는 연산이 실행된 뒤에야 이 오류를 발생시키므로, 값을 확인하세요. 이미 바뀌었을 "
        "수 있습니다.",
        "먼저 `clone()`하세요.",
    ),
    "View made under no_grad, changed with grad on": (
        "no_grad에서 만든 뷰를 기록 중에 변경",
        "뷰를 기록이 꺼진 상태에서 만들었으므로, 이 인플레이스 변경을 기록해야 할지 autograd가 알 수 "
        "없습니다.",
        "뷰와 변경을 둘 다 `torch.no_grad()` 안에서 하거나, 둘 다 밖에서 하세요.",
    ),
    "Views from split/unbind/chunk cannot be changed in place": (
        "split/unbind/chunk의 뷰는 인플레이스로 바꿀 수 없습니다",
        "split, chunk, unbind는 한 텐서의 뷰를 여러 개 반환합니다. 그중 하나가 인플레이스로 바뀌면 "
        "autograd가 그 모두의 이력을 다시 쓸 수 없습니다.",
        "인플레이스가 아닌 연산을 쓰거나, 그 조각을 먼저 `clone()`하세요.",
    ),
    "A gradient must match its tensor": (
        "기울기는 텐서와 모양이 같아야 합니다",
        "`.grad`는 텐서의 원소마다 숫자 하나를 가지므로, 모양이 같아야 합니다.",
        "",
    ),
    "This value is None": (
        "이 값은 None입니다",
        "점 앞의 식이 None입니다. `.grad`는 backward()가 써 넣기 전까지 None이고, 기울기를 보관하지 않는 "
        "리프 텐서가 아닌 텐서에서는 항상 None입니다.",
        "먼저 backward()를 실행하거나, `x.grad is None`으로 확인하세요.",
    ),
    "No such name yet": (
        "아직 그런 이름이 없습니다",
        "실행된 단계 중 이 이름을 정의한 단계가 없습니다. 앞 단계가 정의하지 않았거나, 정의해야 할 단계가 "
        "오류를 발생시켰습니다.",
        "",
    ),
    "Too large for TensorLab": (
        "TensorLab에는 너무 큽니다",
        "컴퓨터가 멈추지 않도록 TensorLab이 아무것도 할당하기 전에 거부했습니다.",
        "더 작은 크기를 쓰세요. 원소 다섯 개로도 같은 개념을 볼 수 있습니다.",
    ),
    "Not part of TensorLab's code": (
        "TensorLab 코드에 없는 것",
        "TensorLab은 PyTorch의 안전한 부분집합만 실행합니다. 이 이름이나 구문은 그 밖에 있습니다.",
        "README의 코드 부분집합을 보세요.",
    ),
}

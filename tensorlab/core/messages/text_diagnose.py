"""Texts: diagnosing a pasted error (core/diagnose, `tensorlab diagnose`).

``diagnose.input_*``: why pasted bytes cannot be read. ``diagnose.unexplained.*``: the text holds no
error TensorLab explains. ``diagnose.facts.<family>``: the facts read from the pasted message, said in
plain words (the explanation's title, text and advice are ``explain.<family>.*``, shared with the
lessons). ``diagnose.advice.<family>``: what to do in one's own code, beside the general advice.
Registered in :mod:`tensorlab.core.messages.catalogue`.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # -- diagnose: reading the input ----------------------------------------------------------------------
    "diagnose.input_too_large": (
        "the text is {size} bytes, more than the {limit} bytes a traceback can be; paste only the error",
        "텍스트가 {size}바이트로, 트레이스백이 가질 수 있는 {limit}바이트보다 큽니다. 오류 부분만 붙여 넣으세요",
    ),
    "diagnose.input_undecodable": (
        "the text is not UTF-8 or UTF-16 (an undecodable byte at offset {offset})",
        "텍스트가 UTF-8이나 UTF-16이 아닙니다(위치 {offset}에서 해석할 수 없는 바이트)",
    ),
    "diagnose.input_nul": (
        "the text holds a NUL character (at offset {offset}): it is not a traceback",
        "텍스트의 위치 {offset}에 NUL 문자가 있습니다. 트레이스백이 아닙니다",
    ),
    "diagnose.input_unreadable": ("cannot read {path}: {reason}", "{path:을} 읽을 수 없습니다: {reason}"),
    # -- diagnose: nothing TensorLab explains --------------------------------------------------------------
    "diagnose.unexplained.title": (
        "Not an error TensorLab explains",
        "TensorLab이 설명하는 오류가 아닙니다",
    ),
    "diagnose.unexplained.text": (
        "The text holds no error or warning of the kinds TensorLab explains (autograd, views, in-place changes, "
        "copies, devices). TensorLab does not guess: search for the message itself.",
        "이 텍스트에는 TensorLab이 설명하는 종류(autograd, 뷰, 인플레이스 연산, 복사, 장치)의 오류나 경고가 "
        "없습니다. TensorLab은 추측하지 않습니다. 메시지 자체로 검색해 보세요.",
    ),
    "diagnose.unexplained.found": (
        "The final error is {type}, which TensorLab does not explain. TensorLab does not guess: search for the "
        "message itself.",
        "마지막 오류는 {type}인데, TensorLab이 설명하지 않는 오류입니다. TensorLab은 추측하지 않습니다. 메시지 "
        "자체로 검색해 보세요.",
    ),
    # -- diagnose: the explanation of a pasted error, its facts and the reproduction's notes ----------------
    "diagnose.then": ("{first} {then}", "{first} {then}"),
    "diagnose.program_title": ("Diagnosis: {title}", "진단: {title}"),
    "diagnose.facts.saved_tensor": (
        "In your error, the saved tensor is a {tensor_type} of shape [{shape}].",
        "붙여 넣은 오류에서 저장된 텐서는 모양이 [{shape}]인 {tensor_type}입니다.",
    ),
    "diagnose.facts.saved_node": (
        "torch names it output {output} of {node}: the operation that made it, or the last one that changed it "
        "in place while autograd recorded.",
        "torch의 메시지는 이 텐서를 {node}의 출력 {output:이라고} 적습니다. 이 텐서를 만든 연산이거나, "
        "autograd가 기록하는 동안 마지막으로 인플레이스로 바꾼 연산입니다.",
    ),
    "diagnose.facts.saved_versions": (
        "It is at version {version}, and backward() expected version {expected}: in-place changes after it was "
        "saved raised its version by {changes}. Look for them between the line that computed it and the backward() "
        "call; anomaly mode points at the operation that used the tensor, not at the one that changed it.",
        "이 텐서는 버전 {version}인데 backward()는 버전 {expected:을} 기대했습니다. 저장된 뒤의 인플레이스 변경으로 "
        "버전이 {changes}만큼 올라갔습니다. 그 변경을 텐서를 계산한 줄과 backward() 호출 사이에서 찾으세요. 이상 "
        "탐지(anomaly mode)는 텐서를 바꾼 연산이 아니라 그 텐서를 사용한 연산을 가리킵니다.",
    ),
    "diagnose.facts.multi_view": (
        "In your error, the view changed in place is output {output} of {node}.",
        "붙여 넣은 오류에서 인플레이스로 바뀐 뷰는 {node}의 출력 {output}입니다.",
    ),
    "diagnose.facts.devices": (
        "Your error names the devices {devices}.",
        "붙여 넣은 오류에 나온 장치는 {devices}입니다.",
    ),
    "diagnose.note.scaled": (
        "The reproduction is smaller than your error (at most {limit} elements, with the same number of "
        "dimensions, and at most {bumps} in-place changes in a row); the error is the same.",
        "재현 코드는 붙여 넣은 오류보다 작습니다(원소는 최대 {limit}개이고 차원 수는 같으며, 연속된 인플레이스 "
        "변경은 최대 {bumps}번입니다). 오류는 같습니다.",
    ),
    "diagnose.note.analogue": (
        "The reproduction makes the tensor with {analogue} in place of {node} (torch 2 names a view whose memory "
        "changed in place AsStrided; another operation is replaced by one of the same kind).",
        "재현 코드는 {node} 대신 {analogue:으로} 텐서를 만듭니다(torch 2는 메모리가 인플레이스로 바뀐 뷰를 "
        "AsStrided라고 적고, 다른 연산은 같은 종류의 연산으로 바꿉니다).",
    ),
    "diagnose.note.other_output": (
        "Your error names another output of {node}; the reproduction uses output 0 of the same kind of operation.",
        "붙여 넣은 오류는 {node}의 다른 출력을 가리킵니다. 재현 코드는 같은 종류 연산의 출력 0을 씁니다.",
    ),
    "diagnose.note.cpu_analogue": (
        "Your error happened on {needs}; the reproduction runs the same steps on the CPU, where torch raises the "
        "same error.",
        "붙여 넣은 오류는 {needs}에서 났습니다. 재현 코드는 같은 단계를 CPU에서 실행하며, torch는 CPU에서도 같은 "
        "오류를 발생시킵니다.",
    ),
    "diagnose.note.needs_device": (
        "This error needs tensors on two devices: the reproduction needs {needs} to run, and it has no CPU "
        "analogue.",
        "이 오류는 서로 다른 두 장치의 텐서를 함께 쓸 때 납니다. 재현 코드를 실행하려면 {needs:이} 필요하며, "
        "CPU에서 대신 실행할 방법은 없습니다.",
    ),
    "diagnose.advice.saved_changed": (
        "Do not “fix” it with `loss.requires_grad = True` or by installing another PyTorch: find the in-place "
        "change (`x += ...`, `x.add_(...)`, `x[...] = ...`, `nn.ReLU(inplace=True)`, or `optimizer.step()` "
        "before the last `backward()`) and make it out of place.",
        "`loss.requires_grad = True`나 다른 PyTorch 설치로 “고치지” 마세요. 인플레이스 변경(`x += ...`, "
        "`x.add_(...)`, `x[...] = ...`, `nn.ReLU(inplace=True)`, 마지막 `backward()` 전의 `optimizer.step()`)을 "
        "찾아 인플레이스가 아닌 형태로 바꾸세요.",
    ),
    "diagnose.advice.nothing_to_differentiate": (
        "Do not set `loss.requires_grad = True`: backward() then runs but your parameters get no gradient. Find "
        "where the graph was cut (`torch.no_grad()`, `.detach()`, `.item()`, `.numpy()`, `torch.tensor(...)` of "
        "a result).",
        "`loss.requires_grad = True`로 설정하지 마세요. 그러면 backward()는 실행되지만 매개변수에는 기울기가 "
        "생기지 않습니다. 계산 그래프가 끊긴 곳을 찾으세요(`torch.no_grad()`, `.detach()`, `.item()`, "
        "`.numpy()`, 결과에 대한 `torch.tensor(...)`).",
    ),
    "diagnose.advice.numpy_grad": (
        "For a plot or a print, use `x.detach().cpu().numpy()` (`plt.plot(x.detach().cpu().numpy())`).",
        "값을 그림으로 그리거나 출력하려면 `x.detach().cpu().numpy()`를 쓰세요(`plt.plot(x.detach().cpu().numpy())`).",
    ),
    # -- diagnose (h20c): what a reproduction's own message says differently from the pasted one -------------
    "diagnose.facts.saved_versions_inconsistent": (
        "It says the tensor is at version {version} and backward() expected version {expected}: a version only "
        "goes up, and torch raises this error only when the two differ with the current one higher, so these "
        "versions are inconsistent (the text may have been edited). The reproduction shows the usual case "
        "instead: version 1, where backward() expected version 0.",
        "붙여 넣은 오류는 텐서가 버전 {version}이고 backward()가 버전 {expected:을} 기대했다고 적습니다. 버전은 "
        "올라가기만 하고, torch는 현재 버전이 기대한 버전보다 높을 때만 이 오류를 발생시키므로 이 두 버전은 서로 "
        "맞지 않습니다(텍스트가 고쳐졌을 수 있습니다). 재현 코드는 대신 일반적인 경우를 보여 줍니다. 현재 버전은 "
        "1이고 backward()가 기대한 버전은 0입니다.",
    ),
    "diagnose.note.node_dropped": (
        "The reproduction changes an integer or bool tensor that an operation saved as its input (indices, a "
        "mask); torch names no node for such a tensor, so the reproduction's message names none where yours names "
        "{node}.",
        "재현 코드는 연산이 입력으로 저장한 정수 또는 bool 텐서(인덱스, 마스크)를 바꿉니다. torch는 이런 텐서에 "
        "노드 이름을 적지 않으므로, 붙여 넣은 오류에는 {node:이} 있지만 재현 코드의 메시지에는 노드 이름이 "
        "없습니다.",
    ),
    "diagnose.note.dtype_used": (
        "The reproduction's saved tensor is {used} where yours is {dtype}: indexing saves its indices as int64.",
        "붙여 넣은 오류의 저장된 텐서는 {dtype}이지만 재현 코드에서는 {used}입니다. 인덱싱은 인덱스를 int64로 "
        "저장합니다.",
    ),
    "diagnose.note.lesson_nodes": (
        "The lessons show the same error with {nodes}, where yours names {node}.",
        "레슨은 같은 오류를 {nodes:으로} 보여 줍니다. 붙여 넣은 오류에는 {node:이} 있습니다.",
    ),
    # -- diagnose (h18d): a device mismatch off the CPU, shown by a lesson with the meta device -----------------
    "diagnose.note.lesson_meta": (
        "On any machine the same mistake can be made with a tensor on the meta device, and the lessons show it so; "
        "there torch's Python check words it differently: “Tensor on device meta is not on the expected device cpu!”.",
        "같은 실수는 어느 컴퓨터에서나 meta 장치의 텐서로 일으킬 수 있으며, 레슨은 이 방법으로 보여 줍니다. 그때는 "
        "torch의 Python 코드가 확인하므로 오류 문장이 “Tensor on device meta is not on the expected device cpu!”로 "
        "다릅니다.",
    ),
    "cli.diagnose.advice": ("What to do: {advice}", "해결 방법: {advice}"),
    # -- diagnose: the command's text output (cli/diagnose.py) -------------------------------------------
    "cli.diagnose.line": ("your line: {line}", "실패한 줄: {line}"),
    "cli.diagnose.lessons": ("Lessons that show this error: {lessons}", "이 오류를 보여 주는 레슨: {lessons}"),
    "cli.diagnose.no_lessons": ("none yet", "아직 없음"),
    "cli.diagnose.reproduction": ("A reproduction (TensorLab's code subset):", "재현 코드(TensorLab 코드 부분집합):"),
    "cli.diagnose.raises": ("It raises: {raises}", "실행 결과: {raises}"),
}

CODE_ONLY = frozenset({"diagnose.then"})

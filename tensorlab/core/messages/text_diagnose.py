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
}

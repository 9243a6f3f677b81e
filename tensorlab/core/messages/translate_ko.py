"""Korean for TensorLab's own messages: subset refusals, limits, builder and lesson-file errors.

The modules that raise these messages (:mod:`~tensorlab.core.lang.parse`,
:mod:`~tensorlab.core.sandbox.interpreter`, :mod:`~tensorlab.core.protocol.limits`,
:mod:`~tensorlab.core.lang.builder_code`, :mod:`~tensorlab.core.lessons.lesson`) say them in
English. :func:`localize_message` reads the final English text by pattern (as
:mod:`tensorlab.core.explain.explanations` does for torch) and writes it in Korean, with the
particles after inserted names from :mod:`tensorlab.core.messages.korean_particles`. A message no
pattern knows is returned as it is: English, never a guess. torch's own messages
are never translated. This module imports no torch.
"""

from __future__ import annotations

import re

from tensorlab.core.messages.korean_particles import ko

__all__ = ["localize_message", "RULES"]

# Words inserted into English messages, in Korean.
_WORDS = {
    "name": "이름", "tensor": "텐서 이름", "target name": "대상 이름", "source tensor": "원본 텐서",
    "target tensor": "대상 텐서", "result name": "결과 이름", "first operand": "첫 번째 피연산자",
    "second operand": "두 번째 피연산자", "value": "값", "fill value": "채울 값",
    "follow-up number": "이어서 쓸 숫자", "factor k": "곱할 수 k", "index": "인덱스", "slice": "슬라이스",
    "power": "거듭제곱", "product": "곱", "copy operation": "복사 연산", "mutation": "변경 연산",
    "computation": "계산", "factory": "생성 함수",
    "lambda": "lambda", "a list comprehension": "리스트 컴프리헨션", "a set comprehension": "집합 컴프리헨션",
    "a dict comprehension": "딕셔너리 컴프리헨션", "a generator expression": "제너레이터 식",
    "an f-string": "f-문자열", "def": "def", "async def": "async def", "class": "class",
    "a for loop": "for 반복문", "a while loop": "while 반복문", "if": "if", "a conditional expression": "조건식",
    "try": "try", "raise": "raise", "assert": "assert", "del": "del", "global": "global",
    "nonlocal": "nonlocal", "return": "return", "yield": "yield", "await": "await",
    "the walrus operator `:=`": "바다코끼리 연산자 `:=`", "a dict": "딕셔너리", "a set": "집합",
    "`and` / `or`": "`and` / `or`", "`*` unpacking": "`*` 풀기", "an annotated assignment": "타입 주석이 달린 대입",
    "`from ... import`": "`from ... import`", "pass": "pass", "break": "break", "continue": "continue",
    "async with": "async with", "match": "match",
    "an operand of this call": "이 호출의 피연산자", "an operand of this expression": "이 식의 피연산자",
    "the result": "결과", "the product": "곱", "this tensor": "이 텐서",
    "a folder": "폴더", "a named pipe (FIFO)": "이름 있는 파이프(FIFO)", "a device": "장치 파일",
    "a socket": "소켓", "a special file": "특수 파일",
}


# What the builders call the fields they check (builders.check_name, parse_number, _index).
_BUILDER_WORDS = ("(?:name|tensor|target name|source tensor|target tensor|result name|first operand|"
                  "second operand|value|fill value|follow-up number|factor k|index|slice)")


def _word(text: str) -> str:
    return _WORDS.get(text, text)


# (pattern, Korean template): groups are inserted by name; a `what` group goes through _WORDS.
RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p + "$", re.S), k) for p, k in (
    # -- the code subset (language.py, interpreter.py) --------------------------------------------
    (r"`(?P<name>\w+)` is not defined: no earlier step assigns it",
     "{name_code:이} 정의되지 않았습니다. 앞의 어느 단계도 이 이름에 대입하지 않습니다"),
    (r"`(?P<name>[^`]+)`: names with double underscores are not available(?: in TensorLab)?",
     "`{name}`: 밑줄 두 개가 붙은 이름은 쓸 수 없습니다"),
    (r"`(?P<name>[^`]+)` is reserved in TensorLab(?: and cannot be assigned)?",
     "{name_code:은} TensorLab이 예약한 이름이라 대입할 수 없습니다"),
    (r"`import (?P<name>[^`]+)` is not available in TensorLab \(only `import torch` and `import copy`\)",
     "{import_code:은} 쓸 수 없습니다(`import torch`와 `import copy`만 됩니다)"),
    (r"the operator `(?P<op>[^`]+)` is not available in TensorLab",
     "TensorLab에서는 연산자 {op_code:을} 쓸 수 없습니다"),
    (r"the expression is nested too deeply \(more than (?P<n>\d+) levels\)",
     "식이 너무 깊게 중첩되어 있습니다({n}단계 초과)"),
    (r"the line is (?P<n>\d+) characters long; TensorLab accepts at most (?P<m>\d+)",
     "줄이 {n}자입니다. TensorLab은 최대 {m}자까지 받습니다"),
    (r"this is not valid Python: (?P<detail>.+)", "올바른 파이썬 코드가 아닙니다: {detail}"),
    (r"this cannot be parsed: (?P<detail>.+)", "이 코드는 해석할 수 없습니다: {detail}"),
    (r"there is no statement here", "여기에는 문장이 없습니다"),
    (r"expected one statement, found (?P<n>\d+) \(the second starts with `(?P<code>[^`]*)`\)",
     "문장이 하나여야 하는데 {n}개 있습니다(두 번째 문장은 `{code}`로 시작합니다)"),
    (r"code must be text", "코드는 텍스트여야 합니다"),
    (r"code contains a NUL character", "코드에 NUL 문자가 들어 있습니다"),
    (r"only a name or an item \(`x\[0\]`\) can be updated in place with `\+=`",
     "`+=`로 인플레이스 갱신할 수 있는 것은 이름이나 항목(`x[0]`)뿐입니다"),
    (r"a `with` statement takes exactly one of torch.no_grad\(\), torch.enable_grad\(\), torch.inference_mode\(\)",
     "`with` 문에는 torch.no_grad(), torch.enable_grad(), torch.inference_mode() 중 정확히 하나를 씁니다"),
    (r"`with (?P<what>[^`]+)` is not available in TensorLab: use torch.no_grad\(\), torch.enable_grad\(\) "
     r"or torch.inference_mode\(\)",
     "{with_code:은} 쓸 수 없습니다. torch.no_grad(), torch.enable_grad(), "
     "torch.inference_mode()를 쓰세요"),
    (r"nothing to assign to", "대입할 대상이 없습니다"),
    (r"unpacking assigns to plain names only: `a, b = x.split\(2\)`",
     "풀어서 대입할 때는 이름만 쓸 수 있습니다: `a, b = x.split(2)`"),
    (r"`(?P<what>[^`]+)` cannot be assigned in TensorLab(?: \(only (?P<list>[^)]+)\))?",
     "TensorLab에서는 `{what}`에 대입할 수 없습니다{only}"),
    (r"this cannot be assigned to in TensorLab", "TensorLab에서는 여기에 대입할 수 없습니다"),
    (r"a (?P<type>\w+) literal is not available in TensorLab", "TensorLab에서는 {type} 리터럴을 쓸 수 없습니다"),
    (r"`(?P<name>\w+)` can only be used as `\w+\.<function>`",
     "{name_code:은} `{name}.<함수>` 형태로만 쓸 수 있습니다"),
    (r"`(?P<name>\w+)` can only be called: `\w+\(\.\.\.\)`", "{name_code:은} 호출만 할 수 있습니다: `{name}(...)`"),
    (r"`(?P<what>[^`]+)` is not available in TensorLab: `(?P<name>[^`]+)` is not on the list of tensor methods "
     r"and attributes",
     "TensorLab에서는 {what_code:을} 쓸 수 없습니다. {name_code:은} 텐서 메서드와 속성 목록에 없습니다"),
    (r"`copy\.(?P<name>\w+)` is not available in TensorLab \(only copy.deepcopy\)",
     "TensorLab에서는 {copy_code:을} 쓸 수 없습니다(copy.deepcopy만 됩니다)"),
    (r"`(?P<name>[^`]+)` cannot be called: only torch functions, tensor methods, print, len, id and copy.deepcopy "
     r"can be called",
     "{name_code:은} 호출할 수 없습니다. 호출할 수 있는 것은 torch 함수, 텐서 메서드, print, len, id, "
     "copy.deepcopy뿐입니다"),
    (r"only torch functions, tensor methods, print, len, id and copy.deepcopy can be called",
     "호출할 수 있는 것은 torch 함수, 텐서 메서드, print, len, id, copy.deepcopy뿐입니다"),
    (r"`torch\.(?P<name>\w+)\(\)` is used as `with torch\.\w+\(\):`",
     "{call_code:은} `with torch.{name}():` 형태로 씁니다"),
    (r"`\*\*` unpacking is not available in TensorLab", "TensorLab에서는 `**` 풀기를 쓸 수 없습니다"),
    (r"`(?P<name>[^`]+)` is not available on a (?P<type>\w+) in TensorLab",
     "TensorLab에서는 {type}에서 {name_code:을} 쓸 수 없습니다"),
    # -- limits -----------------------------------------------------------------------------------
    (r"(?P<what>.+) would have (?P<n>[\d,]+) elements; TensorLab allows at most (?P<m>[\d,]+) per tensor",
     "{what}의 원소가 {n}개가 됩니다. TensorLab은 텐서 하나에 원소를 최대 {m}개까지 허용합니다"),
    (r"this (?P<what>power|product) is too large a number for TensorLab",
     "이 {what:은} TensorLab이 다루기에 너무 큰 수입니다"),
    (r"this would build a sequence of (?P<n>[\d,]+) items; TensorLab allows at most (?P<m>[\d,]+)",
     "항목이 {n}개인 시퀀스가 만들어집니다. TensorLab은 최대 {m}개까지 허용합니다"),
    (r"this would build a sequence longer than (?P<m>[\d,]+) items",
     "항목이 {m}개보다 많은 시퀀스가 만들어집니다"),
    # -- builders ---------------------------------------------------------------------------------
    (rf"the (?P<what>{_BUILDER_WORDS}) is empty", "{what:이} 비어 있습니다"),
    (rf"`(?P<name>[^`]*)` is not a valid (?P<what>{_BUILDER_WORDS}): use letters, digits and _, "
     r"not starting with a digit",
     "{name_code:은} 올바른 {what:이} 아닙니다. 숫자로 시작하지 않는 영문자, 숫자, 밑줄(_)을 쓰세요"),
    (r"the shape `(?P<text>[^`]*)` must be whole numbers separated by commas, like 2, 3",
     "모양 `{text}`에는 쉼표로 구분한 정수를 쓰세요. 예: 2, 3"),
    (r"the shape `(?P<text>[^`]*)` has a negative size", "모양 `{text}`에 음수 크기가 있습니다"),
    (rf"the (?P<what>{_BUILDER_WORDS}) `(?P<text>[^`]*)` is not a number",
     "{what} {text_code:은} 숫자가 아닙니다"),
    (rf"the (?P<what>{_BUILDER_WORDS}) `(?P<text>[^`]*)` must be a finite number",
     "{what} {text_code:은} 유한한 수여야 합니다"),
    (rf"the (?P<what>{_BUILDER_WORDS}) `(?P<text>[^`]*)` must be an index like 1:3, 0, or :, 1",
     "{what} `{text}`에는 1:3, 0, :, 1 같은 인덱스를 쓰세요"),
    (r"the view shape `(?P<text>[^`]*)` must be whole numbers like 2, -1",
     "view 모양 `{text}`에는 2, -1 같은 정수를 쓰세요"),
    (r"the view shape `(?P<text>[^`]*)` must be sizes with at most one -1",
     "view 모양 `{text}`에는 -1을 한 번까지만 쓸 수 있습니다"),
    (r"unknown (?P<what>dtype|factory|copy operation|mutation|computation) `(?P<text>[^`]*)`",
     "알 수 없는 {what}: `{text}`"),
    (r"the values are empty: type numbers like 1, 2, 3 or \[\[1, 2\], \[3, 4\]\]",
     "값이 비어 있습니다. 1, 2, 3이나 [[1, 2], [3, 4]]처럼 숫자를 입력하세요"),
    (r"the values `(?P<text>[^`]*)` are not a list of numbers", "값 {text_code:은} 숫자 목록이 아닙니다"),
    (r"the values `(?P<text>[^`]*)` must be numbers in \(nested\) lists",
     "값 `{text}`에는 (중첩된) 리스트 안의 숫자를 쓰세요"),
    (r"the follow-up `(?P<text>[^`]*)` must be an operator and a number, like \* 2",
     "이어서 쓸 식 `{text}`에는 * 2처럼 연산자와 숫자를 쓰세요"),
    # -- lesson files -----------------------------------------------------------------------------
    (r"the file is larger than (?P<n>[\d,]+) bytes", "파일이 {n}바이트보다 큽니다"),
    (r"the file is not UTF-8 text \(byte (?P<n>\d+)\)", "UTF-8 텍스트 파일이 아닙니다({n}번째 바이트)"),
    (r"the file is empty", "파일이 비어 있습니다"),
    (r"this is not valid TOML: (?P<detail>.+)", "올바른 TOML이 아닙니다: {detail}"),
    (r"this TOML nests arrays or tables too deeply to read",
     "이 TOML은 배열이나 테이블이 너무 깊게 중첩되어 읽을 수 없습니다"),
    (r"this TOML holds a value TensorLab cannot read: (?P<detail>.+)",
     "이 TOML에는 TensorLab이 읽을 수 없는 값이 있습니다: {detail}"),
    (r"this TOML is too large to read", "이 TOML은 너무 커서 읽을 수 없습니다"),
    (r"unknown table `(?P<key>[^`]+)` \(expected \[lesson\] and \[\[step\]\]\)",
     "알 수 없는 테이블 `{key}`입니다([lesson]과 [[step]]만 씁니다)"),
    (r"the \[lesson\] table is missing", "[lesson] 테이블이 없습니다"),
    (r"unknown key `(?P<key>[^`]+)` in (?P<where>\S+)", "{where}에 알 수 없는 키 {key_code:이} 있습니다"),
    (r"`(?P<key>[^`]+)` in (?P<where>\S+) is missing", "{where}에 {key_code:이} 없습니다"),
    (r"`(?P<key>[^`]+)` in (?P<where>\S+) must be text, not (?P<type>\w+)",
     "{where}의 {key_code:은} {type:이} 아니라 텍스트여야 합니다"),
    (r"`(?P<key>[^`]+)` in (?P<where>\S+) must be text", "{where}의 {key_code:은} 텍스트여야 합니다"),
    (r"`(?P<key>[^`]+)` in (?P<where>\S+) must be a list of text",
     "{where}의 {key_code:은} 텍스트 리스트여야 합니다"),
    (r"`id` must use only a-z, 0-9 and '-', not (?P<text>.+)",
     "`id`에는 a-z, 0-9, '-'만 쓸 수 있습니다({text:은} 안 됩니다)"),
    (r"`prerequisites` must be lesson ids \(a-z, 0-9, '-'\), not (?P<text>.+)",
     "`prerequisites`에는 레슨 id(a-z, 0-9, '-')를 씁니다({text:은} 안 됩니다)"),
    (r"the lesson has no \[\[step\]\]", "레슨에 [[step]]이 없습니다"),
    (r"`step` must be an array of tables \(\[\[step\]\]\)", "`step`은 테이블 배열([[step]])이어야 합니다"),
    (r"the lesson has (?P<n>\d+) steps; at most (?P<m>\d+) are allowed",
     "레슨에 단계가 {n}개 있습니다. 최대 {m}개까지 허용됩니다"),
    (r"each step must be a table", "단계마다 테이블이어야 합니다"),
    (r"`note` must be text", "`note`는 텍스트여야 합니다"),
    (r"`ask` must be a table \(\[step\.ask\]\)", "`ask`는 테이블([step.ask])이어야 합니다"),
    (r"`choices` in \[step\.ask\] must be a list of at least two texts",
     "[step.ask]의 `choices`는 텍스트가 두 개 이상인 리스트여야 합니다"),
    (r"`answer` in \[step\.ask\] must be the index of a choice \(0 to (?P<n>\d+)\)",
     "[step.ask]의 `answer`는 선택지의 인덱스(0부터 {n}까지)여야 합니다"),
    (r"`(?P<key>[^`]+)` must have as many choices as `choices`",
     "`{key}`에는 `choices`와 같은 수의 선택지가 있어야 합니다"),
    (r"cannot read the file: (?P<detail>.+)", "파일을 읽을 수 없습니다: {detail}"),
    (r"this is (?P<what>.+), not a lesson file: only regular files are read",
     "이것은 레슨 파일이 아니라 {what}입니다. 일반 파일만 읽습니다"),
    (r"no such lesson file or built-in lesson \(built-in: (?P<list>.+)\)",
     "그런 레슨 파일이나 내장 레슨이 없습니다(내장 레슨: {list})"),
    # Last: the general refusal of a name or a construct.
    (r"(?P<what>.+) is not available in TensorLab", "TensorLab에서는 {what:을} 쓸 수 없습니다"),
))

_WHERE = re.compile(r"^(?P<source>[^\n]*?), step (?P<step>\d+): (?P<rest>.*)$", re.S)
_LINE = re.compile(r"^line (?P<line>\d+)(?:, col (?P<col>\d+))?: (?P<rest>.*)$", re.S)
_SOURCE = re.compile(r"^(?P<source>[^:\n]+): (?P<rest>.*)$", re.S)


def _fields(match: re.Match[str]) -> dict[str, str]:
    fields = {k: v for k, v in match.groupdict().items() if v is not None}
    for key, value in list(fields.items()):
        fields[f"{key}_code"] = f"`{value}`"
    if "what" in fields:
        fields["what"] = _word(fields["what"])
    if fields.get("type") == "tensor":
        fields["type"] = "텐서"
    if "name" in fields:
        fields["import_code"] = f"`import {fields['name']}`"
        fields["copy_code"] = f"`copy.{fields['name']}`"
        fields["call_code"] = f"`torch.{fields['name']}()`"
    if "what" in match.groupdict() and match.groupdict()["what"] is not None:
        fields["with_code"] = f"`with {match['what']}`"
        fields["what_code"] = f"`{match['what']}`"
    fields["only"] = f"({fields['list']}만 됩니다)" if "list" in fields and "assigned" in match.re.pattern else ""
    return fields


def _rule(message: str) -> str | None:
    for pattern, template in RULES:
        match = pattern.match(message)
        if match is not None:
            return ko(template, **_fields(match))
    return None


def localize_message(message: str, language: str = "ko") -> str:
    """``message`` in ``language`` where TensorLab knows it (else unchanged).

    "file.toml, step 3: line 1, col 5: `open` is not available in TensorLab"
    becomes "file.toml, 3단계: 1번째 줄, 5번째 글자: TensorLab에서는 `open`을 쓸 수 없습니다".
    """
    if language != "ko" or not message:
        return message
    where = _WHERE.match(message)
    if where is not None:
        return f"{where['source']}, {where['step']}단계: {localize_message(where['rest'], language)}"
    line = _LINE.match(message)
    if line is not None:
        place = f"{line['line']}번째 줄" + (f", {line['col']}번째 글자" if line["col"] else "")
        return f"{place}: {localize_message(line['rest'], language)}"
    translated = _rule(message)
    if translated is not None:
        return translated
    source = _SOURCE.match(message)
    if source is not None:
        rest = localize_message(source["rest"], language)
        if rest != source["rest"]:
            return f"{source['source']}: {rest}"
    return message

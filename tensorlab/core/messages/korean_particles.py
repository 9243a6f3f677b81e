"""Korean particles that follow the sound of the word before them.

Korean writes 을/를, 이/가, 은/는, 과/와 and (으)로 after a word according to its
last sound: the first form after a final consonant (batchim), the second after a
vowel; (으)로 takes 로 after a vowel and after ㄹ. A name inserted into a Korean
sentence (`x`, `RuntimeError`, `MulBackward0`, `3`) has no Hangul to look at, so
its last sound is taken from how a Korean reader says it: letters by their names
(x 엑스, l 엘, m 엠, n 엔, r 알), digits as Sino-Korean numbers (0 영, 1 일, 3 삼,
10 십), and English words by their ending (-er 어, -ng ㅇ, -le ㄹ, -m ㅁ, -n ㄴ).

``attach("x", "을")`` gives "x를"; :func:`ko` fills a template such as
``"{name:을} 바꿀 수 없습니다"``, so that no finished sentence ever reads
"x을" or "을(를)".
"""

from __future__ import annotations

import re
import string
from typing import Any

__all__ = ["final_sound", "particle", "attach", "ko"]

# Final consonant (jongseong) index of a Hangul syllable: 0 none, 8 ㄹ.
_NONE, _RIEUL, _OTHER = 0, 8, -1

# Letters said by their names: which end in a consonant (and which one).
_LETTER_FINAL = {"l": _RIEUL, "m": _OTHER, "n": _OTHER, "r": _RIEUL}
# Digits as Sino-Korean numbers: 영 일 이 삼 사 오 육 칠 팔 구.
_DIGIT_FINAL = {"0": _OTHER, "1": _RIEUL, "2": _NONE, "3": _OTHER, "4": _NONE, "5": _NONE,
                "6": _OTHER, "7": _RIEUL, "8": _RIEUL, "9": _NONE}
# Trailing zeros name a unit: 십 (10), 백 (100), 천 (1000), 만 (10000): all end in a consonant.
# Words whose ending the rules below would misread.
_WORDS = {
    "clone": _OTHER, "done": _OTHER, "none": _OTHER, "one": _OTHER, "zone": _OTHER,
    "time": _OTHER, "name": _OTHER, "same": _OTHER, "frame": _OTHER,
    "back": _OTHER, "stack": _OTHER, "hook": _OTHER, "book": _OTHER, "check": _NONE,
    "step": _OTHER, "grad": _NONE, "type": _OTHER, "dtype": _OTHER, "group": _OTHER, "bit": _NONE,
    "put": _OTHER, "leaf": _NONE, "shape": _NONE, "base": _NONE,
    "version": _OTHER, "item": _OTHER, "sum": _OTHER, "mean": _OTHER, "numpy": _NONE,
    "cpu": _NONE, "gpu": _NONE, "cuda": _NONE, "mps": _NONE, "toml": _RIEUL,
    "variable": _RIEUL, "tensor": _NONE, "storage": _NONE, "data": _NONE, "view": _NONE,
    "t": _NONE, "mt": _NONE, "fn": _OTHER, "id": _NONE, "ok": _NONE,
    "lr": _RIEUL,   # 엘알: a learning rate's usual name (issue 18, h18p)
}
_PAIRS = {
    "을": ("을", "를"), "를": ("을", "를"),
    "이": ("이", "가"), "가": ("이", "가"),
    "은": ("은", "는"), "는": ("은", "는"),
    "과": ("과", "와"), "와": ("과", "와"),
    "으로": ("으로", "로"), "로": ("으로", "로"),
    "이다": ("이다", "다"), "다": ("이다", "다"),
    "이라고": ("이라고", "라고"), "라고": ("이라고", "라고"),
    "이나": ("이나", "나"), "나": ("이나", "나"),
}


def _strip(word: str) -> str:
    """The part of ``word`` a reader says last: no closing brackets, quotes or trailing punctuation.

    Empty call parentheses are not read (`x.clone()` is read "x 클론"); arguments
    and indices are (`x.add_(1)` is read "... 일", `x[0]` "x 영").
    """
    text = word.strip()
    while text:
        last = text[-1]
        if last == ")" and text.endswith("()"):
            text = text[:-2]
        elif last in ")]([`'\"“”‘’.,:;!?*_ …":
            text = text[:-1]
        else:
            break
    return text


def _number_final(digits: str) -> int:
    stripped = digits.rstrip("0")
    if not stripped:
        return _OTHER  # 영
    if len(stripped) < len(digits):
        return _OTHER  # 십, 백, 천, 만
    return _DIGIT_FINAL[stripped[-1]]


def _word_final(word: str) -> int:
    lower = word.lower()
    if lower in _WORDS:
        return _WORDS[lower]
    if len(lower) == 1 or (word.isupper() and len(word) <= 4):
        return _LETTER_FINAL.get(lower[-1], _NONE)  # said letter by letter: CPU 씨피유, x 엑스
    if lower.endswith(("er", "or", "ar", "ur", "ir")):
        return _NONE  # 에러, 텐서
    if lower.endswith(("ng", "out")):   # 잉; 아웃 (`out`, `dropout`, `layout`)
        return _OTHER
    if lower.endswith(("le", "l")):
        return _RIEUL  # 블, 얼
    if lower.endswith(("me", "m")):
        return _OTHER
    if lower.endswith(("ne", "n")):
        return _OTHER
    if (len(lower) >= 3 and lower[-1] in "bpkt" and lower[-2] in "aeiou" and lower[-3] not in "aeiou"
            or lower.endswith("ck") and len(lower) >= 4 and lower[-3] in "aeiou"):
        return _OTHER  # a short vowel before b, p, k, t, ck: 랩, 스텝, 풋, 백, 스택
    return _NONE


def final_sound(word: str) -> int:
    """0 when ``word`` ends in a vowel sound, 8 when in ㄹ, another value for another final consonant."""
    tokens = str(word).split()
    if tokens and set(tokens[-1]) == {"_"}:
        return _RIEUL  # `_` alone is read 밑줄
    text = _strip(str(word))
    if not text:
        return _NONE
    last = text[-1]
    if "가" <= last <= "힣":
        return (ord(last) - 0xAC00) % 28 or _NONE
    if last.isdigit():
        match = re.search(r"\d+$", text)
        return _number_final(match.group(0) if match else last)
    if last in string.ascii_letters:
        # The last word of an identifier: `MulBackward0` -> 0, `x.grad` -> grad, `requires_grad` -> grad.
        words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[A-Z]", text)
        return _word_final(words[-1] if words else last)
    return _NONE


def particle(word: Any, form: str) -> str:
    """The form of particle ``form`` (either spelling: 을 or 를, 으로 or 로, ...) that follows ``word``."""
    consonant, vowel = _PAIRS[form]
    sound = final_sound(str(word))
    if consonant == "으로":
        return "로" if sound in (_NONE, _RIEUL) else "으로"
    return vowel if sound == _NONE else consonant


def attach(word: Any, form: str) -> str:
    """``word`` followed by the right form of particle ``form``: attach("x", "을") == "x를"."""
    return f"{word}{particle(word, form)}"


_FIELD = re.compile(r"\{\{|\}\}|\{(\w+)(?::([^{}]*))?\}")

# Templates that str.format fills exactly as ko() does (every brace a plain keyword field or an escaped brace, no
# particle or backtick spec), by text: a step of the window fills a few dozen, most of them without a particle.
_PLAIN: dict[str, bool] = {}


def _plain(template: str) -> bool:
    """Whether ``str.format`` fills ``template`` as :func:`ko` does (checked once per text)."""
    plain = _PLAIN.get(template)
    if plain is None:
        if len(_PLAIN) > 4096:
            _PLAIN.clear()
        rest = _FIELD.sub("", template)
        plain = _PLAIN[template] = "{" not in rest and "}" not in rest and all(
            not name[0].isdigit() and not spec.startswith("`") and spec not in _PAIRS
            for name, spec in _FIELD.findall(template) if name)
    return plain


def ko(template: str, **values: Any) -> str:
    """Fill ``template`` like str.format (keyword fields only), where ``{name:을}`` is the value with its particle.

    ``{name}`` and ``{count:,}`` format as str.format would; a format spec that is a
    particle (을, 를, 이, 가, 은, 는, 과, 와, 으로, 로, ...) attaches its right form. A spec that
    starts with a backtick writes the value as code first: ``{name:`}`` gives "`x`", ``{name:`을}``
    gives "`x`를".
    """
    if _plain(template):
        return str.format(template, **values)   # the same text, filled by str.format at C speed

    def fill(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        value = values[match.group(1)]
        spec = match.group(2)
        if spec and spec.startswith("`"):
            value, spec = f"`{value}`", spec[1:]
        if spec in _PAIRS:
            return attach(value, spec)
        return format(value, spec or "")

    return _FIELD.sub(fill, template)

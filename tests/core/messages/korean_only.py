"""What "one language per output" means for Korean output, as a test helper (not a test module).

After removing code spans (`...`), identifiers (names with `_`, `.`, `(`, digits, capitals inside or
hyphens), exception and warning type names, quoted text (“…”, "…": torch's or a lesson's own words,
quoted as they were written), the texts a caller names (torch's messages as torch wrote them) and the
glossary's keep-in-English terms, no Latin word of three or more letters may remain.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _glossary() -> str:
    return (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")


def _kept_terms() -> frozenset[str]:
    """The English the glossary keeps as words: its "Kept in English" list, and the rows whose Korean is
    the English term itself (| stride | stride | ...). A gloss is allowed in brackets after the Korean word it
    explains (see _GLOSS)."""
    glossary = _glossary()
    terms = {m.group(1) for m in re.finditer(r"^\| ([A-Za-z ]+) \| \1 \|", glossary, re.M)}
    # The list follows the colon that closes the line's bracketed explanation.
    kept = re.search(r"^Kept in English \([^)]*\): (.*)$", glossary, re.M)
    assert kept is not None, "docs/glossary.md lists the names kept in English"
    terms |= {t.strip(" .`") for t in kept.group(1).split(",")}
    words = {w.lower() for term in terms for w in re.findall(r"[A-Za-z]+", term)}
    return frozenset(words)


def _lesson_ids() -> frozenset[str]:
    """The built-in lessons' ids (`views-share-storage`): names, wherever a text writes them."""
    return frozenset(re.findall(r'^id = "([a-z0-9-]+)"', "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "tensorlab" / "resources" / "lessons").glob("*.toml")), re.M))


KEPT = _kept_terms()
LESSON_IDS = _lesson_ids()

_CODE = re.compile(r"`[^`]*`")
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|'[^']*'")
# A gloss: English in brackets right after the Korean word it explains (`기울기(gradient)`).
_GLOSS = re.compile(r"(?<=[가-힣])\(([A-Za-z][A-Za-z -]*)\)")
_TOKEN = re.compile(r"\S+")
# Names: with `_ . [ = < > / \ :` or digits inside, a call `f(...)`, an option `--x`, camelCase, ALLCAPS,
# Python's constants, exception and warning types.
_IDENTIFIER = re.compile(r"[_.\[\]=<>/\\:\d]|\w\(|^-|[a-z][A-Z]|^[A-Z]{2,}|^(?:True|False|None)$"
                         r"|(?:Error|Warning|Exception)$")
_LATIN = re.compile(r"[A-Za-z]{3,}")


def _bare(token: str) -> str:
    """``token`` without the sentence around it: quotes and punctuation, a Korean particle after it, a
    full stop, and a bracket it does not close (`(no` and `warning)` of "(no warning)")."""
    token = token.strip(",;:!?“”‘’'\"").rstrip(".")
    token = re.sub(r"[가-힣]+$", "", token).rstrip(".,;:!?")
    if re.fullmatch(r"\((.*)\)", token):
        token = token[1:-1]
    if token.startswith("(") and ")" not in token:
        token = token[1:]
    if token.endswith(")") and "(" not in token:
        token = token[:-1]
    return token.rstrip(".,;:!?")


def latin_words(text: str, foreign: Iterable[str] = (), names: Iterable[str] = ()) -> list[str]:
    """The Latin words of three letters or more left in ``text`` once code, names, quotes and ``foreign`` go.

    ``foreign``: texts that are not TensorLab's (torch's messages, a program's code and output);
    ``names``: the program's own names, identifiers even where a text does not put them in backticks.
    """
    for quoted in sorted(foreign, key=len, reverse=True):
        if quoted:
            text = text.replace(quoted, " ")
    for name in sorted({*names, *LESSON_IDS}, key=len, reverse=True):   # `assignment-is-not-a-copy` before `a`
        text = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", " ", text)
    text = _QUOTED.sub(" ", _CODE.sub(" ", text))
    text = _GLOSS.sub(" ", text)
    left = []
    for token in _TOKEN.findall(text):
        bare = _bare(token)
        if _IDENTIFIER.search(bare):
            continue
        left += [w for w in _LATIN.findall(bare) if w.lower() not in KEPT]
    return left

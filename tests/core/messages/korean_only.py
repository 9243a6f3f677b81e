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


def _kept_terms() -> frozenset[str]:
    """The English the glossary keeps: the glosses in brackets (`기울기(gradient)`) and its list of names."""
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    terms = set(re.findall(r"[가-힣]\(([A-Za-z-]+)\)", glossary))
    # A row whose Korean column is the English term itself keeps it (| stride | stride | ...).
    terms |= {m.group(1) for m in re.finditer(r"^\| ([A-Za-z ]+) \| \1 \|", glossary, re.M)}
    kept = re.search(r"^Kept in English[^:]*:(.*)$", glossary, re.M)
    assert kept is not None, "docs/glossary.md lists the names kept in English"
    terms |= {t.strip(" .`") for t in kept.group(1).split(",")}
    words = {w.lower() for term in terms for w in re.findall(r"[A-Za-z]+", term)}
    return frozenset(words)


KEPT = _kept_terms()

_CODE = re.compile(r"`[^`]*`")
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|'[^']*'")
_TOKEN = re.compile(r"\S+")
# Names: with `_ . ( [ = < > / : -` or digits, camelCase, ALLCAPS, Python's constants, exception and warning types.
_IDENTIFIER = re.compile(r"[_.()\[\]=<>/\\:\d-]|[a-z][A-Z]|^[A-Z]{2,}|^(?:True|False|None)(?![a-z])"
                         r"|(?:Error|Warning|Exception)\b")
_LATIN = re.compile(r"[A-Za-z]{3,}")


def latin_words(text: str, foreign: Iterable[str] = (), names: Iterable[str] = ()) -> list[str]:
    """The Latin words of three letters or more left in ``text`` once code, names, quotes and ``foreign`` go.

    ``foreign``: texts that are not TensorLab's (torch's messages, a program's code and output);
    ``names``: the program's own names, identifiers even where a text does not put them in backticks.
    """
    for quoted in sorted(foreign, key=len, reverse=True):
        if quoted:
            text = text.replace(quoted, " ")
    for name in names:
        text = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", " ", text)
    text = _QUOTED.sub(" ", _CODE.sub(" ", text))
    left = []
    for token in _TOKEN.findall(text):
        bare = token.strip(",;:!?“”‘’'\"")
        if _IDENTIFIER.search(bare):
            continue
        left += [w for w in _LATIN.findall(bare) if w.lower() not in KEPT]
    return left

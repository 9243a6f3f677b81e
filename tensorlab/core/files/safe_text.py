"""Text from a file anyone can write, made safe to show: the one escaping of control and bidi characters.

Lesson texts (titles, notes, questions), code and torch's messages are shown in a terminal
(the transcript) and written into other files (an exported script's comments, a notebook's
Markdown). Each must stay text: a terminal escape must not drive the terminal, a line break
must not end a comment or print a fake step header, and a bidi control ("Trojan Source")
must not make text display in another order than it is read. :func:`visible` writes every
such character as an escape; the transcript and the export both use it.
"""

from __future__ import annotations

import unicodedata

__all__ = ["visible", "BIDI_CONTROLS", "display_width"]

# Characters that reorder how text is displayed (the "Trojan Source" characters).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def visible(text: str, keep_line_breaks: bool = False) -> str:
    """``text`` with control, line-separator and bidi characters written as escapes (``\\x1b``, ``\\u202e``).

    Tabs stay. With ``keep_line_breaks`` a ``\\n`` stays too (text shown over several lines);
    without it the result is one line: it holds no character that ends a line (nor a comment),
    and none that makes text display in another order than it is read.
    """
    out = []
    for char in text:
        if char == "\t" or (char == "\n" and keep_line_breaks):
            out.append(char)
        elif char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    return "".join(out)


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: a wide character (Hangul, CJK) takes two (for aligned tables)."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)

"""Text from a file anyone can write, made safe to show: the one escaping of control and bidi characters.

Lesson texts (titles, notes, questions), code and torch's messages are shown in a terminal
(the transcript) and written into other files (an exported script's comments, a notebook's
Markdown). Each must stay text: a terminal escape must not drive the terminal, a line break
must not end a comment or print a fake step header, and a bidi control ("Trojan Source")
must not make text display in another order than it is read. :func:`visible` writes every
such character as an escape; the transcript and the export both use it.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["visible", "BIDI_CONTROLS", "display_width"]

# Characters that reorder how text is displayed (the "Trojan Source" characters).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


# Every character :func:`visible` escapes: the controls (Unicode category Cc is exactly U+0000-U+001F and
# U+007F-U+009F), the line and paragraph separators (Zl, Zp) and the bidi controls; the tab never, and
# the line feed only on one line. One compiled scan: a table's cells and a tensor's values are long texts,
# and a loop over their characters in Python cost milliseconds a step (a test compares it with the category rule
# at every code point).
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029" + "".join(sorted(BIDI_CONTROLS))
_ESCAPED = re.compile(f"[{_CONTROLS}\n]")
_ESCAPED_KEEPING_LINES = re.compile(f"[{_CONTROLS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, keep_line_breaks: bool = False) -> str:
    """``text`` with control, line-separator and bidi characters written as escapes (``\\x1b``, ``\\u202e``).

    Tabs stay. With ``keep_line_breaks`` a ``\\n`` stays too (text shown over several lines);
    without it the result is one line: it holds no character that ends a line (nor a comment),
    and none that makes text display in another order than it is read.
    """
    return (_ESCAPED_KEEPING_LINES if keep_line_breaks else _ESCAPED).sub(_escape, text)


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: a wide character (Hangul, CJK) takes two (for aligned tables)."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)

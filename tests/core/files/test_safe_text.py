"""The one escaping of control and bidi characters: the compiled scan is the category rule, at every code point."""

from __future__ import annotations

import unicodedata

import pytest

from tensorlab.core.files.safe_text import BIDI_CONTROLS, visible


def _by_category(text: str, keep_line_breaks: bool) -> str:
    """The rule as written: a control (Cc), a line or paragraph separator (Zl, Zp) or a bidi control is escaped;
    a tab never, a line feed only when the text is one line."""
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


@pytest.mark.parametrize("keep_line_breaks", [False, True])
def test_every_code_point_is_escaped_as_its_category_says(keep_line_breaks):
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    assert visible(every, keep_line_breaks) == _by_category(every, keep_line_breaks)


def test_what_a_terminal_or_a_reader_would_take_for_something_else_is_written_out():
    assert visible("a\x1b[31m\nb\u202ec\td") == "a\\x1b[31m\\x0ab\\u202ec\td"
    assert visible("one\ntwo\u2028", keep_line_breaks=True) == "one\ntwo\\u2028"
    assert visible("텐서 x = 1") == "텐서 x = 1"

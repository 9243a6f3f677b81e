"""Small helpers to write the HTML of the text panels safely."""

from __future__ import annotations

import html
import re

__all__ = ["ZWSP", "breakable", "breakable_code", "code_block", "escape", "inline_code", "note_html"]


def escape(text: str) -> str:
    """``text`` as HTML text."""
    return html.escape(text, quote=False)


_TICKS = re.compile(r"`([^`]+)`")


def inline_code(text: str) -> str:
    """Escape ``text`` and show `backticked` parts as code."""
    return _TICKS.sub(lambda m: f"<code>{m.group(1)}</code>", escape(text))


def code_block(code: str) -> str:
    """``code`` shown as code: one line as a ``<code>`` span; several (a loop, a call over lines) as a block with
    its line breaks and indentation kept (HTML would collapse them into one line)."""
    if "\n" not in code:
        return f"<code>{inline_code(code)}</code>"
    lines = []
    for line in code.split("\n"):
        body = line.lstrip(" \t")
        indent = line[:len(line) - len(body)].expandtabs(4)
        lines.append("&nbsp;" * len(indent) + escape(body))
    return "<code>" + "<br>".join(lines) + "</code>"


def note_html(text: str) -> str:
    """A step's note as HTML: its line breaks kept (HTML would run its paragraphs and lines together), a blank
    line a paragraph break, and an indented line (code in an opened file's comment) shown as code, indentation
    kept; so is a ``>>>``/``...`` prompt line (a doctest in a comment), indented or not. Another note of one
    line is :func:`inline_code`'s."""
    out = []
    for line in text.split("\n"):
        body = line.strip()
        indent = len(line.rstrip()) - len(body)
        code = indent or body.startswith(">>>") or body == "..." or body.startswith("... ")
        out.append(f"<code>{'&nbsp;' * indent}{escape(body)}</code>" if code else inline_code(line))
    return "<br>".join(out)


ZWSP = "\u200b"   # a zero-width space: where a line may break, invisible (Qt's line breaking honours it)
# Inside code, as the Code panel wraps (code_view.break_points): *before* the dot of a method call
# (`.backward()` starts the next line, never `x.` / `detach()`), after `(` (not before `)`) and `,`: so a
# long chain such as y.detach().clone().requires_grad_(True) wraps at a call instead of widening its panel
# past the screen, and `backward(` / `)` never happens. Never inside a name or number, and never inside
# what reads as one name: not after `[` nor before an attribute's dot (`net[` / `1].weight.grad`).
_CODE_BREAKS = re.compile(r"((?<=[A-Za-z0-9_)\]])(?<![0-9])(?=\.[A-Za-z_]\w*\()|(?<=\()(?!\))|(?<=,)(?! ))")
_CODE_SPAN = re.compile(r"(<code>)(.*?)(</code>)", re.DOTALL)


def breakable_code(code: str) -> str:
    """``code`` (plain text or escaped HTML) with zero-width break opportunities before a method
    call's ``.`` and after ``(`` and ``,``: shown only, never stored (strip :data:`ZWSP` to get
    the code back)."""
    return _CODE_BREAKS.sub(ZWSP, code)


_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")
_LONG_WORD = re.compile(r"[^\s<>]{16,}")   # a word this long in prose is code written without backticks


def breakable(html_text: str) -> str:
    """``html_text`` with every ``<code>`` span, and every long word of its prose, made
    :func:`breakable_code` (tags and short words are left as they are)."""
    def prose(text: str) -> str:
        return _LONG_WORD.sub(lambda m: breakable_code(m.group(0)), text)

    def outside_code(part: str) -> str:
        pieces = _TAG_OR_TEXT.split(part)
        return "".join(p if p.startswith("<") else prose(p) for p in pieces)

    out, last = [], 0
    for m in _CODE_SPAN.finditer(html_text):
        out += [outside_code(html_text[last:m.start()]), m.group(1), breakable_code(m.group(2)), m.group(3)]
        last = m.end()
    out.append(outside_code(html_text[last:]))
    return "".join(out)

"""Text made safe for the file it is written into: Python comments and Markdown.

Lesson texts (titles, notes, questions) come from files anyone can write. Written
into an exported script or notebook, they must stay text: a note holding
``"hello\\nimport os"`` must never become a line of code. Each format escapes
with its own rules here, after the one escaping of control and bidi characters
(:func:`tensorlab.core.files.safe_text.visible`, the transcript's too); strings inside JSON
(a notebook) are escaped by its writer.
"""

from __future__ import annotations

import re
import textwrap

from tensorlab.core.files.safe_text import visible

__all__ = ["comment_lines", "commented_code", "markdown_text", "visible"]

def comment_lines(text: str, width: int = 96, prefix: str = "# ") -> list[str]:
    """``text`` as Python comment lines: every line (after any line break) starts with ``prefix``.

    Lines are split wherever Python or any editor might see a line break, and
    long lines are wrapped; a blank line becomes a bare ``#``.
    """
    lines: list[str] = []
    for raw in text.splitlines() or [""]:
        line = visible(raw)
        if not line.strip():
            lines.append(prefix.rstrip())
            continue
        pieces = textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False,
                               replace_whitespace=False, drop_whitespace=True) or [line]
        lines += [prefix + piece for piece in pieces]
    return lines


def commented_code(code: str) -> list[str]:
    """Lines of code turned into comments as they are (indentation kept, nothing wrapped)."""
    return ["# " + visible(line) for line in code.splitlines()]


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~$&])")
_MD_LINE_START = re.compile(r"^(\s*)([-=]|\d+[.)])")


def markdown_text(text: str) -> str:
    """``text`` as Markdown that renders exactly these characters (no markup, no HTML, no math).

    Every Markdown, HTML and MathJax character is backslash-escaped; a line that
    would start a list, a heading underline or a rule is escaped at its start;
    line breaks are kept as Markdown line breaks within one paragraph.
    """
    lines = []
    for raw in text.splitlines():
        line = _MD_SPECIAL.sub(r"\\\1", visible(raw))
        line = _MD_LINE_START.sub(lambda m: m.group(1) + _escape_start(m.group(2)), line)
        lines.append(line)
    # A blank line would end the paragraph (and any HTML block around it): keep one paragraph.
    return "  \n".join(line if line.strip() else "&#8203;" for line in lines)


def _escape_start(token: str) -> str:
    if token[0].isdigit():
        return token[:-1] + "\\" + token[-1]
    return "\\" + token

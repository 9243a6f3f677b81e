"""Text made safe for the file it is written into: Python comments and Markdown.

Lesson texts (titles, notes, questions) come from files anyone can write. Written
into an exported script or notebook, they must stay text: a note holding
``"hello\\nimport os"`` must never become a line of code. Each format escapes
with its own rules here, after the one escaping of control and bidi characters
(:func:`tensorlab.core.files.safe_text.visible`, the transcript's too); strings inside JSON
(a notebook) are escaped by its writer.
"""

from __future__ import annotations

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


# Characters written as a numeric character reference, never as themselves: every ASCII punctuation
# character (Markdown's and HTML's syntax, the `:`, `.`, `/` and `@` of the links GFM makes from bare
# URLs and addresses, the `$` and `\\` of MathJax's delimiters). CommonMark never reads a reference as
# syntax, and Jupyter looks for math in the cell's source before Markdown runs: none is found there.
_MD_PUNCTUATION = frozenset(chr(code) for code in range(0x21, 0x7F) if not chr(code).isalnum())
# After Markdown, Jupyter's MathJax typesets the rendered page, and a math delimiter cannot span an HTML
# element: each `\\` and `$` in an element of its own is never read as the start of math.
_MD_ALONE = {"\\": "<span>&#92;</span>", "$": "<span>&#36;</span>"}


def markdown_text(text: str) -> str:
    """``text`` as Markdown that renders exactly these characters in Jupyter (no markup, HTML, link or math).

    Every ASCII punctuation character is a numeric character reference (``&#40;``), ``\\`` and ``$``
    each in a ``<span>`` of its own (MathJax runs on the rendered page too), spaces at the start or end
    of a line are references too (no code block, no line break); line breaks are kept as Markdown line
    breaks within one paragraph. Control and bidi characters are escaped first (:func:`visible`).
    """
    lines = []
    for raw in text.splitlines():
        line = visible(raw)
        body = line.strip(" \t")
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        trail = line[len(lead) + len(body):]
        lines.append(_references(lead) + "".join(_md_char(char) for char in body) + _references(trail))
    # A blank line would end the paragraph (and any HTML block around it): keep one paragraph.
    return "  \n".join(line if line.strip() else "&#8203;" for line in lines)


def _references(spaces: str) -> str:
    return "".join(f"&#{ord(char)};" for char in spaces)


def _md_char(char: str) -> str:
    if char in _MD_ALONE:
        return _MD_ALONE[char]
    if char in _MD_PUNCTUATION or char == "\t":
        return f"&#{ord(char)};"
    return char

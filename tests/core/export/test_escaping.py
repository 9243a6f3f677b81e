"""Issue #15, class 1: a note in a notebook renders as exactly its characters.

Jupyter looks for MathJax delimiters (`$`, `$$`, `\\(`, `\\[`, `\\begin{`) in a Markdown cell's source
before Markdown runs (JupyterLab's ``removeMath``), renders the rest as GitHub-flavoured Markdown
(bare URLs and addresses become links), and then MathJax typesets the rendered page, where a
delimiter cannot span an HTML element. Each is checked here: the source holds no delimiter and no
raw punctuation, the CommonMark rendering (markdown-it, the renderer nbconvert's Markdown follows)
shows exactly the characters, and in it every `$` and `\\` stands alone in an element.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from tensorlab.core.export.escaping import markdown_text, visible

# JupyterLab's removeMath (packages/rendermime/src/latex.ts): what it takes for math in a cell's source.
_JUPYTER_MATH = re.compile(r"(\$\$?|\\(?:begin|end)\{[a-z]*\*?\}|\\[{}$]|[{}]|@@\d+@@|\\\\(?:\(|\)|\[|\]))", re.I)

NOTES = [
    r"\(x^2\) and \[y\] and $a$ and $$b$$ and \begin{equation}c\end{equation}",
    r"\\(x\\) \$5 and \$6",
    "see https://example.com/a_b?c=1 or www.example.com or mail me@example.com",
    "<b>bold</b> <script>alert(1)</script> &amp; &#36; *em* _em_ `code` [l](u) ![i](u)",
    "# not a heading\n- not a list\n1. not a list\n> not a quote\n    not code\n---\n=== ",
    "a | b\n--|--\n1 | 2",
    "trailing spaces   \nline~~strike~~ {brace} @@1@@",
    "한국어 메모: $x$와 \\(y\\)",
]


class _Text(HTMLParser):
    """The text of rendered HTML, and every text run that holds a `$` or `\\` with something else."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.crowded: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)   # a <br /> is followed by the line break of the source, kept in the text

    def handle_data(self, data):
        self.parts.append(data)
        if ("$" in data or "\\" in data) and len(data.strip("\n")) > 1:
            self.crowded.append(data)


def _rendered(source: str) -> _Text:
    text = _Text()
    text.feed(MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(source))
    return text


def _shown(note: str) -> str:
    """What a note must show: its characters (control characters escaped), one line per line."""
    return "\n".join(visible(line) for line in note.splitlines())


@pytest.mark.parametrize("note", NOTES)
def test_a_note_renders_as_exactly_its_characters(note):
    source = markdown_text(note)
    assert not _JUPYTER_MATH.search(source.replace("<span>&#92;</span>", "").replace("<span>&#36;</span>", ""))
    assert "://" not in source and "www." not in source and "@" not in source
    rendered = _rendered(source)
    assert set(rendered.tags) <= {"p", "span", "br"}            # no link, heading, list, code, table, HTML
    shown = "".join(rendered.parts).strip("\n").replace("\u200b", "")
    assert [line.strip() for line in shown.split("\n")] == [line.strip() for line in _shown(note).split("\n")]
    assert rendered.crowded == []                                 # MathJax finds no delimiter in any text run


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab $\\()[]{}<>&#*_`!|~:/.@-=+1\n ")), max_size=40))
def test_any_mix_of_markdown_and_math_characters_renders_as_itself(note):
    source = markdown_text(note)
    rendered = _rendered(source)
    assert set(rendered.tags) <= {"p", "span", "br"}
    assert rendered.crowded == []
    shown = "".join(rendered.parts).replace("\u200b", "")
    expected = "\n".join(line.strip(" ") for line in _shown(note).split("\n")) if note.strip() else ""
    assert [line.strip(" ") for line in shown.strip("\n").split("\n")] == \
        [line for line in expected.strip("\n").split("\n")] or not note.strip()


def test_the_escapes_are_character_references_only():
    source = markdown_text("a$b\\c")
    assert source == "a<span>&#36;</span>b<span>&#92;</span>c"
    assert html.unescape(re.sub(r"</?span>", "", source)) == "a$b\\c"

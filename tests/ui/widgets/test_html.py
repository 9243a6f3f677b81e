"""The text panels' HTML helpers: escaped, code shown as code, a note's lines and paragraphs kept."""

from __future__ import annotations

from tensorlab.ui.widgets.html import note_html


def test_a_note_keeps_its_paragraphs_and_its_code_lines_with_their_indentation():
    # h21f (review r21b findings 5, 16): an opened file's comment note, paragraphs and code lines as written.
    html = note_html("Example of a `view`:\n\n    y = x.view(-1)\n    z = y * 2\n\nThen <y> shares memory.")
    assert html == ("Example of a <code>view</code>:<br><br><code>&nbsp;&nbsp;&nbsp;&nbsp;y = x.view(-1)</code><br>"
                    "<code>&nbsp;&nbsp;&nbsp;&nbsp;z = y * 2</code><br><br>Then &lt;y&gt; shares memory.")
    assert note_html("one `line`") == "one <code>line</code>"


def test_a_doctest_prompt_in_a_note_is_code_indented_or_not():
    # Review r21d: `# >>> x.shape` above a statement was drawn as prose.
    assert note_html(">>> x.shape") == "<code>&gt;&gt;&gt; x.shape</code>"
    assert note_html("Check it:\n>>> x.shape\ntorch.Size([3])").split("<br>")[:2] == [
        "Check it:", "<code>&gt;&gt;&gt; x.shape</code>"]
    assert note_html("Wait... then `y`") == "Wait... then <code>y</code>"

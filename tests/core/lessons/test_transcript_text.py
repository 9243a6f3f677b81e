"""The transcript's text: one escaping (control and bidi characters), the title on one line, the table's row text."""

from __future__ import annotations

import re

import pytest

from tensorlab.core.export import escaping
from tensorlab.core.files.safe_text import BIDI_CONTROLS, visible
from tensorlab.core.lessons.lesson import Lesson, find_lesson, parse_lesson
from tensorlab.core.lessons.tensor_rows import COLUMNS, cell_text, row_texts
from tensorlab.core.lessons.transcript import tensor_table, transcript
from tensorlab.core.session.session import Session

RLO = "\u202e"


def test_the_export_and_the_transcript_escape_with_the_one_function():
    assert escaping.visible is visible
    for char in sorted(BIDI_CONTROLS) + ["\x1b", "\x00", "\r", "\x85", "\u2028", "\u2029", "\x0b"]:
        assert char not in visible(f"a{char}b") and char not in visible(f"a{char}b", keep_line_breaks=True)
    assert visible("a\tb\nc") == "a\tb\\x0ac" and visible("a\tb\nc", keep_line_breaks=True) == "a\tb\nc"
    assert visible(f"x{RLO}y") == "x\\u202ey" and visible("\x1b[31m") == "\\x1b[31m"


def _run(lesson):
    session = Session()
    return [session.execute(s.statement) for s in lesson.steps]


def test_the_transcript_escapes_bidi_characters_everywhere():
    text = f'''
[lesson]
id = "bidi"
title = "Title {RLO}reversed"
summary = "Summary {RLO}reversed?"
[[step]]
code = "a = torch.ones(2)"
note = "A note {RLO}reversed"
[[step]]
code = 'print("{RLO}printed")'
'''.replace(RLO, "\\u202e")
    lesson = parse_lesson(text, "bidi.toml")
    assert RLO in lesson.title and RLO in lesson.steps[0].note
    for language in ("en", "ko"):
        out = transcript(lesson, "cpu", _run(lesson), language=language)
        assert RLO not in out
        assert out.count("\\u202e") == 5      # the title, summary, note, code and what it printed


def test_a_title_with_line_breaks_prints_on_one_line_and_fakes_no_step():
    step = find_lesson("inplace-on-a-leaf").steps[0]
    lesson = Lesson("t", "Innocent\n\n[1/1] import os\n  rm -rf /", (step,),
                    translations={"title_ko": "제목\n[1/1] 가짜"})
    for language in ("en", "ko"):
        out = transcript(lesson, "cpu", _run(lesson), language=language)
        headers = [line for line in out.splitlines() if re.match(r"\[\d+/\d+\]", line)]
        assert headers == [f"[1/1] {step.code}"]
        assert "\n" not in out.splitlines()[0] and "\\x0a" in out.splitlines()[0]


def test_the_transcript_prints_the_tensors_tables_row_texts():
    lesson = find_lesson("clone-keeps-the-graph")
    results = _run(lesson)
    snapshot = results[-1].snapshot
    table = tensor_table(snapshot, indent="").splitlines()
    assert table[0].split() == list(COLUMNS)
    for line, info in zip(table[1:], snapshot.tensors):
        cells = row_texts(info)
        position = 0
        for cell in cells:                      # each cell's text, in order, on the tensor's line
            found = line.find(cell, position)
            assert found >= 0, (cell, line)
            position = found + len(cell)


@pytest.mark.parametrize("column", COLUMNS)
def test_every_cell_is_one_line(column):
    lesson = find_lesson("inplace-on-a-leaf")
    for result in _run(lesson):
        for info in result.snapshot.tensors:
            text = cell_text(info, column)
            assert text == visible(text) and len(text) <= 60


def test_a_module_repr_prints_as_its_own_lines_each_escaped():
    """`tensorlab run` printed `Sequential(\\x0a  (0): Linear(…` (issue #19): a repr's lines are lines."""
    import torch

    text = '''
[lesson]
id = "reprs"
title = "Reprs"
[[step]]
code = "net = nn.Sequential(nn.Linear(2, 1), nn.ReLU())"
'''
    lesson = parse_lesson(text, "reprs.toml")
    out = transcript(lesson, "cpu", _run(lesson)).splitlines()
    expected = repr(torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.ReLU())).split("\n")
    start = next(i for i, line in enumerate(out) if line.startswith("  net = "))
    assert out[start] == f"  net = {expected[0]}"
    shown = out[start + 1:start + len(expected)]
    assert shown[-1].endswith("  (Sequential)") and "\\x0a" not in "\n".join(out)
    shown[-1] = shown[-1].removesuffix("  (Sequential)")
    assert [line.strip() for line in shown] == [e.strip() for e in expected[1:]]


def test_a_repr_line_with_control_or_bidi_characters_stays_escaped():
    from tensorlab.core.lessons.transcript import _repr_lines

    lines = _repr_lines(f"A(\n  b{RLO}c\x1b[31m\r\n)")
    assert lines == ["A(", "  b\\u202ec\\x1b[31m\\x0d", ")"]
    assert len(_repr_lines("\n".join(["x"] * 100))) == 12 and _repr_lines("\n".join(["x"] * 100))[-1] == "…"


def test_a_view_whose_is_leaf_torch_refuses_to_read_says_invalid_as_its_grad_fn_does():
    # Review r18n 4.2: after views-that-refuse-in-place's write under no_grad the table read is_leaf "None" for
    # a, b and v, while torch raises on `a.is_leaf` as on `a.grad_fn`.
    import torch

    lesson = find_lesson("views-that-refuse-in-place")
    x = torch.ones(4, requires_grad=True)
    y = x * 2
    a, _ = y.split(2)
    with torch.no_grad():
        y[2:].mul_(10)
    with pytest.raises(RuntimeError):
        a.is_leaf   # noqa: B018 - torch refuses to say
    for result in _run(lesson):
        info = result.snapshot.tensor("a")
        if info is not None and info.grad_fn == "Invalid":
            assert info.is_leaf is None and cell_text(info, "is_leaf") == "Invalid"
            break
    else:
        raise AssertionError("no step left a's grad_fn unreadable")

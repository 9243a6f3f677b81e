"""The code panel: statements wrap only between tokens, short ones never; "(yours)" in the margin (issue 17, item 4)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetrics
from PySide6.QtWidgets import QApplication

from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.ui.panels.code_view import (
    SHOWN_CHARACTERS,
    SHOWN_LINES,
    WHOLE_LINE_CHARACTERS,
    WHOLE_LINES,
    shown_statement,
    wrap_code,
)
from tensorlab.ui.widgets.text_zoom import mono_font
from tensorlab.ui.window.offscreen import isolated_window
from tests.ui.conftest import idle
from tests.ui.support import go, open_lesson, run_line

_NAME = re.compile(r"[A-Za-z0-9_]")


def _codes() -> list[str]:
    codes = {step.code for lesson in builtin_lessons() for step in lesson.steps}
    codes |= {"x = torch.ones(3, requires_grad=True)", "total.backward()", "y = x.detach()",
              "w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)", "z = (x * 2 + y ** 2).sum()"}
    return sorted(codes)


def _no_cut_inside_a_token(code: str, lines: list[str]) -> None:
    """Each break of ``code`` into ``lines`` is between two tokens of the statement as written."""
    assert "".join(line.strip() for line in lines).replace(" ", "") == code.replace(" ", ""), (code, lines)
    position = 0
    for line in lines[:-1]:
        content = line.strip()
        position = code.index(content, position) + len(content)
        if code[position] == " ":
            continue                                                   # at a space: between tokens
        before, after = code[position - 1], code[position]
        assert not (_NAME.match(before) and _NAME.match(after)), (code, lines)   # inside a name or number
        assert before != ".", (code, lines)                                      # `x.` / `detach()`


def test_wrapping_breaks_only_between_tokens_at_every_width(qapp):
    metrics = QFontMetrics(mono_font(24))
    char = metrics.horizontalAdvance("x")
    for code in _codes():
        for chars in (18, 20, 26, 34):   # the panel keeps room for 18 characters at least
            for line in code.split("\n"):   # a `with` block's lines wrap each on its own
                _no_cut_inside_a_token(line.strip(), wrap_code(line.strip(), metrics,
                                                               metrics.horizontalAdvance("x" * chars)))
    # The reported cuts: `requires_gra` / `d=True)` and `x.` / `detach()`.
    lines = wrap_code("x = torch.ones(3, requires_grad=True)", metrics, 28 * char)
    assert lines == ["x = torch.ones(3,", "    requires_grad=True)"], lines
    assert all("requires_grad" in line or "requires" not in line for line in lines), lines
    assert wrap_code("y = x.detach()", metrics, 20 * char) == ["y = x.detach()"]


def test_no_statement_of_20_characters_wraps_in_projector_mode_at_1024x768(window, qtbot):
    window.set_presentation(True)
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.width() == 1024, timeout=5_000)
    view = window.code_view
    line_height = QFontMetrics(view.font()).height()
    checked = 0
    for lesson in builtin_lessons():
        open_lesson(window, qtbot, lesson.id)
        qtbot.wait(10)
        for index, step in enumerate(window.controller.state.program):
            rows = round((view.line_rect(index).height() - 6) / line_height)
            if len(step.code) <= 20 and "\n" not in step.code:
                assert rows == 1, (lesson.id, step.code, view.width())
                checked += 1
    assert checked > 20


def test_the_yours_mark_is_in_the_right_margin_beside_the_statement(window, qtbot):
    window.set_presentation(True)
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.width() == 1024, timeout=5_000)
    open_lesson(window, qtbot, "scratchpad")
    run_line(window, qtbot, "x = torch.ones(3, requires_grad=True)")
    idle(qtbot, window)
    view = window.code_view
    qtbot.wait(20)
    rect = view.line_rect(0)
    assert rect.height() > QFontMetrics(view.font()).height() * 1.5    # it wraps at this size: the case reported
    image = view.viewport().grab(rect).toImage()
    purple, code, purple_rows = [], [], []
    for x in range(image.width()):
        for y in range(image.height()):
            colour = QColor(image.pixel(x, y))
            if colour.red() > 70 and colour.blue() > 110 and colour.green() < 80:   # the mark's purple
                purple.append(x)
                purple_rows.append(y)
            elif colour.lightness() < 60:                                           # the statement's black
                code.append(x)
    assert purple and code
    assert min(purple) > max(code), (min(purple), max(code))   # right of every line of the statement
    assert max(purple) >= image.width() - 12, (max(purple), image.width())   # in the right margin, not after line 1
    # In the margin's smaller font: it does not read as a word of the statement.
    code_glyphs = QFontMetrics(view.font()).boundingRect("(yours)").height()
    assert max(purple_rows) - min(purple_rows) + 1 <= 0.75 * code_glyphs
    assert view.item(0).data(Qt.ItemDataRole.AccessibleTextRole).endswith("requires_grad=True)")


def test_a_short_statement_that_fits_never_wraps_and_one_that_does_not_wraps_instead_of_being_cut(qapp):
    metrics = QFontMetrics(mono_font(24))
    def chars(n: int) -> int:
        return metrics.horizontalAdvance("x" * n)

    # The sgd step's `with` body: 16 characters and 4 of indentation, whole where 20 fit.
    assert wrap_code("with torch.no_grad():\n    w -= lr * w.grad", metrics, chars(20))[-1] == "    w -= lr * w.grad"
    assert wrap_code("y.sum().backward()", metrics, chars(18)) == ["y.sum().backward()"]
    assert len(wrap_code("z = (x * 2 + y ** 2).sum()", metrics, chars(18))) == 2    # 26 characters: it may
    # Review r17c 22: after Ctrl+= a narrow panel cut `c = t.contiguous()` at its edge (kept whole, or wrapped to
    # a floor wider than the panel). Every line now fits, broken between tokens.
    for code in ("c = t.contiguous()", "w = m.reshape(3, 2)", "    w -= lr * w.grad"):
        lines = wrap_code(code, metrics, chars(14))
        assert len(lines) > 1 and all(metrics.horizontalAdvance(line) <= chars(14) for line in lines), lines
        _no_cut_inside_a_token(code.strip(), lines)


def test_a_short_subscript_or_call_is_never_broken_into_where_another_break_will_do(qapp):
    # Review r17c 14 and 31: `model[` / `0].weight` / `.requires_grad_(` / `False)` and `net(` / `x).sum()`.
    metrics = QFontMetrics(mono_font(24))
    def chars(n: int) -> int:
        return metrics.horizontalAdvance("x" * n)

    lines = wrap_code("model[0].weight.requires_grad_(False)", metrics, chars(28))
    assert lines == ["model[0].weight", "    .requires_grad_(False)"], lines
    for width in range(16, 36):   # where nothing else fits, a short call may break; `model[` / `0]` never
        lines = wrap_code("model[0].weight.requires_grad_(False)", metrics, chars(width))
        assert not any(line.rstrip().endswith("model[") for line in lines), lines
    lines = wrap_code("loss = net(x).sum().backward()", metrics, chars(16))
    assert not any(line.rstrip().endswith("net(") for line in lines), lines
    assert "net(x)" in "".join(line.strip() for line in lines)
    # Attributes are part of the name: a break comes before a method call's dot only.
    lines = wrap_code("y = net[1].weight.grad.clone()", metrics, chars(22))
    assert lines[0].endswith("net[1].weight.grad") or lines[0] == "y =", lines


def test_a_wrapped_line_of_a_block_continues_under_itself(qapp):
    # Seen with a refused `class Net` shown whole (review r21b, finding 7): its `return self.fc2(...)` continued
    # left of the `return`, as if it were the next statement of the class.
    metrics = QFontMetrics(mono_font(24))
    lines = wrap_code("        return self.fc2(F.relu(self.fc1(x)))", metrics, metrics.horizontalAdvance("x" * 30))
    assert len(lines) > 1 and lines[0] == "        return"
    assert all(line.startswith(" " * 12) and line[12] != " " for line in lines[1:]), lines
    # Where a deep block's indentation leaves no room, it continues as a statement does (and always ends).
    deep = " " * 40 + "loss = F.mse_loss(net(xb), yb) + F.mse_loss(net(xb), yb)"
    lines = wrap_code(deep, metrics, metrics.horizontalAdvance("x" * 20))
    assert "".join(line.strip() for line in lines).replace(" ", "") == deep.replace(" ", "")


def _current_in_view(view) -> str:
    index = view.position - 1
    if index < 0:
        return ""
    rect = view.line_rect(index)
    inside = view.viewport().rect()
    if rect.top() < 0 or (rect.bottom() > inside.bottom() and rect.height() <= inside.height()):
        return f"line {index + 1} at {rect.top()}..{rect.bottom()} in {inside.height()}"
    return ""


@pytest.mark.parametrize("size, projector", [((1024, 768), True), ((1280, 720), False)])
def test_the_current_line_and_all_its_rows_are_in_view_at_every_step(qtbot, size, projector):
    bad = []
    with isolated_window(lesson="a-hand-written-sgd-step", size=size) as window:
        qtbot.addWidget(window)
        window.set_presentation(projector)
        QApplication.processEvents()
        for lesson_id in ("a-hand-written-sgd-step", "what-in-place-means", "saved-tensors", "making-a-new-leaf"):
            open_lesson(window, qtbot, lesson_id)
            for position in range(len(window.controller.state.program) + 1):
                go(window, qtbot, position)
                QApplication.processEvents()
                problem = _current_in_view(window.code_view)
                if problem:
                    bad.append(f"{lesson_id} step {position}: {problem}")
    assert bad == []


def test_the_sgd_steps_with_body_stays_on_one_row_at_1024x768_projector(qtbot):
    with isolated_window(lesson="a-hand-written-sgd-step", size=(1024, 768)) as window:
        qtbot.addWidget(window)
        window.set_presentation(True)
        QApplication.processEvents()
        view = window.code_view
        program = window.controller.state.program
        index = next(i for i, step in enumerate(program) if "with" in step.code and "w -= lr * w.grad" in step.code)
        delegate = view.itemDelegate()
        _, lines = delegate._layout(view.font(), window.controller.state.program[index].code, False)
        assert "    w -= lr * w.grad" in lines or "w -= lr * w.grad" in [line.strip() for line in lines], lines
        assert all(line.strip() != "w.grad" for line in lines), lines


def test_the_outputs_echo_keeps_a_short_statement_whole_and_breaks_a_long_one_between_tokens(qapp):
    from tensorlab.ui.panels.output_view import _echo_line
    from tensorlab.ui.widgets.html import ZWSP

    assert _echo_line("y.sum().backward()") == "<span style='white-space:pre'>y.sum().backward()</span>"
    long = _echo_line("y = x.detach().clone().requires_grad_(True)")
    assert long.replace(ZWSP, "") == "y = x.detach().clone().requires_grad_(True)"
    assert "backward(" + ZWSP + ")" not in long and "x" + ZWSP + ".detach()" in long


class _CountingMetrics:
    """A font's metrics that count the characters measured: the work wrapping does, not its time."""

    def __init__(self, metrics: QFontMetrics) -> None:
        self.metrics = metrics
        self.measured = 0

    def horizontalAdvance(self, text: str) -> int:  # noqa: N802 (Qt's name)
        self.measured += len(text)
        return self.metrics.horizontalAdvance(text)


@pytest.mark.parametrize("code", [
    "x = " + "[" * 30_000 + "]" * 30_000,                                     # a pasted nested literal
    "x = torch.tensor([" + ",".join(["1.0"] * 8_000) + "])",                  # a pasted data literal
    'y = f"a" + str([' + ",".join(["1"] * 10_000) + "])",                     # a long f-string line
])
def test_wrapping_a_long_statement_is_near_linear_and_keeps_every_character(qapp, code):
    # The window froze on such a line (issue #21 review): every piece cut off it measured the whole rest
    # again. The work is counted as characters measured, bounded by a multiple of the line's length.
    metrics = _CountingMetrics(QFontMetrics(mono_font(16)))
    width = metrics.metrics.horizontalAdvance("x" * 40)
    lines = wrap_code(code, metrics, width)   # type: ignore[arg-type]
    assert "".join(line.strip() for line in lines).replace(" ", "") == code.replace(" ", "")
    assert all(metrics.metrics.horizontalAdvance(line) <= width for line in lines)
    assert metrics.measured < 40 * len(code)


def test_a_refused_statement_is_shown_by_whole_lines_with_the_rest_counted(qapp):
    # Issue #21 review r21b, finding 7: a `for xb, yb in loader:` body ended "… (35 more characters)".
    code = "x = " + "[" * 300_000 + "]" * 300_000
    shown, left_out = shown_statement(code)
    assert shown.startswith("x = [[[") and len(shown) < SHOWN_CHARACTERS + 40 and left_out == 0
    assert shown.endswith(f"… ({len(code) - SHOWN_CHARACTERS:,} more characters)") or \
        shown.endswith(f"… ({len(code) - SHOWN_CHARACTERS} more characters)")
    assert len(shown_statement(code, whole=True)[0]) < WHOLE_LINE_CHARACTERS + 40   # a click: more, still bounded
    loop = "for xb, yb in loader:\n    opt.zero_grad()\n    loss = F.mse_loss(net(xb), yb)\n" \
           "    loss.backward()\n    opt.step()"
    assert shown_statement(loop) == (loop, 0)                                      # whole, never cut
    assert shown_statement("if True:\n    v.add_(1)") == ("if True:\n    v.add_(1)", 0)
    many = "\n".join(f"    a{i} = {i}" for i in range(SHOWN_LINES))
    assert shown_statement(many) == (many, 0)
    block = "class Net(nn.Module):\n" + "\n".join(f"    a{i} = nn.Linear({i}, 2)" for i in range(40))
    shown, left_out = shown_statement(block)
    assert shown.split("\n") == block.split("\n")[:SHOWN_LINES - 2] and left_out == 41 - (SHOWN_LINES - 2)
    assert shown_statement(block, whole=True) == (block, 0)
    huge = "\n".join(f"    a{i} = {i}" for i in range(5_000))                     # a click never shows 5,000 lines
    shown, left_out = shown_statement(huge, whole=True)
    assert shown.count("\n") + 1 + left_out == 5_000 and shown.count("\n") < WHOLE_LINES


# A learner's training script (review r21b's trainmain.py): a class, a def, a DataLoader, a loop over it, and
# the steps that depend on them; the dependents' reasons name file lines ("depends on line 31").
TRAINMAIN = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
import torch.optim as optim


class Net(nn.Module):
""" + "".join(f"    fc{i} = nn.Linear(4, 8)\n" for i in range(20)) + """

X = torch.randn(32, 4)
Y = torch.randn(32, 1)
ds = TensorDataset(X, Y)
loader = DataLoader(ds, batch_size=8, shuffle=True)

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = optim.SGD(net.parameters(), lr=0.01)

for xb, yb in loader:
    opt.zero_grad()
    loss = F.mse_loss(net(xb), yb)
    loss.backward()
    opt.step()

out = net(X)
"""


@pytest.mark.parametrize("size, projector", [((1024, 768), True), ((1024, 768), False), ((1280, 720), False)])
def test_each_refused_row_says_its_file_line_and_shows_a_long_block_whole_on_a_click(qtbot, tmp_path, size,
                                                                                     projector):
    # Issue #21 review r21b, findings 6 and 7.
    from tensorlab.ui.panels.code_view import _REFUSED_ROLE

    path = tmp_path / "trainmain.py"
    path.write_text(TRAINMAIN, encoding="utf-8")
    lines = TRAINMAIN.splitlines()

    def line(start: str) -> int:
        return next(n for n, text in enumerate(lines, 1) if text.startswith(start))

    loop, loader = line("for xb"), line("loader =")
    with isolated_window(size=size) as window:
        qtbot.addWidget(window)
        window.set_presentation(projector)
        assert window.open_lesson_file(path)
        idle(qtbot, window)
        QApplication.processEvents()
        view = window.code_view
        state = window.controller.state
        refused = {view.item(i).data(_REFUSED_ROLE)[0]: i for i in range(view.count())
                   if view.item(i).data(_REFUSED_ROLE) is not None}
        # Each greyed row is labelled with its own file line, the one the other rows' reasons name.
        assert set(refused) == {f"line {line(start)} of the file" for start in (
            "from torch.utils", "class Net", "ds =", "loader =", "for xb", "out =")}, refused
        for where, row in refused.items():
            _where, code, _more, reason = view.item(row).data(_REFUSED_ROLE)
            number = int(where.split()[1])
            assert code.split("\n")[0] == lines[number - 1]
        text = view.toPlainText()
        assert f"[line {loader} of the file] ⊘ loader = DataLoader(ds, batch_size=8, shuffle=True)" in text
        assert f"[line {loop} of the file] ⊘ for xb, yb in loader:" in text
        assert f"depends on line {loader} of the file" in text
        # Rows that run keep their step numbers (1 to 8, refused rows between).
        numbered = [view.item(i).data(Qt.ItemDataRole.AccessibleTextRole) for i in range(view.count())
                    if view.item(i).data(_REFUSED_ROLE) is None]
        assert numbered == [f"{n}: {step.code}" for n, step in enumerate(state.program, 1)]
        # On screen: every label line fits the panel (nothing drawn past its right edge), beside a margin that
        # leaves the code its room.
        delegate = view.itemDelegate()
        fonts = delegate._fonts(view.font())
        width = view.viewport().width()
        assert fonts.indent < width / 3, (fonts.indent, width)
        for where, row in refused.items():
            head, code_lines, more, reason = delegate.refused_layout(view.font(), view.item(row).data(_REFUSED_ROLE))
            assert head == [f"⊘ {where}"], head
            assert all(4 + fonts.label_metrics.horizontalAdvance(line) <= width for line in head)
            assert fonts.label.pixelSize() >= fonts.margin.pixelSize()    # as readable as the step numbers
            assert all(fonts.indent + fonts.metrics.horizontalAdvance(line) <= width + 2 for line in code_lines)
        # The loop over the loader: whole (its five lines), never cut in a statement.
        _, shown, more, _ = view.item(refused[f"line {loop} of the file"]).data(_REFUSED_ROLE)
        assert shown == "\n".join(lines[loop - 1:loop + 4]) and more == "" and "more characters" not in text
        # The class: its first lines, the rest counted; a click shows it whole (the panel scrolls), another less.
        row = refused["line 8 of the file"]
        _, short, more, _ = view.item(row).data(_REFUSED_ROLE)
        assert short.split("\n") == lines[7:7 + SHOWN_LINES - 2] and more == "… 11 more lines (click to show them)"
        before = view.visualItemRect(view.item(row)).height()
        position = state.position
        view.itemClicked.emit(view.item(row))
        idle(qtbot, window)
        _, whole, more, _ = view.item(row).data(_REFUSED_ROLE)
        assert whole == "\n".join(lines[7:28]) and more == "(click to show less)"
        assert view.visualItemRect(view.item(row)).height() > before + 8 * fonts.metrics.height()
        assert window.controller.state.position == position          # never a position
        view.itemClicked.emit(view.item(row))
        idle(qtbot, window)
        assert view.item(row).data(_REFUSED_ROLE)[1] == short
        assert view.visualItemRect(view.item(row)).height() == before


def test_after_following_the_current_line_no_statement_is_cut_at_the_panels_top(qtbot, settings):
    # Review r17c 2: after the Code panel scrolled, its top row was `lr=0.25)` or `requires_grad=True)`, the tail
    # of a wrapped statement whose first line sat above the panel.
    from tests.ui.support import fresh_window, go

    window = fresh_window(qtbot, settings, (1280, 720))
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    view = window.code_view
    bar = view.verticalScrollBar()
    checked = 0
    for position in range(1, len(window.controller.state.program) + 1):
        go(window, qtbot, position)
        qtbot.wait(10)
        if bar.value() in (bar.minimum(), bar.maximum()):
            continue
        tops = {view.visualItemRect(view.item(row)).top() for row in range(view.count())}
        assert 0 in tops, (position, sorted(tops))   # the panel's top edge is a statement's top
        checked += 1
    assert checked >= 3
    window.close()


@pytest.mark.parametrize("size,projector", [((1024, 768), False), ((1280, 720), True)])
def test_the_code_panel_shows_whole_lines_only_at_its_bottom(qtbot, settings, size, projector):
    # Issue 17 (round 2): the Code panel's bottom line could be half cut (`opt.step()`'s top half at 1024x768).
    from PySide6.QtGui import QColor, QFontMetrics, QPalette

    from tests.ui.support import fresh_window, go, open_lesson

    window = fresh_window(qtbot, settings, size, projector)
    open_lesson(window, qtbot, "what-step-and-zero-grad-do")
    go(window, qtbot, 6)
    qtbot.wait(30)
    code = window.code_view
    viewport = code.viewport()
    bar = code.verticalScrollBar()
    line = QFontMetrics(code.font()).height()
    assert bar.maximum() > 0   # the program is taller than the panel
    # Scrolled (as a user scrolls) so that the bottom edge cuts a line of text in half, for each place tried.
    tried = 0
    for value in range(bar.minimum(), bar.maximum() + 1, max(1, line // 3)):
        bar.setValue(value)
        qtbot.wait(5)
        height = viewport.height()
        crossing = [code.visualItemRect(code.item(r)) for r in range(code.count())
                    if code.visualItemRect(code.item(r)).top() < height <= code.visualItemRect(code.item(r)).bottom()]
        if not crossing:
            continue
        rect = crossing[0]
        offset = (height - rect.top() - 3) % line
        if not (3 < offset < line - 3) or height - rect.top() - 3 >= rect.height() - 6:
            continue   # the edge cuts no row of text in its middle here
        tried += 1
        image = viewport.grab().toImage()
        base = code.palette().color(QPalette.ColorRole.Base).rgb()
        # The cut row shows nothing (covered from its top, whatever the line's highlight), and the rows above it do.
        top = height - offset
        for y in range(top + 1, min(height, image.height())):
            assert all(image.pixel(x, y) == base for x in range(image.width())), (value, y, top, height)
        assert any(image.pixel(x, y) != base and image.pixel(x, y) != QColor("#fff3c4").rgb()
                   for y in range(max(0, top - line), top) for x in range(image.width())), value
    assert tried
    window.close()


def test_a_short_bracket_is_not_broken_into_while_a_break_outside_it_will_do(qapp):
    # Review r17o finding 1: `(w * w).sum().backward()` read `(w *` / `w).sum()` / `.backward()`.
    metrics = QFontMetrics(mono_font(24))
    for chars in (14, 16, 18, 20):
        lines = wrap_code("(w * w).sum().backward()", metrics, metrics.horizontalAdvance("x" * chars))
        assert lines == ["(w * w).sum()", "    .backward()"] or lines == ["(w * w).sum()", "  .backward()"], lines
    lines = wrap_code("loss = (w * w).sum()", metrics, metrics.horizontalAdvance("x" * 16))
    assert lines[0] == "loss =", lines


@pytest.mark.parametrize("code_width", [350, 330])
def test_short_statements_keep_one_line_in_a_narrow_projector_code_panel(qtbot, settings, code_width):
    # Review r17o finding 1: under X at 1024x768 projector the Code dock was about 350 px wide, and
    # `x = torch.arange(6.)` wrapped as `x =` / `torch.arange(6.)`. The font fits the panel, never below 80%.
    from tests.ui.support import fresh_window

    window = fresh_window(qtbot, settings, (1024, 768), projector=True)
    view = window.code_view
    dock = window.findChild(type(view.parentWidget()), "codeDock") or view.parentWidget()
    window.resizeDocks([dock], [code_width], Qt.Orientation.Horizontal)
    QApplication.processEvents()
    assert abs(view.width() - code_width) < 40, view.width()
    checked = 0
    for lesson in builtin_lessons():
        open_lesson(window, qtbot, lesson.id)
        qtbot.wait(10)
        line_height = QFontMetrics(view.font()).height()
        assert view.font().pixelSize() >= 19, view.font().pixelSize()   # 80% of the projector's 24 px
        for index, step in enumerate(window.controller.state.program):
            if len(step.code) <= 20 and "\n" not in step.code:
                rows = round((view.line_rect(index).height() - 6) / line_height)
                assert rows == 1, (lesson.id, step.code, view.width(), view.font().pixelSize())
                checked += 1
    assert checked > 20
    window.close()


def test_a_short_line_that_fits_at_80_percent_of_the_font_keeps_one_line_in_projector_mode(window, qtbot):
    """Review r17o item 4: `with torch.no_grad():` (21 characters) wrapped at 1024x768 projector while a
    20-character statement kept its line: every line the panel can hold at 80% of its font keeps one line."""
    from tensorlab.ui.panels.code_view import FIT_FLOOR, _Fonts
    from tensorlab.ui.widgets.text_zoom import MIN_PX, mono_font, px

    window.set_presentation(True)
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.width() == 1024, timeout=5_000)
    view = window.code_view
    checked = 0
    for lesson in builtin_lessons():
        open_lesson(window, qtbot, lesson.id)
        qtbot.wait(10)
        floor = _Fonts(mono_font(max(MIN_PX, round(px(12, view._scale) * FIT_FLOOR))))
        room = view.width() - 2 * view.frameWidth() - view.verticalScrollBar().sizeHint().width()
        line_height = QFontMetrics(view.font()).height()
        for index, step in enumerate(window.controller.state.program):
            lines = step.code.split("\n")
            # (a row's margins: the marker and number column, 6 px; the bold current line is the widest)
            if len(lines) > 3 or not all(floor.indent + 6 + floor.bold_metrics.horizontalAdvance(line) <= room
                                         for line in lines):
                continue
            rows = round((view.line_rect(index).height() - 6) / line_height)
            assert rows == len(lines), (lesson.id, step.code, view.width(), view.font().pixelSize())
            checked += "with torch.no_grad():" in step.code
    assert checked >= 1

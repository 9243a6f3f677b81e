"""The Output panel says who raised a step's error, and TensorLab's own texts in the window's language."""

from __future__ import annotations

import pytest

from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.core.session.session import Session
from tensorlab.ui.panels.output_view import OutputView
from tensorlab.ui.widgets import i18n

# TensorLab's own refusals (a type check at run time, the element limit) and torch's own error.
REFUSED_TYPE = "x = torch.ones(3)\nf = x.is_floating_point"
REFUSED_LIMIT = "z = torch.ones(10**4, 1) + torch.ones(1, 10**5)"
TORCH_ERROR = "x = torch.ones(3)\ny = x.view(5, 5)"


@pytest.fixture(autouse=True)
def back_to_english():
    yield
    i18n.set_language("en")


def _last_error(code: str) -> StepResult:
    """The result of the last line of ``code``, run as the worker runs it (a real session)."""
    session = Session()
    result = None
    for line in code.splitlines():
        result = session.execute(parse_one(line, session.limits))
    assert result is not None and result.error is not None
    return result


def _shown(qtbot, result: StepResult) -> str:
    view = OutputView()
    qtbot.addWidget(view)
    view.show_result(result)
    return view.toPlainText()


@pytest.mark.parametrize("code, kind", [(REFUSED_TYPE, "TensorLabError"), (REFUSED_LIMIT, "LimitError")])
def test_tensorlabs_own_refusal_is_never_shown_as_torchs(qtbot, code, kind):
    result = _last_error(code)
    assert result.error.type == kind and result.error.refused
    text = _shown(qtbot, result)
    assert "torch raised" not in text
    assert f"TensorLab refused this ({kind})" in text


def test_torchs_own_error_says_torch_raised(qtbot):
    result = _last_error(TORCH_ERROR)
    assert not result.error.refused
    text = _shown(qtbot, result)
    assert "torch raised RuntimeError" in text and "TensorLab refused" not in text
    assert "shape '[5, 5]' is invalid" in text   # torch's own words, as torch wrote them


def test_a_time_limit_or_crash_is_tensorlab_stopping_the_step(qtbot):
    error = ErrorInfo("WorkerTimeout", "the step ran longer than 3 s")
    text = _shown(qtbot, StepResult(0, "x = 1", error, (), "", None, Snapshot((), (), ())))
    assert "TensorLab stopped this step (WorkerTimeout)" in text and "torch raised" not in text


@pytest.mark.parametrize("code", [REFUSED_TYPE, REFUSED_LIMIT])
def test_a_korean_window_shows_tensorlabs_refusal_in_korean(qtbot, code):
    result = _last_error(code)
    own = result.error.own
    assert own is not None   # the worker sends TensorLab's messages as a key and its parameters
    assert i18n.set_language("ko")
    text = _shown(qtbot, result)
    assert own.render("ko") in text and own.render("en") not in text
    assert "TensorLab이 이것을 거부했습니다" in text


def test_a_printed_matrix_keeps_its_rows_whole_and_scrolls_sideways(qtbot):
    # A narrow panel broke a printed matrix into one value per line (its rows lost): each row stays the
    # line torch printed, the panel scrolls sideways, and it reads (and copies) as torch printed it.
    import torch
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.panels.output_view import unwrap_columns, wrap_columns
    from tensorlab.ui.widgets.html import ZWSP
    session = Session()
    session.execute(parse_one("x = torch.arange(24.0).reshape(4, 6) * 1000.5", session.limits))
    result = session.execute(parse_one("print(x)", session.limits))
    printed = str(torch.arange(24.0).reshape(4, 6) * 1000.5)
    assert result.output.rstrip("\n") == printed
    view = OutputView()
    qtbot.addWidget(view)
    view.resize(260, 400)
    view.show()
    QApplication.processEvents()
    view.show_result(result)
    QApplication.processEvents()
    assert view.horizontalScrollBar().maximum() > 0          # the rows are wider than the panel: it scrolls
    shown = super(OutputView, view).toPlainText().replace(ZWSP, "")
    assert printed in shown                                   # every row the one line torch printed
    assert printed in view.toPlainText()
    for width in (12, 30, 47, 80):
        assert wrap_columns(printed, width) == printed
        assert unwrap_columns(wrap_columns(printed, width)) == printed


def test_a_single_long_row_wraps_keeping_two_values_or_more_per_line(qtbot):
    import torch

    from tensorlab.ui.panels.output_view import unwrap_columns, wrap_columns
    from tensorlab.ui.widgets.html import ZWSP
    printed = str(torch.arange(10.0) * 1000.5)
    for width in (20, 30, 47):
        wrapped = wrap_columns(printed, width)
        assert unwrap_columns(wrapped) == printed
        lines = wrapped.replace(ZWSP, "").split("\n")
        assert len(lines) > 1 and all(len(line) <= width for line in lines), lines
        if width >= 30:   # at least two values on each line but the last where two fit
            assert all(line.count(".") >= 2 for line in lines[:-1]), lines
        else:   # else one a line (review r17o 8: left whole, most of it was off the panel's right)
            assert all(line.count(".") == 1 for line in lines), lines


@pytest.mark.parametrize(("lesson", "position", "size"), [("views-share-storage", 8, (1024, 768)),
                                                          ("saved-tensors", 4, (1280, 720))])
def test_a_printed_tensor_in_a_narrow_projector_output_is_readable_whole(qtbot, settings, lesson, position, size):
    # Review r17o finding 8: at views-share-storage's End (1024x768 projector) `print(x)` showed
    # `tensor([  0., 100.,` and a scroll bar, the `-1.` the step is about off the right; saved-tensors step 4 cut
    # `→ tensor([3., 3., 3.], grad`. Each line of it fits the panel, broken only after a `,`, as torch printed it.
    import re

    from PySide6.QtGui import QFontMetricsF

    from tensorlab.ui.panels.output_view import unwrap_columns
    from tensorlab.ui.widgets.html import ZWSP
    from tensorlab.ui.widgets.text_zoom import mono_font
    from tests.ui.support import fresh_window, go, open_lesson

    window = fresh_window(qtbot, settings, size, projector=True)
    open_lesson(window, qtbot, lesson)
    for step in range(1, position + 1):
        go(window, qtbot, step)
    qtbot.wait(30)
    view = window.output_view
    result = window.controller.state.last
    printed = (result.output.rstrip("\n") if result.output else "→ " + result.value)
    assert "tensor(" in printed
    shown = super(type(view), view).toPlainText()
    assert unwrap_columns(printed) in view.toPlainText()
    assert view.horizontalScrollBar().maximum() == 0, shown   # nothing off the right
    metrics = QFontMetricsF(mono_font(view.font().pixelSize()))
    for line in shown.replace(ZWSP, "").split("\n"):
        if "tensor(" in line or line.startswith(" "):
            assert metrics.horizontalAdvance(line) <= view.viewport().width(), (line, view.viewport().width())
    # every number whole: the shown lines, joined, hold each of torch's values as printed
    for number in re.findall(r"-?\d+\.\d*", printed):
        assert number in shown
    window.close()


def test_two_printed_tensors_break_between_the_values_never_inside_a_row(qtbot, settings):
    """Review r17o item 5: `print(a, r)` at 1920x1080 projector showed `tensor([5., 2., 3.]) tensor([[1., 2.,`
    over `3.],`: the line breaks between the two values, each of r's rows stays one line, under each other."""
    import torch
    from PySide6.QtGui import QFontMetricsF

    from tensorlab.ui.panels.output_view import unwrap_columns
    from tensorlab.ui.widgets.html import ZWSP
    from tensorlab.ui.widgets.text_zoom import mono_font
    from tensorlab.ui.window.build import first_size
    from tests.ui.support import fresh_window, go, open_lesson

    # (The window a 1920x1080 screen gives under X, in its frame, as the review drove it.)
    window = fresh_window(qtbot, settings, first_size(1920, 1080), projector=True)
    open_lesson(window, qtbot, "expand-is-not-repeat")
    go(window, qtbot, len(window.controller.state.program))
    qtbot.wait(30)
    view = window.output_view
    a = torch.tensor([7., 7., 7.])   # after e.fill_(7)
    r = torch.tensor([1., 2., 3.]).repeat(3, 1)
    printed = f"{a} {r}"
    assert window.controller.state.last.output.rstrip("\n") == printed   # what torch printed
    assert unwrap_columns(printed) in view.toPlainText()
    lines = super(type(view), view).toPlainText().replace(ZWSP, "").split("\n")
    assert str(a) in lines and str(r).split("\n")[0] in lines, lines
    rows = [line for line in lines if line.strip().startswith("[") or "[[" in line]
    assert [line.strip(" ,])").lstrip("tensor([") for line in rows] == ["1., 2., 3."] * 3, rows
    metrics = QFontMetricsF(mono_font(view.font().pixelSize()))
    assert all(metrics.horizontalAdvance(line) <= view.viewport().width() for line in lines), lines
    window.close()


def test_a_printed_module_wraps_at_its_spaces_and_reads_as_printed():
    # freezing-no-grad-and-eval step 4 at 1280x720 projector: `model.eval()`'s value,
    # `(0): Linear(in_features=2, out_features=1, bias=True)`, was cut at the panel's right with a scroll bar.
    import torch

    from tensorlab.ui.panels.output_view import unwrap_columns, wrap_columns
    from tensorlab.ui.widgets.html import ZWSP
    printed = "→ " + repr(torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Dropout(), torch.nn.BatchNorm1d(3)))
    for width in (14, 18, 20, 26, 40):   # (14, 18: `Linear(in_features=2,` is cut after its "(")
        wrapped = wrap_columns(printed, width)
        assert unwrap_columns(wrapped) == printed
        lines = wrapped.replace(ZWSP, "").split("\n")
        # each line fits, or is one word the panel cannot hold (it scrolls sideways)
        assert all(len(line) <= width or " " not in line.strip() for line in lines), (width, lines)
        assert any(line.strip().startswith(("in_features=2,", "Linear(in_features=2,", "(0): Linear(in_features=2,"))
                   for line in lines), lines   # cut only after a "("
    # A tensor's values keep the rules above: a matrix row stays whole.
    matrix = str(torch.arange(24.0).reshape(4, 6) * 1000.5)
    assert wrap_columns(matrix, 20) == matrix

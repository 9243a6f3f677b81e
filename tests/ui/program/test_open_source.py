"""Lesson → Open Python file or notebook… (issue #21): the file opens as its own program, the Code panel
shows what TensorLab does not run greyed with the reason (in words and on hover), the player never lands
on it, and the file's program comes back after a restart, filed under its own path."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QFileDialog

from tensorlab.ui.panels.code_view import _REFUSED_ROLE
from tensorlab.ui.window.build import build_window
from tests.ui.conftest import idle
from tests.ui.support import go, run_line

SCRIPT = '''\
import torch
import torch.nn as nn
import torch.optim as optim
import numpy as np

# one layer
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.5)
x = torch.ones(4, 2)


def loss_fn(out):
    return (out ** 2).mean()


opt.zero_grad()
loss = (model(x) ** 2).mean()
extra = loss_fn(model(x))
loss.backward()
opt.step()
# the loss, said
print(f"{loss.item()}")
'''


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "train.py"
    path.write_text(SCRIPT, encoding="utf-8")
    return path


def _opened(window, qtbot, tmp_path: Path, name: str, text: str) -> Path:
    """``text`` written as the learner's file ``name`` and opened in ``window``, the worker done with it."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert window.open_lesson_file(path)
    idle(qtbot, window)
    return path


def _refused_rows(view):
    return [view.item(i) for i in range(view.count()) if view.item(i).data(_REFUSED_ROLE) is not None]


def test_open_a_python_file_step_it_and_see_the_refused_lines_greyed_with_why(window, qtbot, tmp_path, monkeypatch):
    path = _write(tmp_path)
    asked = {}

    def choose(parent, title, folder, filter_text):
        asked["filter"] = filter_text
        return str(path), filter_text

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(choose))
    window.commands.open_source.trigger()            # Lesson → Open Python file or notebook…
    idle(qtbot, window)
    assert "*.py" in asked["filter"] and "*.ipynb" in asked["filter"]
    state = window.controller.state
    assert state.lesson is not None and state.lesson.title == "train.py"
    assert [s.code for s in state.program] == [
        "import torch", "import torch.nn as nn", "import torch.optim as optim", "model = nn.Linear(2, 1)",
        "opt = optim.SGD(model.parameters(), lr=0.5)", "x = torch.ones(4, 2)", "opt.zero_grad()",
        "loss = (model(x) ** 2).mean()", "loss.backward()", "opt.step()"]
    view = window.code_view
    rows = _refused_rows(view)
    assert len(rows) == 4
    text = view.toPlainText().splitlines()
    # In its place, in words (not colour alone): its file line, the ⊘ mark and "not run: <reason>"; the same
    # on hover.
    assert text[3].startswith("[line 4 of the file] ⊘ import numpy as np — not run: line 4 of the file"
        ": `import numpy as np` is not available")
    assert ("[line 18 of the file] ⊘ extra = loss_fn(model(x)) — not run: depends on line 12 of the file"
            ", which is not run (`loss_fn` is defined there)") in text
    extra = next(i for i, t in enumerate(text) if "⊘ extra" in t)
    assert text.index("opt.zero_grad()") < extra < text.index("loss.backward()")
    assert rows[0].toolTip().startswith("not run: line 4 of the file:")
    # A refused statement's comment note is its own: on its row (on hover), never another step's narration.
    assert rows[-1].toolTip().endswith("\n\nthe loss, said") and "the loss, said" not in rows[0].toolTip()
    assert all(step.note != "the loss, said" for step in state.lesson.steps)
    assert all(not row.flags() & Qt.ItemFlag.ItemIsSelectable for row in rows)
    # The player steps the supported statements only: every one runs, none of the refused ones.
    go(window, qtbot, len(state.program))
    state = window.controller.state
    assert all(r.ok for r in state.results)
    assert {"np", "loss_fn", "extra"}.isdisjoint(state.snapshot.names)
    assert any(t.name == "model.weight" and t.grad is not None for t in state.snapshot.tensors)
    # A click on a refused line goes nowhere; a click on a step goes to the state after it.
    view.itemClicked.emit(rows[1])
    idle(qtbot, window)
    assert window.controller.state.position == len(state.program)
    step_row = view.row(next(view.item(i) for i in range(view.count())
                             if view.item(i).data(_REFUSED_ROLE) is None and i > view.row(rows[0])))
    view.itemClicked.emit(view.item(step_row))
    idle(qtbot, window)
    assert window.controller.state.position == 4          # model = nn.Linear(2, 1): the 4th step
    assert "▶ model = nn.Linear(2, 1)" in view.toPlainText()


def test_a_notebook_opens_with_its_magics_greyed(window, qtbot, tmp_path):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# <b>Hello</b> [docs](http://x)"},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
              "source": ["%matplotlib inline\n", "import torch\n", "a = torch.ones(3)"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 2, "source": "!ls"}]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    assert window.open_lesson_file(path)
    idle(qtbot, window)
    assert [s.code for s in window.controller.state.program] == ["import torch", "a = torch.ones(3)"]
    text = window.code_view.toPlainText().splitlines()
    # Every cell counts, as Jupyter shows them: the markdown one is cell 1.
    assert text[0].startswith("[cell 2, line 1] ⊘ %matplotlib inline — not run: cell 2, line 1: an IPython magic")
    assert text[-1].startswith("[cell 3, line 1] ⊘ !ls — not run: cell 3, line 1:")
    assert len(_refused_rows(window.code_view)) == 2


def test_the_files_program_is_filed_under_its_path_and_comes_back_after_a_restart(qtbot, tmp_path):
    path = _write(tmp_path)
    data = tmp_path / "data"
    settings = QSettings(str(tmp_path / "tensorlab.ini"), QSettings.Format.IniFormat)
    first = build_window(settings, data_dir=data)
    qtbot.addWidget(first)
    assert first.open_lesson_file(path)
    idle(qtbot, first)
    go(first, qtbot, 6)
    run_line(first, qtbot, "k = x * 2")
    assert first.editing.key(first.controller.state.lesson) == f"file:{path.absolute()}"
    first.editing.flush()
    first.save_settings()
    first.close()
    again = build_window(QSettings(str(tmp_path / "tensorlab.ini"), QSettings.Format.IniFormat), data_dir=data)
    qtbot.addWidget(again)
    idle(qtbot, again)
    state = again.controller.state
    assert state.lesson is not None and state.lesson.title == "train.py"   # opened again from its path
    assert [s.code for s in state.program if s.origin == "user"] == ["k = x * 2"]
    assert [s.code for s in state.program].index("k = x * 2") == 6
    assert len(_refused_rows(again.code_view)) == 4
    again.close()


def test_the_window_never_parses_the_file_itself_the_worker_does(window, qtbot, tmp_path, monkeypatch):
    import tensorlab.core.lessons.source_import as source_import

    def refuse(*args, **kwargs):
        raise AssertionError("the window parsed a .py file in its own process")

    for name in ("parse_python", "parse_notebook", "parse_source"):
        monkeypatch.setattr(source_import, name, refuse)      # this process only: the worker is another
    assert window.open_lesson_file(_write(tmp_path))
    idle(qtbot, window)
    assert window.controller.state.lesson.title == "train.py"
    assert len(_refused_rows(window.code_view)) == 4


def test_a_hostile_file_is_said_in_the_window_and_the_open_lesson_stays(window, qtbot, tmp_path):
    before = window.controller.state.lesson
    deep = tmp_path / "deep.py"
    deep.write_text("x = " + "[" * 500_000 + "]" * 499_990)
    assert window.open_lesson_file(deep)                     # sent to the worker
    idle(qtbot, window)
    assert window.controller.state.lesson is before
    # A learner's own file is "this file", not a lesson file.
    assert "This file cannot be opened: deep.py: line 1 of the file:" in window.output_view.toPlainText()
    assert "lesson file" not in window.output_view.toPlainText()
    big = tmp_path / "big.py"
    big.write_bytes(b"x = 1\n" * 200_000)
    assert not window.open_lesson_file(big)                  # over 1 MB: refused before it is sent
    assert "This file cannot be opened: big.py:" in window.output_view.toPlainText()
    assert "larger than 1,000,000 bytes" in window.output_view.toPlainText()
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"import torch\nx = 1\ny = \x00\n")
    assert window.open_lesson_file(nul)
    idle(qtbot, window)
    assert "This file cannot be opened: nul.py: line 3 of the file: code contains a NUL character" \
        in window.output_view.toPlainText()
    assert window.controller.state.lesson is before


def test_the_reasons_follow_the_windows_language(window, qtbot, tmp_path):
    from tensorlab.ui.widgets import i18n

    assert window.open_lesson_file(_write(tmp_path))
    idle(qtbot, window)
    picker = window.language_picker
    try:
        picker.setCurrentIndex(picker.findData("ko"))
        picker.activated.emit(picker.currentIndex())
        qtbot.waitUntil(lambda: "실행하지 않습니다" in window.code_view.toPlainText(), timeout=10_000)
        text = window.code_view.toPlainText()
        assert "[파일의 18번째 줄] ⊘ extra = loss_fn(model(x)) — 실행하지 않습니다: 실행하지 않는 파일의 12번째 줄에 " \
            "의존합니다" in text
        assert _refused_rows(window.code_view)[0].toolTip().startswith("실행하지 않습니다: 파일의 4번째 줄:")
    finally:
        i18n.set_language("en")


def test_a_file_with_a_huge_refused_line_opens_and_renders(window, qtbot, tmp_path):
    # Issue #21 review: a 600 KB nested-bracket cell or an 80 KB data literal froze the window (the Code
    # panel wrapped the refused statement's whole text). The text shown is cut before it is measured.
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
              "source": "x = " + "[" * 300_000 + "]" * 300_000},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 2,
              "source": "import torch\nb = torch.ones(2)"}]
    notebook = tmp_path / "brackets.ipynb"
    notebook.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    literal = tmp_path / "literal.py"
    literal.write_text("import torch\nx = torch.tensor([" + ",".join(["1.0"] * 20_000) + "])\na = torch.ones(2)\n")
    for path, kept in ((notebook, ["import torch", "b = torch.ones(2)"]), (literal, ["import torch",
                                                                                    "a = torch.ones(2)"])):
        assert window.open_lesson_file(path)
        idle(qtbot, window)                                   # a generous watchdog, not a timing
        assert [s.code for s in window.controller.state.program] == kept
        window.code_view.viewport().repaint()                 # paints (and measures) every row
        row = _refused_rows(window.code_view)[0]
        _where, code, _more, _reason = row.data(_REFUSED_ROLE)
        assert len(code) < 300 and "more characters)" in code
        assert window.code_view.sizeHintForRow(window.code_view.row(row)) < 400


def test_a_notebooks_markdown_entities_read_once_in_the_narration(window, qtbot, tmp_path):
    # Issue #21 review: `&amp; … &lt;tag&gt;` showed raw in the Narration (the CLI was right). Unescaped
    # once when the notebook is read, escaped again for display, and the label always reads it as HTML.
    from PySide6.QtGui import QTextDocument

    cells = [{"cell_type": "markdown", "metadata": {}, "source": "<b>bold html</b> &amp; entity &lt;tag&gt; x < y"},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1, "source": "import torch"}]
    path = tmp_path / "entities.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    assert window.open_lesson_file(path)
    idle(qtbot, window)
    assert window.controller.state.lesson.steps[0].note == "bold html & entity <tag> x < y"
    go(window, qtbot, 1)
    label = window.narration.note
    assert label.textFormat() == Qt.TextFormat.RichText
    document = QTextDocument()
    document.setHtml(label.text())
    assert document.toPlainText().replace("\u200b", "").startswith("bold html & entity <tag> x < y\n")


def test_a_loop_without_a_note_keeps_its_lines_and_indentation_in_the_narration_and_the_output(window, qtbot,
                                                                                              tmp_path):
    # Issue #21 review: a step with no note showed its `for` loop flattened into one line in the Narration, and
    # the Output's echo lost the indentation of a body line longer than 20 characters.
    from PySide6.QtGui import QTextDocument

    path = tmp_path / "loop.py"
    path.write_text("import torch\nw = torch.ones(2, requires_grad=True)\n"
                    "for i in range(2):\n    loss = (w * 2).sum() + (w * w).sum()\n    loss.backward()\n")
    assert window.open_lesson_file(path)
    idle(qtbot, window)
    go(window, qtbot, 3)
    document = QTextDocument()
    document.setHtml(window.narration.note.text())
    shown = document.toPlainText().replace("\u200b", "").replace("\xa0", " ")
    assert ("for i in range(2):\n    loss = (w * 2).sum() + (w * w).sum()\n    loss.backward()" in
            shown.replace("\u2028", "\n"))
    echoed = window.output_view.toPlainText().replace("\u2028", "\n")
    assert "\n    loss = (w * 2).sum() + (w * w).sum()\n    loss.backward()" in echoed


def test_a_step_the_subset_refuses_as_it_runs_is_greyed_in_its_place_with_its_readers(window, qtbot, tmp_path):
    # Review r21d: `model = model.to(device)` (only the worker knows `model` is a module) ran as a refusal and
    # its readers then ran on the module unconverted.
    path = _opened(window, qtbot, tmp_path, "convert.py", 'import torch\nimport torch.nn as nn\n'
                   'model = nn.Linear(2, 1)\nmodel = model.to("cpu")\nprint(model.weight)\nx = torch.ones(2)\n')
    assert len(window.controller.state.program) == 6 and not _refused_rows(window.code_view)
    window.controller.go_to(6)   # to the end, as it stood when the file opened
    idle(qtbot, window)
    state = window.controller.state
    assert [s.code for s in state.program] == ["import torch", "import torch.nn as nn", "model = nn.Linear(2, 1)",
                                               "x = torch.ones(2)"]
    assert state.position == 4 and all(r.ok for r in state.results)
    text = window.code_view.toPlainText().splitlines()
    assert text[3].startswith('[line 4 of the file] ⊘ model = model.to("cpu") — not run: line 4 of the file: '
                              '`to` is not available on a Linear in TensorLab')
    assert text[4].startswith("[line 5 of the file] ⊘ print(model.weight) — not run: depends on line 4 of the file")
    assert len(_refused_rows(window.code_view)) == 2 and "▶ x = torch.ones(2)" in text[5]
    # Still the file's program: your steps are filed under its path.
    assert window.editing.key(state.lesson) == f"file:{path.absolute()}"
    # Said once, greyed in its place: no lesson-checks report saying it again (review h21i: "found 1 problems").
    assert "Lesson checks" not in window.output_view.toPlainText()
    assert "Lesson checks" not in window.statusBar().currentMessage()


def test_a_loop_refused_after_part_of_it_ran_is_greyed_in_its_place_with_its_readers(window, qtbot, tmp_path):
    # Issue #21: `for g in opt.param_groups: g["lr"] = 0.0` ran an iteration before TensorLab refused it; it was an
    # error step and `opt.step()` then ran at the old lr (Python steps at lr 0).
    _opened(window, qtbot, tmp_path, "pg.py", 'import torch\nimport torch.nn as nn\nmodel = nn.Linear(2, 1)\n'
            'opt = torch.optim.SGD(model.parameters(), lr=0.1)\nfor g in opt.param_groups:\n    g["lr"] = 0.0\n'
            'opt.step()\nx = torch.ones(2)\n')
    window.controller.go_to(len(window.controller.state.program))
    idle(qtbot, window)
    state = window.controller.state
    assert [s.code for s in state.program] == ["import torch", "import torch.nn as nn", "model = nn.Linear(2, 1)",
                                               "opt = torch.optim.SGD(model.parameters(), lr=0.1)",
                                               "x = torch.ones(2)"]
    assert state.position == 5 and all(r.ok for r in state.results)
    text = window.code_view.toPlainText().splitlines()
    assert text[4].startswith("[line 5 of the file] ⊘ for g in opt.param_groups:")
    assert "not run: line 6 of the file: an optimizer's `param_groups` can be read but not changed" in "\n".join(
        text[4:7])
    assert any(row.startswith("[line 7 of the file] ⊘ opt.step() — not run: may depend on line 5 of the file")
               for row in text)
    assert len(_refused_rows(window.code_view)) == 2


def test_a_step_whose_random_numbers_are_not_the_file_s_says_so_in_the_output_panel(window, qtbot, tmp_path):
    # Review r21c 3: after a refused statement that draws (a layer TensorLab does not have), later random values
    # differed from running the file with nothing said.
    _opened(window, qtbot, tmp_path, "rand.py", "import torch\nimport torch.nn as nn\n"
            "net = nn.Sequential(nn.Linear(2, 2), nn.Flatten(1))\nb = torch.randn(2)\nc = b * 2\n")
    go(window, qtbot, 3)
    output = window.output_view.toPlainText()
    assert "Its random numbers may differ from running the file" in output
    assert "The statement at line 3 of the file is not run" in output
    go(window, qtbot, 4)   # c = b * 2 draws nothing
    assert "random numbers may differ" not in window.output_view.toPlainText()


def test_a_notebook_with_a_big_markdown_cell_shows_its_note_cut_and_stays_responsive(window, qtbot, tmp_path):
    # Review r21e F13: a 15 MB markdown cell (inside the 20 MB limit) froze the window when its note was shown.
    from PySide6.QtGui import QTextDocument

    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Intro\n" + ("word " * 30 + "\n") * 100_000},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
              "source": "import torch\nx = torch.ones(2)"}]
    path = tmp_path / "big.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}))
    assert window.open_lesson_file(path)
    idle(qtbot, window)
    go(window, qtbot, 1)
    document = QTextDocument()
    document.setHtml(window.narration.note.text())
    shown = document.toPlainText().replace("\u200b", "")
    assert shown.startswith("Intro\n") and len(shown) < 6000
    assert "more characters not shown)" in shown
    go(window, qtbot, 2)   # and the window goes on
    assert window.controller.state.position == 2


def test_a_statement_of_300000_lines_is_shown_cut_in_the_narration(window, qtbot, tmp_path):
    # Review r21e F7: a supported statement of 300,000 lines was shown whole in the Narration.
    from PySide6.QtGui import QTextDocument

    _opened(window, qtbot, tmp_path, "long.py", "import torch\nx = [\n" + "1,\n" * 3000 + "]\n")
    go(window, qtbot, 2)
    document = QTextDocument()
    document.setHtml(window.narration.note.text())
    shown = document.toPlainText().replace("\u200b", "")
    assert shown.startswith("x = [\n1,") and "… 2,990 more lines (not shown)" in shown and len(shown) < 500


def test_stepping_past_a_refused_line_says_so_in_the_output_panel(window, qtbot, tmp_path):
    # Review r21e F5: → on `device = "cpu"` ran on to `x = ...`; only the grey row said line 5 was not run.
    _opened(window, qtbot, tmp_path, "todev.py", "import torch\nimport torch.nn as nn\ndevice = 'cpu'\n"
            "model = nn.Sequential(nn.Linear(2, 2), nn.ReLU()).to(device)\nx = torch.ones(1, 2).to(device)\n")
    go(window, qtbot, 3)
    go(window, qtbot, 4)
    output = " ".join(window.output_view.toPlainText().replace("\u200b", "").split())
    assert "Not run before this step: line 4 of the file" in output
    assert "is not available on a Sequential in TensorLab" in output

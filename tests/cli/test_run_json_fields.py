"""`run --json` of a learner's own file (issue #21 review r21b, finding 12): every step that runs has `"step"`,
its number among the steps that run, whether or not anything is refused, and every step of the file, run or
refused, says where it starts (`"line"`, `"cell"`), so a consumer maps a failing `backward()` to the file from
the JSON alone. A lesson file's steps keep contract 3's fields (tests/cli/test_cli.py checks them exactly)."""

from __future__ import annotations

import io
import json

from tensorlab.cli.main import main
from tensorlab.core.lessons.lesson import parse_lesson
from tensorlab.core.lessons.play_through import lesson_json, write_lesson_json
from tensorlab.core.lessons.source_import import parse_notebook, parse_python
from tensorlab.core.worker.in_process import run_lesson

# Nothing refused: a backward through a saved tensor changed by a view (line 11), failing at line 13.
CULPRIT = '''\
import torch

# leaf
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
# c saved by exp
c = b.exp()
s = c.sum()
v = c[:2]
# change through a view
v.mul_(2)
print(c)
s.backward()
'''
CULPRIT_LINES = [1, 4, 5, 7, 8, 9, 11, 12, 13]


def _run_json(tmp_path, name: str, text: str, capsys) -> list[dict]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["run", str(path), "--json", "--in-process"]) == 0
    return json.loads(capsys.readouterr().out)["steps"]


def test_a_file_with_nothing_refused_numbers_its_steps_and_says_their_lines(tmp_path, capsys):
    steps = _run_json(tmp_path, "culprit.py", CULPRIT, capsys)
    assert [s["step"] for s in steps] == list(range(1, len(CULPRIT_LINES) + 1))
    assert [s["index"] for s in steps] == list(range(len(CULPRIT_LINES)))
    assert [s["line"] for s in steps] == CULPRIT_LINES
    assert all(s["cell"] == 0 for s in steps)   # a .py: cell 0, as its refused steps say it
    # The failing backward, found in the file from the JSON alone.
    failing = next(s for s in steps if not s["ok"])
    assert failing["error"]["type"] == "RuntimeError" and "modified by an inplace operation" in \
        failing["error"]["message"]
    assert CULPRIT.splitlines()[failing["line"] - 1] == failing["code"] == "s.backward()"


def test_with_refused_statements_every_step_of_the_file_says_its_line_run_or_refused(tmp_path, capsys):
    text = "import torch\nimport numpy as np\n\nx = torch.ones(2)\nn = np.ones(2)\ny = x * 2\n"
    steps = _run_json(tmp_path, "mixed.py", text, capsys)
    assert [(s["code"], s["line"], s["cell"]) for s in steps] == [
        ("import torch", 1, 0), ("import numpy as np", 2, 0), ("x = torch.ones(2)", 4, 0),
        ("n = np.ones(2)", 5, 0), ("y = x * 2", 6, 0)]
    assert [s.get("step") for s in steps] == [1, None, 2, None, 3]    # a refused step has no step number
    assert ["refused" in s for s in steps] == [False, True, False, True, False]


# Code cells only: "cell N" is the same whether markdown cells are counted or not.
NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
     "source": ["import torch\n", "%matplotlib inline\n", "a = torch.ones(3, requires_grad=True)"]},
    {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 2,
     "source": ["b = a.exp()\n", "\n", "b.mul_(2)"]}]}


def test_a_notebooks_steps_say_their_cell_and_line(tmp_path, capsys):
    steps = _run_json(tmp_path, "nb.ipynb", json.dumps(NOTEBOOK), capsys)
    assert [(s["code"], s["cell"], s["line"], s.get("step")) for s in steps] == [
        ("import torch", 1, 1, 1), ("%matplotlib inline", 1, 2, None),
        ("a = torch.ones(3, requires_grad=True)", 1, 3, 2), ("b = a.exp()", 2, 1, 3), ("b.mul_(2)", 2, 3, 4)]


def test_the_streamed_document_is_the_one_built_whole_for_a_file_and_a_lesson_keeps_its_fields():
    for lesson in (parse_python(CULPRIT, "culprit.py"),
                   parse_notebook(json.dumps(NOTEBOOK).encode(), "nb.ipynb"),
                   parse_lesson('[lesson]\nid = "l"\ntitle = "L"\n[[step]]\ncode = "x = torch.ones(2)"\n')):
        results = run_lesson(lesson)
        stream = io.StringIO()
        write_lesson_json(lesson, "cpu", results, stream)
        streamed = json.loads(stream.getvalue())
        assert streamed == json.loads(json.dumps(lesson_json(lesson, "cpu", results)))
        fields = {key for step in streamed["steps"] for key in ("step", "line", "cell") if key in step}
        assert fields == (set() if lesson.id == "l" else {"step", "line", "cell"}), lesson.id


def test_a_notebook_cells_echoed_value_is_in_the_json_as_the_output_panel_shows_it(tmp_path, capsys):
    # Review r21e F10: the value Jupyter echoes (Out[]) had no field in run --json.
    import torch

    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["import torch\n", "x = torch.ones(2)\n", "x * 3"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": ["y = x + 1"]}]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    steps = _run_json(tmp_path, "echo.ipynb", json.dumps(notebook), capsys)
    assert [s.get("value") for s in steps] == [None, None, repr(torch.ones(2) * 3), None]

"""Issue #21: a statement of an opened file that TensorLab refuses only as it runs, after part of it ran (a loop's
body refused in an iteration), is a refused step as if the file had opened with it refused: its readers are
greyed "depends on line N" by the same rule, never run on what TensorLab left; the steps that do not read it run
as plain Python runs them. A torch error stays the step's error, and a built-in lesson keeps the error step."""

from __future__ import annotations

import contextlib
import io

import torch

from tensorlab.core.engine.player import Player
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.lessons.lesson import Lesson, LessonStep
from tensorlab.core.lessons.play_through import iter_lesson
from tensorlab.core.lessons.source_import import parse_python
from tensorlab.core.worker.in_process import LocalEngine

PARAM_GROUPS = '''\
import torch
import torch.nn as nn
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for g in opt.param_groups:
    g["lr"] = 0.0
loss = model(torch.ones(1, 2)).sum()
loss.backward()
opt.step()
x = torch.ones(3)
y = x * 2 + 1
print(y)
'''

PARTLY_RAN = '''\
import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.zeros(2)
model = nn.Linear(2, 1)
for i in range(3):
    w.add_(1)
    model = model.double()
print(w)
print(model.weight.dtype)
x = torch.randn(2)
print(x * 2)
'''


def _python_prints(text: str) -> list[str]:
    """What plain Python prints running ``text``, one entry per line (the test's own reference run)."""
    torch.manual_seed(0)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(text, "plain.py", "exec"), {})   # plain Python and torch, not TensorLab
    return out.getvalue().splitlines()


def _run(lesson):
    engine = LocalEngine()
    try:
        run = iter_lesson(lesson, engine)
        return run, list(run)
    finally:
        engine.close()


def _refused(lesson) -> dict[int, str]:
    return {r.line: str(r.reason) for r in lesson.refused}


def test_a_loop_refused_in_its_body_is_refused_and_what_reads_what_it_may_change_is_not_run():
    run, results = _run(parse_python(PARAM_GROUPS, "pg.py"))
    assert _refused(run.lesson) == {
        # (the line in the loop the subset refused as it ran, not the loop's first: review helper-133)
        5: "line 6 of the file: an optimizer's `param_groups` can be read but not changed in TensorLab "
           "(make a new optimizer with the settings you want)",
        7: "may depend on line 5 of the file, which is not run (it may change `model`)",
        8: "depends on line 7 of the file, which is not run (`loss` is defined there)",
        9: "may depend on line 5 of the file, which is not run (it may change `opt`)"}
    assert all(r.error is None for r in results)   # no TensorLabError left as a step's error
    assert [r.code for r in results][-3:] == ["x = torch.ones(3)", "y = x * 2 + 1", "print(y)"]
    assert results[-1].output.splitlines() == _python_prints(PARAM_GROUPS)   # what runs matches Python


def test_a_refusal_after_iterations_ran_greys_what_they_changed_and_the_rest_runs_as_python():
    run, results = _run(parse_python(PARTLY_RAN, "partly.py"))
    assert _refused(run.lesson) == {
        6: "line 8 of the file: `double` is not available on a Linear in TensorLab",
        9: "may depend on line 6 of the file, which is not run (it may change `w`)",
        10: "depends on line 6 of the file, which is not run (`model` is defined there)"}
    assert all(r.error is None for r in results)
    assert [r.code for r in results][-2:] == ["x = torch.randn(2)", "print(x * 2)"]
    # The session was rebuilt without the loop: `w` is as before it, never a half-run loop's 1.
    assert run.lesson.steps[3].code == "w = torch.zeros(2)"
    assert results[-1].output.splitlines() == _python_prints(PARTLY_RAN)[-1:]
    assert not any(n.key == "explain.random_shifted" for r in results for n in r.notes)


def test_a_partly_run_loop_that_drew_random_numbers_is_not_run_as_the_file_refused_at_opening_would_be():
    text = ("import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\nmodel = nn.Linear(2, 1)\n"
            "for _ in range(2):\n    r = torch.randn(2)\n    model = model.double()\nx = torch.randn(2)\nprint(x)\n")
    run, results = _run(parse_python(text, "drew.py"))
    assert [r.line for r in run.lesson.refused] == [5]
    without = text.replace("for _ in range(2):\n    r = torch.randn(2)\n    model = model.double()\n", "")
    assert results[-1].output.splitlines() == _python_prints(without)   # the file as the window and export run it
    assert any(n.key == "explain.random_shifted" for n in results[-2].notes)   # and says its draws differ


def test_a_torch_error_in_a_loop_stays_the_step_s_error_and_later_steps_run():
    text = "import torch\nx = torch.ones(2)\nfor _ in range(2):\n    y = x @ torch.ones(3)\nprint(x)\n"
    run, results = _run(parse_python(text, "err.py"))
    assert not run.lesson.refused
    assert [(r.error.type if r.error else None) for r in results] == [None, None, "RuntimeError", None]
    assert results[-1].output == "tensor([1., 1.])\n"


def test_a_built_in_lesson_keeps_a_step_refused_after_part_of_it_ran_as_its_error():
    codes = ["import torch", "import torch.nn as nn", "model = nn.Linear(2, 1)",
             "for _ in range(1):\n    model = model.double()", "print(model.weight.dtype)"]
    lesson = Lesson("t", "T", tuple(LessonStep(c, parse_one(c)) for c in codes))
    run, results = _run(lesson)
    assert run.lesson is lesson and len(results) == 5
    assert results[3].error is not None and results[3].error.type == "TensorLabError"
    assert results[3].error.partial and results[4].error is None


def test_in_the_window_s_player_a_step_refused_after_part_of_it_ran_greys_its_readers():
    player = Player(LocalEngine())
    try:
        player.load(parse_python(PARTLY_RAN, "partly.py"))
        player.go_to(len(player.program))
        state = player.state()
        assert [s.line for s in state.program] == [1, 2, 3, 4, 5, 11, 12]
        assert state.position == len(state.program) and all(r.ok for r in state.results)
        assert [(r.line, r.after) for r in state.lesson.refused] == [(6, 5), (9, 5), (10, 5)]
        assert player.results[-1].output.splitlines() == _python_prints(PARTLY_RAN)[-1:]
        player.go_to(2)   # back and forward again: rebuilt without the refused steps
        player.go_to(len(player.program))
        assert player.results[-1].output.splitlines() == _python_prints(PARTLY_RAN)[-1:]
    finally:
        player.close()

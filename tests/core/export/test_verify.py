"""Issue #15, class 1: an export runs only what TensorLab ran.

A statement TensorLab itself refused (its allowlist, a type check, the guard, a limit) is written
commented out, with every later line of its `with` block; only what the step's own operation raised
(torch, or Python on its values) is wrapped in try/except or tagged `raises-exception`. Who raised is
read from where the exception was raised (the interpreter marks it), never from its text. Every
export is checked before it is written (verify.py), and a body indented after a form feed compiles.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tensorlab.cli.main import main
from tensorlab.core.export import program_files
from tensorlab.core.export.program_files import export_notebook, export_script, refused
from tensorlab.core.export.verify import ExportRefused, check_cells, check_script, handler_source
from tensorlab.core.lessons.lesson import parse_lesson
from tensorlab.core.protocol.results import ErrorInfo
from tensorlab.core.worker.in_process import run_lesson

SETUP = "import torch\ntorch.manual_seed(0)"


def _lesson(*codes: str):
    steps = "".join(f"[[step]]\ncode = {json.dumps(code)}\n" for code in codes)
    return parse_lesson(f'[lesson]\nid = "t"\ntitle = "T"\n{steps}')


def _run(text: str, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "exported.py"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path)


def _live(text: str) -> list[str]:
    """The statements a script runs, as code (comments gone), wrappers included."""
    return [ast.unparse(node) for node in ast.parse(text).body]


# -- who raised it -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("code", "origin"), [
    ("y = x @ torch.ones(3)", "torch"),                           # torch's RuntimeError
    ("y = [1, 2][5]", "torch"),                                    # Python's IndexError on the step's list
    ("y = x.grad.zero_()", "tensorlab"),                           # TensorLab's type check (AttributeError)
    ("y = x.untyped_storage().view('os')", "tensorlab"),           # the allowlist on storages
    ("a, b = 5", "tensorlab"),                                     # TensorLab's own unpacking check
    ("print(x, sep=1)", "tensorlab"),                              # TensorLab's print
    ("y = x.expand(100000, 2).clone().repeat(10000, 1)", "tensorlab"),  # the guard: a limit
])
def test_the_origin_of_a_step_error_is_where_it_was_raised(code, origin):
    results = run_lesson(_lesson("x = torch.ones(2)", code))
    error = results[1].error
    assert error is not None and error.origin == origin, error
    assert refused(error) == (origin == "tensorlab")


def test_an_error_made_elsewhere_without_an_origin_counts_as_refused():
    assert refused(ErrorInfo("RuntimeError", "boom"))            # default deny
    assert not refused(ErrorInfo("RuntimeError", "boom", origin="torch"))
    assert refused(ErrorInfo("WorkerTimeout", "slow", origin="torch"))   # a kind that never ran


# -- refused lines of a with block ------------------------------------------------------------------------

BLOCK = ("with torch.no_grad():\n"
         "    y = x + 1\n"
         "    print(y)\n"
         "    z = x.grad.zero_()\n"
         "    s = x.untyped_storage().view('os')\n"
         "    print('after')")


def test_a_refused_line_and_the_rest_of_its_block_are_comments_the_lines_before_it_run(tmp_path):
    lesson = _lesson("x = torch.ones(2)", BLOCK, "print(x)")
    results = run_lesson(lesson)
    error = results[1].error
    assert error is not None and error.type == "AttributeError" and error.origin == "tensorlab" and error.at == 4
    text = export_script(lesson, [r.error for r in results])
    live = _live(text)
    assert "with torch.no_grad():\n    y = x + 1\n    print(y)" in live
    assert not any("zero_" in line or "type(" in line or "after" in line for line in live)
    assert "#     z = x.grad.zero_()" in text and "#     s = x.untyped_storage().view('os')" in text
    assert "TensorLab refused this line and did not run the rest of this step (AttributeError:" in text
    assert not any(isinstance(node, ast.Try) for node in ast.walk(ast.parse(text)))
    done = _run(text, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == results[1].output + results[2].output == "tensor([2., 2.])\ntensor([1., 1.])\n"
    # The notebook: the same cell, not tagged as raising.
    notebook = export_notebook(lesson, [r.error for r in results])
    cell = next(c for c in notebook.cells if c.get("id") == "step-2")
    assert cell.source == "\n".join(program_files._code_lines(lesson.steps[1], error, "error", "en"))
    assert "raises-exception" not in cell.metadata.get("tags", [])


def test_a_refused_first_line_cuts_its_block_and_a_refused_nested_line_keeps_the_outer_lines(tmp_path):
    nested = ("with torch.no_grad():\n"
              "    y = x + 1\n"
              "    with torch.enable_grad():\n"
              "        z = x.untyped_storage().view('os')\n"
              "        w = 2\n"
              "    v = 3")
    first = "with torch.no_grad():\n    z = x.untyped_storage().view('os')\n    w = 2"
    lesson = _lesson("x = torch.ones(2)", nested, first, "print(y)")
    results = run_lesson(lesson)
    assert [r.error.at if r.error else None for r in results] == [None, 4, 2, None]
    text = export_script(lesson, [r.error for r in results])
    live = _live(text)
    # The inner block would be empty: it goes too (entering a grad mode and leaving it does nothing).
    assert "with torch.no_grad():\n    y = x + 1" in live
    assert not any("enable_grad" in line or "w = 2" in line or "v = 3" in line for line in live)
    # The step whose refused line is the first of its block is all comments.
    assert "# with torch.no_grad():\n#     z = x.untyped_storage().view('os')\n#     w = 2" in text
    done = _run(text, tmp_path)
    assert done.returncode == 0 and done.stdout == "tensor([2., 2.])\n", done.stderr


def test_a_refused_line_sharing_a_line_with_one_that_ran_comments_out_the_whole_step(tmp_path):
    code = "with torch.no_grad():\n    y = x + 1; z = x.grad.zero_()\n    w = 2"
    lesson = _lesson("x = torch.ones(2)", code)
    results = run_lesson(lesson)
    assert results[1].error.at == 3
    text = export_script(lesson, [r.error for r in results])
    assert not any("zero_" in line or "y = x + 1" in line for line in _live(text))
    assert "#     y = x + 1; z = x.grad.zero_()" in text
    assert _run(text, tmp_path).returncode == 0


def test_an_error_raised_inside_torch_in_a_block_is_wrapped_and_raises_there_too(tmp_path):
    code = "with torch.no_grad():\n    y = x + 1\n    z = x @ torch.ones(3)\n    print('never')"
    lesson = _lesson("x = torch.ones(2)", code)
    results = run_lesson(lesson)
    assert results[1].error.origin == "torch"
    text = export_script(lesson, [r.error for r in results])
    assert sum(isinstance(node, ast.Try) for node in ast.parse(text).body) == 1
    done = _run(text, tmp_path)
    assert done.returncode == 0
    assert done.stdout == f"RuntimeError: {results[1].error.message}\n" and "never" not in done.stdout


# -- form feeds ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "with torch.no_grad():\n\f    y = x @ torch.ones(3)",
    "with torch.no_grad():\n    \f  y = x + 1\n  \f  z = x @ torch.ones(3)",
    "\fwith torch.no_grad():\n\f\f    y = x @ torch.ones(3)",
    "with torch.no_grad():\n    s = '''a\n\f    b''' + 1",
])
def test_a_body_indented_after_a_form_feed_compiles_when_wrapped(code, tmp_path):
    lesson = _lesson("x = torch.ones(2)", code)
    results = run_lesson(lesson)
    assert results[1].error is not None and results[1].error.origin == "torch", results[1].error
    text = export_script(lesson, [r.error for r in results])
    compile(text, "exported.py", "exec")
    done = _run(text, tmp_path)
    assert done.returncode == 0 and done.stdout == f"{results[1].error.type}: {results[1].error.message}\n"


# -- the check before writing ------------------------------------------------------------------------------

def _wrapped(code: str, name: str = "error") -> str:
    return "\n".join(["try:", *("    " + line for line in code.split("\n")), *handler_source(name)])


def test_the_check_accepts_its_own_scaffold_and_subset_code():
    check_script(f"# c\n{SETUP}\nx = torch.ones(2)\n{_wrapped('y = x @ x')}\n", SETUP, "error")
    check_cells([SETUP + ";", "x = torch.ones(2)", "# only comments"], SETUP)


@pytest.mark.parametrize("text", [
    f"{SETUP}\nimport os\n",                                         # outside the subset
    f"{SETUP}\nx = open('f')\n",
    "import torch\nx = 1\n",                                        # the seed is missing
    f"import os\n{SETUP}\n",                                         # something before the scaffold
    f"{SETUP}\ntry:\n    x = 1\nexcept Exception as error:\n    import os\n",     # another handler
    f"{SETUP}\ntry:\n    x = 1\n    import os\nexcept Exception as error:\n"
    '    print(f"{type(error).__name__}: {error}")\n',                # more than one statement inside
    f"{SETUP}\n{_wrapped('x = 1', 'other')}\n",                      # the handler names another error
    f"{SETUP}\nwith torch.no_grad():\n    import os\n",             # hidden in a block
    f"{SETUP}\nwith torch.no_grad():\n\tx = 1\n        y = 2\n",    # does not compile
    f"{SETUP}\nx = (\n",
])
def test_the_check_refuses_anything_else(text):
    with pytest.raises(ExportRefused) as caught:
        check_script(text, SETUP, "error")
    assert str(caught.value).startswith("TensorLab did not write the export")
    assert caught.value.render("ko").startswith("TensorLab이 내보내기 파일을 쓰지 않았습니다")


def test_the_check_refuses_a_notebook_cell_outside_the_subset():
    with pytest.raises(ExportRefused):
        check_cells([SETUP, "import os"], SETUP)
    with pytest.raises(ExportRefused):
        check_cells(["import os\n" + SETUP, "x = 1"], SETUP)
    with pytest.raises(ExportRefused):
        check_cells([SETUP, "x = (1"], SETUP)


def _broken(monkeypatch):
    """An exporter that writes a line outside the subset (as a bug in it would)."""
    real = program_files._source
    monkeypatch.setattr(program_files, "_source", lambda code: real(code) + "\nimport os")


def test_a_failed_check_writes_no_file_and_exits_2(monkeypatch, tmp_path, capsys):
    _broken(monkeypatch)
    lesson = tmp_path / "l.toml"
    lesson.write_text('[lesson]\nid = "l"\ntitle = "L"\n[[step]]\ncode = "x = torch.ones(2)"\n', encoding="utf-8")
    out_py, out_nb = tmp_path / "l.py", tmp_path / "l.ipynb"
    assert main(["export", str(lesson), "--in-process", "--py", str(out_py), "--ipynb", str(out_nb)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tensorlab: TensorLab did not write the export") and "import os" in err
    assert not out_py.exists() and not out_nb.exists()
    assert main(["export", str(lesson), "--in-process", "--language", "ko"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "TensorLab이 내보내기 파일을 쓰지 않았습니다" in captured.err


def test_the_check_compiles_but_never_runs_what_it_compiled():
    """verify.py is the one module of the window side that may call compile (tests/test_architecture.py):
    the code object is dropped at once, and nothing there executes or imports anything by name."""
    from tensorlab.core.export import verify

    tree = ast.parse(Path(verify.__file__).read_text(encoding="utf-8"))
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not names & {"exec", "eval", "__import__", "importlib", "runpy"}
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Name) and node.func.id == "compile"]
    assert len(calls) == 1
    statements = [node for node in ast.walk(tree) if isinstance(node, ast.Expr) and node.value is calls[0]]
    assert len(statements) == 1      # a statement of its own: the code object is never kept


def test_a_step_python_cannot_compile_is_written_as_comments_saying_why(tmp_path):
    deep = "\n".join("    " * depth + "with torch.no_grad():" for depth in range(25)) + "\n" + "    " * 25 + "y = x + 1"
    lesson = _lesson("x = torch.ones(2)", deep, "print(x)")
    results = run_lesson(lesson)
    assert results[1].error is None          # TensorLab walks the tree: it runs
    text = export_script(lesson, [r.error for r in results])
    assert "Python cannot compile this step (too many statically nested blocks" in text
    assert "with" not in "".join(_live(text))
    done = _run(text, tmp_path)
    assert done.returncode == 0 and done.stdout == "tensor([1., 1.])\n"
    notebook = export_notebook(lesson, [r.error for r in results])
    cell = next(c for c in notebook.cells if c.get("id") == "step-2")
    assert cell.source.startswith("# Python cannot compile this step")


def test_the_origin_crosses_from_the_worker_process_and_the_cli_export_comments_the_refused_lines(tmp_path, capsys):
    """`tensorlab export` runs the steps in the worker: who raised crosses the wire with the error."""
    lesson = tmp_path / "block.toml"
    lesson.write_text(f'[lesson]\nid = "b"\ntitle = "B"\n[[step]]\ncode = "x = torch.ones(2)"\n'
                      f'[[step]]\ncode = {json.dumps(BLOCK)}\n', encoding="utf-8")
    assert main(["export", str(lesson)]) == 0
    script = capsys.readouterr().out
    assert "with torch.no_grad():\n    y = x + 1\n    print(y)" in _live(script)
    assert "#     s = x.untyped_storage().view('os')" in script
    assert not any(isinstance(node, ast.Try) for node in ast.walk(ast.parse(script)))


def test_a_title_with_a_line_break_is_one_line_in_the_script_and_the_notebook(tmp_path):
    """A title that says "\\nimport os" must not become a line of its own (a comment now, code later)."""
    import json

    from tensorlab.cli.main import main

    path = tmp_path / "t.toml"
    path.write_text('[lesson]\nid = "t"\ntitle = "T\\nimport os"\n[[step]]\ncode = "x = torch.ones(2)"\n',
                    encoding="utf-8")
    assert main(["export", str(path), "--py", str(tmp_path / "t.py"), "--ipynb", str(tmp_path / "t.ipynb")]) == 0
    script = (tmp_path / "t.py").read_text(encoding="utf-8")
    assert "\nimport os" not in script and "\n# import os" not in script
    heading = json.loads((tmp_path / "t.ipynb").read_text(encoding="utf-8"))["cells"][0]["source"]
    first, *rest = "".join(heading).splitlines()
    assert "import" in first and not any("import" in line for line in rest)   # the heading holds the whole title


def test_after_a_statement_refused_once_part_of_it_ran_no_later_step_is_code(tmp_path, capsys):
    """`x.requires_grad_()` ran before the refusal: TensorLab's x requires grad, the script's would not."""
    from tensorlab.cli.main import main
    from tensorlab.core.session.session import Session

    session = Session()
    session.run("x = torch.ones(2)")
    partly = session.run("s = [x.requires_grad_(), x.untyped_storage().view('this')]").error
    assert partly is not None and partly.refused and partly.partial
    whole = Session().run("s = torch.ones(2).numpy().view('this')").error
    assert whole is not None and whole.refused
    path = tmp_path / "p.toml"
    path.write_text('[lesson]\nid = "p"\ntitle = "P"\n[[step]]\ncode = "x = torch.ones(2)"\n'
                    '[[step]]\ncode = "s = [x.requires_grad_(), x.untyped_storage().view(\'this\')]"\n'
                    '[[step]]\ncode = "print(x)"\n', encoding="utf-8")
    assert main(["export", str(path)]) == 0
    script = capsys.readouterr().out
    assert "\nx = torch.ones(2)\n" in script and "\n# print(x)" in script and "\nprint(x)" not in script
    assert "refused step 2 after part of it had run" in script

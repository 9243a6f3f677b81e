"""`for` loops (issue #16): one step each, at most 1,000 iterations counted as they run, refused up front
when too many or too costly, a stop naming its iteration, and the names left as plain Python leaves them."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from tensorlab.core.export.program_files import export_script
from tensorlab.core.lang.parse import LanguageError
from tensorlab.core.lessons.lesson import parse_lesson
from tensorlab.core.protocol.limits import Limits
from tensorlab.core.session.session import Session
from tensorlab.core.worker.in_process import run_lesson


def _session(*codes: str, limits: Limits | None = None) -> Session:
    session = Session(limits=limits) if limits is not None else Session()
    for code in codes:
        assert session.run(code).ok, code
    return session


def test_a_loop_is_one_step_and_its_json_counts_the_iterations():
    session = _session("x = torch.zeros(3)")
    result = session.run("for i in range(4):\n    x.add_(1)\n    print(i)")
    assert result.ok and result.iterations == 4
    assert result.to_json()["iterations"] == 4
    assert result.output == "0\n1\n2\n3\n"
    assert session.namespace["i"] == 3 and session.namespace["x"].tolist() == [4.0, 4.0, 4.0]
    assert len(session.results) == 2
    plain = session.run("y = x + 1")
    assert plain.iterations is None and "iterations" not in plain.to_json()


def test_a_stop_says_its_iteration_and_leaves_the_names_as_python_does():
    session = _session("parts = [torch.ones(1), torch.ones(2)]")
    result = session.run("for i in range(3):\n    y = parts[i]\n    z = i")
    assert result.error is not None and result.error.type == "IndexError" and result.error.origin == "torch"
    assert result.iterations == 2
    assert [n.title for n in result.notes] == ["The loop stopped in iteration 3 of 3"]
    assert "반복" in result.notes[0].localized("ko").title
    namespace: dict = {"parts": [torch.ones(1), torch.ones(2)]}
    with pytest.raises(IndexError):
        exec("for i in range(3):\n    y = parts[i]\n    z = i", {"torch": torch}, namespace)  # noqa: S102 - the oracle
    assert session.namespace["i"] == namespace["i"] == 2 and session.namespace["z"] == namespace["z"] == 1
    assert session.namespace["y"] is session.namespace["parts"][1]


@pytest.mark.parametrize("code", ["for i in range(10**6):\n    y = i", "for i in range(10**30):\n    y = i",
                                  "for i in range(1001):\n    y = i", "for i in big:\n    y = i"])
def test_too_many_iterations_are_refused_before_the_first(code):
    session = _session("big = [0] * 1001")
    before = session.take_snapshot()
    result = session.run(code)
    assert result.error is not None and result.error.type == "LimitError" and result.error.refused
    assert "TensorLab allows at most 1,000 in one loop" in result.error.message
    assert "y" not in session.namespace and "i" not in session.namespace
    assert session.take_snapshot().tensors == before.tensors and not result.error.partial
    assert result.iterations == 0 and result.to_json()["iterations"] == 0


def test_the_first_iterations_cost_times_the_rest_is_refused_before_the_second_runs():
    limits = Limits(max_cost=10**7)
    session = _session("a = torch.ones(100, 100)", "n = 0", limits=limits)
    # One matmul is 10^6 element-operations: the first iteration fits, ten of them would not.
    result = session.run("for i in range(20):\n    b = a @ a\n    n = n + 1")
    assert result.error is not None and result.error.type == "LimitError"
    assert "stopped before iteration 2 of 20" in result.error.message
    assert session.namespace["n"] == 1 and result.iterations == 1 and result.error.partial
    assert result.notes[0].title == "The loop stopped in iteration 2 of 20"
    # As Python would leave it with a stop at the start of iteration 2's body: `i` is already 1.
    assert session.namespace["i"] == 1


def test_a_loop_that_fits_runs_every_iteration_under_the_same_limit():
    session = _session("a = torch.ones(100, 100)", "n = 0", limits=Limits(max_cost=10**7))
    result = session.run("for i in range(5):\n    b = a @ a\n    n = n + 1")
    assert result.ok and session.namespace["n"] == 5


def test_a_body_that_grows_its_list_loops_as_python_does_until_the_limit_stops_it():
    # Python's own list iterator reads the live list: the loop never ends in plain Python.
    session = _session("lst = [torch.ones(2), torch.zeros(2)]")
    result = session.run("for t in lst:\n    lst += [t * 2]")
    assert result.error is not None and result.error.type == "LimitError" and result.error.refused
    assert result.error.message.startswith("stopped at iteration 1,001:")
    assert "at most 1,000 iterations in one loop" in result.error.message
    assert result.iterations == 1000 and result.error.partial
    assert [n.title for n in result.notes] == ["The loop stopped at iteration 1,001"]
    assert "반복" in result.notes[0].localized("ko").title
    # The state Python reaches when its 1,001st iteration begins (the target bound, its body not run).
    lst = [torch.ones(2), torch.zeros(2)]
    for number, t in enumerate(lst):
        if number == 1000:
            break
        lst += [t * 2]
    assert len(session.namespace["lst"]) == len(lst) == 1002
    assert all(torch.equal(a, b) for a, b in zip(session.namespace["lst"], lst))
    assert torch.equal(session.namespace["t"], t) and session.namespace["t"] is session.namespace["lst"][1000]


def test_a_body_that_grows_a_short_list_a_little_loops_over_the_new_items():
    session = _session("l = [1, 2]", "seen = []")
    code = "for v in l:\n    seen += [v]\n    if_small = v\n    l += [v + 10] * (v < 10)"
    result = session.run(code)
    namespace: dict = {"l": [1, 2], "seen": []}
    exec(code, {}, namespace)  # noqa: S102 - the oracle
    assert result.ok and session.namespace["seen"] == namespace["seen"] == [1, 2, 11, 12]
    assert result.iterations == 4


def test_a_dict_resized_in_its_last_iteration_raises_pythons_error():
    session = _session("d = {'a': torch.ones(1)}")
    code = "for k in d:\n    d['b' + k] = torch.ones(1)"
    result = session.run(code)
    namespace: dict = {"d": {"a": torch.ones(1)}}
    with pytest.raises(RuntimeError, match="dictionary changed size during iteration"):
        exec(code, {"torch": torch}, namespace)  # noqa: S102 - the oracle
    assert result.error is not None and result.error.type == "RuntimeError" and result.error.origin == "torch"
    assert result.error.message == "dictionary changed size during iteration"
    assert result.iterations == 1 and list(session.namespace["d"]) == list(namespace["d"]) == ["a", "ba"]
    assert session.namespace["k"] == namespace["k"] == "a"


def test_a_loop_stopped_at_the_iteration_limit_is_commented_out_with_the_steps_after_it(tmp_path):
    lesson = parse_lesson('[lesson]\nid = "t"\ntitle = "T"\n'
                          '[[step]]\ncode = "lst = [torch.ones(2), torch.zeros(2)]"\n'
                          '[[step]]\ncode = """for t in lst:\n    lst += [t * 2]"""\n'
                          '[[step]]\ncode = "print(len(lst))"\n')
    results = run_lesson(lesson)
    assert results[1].error is not None and results[1].error.partial and results[1].iterations == 1000
    text = export_script(lesson, [r.error for r in results])
    assert "# for t in lst:" in text and "# print(len(lst))" in text and "\nprint(len(lst))" not in text
    path = tmp_path / "grow.py"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_a_list_method_is_refused_saying_what_lists_allow():
    session = _session("lst = [torch.ones(1)]")
    with pytest.raises(LanguageError) as caught:
        session.run("lst.append(torch.ones(1))")
    assert "a list has no methods here" in str(caught.value) and "lst += [item]" in str(caught.value)


def test_a_body_that_shrinks_its_list_ends_where_python_ends():
    session = _session("l = [1, 2, 3, 4]", "seen = []")
    code = "for v in l:\n    seen += [v]\n    l[0:1] = []"
    result = session.run(code)
    namespace: dict = {"l": [1, 2, 3, 4], "seen": []}
    exec(code, {}, namespace)  # noqa: S102 - the oracle
    assert result.ok and session.namespace["seen"] == namespace["seen"] and result.iterations == len(namespace["seen"])


def test_an_item_the_body_changes_is_seen_as_python_sees_it():
    session = _session("l = [1, 2, 3]", "seen = []")
    result = session.run("for v in l:\n    seen += [v]\n    l[2] = 9")
    assert result.ok and session.namespace["seen"] == [1, 2, 9]


def test_a_loop_over_a_tensor_is_refused_naming_it():
    session = _session("x = torch.ones(3)")
    result = session.run("for r in x:\n    y = r")
    assert result.error is not None and result.error.refused
    assert "for loop over the tensor `x`" in result.error.message and "x.unbind()" in result.error.message
    assert "y" not in session.namespace and "r" not in session.namespace


@pytest.mark.parametrize("code,words", [("for c in 'abc':\n    y = c", "(str)"), ("for c in 5:\n    y = c", "(int)"),
                                        ("for c in x.dtype:\n    y = c", "(dtype)")])
def test_a_loop_over_anything_else_is_refused_naming_it(code, words):
    session = _session("x = torch.ones(3)")
    result = session.run(code)
    assert result.error is not None and result.error.refused and words in result.error.message


def test_a_generator_an_allowlisted_method_returns_is_iterated_once_materialized():
    # Stand-in for `model.parameters()` (the modules are another branch): a generator bound to a name.
    session = _session("x = torch.ones(2)")
    session.namespace["g"] = (t for t in [torch.ones(1), torch.zeros(1)])
    result = session.run("for name, p in [('a', x), ('b', x)]:\n    y = p")
    assert result.ok and session.namespace["name"] == "b"
    result = session.run("for p in g:\n    y = p")
    assert result.ok and result.iterations == 2 and session.namespace["y"].tolist() == [0.0]


def test_two_names_unpack_each_item_and_a_bad_item_stops_with_pythons_error():
    session = _session("pairs = [(1, 2), (3, 4, 5)]")
    result = session.run("for a, b in pairs:\n    c = a + b")
    assert result.error is not None and result.error.type == "ValueError"
    assert "too many values to unpack" in result.error.message
    assert session.namespace["c"] == 3 and result.iterations == 1


def test_a_grad_mode_inside_and_around_a_loop():
    session = _session("w = torch.ones(2, requires_grad=True)")
    assert session.run("for i in range(2):\n    with torch.no_grad():\n        w.mul_(2)").ok
    assert session.run("with torch.no_grad():\n    for i in range(2):\n        v = w * 2").ok
    assert not session.namespace["v"].requires_grad and session.namespace["w"].tolist() == [4.0, 4.0]


@pytest.mark.parametrize("code,words", [
    ("while x:\n    y = 1", "while loop is not available"),
    ("for i in range(2):\n    break", "break is not available"),
    ("for i in range(2):\n    def f():\n        return 1", "def is not available"),
    ("for i in range(2):\n    y = [j for j in range(2)]", "list comprehension is not available"),
    ("for i in range(2):\n    y = 1\nelse:\n    y = 2", "`else:` after a for loop"),
])
def test_what_stays_outside_the_subset_names_the_construct_and_the_column(code, words):
    session = _session("x = torch.ones(3)")
    with pytest.raises(LanguageError) as caught:
        session.run(code)
    assert words in str(caught.value) and caught.value.col is not None


def test_the_export_writes_the_loop_as_code_and_comments_out_a_refused_one(tmp_path):
    lesson = parse_lesson('[lesson]\nid = "t"\ntitle = "T"\n'
                          '[[step]]\ncode = "x = torch.zeros(2)"\n'
                          '[[step]]\ncode = """for i in range(3):\n    x.add_(1)\n    print(i, x.sum().item())"""\n'
                          '[[step]]\ncode = """for i in range(2000):\n    x.add_(1)"""\n'
                          '[[step]]\ncode = "print(x)"\n')
    results = run_lesson(lesson)
    assert [r.iterations for r in results] == [None, 3, 0, None]   # refused before its first iteration: 0
    text = export_script(lesson, [r.error for r in results])
    assert "for i in range(3):\n    x.add_(1)\n" in text
    assert "# for i in range(2000):" in text
    path = tmp_path / "loop.py"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "".join(r.output for r in results)


def test_a_loop_refused_after_some_iterations_ran_is_where_the_export_stops(tmp_path):
    lesson = parse_lesson('[lesson]\nid = "t"\ntitle = "T"\n'
                          '[[step]]\ncode = "n = 0"\n'
                          '[[step]]\ncode = """for i in range(3):\n    n = n + 1\n    y = [1][n - 1]"""\n'
                          '[[step]]\ncode = "print(n)"\n')
    results = run_lesson(lesson)
    assert results[1].error is not None and results[1].error.type == "IndexError" and results[1].iterations == 1
    text = export_script(lesson, [r.error for r in results])
    path = tmp_path / "loop.py"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    # Python's own IndexError in iteration 2: the script raises it there too, and goes on with n == 2.
    assert done.returncode == 0 and done.stdout.endswith("2\n") and results[2].output == "2\n"


def test_a_loop_tensorlab_stopped_after_some_iterations_is_where_the_script_stops_running():
    lesson = parse_lesson('[lesson]\nid = "t"\ntitle = "T"\n'
                          '[[step]]\ncode = "a = torch.ones(100, 100)"\n'
                          '[[step]]\ncode = """for i in range(20):\n    b = a @ a"""\n'
                          '[[step]]\ncode = "print(i)"\n')
    results = run_lesson(lesson, limits=Limits(max_cost=10**7))
    assert results[1].error is not None and results[1].error.partial and results[1].iterations == 1
    text = export_script(lesson, [r.error for r in results])
    # The script cannot run one iteration of twenty: the loop and every step after it are comments.
    assert "# for i in range(20):" in text and "# print(i)" in text and "\nprint(i)" not in text


def test_a_loop_on_one_line_as_the_code_line_takes_it():
    session = _session("x = torch.zeros(2)")
    result = session.run("for i in range(3): x.add_(1); y = x * 2")
    assert result.ok and result.iterations == 3 and session.namespace["y"].tolist() == [6.0, 6.0]


def test_a_loop_over_a_dict_reads_it_as_python_does_and_a_resize_raises_pythons_error():
    # (dict literals are another branch: the dict is bound directly.)
    session = _session("x = torch.ones(1)")
    session.namespace["sd"] = {"a": torch.ones(1), "b": torch.zeros(1)}
    result = session.run("for k in sd:\n    print(k)")
    assert result.ok and result.output == "a\nb\n" and result.iterations == 2
    result = session.run("for k in sd:\n    sd[k + k] = x")
    namespace = {"sd": {"a": torch.ones(1), "b": torch.zeros(1)}, "x": torch.ones(1)}
    with pytest.raises(RuntimeError) as plain:
        exec("for k in sd:\n    sd[k + k] = x", {}, namespace)  # noqa: S102 - the oracle
    assert result.error is not None and result.error.message == str(plain.value) and result.error.origin == "torch"
    assert list(session.namespace["sd"]) == list(namespace["sd"]) and session.namespace["k"] == namespace["k"]

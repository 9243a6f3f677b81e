"""Reading a paste's lines: the final error, its unwrapped message and the learner's own line, in each format."""

from __future__ import annotations

from tensorlab.core.diagnose import diagnose
from tensorlab.core.diagnose.paste import is_library, read_paste

PLAIN = '''Traceback (most recent call last):
  File "/home/me/train.py", line 12, in <module>
    w -= lr * w.grad
    ~~^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/torch/_tensor.py", line 40, in wrapped
    return f(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
'''


def test_the_last_frame_outside_the_libraries_is_the_learner_s_line():
    paste = read_paste(PLAIN)
    assert paste.error is not None and paste.error.short == "RuntimeError"
    assert paste.error.line == "w -= lr * w.grad"          # caret lines are not source lines
    assert paste.error.message() == "a leaf Variable that requires grad is being used in an in-place operation."


def test_libraries_are_told_by_their_path():
    assert is_library("/usr/lib/python3.11/site-packages/torch/nn/modules/module.py")
    assert is_library("C:\\Python311\\Lib\\site-packages\\torch\\_tensor.py")
    assert is_library("<frozen runpy>")
    assert not is_library("/home/me/train.py") and not is_library("<ipython-input-3-abc>")


def test_a_chained_traceback_s_final_error_has_its_own_frames():
    text = ('Traceback (most recent call last):\n  File "/home/me/a.py", line 2, in <module>\n    first()\n'
            "KeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\n" + PLAIN)
    paste = read_paste(text)
    assert paste.headers == 2 and paste.error.short == "RuntimeError" and paste.error.line == "w -= lr * w.grad"


def test_ipython_arrows_and_cells():
    text = ("---------------------------------------------------------------------------\n"
            "RuntimeError                              Traceback (most recent call last)\n"
            "Cell In[3], line 4\n      2 y = x * 2\n      3 z = y.sum()\n----> 4 y.backward()\n\n"
            "File /usr/lib/python3.11/site-packages/torch/_tensor.py:626, in Tensor.backward(self)\n"
            "--> 626 torch.autograd.backward(self)\n\n"
            "RuntimeError: grad can be implicitly created only for scalar outputs\n")
    found = diagnose(text)
    assert found.family == "backward_scalar" and found.line == "y.backward()"


def test_a_warning_line_and_its_source_line():
    text = ("/home/me/nb.py:7: UserWarning: To copy construct from a tensor, it is recommended to use "
            "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).\n  y = torch.tensor(x)\n")
    found = diagnose(text)
    assert found.kind == "warning" and found.type == "UserWarning" and found.line == "y = torch.tensor(x)"
    inside_torch = text.replace("/home/me/nb.py", "/usr/lib/python3/site-packages/torch/_tensor.py")
    assert diagnose(inside_torch).line is None      # torch's own line is not the learner's


def test_an_error_after_an_explained_warning_that_is_not_explained_itself():
    text = ("/home/me/a.py:5: UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being "
            "accessed.\n  g = y.grad\n" + 'Traceback (most recent call last):\n  File "/home/me/a.py", line 6\n'
            "    g.zero_()\nAttributeError: 'NoneType' object has no attribute 'zero_'\n")
    found = diagnose(text)
    assert found.explained and found.family == "nonleaf_grad" and found.line == "g = y.grad"


def test_python_s_own_exception_quoting_torch_s_words_is_not_torch_s_error():
    found = diagnose("KeyError: a leaf Variable that requires grad is being used in an in-place operation.")
    assert not found.explained and found.type == "KeyError" and found.reproduction is None


def test_nothing_to_read():
    for text in ("", "\n\n", "hello\nworld", "Error", "Warning: no"):
        found = diagnose(text)
        assert not found.explained and found.facts == {} and found.lessons == ()


def test_a_warning_without_its_location_is_a_warning():
    found = diagnose("UserWarning: To copy construct from a tensor, it is recommended to use "
                     "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather "
                     "than torch.tensor(sourceTensor).")
    assert found.explained and found.kind == "warning" and found.type == "UserWarning" and found.line is None


def test_a_traceback_quoted_or_indented_by_a_forum():
    quoted = "".join(f"> {line}\n" for line in PLAIN.splitlines())
    indented = "".join(f"    {line}\n" for line in PLAIN.splitlines())
    for text in (quoted, indented, "\n" + indented):
        found = diagnose(text)
        assert found.family == "leaf_inplace" and found.line == "w -= lr * w.grad", text


def test_a_warning_of_a_rank_keeps_its_source_line():
    text = ("[rank1]: /workspace/train.py:30: UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor "
            "is being accessed.\n[rank1]:   print(h.grad)\n")
    found = diagnose(text)
    assert found.kind == "warning" and found.line == "print(h.grad)"

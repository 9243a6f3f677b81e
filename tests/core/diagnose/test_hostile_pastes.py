"""Hostile pastes: linear-time reading, huge numbers, control and bidi characters, nothing logged, cancellation.

Nothing here asserts on time: work is bounded by counting it, and completion under a generous watchdog.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading

import pytest

from tensorlab.cli.main import main
from tensorlab.core.diagnose import DiagnoseCancelled, diagnose
from tensorlab.core.diagnose import paste as paste_module
from tensorlab.core.diagnose.paste import read_paste
from tensorlab.core.diagnose.reproduce import MAX_ELEMENTS
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.protocol.engine_api import Cancelled

WATCHDOG = 300.0   # seconds: a linear pass over a megabyte takes well under one; a quadratic one never ends here
SAVED = "one of the variables needed for gradient computation has been modified by an inplace operation: "


def _within_watchdog(work):
    done: dict = {}
    thread = threading.Thread(target=lambda: done.setdefault("value", work()), daemon=True)
    thread.start()
    thread.join(WATCHDOG)
    assert "value" in done, "did not finish: not linear"
    return done["value"]


def _chained(count: int) -> str:
    one = ('Traceback (most recent call last):\n  File "/home/me/a.py", line 3, in <module>\n    x[k]\n'
           "KeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\n")
    last = ('Traceback (most recent call last):\n  File "/home/me/a.py", line 9, in <module>\n    w.add_(1)\n'
            "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\n")
    return one * count + last


def test_a_hundred_thousand_chained_exceptions(monkeypatch):
    calls = {"header": 0}
    header = paste_module._header

    def counting(line):
        calls["header"] += 1
        return header(line)

    monkeypatch.setattr(paste_module, "_header", counting)
    text = _chained(100_000)
    found = _within_watchdog(lambda: diagnose(text))
    assert found.explained and found.family == "leaf_inplace" and found.line == "w.add_(1)"
    # Each line is looked at as a header at most once: the work is linear in the lines.
    assert calls["header"] <= text.count("\n") + 1
    assert read_paste(text).headers == 100_001


@pytest.mark.parametrize("line", [
    "RuntimeError: " + SAVED + "[" * 990_000,
    "RuntimeError: " + SAVED + "[torch.FloatTensor [" + "1, " * 330_000,
    "a:1: " * 199_000,
    'File "' * 160_000,
    "x" * 500_000 + "Warning: " + "y" * 400_000,
    "RuntimeError: " + "'" * 990_000,
    "E   " + "-->" * 330_000,
    "[rank0]:" + " in " * 240_000,
    "RuntimeError: " + SAVED + "[a " * 330_000,
    "RuntimeError: wrapped\n" + ("[a " * 600 + "\n") * 500,
])
def test_a_megabyte_on_one_line(line):
    assert len(line.encode()) < 1_000_000
    found = _within_watchdog(lambda: diagnose(line))
    assert found is not None


def test_a_shape_of_ten_to_the_twelve_elements_is_scaled_down_keeping_its_rank():
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [1000000, 1000000]], which is output 0 of "
                     "ReluBackward0, is at version 1; expected version 0 instead.")
    assert found.explained and found.scaled_down and found.facts["shape"] == [1000000, 1000000]
    first = found.reproduction[0]
    dims = [int(d) for d in first.split("(", 1)[1].split(", requires_grad")[0].split(", ")]
    assert len(dims) == 2 and dims[0] * dims[1] <= MAX_ELEMENTS
    assert "smaller than your error" in found.text.render("en") and "재현 코드는" in found.text.render("ko")


def test_huge_versions_and_digits_are_bounded():
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [3]], which is output 0 of Mul, is at version "
                     f"{10**30}; expected version {10**29} instead.")
    assert found.scaled_down and all(len(s) < 200 for s in found.reproduction)
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [{'9' * 5000}]], which is output 0 of Mul, is at "
                     "version 1; expected version 0 instead.")
    assert found.explained and "shape" not in found.facts   # a 5000-digit size is no fact


def test_the_reproduction_is_built_from_numbers_and_known_names_only():
    marker = "Zq" + "x" * 20
    for paste, analogue in ((f"RuntimeError: {SAVED}[torch.{marker}Tensor [2, 3]], which is output 0 of "
                             f"{marker}Backward0, is at version 2; expected version 1 instead.", "Mul"),
                            (f"RuntimeError: Output 3 of {marker} is a view and is being modified inplace. This view "
                             "is the output of a function that returns multiple views.", "Unbind")):
        found = diagnose(paste)
        assert found.explained
        for statement in found.reproduction:
            assert marker not in statement
            parse_one(statement)          # every statement is of the code subset
        assert analogue in found.text.render("en")   # the analogue is named


def test_control_and_bidi_characters_are_escaped_where_shown(tmp_path, capsys):
    path = tmp_path / "paste.txt"
    path.write_text('Traceback (most recent call last):\n  File "/home/me/a\u202e.py", line 1, in <module>\n'
                    "    w.add_(1) # \u202egnp.\x07\x1b]0;title\x07\n"
                    "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\u202e"
                    "\x08\n", encoding="utf-8")
    assert main(["diagnose", str(path), "--in-process", "--no-run"]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x07" not in out and "\x08" not in out and "\\u202e" in out
    assert main(["diagnose", str(path), "--json", "--no-run"]) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\x07" not in out
    doc = json.loads(out)
    assert "\u202e" in doc["line"]      # the data itself is kept; only how it is shown is escaped


def test_pasted_text_is_never_logged(caplog, tmp_path, capsys):
    marker = "MarkerNeverLogged4711"
    caplog.set_level(logging.DEBUG)
    text = f"RuntimeError: {marker} grad can be implicitly created only for scalar outputs\n{marker}\n"
    diagnose(text)
    diagnose(f"RuntimeError: grad can be implicitly created only for scalar outputs\n  {marker}")
    path = tmp_path / "paste.txt"
    path.write_text(text, encoding="utf-8")
    main(["diagnose", str(path), "--in-process"])
    assert marker not in caplog.text
    assert marker not in capsys.readouterr().err


def test_cancelled_and_progress():
    text = _chained(20_000)
    with pytest.raises(DiagnoseCancelled) as raised:
        diagnose(text, cancelled=lambda: True)
    assert isinstance(raised.value, Cancelled)
    seen: list[float] = []
    diagnose(text, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) > 2


def test_diagnosing_imports_no_torch():
    code = ("import sys\nfrom tensorlab.core.diagnose import diagnose, read_input\n"
            "d = diagnose(read_input(b'RuntimeError: a leaf Variable that requires grad is being used in an in-place "
            "operation.'))\nassert d.explained and d.reproduction\nassert 'torch' not in sys.modules, 'torch loaded'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_command_reads_a_hundred_thousand_exceptions_under_a_megabyte(tmp_path, capsys):
    path = tmp_path / "paste.txt"
    path.write_text("KeyError\n" * 100_000 + "RuntimeError: grad can be implicitly created only for scalar outputs\n",
                    encoding="utf-8")
    assert path.stat().st_size < 1_000_000
    status = _within_watchdog(lambda: main(["diagnose", str(path), "--json", "--no-run"]))
    assert status == 0 and json.loads(capsys.readouterr().out)["type"] == "RuntimeError"

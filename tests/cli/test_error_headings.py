"""The transcript says who raised a step's error: "TensorLab refused" for its own, "torch raised" for torch's.

From where the error was raised (``ErrorInfo.origin``), never from its text; in the run's language.
"""

from __future__ import annotations

import json

import pytest

from tensorlab.cli.main import main

STEPS = ["x = torch.ones(3)", "f = x.is_floating_point", "z = torch.ones(10**4, 1) + torch.ones(1, 10**5)",
         "y = x.view(5, 5)"]


def _file(tmp_path):
    steps = "".join(f"[[step]]\ncode = {json.dumps(code)}\n" for code in STEPS)
    path = tmp_path / "l.toml"
    path.write_text('[lesson]\nid = "l"\ntitle = "L"\n' + steps, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("where", [[], ["--in-process"]])
def test_the_transcript_tells_tensorlabs_refusals_from_torchs_errors(tmp_path, capsys, where):
    main(["run", _file(tmp_path), *where])
    out = capsys.readouterr().out
    assert "TensorLab refused this (TensorLabError): `is_floating_point` is not available" in out
    assert "TensorLab refused this (LimitError): the result would have 1,000,000,000 elements" in out
    assert "torch raised RuntimeError: shape '[5, 5]' is invalid" in out
    assert "torch raised TensorLabError" not in out and "torch raised LimitError" not in out


def test_a_korean_transcript_says_so_in_korean(tmp_path, capsys):
    main(["run", _file(tmp_path), "--language", "ko"])
    out = capsys.readouterr().out
    assert "TensorLab이 이것을 거부했습니다(TensorLabError)" in out
    assert "torch가 RuntimeError를 발생시켰습니다" in out

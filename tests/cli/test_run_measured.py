"""`tensorlab run` of a lesson with measured questions: each one's answer, from a measurement (stubbed here: no
test times anything), after the transcript; `--no-measure` and `--json` time nothing."""

from __future__ import annotations

import json

from tensorlab.cli.main import main
from tensorlab.core.protocol.measure_results import CLONE_DETACH
from tensorlab.core.tools import measure


def _slower_clone_detach(method, x, min_run_time, threads, cancelled=lambda: False):
    return ([3e-6, 3.1e-6, 2.9e-6] if method == CLONE_DETACH else [1e-6, 1.1e-6, 0.9e-6]), 100


def _never(*args, **kwargs):
    raise AssertionError("nothing may be timed")


def test_run_reports_the_measured_answer_of_each_measured_question(monkeypatch, capsys):
    monkeypatch.setattr(measure, "time_blocks", _slower_clone_detach)
    assert main(["run", "clone-detach-order", "--in-process"]) == 0
    out = capsys.readouterr().out.splitlines()
    small = next(line for line in out if line.startswith("step 8, measured question (10 elements, on cpu)"))
    assert "detach().clone() is faster" in small and "the answer is choice 1: detach().clone() is faster" in small
    big = next(line for line in out if line.startswith("step 9, measured question (10,000,000 elements, on cpu)"))
    assert "the answer is choice 3: detach().clone() is faster" in big


def test_no_measure_and_json_time_nothing(monkeypatch, capsys):
    monkeypatch.setattr(measure, "time_blocks", _never)
    assert main(["run", "clone-detach-order", "--in-process", "--no-measure", "--language", "ko"]) == 0
    out = capsys.readouterr().out
    assert "8단계의 측정 질문(원소 10개): 시간을 재지 않았으므로(--no-measure) 정답을 알 수 없습니다" in out
    assert main(["run", "clone-detach-order", "--in-process", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)     # contract 3, unchanged: one document, no measurement
    assert doc["lesson"] == "clone-detach-order"

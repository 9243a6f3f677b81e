"""The worker's job for a measured question runs the measure tooling under its own name (timings stubbed)."""

from __future__ import annotations

from tensorlab.core.protocol.measure_results import CLONE_DETACH, QUESTION_JOB, MeasuredQuestion, MeasureResult
from tensorlab.core.tools import measure
from tensorlab.core.worker.in_process import LocalEngine
from tensorlab.core.worker.jobs import JOBS


def test_the_job_times_the_two_orders_and_its_verdict_answers_the_question(monkeypatch):
    def blocks(method, x, min_run_time, threads, cancelled=lambda: False):
        # clone().detach() measurably slower at every size: no clock is read.
        return ([3e-6, 3.1e-6, 2.9e-6] if method == CLONE_DETACH else [1e-6, 1.1e-6, 0.9e-6]), 100

    monkeypatch.setattr(measure, "time_blocks", blocks)
    assert JOBS[QUESTION_JOB] == JOBS["measure"]
    question = MeasuredQuestion(10, ("same", "faster", "slower"))
    engine = LocalEngine("cpu")
    seen = []
    try:
        result = engine.job(QUESTION_JOB, question.params().to_dict(), progress=lambda d, t: seen.append((d, t)))
    finally:
        engine.close()
    assert isinstance(result, MeasureResult) and result.machine.device == "cpu"
    assert question.choice(result) == 2 and question.verdict(result).kind == "slower"
    assert seen[-1] == (question.params().steps, question.params().steps)

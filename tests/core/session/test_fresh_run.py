"""The one fresh-session run loop (checks and export errors use it) and the one RNG keeper."""

from __future__ import annotations

import pytest
import torch

from tensorlab.core.checks import lesson_checks
from tensorlab.core.export import step_errors
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.protocol.engine_api import Cancelled
from tensorlab.core.session import fresh_run
from tensorlab.core.session.fresh_run import random_state_kept, run_fresh
from tensorlab.core.session.session import Session

CODES = ["a = torch.rand(3)", "b = a * 2", "c = b.sum()", "d = torch.randn(2)"]


def _statements():
    return [parse_one(code) for code in CODES]


def test_a_fresh_run_is_a_seeded_replay_and_leaves_the_random_stream_as_it_was():
    torch.manual_seed(1234)
    torch.rand(5)
    expected_next = torch.rand(4)
    torch.manual_seed(1234)
    torch.rand(5)
    results = run_fresh(_statements())
    assert torch.equal(torch.rand(4), expected_next)          # the caller's stream goes on untouched
    replay = Session().replay(_statements())                  # what any TensorLab run of it gives
    assert [r.snapshot.tensor("a").values for r in results[:1]] == [replay[0].snapshot.tensor("a").values]
    assert results[-1].snapshot.tensor("d").values == replay[-1].snapshot.tensor("d").values


def test_the_random_state_is_kept_even_when_the_run_raises():
    torch.manual_seed(7)
    expected = torch.rand(3)
    torch.manual_seed(7)
    with pytest.raises(RuntimeError), random_state_kept():
        torch.manual_seed(0)
        torch.rand(100)
        raise RuntimeError("inside")
    assert torch.equal(torch.rand(3), expected)


def test_after_sees_each_step_with_the_session_standing_there_and_progress_counts():
    seen, progress = [], []
    run_fresh(_statements(), progress=lambda done, total: progress.append((done, total)),
              after=lambda session, result: seen.append((result.index, session.names)))
    assert seen == [(0, ("a",)), (1, ("a", "b")), (2, ("a", "b", "c")), (3, ("a", "b", "c", "d"))]
    # (0, 4) once the fresh session is set up: a job's step time limit counts each step from there.
    assert progress == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]


def test_given_steps_are_not_run_and_their_error_is_their_result():
    from tensorlab.core.protocol.results import ErrorInfo

    crashed = ErrorInfo("WorkerCrash", "the worker stopped on this step: PyTorch crashed (SIGFPE)", None)
    results = run_fresh(_statements(), given={1: crashed})
    assert [r.index for r in results] == [0, 1, 2, 3]
    assert results[1].error is crashed and results[1].snapshot is results[0].snapshot
    # `b` never came to be: the step after it raises as it would in `tensorlab run` after that crash.
    assert results[2].error is not None and results[2].error.type == "NameError"
    assert results[3].ok


def test_steps_past_the_time_limit_are_not_run():
    results = run_fresh(_statements(), seconds=0)
    assert [r.error.type for r in results] == ["TimeLimit"] * 4
    assert all(r.snapshot.names == () for r in results)


def test_a_cancel_between_steps_stops_the_run_with_its_position():
    asked = iter([False, False, True])
    with pytest.raises(Cancelled) as caught:
        run_fresh(_statements(), cancelled=lambda: next(asked))
    assert caught.value.position == 2


def test_checks_and_export_errors_both_run_through_the_one_loop(monkeypatch):
    calls = []
    real = fresh_run.run_fresh

    def counted(*args, **kwargs):
        calls.append(len(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(lesson_checks, "run_fresh", counted)
    monkeypatch.setattr(step_errors, "run_fresh", counted)
    lesson = find_lesson("inplace-on-a-leaf")
    lesson_checks.check_lesson(lesson)
    errors = step_errors.program_errors([s.code for s in lesson.steps])
    assert calls == [len(lesson.steps), len(lesson.steps)]
    assert [e is not None for e in errors] == [r.error is not None for r in
                                               lesson_checks.check_lesson(lesson).results]


def test_a_retry_past_its_deadline_says_the_steps_an_earlier_try_ran_were_not_checked_again():
    # A retry after a timeout at step 4 (index 3) with no time left: steps 1-3 ran in the earlier try (never
    # "not run": "ran, not checked again"), step 4 is its given error, and the steps never reached are not run;
    # the retry runs nothing past its deadline.
    from tensorlab.core.protocol.results import ErrorInfo

    statements = [parse_one(f"a{i} = torch.ones(2)") for i in range(6)]
    stopped = ErrorInfo("WorkerTimeout", "the step ran longer than 3 s and was stopped")
    results = run_fresh(statements, given={3: stopped}, seconds=0.0, limit=8.0)
    kinds = [None if r.error is None else r.error.type for r in results]
    assert kinds == ["TimeLimit", "TimeLimit", "TimeLimit", "WorkerTimeout", "TimeLimit", "TimeLimit"]
    assert all(r.error.message.startswith("ran, but not checked again") for r in results[:3])
    assert results[4].error.message.startswith("not run") and "time limit of 8 s" in results[4].error.message
    # With time left, they are replayed and their results are this try's.
    again = run_fresh(statements, given={3: stopped}, seconds=60.0, limit=60.0)
    assert [None if r.error is None else r.error.type for r in again][:3] == [None, None, None]

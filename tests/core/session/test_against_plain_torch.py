"""Every field TensorLab reports equals what plain Python + torch report for the same code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tensorlab.core.lessons.lesson import builtin_lessons, load_lesson
from tensorlab.core.lessons.play_through import lesson_json
from tensorlab.core.worker.in_process import run_lesson
from tests.core.reference import others_differences, run_plain

DATA = Path(__file__).resolve().parents[2] / "data"
_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$")

LESSONS = builtin_lessons() + [load_lesson(p) for p in sorted(DATA.glob("scenario-*.toml"))]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda l: l.id)
def test_every_field_matches_plain_torch(lesson):
    ours = lesson_json(lesson, "cpu", run_lesson(lesson))["steps"]
    theirs = run_plain([s.code for s in lesson.steps])
    assert len(ours) == len(theirs)
    for mine, ref in zip(ours, theirs):
        where = f"step {mine['index'] + 1}: {mine['code']}"
        assert mine["ok"] == ref["ok"], where
        assert mine["error"] == ref["error"], where
        assert mine["output"] == ref["output"], where
        assert mine["warnings"] == [_TRIGGERED.sub("", w) for w in ref["warnings"]], where
        assert list(mine["tensors"]) == list(ref["tensors"]), where
        assert not others_differences(mine["others"], ref["others"]), where
        for name, fields in ref["tensors"].items():
            assert mine["tensors"][name] == fields, f"{where}: {name}"

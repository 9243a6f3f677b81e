"""Making the lesson index: a lesson's families are those its own run raises (errors and warnings)."""

from __future__ import annotations

from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.tools.error_index import build_index, lesson_families


def test_a_lesson_s_families_come_from_its_run():
    assert "graph_used" in lesson_families(find_lesson("backward-twice"))
    assert "nonleaf_grad" in lesson_families(find_lesson("clone-keeps-the-graph"))    # a warning counts too


def test_every_family_is_listed_even_without_a_lesson():
    index = build_index([find_lesson("backward-twice")])
    assert index["families"]["graph_used"] == ["backward-twice"]
    assert index["families"]["mixed_devices"] == []

"""The shipped index of which built-in lessons raise which errors: made again by running every lesson, it is the same.

After adding or changing a lesson: ``python -m tensorlab.core.tools.error_index --write``.
"""

from __future__ import annotations

import json

from tensorlab.core.diagnose.families import FAMILIES
from tensorlab.core.diagnose.lesson_index import index_path, lessons_for, load_index
from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.core.tools.error_index import build_index, index_text


def test_the_shipped_index_is_what_running_the_lessons_gives():
    shipped = index_path().read_text(encoding="utf-8")
    made = index_text(build_index())
    assert shipped == made, "run `python -m tensorlab.core.tools.error_index --write` and commit the index"


def test_the_index_names_built_in_lessons_for_every_family():
    index = json.loads(index_path().read_text(encoding="utf-8"))
    assert set(index["families"]) == set(FAMILIES)
    ids = {lesson.id for lesson in builtin_lessons()}
    for family, lessons in index["families"].items():
        assert set(lessons) <= ids
        assert lessons_for(family) == tuple(lessons)
    assert load_index()["saved_changed"], "a lesson shows a saved tensor changed in place"
    assert lessons_for("no such family") == ()

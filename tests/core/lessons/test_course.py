"""The course manifest: the built-in lessons' order, chapters and prerequisites, in one file."""

from __future__ import annotations

from collections import Counter

import pytest

from tensorlab.core.files.package_data import lessons_dir
from tensorlab.core.lessons.course import COURSE_FILE, CourseError, builtin_course, parse_course, read_course
from tensorlab.core.lessons.lesson import LessonError, builtin_lessons, load_lesson

FILES = {p.stem: p for p in sorted(lessons_dir().glob("*.toml")) if p.name != COURSE_FILE}


def test_every_built_in_lesson_is_in_the_course_exactly_once():
    listed = Counter(builtin_course().order)
    assert set(listed) == set(FILES), "every file in the course, and nothing else"
    assert all(count == 1 for count in listed.values())


@pytest.mark.parametrize("lesson_id", list(FILES))
def test_a_lesson_files_own_chapter_and_prerequisites_agree_with_the_course(lesson_id):
    own = load_lesson(FILES[lesson_id])
    found = builtin_course().find(lesson_id)
    assert found is not None
    chapter, entry = found
    assert own.chapter == chapter.title
    assert own.prerequisites == entry.prerequisites
    for language in ("ko",):
        assert own.text("chapter", language) == chapter.text(language)


def test_the_course_decides_the_order_chapters_and_prerequisites_of_built_in_lessons():
    lessons = builtin_lessons()
    course = builtin_course()
    assert [l.id for l in lessons] == list(course.order)
    for lesson in lessons:
        chapter, entry = course.find(lesson.id)
        assert (lesson.chapter, lesson.prerequisites) == (chapter.title, entry.prerequisites)
        assert lesson.text("chapter", "ko") == chapter.text("ko")
    # The chapters run in the course's order, one run each (the picker groups them).
    runs = [c for i, c in enumerate(l.chapter for l in lessons) if i == 0 or lessons[i - 1].chapter != c]
    assert runs == [c.title for c in course.chapters]


def test_the_manifest_wins_over_a_built_in_files_own_chapter(monkeypatch, tmp_path):
    import shutil

    from tensorlab.core.files import package_data
    from tensorlab.core.lessons import course as course_module
    from tensorlab.core.lessons import lesson as lesson_module

    folder = tmp_path / "lessons"
    shutil.copytree(lessons_dir(), folder)
    text = (folder / "views-share-storage.toml").read_text(encoding="utf-8")
    (folder / "views-share-storage.toml").write_text(text.replace('chapter = "Names, objects and memory"',
                                                                  'chapter = "Somewhere else"'), encoding="utf-8")
    monkeypatch.setattr(package_data, "_RESOURCES", tmp_path)
    for cached in (course_module.builtin_course, lesson_module._builtin_lessons):
        cached.cache_clear()
    try:
        moved = next(l for l in builtin_lessons() if l.id == "views-share-storage")
        assert moved.chapter == "Names, objects and memory"
        (folder / COURSE_FILE).write_text("format = 'tensorlab-course'\nversion = 1\nchapter = 5\n")
        for cached in (course_module.builtin_course, lesson_module._builtin_lessons):
            cached.cache_clear()
        with pytest.raises(LessonError, match="course.toml"):
            builtin_lessons()
    finally:
        for cached in (course_module.builtin_course, lesson_module._builtin_lessons):
            cached.cache_clear()


HEAD = {"format": "tensorlab-course", "version": 1}
BAD = {
    "no chapters": {**HEAD},
    "another format": {"format": "tensorlab-user-steps", "version": 1, "chapter": []},
    "a lesson twice": {**HEAD, "chapter": [{"title": "A", "lessons": [{"id": "a"}]},
                                           {"title": "B", "lessons": [{"id": "a"}]}]},
    "a bad id": {**HEAD, "chapter": [{"title": "A", "lessons": [{"id": "Not An Id"}]}]},
    "an unknown key": {**HEAD, "chapter": [{"title": "A", "order": 1, "lessons": [{"id": "a"}]}]},
    "prerequisites that are text": {**HEAD, "chapter": [{"title": "A", "lessons": [{"id": "a",
                                                                                     "prerequisites": "b"}]}]},
}


@pytest.mark.parametrize("document", BAD.values(), ids=BAD.keys())
def test_a_bad_manifest_is_refused_with_a_reason(document):
    with pytest.raises(CourseError):
        parse_course(document)


def test_a_manifest_with_a_5000_digit_integer_is_a_course_error(tmp_path):
    (tmp_path / COURSE_FILE).write_text("format = 'tensorlab-course'\nversion = " + "1" * 5000 + "\n")
    with pytest.raises(CourseError, match="an integer of 5,000 digits"):
        read_course(tmp_path / COURSE_FILE)
